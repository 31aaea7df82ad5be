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
check "claim table printed" grep -q '^claim *comparison *claimed' "$TMPD/out.txt"
check "claim table headed by the machine" grep -q '^Measured on: kernel ' "$TMPD/out.txt"
for p in 000 001 002 003 004; do
	v=$(jq -r --arg p "$p" '[.meta.claims[] | select(.posting == $p) | .verdict] | join(",")' "$R")
	check "posting $p has verdicts ($v)" \
		sh -c "echo '$v' | grep -Eq '^((reproduced|direction only|inconclusive|superseded|not reproduced|not measurable|not comparable here|derived|as expected|not as expected|see [0-9a-z-]+|reported),?)+$'"
done
verdict() { jq -r --arg id "$1" '.meta.claims[] | select(.id == $id) | .verdict' "$R"; }
# 002's verdict is the machine's: how many faults glibc.malloc.hugetlb=1
# saves depends on the THPs free memory gives it, and on glibc. Printed.
echo "002 (glibc tunable cuts faults), reported, not asserted: $(verdict 002)" \
	"($(jq -r '.meta.claims[] | select(.id == "002") | .measured // .reason' "$R"))"
# The magnitude rule: nothing called reproduced more than 2x off its claim.
check "no 'reproduced' whose factor is more than 2x from the claimed one" \
	[ "$(jq '[.meta.claims[] | select(.verdict == "reproduced" and .of_claimed != null
		and (.of_claimed > 2 or .of_claimed < 0.5))] | length' "$R")" = 0 ]
check "000 aligned: superseded, judged or withheld, never unexplained ($(verdict 000))" \
	sh -c "echo '$(verdict 000)' | grep -Eq '^(superseded|reproduced|direction only|inconclusive|not reproduced|not measurable)$'"
if [ "$(verdict 000)" = superseded ]; then
	check "000 superseded: checked by aligned 4 KiB mremap far below misaligned" \
		jqe '.meta.claims[] | select(.id == "000") | .reason | test("below mremap_misaligned/thp=never")' "$R"
fi
check "000-verbatim details 000 with its unmap and move timed apart" \
	[ "$(jq -r '.meta.claims[] | select(.id == "000-verbatim") | [.verdict, (.parts | map(.metric) | join(","))] | join(" ")' "$R")" = "see 000 unmap_usec,move_usec" ]
check "003 says it needs a 3.17-4.4 kernel" \
	jqe '.meta.claims[] | select(.id == "003") | .reason | test("needs a 3.17-4.4 kernel")' "$R"
check "001's cases run in the mode its claims name, whatever the boot mode" \
	[ "$(jq '[.cases[] | select(.name == "clear_2M" or .name == "clear_1G") | .thp] | unique' -c "$R")" = '["madvise"]' ]
check "004 faithful: its verdict says it needs 2 NUMA nodes on a 1-node machine" \
	sh -c "[ $(jq .env.numa_nodes "$R") -ge 2 ] || jq -e '.meta.claims[] | select(.id == \"004\") | .reason | test(\"NUMA\")' '$R' >/dev/null"
check "001: every ok clearing run has wall, CPU-time and memset-relative figures" \
	[ "$(jq '[.cases[] | select(.name == "clear_2M" or .name == "clear_1G") | .runs[]
		| select(.status == "ok") | .metrics | (.gbps > 0 and .gbps_cpu > 0
		and .pass1_gbps > 0 and .clear_vs_user > 0)] | (length > 0 and all)' "$R")" = true ]
check "003 split counters moved in every ok run" \
	[ "$(jq '[.cases[] | select(.name == "split") | .runs[] | select(.status == "ok") | .metrics.thp_split_pmd >= 1000] | all' "$R")" = true ]
if [ "$(jq .env.pmu "$R")" = false ]; then
	check "without a PMU the dTLB claims are not measurable" \
		[ "$(jq -r '[.meta.claims[] | select(.id | endswith("-tlb")) | .verdict] | unique | join(",")' "$R")" = "not measurable" ]
fi
check "THP enabled back to $thp_before" [ "$(thp_mode)" = "$thp_before" ]
check "hugetlb pools back to what they were" [ "$(pools)" = "$pools_before" ]
finish
