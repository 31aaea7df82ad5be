#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The seeds suite (3 repetitions, no warm-up) runs to completion, prints a
# claim table with a verdict for every posting, and leaves THP and the
# hugetlb pools as it found them.
. tests/integration/lib.sh
need_root
guard_thp
pools() {
	for f in /sys/kernel/mm/hugepages/hugepages-*/nr_hugepages; do
		printf '%s=%s ' "$f" "$(cat "$f")"
	done
}
thp_before=$(thp_mode)
pools_before=$(pools)

$TB run configs/seeds.conf -r 3 --warmup 0 -o "$TMPD/s" > "$TMPD/out.txt" 2>&1
check "seeds suite exits 0" [ $? -eq 0 ]
R="$TMPD/s/results.json"
check "claim table printed" grep -q '^posting *comparison *claimed' "$TMPD/out.txt"
for p in 000 001 002 003 004; do
	v=$(jq -r --arg p "$p" '[.meta.claims[] | select(.posting == $p) | .verdict] | join(",")' "$R")
	check "posting $p has verdicts ($v)" \
		sh -c "echo '$v' | grep -Eq '^((reproduced|not reproduced|not measurable),?)+$'"
done
check "002 (glibc tunable cuts faults) reproduced" \
	[ "$(jq -r '.meta.claims[] | select(.id == "002") | .verdict' "$R")" = reproduced ]
check "003 split counters moved in every ok run" \
	[ "$(jq '[.cases[] | select(.name == "split") | .runs[] | select(.status == "ok") | .metrics.thp_split_pmd >= 1000] | all' "$R")" = true ]
if [ "$(jq .env.pmu "$R")" = false ]; then
	check "without a PMU the dTLB claims are not measurable" \
		[ "$(jq -r '[.meta.claims[] | select(.id | endswith("-tlb")) | .verdict] | unique | join(",")' "$R")" = "not measurable" ]
fi
check "THP enabled back to $thp_before" [ "$(thp_mode)" = "$thp_before" ]
check "hugetlb pools back to what they were" [ "$(pools)" = "$pools_before" ]
finish
