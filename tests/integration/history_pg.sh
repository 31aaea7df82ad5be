#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The history database on a real PostgreSQL server this test starts
# itself (tests/integration/pg_lib.sh: initdb in a temporary directory,
# Unix socket only, an unprivileged user, stopped on every exit): the
# cmocka history database tests (tests/unit/history/test_history_db) against it,
# then the command line: import, idempotent re-import, two concurrent
# importers, list, a bad URI, a triage round trip (accept, skipped,
# reopen) and the migration of a version 1 database.
. tests/integration/lib.sh
. tests/integration/pg_lib.sh
. tests/integration/history_lib.sh
trap 'rm -rf "$TMPD"' EXIT
KEEP=${KEEP:-}

if ! pg_available; then
	echo "FAIL: PostgreSQL server binaries not found (scripts/install-deps.sh installs postgresql-15)"
	exit 1
fi
[ -x tests/unit/history/test_history_db ] || { echo "FAIL: tests/unit/history/test_history_db not built (make unit)"; exit 1; }
pg_start "$TMPD/pg" || exit 1
uri=$(pg_uri)
echo "server: $uri"
check "the server takes no hugetlb pages (huge_pages=off, as docs/ci/README.md says)" \
	test "$("$PG_BIN/psql" -At -d "$uri" -c 'SHOW huge_pages')" = off

check "the history database tests pass on PostgreSQL" \
	env THPBENCH_TEST_PG="$uri" tests/unit/history/test_history_db

# A clean database for the command line.
"$PG_BIN/psql" -q -d "$uri" -c 'DROP TABLE IF EXISTS night_metrics, rep_values, reps, cases, runs, triage, thpbench_schema CASCADE' \
	>/dev/null 2>&1 || bad "reset the database"

F=tests/fixtures/compare
check "import two files" $TB history import --db "$uri" --kernel-id v6.18 $F/base.json $F/new.json
out=$($TB history import --db "$uri" $F/base.json)
check "importing again stores nothing new (exit 0)" test $? -eq 0
case $out in
*"already stored as run 1"*) ok "and says it is already there" ;;
*) bad "and says it is already there: $out" ;;
esac

# Two importers at once, each with its own files and one in common.
two_importers "$uri" 6
n=$($TB history list --db "$uri" --format json | jq length)
check "nothing lost, nothing twice: 2 + 12 + 1 runs ($n)" test "$n" -eq 15
check "the shared file was stored once" \
	test "$(cat "$TMPD"/w1.log "$TMPD"/w2.log | grep -c 'already stored')" -eq 1
