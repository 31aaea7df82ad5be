#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest profiles, end to end (make profile-e2e; not in check: builds the
# kernels with their symbol table the first time, then boots qemu four
# times, two of them under -icount; minutes). ./run.sh ab
# kernel-patches/000-mremap-thp-pmd-move --profile (its suite: 15
# repetitions): the measured boots unprofiled, one profile boot per
# kernel (docs/profiles.md).
# Asserted, never a share's size (the guest and the emulator decide it):
#  - the measured boots have no prof.* metric (profiling never touches
#    what they measure);
#  - every repetition of both profile boots has samples and at least one
#    named kernel function ([k] NAME, not [unknown]); under TCG their
#    timings say icount;
#  - the cover letter's "where the time went" block (from the profile
#    boots, at 100000 Hz) fits 72 columns and names B's split / PTE-by-PTE
#    path (__split_huge_pmd, move_ptes, split_huge_pmd and the names perf
#    gives their parts); B's profile never has move_huge_pmd (B's kernel
#    splits instead of moving); whether A's move_huge_pmd made the block
#    is printed, not asserted (a handful of samples: docs/profiles.md);
#  - the profile chart (plots/*-profile.png) is drawn.
# Exit 0 pass, 1 fail, 2 when the flow itself failed.
E2E_NAME=profile-e2e
. "$(dirname "$0")/e2e_lib.sh"

out=$REPO_DIR/results/profile-e2e-$(date +%Y%m%d-%H%M%S)
t0=$SECONDS
./run.sh ab kernel-patches/000-mremap-thp-pmd-move --profile --out "$out" ||
	{ echo "profile-e2e: ./run.sh ab --profile failed"; exit 2; }
for k in A B; do
	n=$(jq '[.cases[].runs[].metrics | keys[] | select(startswith("prof."))] | length' "$out/$k.json")
	[ "$n" = 0 ] && ok "$k: the measured boots are not profiled" || fail "$k: $n prof.* values in $k.json"
	r=$out/profile-$k/results.json
	n=$(jq '[.cases[].runs[] | select(.status == "ok") | .metrics["prof.samples"] // 0 | select(. > 0)] | length' "$r")
	all=$(jq '[.cases[].runs[] | select(.status == "ok")] | length' "$r")
	[ "$n" -gt 0 ] && [ "$n" = "$all" ] && ok "$k: all $all profiled repetitions have samples" ||
		fail "$k: $n of $all ok profiled repetitions have samples"
	named=$(jq -r '[.cases[].runs[].metrics | keys[] | select(startswith("prof.self.k:")) | select(. != "prof.self.k:[unknown]")] | unique | length' "$r")
	[ "$named" -gt 0 ] && ok "$k: $named kernel functions named" || fail "$k: no kernel function named (only [unknown]?)"
	if grep -q 'accel=tcg' "$out/comparison.txt"; then
		jq -e '.meta.timings | test("icount")' "$r" > /dev/null &&
			ok "$k: the profile boot's timings say icount" || fail "$k: meta.timings of $r does not say icount"
	fi
done
cl=$out/cover-letter.txt
sed -n '/where the time went/,/^$/p' "$cl" > "$out/.where"
[ -s "$out/.where" ] && ok "the cover letter has the block" || fail "no 'where the time went' block in $cl"
grep -q 'at 100000 Hz' "$out/.where" && ok "the block is the profile boots' (100000 Hz)" ||
	fail "the block does not say 100000 Hz: $(head -n 2 "$out/.where" | tr '\n' ' ')"
# One line, wrapping undone: "only in A (...): [k] f 0.3% (...), ..." wraps.
where=$(tr -s ' \n' '  ' < "$out/.where")
onlyA=${where#*only in A (no sample in B):}
[ "$onlyA" = "$where" ] && onlyA=
onlyA=${onlyA%%only in B*}
# B's kernel never moves a huge PMD (the patch splits instead): a code
# fact. Whether A's few move_huge_pmd samples make the block is the
# emulator's (docs/profiles.md): said, not asserted.
jq -e '[.cases[].runs[].metrics | keys[] | select(test("move_huge_pmd"))] | length == 0' \
	"$out/profile-B/results.json" > /dev/null &&
	ok "B: move_huge_pmd never sampled" || fail "B's profile has move_huge_pmd: B should split, not move"
if printf '%s\n' "$where" | grep -Eq '\[k\] move_huge_pmd [0-9.]+ -> '; then
	echo "profile-e2e: note: A's move_huge_pmd is a row of the block"
elif printf '%s\n' "$onlyA" | grep -Eq '\[k\] move_huge_pmd [0-9.]+%'; then
	echo "profile-e2e: note: A's move_huge_pmd is listed 'only in A'"
else
	echo "profile-e2e: note: A's move_huge_pmd is not in the block ($(jq '[.cases[].runs[].metrics["prof.self.k:move_huge_pmd"] // 0 | select(. > 0)] | length' "$out/profile-A/results.json") of A's repetitions sampled it)"
fi
grep -Eq '\[k\] (__split_huge_pmd|split_huge_pmd|move_ptes|__split_huge_pmd_locked|move_page_tables)[a-z_.]* +(absent|[0-9.]+) -> [0-9]' "$out/.where" &&
	ok "the block names B's split / PTE-by-PTE move" ||
	fail "the block names neither __split_huge_pmd nor move_ptes in B: $(tr '\n' ' ' < "$out/.where")"
awk 'length > 72 { exit 1 }' "$cl" || fail "cover-letter.txt has a line over 72 columns"
ls "$out"/plots/*-profile.png > /dev/null 2>&1 && ok "the profile chart is drawn" || fail "no plots/*-profile.png"
rm -f "$out/.where"
e2e_finish "$t0" "$out"
