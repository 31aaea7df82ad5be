#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/shrink_thp: in a throwaway memcg made here (removed on every
# exit path, its tasks moved out first), reclaim in the memcg drains the
# deferred split queue (thp_split_page >= the THPs of ours pagemap shows
# split, the unmapped parts freed), the underused shrinker splits THPs of
# zero pages (thp_underused_split_page >= ours split, their Rss freed) and
# a THP fault over the memcg limit falls back on the charge
# (thp_fault_fallback_charge >= the workload's own bound; with --shmem,
# a memfd's: thp_file_fallback_charge). Without THP:
# exit 3. Not root, or no memcg can be made: the memcg checks skip.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/shrink_thp
need_bin "$bin"
T=/sys/kernel/mm/transparent_hugepage

val() { sed -n "s/^$1 //p" "$tmp/out"; }

# --- the throwaway memcg: v2 where the root delegates memory, else v1
# under this process's own memory cgroup ---
cg="" cg_parent="" cg_v1=0
make_memcg() {
	local rel
	[ "$(id -u)" -eq 0 ] || return 1
	if grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		cg_parent=/sys/fs/cgroup
	else
		rel=$(sed -n 's/^[0-9]*:\([^:]*,\)\{0,1\}memory\(,[^:]*\)\{0,1\}:\(.*\)$/\3/p' \
			/proc/self/cgroup)
		[ -n "$rel" ] && [ -e "/sys/fs/cgroup/memory$rel/memory.usage_in_bytes" ] ||
			return 1
		cg_parent=/sys/fs/cgroup/memory${rel%/}
		cg_v1=1
	fi
	cg=$cg_parent/thpbench-wltest-$$
	at_exit remove_memcg
	mkdir "$cg" 2>/dev/null || { cg=""; return 1; }
	if [ $cg_v1 -eq 1 ]; then
		echo 0 >"$cg/memory.swappiness" 2>/dev/null
	else
		echo 0 >"$cg/memory.swap.max" 2>/dev/null
	fi
	return 0
}

remove_memcg() {
	local pid i
	[ -n "$cg" ] && [ -d "$cg" ] || return 0
	for i in 1 2 3 4 5; do
		for pid in $(cat "$cg/cgroup.procs" 2>/dev/null); do
			echo "$pid" >"$cg_parent/cgroup.procs" 2>/dev/null
		done
		rmdir "$cg" 2>/dev/null && return 0
		sleep 0.2
	done
	echo "WARN: could not remove $cg"
}

set_limit() {
	if [ $cg_v1 -eq 1 ]; then
		echo "$1" >"$cg/memory.limit_in_bytes"
	else
		echo "$1" >"$cg/memory.max"
	fi
}

# in_cg CMD...: CMD as a task of the throwaway memcg.
in_cg() {
	bash -c 'echo $$ >"$1/cgroup.procs" || exit 99; shift; exec "$@"' _ "$cg" "$@"
}

reclaim_opt=""
check_usage "$bin"
check_value_opt "$bin" --part
check_value_opt "$bin" --count count
check_value_opt "$bin" --touch count
expect_rc 2 "--path bogus refused" "$bin" --path bogus &&
	expect_grep "$tmp/err" "'bogus' is not deferred, underused or charge" "bad --path named"
expect_rc 2 "--part 6000 (not 4K steps) refused" "$bin" --part 6000
expect_rc 2 "--touch 512 (no zero page left) refused" "$bin" --touch 512

if ! make_memcg; then
	skip "the memcg checks: not root, or no memory cgroup can be made here"
	finish
fi
[ $cg_v1 -eq 1 ] && reclaim_opt=--force-empty
echo "memcg: $cg (cgroup $([ $cg_v1 -eq 1 ] && echo v1 || echo v2))"

