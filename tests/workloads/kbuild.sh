#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/kbuild through the harness, on a tree of four C files whose
# Makefile speaks kbuild's O=, tinyconfig, prepare and mm/ (the real
# kernel build is configs/apps.conf's, minutes): a `memcg =` and
# `mount = tmpfs` case, two repetitions. Asserts what the program
# guarantees, never a speed:
#  - the run exits 0 and make ran in a memcg of its own per repetition
#    (build-PID-N below the case's thpbench-* memcg: the log names it);
#  - per repetition, results.json has objects = 4 (the four sources were
#    compiled into the tmpfs), build_usec > 0, build_in_tmpfs = 1,
#    cg_peak_kb > 0, thp_counts_from_cgroup and thp_fault_alloc;
#  - after the run no thpbench-* memcg of it is left, nor the journal;
#  - kill -9 of thpbench while make runs (a slow target), then
#    `thpbench restore`: no memcg of that run and no task of the build.
# Root and a memory cgroup (v2 or v1) are needed, else a skip.
. tests/workloads/lib.sh
need_bin workloads/kbuild
need_bin harness/thpbench
[ "$(id -u)" = 0 ] || skip_all "needs root (memcg and tmpfs for the case)"
command -v jq > /dev/null || skip_all "needs jq"
command -v make > /dev/null && command -v cc > /dev/null || skip_all "needs make and cc"
if grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	ROOT=/sys/fs/cgroup
else
	ROOT=$(sed -n 's|^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\) .* - cgroup [^ ]* .*\bmemory\b.*|\1|p' /proc/self/mountinfo | head -1)
fi
[ -n "$ROOT" ] && [ -d "$ROOT" ] || skip_all "no memory cgroup hierarchy (v2 or v1) here"

TB=harness/thpbench
export THPBENCH_STATE_DIR="$tmp/state"
MARK="29.$$"	# the slow target's sleep, to find its tasks by
run_pid=
cleanup() {
	[ -n "$run_pid" ] && kill -9 "$run_pid" 2> /dev/null
	$TB restore > /dev/null 2>&1
}
at_exit cleanup

mkdir -p "$tmp/tree/mm" "$tmp/cache"
for f in a b c d; do
	printf 'int %s_fn(int x) { return x * %d; }\n' "$f" "$(printf %d "'$f")" > "$tmp/tree/mm/$f.c"
done
cat > "$tmp/tree/Makefile" <<'MK'
O ?= .
OBJS := $(patsubst mm/%.c,$(O)/mm/%.o,$(wildcard mm/*.c))
.PHONY: tinyconfig prepare mm/ slow/
tinyconfig:
	echo CONFIG_TEST=y > $(O)/.config
prepare:
	mkdir -p $(O)/include && echo ok > $(O)/include/prepared
$(O)/mm/%.o: mm/%.c
	mkdir -p $(O)/mm && $(CC) -O2 -c -o $@ $<
mm/: $(OBJS)
slow/:
	mkdir -p $(O)/slow && sleep $(SLEEP) && touch $(O)/slow/x.o
MK

suite() {	# $1 target, $2 repetitions
	cat <<CONF
[suite]
name = kbuild-test
repetitions = $2
warmup = 0
timeout = 120

[case kbuild]
workload = kbuild
args = --tree $tmp/tree --cache $tmp/cache --target $1 -j 2
env = SLEEP=$MARK
thp = current
expect_huge = no
mount = tmpfs:size=64M
memcg = max
CONF
}
ours() { ls -d "$ROOT"/thpbench-"$1"-* 2> /dev/null; }

suite mm/ 2 > "$tmp/k.conf"
$TB run "$tmp/k.conf" -o "$tmp/out" --progress none --wait=300 > "$tmp/run.log" 2>&1 &
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
if grep -rqE "^cgroup $ROOT/thpbench-$pid-[0-9]+/build-[0-9]+-[0-9]+ \(v[12]\)" "$tmp/out/logs" 2> /dev/null; then
	pass "make ran in build-PID-N below the case's thpbench-$pid-* memcg"
else
	fail "no log names the build's memcg below $ROOT/thpbench-$pid-*"
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
each "objects = 4: each source compiled" '.objects == 4'
each "build_usec > 0" '.build_usec > 0'
each "build_in_tmpfs = 1" '.build_in_tmpfs == 1'
each "cg_peak_kb > 0 (the build's own memcg)" '.cg_peak_kb > 0'
each "thp_counts_from_cgroup and thp_fault_alloc recorded" \
	'(.thp_counts_from_cgroup | type) == "number" and (.thp_fault_alloc | type) == "number"'
[ -z "$(ours "$pid")" ] && pass "after the run: no thpbench-$pid-* memcg" ||
	fail "after the run: left $(ours "$pid")"
[ ! -e "$THPBENCH_STATE_DIR/resources.json" ] && pass "after the run: no resource journal" ||
	fail "after the run: resources.json left"

# kill -9 while make runs in its memcg, then restore.
suite slow/ 1 > "$tmp/s.conf"
$TB run "$tmp/s.conf" -o "$tmp/out2" --progress none --wait=300 > "$tmp/run2.log" 2>&1 &
run_pid=$!
i=0
while [ $i -lt 150 ] && ! pgrep -f "sleep $MARK" > /dev/null; do
	sleep 0.1
	i=$((i + 1))
done
if pgrep -f "sleep $MARK" > /dev/null && ls -d "$ROOT"/thpbench-$run_pid-*/build-* > /dev/null 2>&1; then
	pass "kill: the slow build runs in its memcg"
else
	fail "kill: the slow build did not start"
	tail -15 "$tmp/run2.log" | sed 's/^/    | /'
fi
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
while [ $i -lt 20 ] && pgrep -f "sleep $MARK" > /dev/null; do
	sleep 0.1
	i=$((i + 1))
done
pgrep -f "sleep $MARK" > /dev/null && fail "kill: the build's tasks are still running" ||
	pass "kill: no task of the build left"
finish
