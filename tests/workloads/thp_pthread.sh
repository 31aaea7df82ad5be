#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/thp_pthread (seed 004): verification and output, the memory
# touched, THP bloat and rss_per_touched (and none without THP), the
# every-page mode (--stride 2M --touch 2M), CPU pinning and NUMA node
# options, metric fd and ROI protocols, option checking, memory refusal.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/thp_pthread
need_bin "$bin"

value() { sed -n "s/^$1 //p" "$tmp/out"; }

expect_rc 0 "64M run verifies" "$bin" -b 64m &&
	expect_grep "$tmp/out" '^usec [0-9]+$' "prints 'usec N'" &&
	expect_grep "$tmp/out" '^touched_kb 128$' \
		"touched_kb: one 4K page in each of 32 strides" &&
	expect_grep "$tmp/out" '^rss_kb [0-9]+$' "prints rss_kb" &&
	expect_grep "$tmp/out" '^anon_huge_kb [0-9]+$' "prints anon_huge_kb" &&
	expect_grep "$tmp/out" '^ok$' "prints 'ok'"
expect_rc 0 "--stride 1m --touch 12k -c 5 verifies" \
	"$bin" -b 64m -c 5 --stride 1m --touch 12k &&
	expect_grep "$tmp/out" '^touched_kb 768$' "touched_kb: 3 pages in each of 64 strides" &&
	expect_grep "$tmp/out" '^threads 5$' "-c 5 starts 5 threads"

# The bloat: with THPs each touched 4K costs 2M; without, it costs 4K.
mode=$(thp_enabled)
fb=$(vmstat_count thp_fault_fallback)
"$bin" -b 256m --madvise >"$tmp/out" 2>"$tmp/err"
rc=$?
huge=$(value anon_huge_kb)
rss=$(value rss_kb)
if [ "$(thp_enabled)" != "$mode" ] || [ "$mode" = never ]; then
	skip "THP bloat (THP '$mode' or changed during the run)"
elif [ "$rc" -eq 0 ] && [ "${huge:-0}" -gt 0 ]; then
	# One THP is 2 MiB resident for one 4 KiB page touched: how many it
	# got (rss) is free memory's to say, that each costs more is not.
	pass "THP bloat: 512 kB touched, rss $rss kB, AnonHugePages $huge kB"
	ratio=$(value rss_per_touched)
	if awk -v r="$ratio" 'BEGIN { exit !(r > 1) }'; then
		pass "THP bloat: rss_per_touched $ratio > 1"
	else
		fail "THP bloat: rss_per_touched '$ratio' with AnonHugePages $huge kB"
	fi
elif [ "$rc" -eq 0 ] && thp_refused "$fb"; then
	skip "THP bloat: no THP could be had now (thp_fault_fallback rose; rss $rss kB)"
else
	fail "THP bloat: exit $rc, rss '$rss' kB, AnonHugePages '$huge' kB"
	show_output
fi
if build_no_thp; then
	expect_rc 0 "no-THP run verifies" "$tmp/no_thp" "$bin" -b 256m --madvise
	huge=$(value anon_huge_kb)
	rss=$(value rss_kb)
	if [ "$huge" = 0 ] && [ "${rss:-999999}" -lt $((64 * 1024)) ]; then
		pass "no THP, no bloat: rss $rss kB, AnonHugePages 0"
	else
		fail "no THP: rss '$rss' kB, AnonHugePages '$huge' kB"
	fi
	if [ "$(value rss_per_touched)" = 1.000 ]; then
		pass "no THP: rss_per_touched 1.000 (only touched pages resident)"
	else
		fail "no THP: rss_per_touched '$(value rss_per_touched)', wanted 1.000"
	fi
	# The posting's faithful mode: every 4 KiB page of each 2 MiB touched.
	expect_rc 0 "no THP, --stride 2M --touch 2M verifies" \
		"$tmp/no_thp" "$bin" -b 64m --stride 2M --touch 2M &&
		expect_grep "$tmp/out" '^touched_kb 65536$' "every page: touched_kb is all 64 MiB" &&
		expect_grep "$tmp/out" '^rss_per_touched 1\.000$' "every page: rss_per_touched 1.000"
