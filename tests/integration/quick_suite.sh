#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The default suite on the real machine: mremap under THP always is
# huge-page backed and faster than under never, and the THP mode is back
# to what it was afterwards.
. tests/integration/lib.sh
need_root
guard_thp
before=$(thp_mode)

$TB run configs/quick.conf -o "$TMPD/q" > "$TMPD/out.txt" 2>&1
check "quick suite exits 0" [ $? -eq 0 ]
R="$TMPD/q/results.json"
check "results.json written" [ -s "$R" ]
check "schema is thpbench-results/1" \
	[ "$(jq -r .schema "$R")" = "thpbench-results/1" ]
check "every repetition ran ok" \
	[ "$(jq '[.cases[].runs[] | select(.status != "ok")] | length' "$R")" = 0 ]
check "5 repetitions per case" \
	[ "$(jq '[.cases[] | .runs | length] | unique' -c "$R")" = "[5]" ]
fa=$(jq '[.cases[] | select(.id == "mremap/thp=always") | .runs[].metrics["vmstat.thp_fault_alloc"]] | min' "$R")
check "thp=always: thp_fault_alloc > 0 in every run ($fa)" \
	[ "$(echo "$fa > 0" | bc)" = 1 ]
check "thp=always runs are marked huge-page backed" \
	[ "$(jq '[.cases[] | select(.thp == "always") | .runs[].huge] | unique' -c "$R")" = "[1]" ]
# Timings on a shared VM are noisy (another job on the other core once
# made the medians equal): compare the fastest run of each mode, the
# least disturbed estimate of the cost, and allow one fresh suite run.
faster() {
	a=$(minimum "$1" mremap/thp=always roi_usec)
	n=$(minimum "$1" mremap/thp=never roi_usec)
	echo "fastest mremap: always $a us, never $n us"
	[ "$(echo "$a < $n" | bc)" = 1 ]
}
if ! faster "$R"; then
	$TB run configs/quick.conf -o "$TMPD/q2" > /dev/null 2>&1
	R2="$TMPD/q2/results.json"
	check "mremap faster under always than never (second suite run)" faster "$R2"
else
	ok "mremap faster under always than never (fastest runs)"
fi
check "dTLB-load-misses is absent or counted, never 0-filled when unsupported" \
	[ "$(jq '[.cases[].runs[] | select(.unsupported["dTLB-load-misses"] != null and .metrics["dTLB-load-misses"] != null)] | length' "$R")" = 0 ]
check "tlb:tlb_flush counted" \
	[ "$(jq '[.cases[].runs[].metrics["tlb:tlb_flush"] | select(. != null)] | length' "$R")" -gt 0 ]
check "summary printed with perf-stat style spread" grep -q '( +-' "$TMPD/out.txt"
check "THP enabled back to \"$before\"" [ "$(thp_mode)" = "$before" ]
check "no journal left" [ ! -e /run/thpbench/journal.json ]
finish
