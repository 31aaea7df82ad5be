#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A run killed with SIGKILL mid-suite leaves a journal; `thpbench restore`
# (and, separately, the next run's start) undoes the settings it changed.
. tests/integration/lib.sh
need_root
guard_thp
orig=$(thp_mode)
target=always
[ "$orig" = always ] && target=never

kill_mid_run() {
	$TB run --thp "$target" -r 1 --warmup 0 -e task-clock -- sleep 30 \
		> "$TMPD/run.log" 2>&1 &
	pid=$!
	i=0
	while [ "$(thp_mode)" != "$target" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.3
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	pkill -9 -x sleep -P 1 2>/dev/null
	pkill -9 -f '^sleep 30$' 2>/dev/null
}

kill_mid_run
check "the killed run had switched THP to $target" [ "$(thp_mode)" = "$target" ]
check "a journal was left behind" [ -s /run/thpbench/journal.json ]
$TB restore > "$TMPD/restore.txt" 2>&1
check "thpbench restore exits 0" [ $? -eq 0 ]
check "restore says what it did" grep -q 'restored' "$TMPD/restore.txt"
check "THP enabled is back to $orig" [ "$(thp_mode)" = "$orig" ]
check "the journal is gone" [ ! -e /run/thpbench/journal.json ]
$TB restore > "$TMPD/restore2.txt" 2>&1
check "a second restore finds nothing to do" grep -q 'nothing to restore' "$TMPD/restore2.txt"

kill_mid_run
check "second kill left THP at $target" [ "$(thp_mode)" = "$target" ]
$TB run -r 1 --warmup 0 -e task-clock -- true > "$TMPD/next.txt" 2>&1
check "the next run starts fine" [ $? -eq 0 ]
check "the next run recovered the crashed run's settings and said so" grep -qi 'did not end cleanly' "$TMPD/next.txt"
check "THP enabled is back to $orig after the next run" [ "$(thp_mode)" = "$orig" ]
finish
