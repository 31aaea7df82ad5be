#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/split_thp (seed 003): each way of breaking THPs moves the
# split counters and keeps the data; no THPs (THP disabled for the
# process, or THP off) is exit 3; metric fd and ROI protocols, option
# checking, memory refusal.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/split_thp
need_bin "$bin"
count=64

# Counter deltas printed by the last run.
delta() { sed -n "s/^$1 //p" "$tmp/out"; }

mode=$(thp_enabled)
for how in munmap madvise mprotect mlock; do
	"$bin" --count $count --how $how >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$(thp_enabled)" != "$mode" ]; then
		skip "--how $how (THP 'enabled' changed during the run)"
		continue
	fi
	if [ "$mode" = never ]; then
		if [ "$rc" -eq 3 ]; then
			pass "--how $how with THP never: exit 3"
		else
			fail "--how $how with THP never: exit $rc, wanted 3"
			show_output
		fi
		continue
	fi
	if [ "$rc" -eq 3 ]; then
		skip "--how $how: no THPs to be had now (exit 3, as it should)"
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		fail "--how $how: exit $rc"
		show_output
		continue
	fi
	pass "--how $how: $count THPs verified and broken (exit 0)"
	expect_grep "$tmp/out" "^huge $count\$" "--how $how: all $count were huge"
	expect_grep "$tmp/out" '^usec [0-9]+$' "--how $how prints 'usec N'"
	pmd=$(delta thp_split_pmd)
	if [ "${pmd:-0}" -ge $count ]; then
		pass "--how $how: thp_split_pmd rose by $pmd"
	else
		fail "--how $how: thp_split_pmd rose by '$pmd', wanted >= $count"
	fi
	# Partly unmapped or discarded THPs queue for the deferred split.
	if [ $how = munmap ] || [ $how = madvise ]; then
		dsp=$(delta thp_deferred_split_page)
		if [ "${dsp:-0}" -ge $count ]; then
			pass "--how $how: thp_deferred_split_page rose by $dsp"
		else
			fail "--how $how: thp_deferred_split_page rose by '$dsp', wanted >= $count"
		fi
	fi
done

if build_no_thp; then
	expect_rc 3 "THP disabled for the process: exit 3" \
		"$tmp/no_thp" "$bin" --count 8 &&
		expect_grep "$tmp/err" 'invalid measurement: only 0 of 8' \
			"exit 3 says how many pages were huge"
	expect_rc 0 "--min-huge 0 accepts base pages" \
		"$tmp/no_thp" "$bin" --count 8 --min-huge 0 &&
		expect_grep "$tmp/out" '^huge 0$' "--min-huge 0: reports huge 0"
else
	skip "exit 3 without THP (no C compiler to build the prctl helper)"
fi

# --min-huge 0: these protocol checks run whatever the THP mode.
check_metric_fd "split run" \
	"huge roi_usec thp_split_pmd thp_split_page thp_deferred_split_page anon_huge_kb" \
	"$bin" --count 16 --min-huge 0
check_roi "split run" "$bin" --count 16 --min-huge 0

check_usage "$bin"
check_value_opt "$bin" --count count
check_value_opt "$bin" --part
expect_rc 2 "--how bogus refused" "$bin" --how bogus &&
	expect_grep "$tmp/err" "'bogus' is not munmap, madvise, mprotect or mlock" "bad --how named"
expect_rc 2 "--part 6000 (not 4K steps) refused" "$bin" --part 6000
expect_rc 2 "--part 2M (over 1M) refused" "$bin" --part 2M
expect_rc 2 "--min-huge over --count refused" "$bin" --count 4 --min-huge 5
expect_rc 2 "--count beyond vm.max_map_count refused" "$bin" --count 16000000 &&
	expect_grep "$tmp/err" 'max_map_count' "map count: message names the knob"
check_too_big "$bin" --count 16000000 --how madvise

finish
