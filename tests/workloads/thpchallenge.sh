#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/thpchallenge through the harness: a `memcg =` case with the
# fio challenge on an ext4 image the harness mounts, small (64M of
# faults, 32M of fio files), two repetitions. Asserts, never a speed:
#  - the run exits 0; per repetition, results.json has faults = 32 (one
#    per 2 MiB of 64M), huge_faults + fallback_faults = faults,
#    huge_share_pct = 100 * huge_faults / faults, fault_p50_usec <=
#    fault_p99_usec, challenge_running = 1 and challenge_wchar_kb > 0
#    (fio was writing the whole time);
#  - after the run: no thpbench-* memcg of it, no fio of it, no journal;
#  - kill -9 of thpbench during the challenge, then `thpbench restore`:
#    no memcg of that run and no fio left.
# Root, fio, a memory cgroup and mkfs.ext4 are needed, else a skip.
. tests/workloads/lib.sh
need_bin workloads/thpchallenge
need_bin harness/thpbench
[ "$(id -u)" = 0 ] || skip_all "needs root (memcg, loop mount, pagemap)"
command -v jq > /dev/null || skip_all "needs jq"
command -v fio > /dev/null || skip_all "needs fio (scripts/install-deps.sh)"
command -v mkfs.ext4 > /dev/null || skip_all "needs mkfs.ext4"
if grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	ROOT=/sys/fs/cgroup
else
	ROOT=$(sed -n 's|^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup [^ ]* .*\bmemory\b.*|\1|p' /proc/self/mountinfo | head -1)
fi
[ -n "$ROOT" ] && [ -d "$ROOT" ] || skip_all "no memory cgroup hierarchy (v2 or v1) here"

TB=harness/thpbench
export THPBENCH_STATE_DIR="$tmp/state"
run_pid=
cleanup() {
	[ -n "$run_pid" ] && kill -9 "$run_pid" 2> /dev/null
	$TB restore > /dev/null 2>&1
}
at_exit cleanup

suite() {	# $1 repetitions, $2 delay
	cat <<CONF
[suite]
name = thpchallenge-test
repetitions = $1
warmup = 0
timeout = 120

[case thpchallenge]
workload = thpchallenge
args = --challenge fio --size 64M --challenge-size 32M --files 16 --delay $2 --madvise
thp = current
expect_huge = no
mount = ext4:64M
memcg = max
CONF
}
ours() { ls -d "$ROOT"/thpbench-"$1"-* 2> /dev/null; }
# fio started by thpchallenge under the run's state dir's mounts.
fio_of_ours() { pgrep -f "fio --name=thpchallenge --directory=$THPBENCH_STATE_DIR/" > /dev/null; }

suite 2 1 > "$tmp/c.conf"
$TB run "$tmp/c.conf" -o "$tmp/out" --progress none --wait=300 > "$tmp/run.log" 2>&1 &
run_pid=$!
wait "$run_pid"
rc=$?
pid=$run_pid
run_pid=
R=$tmp/out/results.json
if [ "$rc" -eq 0 ] && [ -f "$R" ]; then
	pass "the run exits 0 with results.json"
else
	fail "the run exited $rc"
	tail -15 "$tmp/run.log" | sed 's/^/    | /'
fi
n=$(jq '[.cases[].runs[] | select(.status == "ok")] | length' "$R" 2> /dev/null)
[ "$n" = 2 ] && pass "two repetitions ok" || fail "ok repetitions: $n, wanted 2"
each() {	# DESC JQ-TEST: true for every repetition
	if [ "$(jq "[.cases[].runs[] | .metrics | $2] | all" "$R" 2> /dev/null)" = true ]; then
		pass "$1, in every repetition"
	else
		fail "$1: $(jq -c '[.cases[].runs[].metrics]' "$R" 2> /dev/null | cut -c1-300)"
	fi
}
each "faults = 32 (one per 2 MiB of 64M)" '.faults == 32'
each "huge_faults + fallback_faults = faults" '.huge_faults + .fallback_faults == .faults'
each "huge_share_pct = 100 * huge_faults / faults" \
	'((.huge_share_pct - 100 * .huge_faults / .faults) | fabs) < 0.01'
each "fault_p50_usec <= fault_p99_usec" '.fault_p50_usec <= .fault_p99_usec'
each "the kind that occurred has its percentiles" \
	'(.huge_faults == 0 or .huge_fault_p99_usec != null) and (.fallback_faults == 0 or .fallback_fault_p99_usec != null)'
each "challenge_running = 1, challenge_wchar_kb > 0" \
	'.challenge_running == 1 and .challenge_wchar_kb > 0'
[ -z "$(ours "$pid")" ] && pass "after the run: no thpbench-$pid-* memcg" ||
	fail "after the run: left $(ours "$pid")"
fio_of_ours && fail "after the run: fio still runs" || pass "after the run: no fio of it"
[ ! -e "$THPBENCH_STATE_DIR/resources.json" ] && pass "after the run: no resource journal" ||
	fail "after the run: resources.json left"

# kill -9 during the challenge's head start, then restore.
suite 1 20 > "$tmp/k.conf"
$TB run "$tmp/k.conf" -o "$tmp/out2" --progress none --wait=300 > "$tmp/run2.log" 2>&1 &
run_pid=$!
i=0
while [ $i -lt 150 ] && ! fio_of_ours; do
	sleep 0.1
	i=$((i + 1))
done
fio_of_ours && pass "kill: the challenge runs" || {
	fail "kill: the challenge did not start"
	tail -15 "$tmp/run2.log" | sed 's/^/    | /'
}
pid=$run_pid
kill -9 "$run_pid"
wait "$run_pid" 2> /dev/null
run_pid=
$TB restore > "$tmp/restore.log" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "kill: thpbench restore exits 0" || { fail "kill: restore exited $rc"; sed 's/^/    | /' "$tmp/restore.log"; }
[ -z "$(ours "$pid")" ] && pass "kill: no thpbench-$pid-* memcg after restore" ||
	fail "kill: left $(ours "$pid")"
i=0
while [ $i -lt 20 ] && fio_of_ours; do
	sleep 0.1
	i=$((i + 1))
done
fio_of_ours && fail "kill: fio is still running" || pass "kill: no fio left"
finish
