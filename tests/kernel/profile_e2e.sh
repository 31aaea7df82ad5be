#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest profiles, end to end (make profile-e2e; not in check: builds the
# kernels with their symbol table the first time, then boots qemu twice;
# minutes). ./run.sh ab kernel-patches/000-mremap-thp-pmd-move --profile
# (its suite: 15 repetitions): kernels with CONFIG_KALLSYMS (their own cache key), perf in
# the initramfs, each repetition's region profiled in the guest.
# Asserted, never a share's size (the guest and the emulator decide it):
#  - every repetition of both sides has samples (prof.samples > 0) and at
#    least one named kernel function ([k] NAME, not [unknown]);
#  - the cover letter's "where the time went" block names a kernel
#    function, fits 72 columns, and B's side has one of the PTE-by-PTE
#    path's functions (__split_huge_pmd, move_ptes, split_huge_pmd, their
#    callees' names as perf shows them) or A's has move_huge_pmd;
#  - the profile chart (plots/*-profile.png) is drawn.
# Exit 0 pass, 1 fail, 2 when the flow itself failed.
E2E_NAME=profile-e2e
. "$(dirname "$0")/e2e_lib.sh"

out=$REPO_DIR/results/profile-e2e-$(date +%Y%m%d-%H%M%S)
t0=$SECONDS
./run.sh ab kernel-patches/000-mremap-thp-pmd-move --profile --out "$out" ||
	{ echo "profile-e2e: ./run.sh ab --profile failed"; exit 2; }
for k in A B; do
	r=$out/$k.json
	n=$(jq '[.cases[].runs[] | select(.status == "ok") | .metrics["prof.samples"] // 0 | select(. > 0)] | length' "$r")
	all=$(jq '[.cases[].runs[] | select(.status == "ok")] | length' "$r")
	[ "$n" -gt 0 ] && [ "$n" = "$all" ] && ok "$k: all $all repetitions have samples" ||
		fail "$k: $n of $all ok repetitions have samples"
	named=$(jq -r '[.cases[].runs[].metrics | keys[] | select(startswith("prof.self.k:")) | select(. != "prof.self.k:[unknown]")] | unique | length' "$r")
	[ "$named" -gt 0 ] && ok "$k: $named kernel functions named" || fail "$k: no kernel function named (only [unknown]?)"
done
cl=$out/cover-letter.txt
sed -n '/where the time went/,/^$/p' "$cl" > "$out/.where"
[ -s "$out/.where" ] && ok "the cover letter has the block" || fail "no 'where the time went' block in $cl"
grep -q '\[k\] [A-Za-z_]' "$out/.where" || fail "the block names no kernel function"
grep -Eq '\[k\] (__split_huge_pmd|split_huge_pmd|move_ptes|move_huge_pmd|__split_huge_pmd_locked|flush_tlb)' "$out/.where" &&
	ok "the block names the PMD move or the split / PTE-by-PTE path" ||
	fail "the block names neither move_huge_pmd nor the split / move_ptes path: $(tr '\n' ' ' < "$out/.where")"
awk 'length > 72 { exit 1 }' "$cl" || fail "cover-letter.txt has a line over 72 columns"
ls "$out"/plots/*-profile.png > /dev/null 2>&1 && ok "the profile chart is drawn" || fail "no plots/*-profile.png"
rm -f "$out/.where"
e2e_finish "$t0" "$out"
