#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make pmu-e2e: thpbench's hardware-counter path against a real PMU
# driver, the kernel's armv8 PMUv3 on the PMU qemu emulates (TCG), in an
# arm64 guest (build-kernel.sh --arch arm64, cached; static arm64 harness).
#
#   tests/kernel/pmu_e2e.sh [--keep DIR] [--jobs N]
#
# Boot 1 (qemu -icount shift=0, so INST_RETIRED counts; suite
# tests/kernel/pmu_e2e_count.conf, workload pmu_hw: 2 x ITERS user
# instructions in its region of interest) asserts:
#   1. cycles:u and instructions:u open and count > 0 in every run;
#   2. instructions:u is 2 x ITERS within 0.5% + 20000 (the ROI protocol's
#      own user instructions and the clock reads);
#   3. more work counts more: 10M iterations count > 1.9 x 5M's
#      instructions and > 1.5 x their cycles;
#   4. the group {cycles:u,instructions:u}: both members counted, with one
#      and the same counted_pct (they share time enabled/running), 100;
#   5. branch-misses, which the emulated PMU lacks (not in PMCEID), is
#      <not supported> saying "PMU lacks event", not "no hardware PMU".
# Boot 2 (suite pmu_e2e_mux.conf: 9 cycle events, 7 counters):
#   6. every event counts (> 0), counted_pct in (0, 100], some < 100 and
#      their sum <= 700 (7 counters): multiplexed, recorded in results.json;
#   7. scaled like perf (x enabled/running): the five user+kernel cycle
#      events, counted different shares of the time, agree within 5%.
# Prints a table per boot (event, value, counted_pct) and PASS/FAIL per
# check. Exit 0 all passed, 1 a check failed, 2 could not run, 77 skipped
# (no cross toolchain or qemu-system-aarch64).
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/../../kernel-patches" && pwd)
. "$KP_DIR/scripts/common.sh"
S=$KP_DIR/scripts
T=$REPO_DIR/tests/kernel
keep='' jobs=$(nproc)
while [ $# -gt 0 ]; do
	case $1 in
	--keep) keep=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	-h|--help) kp_help ;;
	*) kp_die "unknown argument '$1' (see --help)" ;;
	esac
done
for c in qemu-system-aarch64 aarch64-linux-gnu-gcc jq; do
	command -v "$c" > /dev/null || { echo "SKIP: $c missing (scripts/arm64-deps.sh, kernel-patches/scripts/install-deps.sh)"; exit 77; }
done
[ -f "$DEFAULT_KERNEL_SRC" ] || { echo "SKIP: $DEFAULT_KERNEL_SRC missing (linux-source-6.1)"; exit 77; }
"$REPO_DIR/scripts/arm64-deps.sh" || exit 2

t0=$SECONDS
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

kdir=$("$S/build-kernel.sh" --arch arm64 --jobs "$jobs") || exit 2
kp_static_dir arm64
fails=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# boot NAME SUITE QEMU-OPT...: results in $work/NAME.json.
boot()
{
	local name=$1 suite=$2 q=() o
	shift 2
	for o in "$@"; do q+=(--qemu-opt "$o"); done
	"$S/mkinitramfs.sh" -o "$work/$name.gz" --suite "$suite" --arch arm64 \
		--thpbench "$sdir/harness/thpbench" --workloads "$sdir/workloads" 2> /dev/null || exit 2
	"$S/boot.sh" --arch arm64 --kernel "$kdir/bzImage" --initrd "$work/$name.gz" \
		--log "$work/$name.log" --accel tcg --smp 1 --mem 1G --timeout 300 \
		--quiet "${q[@]}" > /dev/null ||
		{ tail -n 20 "$work/$name.log"; kp_die "boot $name failed; console: $work/$name.log"; }
	"$S/extract-results.sh" "$work/$name.log" "$work/$name.json" > /dev/null ||
		kp_die "no results from boot $name (console: $work/$name.log)"
}

# table FILE: each case's events: median value, counted_pct, or the reason.
table()
{
	jq -r '.cases[] | .name as $c | .runs[0] as $r
		| ($r.metrics | to_entries[] | select(.key as $k | $r.counted_pct | has($k))
		   | [$c, .key, (.value | floor | tostring), ($r.counted_pct[.key] | tostring)]),
		  ($r.unsupported | to_entries[] | [$c, .key, "-", .value])
		| @tsv' "$1" | awk -F'\t' 'BEGIN { printf "  %-6s %-18s %14s  %s\n", "case", "event", "value", "counted_pct" }
		{ printf "  %-6s %-18s %14s  %s\n", $1, $2, $3, $4 }'
}

# vals FILE CASE EXPR: EXPR of every run of CASE, one per line.
vals() { jq -r --arg c "$2" ".cases[] | select(.name == \$c) | .runs[] | $3" "$1"; }

