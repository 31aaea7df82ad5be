#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot one kernel with the thpbench initramfs in qemu and keep its console.
#
#   boot.sh --kernel BZIMAGE --initrd INITRD --log LOG [--label L]
#           [--boot N] [--accel auto|kvm|tcg] [--mem SIZE] [--smp N]
#           [--timeout SEC] [--append PARAMS] [--quiet]
#
# --accel auto (the default) uses KVM only if a probe boot under KVM
# reaches /init ("thpbench-init: probe ok") within 60 s; nested KVM can
# exist and still fail ("emulation failure", hangs), so /dev/kvm alone
# proves nothing. Otherwise TCG (emulation, much slower, and its timings
# are not hardware timings). The first line on stdout is "accel=kvm" or
# "accel=tcg" and why. The console (serial, ttyS0) goes to LOG; lines that
# are not base64 are echoed to stderr prefixed "guest| " unless --quiet.
# Exit: qemu's status (0 when the guest rebooted at the end), 124 on
# timeout, 2 on usage errors.
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"

kernel='' initrd='' logf='' label=guest nboot=0 accel=auto mem=6G smp=2
timeout=1800 quiet=0 append=''

usage()
{
	sed -n '4,19p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?}; shift 2 ;;
	--initrd) initrd=${2:?}; shift 2 ;;
	--log) logf=${2:?}; shift 2 ;;
	--label) label=${2:?}; shift 2 ;;
	--boot) nboot=${2:?}; shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--append) append=${2?}; shift 2 ;;
	--quiet) quiet=1; shift ;;
	-h|--help) usage ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[ -n "$kernel" ] && [ -n "$initrd" ] && [ -n "$logf" ] || usage
[ -f "$kernel" ] || die "kernel image '$kernel' not found"
[ -f "$initrd" ] || die "initramfs '$initrd' not found"
case $accel in auto|kvm|tcg) ;; *) die "--accel must be auto, kvm or tcg" ;; esac
need_cmd qemu-system-x86_64 timeout

# Run qemu on the kernel; $1 accel, $2 extra command line, $3 log, $4 limit.
qemu_boot()
{
	local acc=$1 extra=$2 out=$3 limit=$4 cpu=max accopt=tcg,thread=multi
	if [ "$acc" = kvm ]; then
		cpu=host
		accopt=kvm
	fi
	timeout -k 10 "$limit" qemu-system-x86_64 \
		-accel "$accopt" -cpu "$cpu" -m "$mem" -smp "$smp" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 $extra" \
		-display none -monitor none -serial stdio -no-reboot -nodefaults \
		< /dev/null > "$out" 2>&1
}

if [ "$accel" = auto ]; then
	if [ ! -w /dev/kvm ]; then
		accel=tcg
		why="/dev/kvm absent or not writable"
	else
		probe=$(mktemp)
		if qemu_boot kvm "thpbench.probe=1" "$probe" 60 &&
			grep -aq 'thpbench-init: probe ok' "$probe"; then
			accel=kvm
			why="probe boot under KVM reached /init"
		else
			accel=tcg
			why="probe boot under KVM failed: $(grep -a -m1 -i 'error\|failure\|fail' "$probe" || echo 'no /init within 60 s')"
		fi
		rm -f "$probe"
	fi
else
	why="requested"
fi
echo "accel=$accel ($why)"

mkdir -p "$(dirname "$logf")"
: > "$logf"
if [ "$quiet" = 0 ]; then
	tail -F -n +1 "$logf" 2>/dev/null | tr -d '\r' |
		grep -av --line-buffered '^[A-Za-z0-9+/=]\{1,76\}$' |
		sed -u 's/^/guest| /' >&2 &
	tailer=$!
	trap 'kill $tailer 2>/dev/null || true' EXIT
fi
rc=0
qemu_boot "$accel" "$append thpbench.label=$label thpbench.boot=$nboot" "$logf" "$timeout" || rc=$?
[ "$quiet" = 1 ] || { sleep 1; kill "$tailer" 2>/dev/null || true; }
[ "$rc" -ne 124 ] || log "guest timed out after $timeout s ($logf)"
exit "$rc"
