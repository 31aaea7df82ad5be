#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The confirmation A/B of a night's watch (issue 32), through
# `./run.sh nightly --results FILE --confirm qemu` with a stub runner
# (THPBENCH_CONFIRM_RUNNER) in place of qemu, on SQLite:
#   - 11 quiet nights, then +10% on a new kernel: a watch that alone does
#     not fail the gate (not strong), and history confirm --plan names the
#     case, the metric, the last good and the suspect kernel
#   - the stub's A B A B run says B is 10% slower: compare's verdict
#     (regression) is recorded in the confirmations table, the watch line
#     prints it, and the gate fails (exit 1)
#   - the stub's run shows no difference: recorded, printed as not
#     confirmed (inconclusive), and the gate passes (exit 0)
#   - a night without a watch: the confirmation is not triggered and the
#     runner never called
#   - the same on PostgreSQL (a throwaway server, pg_lib.sh) when installed
. tests/integration/lib.sh
trap '[ -n "${KEEP:-}" ] || rm -rf "$TMPD"' EXIT

for tool in jq sqlite3; do
	command -v $tool >/dev/null || { echo "skip: $tool not installed"; exit 77; }
done
HG=tests/history/histgen
[ -x "$TB" ] && [ -x "$HG" ] || { echo "FAIL: $TB or $HG not built (run make)"; exit 1; }

$HG -o "$TMPD/h" --host box1 --nights 12 --step 11:0.10 --seed 3 --cases 1 --metrics 1
# The stub: A.json is the last good night, B.json the same runs times
# $STUB_SCALE (a fake that writes results, as the qemu runner would).
cat >"$TMPD/stub.sh" <<STUB
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in -o) out=\$2; shift 2 ;; --kernel-a|--kernel-b|--suite) echo "\$1 \$2" >>"$TMPD/stub.calls"; shift 2 ;; *) exit 2 ;; esac
done
mkdir -p "\$out" && cp "$TMPD/h/night-0010.json" "\$out/A.json" &&
jq --argjson k "\$STUB_SCALE" '.cases[].runs[].metrics |= map_values(. * \$k)' \
	"$TMPD/h/night-0010.json" >"\$out/B.json"
STUB
chmod +x "$TMPD/stub.sh"

night() { # DB SCALE: nights 0-10 imported, night 11 through the nightly
	rm -f "$TMPD/stub.calls"
	for f in "$TMPD"/h/night-000*.json "$TMPD/h/night-0010.json"; do
		$TB history import --db "$1" "$f" >/dev/null || bad "import $f"
	done
	STUB_SCALE=$2 THPBENCH_CONFIRM_RUNNER="$TMPD/stub.sh" ./run.sh nightly \
		--db "$1" -o "$TMPD/out-$2" --results "$TMPD/h/night-0011.json" \
		--confirm qemu >"$TMPD/log-$2" 2>&1
}

db=$TMPD/reg.sqlite
$TB history import --db "$db" "$TMPD"/h/night-000*.json "$TMPD/h/night-0010.json" "$TMPD/h/night-0011.json" >/dev/null
$TB history check --db "$db" >"$TMPD/plain"
check "without a confirmation the watch alone passes the gate" test $? -eq 0
check "  it is a watch" grep -q "watch: the newest night" "$TMPD/plain"
$TB history confirm --db "$db" --plan >"$TMPD/plan"
k10=$(jq -r .meta.kernel_id "$TMPD/h/night-0010.json")
k11=$(jq -r .meta.kernel_id "$TMPD/h/night-0011.json")
check "--plan names case, metric, last good and suspect kernel" \
	test "$(cat "$TMPD/plan")" = "$(printf 'case00/thp=always\troi_usec\t%s\t%s' "$k10" "$k11")"
rm -f "$db"

night "$TMPD/reg.sqlite" 1.10
rc=$?
check "a confirmed regression fails the nightly gate (exit $rc)" test $rc -eq 1
check "  the runner got both kernels" grep -qx -- "--kernel-a $k10" "$TMPD/stub.calls"
check "  ... and the suspect" grep -qx -- "--kernel-b $k11" "$TMPD/stub.calls"
check "  the verdict is printed" grep -q "confirmation (A B A B, qemu $k10 vs $k11, 5 vs 5 runs): regression +10.0%" "$TMPD/log-1.10"
check "  and recorded in the confirmations table" \
	test "$(sqlite3 "$TMPD/reg.sqlite" 'SELECT verdict, kernel_a, kernel_b, method, na FROM confirmations')" = "regression|$k10|$k11|qemu|5"
$TB history check --db "$TMPD/reg.sqlite" --format text >/dev/null
check "  history check alone reads it back: fails" test $? -eq 1

night "$TMPD/same.sqlite" 1
rc=$?
check "an unconfirmed suspicion passes the gate (exit $rc)" test $rc -eq 0
check "  its verdict printed (inconclusive at 5 vs 5 runs)" grep -q "^confirmation [0-9a-f]*: case00/thp=always roi_usec ([0-9a-f]* vs [0-9a-f]*): inconclusive +0.0%" "$TMPD/log-1"
check "  the check says not confirmed" grep -q "confirmation (A B A B, .*): inconclusive .*not confirmed: the watch is cleared" "$TMPD/out-1/history-check.txt"
check "  recorded as inconclusive" \
	test "$(sqlite3 "$TMPD/same.sqlite" 'SELECT verdict FROM confirmations')" = "inconclusive"

db=$TMPD/quiet.sqlite
$TB history import --db "$db" "$TMPD"/h/night-000[0-8].json >/dev/null
rm -f "$TMPD/stub.calls"
STUB_SCALE=1 THPBENCH_CONFIRM_RUNNER="$TMPD/stub.sh" ./run.sh nightly --db "$db" \
	-o "$TMPD/out-q" --results "$TMPD/h/night-0009.json" --confirm qemu >"$TMPD/log-q" 2>&1
check "a quiet night passes" test $? -eq 0
check "  the confirmation is not triggered" grep -q "confirmation: not triggered" "$TMPD/log-q"
check "  and the runner is never called" test ! -e "$TMPD/stub.calls"

./run.sh nightly --confirm kexec --results "$TMPD/h/night-0009.json" --db "$db" 2>"$TMPD/err"
check "--confirm kexec: exit 2 (not built)" test $? -eq 2
./run.sh nightly --confirm bogus --db "$db" 2>"$TMPD/err"
check "--confirm bogus: exit 2" test $? -eq 2
# PostgreSQL: the same table through the same reader and writer.
. tests/integration/pg_lib.sh
if pg_available && pg_start "$TMPD/pg"; then
	uri=$(pg_uri)
	for f in "$TMPD"/h/night-000*.json "$TMPD/h/night-0010.json"; do
		$TB history import --db "$uri" "$f" >/dev/null || bad "import $f (postgresql)"
	done
	STUB_SCALE=1.10 THPBENCH_CONFIRM_RUNNER="$TMPD/stub.sh" ./run.sh nightly \
		--db "$uri" -o "$TMPD/out-pg" --results "$TMPD/h/night-0011.json" \
		--confirm qemu >"$TMPD/log-pg" 2>&1
	check "postgresql: a confirmed regression fails the gate" test $? -eq 1
	check "  recorded there" test "$("$PG_BIN/psql" -At -d "$uri" -c 'SELECT verdict, na FROM confirmations')" = "regression|5"
	check "  the verdict printed" grep -q "confirmation (A B A B, qemu .*): regression +10.0%" "$TMPD/log-pg"
	pg_stop
else
	echo "note: no PostgreSQL server here: its part left out"
fi
finish
