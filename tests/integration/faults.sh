# SPDX-License-Identifier: GPL-2.0-only
# Fault injection on the real machine: SIGKILL / SIGINT / SIGTERM / SIGHUP
# in the middle of a run, two runs at once (also with different state
# directories), a workload that leaves a daemon behind, one that hangs,
# one that changes THP knobs itself, a results file system that fills
# up, a run as nobody. Each scenario checks every THP knob and hugetlb
# pool before and after (all must be back), that no finished repetition
# was lost, and that no workload process is left. Needs root.
. tests/integration/lib.sh
need_root
command -v jq > /dev/null || { echo "skip: jq not installed"; exit 77; }
MNT="$TMPD/full"
trap 'umount "$MNT" 2>/dev/null; echo "$THP_SAVED" > "$THP"; rm -rf "$TMPD"' EXIT
trap 'exit 130' INT TERM HUP
THP_SAVED=$(thp_mode)
MM=/sys/kernel/mm
tried=0
survived=0

knobs() {
	for f in $(find $MM/transparent_hugepage -type f -perm -u+w | sort) \
		 $MM/hugepages/*/nr_hugepages $MM/hugepages/*/nr_overcommit_hugepages; do
		echo "$f $(cat "$f")"
	done
}

# scenario NAME: start one; end: compare the knobs and count it.
scenario() {
	name=$1
	tried=$((tried + 1))
	knobs > "$TMPD/before"
	nfail_at=$nfail
}
end() {
	knobs > "$TMPD/after"
	check "$name: every THP knob and hugetlb pool as before" \
		cmp -s "$TMPD/before" "$TMPD/after"
	check "$name: no workload process left" [ -z "$(pgrep -f "$LEFT")" ]
	pkill -KILL -f "$LEFT" 2>/dev/null
	[ $nfail -eq $nfail_at ] && survived=$((survived + 1))
}

# expect DESC CONDITION: CONDITION (a shell list, evaluated here) holds.
expect() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

# Runs recorded in a results file or log (each line of a log is a run).
recorded() {
	if [ -s "$1/results.json" ]; then
		jq '[.cases[].runs[]] | length' "$1/results.json"
	elif [ -s "$1/results.jsonl" ]; then
		grep -c '"run":' "$1/results.jsonl"
	else
		echo 0
	fi
}

# A repetition: mark that it started, then a sleep (the name pgrep finds).
WL='echo x >> "$M"; sleep 0.31415'
LEFT='sleep (0[.]31415|31[.]4159)'

