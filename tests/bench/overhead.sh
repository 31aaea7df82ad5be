#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Harness overhead per repetition against `perf stat -r` on the same
# trivial command, (a) software events only, (b) plus one tracepoint.
#
# Each tool runs as a whole process, timed from outside (fork, exec,
# setup, N repetitions, teardown: what a user waits for), alternating
# A B A B for PAIRS pairs so that a load that comes and goes falls on
# both. Prints each tool's milliseconds per repetition (the median of
# its PAIRS runs), the ratio thpbench/perf of those medians (below 1:
# thpbench is cheaper), the load average before and after, and the date.
# Not a test: nothing is asserted, the numbers depend on the host and its
# load. Measured figures, dated, with the load average: tests/bench/overhead.md.
#   tests/bench/overhead.sh [REPETITIONS [PAIRS]]   (default 200 5)
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
PAIRS=${2:-5}
TB=./harness/thpbench
CMD=/bin/true
SW=task-clock,page-faults,context-switches
TP=$SW,tlb:tlb_flush

case "$N$PAIRS" in
*[!0-9]*)
	echo "overhead: REPETITIONS and PAIRS are whole numbers (got \"$N\" \"$PAIRS\")" >&2
	exit 2 ;;
esac
if [ "$N" -lt 1 ] || [ "$PAIRS" -lt 1 ]; then
	echo "overhead: REPETITIONS and PAIRS must be at least 1" >&2
	exit 2
fi
if ! command -v perf > /dev/null 2>&1; then
	echo "overhead: perf not installed (apt-get install linux-perf); nothing to compare" >&2
	exit 77
fi
[ -x "$TB" ] || make -s

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

ERR=$(mktemp)
trap 'rm -f "$ERR"' EXIT

# Wall milliseconds per repetition of one whole process. A thpbench that
# found another one changing the settings (a test, on a shared machine)
# is not timed: it is run again once the other is done.
ms_per_rep() {
	tries=0
	while :; do
		t0=$(date +%s.%N)
		"$@" > /dev/null 2> "$ERR" && break
		if grep -q 'another thpbench' "$ERR" && [ $tries -lt 60 ]; then
			tries=$((tries + 1))
			sleep 5
			continue
		fi
		echo "overhead: failed: $*" >&2
		cat "$ERR" >&2
		exit 1
	done
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" -v n="$N" 'BEGIN { printf "%.4f", 1000 * (b - a) / n }'
}

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 }
	END { printf "%.4f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# A bare loop of N executions: the cost of fork+exec itself.
bare() {
	i=0
	while [ $i -lt "$N" ]; do "$CMD"; i=$((i + 1)); done
}

report() {
	label=$1 events=$2 ts="" ps="" k=0
	while [ $k -lt "$PAIRS" ]; do
		ts="$ts $(ms_per_rep $TB run -r "$N" --warmup 0 -e "$events" -- "$CMD")"
		ps="$ps $(ms_per_rep perf stat -r "$N" -e "$events" "$CMD")"
		k=$((k + 1))
	done
	t=$(echo "$ts" | median)
	p=$(echo "$ps" | median)
	printf '%-22s thpbench %7.3f ms/rep   perf stat %7.3f ms/rep   ratio %.2f\n' \
		"$label" "$t" "$p" "$(awk -v t="$t" -v p="$p" 'BEGIN { print t / p }')"
	printf '%-22s   thpbench runs:%s\n%-22s   perf runs:    %s\n' "" "$ts" "" "$ps"
}

la0=$(loadavg)
echo "overhead: $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) CPUs, load average $la0"
echo "overhead: $N repetitions of $CMD, $PAIRS pairs A B (thpbench, perf), median of each"
echo "overhead: bare fork+exec loop $(ms_per_rep bare) ms/rep"
report "(a) software events" "$SW"
report "(b) + tlb:tlb_flush" "$TP"
echo "overhead: load average $la0 before, $(loadavg) after"
