#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/hugetlb_paths (hugetlb beyond clearing): the fault maps the
# whole region from the pool, the child of a fork holds it shared and
# after its writes all private (its own COW copies), mremap moves it
# whole, the pool grows by at least the surplus pages the free pool
# lacked (htlb_buddy_alloc_success) - each from the workload's own
# mapping (smaps, pool counters); 1 GiB pages where the kernel has them,
# exit 3 where not; hugetlb_optimize_vmemmap reported as set. As root the
# test reserves pages and raises nr_overcommit_hugepages itself, and
# flips hugetlb_optimize_vmemmap, restoring each on every exit path.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/hugetlb_paths
need_bin "$bin"
pool=/sys/kernel/mm/hugepages/hugepages-2048kB
gpool=/sys/kernel/mm/hugepages/hugepages-1048576kB
vmemmap=/proc/sys/vm/hugetlb_optimize_vmemmap
count=8
kb=$((count * 2048))

val() { sed -n "s/^$1 //p" "$tmp/out"; }

expect_val() {
	local v
	v=$(val "$1")
	if [ "$v" = "$2" ]; then
		pass "$3: $1 $v"
	else
		fail "$3: $1 '$v', wanted $2"
	fi
}

at_least() {
	local v
	v=$(val "$1")
	if [ "${v:-0}" -ge "$2" ]; then
		pass "$3: $1 $v >= $2"
	else
		fail "$3: $1 '$v', wanted >= $2"
	fi
}

[ -d $pool ] || {
	expect_rc 3 "no 2 MiB hugetlb pool: exit 3" "$bin"
	finish
}
[ "$(id -u)" -eq 0 ] || skip_all "needs root to reserve hugetlb pages for the test"

# reserve FILE N: raise a pool knob by N, restored on exit.
reserve() {
	local old
	old=$(cat "$1") || return 1
	at_exit "echo $old >$1"
	echo $((old + $2)) >"$1" 2>/dev/null
}

if reserve $pool/nr_hugepages $((2 * count)) &&
	[ "$(cat $pool/free_hugepages)" -ge $((2 * count)) ]; then
	expect_rc 0 "--path fault" "$bin" --path fault --count $count &&
		expect_val region_hugetlb_kb $kb "fault: the whole region from the pool (smaps)"
	expect_rc 0 "--path cow" "$bin" --path cow --count $count && {
		expect_val child_shared_kb_before $kb "cow: the child shares the region after fork"
		expect_val child_hugetlb_kb_after $kb "cow: the child maps the whole region after its writes"
		expect_val cow_copied $count "cow: every page of the child at another frame than the parent's (pagemap)"
		expect_grep "$tmp/out" '^cow_fault_p99_usec [0-9.]+$' "cow: fault p99 reported"
	}
	expect_rc 0 "--path mremap" "$bin" --path mremap --count $count &&
		expect_val dst_hugetlb_kb $kb "mremap: the whole region at the destination"
	check_metric_fd "fault run" "pages roi_usec region_hugetlb_kb fault_p50_usec fault_p99_usec hugetlb_kb" \
		"$bin" --count 2
	check_roi "cow run" "$bin" --path cow --count 2
	free=$(cat $pool/free_hugepages)
	expect_rc 1 "--path cow beyond the pool fails" "$bin" --path cow --count "$free" &&
		expect_grep "$tmp/err" "needs $((2 * free)) free in the pool" \
			"pool too small: message says how many pages"
else
	skip "fault, cow, mremap: $((2 * count)) 2 MiB pages could not be reserved"
fi

# pool: more pages than the free pool holds, the rest as surplus.
pool_run() {
	local desc=$1 lacking avail
	avail=$(($(cat $pool/free_hugepages) - $(cat $pool/resv_hugepages)))
	[ $avail -lt 0 ] && avail=0
	expect_rc 0 "$desc" "$bin" --path pool --count $((avail + 4)) || return 1
	lacking=$(val lacking)
	at_least surplus_grown "${lacking:-4}" "$desc: the pool grew by the pages it lacked"
	at_least htlb_buddy_alloc_success "${lacking:-4}" "$desc: from the buddy allocator"
}
if reserve $pool/nr_overcommit_hugepages $((2 * count + 8)); then
	pool_run "--path pool"
	v=$(val hugetlb_optimize_vmemmap)
	if [ -w $vmemmap ] && [ -n "$v" ]; then
		at_exit "echo $v >$vmemmap"
		if echo $((1 - v)) >$vmemmap 2>/dev/null; then
			pool_run "--path pool, hugetlb_optimize_vmemmap $((1 - v))" &&
				expect_val hugetlb_optimize_vmemmap $((1 - v)) "the setting reported"
		else
			skip "$vmemmap cannot be set to $((1 - v))"
		fi
		echo "$v" >$vmemmap
	else
		skip "hugetlb_optimize_vmemmap: no $vmemmap here"
	fi
	expect_rc 1 "--path pool without enough overcommit fails" \
		"$bin" --path pool --count $(($(cat $pool/nr_overcommit_hugepages) + $(cat $pool/free_hugepages) + 1)) &&
		expect_grep "$tmp/err" "nr_overcommit_hugepages >= " \
			"overcommit too small: message names the knob"
else
	skip "pool: nr_overcommit_hugepages could not be raised"
fi

if [ ! -d $gpool ]; then
	expect_rc 3 "--page-size 1G without 1 GiB pages: exit 3" "$bin" --page-size 1G --count 1 &&
		expect_grep "$tmp/err" 'not measurable here: no 1 GiB pages' "exit 3 says why"
else
	expect_rc 3 "--path pool --page-size 1G: exit 3 (gigantic pages are never surplus)" \
		"$bin" --path pool --page-size 1G --count 1
	if reserve $gpool/nr_hugepages 1 && [ "$(cat $gpool/free_hugepages)" -ge 1 ]; then
		expect_rc 0 "--path fault --page-size 1G" "$bin" --page-size 1G --count 1 &&
			expect_val region_hugetlb_kb 1048576 "1G fault: one 1 GiB page"
	else
		skip "1 GiB fault: no 1 GiB page could be reserved now"
	fi
fi

check_usage "$bin"
check_value_opt "$bin" --count count
expect_rc 2 "--path bogus refused" "$bin" --path bogus &&
	expect_grep "$tmp/err" "'bogus' is not fault, cow, mremap or pool" "bad --path named"
expect_rc 2 "--page-size 4M refused" "$bin" --page-size 4M &&
	expect_grep "$tmp/err" "'4M' is not 2M or 1G" "bad --page-size named"
expect_rc 2 "over-large region refused" "$bin" --count 1000000 &&
	expect_grep "$tmp/err" 'needs .*MemTotal' "over-large region: message names size and memory"

finish