if [ $cg_v1 -eq 1 ]; then
	expect_rc 3 "cgroup v1 without --force-empty: not measurable (exit 3)" \
		in_cg "$bin" --count 4 &&
		expect_grep "$tmp/err" 'not measurable here: not in a cgroup with memory.reclaim' \
			"exit 3 says why"
	# THPBENCH_CGROUP naming another directory: still not its own.
	expect_rc 3 "cgroup v1, THPBENCH_CGROUP not this memcg: exit 3" \
		env THPBENCH_CGROUP="$cg_parent" \
		bash -c 'echo $$ >"$1/cgroup.procs" || exit 99; shift; exec "$@"' _ "$cg" "$bin" --count 4
	# The harness's memcg ('memcg =': THPBENCH_CGROUP is the thpbench-*
	# memcg it is in): force_empty by itself, swappiness 0 there.
	echo 60 >"$cg/memory.swappiness" 2>/dev/null
	THPBENCH_CGROUP=$cg in_cg "$bin" --count 4 >"$tmp/out" 2>"$tmp/err"
	expect_grep "$tmp/out" "^force_empty: auto \\(the harness's memcg $cg\\)" \
		"cgroup v1, in the harness's memcg: force_empty without --force-empty"
	if ! grep -q 'not in a cgroup with memory.reclaim' "$tmp/err"; then
		pass "and it is not refused as not measurable"
	else
		fail "refused in the harness's memcg"; show_output
	fi
	check_swappiness=$(cat "$cg/memory.swappiness" 2>/dev/null)
	[ -z "$check_swappiness" ] || [ "$check_swappiness" = 0 ] &&
		pass "it set memory.swappiness to 0 there" ||
		fail "memory.swappiness is $check_swappiness, wanted 0"
fi
expect_rc 3 "--path charge in a memcg without a limit: exit 3" \
	in_cg "$bin" --path charge &&
	expect_grep "$tmp/err" 'has no memory limit' "exit 3 names the missing limit"

mode=$(thp_enabled)
# run_path NAME ARGS...: 0 when it ran (exit 0) with THP in the same mode.
run_path() {
	local name=$1 rc
	shift
	in_cg "$bin" $reclaim_opt "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$(thp_enabled)" != "$mode" ]; then
		skip "$name (THP 'enabled' changed during the run)"
		return 1
	fi
	if [ "$mode" = never ]; then
		if [ $rc -eq 3 ]; then
			pass "$name with THP never: exit 3"
		else
			fail "$name with THP never: exit $rc, wanted 3"
			show_output
		fi
		return 1
	fi
	if [ $rc -ne 0 ]; then
		fail "$name: exit $rc"
		show_output
		return 1
	fi
	pass "$name: exit 0"
}

# at_least DESC GOT MIN
at_least() {
	if [ -n "$2" ] && [ "$2" -ge "$3" ] 2>/dev/null; then
		pass "$1: $2 >= $3"
	else
		fail "$1: '$2', wanted >= $3"
		show_output
	fi
}

count=32
if run_path "--path deferred" --count $count --part 1M; then
	split=$(val split)
	at_least "deferred: THPs of ours split by the shrinker" "$split" 1
	at_least "deferred: thp_deferred_split_page at the munmap" \
		"$(val thp_deferred_split_page_unmap)" "$(val huge_before)"
	at_least "deferred: thp_split_page over the reclaim" "$(val thp_split_page)" "$split"
	# less what the per-CPU charge caches may hold (64 pages a CPU,
	# MEMCG_CHARGE_BATCH), which usage counts as charged
	at_least "deferred: memcg usage less kernel memory freed (KiB, 1 MiB per split THP)" \
		"$(val memcg_user_freed_kb)" $((${split:-0} * 1024 - 256 * $(nproc --all)))
fi

set_limit $((24 << 20))
if run_path "--path charge, 24 MiB limit" --path charge; then
	expect_grep "$tmp/out" '^last_huge 0$' "charge: the fault over the limit got no THP"
	bound=$(val thp_fault_fallback_charge_min)
	at_least "charge: the workload's own bound" "$bound" 1
	at_least "charge: thp_fault_fallback_charge" "$(val thp_fault_fallback_charge)" "$bound"
	if [ -n "$(val mthp_2048kB_anon_fault_fallback_charge)" ]; then
		at_least "charge: 2048kB anon_fault_fallback_charge" \
			"$(val mthp_2048kB_anon_fault_fallback_charge)" \
			"$(val anon_fault_fallback_charge_min)"
	fi
