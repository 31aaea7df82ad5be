#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The nightly gate through the command line, on SQLite, night by night as
# a lab runs it (history import, then history check, each night), with
# synthetic histories (tests/history/histgen):
#   - +5% on night 30: the gate fails within 3 nights and on every night
#     after it (issue 18, defect 1: it used to fail one night, or never)
#   - triage: accepted -> the gate passes, JUnit <skipped>, TAP # SKIP,
#     LAVA skip, history list --triage; reopened -> it fails again
#   - CPU changed on night 28, +15% on night 29: gated, ambiguous (defect 2)
#   - the host renamed on the night of a +15% step: one series under
#     --machine, the right first bad kernel (defect 3)
#   - two kernels stamped with the same second: ordered by their describe
#     ids whatever the import order; two commit ids refused (defect 4)
#   - a directory of nights imported in one transaction, a bad file left
#     out; a version 1 database migrated when opened
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

for tool in jq sqlite3 xmllint; do
	command -v $tool >/dev/null || { echo "skip: $tool not installed"; exit 77; }
done
HG=tests/history/histgen
[ -x "$TB" ] && [ -x "$HG" ] || { echo "FAIL: $TB or $HG not built (run make)"; exit 1; }

# --- defect 1: the gate does not forget --------------------------------------
db=$TMPD/gate.sqlite
$HG -o "$TMPD/g1" --host box1 --nights 38 --step 30:0.05 --seed 7
codes=
for f in "$TMPD"/g1/night-*.json; do
	$TB history import --db "$db" "$f" >/dev/null || bad "import $f"
	$TB history check --db "$db" --host box1 >/dev/null
	codes="$codes$?"
done
echo "gate, night by night (0 pass, 1 fail): $codes"
check "quiet nights 0-29 pass" test "$(echo "$codes" | cut -c1-30)" = "$(printf '%030d' 0)"
first=$(echo "$codes" | sed 's/1.*//' | wc -c)
first=$((first - 1))
check "it fails within 3 nights of the change (night $first)" test "$first" -ge 30 -a "$first" -le 33
check "and on every night after that, until triaged" \
	sh -c "echo '$codes' | cut -c$((first + 1))- | grep -qx '1*'"
id=$($TB history check --db "$db" --machine box1 --format json | jq -r '.series[0].change_points[0].id')
check "the change point has an id ($id)" sh -c "echo '$id' | grep -Eqx '[0-9a-f]{12}'"

# --- triage ---------------------------------------------------------------------
$TB history triage --db "$db" "$id" --accept --by "Jane Doe" 2>"$TMPD/err"
check "accept without a reason: exit 2" test $? -eq 2
check "  saying what is missing" grep -q -- '--reason' "$TMPD/err"
$TB history triage --db "$db" 0123456789ab --false-alarm --by x 2>/dev/null
check "an unknown id: exit 2" test $? -eq 2
$TB history triage --db "$db" "$(echo "$id" | cut -c1-8)" --accept \
	--reason "defrag=never by design since v6.19" --by "Jane Doe" >"$TMPD/tr"
check "accept with a reason (an 8-digit prefix will do): exit 0" test $? -eq 0
check "  and it says the gate no longer fails on it" grep -q "the gate no longer fails on it" "$TMPD/tr"
$TB history check --db "$db" --machine box1 >"$TMPD/out"
check "the gate passes now" test $? -eq 0
check "  the series is skipped with the reason" \
	grep -q "skipped: triaged: $id accepted by Jane Doe: defrag=never by design since v6.19" "$TMPD/out"
$TB history check --db "$db" --machine box1 --format junit -o "$TMPD/j.xml"
check "JUnit: exit 0, valid" xmllint --noout --schema tests/fixtures/history/junit.xsd "$TMPD/j.xml"
check "JUnit: the testcase is skipped with the reason" \
	test "$(xmllint --xpath 'count(//testcase/skipped[contains(@message, "accepted by Jane Doe")])' "$TMPD/j.xml")" = 1
check "TAP: ok ... # SKIP with the reason" \
	sh -c "$TB history check --db '$db' --machine box1 --format tap | grep -q '^ok 1 - .* # SKIP triaged: $id accepted by Jane Doe'"
check "LAVA: --result skip" \
	sh -c "$TB history check --db '$db' --machine box1 --format lava | grep -q -- '--result skip --measurement'"
$TB history list --db "$db" --triage >"$TMPD/list"
check "history list --triage shows the decision" grep -q "$id accepted    Jane Doe" "$TMPD/list"
check "history list shows it after the runs" sh -c "$TB history list --db '$db' | grep -q 'triage decisions in force:'"
$TB history triage --db "$db" "$id" --reopen --by "Jane Doe" >/dev/null
$TB history check --db "$db" --machine box1 >/dev/null
check "reopened: the gate fails again" test $? -eq 1
check "both decisions are kept" test "$(sqlite3 "$db" 'SELECT count(*) FROM triage')" -eq 2

# --- defect 2: a host change next to a regression --------------------------------
$HG -o "$TMPD/g2" --host box2 --nights 33 --host-change 28 --step 29:0.15
$TB history import --db "$db" "$TMPD/g2" >/dev/null
j=$($TB history check --db "$db" --host box2 --format json)
check "CPU changed on night 28, +15% on night 29: the gate fails" test $? -eq 1
check "  a regression at night 29, ambiguous (kernel and host changed)" \
	test "$(echo "$j" | jq -r '.series[0].change_points[0] | .kind == "regression"
		and .ambiguous and .first_bad.index == 29')" = true
