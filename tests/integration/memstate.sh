#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Memory state as an input, on the real machine: --memory-state
# compacted,fragmented prepares each repetition (compact_memory; the
# fragmenter breaking up THPs and holding one page of each), records
# buddyinfo before and after it, and leaves nothing behind: the recorded
# free 2 MiB blocks differ between the states (counts, not speed), the
# fragmenter is gone after the run, and a harness killed with SIGKILL
# while the fragmenter holds memory takes it along (PR_SET_PDEATHSIG).
. tests/integration/lib.sh
need_root
guard_thp
[ -w /proc/sys/vm/compact_memory ] || { echo "skip: no /proc/sys/vm/compact_memory"; exit 77; }

# Our fragmenters: children of the given harness pid or ones it left.
fragmenters() { pgrep -x fragment; }
check "no fragmenter before the test" [ -z "$(fragmenters)" ]

out=$TMPD/run
$TB run --memory-state compacted,fragmented --fragment-share 0.5 --thp madvise \
	-r 1 --warmup 0 -o "$out" -- ./workloads/thp_alloc --size 64M --madvise \
	> "$TMPD/run.log" 2>&1
check "run --memory-state compacted,fragmented exits 0" [ $? -eq 0 ]
res=$out/results.json
val() { # CASE METRIC
	jq -r --arg id "thp_alloc/mem=$1/thp=madvise" --arg m "$2" \
		'.cases[] | select(.id == $id) | .runs[0].metrics[$m] // "none"' "$res"
}
cb=$(val compacted buddy.o9.blocks.before)
fb=$(val fragmented buddy.o9.blocks.before)
cu=$(val compacted buddy.o9.unusable.before)
fu=$(val fragmented buddy.o9.unusable.before)
thps=$(val fragmented memstate.thp_chunks)
echo "free 2 MiB blocks before the workload: compacted $cb, fragmented $fb" \
	"(the fragmenter broke up $thps THPs); unusable(9): $cu vs $fu"
check "both runs recorded buddyinfo" [ "$cb" != none ] && [ "$fb" != none ]
check "the fragmenter reported what it broke up" [ "$thps" != none ] &&
	awk -v t="$thps" 'BEGIN { exit !(t > 0) }'
check "fragmented: fewer free 2 MiB blocks, by at least half the THPs broken" \
	awk -v f="$fb" -v c="$cb" -v t="$thps" 'BEGIN { exit !(f < c - t / 2) }'
check "fragmented: more of free memory unusable for order 9" \
	awk -v f="$fu" -v c="$cu" 'BEGIN { exit !(f > c) }'
check "compacted: its preparation is recorded" [ "$(val compacted memstate.prepare_usec)" != none ]
check "the cases carry the dimension" \
	[ "$(jq -r '[.cases[].dims.mem] | join(",")' "$res")" = compacted,fragmented ]
check "no fragmenter left after the run" [ -z "$(fragmenters)" ]

# SIGKILL of the harness while the fragmenter holds memory.
$TB run --memory-state fragmented --fragment-share 0.05 -r 1 --warmup 0 -- sleep 30 \
	> "$TMPD/kill.log" 2>&1 &
pid=$!
i=0
while ! pgrep -x -P "$pid" sleep > /dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
frag=$(pgrep -x -P "$pid" fragment)
check "the fragmenter holds memory while the workload runs" [ -n "$frag" ]
kill -9 "$pid"
wait "$pid" 2>/dev/null
i=0
while [ -n "$frag" ] && kill -0 "$frag" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "the fragmenter died with the harness" sh -c "! ps -o stat= -p '$frag' | grep -qv Z"
$TB restore > "$TMPD/restore.log" 2>&1
check "thpbench restore exits 0" [ $? -eq 0 ]
check "no fragmenter left at all" [ -z "$(fragmenters)" ]
finish
