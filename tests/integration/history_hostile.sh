#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The history's hostile-input defects of issue 22 through the command
# line, on an SQLite file in the test's own directory:
#  6  a night stamped in the future is refused (it would hide every later
#     regression); `history delete` takes a wrongly imported run out;
#  7  a case id of 400 characters: history report/plot and thpbench plot
#     still write their charts (file names bounded, the tail hashed);
#  9  a killed run's results.jsonl imports as compare reads it; escape
#     codes and \r in host and case names never reach the terminal raw
#     (history list, history check, compare, messages); a value near
#     1e308 is left out with a word, not silently; an id over the limit
#     both databases share is refused naming it.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

command -v sqlite3 >/dev/null || { echo "FAIL: sqlite3 not installed (scripts/install-deps.sh)"; exit 1; }
F=tests/fixtures/compare
db=$TMPD/h.sqlite
# No ESC, CR, BEL or other control byte but newline: raw_free FILE
raw_free() { ! LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$1"; }

# 6. The future, and delete.
jq '.env.started = "2099-01-01T02:00:00Z"' $F/base.json >"$TMPD/future.json"
$TB history import --db "$db" "$TMPD/future.json" >/dev/null 2>"$TMPD/err"
check "a night stamped 2099: exit 2" test $? -eq 2
check "  the message says it is after the import time" \
	grep -q 'future.json: env.started 2099-01-01T02:00:00Z is after the import time' "$TMPD/err"
check "  nothing stored" test "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" = 0
$TB history import --db "$db" $F/base.json $F/new.json $F/label.json >/dev/null
check "three runs" test "$($TB history list --db "$db" --format json | jq length)" -eq 3
$TB history delete --db "$db" 2 >"$TMPD/out"
check "history delete 2: exit 0" test $? -eq 0
check "  says what it deleted" grep -q '^deleted run 2: 20.* host testbox kernel .* from .*new.json$' "$TMPD/out"
check "  two runs left, 1 and 3" \
	test "$($TB history list --db "$db" --format json | jq -c '[.[].id]')" = "[1,3]"
for t in cases reps rep_values night_metrics; do
	check "  nothing of run 2 left in $t" test "$(sqlite3 "$db" "SELECT count(*) FROM $t WHERE run_id = 2")" = 0
done
check "  run 1 untouched" test "$(sqlite3 "$db" 'SELECT count(*) FROM rep_values WHERE run_id = 1')" -gt 0
$TB history delete --db "$db" 2 2>"$TMPD/err"
check "deleting it again: exit 2, no such run" sh -c "[ $? -eq 2 ] && grep -q 'no run 2' '$TMPD/err'"
$TB history delete --db "$db" 1x 2>/dev/null
check "a run id that is no number: exit 2" test $? -eq 2

# 9. A killed run's log.
{
	jq -c '{schema: "thpbench-results-log/1", env, meta}' $F/aa_a.json
	jq -c '.cases[] | del(.runs, .summary) | {case: .}' $F/aa_a.json
	jq -c '.cases | to_entries[] | .key as $k | .value.runs[:2][] | {case: $k, run: .}' $F/aa_a.json
} >"$TMPD/results.jsonl"
$TB history import --db "$db" "$TMPD/results.jsonl" >"$TMPD/out" 2>"$TMPD/err"
check "a results.jsonl imports: exit 0" test $? -eq 0
check "  with a word that the run did not finish" grep -q 'did not finish' "$TMPD/err"
check "  its repetitions stored" \
	test "$(sqlite3 "$db" "SELECT count(*) FROM reps r JOIN runs u ON u.id = r.run_id WHERE u.source LIKE '%results.jsonl'")" -gt 0

# 9. Escape codes in names.
jq '.env.hostname = "evil\u001b[31m\rbox" | .cases[0].id = "c\u001b]0;pwned\u0007/thp=always"' \
	$F/aa_b.json >"$TMPD/esc.json"
$TB history import --db "$db" "$TMPD/esc.json" >/dev/null 2>&1
check "a host named with escape codes imports" \
	test "$($TB history list --db "$db" --format json | jq '[.[] | select(.host | startswith("evil"))] | length')" -eq 1
$TB history list --db "$db" >"$TMPD/list"
check "  history list shows it without control bytes" raw_free "$TMPD/list"
# issue 36 small item: escaped one field per line (a newline forged rows).
check "  its ESC and CR escaped (evil, x1b, r)" grep -q 'evil\\x1b\[31m\\rbox' "$TMPD/list"
$TB history check --db "$db" --fail-on none >"$TMPD/check" 2>&1
check "  history check text: no control bytes" raw_free "$TMPD/check"
$TB compare "$TMPD/esc.json" "$TMPD/esc.json" --force >"$TMPD/cmp" 2>&1
check "  compare: no control bytes" raw_free "$TMPD/cmp"
jq '.cases[1].id = .cases[0].id' "$TMPD/esc.json" >"$TMPD/dup.json"
$TB history import --db "$db" "$TMPD/dup.json" >/dev/null 2>"$TMPD/err"
check "  an error message quoting the name: no control bytes" \
	sh -c "grep -q 'appears twice' '$TMPD/err' && ! LC_ALL=C grep -q \"\$(printf '\\033')\" '$TMPD/err'"

# 9. A value near 1e308.
jq '.cases[0].runs |= map(.metrics.roi_usec = 1.5e308) | .env.hostname = "bigbox"' $F/aa_a.json >"$TMPD/big.json"
$TB history import --db "$db" "$TMPD/big.json" >/dev/null 2>"$TMPD/err"
check "values near 1e308: imported (exit 0)" test $? -eq 0
check "  with a word naming the metric left out" \
	grep -q "roi_usec = 1.5e+308 is beyond .*roi_usec is left out of the history" "$TMPD/err"

# 9. The id limit both databases share.
long=$(printf '%01030d' 0)
jq --arg id "$long" '.cases[0].id = $id' $F/aa_a.json >"$TMPD/longid.json"
$TB history import --db "$db" "$TMPD/longid.json" >/dev/null 2>"$TMPD/err"
check "a case id of 1030 bytes: exit 2" test $? -eq 2
check "  naming the limit of both databases" grep -q 'at most 1024 (in SQLite and PostgreSQL alike)' "$TMPD/err"

# 7. A case id of 400 characters.
long=$(printf '%0400d' 0 | tr 0 x)
jq --arg id "$long/thp=always" '.cases[0].id = $id | .cases[0].name = $id | .env.hostname = "longbox"' \
	$F/base.json >"$TMPD/long.json"
$TB history import --db "$db" "$TMPD/long.json" >/dev/null
$TB history report --db "$db" --host longbox -o "$TMPD/report" >"$TMPD/out" 2>&1
check "history report with a 400-character case id: exit 0" test $? -eq 0
check "  index.html written" test -s "$TMPD/report/index.html"
check "  no file name of 200 bytes or more" \
	sh -c "! ls '$TMPD/report' | awk 'length > 200' | grep -q ."
# The page draws only the series with something to say (a one-night
# history has none): the chart names are checked where every series is drawn.
$TB history plot --db "$db" --host longbox -o "$TMPD/hplot" >/dev/null 2>&1
check "history plot: exit 0" test $? -eq 0
check "  its charts, every file name under 255 bytes" \
	sh -c "[ \$(ls '$TMPD/hplot' | grep -c 'xxxx.*\.png$') -ge 1 ] && ! ls '$TMPD/hplot' | awk 'length > 200' | grep -q ."
$TB plot "$TMPD/long.json" -o "$TMPD/plot" >/dev/null 2>&1
check "thpbench plot: exit 0" test $? -eq 0
check "  the long case's chart is there" sh -c "ls '$TMPD/plot' | grep -q '^xxxx.*-[0-9a-f]\{16\}\.png$'"
finish
