#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/mremap (seed 000): self-verification and output, the metric fd
# and ROI protocols (also against real perf when it is there), option
# checking, memory refusal; the three layouts and the split a misaligned
# destination forces under THP.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/mremap
need_bin "$bin"

expect_rc 0 "64M run verifies" "$bin" --size 64M &&
	expect_grep "$tmp/out" '^usec [0-9]+$' "prints 'usec N'" &&
	expect_grep "$tmp/out" '^ok$' "prints 'ok'"

check_metric_fd "64M run" "roi_usec rss_kb anon_huge_kb hugetlb_kb region_anon_huge_kb" \
	"$bin" --size 64M --no-verify
usec=$(sed -n 's/^usec //p' "$tmp/out")
roi=$(metric_value "$tmp/metrics" roi_usec)
if awk -v a="$usec" -v b="$roi" 'BEGIN { d = a - b; exit !(d < 1 && d > -1) }'; then
	pass "roi_usec metric ($roi) matches the printed usec ($usec)"
else
	fail "roi_usec metric '$roi' does not match the printed usec '$usec'"
fi

mode=$(thp_enabled)
if [ "$mode" = never ] || [ -z "$mode" ]; then
	skip "--madvise gives THP (THP enabled='$mode')"
else
	fb=$(vmstat_count thp_fault_fallback)
	check_metric_fd "--madvise run" region_anon_huge_kb \
		"$bin" --size 64M --madvise --no-verify
	kb=$(metric_value "$tmp/metrics" region_anon_huge_kb)
	if [ "${kb:-0}" -gt 0 ]; then
		pass "--madvise: moved region is THP-backed ($kb kB)"
	elif thp_refused "$fb"; then
		skip "--madvise: no THP could be had now (thp_fault_fallback rose)"
	else
		fail "--madvise: moved region has no AnonHugePages (THP $mode)"
	fi
fi

# Layouts: each verifies and names itself; the split counter is reported.
# posting reads its backing from pagemap (root only).
for layout in aligned misaligned posting; do
	names="roi_usec thp_split_pmd src_anon_huge_kb region_anon_huge_kb"
	[ "$layout" = posting ] && [ "$(id -u)" -ne 0 ] && names="roi_usec thp_split_pmd"
	check_metric_fd "--layout $layout" "$names" \
		"$bin" --size 64M --layout "$layout"
	expect_grep "$tmp/out" "^layout $layout\$" "--layout $layout: prints 'layout $layout'"
	expect_grep "$tmp/out" '^ok$' "--layout $layout: verified"
done
# --apart: the unmap of the destination and the move, timed apart, sum to
# the region of interest (each layout; posting's destination is most of p2).
for layout in aligned posting; do
	check_metric_fd "--apart --layout $layout" "roi_usec unmap_usec move_usec" \
		"$bin" --size 64M --layout "$layout" --apart
	expect_grep "$tmp/out" '^ok$' "--apart --layout $layout: verified"
	roi=$(metric_value "$tmp/metrics" roi_usec)
	un=$(metric_value "$tmp/metrics" unmap_usec)
	mv=$(metric_value "$tmp/metrics" move_usec)
	if awk -v r="$roi" -v u="$un" -v m="$mv" \
		'BEGIN { d = r - u - m; exit !(u >= 0 && m >= 0 && d < 1 && d > -1) }'; then
		pass "--apart --layout $layout: unmap $un + move $mv = roi_usec $roi"
	else
		fail "--apart --layout $layout: unmap '$un' + move '$mv' != roi_usec '$roi'"
	fi
done
check_metric_fd "without --apart: no unmap/move split" roi_usec "$bin" --size 64M
if grep -q unmap_usec "$tmp/metrics"; then
	fail "unmap_usec reported without --apart"
else
	pass "unmap_usec only with --apart"
fi
expect_rc 0 "--layout misaligned --no-verify" "$bin" --size 64M --layout misaligned --no-verify
expect_rc 0 "--layout posting --no-verify" "$bin" --size 64M --layout posting --no-verify
expect_rc 2 "--layout bogus refused" "$bin" --layout bogus &&
	expect_grep "$tmp/err" "--layout: 'bogus' is not aligned" "bad --layout named"

# The kernel cannot move a huge PMD to a misaligned address: it must split
# each one it moves (invariant; which layout is faster is not asserted).
if [ "$mode" = never ] || [ -z "$mode" ]; then
	skip "misaligned THP split (THP enabled='$mode')"