fi
# In the harness's memcg (THPBENCH_CGROUP) the charge path turns swap off
# for the memcg, so that reclaim cannot swap our memory out to make room.
if [ $cg_v1 -eq 1 ]; then
	echo 60 >"$cg/memory.swappiness"
	THPBENCH_CGROUP=$cg in_cg "$bin" --path charge >"$tmp/out" 2>"$tmp/err"
	[ "$(cat "$cg/memory.swappiness")" = 0 ] &&
		pass "charge in the harness's memcg: memory.swappiness 0" ||
		fail "charge in the harness's memcg: memory.swappiness $(cat "$cg/memory.swappiness")"
fi

# --shmem: the THPs of a memfd (shmem_enabled advise + MADV_HUGEPAGE, set
# under the settings lock and put back on every exit path).
shmem_charge() {
	local S=$T/shmem_enabled old lockfile fd=""
	[ -w $S ] || { skip "charge --shmem: no writable $S"; return; }
	lockfile=$(printf '/run/thpbench/lock-%x-%x' $(stat -c '%d %i' /sys/kernel/mm))
	if [ -e "$lockfile" ] && command -v flock >/dev/null; then
		exec {fd}<"$lockfile"
		flock -w 20 "$fd" ||
			{ skip "charge --shmem: a harness run holds $lockfile"; exec {fd}<&-; return; }
	fi
	old=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $S)
	at_exit "echo $old >$S"
	echo advise >$S
	if run_path "--path charge --shmem, 24 MiB limit" --path charge --shmem; then
		expect_grep "$tmp/out" '^last_huge 0$' "charge --shmem: the fault over the limit got no THP"
		bound=$(val thp_file_fallback_charge_min)
		at_least "charge --shmem: the workload's own bound" "$bound" 1
		at_least "charge --shmem: thp_file_fallback_charge" \
			"$(val thp_file_fallback_charge)" "$bound"
		if [ -n "$(val mthp_2048kB_shmem_fallback_charge)" ]; then
			at_least "charge --shmem: 2048kB shmem_fallback_charge" \
				"$(val mthp_2048kB_shmem_fallback_charge)" \
				"$(val shmem_fallback_charge_min)"
		fi
	fi
	echo "$old" >$S
	[ -n "$fd" ] && exec {fd}<&-
}
shmem_charge

# --chunk 64K: 64 kB mTHPs with the 2048kB size never (both knobs set
# under the settings lock, put back on every exit path), in the memcg as
# the harness's (THPBENCH_CGROUP: it reclaims the memcg first).
mthp_charge() {
	local K=$T/hugepages-64kB/enabled K2=$T/hugepages-2048kB/enabled
	local o1 o2 lockfile fd="" rc
	[ -w $K ] && [ -w $K2 ] || { skip "charge --chunk 64K: no writable $K"; return; }
	lockfile=$(printf '/run/thpbench/lock-%x-%x' $(stat -c '%d %i' /sys/kernel/mm))
	if [ -e "$lockfile" ] && command -v flock >/dev/null; then
		exec {fd}<"$lockfile"
		flock -w 20 "$fd" ||
			{ skip "charge --chunk 64K: a harness run holds $lockfile"; exec {fd}<&-; return; }
	fi
	o1=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $K) o2=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $K2)
	at_exit "echo $o1 >$K; echo $o2 >$K2"
	echo never >$K2
	echo inherit >$K
	THPBENCH_CGROUP=$cg in_cg "$bin" --path charge --chunk 64K >"$tmp/out" 2>"$tmp/err"
	rc=$?
	echo "$o1" >$K
	echo "$o2" >$K2
	[ -n "$fd" ] && exec {fd}<&-
	if [ $rc -eq 3 ]; then
		skip "charge --chunk 64K: $(tail -1 "$tmp/err")"
	elif [ $rc -ne 0 ]; then
		fail "charge --chunk 64K: exit $rc"; show_output
	else
		pass "charge --chunk 64K: exit 0"
		expect_grep "$tmp/out" '^last_huge 0$' "charge 64K: the fault over the limit got no mTHP"
		bound=$(val anon_fault_fallback_charge_min)
		at_least "charge 64K: the workload's own bound" "$bound" 1
		at_least "charge 64K: 64kB anon_fault_fallback_charge" \
			"$(val mthp_64kB_anon_fault_fallback_charge)" "$bound"
	fi
}
set_limit $((24 << 20))
[ -e $T/hugepages-64kB/enabled ] && mthp_charge
if [ $cg_v1 -eq 1 ]; then set_limit -1; else set_limit max; fi
expect_rc 2 "--shmem outside --path charge refused" "$bin" --shmem
expect_rc 2 "--chunk 32K refused (64K..2M)" "$bin" --path charge --chunk 32K
expect_rc 2 "--chunk outside --path charge refused" "$bin" --chunk 64K
# An mTHP charge run with the PMD size on: its THPs would take the chunks.
if [ -e $T/hugepages-64kB/enabled ] &&
	! grep -q '\[never\]' $T/hugepages-2048kB/enabled; then
	expect_rc 3 "--chunk 64K with hugepages-2048kB on: exit 3" \
		in_cg "$bin" --path charge --chunk 64K &&
		expect_grep "$tmp/err" 'hugepages-2048kB/enabled is not never' "exit 3 names the PMD size"
