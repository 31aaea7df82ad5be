#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A patch series is untrusted input (issue 22, defect 1). On a tiny fake
# source tree (--kernel-src DIR: nothing is compiled) and a victim file in
# the test's own directory, build-kernel.sh must:
#  - refuse a series that turns a file into a symlink to the victim and
#    then fails (its restore step used to copy saved content through it),
#    and a ../ or an absolute path, before applying anything;
#  - never follow a symlink when it puts the tree back, whatever
#    .tb-dirty says;
#  - not be wedged by a bad .tb-dirty: the next build prepares the tree
#    again and goes on;
#  - put back files a failed series deleted (the tree is pristine after).
. "$(dirname "$0")/lib.sh"

command -v patch >/dev/null || skip "patch(1) not installed"
command -v xz >/dev/null || skip "xz not installed"

src=$t_tmp/linux
mkdir -p "$src/mm/sub"
printf 'mrproper:\n\t@true\n' > "$src/Makefile"
seq 1 20 | sed 's/^/line /' > "$src/mm/mremap.c"
echo 'only file of mm/sub' > "$src/mm/sub/x.c"
victim=$t_tmp/victim
echo precious > "$victim"

# patch FILE SUBJECT: a mail header, then the diff from stdin.
mkpatch()
{
	{ printf 'From: t <t@localhost>\nSubject: [PATCH] %s\n\n---\n' "$2"; cat; } > "$1"
}
build()
{
	THPBENCH_BUILD_DIR=$t_tmp/build "$KP/scripts/build-kernel.sh" \
		--kernel-src "$src" --series "$1" > "$t_tmp/out" 2> "$t_tmp/err"
}
tree_of() { find "$t_tmp/build/src" -mindepth 1 -maxdepth 1 -type d ! -name '*.orig' 2>/dev/null; }
# The tree holds exactly the source's files (a symlink counts as a change).
pristine()
{
	local tree
	tree=$(tree_of)
	[ -n "$tree" ] || return 0
	diff -r --no-dereference -x .tb-ok "$src" "$tree" > "$t_tmp/diff" 2>&1
}
victim_ok() { [ "$(cat "$victim")" = precious ] && [ ! -L "$victim" ]; }

# A patch that does not apply: ends every hostile series.
fail_patch()
{
	mkpatch "$1" 'fails' <<'EOF'
--- a/mm/mremap.c
+++ b/mm/mremap.c
@@ -1,3 +1,3 @@
 no such line
-line 2
+LINE 2
 line 3
EOF
}

# 1. create, save, delete, recreate as a symlink to the victim, fail.
s=$t_tmp/symlink
mkdir "$s"
mkpatch "$s/0001-create.patch" create <<'EOF'
diff --git a/mm/x.c b/mm/x.c
new file mode 100644
--- /dev/null
+++ b/mm/x.c
@@ -0,0 +1 @@
+pwned
EOF
mkpatch "$s/0002-touch.patch" touch <<'EOF'
diff --git a/mm/x.c b/mm/x.c
--- a/mm/x.c
+++ b/mm/x.c
@@ -1 +1,2 @@
 pwned
+more
EOF
mkpatch "$s/0003-delete.patch" delete <<'EOF'
diff --git a/mm/x.c b/mm/x.c
deleted file mode 100644
--- a/mm/x.c
+++ /dev/null
@@ -1,2 +0,0 @@
-pwned
-more
EOF
mkpatch "$s/0004-link.patch" link <<EOF
diff --git a/mm/x.c b/mm/x.c
new file mode 120000
--- /dev/null
+++ b/mm/x.c
@@ -0,0 +1 @@
+$victim
\\ No newline at end of file
EOF
fail_patch "$s/0005-fail.patch"
rc=0
build "$s" || rc=$?
victim_ok || fail "symlink series: the victim outside the tree was overwritten"
[ "$rc" = 2 ] && grep -q 'refusing the series: 0004-link.patch:.*symlink' "$t_tmp/err" ||
	fail "symlink series: exit $rc, want 2 naming 0004-link.patch's symlink mode ($(tail -n 2 "$t_tmp/err"))"
grep -q 'applying' "$t_tmp/err" && fail "symlink series: patches were applied before the refusal"
pristine || fail "symlink series: the tree is not pristine: $(head -n 3 "$t_tmp/diff")"
[ "$T_FAILS" -eq 0 ] && ok "a series that plants a symlink is refused before anything applies"

# 2. ../ and absolute paths, in every header patch(1) reads.
n=0
for hdr in '+++ b/../../victim' '+++ /etc/victim' '--- a/mm/../../victim' \
	'Index: x/../victim' '*** a/../victim' 'rename to ../victim' \
	'diff --git a/mm/x.c b/../x.c'; do
	n=$((n + 1))
	d=$t_tmp/path$n
	mkdir "$d"
	mkpatch "$d/0001-p.patch" path <<EOF
diff --git a/mm/mremap.c b/mm/mremap.c
--- a/mm/mremap.c
+++ b/mm/mremap.c
@@ -1 +1 @@
-line 1
+LINE 1
$hdr
EOF
	rc=0
	build "$d" || rc=$?
	[ "$rc" = 2 ] && grep -q 'refusing the series: 0001-p.patch:11: ' "$t_tmp/err" ||
		fail "'$hdr': exit $rc, not refused at its line ($(tail -n 1 "$t_tmp/err"))"
	grep -q 'applying' "$t_tmp/err" && fail "'$hdr': applied before the refusal"
