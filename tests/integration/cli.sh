#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The CLI's error contract (exit 2, messages naming file:line or the
# event) and the runner's handling of failing, missing and slow programs.
# Runs as any user; the THP mode is left as found.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

$TB > /dev/null 2>&1
check "no command: exit 2" [ $? -eq 2 ]
$TB frobnicate > /dev/null 2>&1
check "unknown command: exit 2" [ $? -eq 2 ]
$TB run --kernel-id "v1; rm -rf /" -o "$TMPD/k" -- true > "$TMPD/ek" 2>&1
check "run --kernel-id with a blank or ;: exit 2" [ $? -eq 2 ]
check "  naming --kernel-id, before anything ran" sh -c "grep -q -- --kernel-id $TMPD/ek && test ! -e $TMPD/k"

printf '[suite]\nrepetitions = 3\n[case a]\nworkload = true\nflavour = x\n' > "$TMPD/bad1.conf"
$TB run "$TMPD/bad1.conf" > "$TMPD/e1" 2>&1
check "unknown key: exit 2" [ $? -eq 2 ]
check "unknown key: message names file:line and key" \
	grep -q "bad1.conf:5: unknown key \"flavour\"" "$TMPD/e1"

printf '[case a]\nworkload = true\nthreshold = 5%%\n' > "$TMPD/bad1b.conf"
$TB run "$TMPD/bad1b.conf" > "$TMPD/e1b" 2>&1
check "threshold without .METRIC: exit 2" [ $? -eq 2 ]
check "threshold without .METRIC: message names file:line and key" \
	grep -q "bad1b.conf:3: unknown key \"threshold\"" "$TMPD/e1b"

printf '[suite]\nrepetitions = lots\n' > "$TMPD/bad2.conf"
$TB run "$TMPD/bad2.conf" > "$TMPD/e2" 2>&1
check "bad number: exit 2 with file:line" grep -q 'bad2.conf:2: repetitions' "$TMPD/e2"

$TB run -e no-such-event -- true > "$TMPD/e3" 2>&1
check "unknown event: exit 2" [ $? -eq 2 ]
check "unknown event: named in the message" grep -q 'no-such-event' "$TMPD/e3"

$TB run -e task-clock,dTLB-load-misses -o "$TMPD/r1" -- true > "$TMPD/o1" 2>&1
check "run -- true: exit 0" [ $? -eq 0 ]
if [ "$(jq .env.pmu "$TMPD/r1/results.json")" = false ]; then
	check "no PMU: dTLB-load-misses printed <not supported>" \
		grep -q '<not supported>.*dTLB-load-misses' "$TMPD/o1"
	check "no PMU: dTLB-load-misses absent from metrics, reason stored" \
		[ "$(jq '.cases[0].runs[0] | (.metrics["dTLB-load-misses"] == null and (.unsupported["dTLB-load-misses"] | length) > 0)' "$TMPD/r1/results.json")" = true ]
fi
check "task-clock counted" \
	[ "$(jq '.cases[0].runs[0].metrics["task-clock"] > 0' "$TMPD/r1/results.json")" = true ]

$TB run -r 2 --warmup 0 -o "$TMPD/r2" -- sh -c 'exit 7' > "$TMPD/o2" 2>&1
check "nothing valid measured: exit 3" [ $? -eq 3 ]
check "nothing valid measured: said" grep -q "nothing valid was measured" "$TMPD/o2"
check "finished run: results.jsonl replaced by results.json" [ ! -e "$TMPD/r2/results.jsonl" ]
check "failing program: runs recorded as failed with exit code 7" \
	[ "$(jq -c '[.cases[0].runs[] | [.status, .exit_code]] | unique' "$TMPD/r2/results.json")" = '[["failed",7]]' ]

$TB run -r 1 --warmup 0 -o "$TMPD/r3" -- /nonexistent/prog > "$TMPD/o3" 2>&1
check "missing program: run recorded as error naming it" \
	[ "$(jq -r '.cases[0].runs[0].status' "$TMPD/r3/results.json")" = error ]
check "missing program: message names it" grep -q '/nonexistent/prog' "$TMPD/o3"

$TB run -r 2 --warmup 0 --timeout 1 -o "$TMPD/r4" -- sleep 20 > /dev/null 2>&1
check "timeout: both repetitions killed and recorded, suite went on" \
	[ "$(jq -c '[.cases[0].runs[].status]' "$TMPD/r4/results.json")" = '["timeout","timeout"]' ]
check "timeout: the killing signal is recorded" \
	[ "$(jq '.cases[0].runs[0].signal' "$TMPD/r4/results.json")" = 9 ]

$TB run -r 1 --warmup 0 -o "$TMPD/r5" -- sh -c 'kill -SEGV $$' > /dev/null 2>&1
check "signalled program: status signaled, signal 11" \
	[ "$(jq -c '.cases[0].runs[0] | [.status, .signal]' "$TMPD/r5/results.json")" = '["signaled",11]' ]

if nobody_runs_tb; then
	chmod 777 "$TMPD"
	cur=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled)
	su nobody -s /bin/sh -c "$TB run -r 1 --warmup 0 --thp always,madvise,never -e task-clock -o $TMPD/nr -- /bin/true" > "$TMPD/nr.txt" 2>&1
	check "not root: the run still succeeds" [ $? -eq 0 ]
	check "not root: only the current mode ($cur) ran" \
		[ "$(jq -c '[.cases[] | select(.runs | length > 0) | .thp]' "$TMPD/nr/results.json")" = "[\"$cur\"]" ]
	check "not root: the other modes are recorded as skipped, with the reason" \
		[ "$(jq '[.cases[] | select(.runs | length == 0) | .extra.skipped | test("not root")] | length' "$TMPD/nr/results.json")" = 2 ]
	check "not root: the skip is said" grep -q "skipped: not root" "$TMPD/nr.txt"
fi

# Per-metric overrides already parsed when a later option fails: exit 2,
# and valgrind finds nothing lost (each pattern is freed on that path).
F=tests/fixtures/compare
for args in "-t gbps=4% --better roi_usec=lower -t split_usec=lots" \
	"-t gbps=4% --better gbps=sideways" "-t gbps=4% --better roi_usec=lower --bogus"; do
	# shellcheck disable=SC2086
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9 $TB compare $F/base.json $F/new.json $args \
		> "$TMPD/vg" 2>&1
	rc=$?
	check "compare $args: exit 2, nothing leaked" [ $rc -eq 2 ]
	[ $rc -eq 2 ] || cat "$TMPD/vg"
done

$TB list > "$TMPD/list" 2>&1
check "list exits 0" [ $? -eq 0 ]
check "list shows the mremap workload" grep -q 'workloads/mremap' "$TMPD/list"
check "list shows the quick suite" grep -q 'configs/quick.conf' "$TMPD/list"
check "list shows software events" grep -q 'page-faults' "$TMPD/list"
finish
