#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/collapse: MADV_COLLAPSE of a region of 4 KiB pages makes it
# THPs (by pagemap, or smaps when not root) and thp_collapse_alloc rises
# by at least as many; every page keeps its contents (the workload checks,
# exit 1 otherwise), unwritten ones (--ptes none) read zero, a region
# also mapped by a child (--ptes shared) collapses too, and so do THPs
# first PTE-mapped (--ptes compound). MADV_COLLAPSE
# ignores the THP mode, so this runs in whatever mode the machine is in;
# when the kernel had no huge page to give (EAGAIN/ENOMEM) the check is a
# skip, not a failure. khugepaged mode: protocol only (its knobs are
# the machine's and are not changed here; THP never is exit 3). --ptes
# swap without a swap device: "not measurable here", exit 2.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/collapse
need_bin "$bin"
size=16M
regions=8

val() { sed -n "s/^$1 //p" "$tmp/out"; }

for ptes in full none shared compound; do
	"$bin" --size $size --ptes $ptes >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q 'not measurable here' "$tmp/err"; then
		skip "--ptes $ptes: $(cat "$tmp/err")"
		continue
	fi
	if [ $rc -ne 0 ]; then
		fail "--ptes $ptes: exit $rc"
		show_output
		continue
	fi
	pass "--ptes $ptes: collapsed, contents verified (exit 0)"
	expect_grep "$tmp/out" "^regions $regions\$" "--ptes $ptes: $regions regions of 2 MiB"
	got=$(val collapsed)
	alloc=$(val thp_collapse_alloc)
	if grep -q '^collapse_errno' "$tmp/out"; then
		skip "--ptes $ptes: MADV_COLLAPSE failed ($(val collapse_errno)): no huge pages to be had now; collapsed $got"
		continue
	fi
	# madvise(MADV_COLLAPSE) returns 0 only when every range collapsed.
	if [ "${got:-0}" -eq $regions ]; then
		pass "--ptes $ptes: all $regions regions are THPs after MADV_COLLAPSE returned 0"
	else
		fail "--ptes $ptes: $got of $regions regions are THPs, MADV_COLLAPSE returned 0"
	fi
	if [ "${alloc:-0}" -ge "${got:-0}" ]; then
		pass "--ptes $ptes: thp_collapse_alloc rose by $alloc >= $got collapsed"
	else
		fail "--ptes $ptes: thp_collapse_alloc rose by '$alloc', wanted >= $got"
	fi
done

# khugepaged: as the machine's knobs pace it; the protocol, not a speed.
mode=$(thp_enabled)
"$bin" --mode khugepaged --size 4M --wait 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$(thp_enabled)" != "$mode" ]; then
	skip "--mode khugepaged (THP 'enabled' changed during the run)"
elif [ "$mode" = never ]; then
	if [ $rc -eq 3 ]; then pass "--mode khugepaged with THP never: exit 3"
	else fail "--mode khugepaged with THP never: exit $rc, wanted 3"; fi
elif [ $rc -eq 0 ]; then
	pass "--mode khugepaged: exit 0"
	expect_grep "$tmp/out" '^full_scans [0-9]+$' "--mode khugepaged prints full_scans"
	expect_grep "$tmp/out" '^collapsed [0-9]+$' "--mode khugepaged prints collapsed"
else
	fail "--mode khugepaged: exit $rc"
	show_output
fi

if [ "$(grep -vc '^Filename' /proc/swaps)" -eq 0 ]; then
	expect_rc 2 "--ptes swap without swap: exit 2" "$bin" --size 2M --ptes swap &&
		expect_grep "$tmp/err" 'not measurable here: .*swap device' \
			"--ptes swap: says why"
else
	skip "--ptes swap refusal (a swap device is on here)"
fi

