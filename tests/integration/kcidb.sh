#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# KCIDB v5 output of `history check --format kcidb` and `compare -f kcidb`
# (results/kcidb.h), every document checked by tests/kcidb/kcidb_check
# (the schema's required fields, types, id and origin rules, status enum,
# RFC 3339, no nulls):
#   - a history with an open +5% regression: exit 1, a FAIL test, valid;
#     an A/A history: exit 0, every test PASS; --fail-on none: every test
#     DONE; the same history twice: the same document (stable ids)
#   - a bad --origin: exit 2 naming --origin (history check and compare)
#   - compare of the fixtures with a regression: a FAIL on the new side,
#     every base-side test DONE, units (µs for *_usec, none for counts);
#     --by thp: one kernel, one checkout and one build
#   - hostile suite and case names: the test path keeps [A-Za-z0-9_-] only
#   - planted invalid documents, one per kind of violation: kcidb_check
#     exits 1; not JSON: 2
# Needs jq.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

command -v jq >/dev/null || { echo "skip: jq not installed"; exit 77; }
HG=tests/history/histgen
KC=tests/kcidb/kcidb_check
for b in "$TB" "$HG" "$KC"; do
	[ -x "$b" ] || { echo "FAIL: $b not built (run make)"; exit 1; }
done
DB=$TMPD/h.db
F=tests/fixtures/compare

