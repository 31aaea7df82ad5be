#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Triage text through the command line, on SQLite (issue 36, the
# "triage text" small items):
#  - `history triage` refuses invalid UTF-8 (SQLite kept what PostgreSQL
#    refuses) and C1 controls, exit 2, nothing stored; counts its limits
#    in characters as it says; limits names to 100 characters;
#  - its confirmation of --fixed-by names the ref;
#  - a database holding a reason with newlines, escape codes and invalid
#    UTF-8 (written behind the harness's back): history check text and
#    TAP and history list print it escaped, no forged `ok 99 - fake`
#    line, valid UTF-8 throughout; list's JSON keeps the decision.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

for tool in jq sqlite3; do
	command -v $tool >/dev/null || { echo "FAIL: $tool not installed (scripts/install-deps.sh)"; exit 1; }
done
HG=tests/history/histgen
[ -x "$TB" ] && [ -x "$HG" ] || { echo "FAIL: $TB or $HG not built (run make)"; exit 1; }
db=$TMPD/t.sqlite
# valid_utf8 FILE: every line of FILE is UTF-8
valid_utf8() { ! LC_ALL=C.UTF-8 grep -qaxv '.*' "$1"; }
# no_forged FILE: no line of FILE poses as a TAP result but the plan's
no_forged() { ! grep -Eq '^(not )?ok 9[89] ' "$1"; }
stored() { sqlite3 "$db" 'SELECT count(*) FROM triage'; }

$HG -o "$TMPD/h" --host box1 --nights 26 --step 20:0.10 --seed 5 >/dev/null
$TB history import --db "$db" "$TMPD/h" >/dev/null || { echo "FAIL: import"; exit 1; }
id=$($TB history check --db "$db" --format json | jq -r '.series[0].change_points[0].id')
check "a change point to triage ($id)" sh -c "echo '$id' | grep -Eqx '[0-9a-f]{12}'"

# issue 36 small item: invalid UTF-8 refused at input (SQLite stored it,
# PostgreSQL refused it: the backends differed).
$TB history triage --db "$db" "$id" --accept --reason "why" --by "$(printf 'Jane \377')" 2>"$TMPD/err"
check "--by with invalid UTF-8: exit 2" test $? -eq 2
check "  saying so" grep -q -- '--by NAME (who decided) is not valid UTF-8 (byte 0xff at offset 5)' "$TMPD/err"
$TB history triage --db "$db" "$id" --accept --by Jane --reason "$(printf 'why \303')" 2>"$TMPD/err"
check "--reason with a cut UTF-8 character: exit 2, saying so" \
	sh -c "[ $? -eq 2 ] && grep -q -- '--reason TEXT (why it is intended) is not valid UTF-8' '$TMPD/err'"
check "  nothing stored" test "$(stored)" -eq 0

# issue 36 small item: C1 controls refused (the confirmation echoed them).
$TB history triage --db "$db" "$id" --accept --reason why --by "$(printf 'Jane \302\23331m')" >"$TMPD/out" 2>"$TMPD/err"
check "--by with U+009B (CSI): exit 2" test $? -eq 2
check "  naming the control character" grep -q 'holds a control character (U+009B at offset 5)' "$TMPD/err"
check "  nothing echoed, nothing stored" sh -c "[ ! -s '$TMPD/out' ] && [ \$(sqlite3 '$db' 'SELECT count(*) FROM triage') -eq 0 ]"

# issue 36 small item: the limit says characters and counts them.
long=$(printf '%01000d' 0 | sed 's/0/é/g')
$TB history triage --db "$db" "$id" --false-alarm --by Jane --reason "${long}é" 2>"$TMPD/err"
check "a reason of 1001 characters: exit 2, counted in characters" \
	sh -c "[ $? -eq 2 ] && grep -q 'is longer than 1000 characters (1001)' '$TMPD/err'"

# issue 36 small item: names limited at input (a 1 MB one overflowed its card).
name=$(printf '%0101d' 0)
$TB history triage --db "$db" "$id" --false-alarm --by "$name" 2>"$TMPD/err"
check "a name of 101 characters: exit 2, naming the limit" \
	sh -c "[ $? -eq 2 ] && grep -q -- '--by NAME (who decided) is longer than 100 characters (101)' '$TMPD/err'"