else
	skip "no-THP run (no C compiler to build the prctl helper)"
fi

# Pinning: thread i on the i-th allowed CPU from -C on, round robin.
if taskset -c 1 true 2>/dev/null; then
	expect_rc 0 "-C 1 -c 1" "$bin" -C 1 -c 1 -b 16m &&
		expect_grep "$tmp/out" '^cpus 1$' "-C 1 -c 1 pins the thread to CPU 1"
	expect_rc 0 "-C 1 -c 2 on CPUs 0,1" taskset -c 0,1 "$bin" -C 1 -c 2 -b 16m &&
		expect_grep "$tmp/out" '^cpus 0-1$' "-C 1 -c 2 wraps round to CPU 0"
	expect_rc 2 "-C outside the allowed CPUs refused" \
		taskset -c 0 "$bin" -C 1 -b 16m &&
		expect_grep "$tmp/err" 'may only run on CPUs 0$' "-C: message lists the allowed CPUs"
else
	skip "pinning checks (need 2 CPUs)"
fi

if [ -d /sys/devices/system/node/node0 ]; then
	expect_rc 0 "-m 0 binds to node 0" "$bin" -m 0 -b 16m
	expect_rc 2 "-m 4095 refused" "$bin" -m 4095 -b 16m &&
		expect_grep "$tmp/err" 'no such NUMA node' "-m: message says no such node"
else
	skip "NUMA node checks (no NUMA here)"
fi

check_metric_fd "64M run" "roi_usec touched_kb rss_kb anon_huge_kb hugetlb_kb region_rss_kb rss_per_touched" \
	"$bin" -b 64m
expect_rc 0 "--stride 2M --touch 2M --madvise verifies" \
	"$bin" -b 64m --stride 2M --touch 2M --madvise -c 3 &&
	expect_grep "$tmp/out" '^touched_kb 65536$' "every page touched: touched_kb 65536" &&
	expect_grep "$tmp/out" '^rss_per_touched 1\.000$' \
		"every page touched: rss_per_touched 1.000, THP or not"
check_roi "64M run" "$bin" -b 64m

# --interleave: thread i takes strides i, i+N, ...; --placement says where
# each thread's pages are (on one node: none remote).
expect_rc 0 "--interleave --placement verifies" \
	"$bin" -b 16m --stride 4K --touch 4K --interleave --placement -c 4 &&
	expect_grep "$tmp/out" '^touched_kb 16384$' "--interleave: every page touched once" &&
	expect_grep "$tmp/out" '^thread 3 cpu [0-9]+ node [0-9]+ pages 1024 remote [0-9]+$' \
		"--placement: a line per thread, 1024 pages each (16M / 4K / 4)"
nodes=$(sed -n 's/^nodes //p' "$tmp/out")
if [ "${nodes:-1}" = 1 ]; then
	expect_grep "$tmp/out" '^remote_share 0\.0000$' "one NUMA node: nothing remote"
else
	skip "remote share on $nodes nodes (tests/kernel/numa_guest.sh checks it)"
fi
check_metric_fd "--placement" "remote_share remote_share_min remote_share_max remote_share.t0 remote_share.t1" \
	"$bin" -b 8m --stride 4K --touch 4K --interleave --placement -c 2

check_usage "$bin"
check_value_opt "$bin" -b
check_value_opt "$bin" -c count
check_value_opt "$bin" --stride
check_value_opt "$bin" --touch
expect_rc 2 "malformed -C refused" "$bin" -C one &&
	expect_grep "$tmp/err" "-C: 'one' is not a whole number" "malformed -C named"
expect_rc 2 "malformed -m refused" "$bin" -m -1 &&
	expect_grep "$tmp/err" "-m: '-1' is not a whole number" "malformed -m named"
expect_rc 2 "-c 5000 (over the thread limit) refused" "$bin" -c 5000
expect_rc 2 "--touch larger than --stride refused" "$bin" --touch 4m
expect_rc 2 "--stride not in 4K steps refused" "$bin" --stride 6000
expect_rc 2 "-b smaller than --stride refused" "$bin" -b 1m
check_too_big "$bin" -b 64T

finish
