#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/page_fault (fault scalability, will-it-scale page_fault1/2/3):
# each shape and mode counts its ops exactly (the timed loops', not the
# warm-up's) and takes at least one minor
# fault per 4 KiB page where the folios are 4 KiB (THP disabled for the
# process; private file COW is always 4 KiB); anonymous THP faults cover
# the pages they saved (thp_fault_alloc >= (ops - faults) / 511); metric
# fd and ROI protocols, option checking, memory refusal.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/page_fault
need_bin "$bin"
size=16M
loops=2
ops=$((2 * loops * 16 * 256))	# 2 workers x loops x 4 KiB pages of 16M

val() { sed -n "s/^$1 //p" "$tmp/out"; }

# Can shmem (a memfd) get large folios now? Then a shared fault may map
# more than 4 KiB.
shmem_large() {
	local f top=/sys/kernel/mm/transparent_hugepage/shmem_enabled

	[ -r $top ] || return 0
	grep -q "\\[deny\\]" $top && return 1
	grep -q "\\[never\\]" $top || return 0
	# Top-level never: a size is on only when set other than
	# inherit or never.
	for f in ${top%/*}/hugepages-*/shmem_enabled; do
		[ -r "$f" ] || continue
		grep -q "\\[never\\]\\|\\[inherit\\]" "$f" || return 0
	done
	return 1
}

# Only PMD THPs can come from anonymous faults: every mTHP size but 2M
# is "never" (or "inherit" under a top-level "never").
pmd_only() {
	local f
	for f in /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled; do
		[ -r "$f" ] || continue
		case $f in */hugepages-2048kB/*) continue ;; esac
		grep -q '\[never\]' "$f" && continue
		grep -q '\[inherit\]' "$f" && [ "$(thp_enabled)" = never ] && continue
		return 1
	done
	return 0
}

if build_no_thp; then
	for shape in anon shared private; do
		for mode in thread process; do
			d="--shape $shape --mode $mode"
			expect_rc 0 "$d (THP disabled for the process)" \
				"$tmp/no_thp" "$bin" $d --size $size --loops $loops || continue
			got=$(val ops)
			if [ "$got" = "$ops" ]; then
				pass "$d: ops $got (2 workers x $loops loops x 4096 pages)"
			else
				fail "$d: ops '$got', wanted $ops"
			fi
			f=$(val faults)
			want=$ops
			[ $shape = shared ] && shmem_large && want=$((ops / 512))
			if [ "${f:-0}" -ge "$want" ]; then
				pass "$d: $f minor faults >= $want"
			else
				fail "$d: $f minor faults, wanted >= $want"
			fi
		done
	done
else
	skip "4 KiB fault counts (no C compiler to build the prctl helper)"
fi

mode=$(thp_enabled)
if [ "$mode" = never ]; then
	skip "anonymous THP faults: THP is never here"
elif ! pmd_only; then
	skip "anonymous THP faults: an mTHP size is enabled, so saved faults are not all PMD THPs"
else
	fb=$(vmstat_count thp_fault_fallback)
	expect_rc 0 "--madvise anon under THP $mode" "$bin" --madvise --size $size --loops $loops
	f=$(val faults)
	alloc=$(val thp_fault_alloc)
	if [ "$(thp_enabled)" != "$mode" ]; then
		skip "THP faults: THP 'enabled' changed during the run"
	elif [ "${f:-$ops}" -ge "$ops" ] && thp_refused "$fb"; then
		skip "THP faults: no THP could be had now (thp_fault_fallback moved)"
	elif [ "${f:-$ops}" -ge "$ops" ]; then
		fail "--madvise anon: $f faults for $ops pages: no fault covered more than 4 KiB"
	else
		want=$(((ops - f + 510) / 511))
		if [ "${alloc:-0}" -ge "$want" ]; then
			pass "--madvise anon: thp_fault_alloc $alloc >= $want ((ops $ops - faults $f) / 511)"
		else
			fail "--madvise anon: thp_fault_alloc '$alloc', wanted >= $want"
		fi
	fi
fi

check_metric_fd "process run" \
	"roi_usec ops ops_per_sec ops_per_sec_per_worker worker0_ops_per_sec worker2_ops_per_sec faults faults_per_op thp_fault_alloc thp_file_alloc rss_kb" \
	"$bin" --workers 3 --mode process --size 4M --loops 1
check_roi "thread run" "$bin" --size 4M --loops 1

check_usage "$bin"
check_value_opt "$bin" --size
check_value_opt "$bin" --workers count
check_value_opt "$bin" --loops count
expect_rc 2 "malformed --warmup refused" "$bin" --warmup 12x &&
	expect_grep "$tmp/err" "--warmup: '12x' is not a whole number" "malformed --warmup: message names the value"
expect_rc 0 "--warmup 0: no untimed loop" "$bin" --size 4M --loops 1 --warmup 0 &&
	expect_grep "$tmp/out" "^ops 2048\$" "--warmup 0: ops are the timed loops' (2 x 1024 pages)"
expect_rc 2 "--shape bogus refused" "$bin" --shape bogus &&
	expect_grep "$tmp/err" "'bogus' is not anon, shared or private" "bad --shape named"
expect_rc 2 "--mode bogus refused" "$bin" --mode bogus &&
	expect_grep "$tmp/err" "'bogus' is not thread or process" "bad --mode named"
expect_rc 2 "--size 6000 (not 4K steps) refused" "$bin" --size 6000
check_too_big "$bin" --size 4T --workers 4

finish
