#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernel cache key of build-kernel.sh, on a stand-in tree (lib.sh
# fake_kernel_tree: nothing compiled, make decides what is out of date):
# - same sources + same patches + same configuration = one kernel, whatever
#   the series is called (--name) or its files are named: the second build
#   is "cached", in the same directory, with the same release;
# - the release (uname -r) comes from the content, so A and B differ;
# - a whitespace change in a patch is another kernel;
# - --git-ref: two commits with the same tree (a reworded commit) are one
#   kernel.
. "$(dirname "$0")/lib.sh"

command -v patch >/dev/null || skip "patch(1) not installed"
command -v git >/dev/null || skip "git not installed"
src=$t_tmp/linux
fake_kernel_tree "$src"
export THPBENCH_BUILD_DIR=$t_tmp/build
bk() { "$KP/scripts/build-kernel.sh" --kernel-src "$src" --jobs 1 "$@"; }

fake_series "$t_tmp/s1"
# The same patch under another file name, as b4 or an mbox names it.
mkdir -p "$t_tmp/s2"
cp "$t_tmp/s1/0001-mm-one-line.patch" "$t_tmp/s2/0001-v2-mm-one-line.patch"

kA=$(bk 2> "$t_tmp/a.err") || fail "kernel A: $(tail -n 3 "$t_tmp/a.err")"
kB=$(bk --series "$t_tmp/s1" --name first-name 2> "$t_tmp/b.err") ||
	fail "kernel B: $(tail -n 3 "$t_tmp/b.err")"
kB2=$(bk --series "$t_tmp/s2" --name other-name 2> "$t_tmp/b2.err") ||
	fail "kernel B again: $(tail -n 3 "$t_tmp/b2.err")"
[ "$kB2" = "$kB" ] || fail "another name or file name built another kernel: $kB2, was $kB"
grep -q 'cached' "$t_tmp/b2.err" || fail "the same patches under another name were rebuilt"
relA=$(cat "$kA/kernelrelease") relB=$(cat "$kB/kernelrelease")
[ -n "$relA" ] && [ "$relA" != "$relB" ] || fail "A and B report one release: '$relA' '$relB'"
case $relA$relB in *name*) fail "the series name is in uname -r: $relA $relB" ;; esac
[ "$T_FAILS" -eq 0 ] && ok "one kernel whatever the name; releases $relA and $relB"

