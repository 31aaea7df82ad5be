#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/swap --charge-fallback: 64K mTHPs paged out to the harness's
# zram device (swap = zram), the case's memcg (memcg = SIZE) filled to
# less than 64 KiB under its limit, defrag never (the swap-in's large
# folio is charged without direct reclaim), then the first page of each
# chunk read: mm/memory.c alloc_swap_folio -> mem_cgroup_swapin_charge_folio
# fails, swpin_fallback_charge and swpin_fallback. For the workload's own
# memory: the chunks it saw come back as one 4 KiB page with less than a
# chunk of room before the read (charge_fallbacks, pagemap) are a lower
# bound for the 64kB swpin_fallback, and that less the system's plain
# allocation failures (swpin_fallback_charge_min) for swpin_fallback_charge.
# zswap is never touched (once on, every swap-in is 4 KiB until a reboot).

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/swap
need_bin "$bin"
TB=./harness/thpbench
st=/sys/kernel/mm/transparent_hugepage/hugepages-64kB/stats

expect_rc 2 "--charge-fallback with a 2M chunk refused" "$bin" --charge-fallback
expect_rc 2 "--charge-fallback with --fragment-swap refused" \
	"$bin" --charge-fallback --chunk 64K --fragment-swap

[ "$(id -u)" = 0 ] && [ -e /sys/class/zram-control/hot_add ] ||
	skip_all "needs root and zram (a swap device the harness makes)"
[ -e $st/swpin_fallback_charge ] ||
	skip_all "no $st/swpin_fallback_charge (per-size swap-in stats: 6.12+)"
zs=$(cat /sys/module/zswap/parameters/enabled 2>/dev/null)
[ "$zs" != Y ] && [ "$(sed -n 's/^zswpout //p' /proc/vmstat)" = 0 ] ||
	skip_all "zswap has been on since boot: every swap-in is 4 KiB until a reboot"

cat > "$tmp/s.conf" <<CONF
[suite]
name = swap-charge-test
repetitions = 1
warmup = 0

[case charge]
workload = $PWD/$bin
args = --size 16M --chunk 64K --charge-fallback
thp = madvise
mthp = 64K
set = transparent_hugepage/defrag=never
swap = zram:128M
memcg = 64M
expect_huge = no
CONF
$TB run "$tmp/s.conf" -o "$tmp/out-run" --wait=300 --progress none \
	> "$tmp/run.log" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "the suite ran (exit 0)" ||
	{ fail "thpbench run exit $rc"; tail -20 "$tmp/run.log"; }
log=$(ls "$tmp/out-run/logs/charge"_* 2>/dev/null | head -1)
[ -n "$log" ] || { fail "no log of the case"; finish; }
if grep -q 'not measurable here' "$log"; then
	skip "$(grep -o 'not measurable here.*' "$log" | head -1)"
	finish
fi
val() { sed -n "s/^$1 //p" "$log" | head -1; }
grep -qx ok "$log" && pass "data verified after swap-in" ||
	{ fail "no 'ok'"; tail -5 "$log"; }
g=$(val charge_fallbacks); fb=$(val mthp_swpin_fallback)
fbc=$(val mthp_swpin_fallback_charge); bound=$(val swpin_fallback_charge_min)
[ "${g:-0}" -ge 1 ] && pass "$g swap-ins of ours fell back under the limit" ||
	fail "charge_fallbacks '$g'"
[ "${fb:-0}" -ge "${g:-1}" ] && pass "64kB swpin_fallback rose by $fb >= $g" ||
	fail "64kB swpin_fallback rose by '$fb', wanted >= $g"
[ -n "$bound" ] && [ "${fbc:-0}" -ge "$bound" ] &&
	pass "64kB swpin_fallback_charge rose by $fbc >= $bound (ours less plain allocation failures)" ||
	fail "64kB swpin_fallback_charge rose by '$fbc', wanted >= '$bound'"
grep -q '^/dev/zram' /proc/swaps && fail "a zram swap device is still on" ||
	pass "no zram swap left on after the run"
[ "$(cat /sys/module/zswap/parameters/enabled 2>/dev/null)" = "$zs" ] &&
	pass "zswap enabled still $zs" || fail "zswap enabled changed"
finish
