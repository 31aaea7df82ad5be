#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/thp_alloc: one timed first touch per chunk, the share of
# chunks that got a folio of the size asked for, the latency quantiles;
# THP disabled for the process gives 0% (not a failure: fallback is what
# it measures); option checking, protocols.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/thp_alloc
need_bin "$bin"

check_usage "$bin"
check_value_opt "$bin" --size
expect_rc 2 "--chunk 48K refused" "$bin" --chunk 48K &&
	expect_grep "$tmp/err" 'power of two from 8K to 2M' "--chunk: says why"
expect_rc 2 "--size not a multiple of --chunk refused" "$bin" --size 3M &&
	expect_grep "$tmp/err" 'multiple of --chunk' "--size: says why"
expect_rc 2 "--order sideways refused" "$bin" --order sideways
check_too_big "$bin" --size 64T

expect_rc 0 "16 MiB in 2 MiB chunks, MADV_HUGEPAGE" "$bin" --size 16M --madvise
expect_grep "$tmp/out" '^chunks 8$' "8 chunks faulted"
expect_grep "$tmp/out" '^fault_p50_usec [0-9.]+$' "prints the p50 fault latency"
expect_grep "$tmp/out" '^fault_p99_usec [0-9.]+$' "prints the p99 fault latency"
expect_grep "$tmp/out" '^ok$' "verified"
if [ "$(thp_enabled)" != never ]; then
	expect_grep "$tmp/out" '^success_pct [0-9.]+$' "prints the success rate"
fi
check_metric_fd "metric fd" "roi_usec chunks fault_p50_usec fault_p99_usec fault_max_usec" \
	"$bin" --size 8M --order sequential
check_roi "thp_alloc" "$bin" --size 8M

if build_no_thp; then
	expect_rc 0 "THP disabled for the process: still a measurement" \
		"$tmp/no_thp" "$bin" --size 8M --madvise
	if grep -q '^success_pct' "$tmp/out"; then
		expect_grep "$tmp/out" '^success_pct 0.000$' "no THP: 0% success"
		expect_grep "$tmp/out" '^fallback_p50_usec ' "no THP: the fallback faults' p50"
	else
		skip "no success rate without pagemap (not root)"
	fi
else
	skip "no C compiler for the prctl wrapper"
fi
finish
