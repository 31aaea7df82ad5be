#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The default suite on the real machine. Only invariants are asserted -
# huge-page backing, split and fault counts, the claim table's logic,
# restore - never which mode is faster: that depends on the kernel (since
# v5.0 an aligned 4 KiB mremap moves whole page tables) and the machine,
# and belongs in the claim table.
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

# metric over every ok run of a case, as a JSON array: values CASE METRIC
values() {
	jq -c --arg id "$1" --arg m "$2" '[.cases[] | select(.id == $id)
		| .runs[] | select(.status == "ok") | .metrics[$m]]' "$R"
}
all() {	# all CASE METRIC JQ-CONDITION-ON-.
	[ "$(values "$1" "$2" | jq "length > 0 and all(.[]; . != null and ($3))")" = true ]
}

fa=$(minimum "$R" mremap/thp=always vmstat.thp_fault_alloc)
check "thp=always: thp_fault_alloc > 0 in every run ($fa)" \
	all mremap/thp=always vmstat.thp_fault_alloc '. > 0'
check "thp=always runs are marked huge-page backed" \
	[ "$(jq '[.cases[] | select(.thp == "always") | .runs[].huge] | unique' -c "$R")" = "[1]" ]
check "thp=never: no AnonHugePages at the end of the region" \
	all mremap/thp=never roi.anon_huge_kb '. == 0'
# 512 MiB: 131,072 base pages, 256 huge PMDs.
check "thp=never: at least a fault per 4 KiB filled (>= 131072)" \
	all mremap/thp=never minflt '. >= 131072'
check "thp=always: far fewer faults than 4 KiB pages (< 131072 / 8)" \
	all mremap/thp=always minflt '. < 16384'
# thp_split_pmd is the workload's own /proc/vmstat delta across the
# mremap call: the whole-run vmstat delta also counts what other
# processes split meanwhile.
check "aligned mremap splits no huge PMD, either mode" \
	[ "$(jq '[.cases[] | select(.name == "mremap") | .runs[]
		| .metrics["thp_split_pmd"]] | unique' -c "$R")" = "[0]" ]
check "misaligned destination under always: every huge PMD split (>= 256)" \
	all mremap_misaligned/thp=always thp_split_pmd '. >= 256'
check "misaligned destination under never: nothing to split" \
	all mremap_misaligned/thp=never thp_split_pmd '. == 0'

verdict() { jq -r --arg id "$1" '.meta.claims[] | select(.id == $id) | .verdict' "$R"; }
v000=$(verdict 000)
case $v000 in
superseded) check "000 superseded: the reason names v5.0, the aligned/misaligned check and the config" \
		jqe '.meta.claims[] | select(.id == "000") | .reason
		| test("v5.0") and test("below mremap_misaligned/thp=never") and test("CONFIG_HAVE_MOVE_PMD")' "$R" ;;
"not measurable") check "000 not measurable: page-table writes are emulated here" \
		jqe '.meta.claims[] | select(.id == "000") | .reason
		| test("page-table writes are emulated")' "$R" ;;
reproduced|"direction only"|"not reproduced"|inconclusive) ok "000: $v000 (kernel-dependent)" ;;
*) bad "000 has no verdict ($v000)" ;;
esac
check "000's factor is said as a factor >= 1 in words" \
	jqe '.meta.claims[] | select(.id == "000") | .measured
	| test("^[0-9.]+x \\[[0-9.]+, [0-9.]+\\] (faster|slower)$") and (test("^0\\.") | not)' "$R"
check "000-faults (a fault per 2 MiB) is derived, not reproduced: $(verdict 000-faults)" \
	[ "$(verdict 000-faults)" = derived ]
check "the kernel config option the claims name was recorded" \
	jqe '.env.kconfig | has("source")' "$R"
check "the hypervisor is named in env and the table" \
	sh -c "jq -e '.env.platform.virt | has(\"hypervisor\") and has(\"from\")' '$R' >/dev/null &&
		grep -Eq '^ +(a VM|bare metal)' '$TMPD/out.txt'"
check "claim table headed by the machine it was measured on" \
	grep -q '^Measured on: kernel ' "$TMPD/out.txt"
check "dTLB-load-misses is absent or counted, never 0-filled when unsupported" \
	[ "$(jq '[.cases[].runs[] | select(.unsupported["dTLB-load-misses"] != null and .metrics["dTLB-load-misses"] != null)] | length' "$R")" = 0 ]
check "tlb:tlb_flush counted" \
	[ "$(jq '[.cases[].runs[].metrics["tlb:tlb_flush"] | select(. != null)] | length' "$R")" -gt 0 ]
check "summary printed with perf-stat style spread" grep -q '( +-' "$TMPD/out.txt"
check "THP enabled back to \"$before\"" [ "$(thp_mode)" = "$before" ]
check "no journal left" [ ! -e /run/thpbench/journal.json ]
finish
