#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `thpbench list` against a fake mm sysfs tree (THPBENCH_SYSFS_ROOT): the
# hugetlb pools with their counts and the mTHP sizes with their setting,
# smallest first; the PMU line: a libpfm4 PMU is not presented as
# usable when cycles cannot be opened; --platform's JSON on a fake host
# (THPBENCH_PLATFORM_ROOT). Runs as any user; changes nothing.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

root=$TMPD/mm
put() { mkdir -p "$(dirname "$root/$1")" && printf '%s\n' "$2" > "$root/$1"; }
put transparent_hugepage/enabled 'always [madvise] never'
put transparent_hugepage/hugepages-2048kB/enabled 'always [inherit] madvise never'
put transparent_hugepage/hugepages-64kB/enabled 'always inherit madvise [never]'
put transparent_hugepage/hugepages-1024kB/enabled '[always] inherit madvise never'
put transparent_hugepage/hugepages-2048kB/shmem_enabled 'always inherit [within_size] advise never'
put transparent_hugepage/hugepages-8kB/shmem_enabled 'always inherit within_size advise [never]'
put hugepages/hugepages-2048kB/nr_hugepages 7
put hugepages/hugepages-2048kB/free_hugepages 5
put hugepages/hugepages-1048576kB/nr_hugepages 1
put hugepages/hugepages-1048576kB/free_hugepages 0

THPBENCH_SYSFS_ROOT=$root $TB list > "$TMPD/out" 2>&1
check "list with a fake root: exit 0" [ $? -eq 0 ]
check "2M pool: nr and free from the fake tree" \
	grep -Eq '^  2048kB \(2 MiB\) +nr_hugepages 7 +free 5$' "$TMPD/out"
check "1G pool: nr and free from the fake tree" \
	grep -Eq '^  1048576kB \(1 GiB\) +nr_hugepages 1 +free 0$' "$TMPD/out"
check "pools smallest first" \
	[ "$(grep -n 'nr_hugepages [0-9]' "$TMPD/out" | head -1 | grep -c 2048kB)" = 1 ]
check "mTHP 64kB: its current setting" grep -Eq '^  64kB \(64 KiB\) +anon never +shmem -$' "$TMPD/out"
check "mTHP 2048kB: its current settings" \
	grep -Eq '^  2048kB \(2 MiB\) +anon inherit +shmem within_size$' "$TMPD/out"
check "mTHP 8kB (shmem only): anon not offered" \
	grep -Eq '^  8kB \(8 KiB\) +anon - +shmem never$' "$TMPD/out"
check "mTHP sizes in size order (8kB, 64kB, 1024kB, 2048kB)" \
	[ "$(sed -n '/^mTHP sizes/,/^hugetlb pools/p' "$TMPD/out" |
		sed -n 's/^  \([0-9]*kB\) .*/\1/p' | tr '\n' ' ')" = "8kB 64kB 1024kB 2048kB " ]
check "the fake root is named, not /sys" grep -q "^hugetlb pools ($root/hugepages)" "$TMPD/out"

mkdir "$TMPD/empty"
THPBENCH_SYSFS_ROOT=$TMPD/empty $TB list > "$TMPD/out2" 2>&1
check "no pools, no mTHP: exit 0" [ $? -eq 0 ]
check "no pools: said" grep -q 'none (no hugetlb in this kernel)' "$TMPD/out2"
check "no mTHP sizes: said" grep -q 'PMD-size THP only' "$TMPD/out2"

# --platform: the facts a claim table is headed by, as JSON, the
# hypervisor named from what the kernel detected (a fake PVM host whose
# cpuid would say "bhyve bhyve").
host=$TMPD/host
mkdir -p "$host/dev" "$host/proc"
printf '6,0,0,-;Hypervisor detected: PVM\n' > "$host/dev/kmsg"
printf 'processor\t: 0\nflags\t\t: fpu hypervisor\n' > "$host/proc/cpuinfo"
THPBENCH_PLATFORM_ROOT=$host $TB list --platform > "$TMPD/plat" 2>&1
check "list --platform: exit 0" [ $? -eq 0 ]
check "  a VM, PVM, from the kernel log" \
	[ "$(jq -r '"\(.virt.vm) \(.virt.hypervisor) \(.virt.from)"' "$TMPD/plat")" = \
	  "true PVM kernel log: Hypervisor detected: PVM" ]
check "  its page tables emulated" [ "$(jq -r .page_tables.mode "$TMPD/plat")" = emulated ]
$TB list --platform --x > /dev/null 2>&1
check "list --platform --x: exit 2" [ $? -eq 2 ]

# The PMU: judged independently by whether the kernel exposes a CPU PMU
# (a VM without one has no /sys/bus/event_source/devices/cpu*).
if ls -d /sys/bus/event_source/devices/cpu* > /dev/null 2>&1; then
	check "PMU present: list says hardware events open" \
		grep -q '^PMU: hardware events open here (cycles ok)' "$TMPD/out"
else
	check "no PMU: a libpfm4 PMU is not presented as usable" \
		grep -Eq '^PMU: (libpfm4 knows .*, but hardware|none:) .*cannot be opened here \(.+\): dTLB/cycles claims are not measurable$' "$TMPD/out"
	check "no PMU: no 'hardware events open' line" \
		sh -c "! grep -q 'hardware events open here' '$TMPD/out'"
fi
finish
