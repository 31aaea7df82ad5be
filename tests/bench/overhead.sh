#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Harness overhead per repetition against `perf stat -r` on the same
# trivial command, (a) software events only, (b) plus one tracepoint.
# Prints milliseconds per repetition for each tool and the ratio
# thpbench/perf (below 1: thpbench is cheaper). Not a test: numbers vary.
#   tests/bench/overhead.sh [REPETITIONS]   (default 200)
set -e
case ${1:-} in
-h|--help)
	echo "usage: ./run.sh bench [REPETITIONS]   (tests/bench/overhead.sh; default 200)"
	awk 'NR > 2 && !/^#/ { exit } NR > 2 && !/^#   tests/ { sub(/^# ?/, "  "); print }' "$0"
	exit 0 ;;
''|*[!0-9]*|0*)
	[ -z "${1:-}" ] || { echo "overhead: REPETITIONS \"$1\" is not a whole number >= 1 (--help)" >&2; exit 2; } ;;
esac
cd "$(dirname "$0")/../.."
N=${1:-200}
TB=./harness/thpbench
CMD=/bin/true
SW=task-clock,page-faults,context-switches
TP=$SW,tlb:tlb_flush

if ! command -v perf > /dev/null 2>&1; then
	echo "overhead: perf not installed (apt-get install linux-perf); nothing to compare" >&2
	exit 77
fi
[ -x "$TB" ] || make -s

# Wall seconds of a command, from date +%s.%N (no bash needed).
seconds() {
	t0=$(date +%s.%N)
	"$@" > /dev/null 2>&1
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc -l
}

# A bare loop of N executions: the cost of fork+exec itself.
bare() {
	i=0
	while [ $i -lt "$N" ]; do "$CMD"; i=$((i + 1)); done
}

per_rep() { echo "scale=3; 1000 * ($1) / $N" | bc -l; }

loop=$(per_rep "$(seconds bare)")
report() {
	label=$1 events=$2
	p=$(per_rep "$(seconds perf stat -r "$N" -e "$events" "$CMD")")
	t=$(per_rep "$(seconds $TB run -r "$N" --warmup 0 -e "$events" -- "$CMD")")
	printf '%-28s perf stat %8.3f ms/rep   thpbench %8.3f ms/rep   ratio %.2f\n' \
		"$label" "$p" "$t" "$(echo "$t / $p" | bc -l)"
	printf '%-28s over the bare loop: perf +%.3f ms, thpbench +%.3f ms\n' "" \
		"$(echo "$p - $loop" | bc -l)" "$(echo "$t - $loop" | bc -l)"
}

echo "overhead: $N repetitions of $CMD; bare fork+exec loop $loop ms/rep"
report "(a) software events" "$SW"
report "(b) + tlb:tlb_flush" "$TP"
