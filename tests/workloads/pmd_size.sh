#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/lib/pagesize.c: the workloads learn the PMD size and the base
# page at run time (arm64 has 4K/2M, 16K/32M, 64K/512M), not 4K/2M fixed.
# Through mremap's size check, which names the PMD size it uses (a usage
# error: nothing is mapped, no host setting is read but the sysfs file):
#   - this kernel's hpage_pmd_size is the one used;
#   - a fake sysfs root (THPBENCH_WL_SYSFS) saying 32M, 512M: those are
#     used (2M, a multiple of 2M, is then refused, 64M accepted as far
#     as the size check goes);
#   - no file (a kernel without THP), or nonsense in it: the size a page
#     table page maps, page * page / 8, from getconf PAGESIZE.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/mremap
need_bin "$bin"
page=$(getconf PAGESIZE)
[ -n "$page" ] || skip_all "getconf PAGESIZE gives nothing"

# fmt BYTES: as pagesize.c's caller prints it ("2.00 MiB").
fmt() { awk -v b="$1" 'BEGIN { u = "B KiB MiB GiB TiB"; split(u, n, " "); i = 1
	while (b >= 1024 && i < 5) { b /= 1024; i++ } printf "%.2f %s", b, n[i] }'; }

# says_pmd DESC WANT_BYTES [ENV...]: --size 3 x page (a multiple of no
# PMD) is refused, naming WANT_BYTES as the PMD size.
says_pmd() {
	local desc=$1 want
	want=$(fmt "$2")
	shift 2
	expect_rc 2 "$desc: an unaligned --size is refused" \
		env "$@" "$bin" --size $((3 * page)) &&
		expect_grep "$tmp/err" "multiple of the PMD size \\($want here\\)" \
			"$desc: the PMD size used is $want"
}

real=/sys/kernel/mm/transparent_hugepage/hpage_pmd_size
if [ -r "$real" ]; then
	says_pmd "this kernel ($real)" "$(cat "$real")"
else
	skip "no $real (kernel without THP): checked with the fake roots below"
fi

root=$tmp/sys
mkdir -p "$root/kernel/mm/transparent_hugepage"
for pmd in 33554432 536870912; do
	echo "$pmd" > "$root/kernel/mm/transparent_hugepage/hpage_pmd_size"
	says_pmd "fake hpage_pmd_size $pmd" "$pmd" THPBENCH_WL_SYSFS="$root"
done
# 32M PMDs: 2M, a multiple of x86's PMD, is not one of these.
echo 33554432 > "$root/kernel/mm/transparent_hugepage/hpage_pmd_size"
expect_rc 2 "fake 32M PMD: --size 2M is refused" \
	env THPBENCH_WL_SYSFS="$root" "$bin" --size 2M &&
	expect_grep "$tmp/err" 'multiple of the PMD size' "fake 32M PMD: 2M refused by the PMD check"

derived=$((page * page / 8))
rm -f "$root/kernel/mm/transparent_hugepage/hpage_pmd_size"
says_pmd "no hpage_pmd_size (page $page)" "$derived" THPBENCH_WL_SYSFS="$root"
for junk in 3000000 0 abc 1024; do
	echo "$junk" > "$root/kernel/mm/transparent_hugepage/hpage_pmd_size"
	says_pmd "hpage_pmd_size '$junk' (not a power of two >= a page)" "$derived" THPBENCH_WL_SYSFS="$root"
done

finish
