#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/pchase (./run.sh pmu-check's known loop): the chase runs and
# stays on its cycle; 4k is base pages only, 2m is all huge or exit 3
# (THP off, or disabled for the process); accesses = passes x pages;
# metric fd and ROI protocols, option checking, memory refusal.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/pchase
need_bin "$bin"

expect_rc 0 "4k chase over 2048 pages" "$bin" --pages 2048 --passes 3 --backing 4k &&
	expect_grep "$tmp/out" '^accesses 6144$' "accesses = passes x pages" &&
	expect_grep "$tmp/out" '^region_huge_kb 0$' "4k: no huge page in the region" &&
	expect_grep "$tmp/out" '^page_kb 4$' "4k: page_kb 4"
expect_rc 0 "another seed, another order, same cycle" "$bin" --pages 2048 --seed 7

mode=$(thp_enabled)
"$bin" --pages 2048 --backing 2m >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$mode" = never ]; then
	[ $rc -eq 3 ] && pass "2m with THP never: exit 3" ||
		{ fail "2m with THP never: exit $rc, wanted 3"; show_output; }
elif [ $rc -eq 3 ]; then
	skip "2m: no free 2 MiB blocks now (exit 3, as it should)"
elif [ $rc -eq 0 ]; then
	pass "2m chase over 2048 pages (exit 0)"
	expect_grep "$tmp/out" '^region_huge_kb 8192$' "2m: the whole 8 MiB region is huge"
	expect_grep "$tmp/out" '^page_kb 2048$' "2m: page_kb 2048"
else
	fail "2m: exit $rc"
	show_output
fi

if build_no_thp; then
	expect_rc 3 "2m with THP disabled for the process: exit 3" \
		"$tmp/no_thp" "$bin" --pages 1024 --backing 2m &&
		expect_grep "$tmp/err" 'only 0 of 4096 kB are transparent huge pages' \
			"exit 3 says how much was huge"
	expect_rc 0 "4k with THP disabled for the process: fine" \
		"$tmp/no_thp" "$bin" --pages 1024 --backing 4k
else
	skip "exit 3 without THP (no C compiler to build the prctl helper)"
fi

check_metric_fd "chase" "pages page_kb accesses roi_usec ns_per_access region_huge_kb" \
	"$bin" --pages 1024
check_roi "chase" "$bin" --pages 1024

check_usage "$bin"
check_value_opt "$bin" --pages count
check_value_opt "$bin" --passes count
expect_rc 2 "--pages 1 refused (a cycle needs two)" "$bin" --pages 1
expect_rc 2 "--backing 1g refused" "$bin" --backing 1g &&
	expect_grep "$tmp/err" "'1g' is not 4k or 2m" "bad --backing named"
check_too_big "$bin" --pages 1000000000

finish
