#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel line coverage, end to end and exact (make gcov-e2e; not in check:
# it builds the gcov kernel the first time, then boots qemu; minutes).
#
# ./run.sh coverage tests/kernel/gcov_e2e.conf --series 000: kernel B with
# gcov, one boot, mremap under THP always and never, one repetition each.
# Asserted on each repetition's own tracefile, with counts, never a
# percentage:
#  - the first line of do_huge_pmd_anonymous_page (the THP fault) ran in
#    the always repetition when it faulted a huge page in
#    (vmstat.thp_fault_alloc > 0, which the guest decides), and ran 0 times
#    in the never one (THP off: the fault path is not entered);
#  - the first line of split_huge_pages_write (debugfs split_huge_pages,
#    which nothing writes) ran 0 times in both;
#  - the table names mm/huge_memory.c and mm/mremap.c, coverage.json and
#    html/index.html are written;
#  - patch coverage: the one hunk of 000 in mm/mremap.c is code "after the
#    removed lines" at split_huge_pmd(), run when the always repetition had
#    huge pages, and the cover block is at most 72 columns.
# Exit 0 pass, 1 fail, 2 when the flow itself failed.
E2E_NAME=gcov-e2e
. "$(dirname "$0")/e2e_lib.sh"

out=$REPO_DIR/results/gcov-e2e-$(date +%Y%m%d-%H%M%S)
t0=$SECONDS
./run.sh coverage tests/kernel/gcov_e2e.conf --series kernel-patches/000-mremap-thp-pmd-move \
	--out "$out" || { echo "gcov-e2e: ./run.sh coverage failed"; exit 2; }
res=$out/guest/results.json
seq_of() { jq -r --arg id "$1" '.cases[] | select(.id == $id) | .runs[0].seq' "$res"; }
sa=$(seq_of mremap/thp=always)
sn=$(seq_of mremap/thp=never)
huge=$(jq -r '.cases[] | select(.id == "mremap/thp=always") | .runs[0].metrics["vmstat.thp_fault_alloc"] // 0' "$res")
[ -f "$out/info/$sa.info" ] && [ -f "$out/info/$sn.info" ] ||
	{ echo "gcov-e2e: no tracefile for repetition $sa or $sn"; exit 2; }

# The first executable line of function $2 in mm/huge_memory.c, from the
# merged tracefile (its FN line, then the first DA at or after it).
first_line()
{
	awk -F'[:,]' -v fn="$1" '/^SF:/ { f = ($0 ~ /\/mm\/huge_memory\.c$/) }
		f && $1 == "FN" && $3 == fn { l = $2 }
		f && $1 == "DA" && l && $2 >= l { print $2; exit }' "$out/coverage.info"
}
# The count of line $2 of mm/huge_memory.c in tracefile $1 (0 when absent:
# an object the repetition never entered has no data).
count_in()
{
	awk -F'[:,]' -v line="$2" '/^SF:/ { f = ($0 ~ /\/mm\/huge_memory\.c$/) }
		f && $1 == "DA" && $2 == line { n += $3 } END { print n + 0 }' "$1"
}
fault=$(first_line do_huge_pmd_anonymous_page)
split=$(first_line split_huge_pages_write)
[ -n "$fault" ] && [ -n "$split" ] || { echo "gcov-e2e: no line of do_huge_pmd_anonymous_page / split_huge_pages_write in coverage.info"; exit 2; }
ca=$(count_in "$out/info/$sa.info" "$fault")
cn=$(count_in "$out/info/$sn.info" "$fault")
if [ "$huge" -gt 0 ]; then
	[ "$ca" -gt 0 ] && ok "mm/huge_memory.c:$fault (THP fault) ran $ca times under always" ||
		fail "mm/huge_memory.c:$fault ran $ca times under always, with $huge huge faults"
else
	echo "gcov-e2e: note: the guest gave no huge page under always (thp_fault_alloc 0): the fault line is not asserted"
fi
[ "$cn" = 0 ] && ok "mm/huge_memory.c:$fault ran 0 times under never" ||
	fail "mm/huge_memory.c:$fault ran $cn times under never"
for s in "$sa" "$sn"; do
	c=$(count_in "$out/info/$s.info" "$split")
	[ "$c" = 0 ] || fail "mm/huge_memory.c:$split (split_huge_pages_write) ran $c times in repetition $s"
done
ok "mm/huge_memory.c:$split (split_huge_pages_write) ran 0 times in both"

grep -q '^mm/huge_memory.c ' "$out/coverage.txt" && grep -q '^mm/mremap.c ' "$out/coverage.txt" ||
	fail "the table lacks mm/huge_memory.c or mm/mremap.c"
[ "$(jq -r .schema "$out/coverage.json")" = thpbench-kernel-coverage/1 ] || fail "coverage.json: no schema"
[ -f "$out/html/index.html" ] || fail "no html/index.html"
hunks=$(jq '.patch.hunks | length' "$out/coverage.json")
after=$(jq -r '.patch.hunks[0].after_removal' "$out/coverage.json")
[ "$hunks" = 1 ] && [ "$after" = true ] || fail "patch coverage: $hunks hunks, after_removal $after; want 1, true"
line=$(jq -r '.patch.hunks[0].changed_lines[0]' "$out/coverage.json")
srcf=$(sed -n 's/^SF:\(.*\/mm\/mremap\.c\)$/\1/p' "$out/coverage.info" | head -n 1)
sed -n "${line}p" "$srcf" | grep -q 'split_huge_pmd(' ||
	fail "patch coverage: mm/mremap.c:$line is not the split_huge_pmd() call ($(sed -n "${line}p" "$srcf"))"
grep -rq . "$out/cover-coverage.txt" || fail "no cover-coverage.txt"
awk 'length > 72 { exit 1 }' "$out/cover-coverage.txt" || fail "cover-coverage.txt has a line over 72 columns"
if [ "$huge" -gt 0 ]; then
	grep -q 'the suite ran 1 of 1 changed lines' "$out/cover-coverage.txt" &&
		ok "000: the split the patch makes run (mm/mremap.c:$line) ran" ||
		fail "000: $(tail -n +2 "$out/cover-coverage.txt")"
fi
e2e_finish "$t0" "$out"
