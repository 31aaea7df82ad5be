#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# extract-results.sh against console logs made with the real encoder
# (init --emit): a whole transfer amid console noise and CRLF comes back
# byte for byte; a truncated, corrupted, missing or absent transfer fails
# with exit 2 and a message that says which.
. "$(dirname "$0")/lib.sh"

command -v cksum >/dev/null && command -v base64 >/dev/null ||
	skip "cksum/base64 not installed"
build_init
ex="$KP/scripts/extract-results.sh"

# ~10 KB of JSON-ish text so the block spans many base64 lines.
{
	printf '{"schema": "thpbench-results/1", "cases": ['
	for i in $(seq 1 200); do printf '{"id": "case%d", "v": %d}, ' "$i" "$((i * 7))"; done
	printf '{}]}\n'
} > "$t_tmp/results.json"
"$t_tmp/init" --emit "$t_tmp/results.json" 0 > "$t_tmp/block"
nlines=$(wc -l < "$t_tmp/block")
[ "$nlines" -gt 20 ] || fail "encoder produced only $nlines lines"

# expect NAME LOG RC PATTERN: run the extractor, check exit and message.
expect()
{
	local name=$1 logf=$2 want_rc=$3 pat=$4 rc=0
	rm -f "$t_tmp/got.json"
	"$ex" "$logf" "$t_tmp/got.json" > "$t_tmp/ex.out" 2> "$t_tmp/ex.err" || rc=$?
	if [ "$rc" != "$want_rc" ]; then
		fail "$name: exit $rc, want $want_rc ($(cat "$t_tmp/ex.err"))"
		return
	fi
	if [ -n "$pat" ] && ! grep -q "$pat" "$t_tmp/ex.err"; then
		fail "$name: message '$(cat "$t_tmp/ex.err")' lacks '$pat'"
		return
	fi
	if [ "$want_rc" != 0 ] && [ -e "$t_tmp/got.json" ]; then
		fail "$name: wrote an output file despite failing"
		return
	fi
	ok "$name"
}

# Whole transfer, with boot noise before, CRLF line ends, noise after.
{
	printf '[    0.000000] Linux version 6.1.0-tb-base\r\n'
	printf 'thpbench-init: label A\r\n'
	sed 's/$/\r/' "$t_tmp/block"
	printf '[   42.1] reboot: Restarting system\r\n'
} > "$t_tmp/good.log"
expect "complete transfer" "$t_tmp/good.log" 0 ""
cmp -s "$t_tmp/got.json" "$t_tmp/results.json" 2>/dev/null ||
	fail "complete transfer: bytes differ from the original"
grep -qx 'status=0' "$t_tmp/ex.out" || fail "complete transfer: no status=0 line"

# Cut after half the lines: no END marker.
head -n $((nlines / 2)) "$t_tmp/block" > "$t_tmp/trunc.log"
expect "truncated transfer" "$t_tmp/trunc.log" 2 "truncated: received [0-9]* of [0-9]* bytes"

# Cut in the middle of a line (qemu killed mid-write).
head -c $(( $(wc -c < "$t_tmp/block") / 3 )) "$t_tmp/block" > "$t_tmp/cut.log"
expect "transfer cut mid-line" "$t_tmp/cut.log" 2 "truncated"

# Lines lost in the middle but the END marker arrived.
{ head -n 5 "$t_tmp/block"; tail -n 3 "$t_tmp/block"; } > "$t_tmp/gap.log"
expect "lines lost in the middle" "$t_tmp/gap.log" 2 "truncated"

# One character changed: same length, wrong CRC.
awk 'NR == 3 { $0 = (substr($0, 1, 1) == "A" ? "B" : "A") substr($0, 2) } { print }' \
	"$t_tmp/block" > "$t_tmp/flip.log"
expect "corrupted byte" "$t_tmp/flip.log" 2 "corrupted: cksum"

# A kernel message inside the block.
awk 'NR == 4 { print "[   12.3] random: crng init done" } { print }' \
	"$t_tmp/block" > "$t_tmp/noise.log"
expect "console noise inside the block" "$t_tmp/noise.log" 2 "non-base64 line"

# The guest never got that far.
printf 'Kernel panic - not syncing: VFS: Unable to mount root fs\n' > "$t_tmp/panic.log"
expect "no transfer at all" "$t_tmp/panic.log" 2 "never reached the transfer"

