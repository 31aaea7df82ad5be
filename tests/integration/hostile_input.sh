# SPDX-License-Identifier: GPL-2.0-only
# Hostile input never runs a command: a results file whose case names,
# labels and metric names hold gnuplot backquotes, @macros and newlines is
# plotted (run and A/B charts) and `thpbench run` draws the charts of a
# command whose arguments hold them; no marker file appears. A suite or
# results file the parser would once have accepted silently (or crashed
# on) is a FILE:LINE error with exit 2.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

command -v jq >/dev/null || { echo "skip: jq not installed"; exit 77; }
[ -x "$TB" ] || { echo "FAIL: $TB not built (run make)"; exit 1; }
FX=tests/fixtures/plot
P=$TMPD/pwned

# --- gnuplot ---------------------------------------------------------------
evil() { printf '%s`touch %s%s`@x' "$1" "$P" "$2"; }
jq --arg n "$(evil name 1)" --arg l "$(evil label 2)" \
   --arg m "$(printf 'm\n`touch %s3` \\' "$P")" '
	.cases |= map(.name = $n | .label = $l | .id = (.id + $n)
		      | .runs |= map(.metrics[$m] = 1))' \
	$FX/thp.json > "$TMPD/evil.json"
$TB plot "$TMPD/evil.json" -o "$TMPD/p1" > "$TMPD/p1.out" 2>&1
check "plot of a hostile results file exits 0" [ $? -eq 0 ]
$TB plot "$TMPD/evil.json" --by thp -o "$TMPD/p2" > "$TMPD/p2.out" 2>&1
$TB plot $FX/ab_base.json "$TMPD/evil.json" -o "$TMPD/p3" > "$TMPD/p3.out" 2>&1
jq --arg m "$(printf 'm\n`touch %s4`' "$P")" '.cases |= map(.label = "`touch '"$P"'5`"
	| .runs |= map(.metrics[$m] = 1))' $FX/ab_new.json > "$TMPD/evil_new.json"
$TB plot $FX/ab_base.json "$TMPD/evil_new.json" -o "$TMPD/p4" > "$TMPD/p4.out" 2>&1
check "A/B plot of a hostile results file exits 0" [ $? -eq 0 ]
check "gnuplot scripts were written" [ -n "$(ls "$TMPD"/p1/*.gp 2>/dev/null)" ]
$TB run -o "$TMPD/r1" -- /bin/echo "$(evil arg 6)" "@x" > "$TMPD/r1.out" 2>&1
check "run -- echo with hostile args exits 0" [ $? -eq 0 ]
check "no command in any file ran (no $P*)" [ -z "$(ls "$TMPD" | grep pwned)" ]

# --- suites ----------------------------------------------------------------
# suite_error NAME TEXT LINE: loading TEXT fails with exit 2 at FILE:LINE.
suite_error() {
	printf '%b' "$2" > "$TMPD/s.conf"
	$TB run "$TMPD/s.conf" -o "$TMPD/sr" > "$TMPD/s.out" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && grep -q "s.conf:$3: " "$TMPD/s.out"; then
		ok "suite: $1"
	else
		bad "suite: $1 (exit $rc, want 2 and s.conf:$3): $(cat "$TMPD/s.out")"
	fi
}
suite_error "second args with a bad quote" \
	"[case a]\nworkload = /bin/true\nargs = -a\nargs = 'x\n" 4
suite_error "threshold that is not a number" \
	"[case a]\nworkload = /bin/true\nthreshold.x = abc%%\n" 3
suite_error "duplicate case" "[case a]\nworkload = /bin/true\n[case a]\n" 3
suite_error "comment after a value" "[case a]\nworkload = /bin/true # x\n" 2
suite_error "zero repetitions" "[suite]\nrepetitions = 0\n" 2
suite_error "4kB hugetlb pool" "[case a]\nworkload = /bin/true\nhugetlb.4kB = 1\n" 3
suite_error "a mode twice" "[suite]\nthp = always,always\n" 2
suite_error "empty events" "[suite]\nevents = ,,,\n" 2

# --- results files -------------------------------------------------------
load_error() {
	printf '%b' "$2" > "$TMPD/bad.json"
	$TB compare "$TMPD/bad.json" --by thp > "$TMPD/l.out" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && grep -q "bad.json:$3" "$TMPD/l.out"; then
		ok "results: $1"
	else
		bad "results: $1 (exit $rc, want 2 and bad.json:$3): $(cat "$TMPD/l.out")"
	fi
}
load_error "duplicate key" '{"schema": "thpbench-results/1",\n"cases": [],\n"cases": []}' 3
load_error "duplicate case id" \
	'{"schema": "thpbench-results/1", "cases": [\n{"id": "a", "runs": []},\n{"id": "a", "runs": []}]}' 3

finish
