#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# series.sh takes untrusted series (issue 22, defect 2): file names are
# never split or globbed (a name with a space works; one with a newline or
# a glob character, or a *.patch symlink, is refused with its name shown
# escaped), an mbox, a directory and a git range are bounded in patches
# and megabytes (the message names the limit and how to raise it), and a
# hostile patch inside any form is refused. Everything in the test's own
# directory; nothing is compiled.
. "$(dirname "$0")/lib.sh"

command -v git >/dev/null || skip "git not installed"
command -v patch >/dev/null || skip "patch(1) not installed"
ser=$KP/scripts/series.sh
export GIT_CONFIG_NOSYSTEM=1 HOME=$t_tmp

# patch N: a mail touching mm/fN.c (a new file), as git format-patch writes.
mail()
{
	printf 'From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n'
	printf 'From: t <t@localhost>\nSubject: [PATCH %s] add f%s\n\n---\n' "$1" "$1"
	printf 'diff --git a/mm/f%s.c b/mm/f%s.c\nnew file mode 100644\n' "$1" "$1"
	printf -- '--- /dev/null\n+++ b/mm/f%s.c\n@@ -0,0 +1 @@\n+%s\n-- \n2.39\n\n' "$1" "$1"
}
run_ser()
{
	rc=0
	"$ser" "$@" > "$t_tmp/out" 2> "$t_tmp/err" || rc=$?
}

# 1. Names: a newline with a glob, run from a directory holding decoys.
d=$t_tmp/nl
mkdir "$d" "$t_tmp/cwd"
mail 1 > "$d/0001-a.patch"
mail 2 > "$d/0002-b.patch"
mail 3 > "$d/x"$'\n''*.patch'
mail 9 > "$t_tmp/cwd/0009-decoy.patch"
(cd "$t_tmp/cwd" && "$ser" -o "$t_tmp/nl-out" "$d") > "$t_tmp/out" 2> "$t_tmp/err" && rc=0 || rc=$?
[ "$rc" = 2 ] && grep -qF "refusing patch file name \$'x\\n*.patch'" "$t_tmp/err" ||
	fail "a name with a newline and '*': exit $rc ($(head -c 300 "$t_tmp/err"))"
[ -e "$t_tmp/nl-out/0009-decoy.patch" ] && fail "the glob pulled in a patch from the working directory"
for n in 'a?.patch' 'b[1].patch' "c"$'\e'"[31m.patch"; do
	rm -rf "$t_tmp/g" "$t_tmp/g-out"
	mkdir "$t_tmp/g"
	mail 1 > "$t_tmp/g/$n"
	run_ser -o "$t_tmp/g-out" "$t_tmp/g"
	[ "$rc" = 2 ] && grep -q 'refusing patch file name' "$t_tmp/err" ||
		fail "name $(printf '%q' "$n"): exit $rc"
	grep -q $'\e' "$t_tmp/err" && fail "an escape code reached the message raw"
done
rm -rf "$t_tmp/g" "$t_tmp/g-out"
mkdir "$t_tmp/g"
mail 1 > "$t_tmp/elsewhere"
ln -s "$t_tmp/elsewhere" "$t_tmp/g/0001-link.patch"
run_ser -o "$t_tmp/g-out" "$t_tmp/g"
[ "$rc" = 2 ] && grep -q 'not a regular file' "$t_tmp/err" || fail "a *.patch symlink: exit $rc"
[ "$T_FAILS" -eq 0 ] && ok "names with a newline, glob or escape characters, and symlinks, are refused"

# 2. A space is quoted through series.sh and build-kernel.sh.
d=$t_tmp/space
mkdir "$d"
mail 1 > "$d/0001-a b.patch"
mail 2 > "$d/0002-c.patch"
run_ser -o "$t_tmp/space-out" "$d"
[ "$rc" = 0 ] && [ "$(cat "$t_tmp/out")" = 2 ] && [ -f "$t_tmp/space-out/0001-a b.patch" ] &&
	grep -q ' 0001-a b.patch$' "$t_tmp/space-out/patch-ids" ||
	fail "'a b.patch': exit $rc, $(cat "$t_tmp/out") patches ($(head -c 300 "$t_tmp/err"))"
src=$t_tmp/linux
mkdir -p "$src/mm"
printf 'mrproper:\n\t@true\n' > "$src/Makefile"
echo x > "$src/mm/mremap.c"
rc=0
THPBENCH_BUILD_DIR=$t_tmp/build "$KP/scripts/build-kernel.sh" --kernel-src "$src" \
	--series "$t_tmp/space-out" > /dev/null 2> "$t_tmp/err" || rc=$?