else
	check_metric_fd "--layout misaligned --madvise" "thp_split_pmd src_anon_huge_kb" \
		"$bin" --size 64M --layout misaligned --madvise --no-verify
	src=$(metric_value "$tmp/metrics" src_anon_huge_kb)
	splits=$(metric_value "$tmp/metrics" thp_split_pmd)
	if [ "${src:-0}" -eq 0 ]; then
		skip "misaligned THP split (the source got no THPs now)"
	elif [ "${splits:-0}" -ge $((src / 2048)) ]; then
		pass "misaligned: $((src / 2048)) THPs moved, thp_split_pmd rose by $splits"
	else
		fail "misaligned: $((src / 2048)) THPs moved but thp_split_pmd rose by '$splits'"
	fi
	region=$(metric_value "$tmp/metrics" region_anon_huge_kb)
	if [ "${region:-1}" -eq 0 ]; then
		pass "misaligned: nothing at the destination is PMD-mapped"
	else
		fail "misaligned: destination has AnonHugePages '$region' kB"
	fi
fi
if build_no_thp; then
	check_metric_fd "--layout misaligned without THP" "thp_split_pmd src_anon_huge_kb" \
		"$tmp/no_thp" "$bin" --size 64M --layout misaligned --madvise
	v=$(metric_value "$tmp/metrics" src_anon_huge_kb)
	if [ "$v" = 0 ]; then
		pass "without THP the source has no AnonHugePages"
	else
		fail "without THP the source has AnonHugePages '$v' kB"
	fi
else
	skip "misaligned without THP (no C compiler to build the prctl helper)"
fi

check_roi "64M run" "$bin" --size 64M --no-verify
check_roi "--layout posting" "$bin" --size 64M --layout posting

PERF_CTL_FD=3 "$bin" --size 16M --no-verify >"$tmp/out" 2>"$tmp/err" 3>"$tmp/ctl.txt"
if [ "$(tr '\n' ' ' <"$tmp/ctl.txt")" = "enable disable " ]; then
	pass "ROI without PERF_ACK_FD: commands written, no wait"
else
	fail "ROI without PERF_ACK_FD: control fd got '$(cat "$tmp/ctl.txt")'"
fi

# An ack that never comes: warn after 5 s, carry on, still verify.
PERF_CTL_FD=3 PERF_ACK_FD=4 "$bin" --size 16M >"$tmp/out" 2>"$tmp/err" \
	3>/dev/null 4< <(sleep 12)
rc=$?
if [ "$rc" -eq 0 ] && grep -q 'no ack' "$tmp/err" && grep -q '^ok$' "$tmp/out"; then
	pass "missing ack: warning, run carries on"
else
	fail "missing ack: exit $rc"
	show_output
fi

expect_rc 2 "PERF_CTL_FD not a number" env PERF_CTL_FD=abc "$bin" --size 16M &&
	expect_grep "$tmp/err" "PERF_CTL_FD='abc'" "bad PERF_CTL_FD named"
expect_rc 2 "PERF_CTL_FD not open" env PERF_CTL_FD=57 "$bin" --size 16M &&
	expect_grep "$tmp/err" 'PERF_CTL_FD=57 is not an open' "closed PERF_CTL_FD named"

# Real perf: counters limited to the ROI see the mremap, not the memset
# and memcmp faults around it.
if command -v perf >/dev/null &&
	perf stat -x, -e page-faults true >/dev/null 2>&1; then
	rm -f "$tmp/pctl" "$tmp/pack"
	mkfifo "$tmp/pctl" "$tmp/pack"
	exec {ctl}<>"$tmp/pctl" {ack}<>"$tmp/pack"
	PERF_CTL_FD=$ctl PERF_ACK_FD=$ack perf stat -x, -D -1 \
		--control "fd:$ctl,$ack" -e page-faults -o "$tmp/perf.roi" -- \
		"$bin" --size 64M >"$tmp/out" 2>"$tmp/err"
	rc=$?
	exec {ctl}>&- {ack}>&-
	perf stat -x, -e page-faults -o "$tmp/perf.all" -- \
		"$bin" --size 64M >/dev/null 2>&1
	in_roi=$(awk -F, '$3 ~ /^page-faults(:u)?$/ { print $1 }' "$tmp/perf.roi")
	all=$(awk -F, '$3 ~ /^page-faults(:u)?$/ { print $1 }' "$tmp/perf.all")
	if [ "$rc" -eq 0 ] && [ -n "$in_roi" ] && [ -n "$all" ] &&
		[ $((in_roi * 2)) -lt "$all" ]; then
		pass "perf stat --control: ROI page-faults $in_roi < whole run $all"
	else
		fail "perf stat --control: exit $rc, ROI faults '$in_roi', whole run '$all'"
		show_output
	fi
	if grep -q 'PERF_ACK_FD' "$tmp/err"; then
		fail "perf stat --control: perf's acks not understood"
	else
		pass "perf stat --control: perf's acks understood"
	fi
else
	skip "perf stat --control (perf missing or cannot count page-faults)"
fi

check_usage "$bin"
check_value_opt "$bin" --size
expect_rc 2 "size not a multiple of 2M refused" "$bin" --size 3M &&
	expect_grep "$tmp/err" 'multiple of the PMD size' "unaligned size: message says why"
check_too_big "$bin" --size 64T
check_too_big "$bin" --size 40T --layout posting

finish
