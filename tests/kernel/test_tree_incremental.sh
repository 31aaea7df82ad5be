#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-kernel.sh --kernel-src GIT --git-ref REF --obj DIR on a stand-in
# tree (lib.sh fake_kernel_tree: make decides what is out of date from
# mtimes, as kbuild does, and says "CC" per object it makes):
# - A from the first commit, B from the next (one file changed) into the
#   same O= directory: B compiles only the changed file's object;
# - back to A: cached, nothing built; the author's tree is never written
#   to (no new file, no change, HEAD where it was);
# - an O= directory holding someone else's build is refused (exit 2);
# - under a `make -s` (MAKEFLAGS=s) kbuild still says what it compiles.
# The same with the real 6.1 tree: tests/kernel/tree-e2e.sh (make ab-tree).
. "$(dirname "$0")/lib.sh"

command -v git >/dev/null || skip "git not installed"
repo=$t_tmp/linux
fake_kernel_tree "$repo"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@l GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@l
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" commit -qm base
git -C "$repo" tag base
sed -i 's/^int mremap;/int mremap = 2;/' "$repo/mm/mremap.c"
git -C "$repo" commit -qam "mm: one line"
head_before=$(git -C "$repo" rev-parse HEAD)
export THPBENCH_BUILD_DIR=$t_tmp/build
# As under `make -s ab-bench`: a calling make's s must not silence kbuild.
export MAKEFLAGS=s
bk() { "$KP/scripts/build-kernel.sh" --kernel-src "$repo" --jobs 1 "$@"; }
compiled() { sed -n 's/^  CC *//p' "$1/build.log" | sort | paste -sd' ' -; }

kA=$(bk --git-ref base O="$t_tmp/obj" 2> "$t_tmp/a.err") || fail "A: $(tail -n 3 "$t_tmp/a.err")"
[ "$(compiled "$kA")" = "init/version.o mm/huge_memory.o mm/memory.o mm/mremap.o" ] ||
	fail "A compiled '$(compiled "$kA")', want every object"
kB=$(bk --git-ref HEAD --obj "$t_tmp/obj" 2> "$t_tmp/b.err") || fail "B: $(tail -n 3 "$t_tmp/b.err")"
[ "$(compiled "$kB")" = "mm/mremap.o" ] || fail "B compiled '$(compiled "$kB")', want only mm/mremap.o"
[ -f "$t_tmp/obj/mm/mremap.o" ] || fail "the objects are not in the O= directory"
[ "$(cat "$kA/kernelrelease")" != "$(cat "$kB/kernelrelease")" ] || fail "A and B: one release"
grep -q 'checking .* out in' "$t_tmp/b.err" && fail "B made a new checkout"
[ "$T_FAILS" -eq 0 ] && ok "B after A in one O=: only the changed object compiled"

kA2=$(bk --git-ref base --obj "$t_tmp/obj" 2> "$t_tmp/a2.err") || fail "A again: $(tail -n 3 "$t_tmp/a2.err")"
[ "$kA2" = "$kA" ] && grep -q cached "$t_tmp/a2.err" || fail "A again was rebuilt"
[ -z "$(git -C "$repo" status --porcelain --ignored)" ] ||
	fail "the author's tree changed: $(git -C "$repo" status --porcelain --ignored | head -n 3)"
[ "$(git -C "$repo" rev-parse HEAD)" = "$head_before" ] || fail "the author's HEAD moved"
[ "$(git -C "$repo" rev-parse --abbrev-ref HEAD)" != HEAD ] || fail "the author's branch was detached"

mkdir -p "$t_tmp/foreign"
: > "$t_tmp/foreign/vmlinux"
rc=0
bk --git-ref HEAD~1 O="$t_tmp/foreign" > /dev/null 2> "$t_tmp/f.err" || rc=$?
[ "$rc" = 2 ] && grep -q "holds a build that build-kernel.sh did not make" "$t_tmp/f.err" ||
	fail "a foreign O= directory: exit $rc ($(tail -n 2 "$t_tmp/f.err"))"
[ -f "$t_tmp/foreign/vmlinux" ] || fail "the foreign O= directory lost a file"
[ "$T_FAILS" -eq 0 ] && ok "A again cached; the author's tree untouched; a foreign O= refused"

# Progress while make runs: plain lines with the count and the time in a
# log (no escape codes), one line redrawn live on a terminal.
git -C "$repo" commit -q --allow-empty -m "empty"
sed -i 's/^int memory;/int memory = 3;/' "$repo/mm/memory.c"
git -C "$repo" commit -qam "mm: another line"
FAKE_BUILD_HANG=4 THPBENCH_PROGRESS_EVERY=1 bk --git-ref HEAD > /dev/null 2> "$t_tmp/p.err" ||
	fail "progress build: $(tail -n 3 "$t_tmp/p.err")"
[ "$(grep -c 'objects compiled\( of about [0-9]*\)\?, [0-9]* s$' "$t_tmp/p.err")" -ge 2 ] ||
	fail "no progress line a second in a log: $(cat "$t_tmp/p.err")"
grep -q $'\e' "$t_tmp/p.err" && fail "escape codes in a log"
grep -q 'built .*: [0-9]* objects compiled in' "$t_tmp/p.err" || fail "no closing line with the count and times"
k=$(bk --git-ref HEAD 2>/dev/null)
[ "$(cut -d' ' -f1 "$k/timings" | paste -sd' ')" = "prepare configure compile" ] ||
	fail "timings of the steps: '$(cat "$k/timings" 2>/dev/null)'"
if command -v script > /dev/null; then
	git -C "$repo" commit -q --allow-empty -m "empty 2"
	sed -i 's/^int memory = 3;/int memory = 4;/' "$repo/mm/memory.c"
	git -C "$repo" commit -qam "mm: a third line"
	FAKE_BUILD_HANG=3 script -qfec "$(printf '%q ' "$KP/scripts/build-kernel.sh" --kernel-src "$repo" --jobs 1 --git-ref HEAD)" \
		/dev/null > "$t_tmp/tty.out" 2>&1 < /dev/null || fail "progress on a terminal: $(tail -n 3 "$t_tmp/tty.out")"
	grep -q $'\r\e\[K.*objects compiled' "$t_tmp/tty.out" || fail "no live progress on a terminal"
fi
[ "$T_FAILS" -eq 0 ] && ok "progress: plain lines in a log, live on a terminal; timings per step"
finish