record() { # NAME HISTGEN-OPTIONS...
	name=$1
	shift
	$HG -o "$TMPD/$name" --host "$name" "$@" &&
		$TB history import --db "$DB" "$TMPD/$name"/*.json >/dev/null
}
kcheck() { # HOST OUT [OPTIONS...]: history check --format kcidb, its rc in $rc
	h=$1 o=$2
	shift 2
	$TB history check --db "$DB" --host "$h" --format kcidb --origin lab_1 "$@" >"$o"
	rc=$?
}
valid() { "$KC" --origin "${2:-lab_1}" "$1" >/dev/null; }

record step --step 15:0.05 || bad "import step"
record aa --cases 3 --night-cv 0.005 --seed 1000 || bad "import aa"

kcheck step "$TMPD/fail.json"
check "history check --format kcidb: an open regression exits 1" test "$rc" -eq 1
check "... and the document passes the schema check" valid "$TMPD/fail.json"
check "... with a FAIL test thpbench.SUITE.CASE.METRIC, its mean and unit" \
	jqe '.tests | any(.status == "FAIL" and .path == "thpbench.synthetic.case00.thpalways.roi_usec"
		and (.number.value | type) == "number" and .number.unit == "µs"
		and (.misc.change_point.p | type) == "number")' "$TMPD/fail.json"
check "... a checkout and a build, the test under them" \
	jqe '(.checkouts | length) == 1 and (.builds | length) == 1 and
		.builds[0].checkout_id == .checkouts[0].id and .tests[0].build_id == .builds[0].id
		and .version.major == 5' "$TMPD/fail.json"
check "... no empty misc" jqe '[.. | objects | select(has("misc")) | .misc == {}] | any | not' \
	"$TMPD/fail.json"

kcheck step "$TMPD/fail2.json"
check "the same history twice: the same document (ids from the history, not the clock)" \
	cmp -s "$TMPD/fail.json" "$TMPD/fail2.json"

kcheck aa "$TMPD/pass.json"
check "an A/A history: exit 0" test "$rc" -eq 0
check "... valid, every test PASS" sh -c "$KC --origin lab_1 $TMPD/pass.json >/dev/null &&
	jq -e '(.tests | length) == 3 and all(.tests[]; .status == \"PASS\")' $TMPD/pass.json >/dev/null"

kcheck step "$TMPD/done.json" --fail-on none
check "--fail-on none: exit 0" test "$rc" -eq 0
check "... valid, every test DONE (no verdict applies)" sh -c "$KC --origin lab_1 $TMPD/done.json >/dev/null &&
	jq -e 'all(.tests[]; .status == \"DONE\")' $TMPD/done.json >/dev/null"

for o in Lab x-y 'a b' '' 'a:b'; do
	$TB history check --db "$DB" --format kcidb --origin "$o" >/dev/null 2>"$TMPD/err"
	rc=$?
	check "history check --origin '$o': exit 2 naming --origin" \
		sh -c "test $rc -eq 2 && grep -q -- '--origin' $TMPD/err"
	$TB compare $F/base.json $F/new.json -f kcidb --origin "$o" >/dev/null 2>"$TMPD/err"
	rc=$?
	check "compare --origin '$o': exit 2 naming --origin" \
		sh -c "test $rc -eq 2 && grep -q -- '--origin' $TMPD/err"
done

$TB compare $F/base.json $F/new.json -f kcidb --origin ci_b >"$TMPD/cmp.json"
check "compare -f kcidb of the fixtures: valid" valid "$TMPD/cmp.json" ci_b
check "... a FAIL on the new side (the gbps regression)" \
	jqe '.builds[1].id as $b | .tests | any(.build_id == $b and .status == "FAIL"
		and (.path | endswith(".gbps")) and .misc.verdict == "regression")' "$TMPD/cmp.json"
check "... every base-side test DONE" \
	jqe '.builds[0].id as $a | [.tests[] | select(.build_id == $a)] | length > 0 and all(.status == "DONE")' \
	"$TMPD/cmp.json"
check "... µs for *_usec" \
	jqe '[.tests[] | select(.path | endswith("split_usec"))] | length > 0 and all(.number.unit == "µs")' \
	"$TMPD/cmp.json"
check "... no unit on page-faults (a count)" \
	jqe '[.tests[] | select(.path | endswith("page-faults")) | .number | select(. != null)]
		| length > 0 and all(has("unit") | not)' "$TMPD/cmp.json"
$TB compare $F/base.json $F/new.json -f kcidb --origin ci_b >"$TMPD/cmp2.json"
check "... the same files twice: the same document" cmp -s "$TMPD/cmp.json" "$TMPD/cmp2.json"
$TB compare $F/aa_a.json $F/aa_b.json -f kcidb >"$TMPD/aa.json"
check "compare of an A/A pair: valid, no FAIL, origin thpbench by default" \
	sh -c "$KC --origin thpbench $TMPD/aa.json >/dev/null &&
	jq -e 'all(.tests[]; .status != \"FAIL\")' $TMPD/aa.json >/dev/null"

$TB compare $F/thp.json --by thp -f kcidb >"$TMPD/thp.json"
check "compare --by thp -f kcidb: valid, both sides under one checkout and one build" \
	sh -c "$KC --origin thpbench $TMPD/thp.json >/dev/null &&
	jq -e '(.checkouts | length) == 1 and (.builds | length) == 1' $TMPD/thp.json >/dev/null"

# Hostile names: a suite and a case id with shell, markup, dots, newlines.
$HG -o "$TMPD/ev" --host ev --suite 'e$(id);<b>v"i l' --nights 6 >/dev/null &&
for f in "$TMPD/ev"/*.json; do
	jq '.cases[0].id = "c/../a b\n'"'"'x$(y)" | .cases[0].name = "c"' "$f" >"$f.t" && mv "$f.t" "$f"
done
$TB history import --db "$DB" "$TMPD/ev"/*.json >/dev/null || bad "import hostile names"
kcheck ev "$TMPD/ev.json"
check "hostile suite and case names: valid" valid "$TMPD/ev.json"
check "... the path keeps [A-Za-z0-9_-] parts only" \
	jqe '.tests | length > 0 and all(.path | test("^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$"))
		and any(.path == "thpbench.eidbvil.c.abxy.roi_usec")' "$TMPD/ev.json"

# Planted violations: each must make kcidb_check exit 1.
plant() { # WHAT JQ-FILTER
	jq "$2" "$TMPD/fail.json" >"$TMPD/planted.json"
	"$KC" --origin lab_1 "$TMPD/planted.json" >/dev/null 2>"$TMPD/why"
	rc=$?
	check "kcidb_check refuses $1 (exit 1)" test "$rc" -eq 1
}
plant "a missing required field" 'del(.tests[0].build_id)'
plant "a missing checkout id" 'del(.checkouts[0].id)'
plant "a missing version" 'del(.version)'
plant "major version 4" '.version.major = 4'
plant "a status outside the enum" '.tests[0].status = "BROKEN"'
plant "an id without ORIGIN:" '.tests[0].id = "nocolon"'
plant "an id under another origin" '.tests[0].id = "other:1"'
plant "an origin with capitals" '.checkouts[0].origin = "Lab_1"'
plant "another origin than --origin" '.builds[0].origin = "lab_2" | .builds[0].id = "lab_2:1"'
plant "a start_time that is not RFC 3339" '.tests[0].start_time = "2026-13-01 25:00"'
plant "a null" '.tests[0].comment = null'
plant "a number without value" '.tests[0].number = {unit: "s"}'
plant "a number value of the wrong type" '.tests[0].number.value = "12"'
plant "a number prefix outside the enum" '.tests[0].number.prefix = "si"'
plant "a path with an empty part" '.tests[0].path = "a..b"'
plant "a path with a space" '.tests[0].path = "a b"'
plant "a property the schema does not know" '.tests[0].verdict = "x"'
plant "a misc that is no object" '.tests[0].misc = [1]'
plant "a repeated id" '.tests += [.tests[0]]'
plant "a string field of the wrong type" '.builds[0].comment = 7'
echo '{"version":' >"$TMPD/broken.json"
"$KC" "$TMPD/broken.json" 2>/dev/null
check "kcidb_check on a file that is not JSON: exit 2" test $? -eq 2
finish
