#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/clear_huge_page (seed 001): THP mode (or exit 3 when THP is
# off), hugetlb mode with a few 2M pages reserved for the test (root only;
# the pool size is restored on every exit path), --passes and its
# figures (first pass, CPU time, user-space clearing), the pool-too-small
# message, metric fd and ROI protocols, option checking, memory refusal.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/clear_huge_page
need_bin "$bin"
pool=/sys/kernel/mm/hugepages/hugepages-2048kB

# check_passes DESC ARGS...: --passes 2 verifies, reports the first pass's
# and the last pass's figures (all > 0), and speaks the ROI protocol once.
check_passes() {
	local desc=$1 n v
	shift
	check_metric_fd "$desc --passes 2" \
		"roi_usec gbps pass1_gbps gbps_cpu user_clear_gbps clear_vs_user" \
		"$bin" "$@" --size 16M --passes 2 || return
	expect_grep "$tmp/out" '^passes 2$' "$desc --passes 2: prints 'passes 2'"
	expect_grep "$tmp/out" '^ok$' "$desc --passes 2: verified"
	for n in gbps pass1_gbps gbps_cpu user_clear_gbps clear_vs_user; do
		v=$(metric_value "$tmp/metrics" $n)
		if awk -v v="$v" 'BEGIN { exit !(v > 0) }'; then
			pass "$desc --passes 2: $n $v > 0"
		else
			fail "$desc --passes 2: $n is '$v'"
		fi
	done
	check_roi "$desc --passes 2" "$bin" "$@" --size 16M --passes 2
}

# --- THP mode ---
mode=$(thp_enabled)
"$bin" --mode thp --size 16M >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$(thp_enabled)" != "$mode" ]; then
	skip "THP mode (THP 'enabled' changed during the run: someone else is testing)"
elif [ "$mode" = never ]; then
	if [ "$rc" -eq 3 ] && grep -q 'invalid measurement' "$tmp/err"; then
		pass "THP mode with THP never: exit 3, invalid measurement"
	else
		fail "THP mode with THP never: exit $rc, wanted 3"
		show_output
	fi
elif [ "$rc" -eq 0 ]; then
	pass "THP mode 16M run verifies (exit 0)"
	expect_grep "$tmp/out" '^usec [0-9]+$' "THP mode prints 'usec N'"
	expect_grep "$tmp/out" '^gbps [0-9]+\.[0-9]+$' "THP mode prints 'gbps X'"
	expect_grep "$tmp/out" '^region_anon_huge_kb 16384$' \
		"THP mode: all 8 pages THP-backed"
	expect_grep "$tmp/out" '^ok$' "THP mode prints 'ok'"
	check_metric_fd "THP mode --touch base" \
		"roi_usec gbps pages anon_huge_kb region_anon_huge_kb" \
		"$bin" --mode thp --size 16M --touch base
	check_roi "THP mode" "$bin" --mode thp --size 16M
	check_passes "THP mode" --mode thp
else
	# Fragmented memory can refuse THPs; that must be exit 3, nothing else.
	if [ "$rc" -eq 3 ]; then
		skip "THP mode: no THPs available now (exit 3, as it should)"
	else
		fail "THP mode 16M run: exit $rc"
		show_output
	fi
fi

if build_no_thp; then
	expect_rc 3 "THP mode, THP disabled for the process: exit 3" \
		"$tmp/no_thp" "$bin" --mode thp --size 8M &&
		expect_grep "$tmp/err" 'invalid measurement: only 0 of 8192 kB' \
			"exit 3 says how much was THP-backed"
else
	skip "exit 3 without THP (no C compiler to build the prctl helper)"
fi

# --- hugetlb mode: a pool too small is a clear runtime failure ---
free=$(cat "$pool/free_hugepages" 2>/dev/null || echo 0)
want=$((free + 2))
expect_rc 1 "hugetlb pool too small fails" "$bin" --size $((want * 2))M &&
	expect_grep "$tmp/err" "needs $want free 2.00 MiB pages" \
		"pool too small: message says how many pages of which size"

# --- hugetlb mode with a reserved pool (root) ---
reserve_pool() {
	local old

	[ "$(id -u)" -eq 0 ] || return 1
	old=$(cat "$pool/nr_hugepages") || return 1
	at_exit "echo $old > $pool/nr_hugepages"
	echo $((old + 16)) >"$pool/nr_hugepages" 2>/dev/null || return 1
	[ "$(cat "$pool/free_hugepages")" -ge 8 ]
}

if reserve_pool; then
	expect_rc 0 "hugetlb 16M run verifies" "$bin" --size 16M &&
		expect_grep "$tmp/out" '^hugetlb_kb 16384$' "hugetlb: 16 MiB hugetlb-backed" &&
		expect_grep "$tmp/out" '^hugetlb_pages 8$' "hugetlb: 8 pool pages used" &&
		expect_grep "$tmp/out" '^ok$' "hugetlb prints 'ok'"
	expect_rc 0 "hugetlb --touch base verifies" "$bin" --size 16M --touch base
	check_metric_fd "hugetlb run" "roi_usec gbps pages hugetlb_pages hugetlb_kb" \
		"$bin" --size 16M
	v=$(metric_value "$tmp/metrics" hugetlb_pages)
	if [ "$v" = 8 ]; then
		pass "hugetlb_pages metric is 8"
	else
		fail "hugetlb_pages metric is '$v', wanted 8"
	fi
	check_roi "hugetlb run" "$bin" --size 16M
	check_passes "hugetlb"
	check_metric_fd "hugetlb --passes 3" hugetlb_pages "$bin" --size 16M --passes 3
	v=$(metric_value "$tmp/metrics" hugetlb_pages)
	if [ "$v" = 8 ]; then
		pass "--passes 3: the last pass used 8 pool pages (earlier ones gave theirs back)"
	else
		fail "--passes 3: hugetlb_pages is '$v', wanted 8"
	fi
else
	skip "hugetlb runs (not root, or 8 free 2M pages could not be reserved)"
fi

# --- options and memory ---
check_usage "$bin"
check_value_opt "$bin" --size
check_value_opt "$bin" --page-size
expect_rc 2 "--page-size 3M refused" "$bin" --page-size 3M
expect_rc 2 "--mode thp --page-size 1G refused" "$bin" --mode thp --page-size 1G &&
	expect_grep "$tmp/err" 'THPs are 2M' "thp + 1G: message says why"
expect_rc 2 "--touch bogus refused" "$bin" --touch bogus &&
	expect_grep "$tmp/err" "'bogus' is neither huge nor base" "bad --touch named"
expect_rc 2 "--mode bogus refused" "$bin" --mode bogus
check_value_opt "$bin" --passes count
expect_rc 2 "size not a multiple of the page size refused" "$bin" --size 3M
if [ -d /sys/kernel/mm/hugepages/hugepages-1048576kB ]; then
	skip "no-1G-pool message (this machine has 1G pages)"
else
	expect_rc 2 "--page-size 1G without a 1G pool refused" \
		"$bin" --page-size 1G --size 1G &&
		expect_grep "$tmp/err" 'no hugetlb pool of 1.00 GiB' "no 1G pool: message says so"
fi
check_too_big "$bin" --mode thp --size 64T
check_too_big "$bin" --mode hugetlb --size 64T

finish