cp -a "$t_tmp/s1" "$t_tmp/ws"
sed -i 's/^+int mremap = 1;/+int mremap =  1;/' "$t_tmp/ws"/*.patch
kW=$(bk --series "$t_tmp/ws" 2> "$t_tmp/w.err") || fail "whitespace series: $(tail -n 3 "$t_tmp/w.err")"
[ "$kW" != "$kB" ] || fail "a whitespace change reused kernel B"

repo=$t_tmp/repo
cp -a "$src" "$repo"
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name=t -c user.email=t@l commit -qm one
c1=$(git -C "$repo" rev-parse HEAD)
git -C "$repo" -c user.name=t -c user.email=t@l commit -q --amend -m "one, reworded"
k1=$("$KP/scripts/build-kernel.sh" --kernel-src "$repo" --git-ref "$c1" 2> "$t_tmp/g1.err") ||
	fail "--git-ref: $(tail -n 3 "$t_tmp/g1.err")"
k2=$("$KP/scripts/build-kernel.sh" --kernel-src "$repo" --git-ref HEAD 2> "$t_tmp/g2.err") ||
	fail "--git-ref HEAD: $(tail -n 3 "$t_tmp/g2.err")"
[ "$k1" = "$k2" ] && grep -q cached "$t_tmp/g2.err" || fail "a reworded commit (same tree) built another kernel"
[ "$T_FAILS" -eq 0 ] && ok "whitespace is another kernel; a reworded commit is not"

# --gcov: another key and object directory, the notes and their sources
# kept with the image, mm/Makefile opted in and put back by the next build;
# the kernel without it keeps its key.
kG=$(bk --gcov 2> "$t_tmp/g.err") || fail "gcov kernel: $(tail -n 3 "$t_tmp/g.err")"
[ -n "$kG" ] && [ "$kG" != "$kA" ] || fail "--gcov has kernel A's key ($kG)"
grep -qx 'gcov=mm+series' "$kG/inputs" || fail "--gcov: the key's inputs lack gcov="
[ -f "$kG/gcov/obj/mm/huge_memory.gcno" ] && [ -f "$kG/gcov/src/mm/huge_memory.c" ] ||
	fail "--gcov: no notes or sources in $kG/gcov"
case $(cat "$kG/gcov/objdir") in *-gcov) ;; *) fail "--gcov: objects in $(cat "$kG/gcov/objdir"), not a -gcov directory" ;; esac
grep -q '^GCOV_PROFILE := y' "$(cat "$kG/gcov/srcdir")/mm/Makefile" || fail "--gcov: mm/Makefile not opted in"
kA3=$(bk 2> /dev/null) && [ "$kA3" = "$kA" ] || fail "after --gcov kernel A is $kA3, not $kA"
{ cat "$KP/thpbench.config"; echo "# another key"; } > "$t_tmp/frag-next"
bk --fragment "$t_tmp/frag-next" > /dev/null 2> "$t_tmp/n.err" || fail "the build after --gcov: $(tail -n 2 "$t_tmp/n.err")"
! grep -q GCOV_PROFILE "$(cat "$kG/gcov/srcdir")/mm/Makefile" || fail "the next build left mm/Makefile opted in"
[ "$T_FAILS" -eq 0 ] && ok "--gcov: its own key and objects, notes and sources kept, mm/Makefile put back"
kK=$(bk --kallsyms 2> "$t_tmp/k.err") || fail "kallsyms kernel: $(tail -n 3 "$t_tmp/k.err")"
[ -n "$kK" ] && [ "$kK" != "$kA" ] && [ "$kK" != "$kG" ] || fail "--kallsyms has another kernel's key ($kK)"
grep -qx 'CONFIG_KALLSYMS=y' "$kK/config" || fail "--kallsyms: CONFIG_KALLSYMS=y not in the kernel's config"
! grep -q 'CONFIG_KALLSYMS' "$kA/config" || fail "kernel A has CONFIG_KALLSYMS without --kallsyms"
[ "$T_FAILS" -eq 0 ] && ok "--kallsyms: another key, the symbol table in its config only"

# Another kernel version: an option of the fragment this tree does not
# define is noted and left out; one it defines but a dependency dropped
# stops the build, as does one the suite needs.
printf 'config DEFINED_HERE\n\tbool "x"\n' > "$src/mm/Kconfig"
printf 'CONFIG_ONLY_IN_6_1=y\nCONFIG_DEFINED_HERE=y\nCONFIG_TRANSPARENT_HUGEPAGE=y\n' > "$t_tmp/frag"
rc=0
FAKE_DROP=CONFIG_ONLY_IN_6_1 bk --fragment "$t_tmp/frag" > /dev/null 2> "$t_tmp/v1.err" || rc=$?
[ "$rc" = 0 ] && grep -q 'note: CONFIG_ONLY_IN_6_1 is not defined in this kernel version' "$t_tmp/v1.err" ||
	fail "an option this version lacks: exit $rc ($(tail -n 2 "$t_tmp/v1.err"))"
for drop in CONFIG_DEFINED_HERE CONFIG_TRANSPARENT_HUGEPAGE; do
	echo "# $drop" >> "$t_tmp/frag"	# another key: not the kernel built above
	rc=0
	FAKE_DROP=$drop bk --fragment "$t_tmp/frag" --name "$drop" > /dev/null 2> "$t_tmp/v2.err" || rc=$?
	[ "$rc" = 2 ] && grep -q "lacks what the suite needs: $drop=y" "$t_tmp/v2.err" ||
		fail "$drop dropped: exit $rc ($(tail -n 2 "$t_tmp/v2.err"))"
done
[ "$T_FAILS" -eq 0 ] && ok "an option another version lacks is noted; a dropped one stops the build"
finish
