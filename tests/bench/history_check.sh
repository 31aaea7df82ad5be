#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `thpbench history check` over synthetic histories of NIGHTS nights x 200
# series (50 cases x 4 metrics, 5 repetitions a night, 3% CV), recorded in
# SQLite through `history import`: wall and CPU time of the whole command,
# and its own split (-v) into loading the series and checking them, for
# 125, 250, 500 and 1000 nights, and how each grows per doubling. Every
# series has two steps (+5% at a third, -5% at two thirds): each confirmed
# change point costs a full permutation test, so this is the slow case; a
# flat history stops its single test early. Not a test: numbers vary with
# the machine and its load. Goal (issue 11): 1000 x 200 under 10 s on 2
# cores.
#   tests/bench/history_check.sh [NIGHTS...]   (default 125 250 500 1000)
set -e
cd "$(dirname "$0")/../.."
TB=./harness/thpbench
HG=tests/history/histgen
[ -x "$TB" ] && [ -x "$HG" ] || make -s -j2
command -v bc >/dev/null || { echo "history_check: needs bc" >&2; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
SIZES=${*:-125 250 500 1000}

echo "cpus: $(nproc), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%6s %6s %8s %8s %8s %8s %8s %6s\n' nights series wall_s user_s sys_s load_s check_s changes
prev=""
for n in $SIZES; do
	rm -rf "$T/h" "$T/h.sqlite"
	$HG -o "$T/h" --nights "$n" --cases 50 --metrics 4 \
		--step "$((n / 3)):0.05" --step "$((2 * n / 3)):-0.05" --seed 1
	$TB history import --db "$T/h.sqlite" "$T/h"/*.json >/dev/null
	# Warm the page cache so the first size is not the only cold one.
	cat "$T/h.sqlite" >/dev/null
	/usr/bin/time -f '%e %U %S' -o "$T/time" \
		$TB history check --db "$T/h.sqlite" -v --format json \
		>"$T/out.json" 2>"$T/err" || [ $? -eq 1 ]
	# GNU time puts "Command exited with non-zero status 1" first when a
	# series fails the gate (a history this long has some): the last line.
	read -r wall user sys <<EOF
$(tail -n 1 "$T/time")
EOF
	split=$(sed -n 's/.* in \([0-9.]*\) s, checked them in \([0-9.]*\) s$/\1 \2/p' "$T/err")
	changes=$(jq '[.series[].change_points[] | select(.kind != "rejected")] | length' "$T/out.json")
	# shellcheck disable=SC2086
	printf '%6s %6s %8s %8s %8s %8s %8s %6s\n' "$n" \
		"$(jq '.series | length' "$T/out.json")" "$wall" "$user" "$sys" $split "$changes"
	[ -n "$prev" ] && echo "        x$(echo "scale=2; $wall / $prev" | bc -l) wall for x$(echo "scale=2; $n / $pn" | bc -l) nights"
	prev=$wall
	pn=$n
done
