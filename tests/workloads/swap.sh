#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/swap: THPs and 64K mTHPs swapped out by MADV_PAGEOUT to a
# zram device the harness makes for the case (swap = zram) and touched
# back (and, --fragment-swap, out split: thp_swpout_fallback and the
# size's swpout_fallback). For the workload's own memory: chunks that were large folios
# before and are all swap entries after (went_whole, from pagemap) must
# each be counted by thp_swpout + thp_swpout_fallback (2M) or the size's
# stats swpout + swpout_fallback (64K) - a lower bound, the counters are
# system-wide - and the data must read back. Without swap it says "not
# measurable here" (exit 3). --small-ok under thp = never is the 4 KiB
# baseline: no large chunk, and pswpout covers the pages smaps says went
# out.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/swap
need_bin "$bin"
TB=./harness/thpbench

"$bin" --help > "$tmp/help" && grep -q '^usage: swap' "$tmp/help" &&
	pass "--help prints usage, exit 0" || fail "--help"
"$bin" --chunk 3K > /dev/null 2>&1
[ $? -eq 2 ] && pass "--chunk 3K is a usage error (exit 2)" ||
	fail "--chunk 3K not refused with exit 2"

if [ "$(sed -n 's/^SwapTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)" = 0 ]; then
	"$bin" --size 4M > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && grep -q 'not measurable here: no swap' "$tmp/err" &&
		pass "no swap here: exit 3, not measurable here" ||
		{ fail "no swap: exit $rc, wanted 3 and 'not measurable here'"; show_output; }
fi

if [ "$(id -u)" != 0 ] || [ ! -e /sys/class/zram-control/hot_add ]; then
	skip_all "the swap-out checks need root and zram (a swap device the harness makes)"
fi

# Per-size stats are where the mTHP check looks.
stats=/sys/kernel/mm/transparent_hugepage/hugepages-64kB/stats/swpout

# Enabling zswap even once makes this kernel swap in 4 KiB pages only,
# until a reboot (mm/memory.c alloc_swap_folio: zswap_never_enabled()):
# nothing can undo that, so the zswap case runs only where zswap has been
# on already since boot (enabled Y, or zswpout > 0), or when asked for
# with THPBENCH_TEST_ZSWAP=1.
zsw=/sys/module/zswap/parameters/enabled
zsw_before=$(cat "$zsw" 2>/dev/null)
zswpout=$(sed -n 's/^zswpout //p' /proc/vmstat)
if [ -n "$zsw_before" ] && [ "$zsw_before" != Y ] && [ "${zswpout:-0}" = 0 ] &&
   [ "${THPBENCH_TEST_ZSWAP:-0}" != 1 ]; then
	skip "mthp64z: zswap never on since boot; turning it on would stop large-folio swap-in until a reboot (THPBENCH_TEST_ZSWAP=1 runs it)"
	zsw_before=
fi
cat > "$tmp/swap.conf" <<CONF
[suite]
name = swap-test
repetitions = 1
warmup = 0

[case thp]
workload = $PWD/$bin
args = --size 32M
thp = always
swap = zram:128M
expect_huge = no

[case mthp64]
workload = $PWD/$bin
args = --size 32M --chunk 64K
thp = madvise
mthp = 64K
swap = zram:128M
expect_huge = no

[case thpfrag]
workload = $PWD/$bin
args = --size 16M --fragment-swap
thp = always
swap = zram:64M
expect_huge = no

[case small]
workload = $PWD/$bin
args = --size 16M --small-ok
thp = never
swap = zram:64M
expect_huge = no

[case mthp64frag]
workload = $PWD/$bin
args = --size 16M --chunk 64K --fragment-swap
thp = madvise
mthp = 64K
swap = zram:64M
expect_huge = no

CONF
[ -n "$zsw_before" ] && cat >> "$tmp/swap.conf" <<CONF

[case mthp64z]
workload = $PWD/$bin
args = --size 32M --chunk 64K
thp = madvise
mthp = 64K
swap = zram:128M
zswap = on
expect_huge = no

CONF
$TB run "$tmp/swap.conf" -o "$tmp/out-run" --wait=300 --progress none \
	> "$tmp/run.log" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "the suite ran (exit 0)" ||
	{ fail "thpbench run exit $rc"; tail -20 "$tmp/run.log"; }

