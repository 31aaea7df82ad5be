#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# thpbench history check/plot/report on synthetic histories with known
# answers (tests/history/histgen), recorded through `history import` into
# SQLite and, when PostgreSQL is installed, a throwaway PostgreSQL cluster
# (tests/integration/pg_lib.sh). Against each database:
#   - a +5% step at 3% CV is found at its night (+-1), a regression, with
#     a ready git bisect line, and fails the gate while it is open; -5% is
#     an improvement
#   - 100 A/A histories of 30 nights: at most 5 raise any alarm
#   - new microcode with a step: an environment change (no bisect, no
#     gate) when the kernel stayed; ambiguous and gated when it changed too
#   - a step the night before the newest is confirmed tonight and fails the
#     gate (exit 1) in every format (JUnit valid per
#     tests/fixtures/history/junit.xsd, TAP 13, LAVA); a step on the newest
#     night alone is a watch: only --fail-on newest fails on it; --fail-on
#     none passes; missing and failed nights are skipped
# Then on SQLite: plot (every .gp runs clean, PNG/SVG), report (the verdict
# first, a chart per card; the page in a browser is history_report.sh) and
# errors (exit 2). Needs jq, xmllint; gnuplot for the drawing checks
# (skipped with a note without it).
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

for tool in jq xmllint; do
	command -v $tool >/dev/null || { echo "skip: $tool not installed"; exit 77; }
done
HG=tests/history/histgen
[ -x "$TB" ] && [ -x "$HG" ] || { echo "FAIL: $TB or $HG not built (run make)"; exit 1; }

