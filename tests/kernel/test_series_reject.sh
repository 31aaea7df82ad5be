#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-kernel.sh stops on a patch that does not apply exactly, before any
# build: exit 2, patch's "Hunk #N FAILED" and the rejected hunk on stderr,
# and the tree put back to pristine, so the next kernel starts clean. Uses
# a tiny synthetic source tree (--kernel-src DIR), so nothing is compiled.
. "$(dirname "$0")/lib.sh"

command -v patch >/dev/null || skip "patch(1) not installed"
command -v xz >/dev/null || skip "xz not installed"

src=$t_tmp/linux
mkdir -p "$src/mm" "$t_tmp/series"
printf 'mrproper:\n\t@true\n' > "$src/Makefile"
for i in $(seq 1 20); do echo "line $i"; done > "$src/mm/mremap.c"
cp "$src/mm/mremap.c" "$t_tmp/pristine.c"

# A patch whose context differs from the tree in one line near the edge
# of the hunk: GNU patch's default fuzz would apply it anyway.
cat > "$t_tmp/series/0001-bad.patch" <<'PATCH'
From: test <test@localhost>
Subject: [PATCH] bad context

Signed-off-by: test <test@localhost>
---
--- a/mm/mremap.c
+++ b/mm/mremap.c
@@ -8,7 +8,7 @@
 line 8
 line 9
 line 10
-line 11
+LINE ELEVEN
 line 12
 line 13
 line NOT 14
PATCH

rc=0
THPBENCH_BUILD_DIR=$t_tmp/build "$KP/scripts/build-kernel.sh" \
	--kernel-src "$src" --series "$t_tmp/series" \
	> "$t_tmp/out" 2> "$t_tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "exit $rc, want 2 ($(tail -n 3 "$t_tmp/err"))"
grep -q 'Hunk #1 FAILED' "$t_tmp/err" || fail "no 'Hunk #1 FAILED' in the output"
grep -q -- '--- rejected hunks:' "$t_tmp/err" || fail "the rejected hunk is not shown"
grep -q '^+LINE ELEVEN' "$t_tmp/err" || fail "the shown hunk lacks its + line"
grep -q "0001-bad.patch does not apply" "$t_tmp/err" || fail "no 'does not apply' naming the patch"
[ -s "$t_tmp/out" ] && fail "printed a kernel directory despite failing"
tree=$(find "$t_tmp/build/src" -mindepth 1 -maxdepth 1 -type d ! -name '*.orig')
cmp -s "$tree/mm/mremap.c" "$t_tmp/pristine.c" || fail "the tree was left patched"
[ -e "$tree/.tb-dirty" ] && fail "the tree still lists patched files"
[ "$T_FAILS" -eq 0 ] && ok "a non-applying patch stops the build and shows the hunk"

# The same patch with matching context applies (guards the test itself).
sed -i 's/^ line NOT 14$/ line 14/' "$t_tmp/series/0001-bad.patch"
rc=0
THPBENCH_BUILD_DIR=$t_tmp/build \
	"$KP/scripts/build-kernel.sh" --kernel-src "$src" --series "$t_tmp/series" \
	> "$t_tmp/out2" 2> "$t_tmp/err2" || rc=$?
grep -q 'applying 0001-bad.patch' "$t_tmp/err2" && ! grep -q 'FAILED' "$t_tmp/err2" ||
	fail "the corrected patch did not apply: $(cat "$t_tmp/err2")"
# --git-ref: the tree of that commit, not the working tree. HEAD changes
# line 11, which the (now good) patch's context needs as it was.
repo=$t_tmp/repo
cp -a "$src" "$repo"
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name=t -c user.email=t@l commit -qm base
git -C "$repo" tag base
sed -i 's/^line 11$/line 11 changed/' "$repo/mm/mremap.c"
git -C "$repo" -c user.name=t -c user.email=t@l commit -qam change
rc=0
THPBENCH_BUILD_DIR=$t_tmp/build-git "$KP/scripts/build-kernel.sh" --kernel-src "$repo" \
	--series "$t_tmp/series" > /dev/null 2> "$t_tmp/err4" || rc=$?
grep -q 'Hunk #1 FAILED' "$t_tmp/err4" || fail "the patch applied to HEAD, whose line 11 differs"
rc=0
THPBENCH_BUILD_DIR=$t_tmp/build-git "$KP/scripts/build-kernel.sh" --kernel-src "$repo" \
	--git-ref base --series "$t_tmp/series" > /dev/null 2> "$t_tmp/err5" || rc=$?
grep -q 'applying 0001-bad.patch' "$t_tmp/err5" && ! grep -q 'FAILED' "$t_tmp/err5" ||
	fail "--git-ref base: the patch did not apply to the base tree: $(head -n 5 "$t_tmp/err5")"
[ "$T_FAILS" -eq 0 ] && ok "--git-ref builds from that commit's tree, not the working tree"

# --config: a missing file is refused before anything; what the fragment
# asks for and the result lacks is named (the build refuses on it).
rc=0
THPBENCH_BUILD_DIR=$t_tmp/build "$KP/scripts/build-kernel.sh" --kernel-src "$src" \
	--config "$t_tmp/no-such.config" > /dev/null 2> "$t_tmp/err3" || rc=$?
[ "$rc" = 2 ] && grep -q "config '$t_tmp/no-such.config' not found" "$t_tmp/err3" ||
	fail "--config of a missing file: exit $rc ($(cat "$t_tmp/err3"))"
printf 'CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=y\nCONFIG_D="x"\n' > "$t_tmp/frag"
printf 'CONFIG_A=y\nCONFIG_D="x"\n# CONFIG_C is not set\n' > "$t_tmp/dotconfig"
miss=$(export KP_DIR=$KP; . "$KP/scripts/common.sh"; kp_config_missing "$t_tmp/frag" "$t_tmp/dotconfig")
[ "$miss" = CONFIG_C=y ] || fail "config_missing printed '$miss', want CONFIG_C=y"
finish