n=$("$PG_BIN/psql" -At -d "$uri" -c "SELECT count(*) FROM night_metrics nm JOIN runs r ON r.id = nm.run_id WHERE r.kernel_id = 'v6.18'")
check "the Otava table holds both v6.18 runs' summaries ($n rows)" test "$n" -gt 0
n=$("$PG_BIN/psql" -At -d "$uri" -c "SELECT count(*) FROM (SELECT time, kernel_id, mean FROM night_metrics WHERE host = 'testbox' AND case_id = 'mremap/thp=always' AND metric = 'roi_usec' ORDER BY time) s")
check "the README's series query runs ($n nights)" test "$n" -ge 2
# docs/ci/otava.yaml's query, as Otava runs it, on this server: the
# example's box1/nightly stand for this test's host and suite. Otava finds
# the time column, the attributes and the metrics by name, and compares
# times with a time-zone-aware --since (a timestamptz).
if perl -MYAML::XS -e1 2>/dev/null; then
	otava=$(perl -MYAML::XS=LoadFile -e 'my $t = LoadFile($ARGV[0])->{tests}{"box1-mremap-roi"};
		print join(",", $t->{time_column}, @{$t->{attributes}}, sort keys %{$t->{metrics}}), "\n", $t->{query}' \
		docs/ci/otava.yaml)
	want=$(echo "$otava" | head -n 1)
	q=$(echo "$otava" | tail -n +2 | sed "s/'box1'/'testbox'/; s/'nightly'/'fixture'/")
	"$PG_BIN/psql" -X -A -F, -P footer=off -d "$uri" -c "$q" >"$TMPD/otava.csv" 2>"$TMPD/otava.err"
	check "Otava's query runs" test $? -eq 0 -a ! -s "$TMPD/otava.err"
	head -n 1 "$TMPD/otava.csv" | tr , '\n' | sort >"$TMPD/cols"
	missing=$(echo "$want" | tr , '\n' | sort | comm -23 - "$TMPD/cols" | tr '\n' ' ')
	check "  with the columns its test names ($want; missing: ${missing:-none})" test -z "$missing"
	rows=$(($(wc -l <"$TMPD/otava.csv") - 1))
	check "  a row per night, in time order ($rows)" \
		sh -c "test $rows -ge 2 && tail -n +2 '$TMPD/otava.csv' | cut -d, -f1 | sort -c"
	check "  its time column a timestamptz" test "$("$PG_BIN/psql" -X -At -d "$uri" \
		-c "SELECT DISTINCT pg_typeof(time) FROM ($q) s")" = "timestamp with time zone"
fi
check "list --host filters" \
	test "$($TB history list --db "$uri" --host nosuchhost --format json | jq length)" -eq 0

$TB history list --db "postgresql:///nosuchdb?host=$PG_DIR&user=$(pg_user)" >/dev/null 2>"$TMPD/err"
check "an unreachable database: exit 2" test $? -eq 2
check "the password-free error names the problem" grep -q 'nosuchdb' "$TMPD/err"

# The password never reaches the report or a message (trust auth: the
# server ignores it).
secret_uri="postgresql://$(pg_user):hunter2s3cret@/postgres?host=$PG_DIR"
$TB history report --db "$secret_uri" -o "$TMPD/report" >/dev/null 2>"$TMPD/rerr"
check "a report from a URI with a password" test -f "$TMPD/report/index.html"
check "index.html does not show the password" sh -c "! grep -q hunter2s3cret '$TMPD/report/index.html'"
check "index.html shows the URI redacted" grep -q "$(pg_user):\*\*\*@" "$TMPD/report/index.html"
$TB history check --db "$secret_uri" --host nosuchhost >/dev/null 2>"$TMPD/rerr2"
check "the no-series message does not show the password" sh -c "grep -q 'no series in' '$TMPD/rerr2' && ! grep -q hunter2s3cret '$TMPD/rerr2'"

# A triage round trip (issue 18): a regression fails the gate, is accepted,
# passes (skipped in JUnit), is reopened and fails again; printed as it goes.
HG=tests/history/histgen
$HG -o "$TMPD/tr" --host pgbox --nights 26 --step 20:0.10 --seed 5
$TB history import --db "$uri" "$TMPD/tr" >/dev/null || bad "import the triage history"
echo "\$ thpbench history check --db \$URI --machine pgbox"
$TB history check --db "$uri" --machine pgbox | tee "$TMPD/c1"
check "postgresql triage: a regression fails the gate" test "$(grep -c '^FAIL pgbox' "$TMPD/c1")" -eq 1
id=$($TB history check --db "$uri" --machine pgbox --format json | jq -r '.series[0].change_points[0].id')
# issue 36 small item: invalid UTF-8 refused as on SQLite, by the same
# check, not by the server (it refused it, SQLite stored it).
$TB history triage --db "$uri" "$id" --accept --reason "$(printf 'why \377')" --by "Jane Doe" 2>"$TMPD/err"
check "postgresql triage: invalid UTF-8 refused (exit 2) as on SQLite" \
	sh -c "[ $? -eq 2 ] && grep -q 'reason TEXT (why it is intended) is not valid UTF-8' '$TMPD/err'"
echo "\$ thpbench history triage --db \$URI $id --accept --reason '...' --by 'Jane Doe'"
$TB history triage --db "$uri" "$id" --accept --reason "larger pages by design (v6.19)" --by "Jane Doe"
check "postgresql triage: recorded" test $? -eq 0
echo "\$ thpbench history check --db \$URI --machine pgbox"
$TB history check --db "$uri" --machine pgbox | tee "$TMPD/c2"
check "postgresql triage: the gate passes, the series skipped with the reason" \
	grep -q "skipped: triaged: $id accepted by Jane Doe: larger pages by design" "$TMPD/c2"
$TB history check --db "$uri" --machine pgbox --format junit | grep -q '<skipped message="'
check "postgresql triage: JUnit skipped" test $? -eq 0
echo "\$ thpbench history list --db \$URI --triage"
$TB history list --db "$uri" --triage | tee "$TMPD/l"
check "postgresql triage: listed" grep -q "$id accepted" "$TMPD/l"
$TB history triage --db "$uri" "$id" --reopen --by "Jane Doe" >/dev/null
$TB history check --db "$uri" --machine pgbox >/dev/null
check "postgresql triage: reopened, the gate fails again" test $? -eq 1
n=$("$PG_BIN/psql" -At -d "$uri" -c "SELECT count(*) FROM triage")
check "postgresql triage: both decisions kept ($n)" test "$n" -eq 2

# A version 1 database on the server is migrated when opened.
"$PG_BIN/psql" -q -d "$uri" -c 'ALTER TABLE runs DROP COLUMN hostname; DROP TABLE triage; DROP TABLE confirmations; UPDATE thpbench_schema SET version = 1' >/dev/null 2>&1 ||
	bad "make a version 1 database"
check "postgresql: a version 1 database is read" sh -c "$TB history list --db '$uri' --format json >/dev/null"
check "  and is version 3 now, with a triage and a confirmations table" \
	test "$("$PG_BIN/psql" -At -d "$uri" -c 'SELECT max(version) FROM thpbench_schema'),$("$PG_BIN/psql" -At -d "$uri" -c 'SELECT count(*) FROM triage'),$("$PG_BIN/psql" -At -d "$uri" -c 'SELECT count(*) FROM confirmations')" = "3,0,0"

dir=$PG_DIR
pg_stop
check "the server is stopped" test ! -e "$dir/data/postmaster.pid"
finish
