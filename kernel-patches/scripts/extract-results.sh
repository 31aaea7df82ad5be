#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Pull results.json out of a guest's serial console log.
#
#   extract-results.sh [--step I] [--name NAME] CONSOLE.LOG OUT
#
# Finds the last block named NAME (results.json unless --name; kgcov.cpio
# is the guest's gcov data, ab --coverage) that kernel-patches/init/init.c
# printed (with --step, the last one of step I of a kexec chain: its
# header says step=I):
#   THPBENCH-RESULT-BEGIN name=results.json bytes=N cksum=C status=S step=I
#   <base64 lines>
#   THPBENCH-RESULT-END
# decodes it and checks the byte count and the POSIX cksum(1) CRC, so a
# transfer cut short (guest timeout, console noise, qemu killed) is
# reported instead of handing a partial file to `thpbench compare`.
# On success writes OUT.json and prints "status=S" (the guest's thpbench
# exit status). Exit 0 ok; 2 with a message saying what was wrong.
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"

case ${1:-} in -h|--help) kp_help ;; esac
step=
name=results.json
while [ $# -gt 2 ]; do
	case $1 in
	--step) step=${2:?}; shift 2
		case $step in *[!0-9]*|'') kp_die "--step takes a number" ;; esac ;;
	--name) name=${2:?}; shift 2
		case $name in *[!a-z0-9.]*|'') kp_die "--name takes a block name of a-z 0-9 . (results.json, kgcov.cpio)" ;; esac ;;
	*) kp_usage ;;
	esac
done
[ $# -eq 2 ] || kp_usage
logf=$1
outf=$2
[ -f "$logf" ] || kp_die "console log '$logf' not found"
kp_need_cmd base64 cksum awk

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tr -d '\r' < "$logf" > "$tmp/log"

pat="^THPBENCH-RESULT-BEGIN name=${name//./\\.} "
[ -z "$step" ] || pat="$pat.* step=$step\$"
hline=$(grep -an "$pat" "$tmp/log" | tail -n 1 || true)
header=${hline#*:}
start=${hline%%:*}
if [ -z "$header" ]; then
	missing=$(grep -a '^THPBENCH-RESULT-MISSING' "$tmp/log" | tail -n 1 || true)
	if [ -n "$missing" ]; then
		kp_die "$logf: the guest run wrote no $name (${missing#* }); see the thpbench output above it in the log"
	fi
	kp_log "last console lines of $logf:"
	tail -n 15 "$tmp/log" | sed 's/^/  | /' >&2
	kp_die "$logf: no THPBENCH-RESULT-BEGIN name=$name line: the guest never reached the transfer (boot failure, panic or timeout)"
fi

field()
{
	printf '%s\n' "$header" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
bytes=$(field bytes)
sum=$(field cksum)
status=$(field status)
case "$bytes$sum" in *[!0-9]*|'')
	kp_die "$logf: malformed header '$header'" ;;
esac

# Lines after the chosen BEGIN, up to its END or the next BEGIN; whether
# END came is recorded separately.
awk -v start="$start" 'NR < start {next}
     NR == start {inb=1; next}
     inb && /^THPBENCH-RESULT-BEGIN / {exit}
     inb && /^THPBENCH-RESULT-END$/ {end=1; exit}
     inb {print}
     END {print end + 0 > "/dev/stderr"}' \
	"$tmp/log" > "$tmp/b64" 2> "$tmp/ended"

if grep -qv '^[A-Za-z0-9+/=]*$' "$tmp/b64"; then
	bad=$(grep -nv '^[A-Za-z0-9+/=]*$' "$tmp/b64" | head -n 1)
	kp_die "$logf: transfer corrupted: non-base64 line inside the result block ($bad); kernel messages on the console?"
fi
if ! base64 -d < "$tmp/b64" > "$tmp/out" 2>/dev/null; then
	# A cut in the middle of a 4-character group: decode what is whole,
	# so the size report below says how much arrived.
	head -c $(( $(tr -d '\n' < "$tmp/b64" | wc -c) / 4 * 4 )) < <(tr -d '\n' < "$tmp/b64") |
		base64 -d > "$tmp/out" 2>/dev/null || true
fi
got=$(stat -c %s "$tmp/out")
if [ "$(cat "$tmp/ended")" != 1 ] || [ "$got" -ne "$bytes" ]; then
	kp_die "$logf: transfer truncated: received $got of $bytes bytes of $name$( [ "$(cat "$tmp/ended")" = 1 ] || echo ' and no THPBENCH-RESULT-END line'); rerun (a longer --timeout may help)"
fi
read -r gsum _ < <(cksum < "$tmp/out")
[ "$gsum" = "$sum" ] ||
	kp_die "$logf: transfer corrupted: cksum $gsum, the guest sent $sum"

cp "$tmp/out" "$outf.tmp"
mv "$outf.tmp" "$outf"
echo "status=$status"
