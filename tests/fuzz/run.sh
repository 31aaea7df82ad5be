#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run each libFuzzer target for SECONDS: tests/fuzz/run.sh FUZZ_DIR SECONDS
# Seeds: configs/*.conf (suite parser), tests/fixtures/**/*.json and a
# results log written here (results loader), a bisection's directory
# written here (fuzz_bisect_dir). Prints one line per target,
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
# A bisection's directory (fuzz_bisect_dir.c): plan.json, pending, runs
# of GOOD and BAD, parts cut at NUL bytes.
mkdir -p "$dir/corpus-bisect_dir"
plan='{"schema":"thpbench-bisect-plan/1","tree":"/t","good":"'$(printf 'a%.0s' $(seq 40))'","bad":"'$(printf 'c%.0s' $(seq 40))'","case":"mremap","metric":"roi_usec","options":{"ref_reps":2,"ref_boots":1},"driver":{"config":"tinyconfig","boot":"qemu","accel":"auto","mem":"6G","smp":2,"timeout":60,"jobs":1,"initrd":"","orig_release":""},"commits":[{"sha":"'$(printf 'a%.0s' $(seq 40))'"},{"sha":"'$(printf 'b%.0s' $(seq 40))'"},{"sha":"'$(printf 'c%.0s' $(seq 40))'"}]}'
res() { printf '{"schema":"thpbench-results/1","env":{},"meta":{},"cases":[{"id":"mremap/thp=always","name":"mremap","workload":"mremap","args":[],"env":[],"runs":[{"status":"ok","metrics":{"roi_usec":%s}},{"status":"ok","metrics":{"roi_usec":%s}}]}]}' "$1" "$2"; }
{ printf '%s\0%s\0' "$plan" "0001"; printf '@0\n%s\0' "$(res 1000 1010)"
  printf '@1\n%s\0' "$(res 3000 3020)"; printf '@3\nbuild: error'; } > "$dir/corpus-bisect_dir/seed"
{ cat "$dir/corpus-bisect_dir/seed"; printf '\0!0004x'; } > "$dir/corpus-bisect_dir/seed-stray"
# kernel coverage (fuzz_kcov.c): a tracefile, NUL, a patch.
mkdir -p "$dir/corpus-kcov"
{ printf 'SF:/src/mm/a.c\nFN:2,f\nFNDA:1,f\nDA:2,1\nDA:3,0\nend_of_record\n\0'
  cat kernel-patches/000-mremap-thp-pmd-move/*.patch; } > "$dir/corpus-kcov/seed"
# a LAVA job log (fuzz_lava.c): lava-run's lines, the server's "- " form,
# a tagged measurement, a results block.
mkdir -p "$dir/corpus-lava"
printf '%s\n' '{"dt": "t", "lvl": "info", "msg": "start: 0 validate"}' \
	'- {"dt": "t", "lvl": "target", "msg": "THPBENCH-RESULT-BEGIN name=results.json bytes=3 cksum=1 status=0"}' \
	'{"dt": "t", "lvl": "results", "msg": {"case": "c.roi_usec", "definition": "0_thpbench", "endtc": ! "4", "measurement": ! "15.5", "result": "pass", "units": "us"}}' \
	> "$dir/corpus-lava/seed"
for t in suite results bisect_dir kcov lava; do
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
