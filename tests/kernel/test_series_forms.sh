#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# series.sh takes a series as a directory, as a `git format-patch
# --cover-letter` mbox and as a git range, and all three give the same
# patches: the same `git patch-id`s, in the same order, and the same cache
# key (so the same kernel B). The bundled series are applied with git am
# to a git tree made of the files they touch (from the 6.1 source archive)
# to get the mbox and the range. A series without patches (003) and a file
# that is no mbox are refused with exit 2 and a message saying why.
. "$(dirname "$0")/lib.sh"

tarball=${THPBENCH_KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$tarball" ] || skip "$tarball missing (kernel-patches/scripts/install-deps.sh --light)"
command -v git >/dev/null || skip "git not installed"
ser=$KP/scripts/series.sh
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@localhost GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@localhost GIT_CONFIG_NOSYSTEM=1 HOME=$t_tmp

# The key build-kernel.sh caches kernel B under.
key_of() { (export KP_DIR=$KP; . "$KP/scripts/common.sh"; kp_series_hash "$1"); }

touched=$(cat "$KP"/*/*.patch | sed -n 's#^+++ b/##p; s#^--- a/##p' |
	sed 's/[[:space:]].*//' | sort -u)
pats=()
for f in $touched; do pats+=("*/$f"); done
mkdir "$t_tmp/src"
(cd "$t_tmp/src" && tar -xJf "$tarball" --wildcards "${pats[@]}") ||
	{ fail "cannot extract the touched files from $tarball"; finish; }
pristine=$(find "$t_tmp/src" -mindepth 1 -maxdepth 1 -type d)

for dir in "$KP"/000-* "$KP"/001-*; do
	name=$(basename "$dir")
	repo=$t_tmp/repo-$name
	cp -a "$pristine" "$repo"
	git -C "$repo" init -q
	git -C "$repo" add -A
	git -C "$repo" commit -q -m base
	git -C "$repo" tag base
	git -C "$repo" am -q "$dir"/*.patch || { fail "$name: git am failed"; continue; }
	git -C "$repo" format-patch -q --cover-letter --stdout base..HEAD > "$t_tmp/$name.mbox"
	grep -q '^Subject: \[PATCH 0/' "$t_tmp/$name.mbox" || fail "$name: mbox has no cover letter"

	n=$("$ser" -o "$t_tmp/$name-dir" "$dir") || { fail "$name: directory form failed"; continue; }
	"$ser" -o "$t_tmp/$name-mbox" "$t_tmp/$name.mbox" > /dev/null ||
		{ fail "$name: mbox form failed"; continue; }
	"$ser" -o "$t_tmp/$name-range" --tree "$repo" --base base --new HEAD > /dev/null ||
		{ fail "$name: range form failed"; continue; }
	want=$(cut -d' ' -f1 "$t_tmp/$name-dir/patch-ids")
	[ "$(echo "$want" | wc -l)" = "$n" ] && [ "$n" -ge 1 ] || fail "$name: $n patches, ids '$want'"
	for form in mbox range; do
		got=$(cut -d' ' -f1 "$t_tmp/$name-$form/patch-ids")
		[ "$got" = "$want" ] || fail "$name: $form patch-ids '$got', directory '$want'"
		[ "$(key_of "$t_tmp/$name-$form")" = "$(key_of "$t_tmp/$name-dir")" ] ||
			fail "$name: $form gives another kernel B key than the directory"
	done
	[ "$T_FAILS" -eq 0 ] && ok "$name: directory, mbox (cover letter dropped) and range: same $n patch-id(s)"
done

# A whitespace-only change keeps the patch-id but must change the kernel key.
d=$t_tmp/000-mremap-thp-pmd-move-dir
cp -a "$d" "$t_tmp/ws"
sed -i '0,/^+\t/s/^+\t/+        /' "$t_tmp/ws"/0*.patch
[ "$(key_of "$t_tmp/ws")" != "$(key_of "$d")" ] || fail "a whitespace change kept the kernel key"

# A v2 that only changes its notes (bullets in the message, a "Changes in
# v2" block after ---, another diffstat) is the same kernel.
cp -a "$d" "$t_tmp/v2"
p=$(ls "$t_tmp/v2"/0*.patch)
awk '/^Signed-off-by:/ && !s { print "- moved the split into its own helper"; s = 1 }
     { print }
     /^---$/ && !c { print "Changes in v2:"; print "- reworded the message"; print "+ kept the test"; print ""; c = 1 }' \
	"$d/$(basename "$p")" > "$p"
sed -i 's/^\( [^ ].* | *[0-9]* \)/\1+/' "$p"
grep -q '^- reworded the message' "$p" || fail "the test's v2 lacks its changelog"
[ "$(key_of "$t_tmp/v2")" = "$(key_of "$d")" ] || fail "a changelog-only v2 changed the kernel key"
[ "$T_FAILS" -eq 0 ] && ok "a changelog-only v2 is the same kernel B; a whitespace change is another"

# A relative -o is relative to where series.sh runs, never to the tree:
# the author's tree gets nothing written into it.
repo0=$t_tmp/repo-000-mremap-thp-pmd-move
mkdir "$t_tmp/cwd"
(cd "$t_tmp/cwd" && "$ser" -o rel-out --tree "$repo0" --base base --new HEAD > /dev/null) ||
	fail "--tree with a relative -o failed"
[ -s "$t_tmp/cwd/rel-out/patch-ids" ] || fail "--tree -o rel-out: nothing in ./rel-out"
[ -e "$repo0/rel-out" ] && fail "--tree -o rel-out wrote into the author's tree ($repo0/rel-out)"
[ -z "$(git -C "$repo0" status --porcelain)" ] || fail "the author's tree changed: $(git -C "$repo0" status --porcelain)"
[ "$T_FAILS" -eq 0 ] && ok "--tree with a relative -o writes where series.sh runs, never into the tree"

rc=0
"$ser" -o "$t_tmp/003" "$KP/003-split-thp" > /dev/null 2> "$t_tmp/003.err" || rc=$?
[ "$rc" = 2 ] && grep -q 'no patches in .*003-split-thp: see its README' "$t_tmp/003.err" ||
	fail "003: exit $rc, message '$(cat "$t_tmp/003.err")'"
printf 'not a mail\n' > "$t_tmp/garbage"
rc=0
"$ser" -o "$t_tmp/garbage-out" "$t_tmp/garbage" > /dev/null 2> "$t_tmp/g.err" || rc=$?
[ "$rc" = 2 ] && grep -q 'holds no patch\|not an mbox' "$t_tmp/g.err" ||
	fail "garbage: exit $rc, message '$(cat "$t_tmp/g.err")'"
rc=0
"$ser" -o "$t_tmp/r2" --tree "$t_tmp/repo-000-mremap-thp-pmd-move" --base HEAD --new base \
	> /dev/null 2> "$t_tmp/r.err" || rc=$?
[ "$rc" = 2 ] && grep -q 'not an ancestor' "$t_tmp/r.err" || fail "reversed range: exit $rc ($(cat "$t_tmp/r.err"))"
[ "$T_FAILS" -eq 0 ] && ok "003, a non-mbox and a reversed range are refused"
finish