val() { sed -n "s/^$2 //p" "$1" | head -1; }
check_case() {
	log=$(ls "$tmp/out-run/logs/$1"_* 2>/dev/null | head -1)
	if [ -z "$log" ]; then
		fail "$1: no log"; return
	fi
	if grep -q 'not measurable here' "$log"; then
		skip "$1: $(grep -o 'not measurable here.*' "$log" | head -1)"
		return
	fi
	grep -qx ok "$log" && pass "$1: verified after swap-in" ||
		{ fail "$1: no 'ok'"; tail -5 "$log"; return; }
	went=$(val "$log" went_whole)
	large=$(val "$log" large)
	a=$(val "$log" "$2"); b=$(val "$log" "$3"); z=$(val "$log" "${4:-none}")
	[ "${large:-0}" -ge 1 ] && pass "$1: $large chunks were large folios" ||
		fail "$1: no large folios"
	[ "${went:-0}" -ge 1 ] && pass "$1: $went large chunks went to swap whole" ||
		fail "$1: went_whole '$went', wanted >= 1"
	[ $((${a:-0} + ${b:-0} + ${z:-0})) -ge "${went:-1}" ] &&
		pass "$1: $2 + $3 ${4:++ $4 }= $((${a:-0} + ${b:-0} + ${z:-0})) >= $went" ||
		fail "$1: $2 + $3 ${4:++ $4 }= $((${a:-0} + ${b:-0} + ${z:-0})) < went_whole $went"
}
check_case thp thp_swpout thp_swpout_fallback
# The 4 KiB baseline (--small-ok, thp = never): timed, not refused.
log=$(ls "$tmp/out-run/logs/small"_* 2>/dev/null | head -1)
if [ -z "$log" ]; then
	fail "small: no log"
elif grep -q 'not measurable here' "$log"; then
	skip "small: $(grep -o 'not measurable here.*' "$log" | head -1)"
else
	grep -qx ok "$log" && pass "small: 4 KiB baseline verified after swap-in" ||
		fail "small: no 'ok'"
	[ "$(val "$log" large)" = 0 ] && pass "small: no large folio under thp=never" ||
		fail "small: large '$(val "$log" large)' under thp=never"
	kb=$(val "$log" swapped_kb); out=$(val "$log" pswpout)
	[ -n "$(val "$log" pageout_usec)" ] && [ -n "$(val "$log" swapin_usec)" ] &&
		pass "small: page-out and swap-in timed" || fail "small: no times"
	[ "${out:-0}" -ge $((${kb:-1} / 4)) ] &&
		pass "small: pswpout $out >= $kb kB / 4 KiB" ||
		fail "small: pswpout '$out' < swapped_kb $kb / 4"
fi
# --fragment-swap: no contiguous free swap range left, so every large
# chunk that went out split (its swap entries, by pagemap, not one aligned
# run: went_split) was counted by the fallback counter.
check_split() {
	log=$(ls "$tmp/out-run/logs/$1"_* 2>/dev/null | head -1)
	if [ -z "$log" ]; then
		fail "$1: no log"; return
	fi
	if grep -q "not measurable here" "$log"; then
		skip "$1: $(grep -o "not measurable here.*" "$log" | head -1)"
		return
	fi
	grep -qx ok "$log" && pass "$1: verified after swap-in" ||
		{ fail "$1: no 'ok'"; tail -5 "$log"; return; }
	split=$(val "$log" went_split); fb=$(val "$log" "$2")
	freed=$(val "$log" filler_freed)
	[ "${freed:-0}" -ge 1 ] && pass "$1: $freed filler slots freed" ||
		fail "$1: filler_freed '$freed'"
	[ "${split:-0}" -ge 1 ] && pass "$1: $split large chunks went out split" ||
		fail "$1: went_split '$split', wanted >= 1"
	[ "${fb:-0}" -ge "${split:-1}" ] &&
		pass "$1: $2 rose by $fb >= $split split chunks" ||
		fail "$1: $2 rose by '$fb', wanted >= $split"
}
check_split thpfrag thp_swpout_fallback
if [ -e "$stats" ]; then
	check_case mthp64 mthp_swpout mthp_swpout_fallback
	check_split mthp64frag mthp_swpout_fallback
	if [ -n "$zsw_before" ]; then
		check_case mthp64z mthp_swpout mthp_swpout_fallback mthp_zswpout
		z=$(val "$(ls "$tmp/out-run/logs/mthp64z"_* | head -1)" mthp_zswpout)
		[ "${z:-0}" -ge 1 ] && pass "mthp64z: zswap took $z 64K folios whole" ||
			fail "mthp64z: mthp_zswpout '$z' with zswap on"
		[ "$(cat "$zsw")" = "$zsw_before" ] &&
			pass "zswap enabled is back to $zsw_before" ||
			fail "zswap enabled reads $(cat "$zsw"), was $zsw_before"
	fi
else
	skip "mthp64: no per-size swap stats ($stats)"
fi
grep -q '^/dev/zram' /proc/swaps && ! $TB restore 2>&1 | grep -q nothing &&
	fail "a zram swap device is still on after the run" ||
	pass "no zram swap left on after the run"
finish
