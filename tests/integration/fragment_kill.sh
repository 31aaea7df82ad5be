#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The fragmenter is ended with its run at any point of its preparation
# (issue 36, row 9): it used to block SIGTERM - its parent-death signal -
# until ready, so after a kill -9 of the harness it went on breaking up
# memory for ~25 s past `thpbench restore`, and a Ctrl-C waited 10 s for
# it. Here, while it prepares (--fragment-share 0.99: many seconds):
# - the state directory records it (helper: "PID STARTTIME");
# - kill -9 of the harness, then `thpbench restore`: no fragmenter within
#   2 s;
# - SIGINT of the harness: the harness and the fragmenter gone within 3 s.
# The knobs the run changed are put back by restore and the SIGINT path
# (memstate.sh checks compaction_proactiveness after kill -9; read here it
# could be another run's value); the trap puts back THP enabled and kills
# a fragmenter left by a failed check.
. tests/integration/lib.sh
need_root
guard_thp
STATE=${THPBENCH_STATE_DIR:-/run/thpbench}
trap 'echo "$THP_SAVED" > "$THP"; for f in $frags; do [ "$(ps -o comm= -p "$f")" = fragment ] && kill -9 "$f"; done; rm -rf "$TMPD"' EXIT

# The run's fragmenter, once it is started (its child); empty if none.
start_run() {
	$TB run --memory-state fragmented --fragment-share 0.99 -r 1 --warmup 0 \
		--wait=120 -e task-clock -- sleep 30 > "$TMPD/run.log" 2>&1 &
	pid=$!
	frag=
	i=0
	while [ -z "$frag" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 2400 ]; do
		sleep 0.05
		frag=$(pgrep -x -P "$pid" fragment)
		i=$((i + 1))
	done
	frags="$frags $frag"
	sleep 0.5
	# Still preparing: the workload has not started.
	if [ -z "$frag" ] || pgrep -x -P "$pid" sleep > /dev/null; then
		cat "$TMPD/run.log"
		kill -9 "$pid" 2>/dev/null
		echo "skip: the fragmenter was not preparing 0.5 s after it started (another run holding the settings lock, or a machine that breaks up 99% of its memory that fast)"
		exit 77
	fi
}

# gone PID SECONDS: PID is no live process within SECONDS.
gone() {
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		ps -o stat= -p "$1" 2>/dev/null | grep -qv Z || return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

start_run
check "the state directory records the preparing fragmenter" \
	sh -c "read p s < '$STATE/helper' && [ \"\$p\" = '$frag' ] && [ \"\$s\" -gt 0 ]"
kill -9 "$pid"
wait "$pid" 2>/dev/null
$TB restore > "$TMPD/restore.log" 2>&1
check "thpbench restore exits 0" [ $? -eq 0 ]
check "no fragmenter 2 s after kill -9 and restore" gone "$frag" 2
check "the record is gone" [ ! -e "$STATE/helper" ]

start_run
kill -INT "$pid"
check "SIGINT during the preparation: the harness is gone within 3 s" gone "$pid" 3
check "  and so is the fragmenter" gone "$frag" 1
wait "$pid" 2>/dev/null
check "  which leaves no record" [ ! -e "$STATE/helper" ]
finish
