#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# THPBENCH_TLB_MODEL shows the TLB profile of a CPU this host is not:
# `thpbench list` (three models) and `pmu-check --probe` (every required
# one: Zen 4 and 5, Sapphire/Emerald/Granite Rapids, Alder Lake P- and
# E-cores, Neoverse N1, N2, V1, V2) name the model, say it was chosen by
# the variable, carry its notes, and expand `tlb` to that model's events
# (a signature event each, on the right PMU: cpu_core for P-cores,
# cpu_atom for E-cores, PMUv3 numbers on arm64). LIBPFM_FORCE_PMU=
# amd64_fam19h_zen4 picks the Zen 4 profile through libpfm4's name. An
# unknown model exits 2 naming the variable and the known models, and
# prints nothing else. As root, a run of /bin/true with -e tlb records
# the chosen profile in results.json's env.tlb_profile. Changes nothing
# (the run sets no knob); opens counters at most (none count here
# without a PMU).
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

# model key, what the header names, a signature event of its profile
while read -r key model event; do
	THPBENCH_TLB_MODEL=$key $TB pmu-check --probe > "$TMPD/$key" 2>&1
	check "$key: probe names $model, chosen by THPBENCH_TLB_MODEL" \
		grep -q "^TLB profile here: .*$model.* \[$key, chosen by THPBENCH_TLB_MODEL\]" "$TMPD/$key"
	check "$key: its notes" grep -q '^  notes: .*walk' "$TMPD/$key"
	check "$key: tlb expands to $event" grep -Fq " $event" "$TMPD/$key"
done <<'MODELS'
zen4 Zen.4 cpu/event=0x45,umask=0xf0/
zen5 Zen.5 cpu/event=0x85,umask=0x0f/
spr Sapphire.Rapids spr::DTLB_LOAD_MISSES:WALK_COMPLETED
emr Emerald.Rapids cpu/event=0x12,umask=0x10,cmask=1/
gnr Granite.Rapids cpu/event=0x13,umask=0x0e/
adl_p P-cores cpu_core/event=0x12,umask=0x0e/
adl_e E-cores cpu_atom/event=0x08,umask=0x0e/
neoverse_n1 Neoverse.N1 r34
neoverse_n2 Neoverse.N2 r2d
neoverse_v1 Neoverse.V1 r05
neoverse_v2 Neoverse.V2 r35
MODELS

check "P-cores: no event on cpu_atom" sh -c "! grep -q cpu_atom/ '$TMPD/adl_p'"
check "E-cores: no event on cpu_core" sh -c "! grep -q cpu_core/ '$TMPD/adl_e'"
check "Zen: walks requested, not completed (note)" grep -q 'walks requested' "$TMPD/zen5"
check "Neoverse: L1D_TLB_REFILL is refills, not walks (note)" \
	grep -q 'L1D_TLB_REFILL counts refills' "$TMPD/neoverse_v1"

for key in zen5 adl_e neoverse_v1; do
	THPBENCH_TLB_MODEL=$key $TB list > "$TMPD/list-$key" 2>&1
	check "list $key: exit 0" [ $? -eq 0 ]
	check "list $key: the profile header" \
		grep -q "^TLB profile (-e tlb.*\[$key\]; chosen by THPBENCH_TLB_MODEL" "$TMPD/list-$key"
	check "list $key: not opened (a model chosen by hand)" \
		grep -q '^  here: not opened' "$TMPD/list-$key"
	check "list $key: every model key offered" \
		sh -c "sed -n '/^  models with a profile/,\$p' '$TMPD/list-$key' | tr '\n' ' ' | grep -q 'spr .*emr .*gnr .*adl_p .*adl_e .*zen4 .*zen5 .*neoverse_n1 .*neoverse_v2'"
done
check "list zen5: STLB hits are 0x45 umask 0x0f" grep -q 'tlb.stlb_hits *raw 0xf45 ' "$TMPD/list-zen5"
check "list neoverse_v1: DTLB_WALK is raw 0x34" grep -q 'tlb.dtlb_walks *raw 0x34 ' "$TMPD/list-neoverse_v1"

LIBPFM_FORCE_PMU=amd64_fam19h_zen4 $TB pmu-check --probe > "$TMPD/force" 2>&1
check "LIBPFM_FORCE_PMU=amd64_fam19h_zen4: the Zen 4 profile" \
	grep -q '^TLB profile here: AMD Zen 4 \[zen4, chosen by LIBPFM_FORCE_PMU\]' "$TMPD/force"

if [ "$(id -u)" = 0 ]; then
	THPBENCH_TLB_MODEL=adl_p $TB run -r 1 --warmup 0 -e tlb -o "$TMPD/run" \
		-- /bin/true > "$TMPD/run.txt" 2>&1
	check "run -e tlb under THPBENCH_TLB_MODEL=adl_p: exit 0" [ $? -eq 0 ]
	check "results.json: env.tlb_profile is adl_p, chosen by the variable, with its notes" \
		jqe '.env.tlb_profile | .key == "adl_p" and .chosen_by == "THPBENCH_TLB_MODEL"
			and .perf_json == "x86/alderlake" and (.notes | test("P-core"))
			and .events["tlb.itlb_walks"] == "cpu_core/event=0x11,umask=0x0e/"' \
		"$TMPD/run/results.json"
	[ -e /sys/bus/event_source/devices/cpu_core ] ||
	check "results.json: a cpu_core event on a machine without one is unsupported, saying so" \
		jqe '[.cases[0].runs[0].unsupported // {} | to_entries[] |
			select(.value | test("PMU cpu_core is not on this machine"))] | length > 0' \
		"$TMPD/run/results.json"
else
	echo "skip: the run check needs root"
fi

for cmd in list "pmu-check --probe"; do
	# shellcheck disable=SC2086
	THPBENCH_TLB_MODEL=zen9 $TB $cmd > "$TMPD/out" 2> "$TMPD/err"
	check "$cmd, unknown model: exit 2" [ $? -eq 2 ]
	check "$cmd, unknown model: the message names the variable and the models" \
		grep -q 'THPBENCH_TLB_MODEL=zen9: no such TLB profile; known models: .*spr .*adl_e .*zen5 .*neoverse_v2' "$TMPD/err"
	check "$cmd, unknown model: nothing on stdout" [ ! -s "$TMPD/out" ]
done
finish