boot count "$T/pmu_e2e_count.conf" -icount shift=0
echo "boot 1: -icount shift=0, $(jq -r '.cases[0].env.kernel // .env.kernel // "?"' "$work/count.json" 2>/dev/null)"
table "$work/count.json"
j=$work/count.json
for c in small big; do
	bad=$(vals "$j" "$c" '[.metrics["cycles:u"] // 0, .metrics["instructions:u"] // 0] | select(.[0] <= 0 or .[1] <= 0) | @tsv')
	[ -z "$bad" ] && [ -n "$(vals "$j" "$c" '.metrics["instructions:u"]')" ] &&
		pass "$c: cycles:u and instructions:u count > 0 in every run" ||
		fail "$c: cycles:u/instructions:u missing or 0: ${bad:-no runs}"
	bad=$(vals "$j" "$c" '(.metrics.expected_instructions) as $e | .metrics["instructions:u"] as $n
		| select($e == null or $n == null or (($n - $e) | fabs) > $e * 0.005 + 20000)
		| "\($n) vs \($e)"')
	[ -z "$bad" ] && pass "$c: instructions:u = 2 x iters within 0.5% + 20000 ($(vals "$j" "$c" '"\(.metrics["instructions:u"]) / \(.metrics.expected_instructions)"' | head -n 1))" ||
		fail "$c: instructions:u off the known count: $bad"
	bad=$(vals "$j" "$c" 'select(.counted_pct["cycles:u"] != .counted_pct["instructions:u"] or .counted_pct["cycles:u"] != 100)
		| "\(.counted_pct["cycles:u"]) \(.counted_pct["instructions:u"])"')
	[ -z "$bad" ] && pass "$c: the group's members share counted_pct 100" ||
		fail "$c: group members' counted_pct differ or < 100: $bad"
done
med() { vals "$j" "$1" ".metrics[\"$2\"]" | sort -g | sed -n 2p; }
awk -v s="$(med small instructions:u)" -v b="$(med big instructions:u)" 'BEGIN { exit !(b > 1.9 * s) }' &&
	pass "more work counts more: instructions $(med small instructions:u) -> $(med big instructions:u)" ||
	fail "instructions did not grow with the work: $(med small instructions:u) -> $(med big instructions:u)"
awk -v s="$(med small cycles:u)" -v b="$(med big cycles:u)" 'BEGIN { exit !(b > 1.5 * s) }' &&
	pass "more work counts more: cycles $(med small cycles:u) -> $(med big cycles:u)" ||
	fail "cycles did not grow with the work: $(med small cycles:u) -> $(med big cycles:u)"
why=$(vals "$j" small '.unsupported["branch-misses"] // "counted"' | head -n 1)
case $why in
*"<not supported>"*"PMU lacks event"*) pass "branch-misses: $why" ;;
*) fail "branch-misses should be <not supported> with 'PMU lacks event', is: $why" ;;
esac

boot mux "$T/pmu_e2e_mux.conf"
echo "boot 2: multiplexing (9 events, 7 counters)"
table "$work/mux.json"
j=$work/mux.json
nev=$(vals "$j" mux '.counted_pct | length' | head -n 1)
# At any instant at most 7 of the 9 count: the shares sum to <= 700 (1%
# slack: each event's time enabled starts a little apart).
bad=$(vals "$j" mux '.metrics as $m | .counted_pct | select(([.[]] | add) > 707
	or ([.[]] | min) <= 0 or ([.[]] | max) > 100 or ([.[]] | min) >= 100
	or ([keys[] | $m[.] // 0] | min) <= 0) | tostring')
[ "${nev:-0}" -ge 9 ] && [ -z "$bad" ] &&
	pass "mux: all $nev events count; counted_pct in (0, 100], some < 100, sum <= 7 counters x 100 ($(vals "$j" mux '[.counted_pct[]] | add | floor' | paste -sd' ' -)), recorded in results.json" ||
	fail "mux: $nev events; shares not those of 9 events on 7 counters: $bad"
# Scaled as perf scales (value x enabled / running): the five user+kernel
# cycle events, each counted a different share of the time, estimate the
# same count within 5% of their median (unscaled they differ by their shares).
bad=$(vals "$j" mux '[.metrics["cycles","cycles:uk","cpu-cycles","cpu-cycles:uk","cycles:ku"]]
	| (sort | .[2]) as $md | select(map(. / $md - 1 | fabs) | max > 0.05) | tostring')
[ -z "$bad" ] && pass "mux: the scaled estimates of one count agree within 5% ($(vals "$j" mux '.metrics["cycles"] | floor' | paste -sd' ' -))" ||
	fail "mux: scaled estimates of the same count disagree: $bad"

echo "pmu-e2e: $((SECONDS - t0)) s; $fails check(s) failed"
[ "$fails" -eq 0 ]
