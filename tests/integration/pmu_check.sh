#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The TLB profile and ./run.sh pmu-check from the command line: `list`
# shows the profile of the model LIBPFM_FORCE_PMU names (with its libpfm4
# names and raw encodings); pmu-check --probe and scripts/pmu-check.sh say
# plainly when there is no PMU and then run nothing; a results file is
# judged (the one recorded on a VM without a PMU: cannot tell, no PMU);
# usage errors exit 2. On a machine with a PMU the whole check runs.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

no_pmu=1
ls /sys/bus/event_source/devices/cpu* > /dev/null 2>&1 && no_pmu=0

root=$TMPD/mm
mkdir -p "$root/transparent_hugepage"
echo 'always [madvise] never' > "$root/transparent_hugepage/enabled"

LIBPFM_FORCE_PMU=skl THPBENCH_SYSFS_ROOT=$root $TB list > "$TMPD/skl" 2>&1
check "list under LIBPFM_FORCE_PMU=skl: exit 0" [ $? -eq 0 ]
check "list: the Skylake profile, chosen by LIBPFM_FORCE_PMU" \
	grep -q '^TLB profile (-e tlb, or tlb in a suite.s events): Intel Skylake (client) \[skl\]; libpfm4 PMU skl (Intel Skylake), chosen by LIBPFM_FORCE_PMU' "$TMPD/skl"
check "list: load walk cycles are WALK_ACTIVE, raw 0x1001008" \
	grep -Eq '^    tlb.load_walk_cycles +raw 0x1001008 ' "$TMPD/skl"
check "list: with the libpfm4 name under it" \
	grep -q '^ *skl::DTLB_LOAD_MISSES:WALK_ACTIVE$' "$TMPD/skl"
check "list: derived walk cycle share" grep -q '^    tlb.walk_cycles_pct ' "$TMPD/skl"

LIBPFM_FORCE_PMU=amd64_fam19h_zen3 THPBENCH_SYSFS_ROOT=$root $TB list > "$TMPD/zen3" 2>&1
check "list under LIBPFM_FORCE_PMU=amd64_fam19h_zen3: AMD Zen 3, walks raw 0xf045" \
	sh -c "grep -q 'AMD Zen 3 \[zen3\]; libpfm4 PMU amd64_fam19h_zen3' '$TMPD/zen3' &&
	       grep -Eq '^    tlb.dtlb_walks +raw 0xf045 ' '$TMPD/zen3'"
check "list: Zen 3 has no walk-cycle figure" sh -c "! grep -q walk_cycles '$TMPD/zen3'"

$TB pmu-check --probe > "$TMPD/probe" 2>&1
rc=$?
if [ $no_pmu = 1 ]; then
	check "pmu-check --probe without a PMU: exit 2" [ $rc -eq 2 ]
	check "pmu-check --probe says plainly: no PMU here" grep -q '^no PMU here: ' "$TMPD/probe"
	sh scripts/pmu-check.sh -o "$TMPD/pc" > "$TMPD/script" 2>&1
	check "./run.sh pmu-check without a PMU: exit 2" [ $? -eq 2 ]
	check "./run.sh pmu-check says no PMU" grep -q '^no PMU here: ' "$TMPD/script"
	check "./run.sh pmu-check runs nothing then" [ ! -e "$TMPD/pc" ]
else
	check "pmu-check --probe with a PMU: exit 0" [ $rc -eq 0 ]
	sh scripts/pmu-check.sh -o "$TMPD/pc" > "$TMPD/script" 2>&1
	rc=$?
	sed 's/^/    | /' "$TMPD/script" | tail -15
	check "./run.sh pmu-check reaches a verdict (exit $rc)" [ $rc -le 1 ]
fi

$TB pmu-check tests/fixtures/pmu-check/vm-no-pmu.json > "$TMPD/vm" 2>&1
check "judging the run recorded on a VM without a PMU: exit 2" [ $? -eq 2 ]
check "it says there is no PMU" grep -q 'no PMU here: .*no hardware PMU' "$TMPD/vm"
check "and cannot tell" grep -q '^verdict: cannot tell' "$TMPD/vm"
check "its table lists the four chase cases" [ "$(grep -c 'chase_' "$TMPD/vm")" -ge 4 ]

$TB pmu-check tests/fixtures/compare/base.json > "$TMPD/nochase" 2>&1
check "a results file without the chase: exit 2, said" \
	sh -c "[ $? -eq 2 ] && grep -q 'no pointer-chase cases' '$TMPD/nochase'"
$TB pmu-check > /dev/null 2>&1
check "pmu-check without an argument: exit 2" [ $? -eq 2 ]
$TB pmu-check --bogus > /dev/null 2>&1
check "pmu-check --bogus: exit 2" [ $? -eq 2 ]
$TB pmu-check "$TMPD/missing.json" > "$TMPD/missing" 2>&1
check "pmu-check of a missing file: exit 2, named" \
	sh -c "[ $? -eq 2 ] && grep -q missing.json '$TMPD/missing'"
$TB pmu-check --help > "$TMPD/help" 2>&1
check "pmu-check --help: exit 0, usage" sh -c "[ $? -eq 0 ] && grep -q '^usage: thpbench pmu-check' '$TMPD/help'"

finish
