#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The nightly history at lab scale, in one run: NIGHTS synthetic nights
# of 200 series each (50 cases x 4 metrics, 5 repetitions a night, 3% CV;
# every series with two steps, +5% at a third and -5% at two thirds: each
# found change costs a confirmation on the repetitions), written by
# tests/history/histgen, then
#   import  `history import DB DIR`: the whole directory in one
#           transaction (SQLite), wall and CPU seconds, per night, and
#           the CPU of its two threads (-v): reading and writing
#   check   `history check` of the 200 series x NIGHTS nights: wall and CPU
#           seconds, its own split (-v) into loading and checking, and the
#           change points confirmed (400 expected); then the same with
#           --machine, as ./run.sh nightly asks it (a filtered load)
# with the machine's load average beside each (other jobs skew timings).
# Not a test: numbers vary with the machine and its load. Goal (issue
# 18): import of 1,000 nights < 10 s, check of 200 x 1,000 < 5 s, 2 cores.
#   tests/bench/history_check.sh [NIGHTS]   (default 1000)
set -e
cd "$(dirname "$0")/../.."
TB=./harness/thpbench
HG=tests/history/histgen
[ -x "$TB" ] && [ -x "$HG" ] || make -s
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
N=${1:-1000}

load() { cut -d' ' -f1-3 /proc/loadavg; }
# GNU time's last line (a failing gate adds "Command exited..." before it).
last_time() { tail -n 1 "$T/time"; }

echo "cpus: $(nproc), thpbench $(git describe --always --dirty 2>/dev/null || echo '?')"
$HG -o "$T/h" --nights "$N" --cases 50 --metrics 4 \
	--step "$((N / 3)):0.05" --step "$((2 * N / 3)):-0.05" --seed 1
printf '%-7s %6s %6s %8s %8s %8s %9s  %s\n' step nights series wall_s user_s sys_s per_night "load average (1, 5, 15 min)"
l=$(load)
/usr/bin/time -f '%e %U %S' -o "$T/time" \
	$TB history import -v --db "$T/h.sqlite" "$T/h" >"$T/import.out" 2>"$T/import.err"
read -r wall user sys <<EOF
$(last_time)
EOF
tail -n 1 "$T/import.out" | grep -q "$N file(s): $N imported" || {
	echo "history_check: the import did not store every night:" >&2
	tail -n 3 "$T/import.out" >&2
	exit 1
}
printf '%-7s %6s %6s %8s %8s %8s %8.1fms  %s\n' import "$N" 200 "$wall" "$user" "$sys" \
	"$(echo "$wall * 1000 / $N" | bc -l)" "$l"
# Its two threads: on two idle cores the busier one bounds the wall time.
sed -n 's/.*read and checked them in \([0-9.]*\) s, wrote them in \([0-9.]*\) s$/        of which CPU reading \1 s, writing \2 s (two threads, in parallel)/p' "$T/import.err"
cat "$T/h.sqlite" >/dev/null	# the page cache warm, as on a lab's box
l=$(load)
/usr/bin/time -f '%e %U %S' -o "$T/time" \
	$TB history check --db "$T/h.sqlite" -v --format json --fail-on none \
	>"$T/out.json" 2>"$T/err"
read -r wall user sys <<EOF
$(last_time)
EOF
printf '%-7s %6s %6s %8s %8s %8s %9s  %s\n' check "$N" \
	"$(jq '.series | length' "$T/out.json")" "$wall" "$user" "$sys" - "$l"
sed -n 's/.* in \([0-9.]*\) s, checked them in \([0-9.]*\) s$/        of which loading \1 s, checking \2 s/p' "$T/err"
a=$((N / 3)) b=$((2 * N / 3))
echo "        change points confirmed: $(jq '[.series[].change_points[]] | length' "$T/out.json"), at the 400 steps (+-1 night): $(jq --argjson a "$a" --argjson b "$b" '[.series[].change_points[].first_bad.index | select((. - $a | fabs) <= 1 or (. - $b | fabs) <= 1)] | length' "$T/out.json")"
# The same check as ./run.sh nightly asks it: one machine's series.
l=$(load)
/usr/bin/time -f '%e %U %S' -o "$T/time" \
	$TB history check --db "$T/h.sqlite" --machine box1 -v --format json --fail-on none \
	>"$T/out-m.json" 2>"$T/err"
read -r wall user sys <<EOF2
$(last_time)
EOF2
printf '%-7s %6s %6s %8s %8s %8s %9s  %s\n' "--machine" "$N" \
	"$(jq '.series | length' "$T/out-m.json")" "$wall" "$user" "$sys" - "$l"
sed -n 's/.* in \([0-9.]*\) s, checked them in \([0-9.]*\) s$/        of which loading \1 s, checking \2 s/p' "$T/err"
