#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Memory state as an input, on the real machine: --memory-state
# compacted,fragmented prepares each repetition (compact_memory; the
# fragmenter breaking up THPs and holding one page of each), records
# buddyinfo before and after the workload, and leaves nothing behind: the
# fragmenter ran with the share asked for and reported what it broke up
# (its own figures agree with each other), the fragmenter is gone after
# the run, and a harness killed with SIGKILL
# while the fragmenter holds memory takes it along (PR_SET_PDEATHSIG).
# A fragmented case stops proactive compaction (vm.compaction_proactiveness
# 0, recorded in its settings) and puts it back after the run, also after
# kill -9 (thpbench restore). How many free 2 MiB blocks each state
# leaves and the THP success rates are the host's: printed, never
# asserted.
. tests/integration/lib.sh
need_root
guard_thp
[ -w /proc/sys/vm/compact_memory ] || { echo "skip: no /proc/sys/vm/compact_memory"; exit 77; }
PRO=/proc/sys/vm/compaction_proactiveness
PRO_SAVED=$(cat "$PRO" 2>/dev/null)
# The harness journals compaction_proactiveness before it changes it:
# its restore puts back what it found. Writing back the value read here
# would be stale when another run held the knob at 0 as this test began.
trap 'echo "$THP_SAVED" > "$THP"; $TB restore > /dev/null 2>&1; rm -rf "$TMPD"' EXIT

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
# A count of blocks, a share, a figure: what each must look like.
is_count() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[0-9]+$/) }'; }
is_share() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[0-9.e+-]+$/ && v >= 0 && v <= 1) }'; }
# recorded CASE: buddyinfo before and after the workload, well formed.
recorded() {
	for when in before after; do
		is_count "$(val "$1" buddy.o9.blocks.$when)" &&
			is_share "$(val "$1" buddy.o9.unusable.$when)" || return 1
	done
}
cb=$(val compacted buddy.o9.blocks.before)
fb=$(val fragmented buddy.o9.blocks.before)
cu=$(val compacted buddy.o9.unusable.before)
fu=$(val fragmented buddy.o9.unusable.before)
thps=$(val fragmented memstate.thp_chunks)
chunks=$(val fragmented memstate.chunks)
# How many free blocks a fragmenter removes is the host's to decide (how
# much memory is initialised yet, what free page reporting hands back,
# what kcompactd does meanwhile): printed, never asserted.
echo "free 2 MiB blocks before the workload (reported, not asserted):" \
	"compacted $cb, fragmented $fb (the fragmenter broke up $thps THPs," \
	"its own count $(val fragmented memstate.free_2m_before) ->" \
	"$(val fragmented memstate.free_2m_after)); unusable(9): $cu vs $fu"
check "compacted: buddyinfo recorded before and after the workload" recorded compacted
check "fragmented: buddyinfo recorded before and after the workload" recorded fragmented
check "the fragmenter reported what it broke up ($thps THPs of $chunks chunks)" \
	awk -v t="$thps" -v c="$chunks" 'BEGIN { exit !(t ~ /^[0-9]+$/ && t > 0 && c >= t) }'
check "  2 MiB per THP broken up (fragmented_kb)" \
	[ "$(val fragmented memstate.fragmented_kb)" = "$((thps * 2048))" ]
check "  one 4 KiB page kept per 2 MiB chunk (kept_kb)" \
	[ "$(val fragmented memstate.kept_kb)" = "$((chunks * 4))" ]
check "  --fragment-share 0.5 reached it: its target is half the free blocks it found" \
	awk -v t="$(val fragmented memstate.free_2m_target)" -v b="$(val fragmented memstate.free_2m_before)" \
	'BEGIN { d = t - b / 2; exit !(b ~ /^[0-9]+$/ && d <= 0.5 && d >= -0.5) }'
check "compacted: no fragmenter ran" [ "$(val compacted memstate.thp_chunks)" = none ]
check "compacted: its preparation is recorded" [ "$(val compacted memstate.prepare_usec)" != none ]
check "the cases carry the dimension" \
	[ "$(jq -r '[.cases[].dims.mem] | join(",")' "$res")" = compacted,fragmented ]
check "no fragmenter left after the run" [ -z "$(fragmenters)" ]
if [ -n "$PRO_SAVED" ]; then
	setting() { # CASE KNOB
		jq -r --arg id "thp_alloc/mem=$1/thp=madvise" --arg k "$2" \
			'.cases[] | select(.id == $id) | .settings[$k] // "none"' "$res"
	}
	check "fragmented: proactive compaction was 0 (applied settings)" \
		[ "$(setting fragmented vm/compaction_proactiveness)" = 0 ]
	check "compacted: proactive compaction left alone" \
		[ "$(setting compacted vm/compaction_proactiveness)" = none ]
	check "compaction_proactiveness back at $PRO_SAVED after the run" \
		[ "$(cat "$PRO")" = "$PRO_SAVED" ]
fi
echo "THP success (reported, not asserted): compacted $(val compacted success_pct)%," \
	"fragmented $(val fragmented success_pct)%"

# SIGKILL of the harness while the fragmenter holds memory.
$TB run --memory-state fragmented --fragment-share 0.05 -r 1 --warmup 0 -- sleep 30 \
	> "$TMPD/kill.log" 2>&1 &
pid=$!
i=0
while ! pgrep -x -P "$pid" sleep > /dev/null && kill -0 "$pid" 2>/dev/null && [ $i -lt 1200 ]; do
	sleep 0.1
	i=$((i + 1))
done
frag=$(pgrep -x -P "$pid" fragment)
check "the fragmenter holds memory while the workload runs" [ -n "$frag" ]
[ -n "$PRO_SAVED" ] &&
	check "compaction_proactiveness is 0 during the fragmented case" [ "$(cat "$PRO")" = 0 ]
kill -9 "$pid"
wait "$pid" 2>/dev/null
i=0
while [ -n "$frag" ] && kill -0 "$frag" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "the fragmenter died with the harness" sh -c "[ -n '$frag' ] && ! ps -o stat= -p '$frag' | grep -qv Z"
$TB restore > "$TMPD/restore.log" 2>&1
check "thpbench restore exits 0" [ $? -eq 0 ]
[ -n "$PRO_SAVED" ] &&
	check "thpbench restore put compaction_proactiveness back to $PRO_SAVED" \
		[ "$(cat "$PRO")" = "$PRO_SAVED" ]
check "no fragmenter left at all" [ -z "$(fragmenters)" ]
finish
