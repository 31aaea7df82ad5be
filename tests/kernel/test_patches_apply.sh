#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every bundled patch series applies, in order, to Debian's Linux 6.1
# source: the files each patch touches are extracted from
# /usr/src/linux-source-6.1.tar.xz (no kernel build) and every patch must
# pass `patch -p1 --dry-run` before it is applied for the next one. Also
# checks the git-am headers (From, Subject, Signed-off-by) are there.
. "$(dirname "$0")/lib.sh"

tarball=${THPBENCH_KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$tarball" ] || skip "$tarball missing (kernel-patches/scripts/install-deps.sh --light installs linux-source-6.1)"
command -v patch >/dev/null || skip "patch(1) not installed"

series_dirs=$(find "$KP" -mindepth 2 -maxdepth 2 -name '*.patch' -printf '%h\n' | sort -u)
[ -n "$series_dirs" ] || { fail "no *.patch under $KP"; finish; }

# Paths from "--- a/X" / "+++ b/X" lines, minus /dev/null (new files).
touched=$(cat "$KP"/*/*.patch | sed -n 's#^+++ b/##p; s#^--- a/##p' |
	sed 's/[[:space:]].*//' | sort -u)
mkdir "$t_tmp/src"
pats=()
for f in $touched; do pats+=("*/$f"); done
(cd "$t_tmp/src" && tar -xJf "$tarball" --wildcards "${pats[@]}") ||
	{ fail "cannot extract the touched files from $tarball"; finish; }
pristine=$(find "$t_tmp/src" -mindepth 1 -maxdepth 1 -type d)

for dir in $series_dirs; do
	name=$(basename "$dir")
	tree=$t_tmp/tree-$name
	cp -a "$pristine" "$tree"
	for p in $(find "$dir" -maxdepth 1 -name '*.patch' | LC_ALL=C sort); do
		pn=$name/$(basename "$p")
		for h in '^From: ' '^Subject: ' '^Signed-off-by: '; do
			grep -q "$h" "$p" || fail "$pn lacks a '${h#^}' line (git am needs it)"
		done
		if ! out=$(patch -d "$tree" -p1 --dry-run --batch < "$p" 2>&1); then
			fail "$pn does not apply to $(basename "$tarball"):"
			printf '%s\n' "$out" | sed 's/^/    /'
			continue
		fi
		if printf '%s\n' "$out" | grep -q 'offset\|fuzz'; then
			fail "$pn applies only with offset/fuzz: $(printf '%s' "$out" | grep -m1 'offset\|fuzz')"
		fi
		patch -d "$tree" -p1 --batch --quiet < "$p" ||
			fail "$pn: dry-run passed but the real apply failed"
		ok "$pn applies cleanly"
	done
done

# The 000 patch must really remove the huge-PMD move: a patch that
# applied but left move_pgt_entry(HPAGE_PMD...) in place would measure
# nothing.
if grep -q 'move_pgt_entry(HPAGE_PMD' "$t_tmp/tree-000-mremap-thp-pmd-move/mm/mremap.c"; then
	fail "000 leaves the HPAGE_PMD move in mm/mremap.c"
fi
# The 001 series must route clear_huge_page() through clear_pages().
grep -q 'clear_pages(page_address' "$t_tmp/tree-001-clear-huge-page/mm/memory.c" ||
	fail "001 does not call clear_pages() from mm/memory.c"
grep -q '#define clear_pages clear_pages' \
	"$t_tmp/tree-001-clear-huge-page/arch/x86/include/asm/page_64.h" ||
	fail "001 does not define clear_pages for x86-64"
finish