done
pristine || fail "path series: the tree is not pristine"
victim_ok || fail "path series: the victim changed"
[ "$T_FAILS" -eq 0 ] && ok "../, absolute and renamed-out paths are refused before anything applies"

# A removed line "-- x" inside a hunk is text, not a header: it applies.
printf -- '-- x\n' >> "$src/mm/mremap.c"
d=$t_tmp/dashes
mkdir "$d"
mkpatch "$d/0001-dashes.patch" dashes <<'EOF'
--- a/mm/mremap.c
+++ b/mm/mremap.c
@@ -20,2 +20,2 @@
 line 20
--- x
+++ x/../y
EOF
rm -rf "$t_tmp/build"
build "$d" || true
grep -q 'applying 0001-dashes.patch' "$t_tmp/err" && ! grep -q refusing "$t_tmp/err" ||
	fail "a hunk's '--- x' line was taken for a header: $(tail -n 1 "$t_tmp/err")"
sed -i '$d' "$src/mm/mremap.c"
rm -rf "$t_tmp/build"

# 3. A series that deletes a file (its directory goes too), puts a file
# where the directory was, then fails: everything is put back.
d=$t_tmp/delete
mkdir "$d"
mkpatch "$d/0001-rm.patch" rm <<'EOF'
diff --git a/mm/sub/x.c b/mm/sub/x.c
deleted file mode 100644
--- a/mm/sub/x.c
+++ /dev/null
@@ -1 +0,0 @@
-only file of mm/sub
EOF
mkpatch "$d/0002-file.patch" file <<'EOF'
diff --git a/mm/sub b/mm/sub
new file mode 100644
--- /dev/null
+++ b/mm/sub
@@ -0,0 +1 @@
+a file now
EOF
fail_patch "$d/0003-fail.patch"
rc=0
build "$d" || rc=$?
[ "$rc" = 2 ] && grep -q '0003-fail.patch does not apply' "$t_tmp/err" ||
	fail "delete series: exit $rc ($(tail -n 1 "$t_tmp/err"))"
pristine || fail "delete series: the tree is not pristine after the failure: $(head -n 3 "$t_tmp/diff")"
[ "$T_FAILS" -eq 0 ] && ok "a failed series that deleted and replaced files leaves the tree pristine"

# 4. Restoring never follows a symlink: a tree whose .tb-dirty names a
# file that is now a symlink to the victim (as an older build, or a patch
# that got past, could leave it), with attacker content saved as original.
good=$t_tmp/good
mkdir "$good"
mkpatch "$good/0001-good.patch" good <<'EOF'
--- a/mm/mremap.c
+++ b/mm/mremap.c
@@ -1 +1 @@
-line 1
+LINE 1
EOF
tree=$(tree_of)
orig=$tree.orig
mkdir -p "$orig/mm"
echo pwned > "$orig/mm/x.c"
ln -s "$victim" "$tree/mm/x.c"
printf 'mm/x.c\n' > "$tree/.tb-dirty"
build "$good" || true
victim_ok || fail "restore wrote through a symlink in the tree"
[ -L "$tree/mm/x.c" ] && fail "restore left the symlink in the tree"
grep -q 'applying 0001-good.patch' "$t_tmp/err" || fail "restore: the build did not go on"
[ "$T_FAILS" -eq 0 ] && ok "restoring removes a symlink, never writes through it"

# 5. A bad .tb-dirty does not wedge later builds: entries outside the tree,
# a file under a path that is no longer a directory, a symlinked directory.
mkdir -p "$t_tmp/outside"
echo precious > "$t_tmp/outside/f"
for bad in '../../../victim' "$victim" 'mm/mremap.c/x' 'link/f'; do
	tree=$(tree_of)
	rm -f "$tree.orig/mm/x.c"
	ln -sfn "$t_tmp/outside" "$tree/link"
	printf '%s\n' "$bad" >> "$tree/.tb-dirty"
	for i in 1 2; do
		rc=0
		build "$good" || rc=$?
		cp "$t_tmp/err" "$t_tmp/err$i"
		grep -q "applying 0001-good.patch" "$t_tmp/err" && grep -q configuring "$t_tmp/err" ||
			fail ".tb-dirty '$bad', build $i: exit $rc ($(tail -n 2 "$t_tmp/err"))"
	done
	case $bad in mm/*) ;; *) grep -q 'preparing the source tree again' "$t_tmp/err1" ||
		fail ".tb-dirty '$bad': no warning that the tree is prepared again" ;; esac
	victim_ok && [ "$(cat "$t_tmp/outside/f")" = precious ] ||
		fail ".tb-dirty '$bad': a file outside the tree changed"
done
tree=$(tree_of)
grep -q 'LINE 1' "$tree/mm/mremap.c" || fail "the good series is not applied after the bad .tb-dirty"
[ "$T_FAILS" -eq 0 ] && ok "a bad .tb-dirty: the tree is prepared again, the build goes on"
finish
