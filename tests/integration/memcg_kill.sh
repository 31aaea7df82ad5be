#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The memcg a 'memcg =' case gets (system/res_cgroup.c) on whichever
# hierarchy holds the memory controller here, cgroup v2 or v1 (hybrid
# hosts): the workload runs inside it with the limit the suite asked
# for, and nothing of it stays however the run ends: a plain exit, and
# a kill -9 then `thpbench restore`. Only this test's runs' own
# thpbench-PID-* directories are looked at (other runs may make theirs).
# Then `thpbench restore` with only a resource journal says it undid it,
# not "nothing to restore".
. tests/integration/lib.sh
need_root
if grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	ROOT=/sys/fs/cgroup VER=2 LIMF=memory.max
else
	# The kernel's mountinfo: mount point (5th field) of the v1 memory one.
	ROOT=$(sed -n 's|^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup [^ ]* .*\bmemory\b.*|\1|p' /proc/self/mountinfo | head -1)
	VER=1 LIMF=memory.limit_in_bytes
fi
[ -n "$ROOT" ] && [ -d "$ROOT" ] || { echo "skip: no memory cgroup hierarchy (v2 or v1) here"; exit 77; }
echo "memory controller on cgroup v$VER at $ROOT"

ST=$TMPD/state
export THPBENCH_STATE_DIR=$ST
run_pid=
cleanup() {
	[ -n "$run_pid" ] && kill -9 "$run_pid" 2>/dev/null
	$TB restore > /dev/null 2>&1
	for d in "$ROOT"/thpbench-$$-*; do [ -d "$d" ] && rmdir "$d"; done
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

cat > "$TMPD/memcg.conf" <<CONF
[suite]
name = memcg-kill
repetitions = 1
warmup = 0

[case memcg]
workload = sh
args = -c "echo limit=\$(cat {cgroup}/$LIMF); grep -q '[:/]thpbench-' /proc/self/cgroup && echo inside=yes; sleep \$SLEEP"
thp = current
expect_huge = no
memcg = 64M
CONF

# restore, again while another harness run holds the settings lock
# (restore does not wait for it). Its exit status.
restore_to() {
	n=0
	while :; do
		$TB restore > "$1" 2>&1
		rc=$?
		grep -q "another thpbench" "$1" && [ $n -lt 300 ] || return $rc
		sleep 1
		n=$((n + 1))
	done
}

ours() { ls -d "$ROOT"/thpbench-"$1"-* 2>/dev/null; }
# Made, with a task in it (the workload, moved in before it execs).
made() { d=$(ours "$1") && [ -n "$d" ] && [ -n "$(cat "$d/cgroup.procs")" ]; }

export SLEEP=0
$TB run "$TMPD/memcg.conf" --wait=300 -o "$TMPD/out-exit" --progress none \
	> "$TMPD/run-exit.log" 2>&1 &
run_pid=$!
wait "$run_pid"
rc=$?
check "exit: the run exits 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -5 "$TMPD/run-exit.log"
check "exit: the workload ran inside a thpbench-* memcg" \
	grep -rq 'inside=yes' "$TMPD/out-exit/logs"
check "exit: with the limit asked for, 64M, in $LIMF" \
	grep -rq 'limit=67108864$' "$TMPD/out-exit/logs"
check "exit: the memcg is gone" [ -z "$(ours $run_pid)" ]
check "exit: the resource journal is gone" [ ! -e "$ST/resources.json" ]
run_pid=

SLEEP=60 $TB run "$TMPD/memcg.conf" --wait=300 -o "$TMPD/out-kill" \
	--progress none > "$TMPD/run-kill.log" 2>&1 &
run_pid=$!
i=0
while ! made $run_pid && [ $i -lt 3000 ] && kill -0 "$run_pid" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
check "kill: the run made its memcg and moved the workload in" made $run_pid
check "kill: journalled as cgroup v$VER" \
	grep -q "\"num\": $VER" "$ST/resources.json"
kill -9 "$run_pid"
wait "$run_pid" 2>/dev/null
check "kill: the memcg outlives the harness" made $run_pid
restore_to "$TMPD/restore.txt"
check "kill: thpbench restore exits 0" [ $? -eq 0 ]
check "kill: restore says it undid it" grep -q 'undid 1 resource' "$TMPD/restore.txt"
check "kill: no thpbench-$run_pid-* memcg remains under $ROOT" [ -z "$(ours $run_pid)" ]
check "kill: the resource journal is gone" [ ! -e "$ST/resources.json" ]
run_pid=

# Only a resource journal, no knob journal: restore says what it did.
mkdir "$ROOT/thpbench-$$-77"
cat > "$ST/resources.json" <<JSON
{"version": 1, "root": "$ST", "pid": 1, "time": 1, "knobs": [
 {"kind": "cgroup", "path": "$ROOT/thpbench-$$-77", "num": $VER}]}
JSON
rm -f "$ST/journal.json"
restore_to "$TMPD/only-res.txt"
check "only resources: restore exits 0" [ $? -eq 0 ]
check "only resources: it says it undid 1" grep -q 'undid 1 resource' "$TMPD/only-res.txt"
check "only resources: and not 'nothing to restore'" \
	sh -c "! grep -q 'nothing to restore' '$TMPD/only-res.txt'"
check "only resources: the planted thpbench-* memcg is gone" \
	[ ! -e "$ROOT/thpbench-$$-77" ]
cat "$TMPD/only-res.txt"
finish
