#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How long the kernel A/B flow takes a patch author: `make ab-bench`.
#   1. first run: an empty build directory (tree unpacked, kernels A and B
#      and the static harness built, both boots);
#   2. cached rerun: the same again (nothing built, only the boots);
#   3. B-only rebuild: one line of the series' patch edited (kernel B
#      rebuilt from the shared objects, A cached), both boots.
# Prints one line per scenario: wall seconds, and the build and boot
# seconds from the run's own log. Kernel builds use --jobs (default 2)
# under nice; the boots run under whatever accelerator ab.sh picks.
#
#   tests/kernel/bench.sh [SERIES]      default kernel-patches/000-mremap-thp-pmd-move
#   BENCH_DIR=DIR (default build/ab-bench: removed first), BENCH_JOBS=N
set -uo pipefail

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO_DIR" || exit 2
series=${1:-kernel-patches/000-mremap-thp-pmd-move}
name=$(basename "$series")
bdir=${BENCH_DIR:-$REPO_DIR/build/ab-bench}
jobs=${BENCH_JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$bdir"
export THPBENCH_BUILD_DIR=$bdir

# run LABEL SERIES ARGS...: one ab.sh run, its wall time and phases.
run()
{
	local label=$1 s=$2 t0 t1 rc=0 out=$tmp/$1.log
	shift 2
	t0=$(date +%s)
	nice -n 19 kernel-patches/scripts/ab.sh "$s" --jobs "$jobs" "$@" > "$out" 2>&1 || rc=$?
	t1=$(date +%s)
	[ "$rc" -le 1 ] || { tail -n 20 "$out"; echo "bench: $label failed (exit $rc)"; exit 2; }
	printf '%-16s %5d s   (kernel builds: %s; boots: %d)\n' "$label" $((t1 - t0)) \
		"$(grep -o 'built [^ ]* in [0-9]* s' "$out" | sed 's/^built //' | paste -sd, - | sed 's/,/, /g' | grep . || echo none)" \
		"$(grep -c 'boot [0-9]*/[0-9]*: kernel' "$out")"
	cp "$out" "$bdir-$label.log"
}

echo "kernel A/B timings for $name ($(nproc) CPUs, --jobs $jobs, $(date -u +%Y-%m-%dT%H:%MZ))"
run first-run "$series"
run cached-rerun "$series"
cp -a "$series" "$tmp/edited"
sed -i '0,/^+\t/s/^+\t/+\t\/* edited *\/ /' "$tmp"/edited/*.patch
run b-only-rebuild "$tmp/edited" --name "$name"
rm -rf "$bdir"
