#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How long the kernel A/B flow takes a patch author: `make ab-bench`.
#   1. first run: an empty build directory (tree unpacked, kernels A and B
#      and the static harness built, both boots);
#   2. cached rerun: the same again (nothing built, only the boots);
#   3. B-only rebuild: one line of the series' patch edited (kernel B
#      rebuilt from the shared objects: the edited file only; A cached),
#      both boots.
# Prints one line per scenario: wall seconds, each step's time as ab.sh
# reports it ("took: ..."), and the load average before and after (the
# machine may be shared). Kernel builds use --jobs (default 2) under nice;
# the boots run under whatever accelerator ab.sh picks. Each run's log is
# kept as BENCH_DIR-LABEL.log, its cover letter as BENCH_DIR-LABEL.cover and
# the charts that letter names in BENCH_DIR-LABEL.plots/.
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

load() { cut -d' ' -f1-3 /proc/loadavg; }

# run LABEL SERIES ARGS...: one ab.sh run, its wall time and steps.
run()
{
	local label=$1 s=$2 t0 t1 rc=0 out=$tmp/$1.log l0 res
	shift 2
	l0=$(load)
	t0=$(date +%s)
	nice -n 19 kernel-patches/scripts/ab.sh "$s" --jobs "$jobs" --out "$tmp/$label" "$@" \
		> "$out" 2>&1 || rc=$?
	t1=$(date +%s)
	[ "$rc" -le 1 ] || { tail -n 20 "$out"; echo "bench: $label failed (exit $rc)"; exit 2; }
	printf '%-15s %5d s  load %s -> %s\n    %s\n' "$label" $((t1 - t0)) "$l0" "$(load)" \
		"$(sed -n 's/^ab\.sh: took: //p' "$out")"
	cp "$out" "$bdir-$label.log"
	res=$tmp/$label
	[ ! -f "$res/cover-letter.txt" ] || cp "$res/cover-letter.txt" "$bdir-$label.cover"
	rm -rf "$bdir-$label.plots"
	[ ! -d "$res/plots" ] || cp -r "$res/plots" "$bdir-$label.plots"
	grep -q 'kernel B (built)' "$out" || return 0
	# As build-kernel.sh counts them: what kbuild compiled or assembled.
	grep -hE '^  (CC|AS) ' "$res/build-B.log" 2>/dev/null | sed -E 's/^  (CC|AS) *//' | sort |
		paste -sd' ' - | awk '{ printf "    kernel B compiled %d objects: %s\n", NF, $0 }' |
		fold -s -w 96 | sed '2,$s/^/      /'
}

echo "kernel A/B timings for $name ($(nproc) CPUs, --jobs $jobs, $(date -u +%Y-%m-%dT%H:%MZ))"
run first-run "$series"
run cached-rerun "$series"
cp -a "$series" "$tmp/edited"
sed -i '0,/^+\t/s/^+\t/+\t\/* edited *\/ /' "$tmp"/edited/*.patch
run b-only-rebuild "$tmp/edited" --name "$name"
rm -rf "$bdir"
