#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Kernel line coverage on the host, with a fake gcov tree (no gcov kernel
# needed; make gcov-e2e has the real one): run --kernel-gcov keeps, per
# measured repetition, the .gcda files the repetition changed and not the
# others, none for a warm-up, and refuses a tree with no reset file; then
# thpbench kernel-coverage merges per-repetition tracefiles into the
# per-file table, JSON and patch coverage, and refuses a malformed one
# naming its line.
. tests/integration/lib.sh
command -v jq > /dev/null || { echo "skip: jq not installed"; exit 77; }
TMPD=$(mktemp -d)
trap 'rm -rf "$TMPD"' EXIT
G=$TMPD/gcov
mkdir -p "$G/w/obj/mm"
: > "$G/reset"
printf 'zero-a' > "$G/w/obj/mm/a.gcda"
printf 'zero-b' > "$G/w/obj/mm/b.gcda"

# The "workload" moves a.gcda's counters (appends), never b's.
$TB run --kernel-gcov="$G" -o "$TMPD/r" -r 2 --warmup 1 --progress none \
	-- /bin/sh -c "printf x >> '$G/w/obj/mm/a.gcda'" > "$TMPD/run.out" 2>&1
rc=$?
check "run --kernel-gcov exits 0 ($rc)" [ "$rc" = 0 ]
seqs=$(jq -r '.cases[0].runs[].seq' "$TMPD/r/results.json" | sort -n | tr '\n' ' ')
check "two measured repetitions ($seqs)" [ "$(echo $seqs | wc -w)" = 2 ]
for s in $seqs; do
	check "repetition $s: a.gcda kept, with what it held after the run" \
		grep -q '^zero-ax' "$TMPD/r/kgcov/$s/w/obj/mm/a.gcda"
	check "repetition $s: b.gcda (unchanged since zeroed) left out" \
		[ ! -e "$TMPD/r/kgcov/$s/w/obj/mm/b.gcda" ]
done
check "the warm-up (seq 0) keeps nothing" [ ! -e "$TMPD/r/kgcov/0" ]
check "the counters were reset" grep -qx 1 "$G/reset"

$TB run --kernel-gcov="$TMPD/none" -o "$TMPD/r2" -r 1 --warmup 0 --progress none \
	-- /bin/true > "$TMPD/none.out" 2>&1
rc=$?
check "no gcov tree: exit 2 ($rc)" [ "$rc" = 2 ]
check "no gcov tree: the message names the reset file and the config" \
	grep -q "none/reset.*CONFIG_GCOV_KERNEL" "$TMPD/none.out"

# Tracefiles for the two repetitions: the first runs lines 10-11 of
# mm/huge_memory.c, the second 11-12; line 13 never runs.
set -- $seqs
I=$TMPD/info
mkdir -p "$I"
printf 'SF:/k/src/mm/huge_memory.c\nFN:10,do_fault\nFNDA:0,do_fault\nDA:10,0\nDA:11,0\nDA:12,0\nDA:13,0\nend_of_record\n' > "$I/base"
printf 'SF:/k/src/mm/huge_memory.c\nFN:10,do_fault\nFNDA:1,do_fault\nDA:10,1\nDA:11,4\nend_of_record\n' > "$I/$1.info"
printf 'SF:/k/src/mm/huge_memory.c\nFNDA:1,do_fault\nDA:11,2\nDA:12,9\nend_of_record\n' > "$I/$2.info"
mkdir -p "$TMPD/series"
printf 'diff --git a/mm/huge_memory.c b/mm/huge_memory.c\n--- a/mm/huge_memory.c\n+++ b/mm/huge_memory.c\n@@ -11,1 +11,3 @@\n ctx\n+added12\n+added13\n' \
	> "$TMPD/series/0001-x.patch"
$TB kernel-coverage --results "$TMPD/r/results.json" --info-dir "$I" --base "$I/base" \
	--strip /k/src --series "$TMPD/series" --json "$TMPD/kc.json" \
	--lcov "$TMPD/all.info" --src-prefix /snap > "$TMPD/kc.out" 2> "$TMPD/kc.err"
rc=$?
check "kernel-coverage exits 0 ($rc: $(cat "$TMPD/kc.err"))" [ "$rc" = 0 ]
check "table: huge_memory.c ran 3 of 4 lines, 1 of 1 functions" \
	grep -Eq '^mm/huge_memory.c +3/4 +75.0% +1/1 ' "$TMPD/kc.out"
check "table: a file the kernel does not build says so" grep -Eq '^mm/swapfile.c +not built' "$TMPD/kc.out"
check "json: 3 lines run, line 13 not run" \
	jqe '.files[] | select(.file == "mm/huge_memory.c") | .lines_run == 3 and .lines_not_run == "13"' "$TMPD/kc.json"
check "json: the one case ran all 3 lines first" \
	jqe '[.files[0].lines_first_run_by[]] == [3]' "$TMPD/kc.json"
check "patch: 1 of 2 changed lines ran, 13 not" \
	jqe '.patch.ran == 1 and .patch.changed_lines == 2 and .patch.hunks[0].not_run == [13]' "$TMPD/kc.json"
check "the merged tracefile names the snapshot's sources" grep -qx 'SF:/snap/mm/huge_memory.c' "$TMPD/all.info"
$TB kernel-coverage --results "$TMPD/r/results.json" --info-dir "$I" --base "$I/base" \
	--strip /k/src --series "$TMPD/series" --format cover > "$TMPD/cover.txt"
check "cover: the sentence" grep -qx 'the suite ran 1 of 2 changed lines; not run: mm/huge_memory.c:13' "$TMPD/cover.txt"

printf 'SF:x.c\nDA:1,lots\nend_of_record\n' > "$I/$2.info"
$TB kernel-coverage --results "$TMPD/r/results.json" --info-dir "$I" > /dev/null 2> "$TMPD/bad.err"
rc=$?
check "a malformed tracefile: exit 2 ($rc), its line named" \
	[ "$rc" = 2 ] && grep -q "$2.info:2: DA:" "$TMPD/bad.err"
finish
