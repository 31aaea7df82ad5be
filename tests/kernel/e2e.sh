#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# End to end kernel A/B (builds kernels, boots qemu; 10-15 minutes per
# series here with cached kernels, more the first time). Not part of
# `make check`; `make ab-e2e` runs it.
#
#   tests/kernel/e2e.sh [SERIES...]     default: 000 and 001
#   E2E_BOOTS=N (default 1): boots per kernel, passed to ab.sh --boots
#   E2E_KEXEC=1: one guest kexecs from each kernel into the next (--kexec)
#
# For 000 it asserts the expected result, not just a finished run: on
# kernel A (stock 6.1) no mremap splits a PMD, on kernel B (the huge-PMD
# move disabled) every run splits one PMD per 2 MiB moved (256 at 512 MiB),
# B's mremap time is higher, and `thpbench compare` calls both changes
# significant. For other series it checks every case ran on both kernels.
# Exit 0 pass, 1 fail, 2 when the flow itself failed.
set -uo pipefail

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO_DIR" || exit 2
[ $# -gt 0 ] || set -- kernel-patches/000-mremap-thp-pmd-move kernel-patches/001-clear-huge-page
kernel-patches/scripts/install-deps.sh || exit 2

fails=0
fail() { echo "e2e: FAIL: $*"; fails=$((fails + 1)); }

# Per-run values of METRIC over the ok runs of every case in FILE.
vals() { jq -r --arg m "$2" '.cases[].runs[] | select(.status == "ok") | .metrics[$m] // "absent"' "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for s in "$@"; do
	name=$(basename "$s")
	out=$REPO_DIR/results/ab-e2e-$name-$(date +%Y%m%d-%H%M%S)
	extra=()
	[ -z "${E2E_KEXEC:-}" ] || extra=(--kexec)
	kernel-patches/scripts/ab.sh "$s" --out "$out" --boots "${E2E_BOOTS:-1}" "${extra[@]}"
	rc=$?
	[ "$rc" -le 1 ] || { echo "e2e: ab.sh $s failed (exit $rc)"; exit 2; }
	for k in A B; do
		n=$(jq '[.cases[].runs[] | select(.status == "ok")] | length' "$out/$k.json")
		t=$(jq '[.cases[].runs[]] | length' "$out/$k.json")
		[ "$n" -gt 0 ] && [ "$n" = "$t" ] || fail "$name: kernel $k: $n of $t runs ok"
	done
	case $name in 000-*)
		a=$(vals "$out/A.json" vmstat.thp_split_pmd | sort -u | tr '\n' ' ')
		b=$(vals "$out/B.json" vmstat.thp_split_pmd | sort -u | tr '\n' ' ')
		[ "$a" = "0 " ] || fail "000: kernel A thp_split_pmd per run: $a(want 0)"
		# One split per 2 MiB moved: the case's --size decides how many.
		size=$(jq -r '.cases[0].args as $a | $a | index("--size") as $i | $a[$i + 1]' "$out/A.json")
		want=$(( $(numfmt --from=iec "$size") / 2097152 ))
		[ "$b" = "$want " ] || fail "000: kernel B thp_split_pmd per run: $b(want $want for --size $size)"
		ta=$(vals "$out/A.json" roi_usec | median)
		tb=$(vals "$out/B.json" roi_usec | median)
		awk -v a="$ta" -v b="$tb" 'BEGIN { exit !(b > a) }' ||
			fail "000: mremap median A $ta us, B $tb us: B not slower"
		for m in vmstat.thp_split_pmd roi_usec; do
			awk -v m="$m" '$NF == m && / (regression|improvement|changed) / { f = 1 } END { exit !f }' \
				"$out/comparison.txt" ||
				fail "000: comparison.txt does not flag $m as changed"
		done
		# The cover letter: 72 columns, both changes in its table.
		cl=$out/cover-letter.txt
		[ "$(LC_ALL=C.UTF-8 wc -L < "$cl" 2>/dev/null || echo 999)" -le 72 ] ||
			fail "000: cover-letter.txt missing or wider than 72 columns"
		for m in vmstat.thp_split_pmd roi_usec; do
			grep -q "^  $m " "$cl" || fail "000: the cover letter's table lacks $m"
		done
		echo "e2e: 000: thp_split_pmd A $a-> B $b; mremap median A $ta us -> B $tb us"
		;;
	esac
done
[ "$fails" -eq 0 ] || { echo "e2e: $fails failure(s)"; exit 1; }
echo "e2e: pass"
