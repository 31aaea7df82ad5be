#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `thpbench run --wait[=SECONDS]`: two jobs on one box queue for the
# settings lock instead of the second failing. On a fake mm sysfs tree and
# a state directory of the test's own (the real knobs are never touched):
# without --wait the second run exits 2 at once naming the holder's pid
# and command; --wait=0.5 gives up after half a second (exit 2); --wait
# says who it is waiting for and runs once the first is done. The first
# run's workload holds the lock until the test lets it go (removes a
# file), not for some seconds: how long each step takes is the machine's.
. tests/integration/lib.sh
trap 'kill "$first" 2>/dev/null; rm -rf "$TMPD"' EXIT
first=

[ "$(id -u)" = 0 ] || { echo "skip: the settings lock is taken by root only"; exit 77; }
root=$TMPD/mm
put() { mkdir -p "$(dirname "$root/$1")" && printf '%s\n' "$2" > "$root/$1"; }
put transparent_hugepage/enabled 'always [madvise] never'
put transparent_hugepage/defrag 'always defer defer+madvise [madvise] never'
put hugepages/hugepages-2048kB/nr_hugepages 0
put hugepages/hugepages-2048kB/nr_overcommit_hugepages 0
export THPBENCH_SYSFS_ROOT="$root" THPBENCH_STATE_DIR="$TMPD/state"

# hold: a workload that runs while $HOLD exists (the exit trap's rm ends
# it too; a bound only ends one a failed test left).
hold='i=0; while [ -e "$HOLD" ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done'
export HOLD="$TMPD/hold"
touch "$HOLD"
$TB run -r 1 --warmup 0 -- sh -c "$hold" > "$TMPD/o1" 2>&1 &
first=$!
i=0
while [ ! -f "$TMPD/state/journal.json" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "the first run holds the lock (its journal is written)" test -f "$TMPD/state/journal.json"

$TB run -r 1 -- true > "$TMPD/o2" 2>&1
check "no --wait: exit 2 at once" [ $? -eq 2 ]
check "no --wait: names the holder's pid and command, and --wait" \
	grep -q "another thpbench (pid $first: .*thpbench run -r 1 --warmup 0 -- sh -c .*) .*--wait" "$TMPD/o2"

$TB run --wait=0.5 -r 1 -- true > "$TMPD/o3" 2>&1
check "--wait=0.5: exit 2" [ $? -eq 2 ]
# It gives up once 0.5 s have passed; how much later is the machine's.
waited=$(sed -n 's/.*still, after waiting \([0-9.]*\) s.*/\1/p' "$TMPD/o3")
check "--wait=0.5: says it waited ($waited s, at least 0.5) and who holds the lock" \
	sh -c "grep -q 'pid $first: ' '$TMPD/o3' && awk -v w='$waited' 'BEGIN { exit !(w ~ /^[0-9.]+\$/ && w >= 0.5) }'"

$TB run --wait -r 1 -- true > "$TMPD/o4" 2>&1 &
waiter=$!
i=0
while ! grep -q 'waiting for another thpbench' "$TMPD/o4" && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
rm -f "$HOLD"
wait "$waiter"
check "--wait: exit 0 once the first is done" [ $? -eq 0 ]
check "--wait: says whom it waits for" \
	grep -q "waiting for another thpbench (pid $first: " "$TMPD/o4"
check "--wait: says when it got the lock" grep -q 'got the settings lock after' "$TMPD/o4"
wait "$first"
check "the first run ended well" [ $? -eq 0 ]
first=
check "no journal left" test ! -e "$TMPD/state/journal.json"

$TB run --wait=soon -- true > "$TMPD/o5" 2>&1
check "--wait=soon: exit 2 naming the option" \
	sh -c "[ $? -eq 2 ] && grep -q -- '--wait: \"soon\" is not a number of seconds' '$TMPD/o5'"

# The lock file lives while held: every fake tree a test used left one
# in /run/thpbench for good. One a SIGKILLed run left, the next run removes.
lock=/run/thpbench/$(printf 'lock-%x-%x' $(stat -c '%d %i' "$root"))
check "no lock file left for this tree" test ! -e "$lock"
touch "$HOLD"
$TB run -r 1 --warmup 0 -- sh -c "$hold" > "$TMPD/o6" 2>&1 &
first=$!
i=0
while [ ! -f "$TMPD/state/journal.json" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "held, the lock file names the holder" grep -qx "$first" "$lock"
kill -KILL "$first"
wait "$first" 2>/dev/null
first=
rm -f "$HOLD"
check "a SIGKILLed holder leaves its lock file" test -e "$lock"
$TB run -r 1 -- true > "$TMPD/o7" 2>&1
check "the next run goes on (exit 0)" [ $? -eq 0 ]
check "and leaves no lock file" test ! -e "$lock"
finish