for sig in KILL INT TERM HUP; do
	scenario "SIG$sig mid-run"
	M="$TMPD/m-$sig"
	export M
	setsid $TB run -r 200 --warmup 0 --thp always,never -e task-clock \
		-o "$TMPD/s-$sig" -- /bin/sh -c "$WL" \
		> "$TMPD/s-$sig.out" 2>&1 &
	pid=$!
	# Mid-run: once two repetitions have started (however long this
	# machine takes to get there; the bound only ends a run that hangs).
	i=0
	while [ "$(wc -l 2>/dev/null < "$M" || echo 0)" -lt 2 ] && [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -$sig $pid
	wait $pid
	rc=$?
	[ "$sig" = KILL ] && $TB restore > "$TMPD/restore-$sig.out" 2>&1
	done_n=$(wc -l < "$M")
	rec=$(recorded "$TMPD/s-$sig")
	expect "SIG$sig: ended ($rc), $rec runs recorded of $done_n started" \
		'[ "$done_n" -ge 2 ] && [ "$rec" -ge $((done_n - 1)) ]'
	check "SIG$sig: no journal left" [ ! -e /run/thpbench/journal.json ]
	end
done

scenario "two runs at once"
M="$TMPD/m-two"
$TB run -r 200 --warmup 0 --thp never -o "$TMPD/two" -- /bin/sh -c "$WL" > /dev/null 2>&1 &
pid=$!
sleep 1
THPBENCH_STATE_DIR="$TMPD/other-state" $TB run -r 1 --thp always -- /bin/true > "$TMPD/two.out" 2>&1
rc=$?
expect "second run, other state dir: refused (exit $rc), naming the first" \
	'[ $rc -eq 2 ] && grep -q "pid $pid" "$TMPD/two.out"'
$TB run -r 1 --thp always -- /bin/true > "$TMPD/two2.out" 2>&1
check "second run, same state dir: refused (exit 2)" [ $? -eq 2 ]
kill -TERM $pid
wait $pid
end

# A child left behind must not hold the run: the repetition ends when the
# workload exits (not a timeout at --timeout 5), and the child is killed
# (end: none left). How long that took is printed, not asserted; so is the
# status, ok or invalid: whether --thp always saw a huge page in the window
# (system-wide vmstat) is up to the other processes on the machine.
for how in '' setsid; do
	scenario "leftover ${how:-background} child"
	t0=$(date +%s)
	$TB run -r 1 --warmup 0 --thp always --timeout 5 -o "$TMPD/lo$how" -- \
		/bin/sh -c "$how sleep 31.4159 & exit 0" > "$TMPD/lo$how.out" 2>&1
	rc=$?
	t1=$(date +%s)
	st=$(jq -r .cases[0].runs[0].status "$TMPD/lo$how/results.json")
	expect "leftover ${how:-background} child: the run ended with the workload ($st, exit $rc, $((t1 - t0)) s), not at the timeout" \
		'[ $rc -ne 2 ] && { [ "$st" = ok ] || [ "$st" = invalid ]; }'
	expect "leftover ${how:-background} child: reported" \
		'[ "$(jq .cases[0].runs[0].leftover_processes "$TMPD/lo$how/results.json")" = 1 ] &&
		grep -q leftover_processes "$TMPD/lo$how.out"'
	end
done

scenario "hanging workload"
$TB run -r 2 --warmup 0 --thp always --timeout 1 -o "$TMPD/hang" -- sleep 31.4159 > /dev/null 2>&1
rc=$?
expect "hanging workload: exit 3 ($rc), both runs timeout" \
	'[ $rc -eq 3 ] && [ "$(jq -c "[.cases[0].runs[].status]" "$TMPD/hang/results.json")" = "[\"timeout\",\"timeout\"]" ]'
end

scenario "workload changes THP knobs"
$TB run -r 2 --warmup 0 --thp always -o "$TMPD/chg" -- /bin/sh -c \
	"echo never > $THP; echo 7 > $MM/transparent_hugepage/khugepaged/max_ptes_none" \
	> "$TMPD/chg.out" 2>&1
expect "knob-changing workload: runs invalid, settings_changed, said" \
	'[ "$(jq -c "[.cases[0].runs[] | [.status, .settings_changed]] | unique" "$TMPD/chg/results.json")" = "[[\"invalid\",true]]" ] &&
	grep -q "changed huge-page settings" "$TMPD/chg.out"'
end

scenario "results file system full"
mkdir -p "$MNT"
mount -t tmpfs -o size=48k tmpfs "$MNT"
$TB run -r 60 --warmup 0 --thp always,never -o "$MNT/r" -- /bin/true > "$TMPD/full.out" 2>&1
rc=$?
n=$(grep -c '"run":' "$MNT/r/results.jsonl" 2>/dev/null)
# How many runs fit in 48 KiB depends on how many metrics this host
# records per run (mTHP sizes, events): at least one, not all 120.
expect "full disk: exit 2 ($rc), $n finished runs kept in results.jsonl, said so" \
	'[ $rc -eq 2 ] && [ "${n:-0}" -ge 1 ] && [ "$n" -lt 120 ] && grep -q "are in $MNT/r/results.jsonl" "$TMPD/full.out"'
check "full disk: the log reads as results" \
	env THPBENCH_GNUPLOT= $TB plot "$MNT/r/results.jsonl" -o "$TMPD/fullplot"
umount "$MNT"
end

if nobody_runs_tb; then
	scenario "as nobody"
	chmod 755 "$TMPD"
	mkdir -m 777 "$TMPD/nobody"
	su nobody -s /bin/sh -c "$TB run -r 2 --warmup 0 --thp always,madvise,never -o $TMPD/nobody/r -- /bin/true" \
		> "$TMPD/nobody.out" 2>&1
	check "as nobody: runs the current mode, exit 0" [ $? -eq 0 ]
	end
fi

echo "faults: $survived of $tried scenarios survived"
finish
