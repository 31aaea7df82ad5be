#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# thpbench history import/list on SQLite through the command line:
# import, idempotent re-import, --kernel-id, two concurrent importers into
# one file, list filters and JSON, the Otava query, and the errors (exit 2):
# a bad kernel id, a missing database, an invalid results file (and
# nothing stored from it).
. tests/integration/lib.sh
. tests/integration/history_lib.sh
trap 'rm -rf "$TMPD"' EXIT

command -v sqlite3 >/dev/null || { echo "FAIL: sqlite3 not installed (scripts/install-deps.sh)"; exit 1; }
F=tests/fixtures/compare
db=$TMPD/h.sqlite

check "import two files" $TB history import --db "$db" --kernel-id v6.18-rc1-3-gabc1234 $F/base.json $F/new.json
$TB history import --db "$db" $F/base.json >"$TMPD/out"
check "importing a file again: exit 0" test $? -eq 0
check "and nothing new stored" grep -q 'already stored as run 1' "$TMPD/out"
check "two runs" test "$($TB history list --db "$db" --format json | jq length)" -eq 2
check "the --kernel-id is kept" \
	test "$($TB history list --db "$db" --format json | jq -r '.[0].kernel_id')" = v6.18-rc1-3-gabc1234
$TB history import -v --db "$TMPD/v.sqlite" $F/base.json $F/new.json 2>"$TMPD/err" >/dev/null
check "import -v: the CPU of its reading and its writing thread, on stderr" \
	grep -Eq '^history import: 2 file\(s\), CPU: read and checked them in [0-9]+\.[0-9]{2} s, wrote them in [0-9]+\.[0-9]{2} s$' "$TMPD/err"

two_importers "$db" 8
check "nothing lost, nothing twice: 2 + 16 + 1 runs" \
	test "$($TB history list --db "$db" --format json | jq length)" -eq 19
check "the file both imported is stored once" \
	test "$(cat "$TMPD/w1.log" "$TMPD/w2.log" | grep -c 'already stored')" -eq 1
check "the database is intact" test "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok

$TB history list --db "$db" >"$TMPD/list"
check "list prints a header, the runs and a count" grep -q '^19 run(s)$' "$TMPD/list"
check "list --host of an unknown host: nothing" \
	test "$($TB history list --db "$db" --host nobody --format json | jq length)" -eq 0
check "list --suite" \
	test "$($TB history list --db "$db" --suite fixture --format json | jq length)" -gt 0

# The README's query: one metric's series, oldest first.
n=$(sqlite3 "$db" "SELECT time, kernel_id, mean FROM night_metrics
	WHERE host = 'testbox' AND case_id = 'mremap/thp=always' AND metric = 'roi_usec'
	ORDER BY time" | wc -l)
check "the Otava query gives one row per night ($n)" test "$n" -ge 10
check "raw repetitions are kept" \
	test "$(sqlite3 "$db" "SELECT count(*) FROM rep_values")" -gt 100

$TB history import --db "$db" --kernel-id 'x; rm -rf /' $F/base.json 2>"$TMPD/err"
check "a kernel id with a space or ;: exit 2" test $? -eq 2
check "  with a message naming --kernel-id" grep -q -- '--kernel-id' "$TMPD/err"
$TB history list --db "$TMPD/none.sqlite" 2>"$TMPD/err"
check "list of a missing database: exit 2" test $? -eq 2
check "  and it is not created" test ! -e "$TMPD/none.sqlite"
jq '.env.started = "last night"' $F/base.json >"$TMPD/bad.json"
$TB history import --db "$db" "$TMPD/bad.json" $F/label.json 2>"$TMPD/err" >/dev/null
check "an invalid file among good ones: exit 2" test $? -eq 2
check "  the message names the file and the field" grep -q 'bad.json: env.started' "$TMPD/err"
check "  the good file was still imported" \
	test "$($TB history list --db "$db" --format json | jq length)" -eq 20
$TB history frobnicate 2>/dev/null
check "an unknown subcommand: exit 2" test $? -eq 2
finish
