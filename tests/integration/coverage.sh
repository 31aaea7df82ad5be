#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# thpbench coverage on the real machine: a tiny suite of split_thp (N
# THPs faulted, each checked huge by the workload, then a huge PMD split
# in each) run with its background measured; the table must list
# thp_split_pmd as moved by that case, with at least N splits a
# repetition (the workload's own: it exits invalid unless all N were
# huge), the same table from the results file and in `show`, and a suite
# key `background = yes` taking the intervals for `run`. Needs root.
. tests/integration/lib.sh
need_root
command -v jq > /dev/null || { echo "skip: jq not installed"; exit 77; }
guard_thp
N=64

cat > "$TMPD/cov.conf" <<CONF
[suite]
name = cov
repetitions = 2
warmup = 0
timeout = 60
events = task-clock
thp = always

[case split]
workload = split_thp
args = --count $N

[case exceed]
workload = collapse
args = --mode khugepaged --ptes none --present 64 --size 16M --wait 20
thp = madvise
set = transparent_hugepage/khugepaged/scan_sleep_millisecs=10
set = transparent_hugepage/khugepaged/pages_to_scan=8192
set = transparent_hugepage/khugepaged/max_ptes_none=0
CONF

$TB coverage "$TMPD/cov.conf" -o "$TMPD/r" --progress none --wait=120 --format json \
	> "$TMPD/cov.json" 2> "$TMPD/cov.err"
rc=$?
check "coverage SUITE exits 0 (rc $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || cat "$TMPD/cov.err"
check "results.json written" [ -s "$TMPD/r/results.json" ]
check "each case has its idle intervals" \
	jqe '[.cases[] | .extra.background | length] | min >= 1' "$TMPD/r/results.json"
# cell CASE COUNTER FIELD: one figure of the table's JSON.
cell() {
	jq -r --arg c "$1" --arg k "$2" --arg f "$3" '[.counters[] | select(.counter == $k)
	      | .cases[] | select(.case == $c) | .[$f]] | first // "none"' "$TMPD/cov.json"
}
# moved CASE COUNTER N: at least N a repetition (the workload's own, a
# lower bound whatever else runs), and listed as moved unless the idle
# intervals themselves moved it by a quarter of that: another job on the
# machine doing the same, which the background is there to catch.
moved() {
	local mean bg
	mean=$(cell "$1" "$2" mean)
	bg=$(cell "$1" "$2" background)
	check "$1: $2 at least $3 a repetition ($mean)" \
		jqe -n --argjson m "${mean/none/-1}" --argjson n "$3" '$m >= $n'
	if jq -en --argjson b "${bg/none/0}" --argjson n "$3" '$b < $n / 4' >/dev/null; then
		check "$1: listed as moving $2 (background $bg)" \
			jqe --arg c "$1" --arg k "$2" '.counters[] | select(.counter == $k)
			     | .moved_by[] | select(.case == $c)' "$TMPD/cov.json"
	else
		echo "skip: $1: the idle intervals moved $2 by $bg a repetition (another job?): whether it stands out is the machine's to say"
	fi
}
moved split/thp=always thp_split_pmd $N
# khugepaged refuses each of the 8 ranges of 2 MiB (448 empty PTEs >
# max_ptes_none 0) once it scanned them: after two full scans.
scans=$(minimum "$TMPD/r/results.json" exceed/thp=madvise full_scans)
if [ "$scans" != none ] && [ "${scans%.*}" -ge 2 ]; then
	moved exceed/thp=madvise thp_scan_exceed_none_pte 8
else
	echo "skip: khugepaged made fewer than two full scans in 20 s (full_scans $scans): thp_scan_exceed_none_pte not checked"
fi
check "counters that did not move carry a reason" \
	jqe '[.counters[] | select((.moved_by | length) == 0) | .reason
	      | select(type == "string" and length > 0)] | length > 0' "$TMPD/cov.json"
check "the kinds counted: thp_* exposed >= the moved, and some" \
	jqe '.families.thp.exposed >= .families.thp.moved and .families.thp.exposed >= 1' \
	"$TMPD/cov.json"

$TB coverage "$TMPD/r/results.json" --format json > "$TMPD/again.json" 2>&1
check "coverage RESULTS.json: the same table as the run's" cmp -s "$TMPD/cov.json" "$TMPD/again.json"
$TB coverage "$TMPD/r/results.json" > "$TMPD/cov.txt" 2>&1
check "text: a thp_split_pmd row" grep -Eq '^thp_split_pmd +thp ' "$TMPD/cov.txt"
check "text: the unmoved are listed" grep -q '^Nothing moved:' "$TMPD/cov.txt"
$TB show "$TMPD/r/results.json" > "$TMPD/show.txt" 2>&1
check "show ends with the table of a run with its background" \
	cmp -s <(tail -n "$(wc -l < "$TMPD/cov.txt")" "$TMPD/show.txt") "$TMPD/cov.txt"

# background = yes in the suite: run takes the intervals too.
sed -i 's/^thp = always$/thp = always\nbackground = yes\nrepetitions = 1/' "$TMPD/cov.conf"
$TB run "$TMPD/cov.conf" -o "$TMPD/r2" --progress none --wait=120 > "$TMPD/r2.out" 2>&1 || cat "$TMPD/r2.out"
check "suite key background = yes: run records intervals" \
	jqe '.meta.background.per_case >= 1 and
	     ([.cases[].extra.background | length] | min >= 1)' "$TMPD/r2/results.json"
sed -i 's/^background = yes$/background = maybe/' "$TMPD/cov.conf"
$TB run "$TMPD/cov.conf" -o "$TMPD/r3" > "$TMPD/bad.txt" 2>&1
rc=$?
check "background = maybe is refused with exit 2 (rc $rc)" [ $rc -eq 2 ]
check "the message names the key" grep -q 'background' "$TMPD/bad.txt"
$TB coverage --format html "$TMPD/r/results.json" > /dev/null 2>&1
rc=$?
check "--format html refused (rc $rc)" [ $rc -eq 2 ]
$TB coverage --help | grep -q '^usage: thpbench coverage'
check "--help prints usage to stdout" [ $? -eq 0 ]
finish
