#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run each libFuzzer target for SECONDS: tests/fuzz/run.sh FUZZ_DIR SECONDS
# Seeds: configs/*.conf (suite parser), tests/fixtures/**/*.json and a
# results log written here (results loader). Prints one line per target,
# "fuzz NAME: N executions, C crashes, H hangs (timeouts), L leaks";
# fails when any target found anything (its input is kept in FUZZ_DIR).
set -u
dir=$1
secs=$2
fail=0
mkdir -p "$dir/corpus-suite" "$dir/corpus-results"
cp configs/*.conf "$dir/corpus-suite/" 2>/dev/null
find tests/fixtures -name '*.json' -size -256k -exec cp {} "$dir/corpus-results/" \; 2>/dev/null
printf '%s\n' '{"schema":"thpbench-results-log/1","env":{},"meta":{}}' \
	'{"case":{"id":"a/thp=never","workload":"w","args":[],"env":[]}}' \
	'{"case":0,"run":{"status":"ok","metrics":{"roi_usec":1.5}}}' \
	> "$dir/corpus-results/seed.jsonl"
for t in suite results; do
	log="$dir/fuzz_$t.log"
	"$dir/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$dir/$t-" \
		"$dir/corpus-$t" > "$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	crashes=$(ls "$dir/$t"-crash-* "$dir/$t"-oom-* 2>/dev/null | wc -l)
	hangs=$(ls "$dir/$t"-timeout-* 2>/dev/null | wc -l)
	leaks=$(ls "$dir/$t"-leak-* 2>/dev/null | wc -l)
	echo "fuzz $t: ${execs:-0} executions, $crashes crashes, $hangs hangs (timeouts), $leaks leaks ($secs s, exit $rc)"
	if [ "$rc" -ne 0 ] || [ $((crashes + hangs + leaks)) -ne 0 ]; then
		echo "FAIL: fuzz_$t found a problem: see $log and $dir/$t-*" >&2
		tail -30 "$log" >&2
		fail=1
	fi
done
exit $fail
