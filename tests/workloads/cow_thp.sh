#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/cow_thp (COW of THPs after fork): every THP the child no
# longer maps huge after its writes moved thp_split_pmd over the child's
# phase (pagemap before fork and after, the workload's own memory), and
# likewise for the parent with --touch 2M; both sides' data verified by
# the workload (exit 1 on a COW bug); no THPs (THP disabled for the
# process, or THP never) is exit 3; metric fd and ROI protocols, option
# checking, memory refusal.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/cow_thp
need_bin "$bin"
size=32M
thps=16

val() { sed -n "s/^$1 //p" "$tmp/out"; }

# check_split SIDE: thp_split_pmd over SIDE's phase >= the THPs SIDE no
# longer maps huge (huge_before - SIDE_huge_after).
check_split() {
	local side=$1 desc=$2 after split
	after=$(val "${side}_huge_after")
	split=$(val "thp_split_pmd_$side")
	if [ -z "$after" ]; then
		skip "$desc: $side's THPs after its writes unreadable (pagemap and smaps)"
		return
	fi
	if [ "${split:-0}" -ge $((thps - after)) ]; then
		pass "$desc: thp_split_pmd over the $side's writes $split >= $((thps - after)) THPs it no longer maps huge"
	else
		fail "$desc: thp_split_pmd over the $side's writes '$split', wanted >= $((thps - after))"
	fi
}

mode=$(thp_enabled)
for args in "--touch 4K" "--touch 4K --order sequential" "--touch 2M"; do
	fb=$(vmstat_count thp_fault_fallback)
	"$bin" --size $size $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$(thp_enabled)" != "$mode" ]; then
		skip "$args: THP 'enabled' changed during the run"
		continue
	fi
	if [ "$mode" = never ]; then
		if [ $rc -eq 3 ]; then
			pass "$args with THP never: exit 3"
		else
			fail "$args with THP never: exit $rc, wanted 3"
			show_output
		fi
		continue
	fi
	if [ $rc -eq 3 ] && thp_refused "$fb"; then
		skip "$args: no THPs to be had now (exit 3, thp_fault_fallback moved)"
		continue
	fi
	if [ $rc -ne 0 ]; then
		fail "$args: exit $rc"
		show_output
		continue
	fi
	pass "$args: forked, both sides wrote and verified (exit 0)"
	expect_grep "$tmp/out" "^huge_before $thps\$" "$args: all $thps THPs huge before fork"
	check_split child "$args"
	# The parent's writes split THPs only where the child still maps part
	# of them; what it no longer maps huge it must have split.
	check_split parent "$args"
	expect_grep "$tmp/out" '^child_fault_p99_usec [0-9.]+$' "$args: child p99 reported"
	expect_grep "$tmp/out" '^fork_usec [0-9.]+' "$args: fork time reported"
done

if build_no_thp; then
	expect_rc 3 "THP disabled for the process: exit 3" \
		"$tmp/no_thp" "$bin" --size 8M &&
		expect_grep "$tmp/err" 'only 0 of 4 pages were THPs' \
			"exit 3 says how many pages were huge"
	expect_rc 0 "--min-huge 0 accepts base pages" \
		"$tmp/no_thp" "$bin" --size 8M --min-huge 0 &&
		expect_grep "$tmp/out" '^huge_before 0$' "--min-huge 0: reports huge_before 0"
else
	skip "exit 3 without THP (no C compiler to build the prctl helper)"
fi

check_metric_fd "cow run" \
	"roi_usec fork_usec huge_before child_write_usec parent_write_usec child_faults parent_faults thp_split_pmd_child thp_split_pmd_parent thp_fault_alloc_child thp_fault_alloc_parent child_fault_p50_usec child_fault_p99_usec parent_fault_p50_usec parent_fault_p99_usec rss_kb" \
	"$bin" --size 4M --min-huge 0
check_roi "cow run" "$bin" --size 4M --min-huge 0

check_usage "$bin"
check_value_opt "$bin" --size
check_value_opt "$bin" --touch
expect_rc 2 "--touch 64K refused" "$bin" --touch 64K &&
	expect_grep "$tmp/err" "'64K' is not 4K or 2M" "bad --touch named"
expect_rc 2 "--order bogus refused" "$bin" --order bogus &&
	expect_grep "$tmp/err" "'bogus' is not random or sequential" "bad --order named"
expect_rc 2 "--size 3M (not 2M steps) refused" "$bin" --size 3M
expect_rc 2 "--min-huge over the THPs refused" "$bin" --size 4M --min-huge 3
check_too_big "$bin" --size 4T

finish
