#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What `run --profile` costs: the same run of workloads/prof_split (its
# region of interest splits 3:1 between two functions) with -r REPS,
# without and with --profile, alternating A B A B for PAIRS pairs. Prints
# per pair the whole run's wall time and the median roi_usec of each
# side, then the medians over pairs and the ratios with/without, the load
# average before and after, and the date; then the top functions the
# profiled run printed, and `compare` of the last two profiled runs
# (the functions whose share changed: none expected, the same program).
# Not a test: nothing is asserted, the numbers are the host's. Figures,
# dated: tests/bench/README.md. Needs perf (linux-perf) and root.
#   tests/bench/profile_overhead.sh [REPS [PAIRS]]   (default 10 5)
set -e
case ${1:-} in
-h|--help)
	awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, "  "); print }' "$0"
	exit 0 ;;
esac
cd "$(dirname "$0")/../.."
REPS=${1:-10}
PAIRS=${2:-5}
case "$REPS$PAIRS" in
*[!0-9]*|'') echo "profile_overhead: REPS and PAIRS are whole numbers" >&2; exit 2 ;;
esac
command -v perf > /dev/null 2>&1 || { echo "profile_overhead: perf not installed (apt-get install linux-perf)" >&2; exit 77; }
command -v jq > /dev/null 2>&1 || { echo "profile_overhead: jq not installed" >&2; exit 77; }
[ -x harness/thpbench ] || make -s
TB=./harness/thpbench
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# one SIDE PAIR: one whole run, its wall ms and median roi_usec
one() {
	side=$1 i=$2
	prof=
	[ "$side" = off ] || prof=--profile
	t0=$(date +%s%N)
	$TB run -o "$T/$side-$i" -r "$REPS" --warmup 1 --thp never --progress none $prof \
		-- workloads/prof_split > "$T/$side-$i.out" 2>&1
	t1=$(date +%s%N)
	roi=$(jq '[.cases[0].runs[] | select(.status == "ok") | .metrics.roi_usec] | sort | .[length / 2 | floor] | floor' \
		"$T/$side-$i/results.json")
	echo "$side $i $(( (t1 - t0) / 1000000 )) $roi" >> "$T/rows"
}

echo "profile overhead: $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), -r $REPS, $PAIRS pairs"
i=1
while [ "$i" -le "$PAIRS" ]; do
	one off "$i"
	one on "$i"
	i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "side  pair  wall_ms  roi_usec(median)"
awk '{ printf "%-5s %4s  %7s  %s\n", $1, $2, $3, $4 }' "$T/rows"
med() { awk -v s="$1" -v c="$2" '$1 == s { print $c }' "$T/rows" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
woff=$(med off 3) won=$(med on 3) roff=$(med off 4) ron=$(med on 4)
echo "median wall: $woff ms without, $won ms with --profile ($(awk -v a="$won" -v b="$woff" 'BEGIN { printf "%.2fx", a / b }'))"
echo "median roi_usec: $roff without, $ron with --profile ($(awk -v a="$ron" -v b="$roff" 'BEGIN { printf "%.3fx", a / b }'))"
echo
echo "--- run --profile -r $REPS: what it printed at the end"
sed -n '/top functions/,$p' "$T/on-$PAIRS.out"
if [ "$PAIRS" -ge 2 ]; then
	echo
	echo "--- compare of two profiled runs (pair $((PAIRS - 1)) vs $PAIRS)"
	$TB compare "$T/on-$((PAIRS - 1))/results.json" "$T/on-$PAIRS/results.json" 2>&1 |
		sed -n '/where the time went/,/^$/p'
fi