# --ptes swap through the harness: it makes the zram swap device (swap =
# zram, undone however the run ends) and sets the khugepaged knobs
# (journalled, put back). max_ptes_swap 0: every range with a swapped-out
# PTE is refused, so after two full scans (every range scanned at least
# once) thp_scan_exceed_swap_pte rose by at least the ranges that had one
# (swap_ranges, by pagemap) and none collapsed.
swap_case() {
	cat > "$tmp/swap.conf" <<CONF
[suite]
name = collapse-swap-test
repetitions = 1
warmup = 0

[case exceed-swap]
workload = $PWD/$bin
args = --mode khugepaged --ptes swap --present 64 --size 8M --wait 20
thp = madvise
swap = zram:64M
set = transparent_hugepage/khugepaged/scan_sleep_millisecs=10
set = transparent_hugepage/khugepaged/pages_to_scan=8192
set = transparent_hugepage/khugepaged/max_ptes_swap=0
CONF
	./harness/thpbench run "$tmp/swap.conf" -o "$tmp/swap-run" --wait=300 \
		--progress none > "$tmp/swap-run.log" 2>&1
	rc=$?
	log=$(ls "$tmp/swap-run/logs/exceed-swap"_* 2>/dev/null | head -1)
	if [ -z "$log" ]; then
		fail "--ptes swap suite: exit $rc, no log"; tail -20 "$tmp/swap-run.log"
		return
	fi
	if grep -q "not measurable here" "$log"; then
		skip "--ptes swap: $(grep -o "not measurable here.*" "$log" | head -1)"
		return
	fi
	[ $rc -eq 0 ] && grep -qx ok "$log" &&
		pass "--ptes swap with a harness zram device: ran, contents verified" ||
		{ fail "--ptes swap suite: exit $rc"; tail -20 "$log"; return; }
	lv() { sed -n "s/^$1 //p" "$log" | head -1; }
	ranges=$(lv swap_ranges); scans=$(lv full_scans)
	ex=$(lv thp_scan_exceed_swap_pte); got=$(lv collapsed)
	[ "${ranges:-0}" -ge 1 ] && pass "--ptes swap: $ranges of 4 ranges have swapped PTEs" ||
		fail "--ptes swap: swap_ranges '$ranges'"
	if [ "${scans:-0}" -lt 2 ]; then
		skip "--ptes swap: khugepaged made $scans full scans in 20 s (a busy host)"
		return
	fi
	[ "${ex:-0}" -ge "${ranges:-1}" ] &&
		pass "--ptes swap: thp_scan_exceed_swap_pte rose by $ex >= $ranges ranges" ||
		fail "--ptes swap: thp_scan_exceed_swap_pte rose by '$ex', wanted >= $ranges"
	[ "${got:-5}" -le $((4 - ${ranges:-0})) ] &&
		pass "--ptes swap: $got collapsed (ranges with a swap PTE refused)" ||
		fail "--ptes swap: $got of 4 collapsed, $ranges had swap PTEs and max_ptes_swap 0"
}
if [ "$(id -u)" = 0 ] && [ -e /sys/class/zram-control/hot_add ]; then
	swap_case
else
	skip "--ptes swap: needs root and zram (a swap device the harness makes)"
fi

# --each: one MADV_COLLAPSE a range; every ENOMEM it saw (alloc_failed,
# the range's huge page not allocated) was counted by
# thp_collapse_alloc_failed. With memory to spare none fail: then all 4
# ranges collapse. (No free 2 MiB block at all, every range failing, is
# the pinned memory state: make pinned-e2e.)
"$bin" --size 8M --each >"$tmp/each" 2>&1
rc=$?
af=$(sed -n 's/^alloc_failed //p' "$tmp/each")
caf=$(sed -n 's/^thp_collapse_alloc_failed //p' "$tmp/each")
got=$(sed -n 's/^collapsed //p' "$tmp/each")
if [ $rc -eq 0 ] && [ -n "$af" ]; then
	pass "--each: exit 0, alloc_failed $af"
	[ "${caf:-0}" -ge "$af" ] &&
		pass "--each: thp_collapse_alloc_failed rose by $caf >= $af" ||
		fail "--each: thp_collapse_alloc_failed '$caf' < alloc_failed $af"
	[ "$af" -gt 0 ] || [ "${got:-0}" = 4 ] &&
		pass "--each: no ENOMEM and all 4 ranges collapsed (or some failed: $af)" ||
		fail "--each: no range failed but $got of 4 collapsed"
else
	fail "--each: exit $rc, alloc_failed '$af'"; cat "$tmp/each"
fi
expect_rc 2 "--each with --mode khugepaged refused" "$bin" --each --mode khugepaged

check_metric_fd "collapse run" \
	"roi_usec collapse_cpu_usec regions collapsed collapsed_share thp_collapse_alloc thp_collapse_alloc_failed thp_scan_exceed_none_pte anon_huge_kb" \
	"$bin" --size 4M
check_roi "collapse run" "$bin" --size 4M

check_usage "$bin"
check_value_opt "$bin" --size
check_value_opt "$bin" --present count
check_value_opt "$bin" --wait count
expect_rc 2 "--size 3M (not 2M steps) refused" "$bin" --size 3M
expect_rc 2 "--present 512 refused" "$bin" --present 512
expect_rc 2 "--mode bogus refused" "$bin" --mode bogus &&
	expect_grep "$tmp/err" "'bogus' is not one of" "bad --mode named"
check_too_big "$bin" --size 16T
finish