fi
if [ $cg_v1 -eq 1 ]; then set_limit -1; else set_limit max; fi

# --- underused: two global knobs, under the harness's settings lock so
# that no harness run sees them, restored on every exit path ---
lockfile=$(printf '/run/thpbench/lock-%x-%x' $(stat -c '%d %i' /sys/kernel/mm 2>/dev/null))
locked=1
if [ -e "$lockfile" ] && command -v flock >/dev/null; then
	exec {lockfd}<"$lockfile"
	flock -w 20 "$lockfd" || locked=0
fi
if [ $locked -eq 0 ]; then
	skip "underused: a harness run holds the settings lock ($lockfile)"
elif [ -w $T/shrink_underused ] && [ -w $T/khugepaged/max_ptes_none ]; then
	old_su=$(cat $T/shrink_underused) old_none=$(cat $T/khugepaged/max_ptes_none)
	at_exit "echo $old_su >$T/shrink_underused; echo $old_none >$T/khugepaged/max_ptes_none"
	echo 0 >$T/shrink_underused
	expect_rc 3 "underused with shrink_underused 0: exit 3" \
		in_cg "$bin" $reclaim_opt --path underused --count 4 &&
		expect_grep "$tmp/err" 'shrink_underused is 0' "exit 3 names the knob"
	echo 1 >$T/shrink_underused
	echo 511 >$T/khugepaged/max_ptes_none
	expect_rc 3 "underused with max_ptes_none 511: exit 3" \
		in_cg "$bin" $reclaim_opt --path underused --count 4 &&
		expect_grep "$tmp/err" 'max_ptes_none is 511' "exit 3 names max_ptes_none"
	echo 256 >$T/khugepaged/max_ptes_none
	if run_path "--path underused" --path underused --count $count --touch 4; then
		split=$(val split)
		at_least "underused: THPs of ours split by the shrinker" "$split" 1
		at_least "underused: thp_underused_split_page" \
			"$(val thp_underused_split_page)" "$split"
		at_least "underused: Rss freed (KiB, 508 zero pages per split THP)" \
			"$(val region_rss_freed_kb)" $((${split:-0} * 508 * 4))
	fi
	echo "$old_su" >$T/shrink_underused
	echo "$old_none" >$T/khugepaged/max_ptes_none
else
	skip "underused: $T/shrink_underused (6.12+) or max_ptes_none not writable"
fi
[ -n "${lockfd:-}" ] && exec {lockfd}<&-

if build_no_thp; then
	expect_rc 3 "THP disabled for the process: exit 3" \
		in_cg "$tmp/no_thp" "$bin" $reclaim_opt --count 8 &&
		expect_grep "$tmp/err" 'only 0 of 8' "exit 3 says how many were huge"
fi

finish