# histgen into a directory, import it: record NAME DB HISTGEN-OPTIONS...
record() {
	name=$1 db=$2
	shift 2
	rm -rf "$TMPD/$name"
	$HG -o "$TMPD/$name" --host "$name" "$@" &&
		$TB history import --db "$db" "$TMPD/$name"/*.json >/dev/null
}

# history check of one host as JSON: checkjson DB HOST [OPTIONS...]
checkjson() {
	db=$1 host=$2
	shift 2
	$TB history check --db "$db" --host "$host" --format json "$@"
}

scenarios() { # DB LABEL
	db=$1 l=$2
	record step "$db" --step 15:0.05 || bad "$l: import step"
	record impr "$db" --step 15:-0.05 || bad "$l: import impr"
	record aa "$db" --cases 100 --night-cv 0.005 --seed 1000 || bad "$l: import aa"
	record hostchg "$db" --kernel-same --host-change 18 --step 18:0.08 || bad "$l: import hostchg"
	record ambig "$db" --host-change 18 --step 18:0.08 || bad "$l: import ambig"
	record gate "$db" --reps 10 --step 28:0.10 --missing 5 --failed 12 || bad "$l: import gate"
	record young "$db" --nights 4 --step 3:0.10 || bad "$l: import young"
	record drift "$db" --nights 60 --cv 0.01 --night-cv 0.005 --seed 4204 \
		--drift 0.0025 --drift-from 20 || bad "$l: import drift"

	j=$(checkjson "$db" step) && bad "$l: step: check exits 1 (the regression is open)"
	check "$l: +5% at 3% CV: one confirmed change, a regression at night 15 +-1" \
		test "$(echo "$j" | jq -r '[.series[0].change_points[] | select(.kind != "rejected")]
			| length == 1 and .[0].kind == "regression"
			and (.[0].first_bad.index | . >= 14 and . <= 16)')" = true
	check "$l: beyond the noise threshold, open, with an id" \
		test "$(echo "$j" | jq -r '.series[0].change_points[0] | .change > 0.02
			and .status == "open" and (.id | length == 12)')" = true
	check "$l: a git bisect line from the last good to the first bad kernel" \
		test "$(echo "$j" | jq -r '.series[0].change_points[0]
			| .bisect == "git bisect start \(.first_bad.kernel_id) \(.last_good.kernel_id)"')" = true

	$TB history check --db "$db" --host young >/dev/null
	check "$l: three quiet nights, then +10%: not confirmed yet (exit 0)" test $? -eq 0
	$TB history check --db "$db" --host young --fail-on newest >/dev/null
	check "$l: ... but the early warning fails --fail-on newest" test $? -eq 1
	check "$l: ... and says it is a watch" \
		test "$(checkjson "$db" young | jq -r '.series[0].watch.kind')" = regression

	j=$(checkjson "$db" impr)
	check "$l: -5% of a lower-is-better metric: an improvement" \
		test "$(echo "$j" | jq -r '[.series[0].change_points[] | select(.kind != "rejected")]
			| length == 1 and .[0].kind == "improvement"')" = true

	j=$(checkjson "$db" aa)
	n=$(echo "$j" | jq '.series | length')
	alarms=$(echo "$j" | jq '[.series[] | select(any(.change_points[]; .kind != "rejected"))] | length')
	echo "$l: A/A: $alarms of $n histories of 30 nights raised an alarm"
	check "$l: A/A: 100 histories, at most 5 alarms" test "$n" -eq 100 -a "$alarms" -le 5

	j=$(checkjson "$db" hostchg) ||
		bad "$l: hostchg: exit 1: an environment change failed the gate"
	check "$l: new microcode with a step, same kernel: an environment change, nothing to bisect" \
		test "$(echo "$j" | jq -r '.series[0].change_points | length == 1
			and .[0].kind == "environment change" and .[0].host_changed
			and .[0].bisect == null')" = true
	j=$(checkjson "$db" ambig) &&
		bad "$l: ambig: exit 0: a regression hidden by a host change"
	check "$l: new microcode and a new kernel with the step: ambiguous, a regression, gated" \
		test "$(echo "$j" | jq -r '.series[0].change_points | length == 1
			and .[0].kind == "regression" and .[0].ambiguous
			and .[0].status == "open"')" = true

	$TB history check --db "$db" --host gate >"$TMPD/gate.txt"
	rc=$?
	check "$l: a step confirmed tonight fails the gate: exit 1" test "$rc" -eq 1
	check "$l: ... and the text says FAIL with the bisect line" \
		grep -q "^FAIL box1\|^FAIL gate" "$TMPD/gate.txt"
	grep -q "git bisect start" "$TMPD/gate.txt" || bad "$l: gate: no bisect line"
	j=$(checkjson "$db" gate)
	check "$l: missing and failed nights are skipped: 28 of 30, confirmed on the newest" \
		test "$(echo "$j" | jq -r '.series[0] | .nights_used == 28
			and .change_points[-1].confirmed_on.index == .newest.index
			and .new_tonight')" = true
	$TB history check --db "$db" --host gate --fail-on none >/dev/null
	check "$l: --fail-on none: exit 0" test $? -eq 0
	$TB history check --db "$db" --host gate --format junit -o "$TMPD/junit.xml"
	check "$l: JUnit: exit 1 too" test $? -eq 1
	check "$l: JUnit valid per the schema" \
		xmllint --noout --schema tests/fixtures/history/junit.xsd "$TMPD/junit.xml"
	check "$l: JUnit: one testcase, one failure carrying the change point" \
		test "$(xmllint --xpath 'count(//testcase)' "$TMPD/junit.xml"),$(xmllint --xpath 'count(//testcase/failure[contains(@message, "regression at night")])' "$TMPD/junit.xml")" = "1,1"
	$TB history check --db "$db" --host gate --format tap >"$TMPD/tap"
	check "$l: TAP 13: plan and not ok" \
		test "$(head -3 "$TMPD/tap" | tr '\n' '|')" = "TAP version 13|1..1|not ok 1 - gate/synthetic case00/thp=always roi_usec|"
	$TB history check --db "$db" --host gate --format lava >"$TMPD/lava"
	check "$l: LAVA: lava-test-case NAME --result fail --measurement V --units us" \
		grep -Eqx 'lava-test-case gate_synthetic_case00_thp_always_roi_usec --result fail --measurement [0-9.]+ --units us' "$TMPD/lava"
	$TB history check --db "$db" --host impr --format lava >"$TMPD/lava"
	check "$l: LAVA: a passing series says pass" grep -q -- "--result pass --measurement" "$TMPD/lava"
	a=$(checkjson "$db" aa | jq -c '[.series[].change_points[] | [.first_bad.index, .night_test.p, .id]]')
	b=$(checkjson "$db" aa --threads 1 | jq -c '[.series[].change_points[] | [.first_bad.index, .night_test.p, .id]]')
	check "$l: the same change points, whatever the threads" test "$a" = "$b"

	j=$(checkjson "$db" drift) && bad "$l: drift: check exits 1 (a regression drift is open)"
	check "$l: +10% over 40 nights from night 20 (seed 4204): one drift, no change point" \
		test "$(echo "$j" | jq -r '.series[0] | (.change_points | length) == 0
			and (.drifts | length) == 1 and .drifts[0].kind == "regression"
			and (.drifts[0].from.index | . >= 18 and . <= 22)
			and .drifts[0].change > 0.08 and .drifts[0].open')" = true
	check "$l: the text says it once, as a drift" \
		test "$($TB history check --db "$db" --host drift | grep -c 'drift (regression) from night')" = 1
	id=$(echo "$j" | jq -r '.series[0].drifts[0].id')
	$TB history triage --db "$db" "$id" --accept --by CI --reason "slow by design" >/dev/null
	check "$l: a drift is triaged by its id like a change point" \
		test "$(checkjson "$db" drift | jq -r '.series[0] | .fails == false
			and .drifts[0].open == false and .drifts[0].triage.state == "accepted"')" = true
}

scenarios "$TMPD/h.sqlite" sqlite

# --- PostgreSQL ------------------------------------------------------------
if [ -f tests/integration/pg_lib.sh ]; then
	. tests/integration/pg_lib.sh
	if pg_available; then
		if pg_start "$TMPD/pg"; then
			scenarios "$(pg_uri)" postgresql
		else
			bad "postgresql: the throwaway cluster did not start"
		fi
		pg_stop
	else
		echo "note: PostgreSQL not installed: its half skipped"
	fi
fi

# --- errors ------------------------------------------------------------------
db="$TMPD/h.sqlite"
$TB history check --db "$TMPD/none.sqlite" 2>/dev/null
check "no such database: exit 2" test $? -eq 2
$TB history check --db "$db" --host nobody 2>/dev/null
check "no series match: exit 2" test $? -eq 2
for opt in "--alpha 0" "--alpha 1" "--min-segment 0" "--permutations 5" \
	"--threshold -0.1" "--format xml" "--fail-on always" "--seed -1" "--bogus"; do
	# shellcheck disable=SC2086
	$TB history check --db "$db" $opt >/dev/null 2>&1
	check "check $opt: exit 2" test $? -eq 2
done
$TB history plot --db "$db" 2>/dev/null
check "plot without -o: exit 2" test $? -eq 2

# --- plot and report ----------------------------------------------------------
if ! command -v gnuplot >/dev/null; then
	echo "note: gnuplot missing: charts not checked"
	finish
fi
$TB history plot --db "$db" --host gate -o "$TMPD/plot" >"$TMPD/plot.out" 2>"$TMPD/plot.err"
check "plot: exit 0, nothing on stderr" test $? -eq 0 -a ! -s "$TMPD/plot.err"
stem="$TMPD/plot/history-gate_synthetic_case00-thp-always_roi_usec"
check "plot: .gp, .dat, .seg.dat, PNG and SVG of the series" \
	sh -c "ls $stem-*.gp $stem-*.dat $stem-*.seg.dat $stem-*.png $stem-*.svg >/dev/null"
check "plot: the PNG is a 1000x600 PNG" sh -c "file $stem-*.png | grep -q 'PNG image data, 1000 x 600'"
check "plot: the SVG parses" sh -c "xmllint --noout $stem-*.svg"
check "plot: one point per night with values" test "$(grep -vc '^#' $stem-*[0-9a-f].dat)" -eq 28
check "plot: the change point marked and labelled with the first bad kernel" \
	sh -c "grep -q 'set label \"regression +[0-9.]*%[a-z ,]*\\\\nfirst bad: $(checkjson "$db" gate | jq -r '.series[0].change_points[-1].first_bad.kernel_id')\"' $stem-*.gp"
( cd / && gnuplot $stem-*.gp ) 2>"$TMPD/gp.err"
check "plot: the script redraws from another directory without a word" test ! -s "$TMPD/gp.err"

R="$TMPD/report"
$TB history report --db "$db" -o "$R" >/dev/null 2>"$TMPD/report.err"
check "report: exit 0 (a failing gate does not fail the report)" test $? -eq 0 -a ! -s "$TMPD/report.err"
check "report: no script, no remote URL" sh -c "! grep -Eiq '<script|https?://' '$R/index.html'"
check "report: each <img> names a PNG that is there" sh -c "
	n=0; for src in \$(grep -o '<img src=\"[^\"]*\"' '$R/index.html' | sed 's/.*src=\"//; s/\"\$//'); do
		file \"$R/\$src\" | grep -q 'PNG image data' || exit 1; n=\$((n + 1)); done; test \$n -ge 1"
check "report: the gate's verdict first, then the failing series' card" \
	sh -c "grep -q '<header id=\"gate\" class=\"verdict fail\">' '$R/index.html' &&
		grep -m1 '<article class=\"card' '$R/index.html' | grep -q 'regression failing'"
# The page in a browser: tests/integration/history_report.sh.
finish