$TB history triage --db "$db" "$id" --accept --by "Jérôme" --reason "$long" >"$TMPD/out"
check "a reason of 1000 two-byte characters (2000 bytes): accepted" test $? -eq 0
check "  stored whole" test "$(sqlite3 "$db" 'SELECT length(reason) FROM triage')" -eq 1000

# issue 36 small item: the confirmation names the ref given, not the name.
$TB history triage --db "$db" "$id" --fixed-by "https://lore.example/fix-1" --by "Jane Doe" >"$TMPD/out"
check "--fixed-by: exit 0" test $? -eq 0
check "  the confirmation says fixed by the ref, decided by the name" \
	grep -q "^$id: fixed by https://lore.example/fix-1, decided by Jane Doe (box1 " "$TMPD/out"

# A hostile database: the newest decision's texts rewritten behind the
# harness's back, with a newline, CR, ESC and invalid UTF-8.
sqlite3 "$db" "UPDATE triage SET state = 'accepted', fix = NULL,
	reason = 'why' || char(10) || 'ok 99 - fake' || char(13) || char(27) || '[2K ' || CAST(X'FFC3' AS TEXT),
	name = 'Mallory' || char(10) || 'not ok 98 - fake'
	WHERE id = (SELECT max(id) FROM triage)"
$TB history check --db "$db" >"$TMPD/check"
check "history check: the gate passes (accepted)" test $? -eq 0
# issue 36 small item: the reason's newline forged lines in the text.
check "  text: no forged ok/not ok line" no_forged "$TMPD/check"
check "  text: the reason escaped on its line" \
	grep -q 'skipped: triaged: .* accepted by Mallory\\nnot ok 98 - fake: why\\nok 99 - fake\\r\\x1b\[2K \\xff\\xc3$' "$TMPD/check"
# issue 36 small item: invalid UTF-8 reached text and TAP raw.
check "  text: valid UTF-8" valid_utf8 "$TMPD/check"
$TB history check --db "$db" --format tap >"$TMPD/tap"
check "TAP: no forged result line" no_forged "$TMPD/tap"
check "  one result line per series in the plan" \
	test "$(grep -Ec '^(not )?ok [0-9]+ ' "$TMPD/tap")" -eq "$(sed -n 's/^1\.\.//p' "$TMPD/tap")"
check "  valid UTF-8" valid_utf8 "$TMPD/tap"
check "  the YAML's status_text escaped, U+FFFD for the bad bytes" \
	grep -q 'status_text: "accepted by Mallory\\x0anot ok 98 - fake on .*\\x1b\[2K \\uFFFD\\uFFFD"' "$TMPD/tap"
$TB history list --db "$db" >"$TMPD/list"
check "history list: no forged row" no_forged "$TMPD/list"
check "  valid UTF-8" valid_utf8 "$TMPD/list"
$TB history list --db "$db" --triage >"$TMPD/tlist"
check "history list --triage: one line per decision" \
	test "$(grep -c "^20.* $id " "$TMPD/tlist")" -eq 1 -a "$(wc -l <"$TMPD/tlist")" -eq 3
check "  the reason escaped" grep -q 'Mallory\\nnot ok 98 - fake .*: why\\nok 99 - fake\\r\\x1b\[2K \\xff\\xc3$' "$TMPD/tlist"
# issue 36 small item: invalid UTF-8 made json_string() fail: the
# decision went missing from the JSON. There now, U+FFFD for the bytes.
$TB history list --db "$db" --triage --format json >"$TMPD/tjson"
check "history list --triage --format json: the decision is there" \
	jqe --arg id "$id" 'length == 1 and .[0].id == $id' "$TMPD/tjson"
check "  its reason with U+FFFD, its newline a JSON escape" \
	jqe '.[0].reason | endswith(" \ufffd\ufffd") and startswith("why\nok 99")' "$TMPD/tjson"

# The import path takes no invalid UTF-8 either (jansson refuses it):
# whatever enters the database is UTF-8 on both backends.
sed 's/"hostname": *"[^"]*"/"hostname": "bad\xffhost"/' "$TMPD/h/$(ls "$TMPD/h" | head -n 1)" >"$TMPD/bad.json"
$TB history import --db "$db" "$TMPD/bad.json" >/dev/null 2>"$TMPD/err"
check "an import with invalid UTF-8: exit 2" test $? -eq 2
check "  refused by the JSON reader" grep -q 'unable to decode byte 0xff' "$TMPD/err"
finish
