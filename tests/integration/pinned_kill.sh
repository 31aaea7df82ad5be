#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The "pinned" memory state (workloads/fragment --all --pin: every free
# 2 MiB block broken up, the kept 4 KiB pages mlocked) with its case knob
# vm/compact_unevictable_allowed=0, killed with the harness: kill -9 of
# the harness while the fragmenter pins memory, then `thpbench restore`:
# - the fragmenter is gone within 2 s (PR_SET_PDEATHSIG) and with it
#   every page it locked (its VmLck was > 0 while it prepared);
# - compact_unevictable_allowed reads what it read before the run, and the
#   state directory keeps no fragmenter record.
. tests/integration/lib.sh
need_root
guard_thp
STATE=${THPBENCH_STATE_DIR:-/run/thpbench}
K=/proc/sys/vm/compact_unevictable_allowed
[ -w $K ] || { echo "skip: no writable $K (CONFIG_COMPACTION off)"; exit 77; }
before=$(cat $K)
want=$((1 - before))
trap 'echo "$THP_SAVED" > "$THP"; [ -n "$frag" ] && [ "$(ps -o comm= -p "$frag")" = fragment ] && kill -9 "$frag"; rm -rf "$TMPD"' EXIT

cat > "$TMPD/pin.conf" <<CONF
[suite]
name = pinned-kill
repetitions = 1
warmup = 0

[case pinned]
workload = /bin/sleep
args = 30
thp = madvise
memory_state = pinned
set = vm/compact_unevictable_allowed=$want
expect_huge = no
CONF
$TB run "$TMPD/pin.conf" -o "$TMPD/out" --wait=20 --progress none \
	> "$TMPD/run.log" 2>&1 &
pid=$!
frag=
i=0
while [ -z "$frag" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 400 ]; do
	sleep 0.05
	frag=$(pgrep -x -P "$pid" fragment)
	i=$((i + 1))
done
if [ -z "$frag" ]; then
	cat "$TMPD/run.log"
	kill -9 "$pid" 2>/dev/null
	echo "skip: no fragmenter started within 20 s (another run holding the settings lock?)"
	exit 77
fi
# Some pages locked: the pinning is under way.
i=0 lck=0
while [ $i -lt 100 ]; do
	lck=$(sed -n 's/^VmLck:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$frag/status" 2>/dev/null)
	[ "${lck:-0}" -gt 0 ] && break
	sleep 0.05
	i=$((i + 1))
done
check "the fragmenter locks its kept pages (VmLck ${lck:-?} kB)" [ "${lck:-0}" -gt 0 ]
check "the case's compact_unevictable_allowed=$want is applied" [ "$(cat $K)" = "$want" ]
kill -9 "$pid"
wait "$pid" 2>/dev/null

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
check "no fragmenter 2 s after kill -9 (its locked pages with it)" gone "$frag" 2
$TB restore > "$TMPD/restore.log" 2>&1
check "thpbench restore exits 0" [ $? -eq 0 ]
check "compact_unevictable_allowed is back to $before" [ "$(cat $K)" = "$before" ]
check "no fragmenter record left" [ ! -e "$STATE/helper" ]
finish