# The run wrote nothing.
"$t_tmp/init" --emit "$t_tmp/does-not-exist" 2 > "$t_tmp/missing.log" || true
expect "guest wrote no results" "$t_tmp/missing.log" 2 "wrote no results.json (status=2)"

# A broken first attempt followed by a whole one: the last block wins.
{ head -n 6 "$t_tmp/block"; cat "$t_tmp/block"; } > "$t_tmp/twice.log"
expect "last block wins" "$t_tmp/twice.log" 0 ""
# A kexec chain: one block per step; --step picks each, a missing step fails.
printf '{"other": "file", "x": [1, 2, 3]}\n' > "$t_tmp/second.json"
"$t_tmp/init" --emit "$t_tmp/second.json" 0 | sed 's/ step=0$/ step=1/' > "$t_tmp/block1"
{ cat "$t_tmp/block"; printf 'thpbench-init: kexec into /boot/B.bzImage\n'; cat "$t_tmp/block1"; } > "$t_tmp/chain.log"
rm -f "$t_tmp/s0.json" "$t_tmp/s1.json"
"$ex" --step 0 "$t_tmp/chain.log" "$t_tmp/s0.json" > /dev/null 2>&1 &&
	cmp -s "$t_tmp/s0.json" "$t_tmp/results.json" || fail "--step 0 is not the first block"
"$ex" --step 1 "$t_tmp/chain.log" "$t_tmp/s1.json" > /dev/null 2>&1 &&
	cmp -s "$t_tmp/s1.json" "$t_tmp/second.json" || fail "--step 1 is not the second block"
rc=0
"$ex" --step 2 "$t_tmp/chain.log" "$t_tmp/s2.json" > /dev/null 2> "$t_tmp/s2.err" || rc=$?
[ "$rc" = 2 ] && grep -q 'never reached the transfer' "$t_tmp/s2.err" || fail "--step 2 (absent): exit $rc"
[ "$T_FAILS" -eq 0 ] && ok "--step picks each block of a kexec chain"

# --kernel-gcov: the gcda directories come after results.json as one cpio
# block; --name picks it, the default still picks results.json, and the
# archive holds the regular files byte for byte and no symlink.
if command -v cpio > /dev/null; then
	g=$t_tmp/kg
	mkdir -p "$g/3/w/obj/mm" "$g/4/w/obj/mm"
	printf '\001\000gcda\377' > "$g/3/w/obj/mm/huge_memory.gcda"
	head -c 5000 /dev/urandom > "$g/4/w/obj/mm/memory.gcda"
	ln -s /etc/passwd "$g/4/w/obj/mm/link.gcda"
	{ cat "$t_tmp/block"; "$t_tmp/init" --emit-kgcov "$g" 0; } > "$t_tmp/kg.log"
	"$ex" "$t_tmp/kg.log" "$t_tmp/kg.json" > /dev/null 2>&1 &&
		cmp -s "$t_tmp/kg.json" "$t_tmp/results.json" ||
		fail "with a kgcov block after it, results.json is not what was sent"
	"$ex" --name kgcov.cpio "$t_tmp/kg.log" "$t_tmp/kg.cpio" > /dev/null 2>&1 ||
		fail "--name kgcov.cpio did not extract the block"
	mkdir "$t_tmp/kgx"
	(cd "$t_tmp/kgx" && cpio -id --quiet --no-absolute-filenames < "$t_tmp/kg.cpio") ||
		fail "the kgcov archive does not unpack"
	cmp -s "$t_tmp/kgx/kgcov/3/w/obj/mm/huge_memory.gcda" "$g/3/w/obj/mm/huge_memory.gcda" &&
		cmp -s "$t_tmp/kgx/kgcov/4/w/obj/mm/memory.gcda" "$g/4/w/obj/mm/memory.gcda" ||
		fail "the kgcov archive's files differ from the guest's"
	[ ! -e "$t_tmp/kgx/kgcov/4/w/obj/mm/link.gcda" ] || fail "the kgcov archive holds a symlink"
	rc=0
	"$ex" --name 'a;b' "$t_tmp/kg.log" "$t_tmp/x" > /dev/null 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "--name with a bad name: exit $rc, want 2"
	[ "$T_FAILS" -eq 0 ] && ok "kgcov.cpio block: extracted by name, unpacked byte for byte"
fi
finish