grep -q 'applying 0001-a b.patch' "$t_tmp/err" && grep -q 'applying 0002-c.patch' "$t_tmp/err" &&
	grep -q 'configuring' "$t_tmp/err" ||
	fail "build-kernel.sh on 'a b.patch': $(grep -v '^build-kernel.sh: applying' "$t_tmp/err" | head -n 3)"
[ "$T_FAILS" -eq 0 ] && ok "a patch named 'a b.patch' goes through series.sh and build-kernel.sh"

# 3. Bounds: mails, megabytes, directory patches, range commits.
for i in 1 2 3 4 5 6; do mail "$i"; done > "$t_tmp/six.mbox"
THPBENCH_SERIES_MAX_PATCHES=5 run_ser -o "$t_tmp/six-out" "$t_tmp/six.mbox"
[ "$rc" = 2 ] && grep -q 'holds 6 patches, more than the limit of 5 (THPBENCH_SERIES_MAX_PATCHES' "$t_tmp/err" ||
	fail "6 mails over a limit of 5: exit $rc ($(cat "$t_tmp/err"))"
[ -n "$(ls -A "$t_tmp/six-out" 2>/dev/null)" ] && fail "6 mails over the limit: patches were written"
THPBENCH_SERIES_MAX_PATCHES=6 run_ser -o "$t_tmp/six-ok" "$t_tmp/six.mbox"
[ "$rc" = 0 ] && [ "$(cat "$t_tmp/out")" = 6 ] || fail "6 mails at a limit of 6: exit $rc ($(cat "$t_tmp/err"))"
{ mail 1; head -c 1500000 /dev/zero | tr '\0' 'x' | fold -w 70; } > "$t_tmp/big.mbox"
THPBENCH_SERIES_MAX_MB=1 run_ser -o "$t_tmp/big-out" "$t_tmp/big.mbox"
[ "$rc" = 2 ] && grep -q 'is 1 MiB, more than the limit of 1 MiB (THPBENCH_SERIES_MAX_MB' "$t_tmp/err" ||
	fail "a 1.5 MB mbox over a 1 MiB limit: exit $rc ($(cat "$t_tmp/err"))"
THPBENCH_SERIES_MAX_PATCHES=1 run_ser -o "$t_tmp/dir-out" "$t_tmp/space-out"
[ "$rc" = 2 ] && grep -q 'holds 2 patches, more than the limit of 1' "$t_tmp/err" ||
	fail "a directory of 2 over a limit of 1: exit $rc ($(cat "$t_tmp/err"))"
repo=$t_tmp/repo
git init -q "$repo"
for i in 1 2 3; do
	echo "$i" > "$repo/f$i"
	git -C "$repo" add "f$i"
	git -C "$repo" -c user.name=t -c user.email=t@l commit -qm "c$i"
done
THPBENCH_SERIES_MAX_PATCHES=1 run_ser -o "$t_tmp/range-out" --tree "$repo" --base HEAD~2 --new HEAD
[ "$rc" = 2 ] && grep -q 'holds 2 patches, more than the limit of 1' "$t_tmp/err" ||
	fail "a range of 2 over a limit of 1: exit $rc ($(cat "$t_tmp/err"))"
[ "$T_FAILS" -eq 0 ] && ok "mbox mails and size, directory patches and range commits are bounded, the limit named"

# 4. A hostile patch in an mbox is refused by series.sh itself.
{ mail 1; sed 's/^new file mode 100644$/new file mode 120000/; s/f2/f2/g' <(mail 2); } > "$t_tmp/link.mbox"
run_ser -o "$t_tmp/link-out" "$t_tmp/link.mbox"
[ "$rc" = 2 ] && grep -q 'refusing the series: 0002-add-f2.patch:.*symlink' "$t_tmp/err" ||
	fail "an mbox with a symlink mode: exit $rc ($(cat "$t_tmp/err"))"
{ mail 1; sed 's#^+++ b/mm/f2.c$#+++ b/../../f2.c#' <(mail 2); } > "$t_tmp/dots.mbox"
run_ser -o "$t_tmp/dots-out" "$t_tmp/dots.mbox"
[ "$rc" = 2 ] && grep -q 'refusing the series: 0002-add-f2.patch:.*".." component' "$t_tmp/err" ||
	fail "an mbox with a ../ path: exit $rc ($(cat "$t_tmp/err"))"
[ "$T_FAILS" -eq 0 ] && ok "series.sh refuses a symlink mode or a ../ path in any form"
finish
