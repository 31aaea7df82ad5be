#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/unordered_map (seed 002): verification and output, the glibc
# and GLIBC_TUNABLES lines, the posting's mechanism (glibc.malloc.hugetlb=1
# under THP madvise: THP-backed, or the kernel fell back; how many faults
# it saves is the claim table's, printed here), metric fd and ROI
# protocols, option checking, memory refusal.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/unordered_map
need_bin "$bin"
keys=1000000

expect_rc 0 "$keys keys verify" env -u GLIBC_TUNABLES "$bin" --keys $keys &&
	expect_grep "$tmp/out" '^usec [0-9]+$' "prints 'usec N'" &&
	expect_grep "$tmp/out" '^faults [0-9]+$' "prints 'faults N'" &&
	expect_grep "$tmp/out" "^$(getconf GNU_LIBC_VERSION)\$" \
		"prints the glibc version ($(getconf GNU_LIBC_VERSION))" &&
	expect_grep "$tmp/out" '^GLIBC_TUNABLES \(unset\)$' "says GLIBC_TUNABLES is unset" &&
	expect_grep "$tmp/out" '^ok$' "prints 'ok'"

mode=$(thp_enabled)
fb=$(vmstat_count thp_fault_fallback)
GLIBC_TUNABLES=glibc.malloc.hugetlb=0 THPBENCH_METRIC_FD=3 "$bin" --keys $keys \
	>"$tmp/out0" 2>&1 3>"$tmp/m0"
rc0=$?
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 THPBENCH_METRIC_FD=3 "$bin" --keys $keys \
	>"$tmp/out1" 2>&1 3>"$tmp/m1"
rc1=$?
expect_grep "$tmp/out1" '^GLIBC_TUNABLES glibc.malloc.hugetlb=1$' \
	"prints the GLIBC_TUNABLES in effect"
for n in roi_usec roi_minflt rss_kb anon_huge_kb hugetlb_kb; do
	expect_metric "$tmp/m1" "$n"
done
f0=$(metric_value "$tmp/m0" roi_minflt)
f1=$(metric_value "$tmp/m1" roi_minflt)
huge1=$(metric_value "$tmp/m1" anon_huge_kb)
if [ "$rc0$rc1" != 00 ]; then
	fail "hugetlb=0/1 runs: exit $rc0/$rc1"
elif [ "$(thp_enabled)" != "$mode" ]; then
	skip "glibc.malloc.hugetlb=1 claim (THP 'enabled' changed during the runs)"
elif [ "$mode" != madvise ]; then
	skip "glibc.malloc.hugetlb=1 claim (needs THP enabled=madvise, it is '$mode')"
elif [ "${huge1:-0}" -gt 0 ]; then
	# How many faults the THPs save depends on how many free memory gave:
	# the claim table's to judge (configs/seeds.conf, claim 002), printed.
	pass "hugetlb=1 under madvise: THP-backed ($huge1 kB); faults $f0 -> $f1 (reported)"
elif thp_refused "$fb"; then
	skip "glibc.malloc.hugetlb=1 claim (no THP could be had now: thp_fault_fallback rose)"
else
	fail "hugetlb=1 under madvise: anon_huge_kb '$huge1' and no THP fault fell back: glibc did not ask (faults $f0 -> $f1)"
fi

check_roi "$keys keys" "$bin" --keys $keys
check_usage "$bin"
check_value_opt "$bin" --keys count
expect_rc 2 "--keys with a suffix refused (counts are plain numbers)" \
	"$bin" --keys 10M
check_too_big "$bin" --keys 1000000000000

finish
