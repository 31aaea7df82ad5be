#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-kernel.sh --git-ref with the real 6.1 tree: kernel A from a git
# tree's first commit, B from one more commit (one line of mm/mremap.c),
# both into one O= directory; B must compile mm/mremap.o and nothing else
# but the objects that embed the release string (uname -r differs), the
# configuration (IKCONFIG) or the linked kernel's layout (the
# decompressor). Slow
# (a full kernel build the first time): `make ab-tree`, not in check.
#
# The git tree (Debian's linux-source-6.1 committed once) and the build
# directory are kept between runs in $TREE_E2E_DIR (default
# build/tree-e2e): a rerun finds A cached and builds only B, after another
# one-line change. Prints the times. Exit 0 pass, 1 fail, 2 setup failed,
# 77 no source archive.
set -uo pipefail

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
KP=$REPO_DIR/kernel-patches
tarball=${THPBENCH_KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$tarball" ] || { echo "tree-e2e: SKIP: $tarball missing"; exit 77; }
dir=${TREE_E2E_DIR:-$REPO_DIR/build/tree-e2e}
repo=$dir/linux
export THPBENCH_BUILD_DIR=$dir/ab
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@localhost GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@localhost GIT_CONFIG_NOSYSTEM=1
fails=0
fail() { echo "tree-e2e: FAIL: $*"; fails=$((fails + 1)); }

if [ ! -f "$dir/linux.ready" ]; then
	echo "tree-e2e: making a git tree of $tarball in $repo (once)"
	rm -rf "$repo"
	mkdir -p "$repo"
	tar -xJf "$tarball" -C "$repo" --strip-components=1 || exit 2
	git -C "$repo" init -q && git -C "$repo" add -f -A &&
		git -C "$repo" commit -q -m "Linux $(basename "$tarball" .tar.xz)" &&
		git -C "$repo" tag -f base > /dev/null || exit 2
	touch "$dir/linux.ready"
fi
head_before=$(git -C "$repo" rev-parse HEAD)

# The next commit, made without touching the work tree: base's mm/mremap.c
# with one line changed (a new one each run, so B is never cached).
stamp=$(date +%s)
idx=$(mktemp)
trap 'rm -f "$idx"' EXIT
blob=$(git -C "$repo" show base:mm/mremap.c |
	sed "0,/^#include/s//\/* tree-e2e $stamp *\/\n#include/" | git -C "$repo" hash-object -w --stdin)
GIT_INDEX_FILE=$idx git -C "$repo" read-tree base
GIT_INDEX_FILE=$idx git -C "$repo" update-index --cacheinfo "100644,$blob,mm/mremap.c"
tree=$(GIT_INDEX_FILE=$idx git -C "$repo" write-tree)
next=$(git -C "$repo" commit-tree "$tree" -p base -m "mm/mremap: one line ($stamp)")

# One fragment for both kernels, even if the checkout changes meanwhile.
frag=$(mktemp)
trap 'rm -f "$idx" "$frag" "$frag.stamp"' EXIT
cp "$KP/thpbench.config" "$frag"
bk() { nice -n 10 "$KP/scripts/build-kernel.sh" --kernel-src "$repo" --jobs "${TREE_E2E_JOBS:-2}" \
	--fragment "$frag" O="$dir/obj" "$@"; }
touch "$frag.stamp"
t0=$(date +%s)
kA=$(bk --git-ref base) || { echo "tree-e2e: kernel A failed"; exit 2; }
t1=$(date +%s)
kB=$(bk --git-ref "$next") || { echo "tree-e2e: kernel B failed"; exit 2; }
t2=$(date +%s)

compiled=$(sed -n 's/^  CC *//p' "$kB/build.log" | sort)
if [ "$kA/ok" -nt "$frag.stamp" ]; then
	builtA="$(grep -c '^  CC ' "$kA/build.log") objects compiled"
else
	builtA=cached
fi
echo "tree-e2e: kernel A $((t1 - t0)) s ($builtA)," \
	"kernel B $((t2 - t1)) s: $(echo "$compiled" | wc -l) objects compiled: $(echo $compiled)"
echo "$compiled" | grep -qx 'mm/mremap.o' || fail "B did not compile mm/mremap.o"
# Anything else B compiled must embed what differs between A and B by
# design: the release string (its kbuild dependencies, .o.cmd, name
# utsrelease.h or compile.h), the configuration (kernel/configs.o
# includes config_data.gz, whose LOCALVERSION differs) or the layout of
# the linked kernel (the decompressor's voffset.h).
for o in $compiled; do
	[ "$o" = mm/mremap.o ] && continue
	cmd=$dir/obj/$(dirname "$o")/.$(basename "$o").cmd
	grep -qE 'generated/(utsrelease|compile)\.h|/voffset\.h|config_data' "$cmd" 2>/dev/null ||
		grep -qs 'config_data\.gz' "$dir"/ab/trees/*/"${o%.o}.c" ||
		fail "B compiled $o, which neither changed nor embeds the release, the config or the layout"
done
[ "$(cat "$kA/kernelrelease")" != "$(cat "$kB/kernelrelease")" ] || fail "A and B report one release"
[ "$(git -C "$repo" rev-parse HEAD)" = "$head_before" ] || fail "the tree's HEAD moved"
[ -z "$(git -C "$repo" status --porcelain)" ] || fail "the tree's work tree changed"
[ "$fails" -eq 0 ] || exit 1
echo "tree-e2e: pass"