check "  naming the fingerprints across the host change (night 27 -> 28), not A -> A" \
	test "$(echo "$j" | jq -r '.series[0].change_points[0] | .host_change.from.index == 27
		and .host_change.to.index == 28
		and .host_change.from.host_fingerprint != .host_change.to.host_fingerprint')" = true

# --- defect 3: a renamed host keeps its series under its machine name -------------
$HG -o "$TMPD/g3" --host oldname --rename 20:newname.example.org --nights 26 --step 20:0.15
$TB history import --db "$db" --machine lab-7 "$TMPD/g3" >/dev/null
j=$($TB history check --db "$db" --machine lab-7 --format json)
check "renamed on the night of +15%: the gate fails" test $? -eq 1
check "  one series, the regression at the rename night" \
	test "$(echo "$j" | jq -r '(.series | length) == 1 and .series[0].change_points[0].first_bad.index == 20')" = true
k20=$(jq -r .meta.kernel_id "$TMPD/g3/night-0020.json")
check "  with the right first bad kernel ($k20)" \
	test "$(echo "$j" | jq -r '.series[0].change_points[0].first_bad.kernel_id')" = "$k20"
check "history list shows the machine and both hostnames" \
	sh -c "$TB history list --db '$db' --machine lab-7 | grep -c 'lab-7 *oldname\|lab-7 *newname' | grep -qx 26"
jq '.meta.machine = "lab-8"' "$TMPD/g3/night-0000.json" >"$TMPD/m.json"
$TB history import --db "$db" "$TMPD/m.json" >/dev/null
check "meta.machine (thpbench run --machine) names the machine" \
	test "$($TB history list --db "$db" --machine lab-8 --format json | jq length)" -eq 1
$TB history import --db "$db" --machine 'a b' "$TMPD/m.json" 2>/dev/null
check "a machine name with a space: exit 2" test $? -eq 2

# --- defect 4: two kernels in one night --------------------------------------------
d4=$TMPD/d4.sqlite
$HG -o "$TMPD/g4" --host box4 --nights 24 --reps 10 --seed 3
for i in $(seq 0 20); do
	$TB history import --db "$d4" --kernel-id "$(printf 'v6.19-rc1-%d-g%07x' $i $((i + 1)))" \
		"$(printf '%s/g4/night-%04d.json' "$TMPD" $i)" >/dev/null
done
t=$(jq -r .env.started "$TMPD/g4/night-0021.json")
slow() { jq --arg t "$t" '.env.started = $t | .cases[].runs[].metrics.roi_usec *= 1.2' "$1"; }
slow "$TMPD/g4/night-0021.json" >"$TMPD/b.json"
jq --arg t "$t" '.env.started = $t' "$TMPD/g4/night-0022.json" >"$TMPD/a.json"
slow "$TMPD/g4/night-0023.json" | jq --arg t "$(jq -r .env.started "$TMPD/g4/night-0023.json")" '.env.started = $t' >"$TMPD/c.json"
# The regressed kernel first: the import order must not matter.
$TB history import --db "$d4" --kernel-id v6.19-rc1-30-gbbbbbbb "$TMPD/b.json" >/dev/null
$TB history import --db "$d4" --kernel-id v6.19-rc1-25-gaaaaaaa "$TMPD/a.json" >/dev/null
$TB history import --db "$d4" --kernel-id v6.19-rc1-31-gccccccc "$TMPD/c.json" >/dev/null
j=$($TB history check --db "$d4" --format json)
check "two kernels in one night: the later one (by its describe) regressed: exit 1" test $? -eq 1
check "  first bad v6.19-rc1-30-gbbbbbbb, last good v6.19-rc1-25-gaaaaaaa" \
	test "$(echo "$j" | jq -r '.series[0].change_points[0] | .first_bad.kernel_id + " " + .last_good.kernel_id')" = \
	"v6.19-rc1-30-gbbbbbbb v6.19-rc1-25-gaaaaaaa"
jq '.cases[].runs[].metrics.roi_usec *= 1.01' "$TMPD/a.json" >"$TMPD/a2.json"
$TB history import --db "$d4" --kernel-id 0123abcdef "$TMPD/a2.json" 2>"$TMPD/err" >/dev/null
check "a commit id at the same second as a describe id: refused, exit 2" test $? -eq 2
check "  saying why and what to do" grep -q "give no order: give each run its own env.started" "$TMPD/err"

# --- a directory in one transaction; a version 1 database -----------------------------
bulk=$TMPD/bulk.sqlite
cp "$TMPD/g1/night-0005.json" "$TMPD/g4/zz-extra.json"
echo '{"schema": "thpbench-results/1"' >"$TMPD/g4/zz-bad.json"
$TB history import --db "$bulk" "$TMPD/g4" >"$TMPD/out" 2>"$TMPD/err"
check "a directory with a bad file: exit 2" test $? -eq 2
check "  every good night stored (25), in one go" grep -q '^26 file(s): 25 imported, 0 stored before, 1 failed$' "$TMPD/out"
check "  the bad one named" grep -q 'zz-bad.json' "$TMPD/err"
sqlite3 "$bulk" 'ALTER TABLE runs DROP COLUMN hostname; DROP TABLE triage; DROP TABLE confirmations; UPDATE thpbench_schema SET version = 1'
check "a version 1 database is read" sh -c "$TB history list --db '$bulk' --format json | jq -e 'length == 25' >/dev/null"
check "  and migrated to version 3, hostnames filled in" \
	test "$(sqlite3 "$bulk" 'SELECT max(version) FROM thpbench_schema; SELECT count(*) FROM runs WHERE hostname = host')" = "3
25"
finish
