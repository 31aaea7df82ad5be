#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/split_pinned: a THP with one page held by a pipe (vmsplice)
# cannot be split, so MADV_PAGEOUT of part of it moves
# thp_split_page_failed and the 2048kB split_failed by at least the THPs
# of ours still huge after (pagemap/kpageflags); without the pin (the
# control) the same pageout splits them (thp_split_page). No THPs is
# exit 3; metric fd and ROI protocols; option checking.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/split_pinned
need_bin "$bin"
count=64
st=/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/stats

val() { sed -n "s/^$1 //p" "$tmp/out"; }

at_least() {
	if [ -n "$2" ] && [ "$2" -ge "$3" ]; then
		pass "$1: $2 >= $3"
	else
		fail "$1: '$2', wanted >= $3"
		show_output
	fi
}

# run DESC ARGS...: 0 when it ran (exit 0), 1 when skipped or failed.
run() {
	local desc=$1 mode rc
	shift
	mode=$(thp_enabled)
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$(thp_enabled)" != "$mode" ]; then
		skip "$desc (THP 'enabled' changed during the run)"
		return 1
	fi
	if [ "$mode" = never ] || [ "$rc" -eq 3 ]; then
		if [ "$rc" -eq 3 ]; then
			skip "$desc: not measurable here (exit 3): $(head -c 200 "$tmp/err")"
		else
			fail "$desc with THP never: exit $rc, wanted 3"
		fi
		return 1
	fi
	if [ "$rc" -ne 0 ]; then
		fail "$desc: exit $rc"
		show_output
		return 1
	fi
	pass "$desc: ran and verified (exit 0)"
}

if [ "$(id -u)" -ne 0 ]; then
	skip "pinned and control runs: pagemap/kpageflags need root"
else
	if run "pinned" --count $count; then
		still=$(val still_huge)
		at_least "pinned: THPs of ours still huge after the pageout" "$still" 1
		at_least "pinned: thp_split_page_failed" \
			"$(val thp_split_page_failed)" "${still:-1}"
		if [ -r $st/split_failed ]; then
			at_least "pinned: 2048kB split_failed" \
				"$(val split_failed)" "${still:-1}"
		else
			skip "pinned: no $st/split_failed (kernel before 6.8)"
		fi
	fi
	if run "control (--no-pin)" --count $count --no-pin; then
		split=$(val split_ours)
		at_least "control: THPs of ours split by the pageout" "$split" 1
		at_least "control: thp_split_page" "$(val thp_split_page)" "${split:-1}"
	fi
fi

if build_no_thp; then
	expect_rc 3 "THP disabled for the process: exit 3" \
		"$tmp/no_thp" "$bin" --count 8 &&
		expect_grep "$tmp/err" 'only 0 of 8' "exit 3 says how many were huge"
fi

if [ "$(id -u)" -eq 0 ] && [ "$(thp_enabled)" != never ]; then
	check_metric_fd "pinned run" \
		"huge_before roi_usec thp_split_page_failed still_huge" \
		"$bin" --count 8 --min-huge 0
	check_roi "pinned run" "$bin" --count 8 --min-huge 0
fi

check_usage "$bin"
check_value_opt "$bin" --count count
check_value_opt "$bin" --part
expect_rc 2 "--count over 256 refused" "$bin" --count 257
expect_rc 2 "--part 6000 (not 4K steps) refused" "$bin" --part 6000
expect_rc 2 "--part 2M (over 1M) refused" "$bin" --part 2M
expect_rc 2 "--min-huge over --count refused" "$bin" --count 4 --min-huge 5

finish
