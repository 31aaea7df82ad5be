#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build one kernel (x86-64, or arm64 cross-compiled) for the A/B flow and cache it.
#
#   build-kernel.sh [--kernel-src TARBALL|DIR [--git-ref REF]] [--series DIR]
#                   [--obj DIR | O=DIR] [--name NAME]
#                   [--config tinyconfig|defconfig|FILE]
#                   [--fragment FRAG] [--jobs N] [--arch x86_64|arm64]
#                   [--system-map] [--gcov] [--kallsyms]
#
# --arch arm64 cross-compiles (aarch64-linux-gnu-gcc) for qemu's virt
# machine: kernel-patches/thpbench-arm64.config is merged over FRAG (its
# symbols replace FRAG's lines), the image is arch/arm64/boot/Image, kept
# as bzImage in the cache like an x86 one, and the key holds the arch.
#
# Without --series this is kernel A (the tree as it is); with it, kernel B
# (the tree plus every DIR/*.patch, in name order; NAME, default DIR's
# name, only labels the log). --git-ref REF builds commit REF of a git
# DIR (not its working tree), in a checkout kept per repository
# (build/ab/trees/<repo>, a `git clone --shared`; DIR is never written
# to), so one commit after another recompiles only what differs between
# them. --obj DIR (O=DIR) puts the objects there (empty, or made by an
# earlier call; kept), else build/ab/obj/<tree>. The configuration is
# tinyconfig (default), defconfig or FILE, with FRAG (default
# kernel-patches/thpbench.config) merged over it; an option of FRAG that
# does not survive stops the build (one this kernel version does not
# define is only noted). ccache is used where installed
# (THPBENCH_CCACHE=no: never). The image is cached under
# $THPBENCH_BUILD_DIR (default build/ab)/kernels/<key>/ where <key>
# hashes the tree's content (a tarball's sha256, a commit's tree object),
# the patches' diffs (patch-ids and changed lines; never a name or a
# message), the configuration, the compiler and the build recipe, so a
# second call with the same inputs rebuilds nothing, and uname -r is
# VERSION-tb-<first 8 of key>.
# The cache keeps System.map too (kernel symbols for guest profiles:
# thpbench run --profile, docs/profiles.md); --system-map rebuilds a
# kernel cached before it did (same key: the objects are reused, so only
# the link runs again).
# --gcov builds the kernel with gcov (kernel-patches/thpbench-gcov.config
# merged over FRAG) and profiling for mm/ and every .c a series touches
# (GCOV_PROFILE in their Makefiles; the rest of the kernel uninstrumented):
# another key (gcov=, the fragment), its own object directory (<obj>-gcov),
# and the cache keeps gcov/ beside the image: the .gcno notes and the
# sources they describe (the tree is shared by later builds), objdir and
# srcdir (the absolute paths the kernel's gcov data names). Used by
# ./run.sh coverage and ab --coverage (docs/kernel-coverage.md).
# --kallsyms merges kernel-patches/thpbench-kallsyms.config (the symbol
# table, /proc/kallsyms) for guest profiles (ab --profile,
# docs/profiles.md): another key (kallsyms=) and object directory
# (<obj>-kallsyms).
# Prints the cache directory (bzImage, config, build.log, kernelrelease,
# inputs, patches, timings) on stdout.
#
# Exit: 0 built or cached; 2 usage error, a patch that does not apply (the
# rejected hunks are shown), or a failed build (the log tail is shown).
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"

src=$DEFAULT_KERNEL_SRC
series=
sname=
gitref=
base_config=tinyconfig
frag=$KP_DIR/thpbench.config
jobs=$(nproc)
objdir=
arch=x86_64
need_map=0
gcov=0
kallsyms=0

while [ $# -gt 0 ]; do
	case $1 in
	--kernel-src) src=${2:?}; shift 2 ;;
	--series) series=${2:?}; shift 2 ;;
	--name) sname=${2:?}; shift 2 ;;
	--git-ref) gitref=${2:?}; shift 2 ;;
	--config) base_config=${2:?}; shift 2 ;;
	--fragment) frag=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--obj) objdir=${2:?}; shift 2 ;;
	--arch) arch=${2:?}; shift 2 ;;
	--system-map) need_map=1; shift ;;
	--gcov) gcov=1; shift ;;
	--kallsyms) kallsyms=1; shift ;;
	O=?*) objdir=${1#O=}; shift ;;
	-h|--help) kp_help ;;
	*) kp_die "unknown argument '$1' (see --help)" ;;
	esac
done

[ -e "$src" ] || kp_die "kernel source '$src' not found; install linux-source-6.1 (kernel-patches/scripts/install-deps.sh) or pass --kernel-src"
[ -f "$frag" ] || kp_die "config fragment '$frag' not found (--fragment)"
case $arch in
x86_64|x86) arch=x86_64 karch=x86 kgcc=gcc cross='' kimage=bzImage ;;
arm64|aarch64) arch=arm64 karch=arm64 kgcc=aarch64-linux-gnu-gcc
	cross=aarch64-linux-gnu- kimage=Image
	kp_need_cmd "$kgcc" ;;
*) kp_die "--arch must be x86_64 or arm64, not '$arch'" ;;
esac
case $base_config in
tinyconfig|defconfig) cfg_id=$base_config ;;
*)	[ -f "$base_config" ] || kp_die "config '$base_config' not found (--config tinyconfig|defconfig|FILE)"
	base_config=$(cd "$(dirname "$base_config")" && pwd)/$(basename "$base_config")
	cfg_id=file:$(kp_sha256_stdin < "$base_config") ;;
esac
if [ -n "$gitref" ]; then
	[ -d "$src" ] && git -C "$src" rev-parse --git-dir > /dev/null 2>&1 ||
		kp_die "--git-ref needs a git tree as --kernel-src ('$src' is not one)"
	commit=$(git -C "$src" rev-parse --verify -q "$gitref^{commit}") ||
		kp_die "'$gitref' is not a commit of $src (--git-ref)"
fi
kp_need_cmd patch tar xz
if [ -n "$series" ]; then
	[ -d "$series" ] || kp_die "patch series '$series' is not a directory"
	series=$(cd "$series" && pwd)
	# Untrusted: every name, path and mode is checked before anything is
	# applied; series_files is what the series may touch.
	series_files=$(kp_series_check "$series") || exit 2
	[ -n "$(kp_series_patches "$series")" ] ||
		kp_die "patch series '$series' holds no *.patch file"
fi

# --obj (O=): the author's build directory, kept for the next runs. One
# that holds a build made otherwise is refused: kbuild would rebuild all
# of it from the checkout here, and the author's own next build all of it
# again.
if [ -n "$objdir" ]; then
	mkdir -p "$objdir"
	objdir=$(cd "$objdir" && pwd)
	if [ -n "$(ls -A "$objdir")" ] && [ ! -f "$objdir/.tb-objdir" ]; then
		kp_die "O=$objdir holds a build that build-kernel.sh did not make; it would rebuild all of it from its own checkout (and your next own build all of it again): give an empty or new directory, which is kept for the next runs"
	fi
fi
mkdir -p "$AB_BUILD_DIR/src" "$AB_BUILD_DIR/kernels" "$AB_BUILD_DIR/work"
# The key is the content, never a name: the tree (a commit by its tree
# object, so a reworded commit is the same tree), the patches' diffs
# (patch-ids and changed lines), the fragment, the base configuration, the
# compiler and the recipe. Same sources + same patches + same config = one
# kernel, whatever the series, its files or its mbox are called; the name
# (--name) only labels the log lines.
if [ -n "$gitref" ]; then
	tid=git-tree:$(git -C "$src" rev-parse "$commit^{tree}")
else
	tid=$(kp_tree_id "$src")
fi
tkey=$(printf '%s' "$tid" | kp_sha256_stdin | cut -c1-16)
if [ -n "$series" ]; then
	[ -n "$sname" ] || sname=$(basename "$series")
	phash=$(kp_series_hash "$series")
else
	sname=base
	phash=none
fi
sname=$(kp_release_slug "$sname")
inputs=$(printf 'tree=%s\npatches=%s\nconfig=%s\ncompiler=%s\nrecipe=%s\n' \
	"$tid" "$phash" "$(kp_sha256_stdin < "$frag")" "$("$kgcc" --version | head -1)" \
	"$BUILD_RECIPE")
# arm64: its fragment and the arch in the key (x86 keeps the key it had).
if [ "$arch" = arm64 ]; then
	afrag=$KP_DIR/thpbench-arm64.config
	[ -f "$afrag" ] || kp_die "$afrag missing"
	inputs=$(printf '%s\narch=arm64\narm64_config=%s\n' "$inputs" "$(kp_sha256_stdin < "$afrag")")
fi
# --gcov, --kallsyms: each another kernel, with its fragment
# (kernel-patches/thpbench-NAME.config) in the key, its own object
# directory (<obj>-NAME) and its lines after FRAG (later lines win).
extras=()
[ "$gcov" = 0 ] || extras+=(gcov)
[ "$kallsyms" = 0 ] || extras+=(kallsyms)
for x in "${extras[@]}"; do
	xf=$KP_DIR/thpbench-$x.config
	[ -f "$xf" ] || kp_die "$xf missing"
	inputs=$(printf '%s\n%s_config=%s\n' "$inputs" "$x" "$(kp_sha256_stdin < "$xf")")
done
# gcov's recipe: which directories and files are profiled.
[ "$gcov" = 0 ] || inputs=$(printf '%s\ngcov=mm+series\n' "$inputs")
# The default configuration keeps the key it always had.
[ "$cfg_id" = tinyconfig ] || inputs=$(printf '%s\nbase_config=%s\n' "$inputs" "$cfg_id")
key=$(printf '%s' "$inputs" | kp_sha256_stdin | cut -c1-16)
# uname -r tells kernels apart by their content too: 6.1.N-tb-<key>.
lv=-tb-${key:0:8}
out=$AB_BUILD_DIR/kernels/$key

cached()
{
	[ -f "$out/ok" ] && [ -f "$out/bzImage" ] || return 1
	[ "$need_map" = 0 ] || [ -f "$out/System.map" ] || return 1
	kp_log "cached: $out (no rebuild)"
	echo "$out"
}
# A cached image needs no lock; a build does (one tree, one object dir).
cached && exit 0
kp_take_lock "$AB_BUILD_DIR/build.lock" "another kernel build to finish"
cached && exit 0

# One source tree and one object directory per kernel tree, reused by every
# build: B differs from A in a few files, so after the first full build
# the next kernel only recompiles what its patches (or LOCALVERSION)
# change. Kbuild decides that from mtimes and command lines, so the tree
# is put back to pristine by copying the saved originals over the patched
# files with a fresh mtime (never `cp -p`), and files a patch created are
# removed. .tb-dirty lists what a previous series may have changed; the
# originals are saved from the pristine tree before a series applies, so
# they never hold what a patch wrote.
# A git tree (--git-ref) instead has one checkout per repository,
# trees/<repo>: a `git clone --shared` (the author's objects are borrowed,
# nothing is copied or written into the author's tree), moved from commit
# to commit by `git checkout`, which rewrites only the files that differ,
# and put back to pristine by `git checkout -f` + `git clean`. Its objects
# are shared by every commit, so one commit after another, like B after
# A, recompiles only what changed between them.
if [ -n "$gitref" ]; then
	rkey=$(printf 'repo:%s' "$(cd "$src" && cd "$(git rev-parse --git-common-dir)" && pwd)" |
		kp_sha256_stdin | cut -c1-16)
	tree=$AB_BUILD_DIR/trees/$rkey
	orig=
	obj=$AB_BUILD_DIR/obj/git-$rkey
else
	tree=$AB_BUILD_DIR/src/$tkey
	orig=$AB_BUILD_DIR/src/$tkey.orig
	obj=$AB_BUILD_DIR/obj/$tkey
fi
# Another base configuration gets its own objects: switching would
# recompile everything both ways.
[ "$cfg_id" = tinyconfig ] ||
	obj=$obj-$(printf '%s' "$cfg_id" | kp_sha256_stdin | cut -c1-12)
[ "$arch" = x86_64 ] || obj=$obj-$arch
# Another fragment's objects are others: switching would recompile both ways.
for x in "${extras[@]}"; do obj=$obj-$x; done
[ -z "$objdir" ] || obj=$objdir
# What .tb-ok holds: trees of an older layout (originals saved between
# patches) are prepared again.
tree_stamp="layout=2 $tid"

# Is some component of DIR/REL (REL itself included) a symlink?
path_has_symlink()
{
	local p=$1 c
	local -a parts
	IFS=/ read -r -a parts <<< "$2"
	for c in "${parts[@]}"; do
		p=$p/$c
		[ ! -L "$p" ] || return 0
	done
	return 1
}

# Put one file a series touched back as the pristine tree had it, never
# through a symlink (one is removed, not followed). Fails on a path that a
# series could not have named or that cannot be put back.
restore_file()
{
	local f=$1 d
	case /$f/ in */../*|*/./*|//*|*//*) return 1 ;; esac
	case $f in *[!A-Za-z0-9._/+,-]*) return 1 ;; esac
	d=$(dirname "$f")
	! path_has_symlink "$tree" "$d" || return 1
	if [ -f "$orig/$f" ] && [ ! -L "$orig/$f" ]; then
		mkdir -p "$tree/$d" || return 1
		rm -f "$tree/$f" && cp "$orig/$f" "$tree/$f"
	else
		rm -f "$tree/$f"
	fi
}

# Put the tree back to pristine. A .tb-dirty that cannot be undone safely
# (a bad entry, a symlink on the way, a directory where a file was) must
# not wedge later builds: the tree is dropped and prepared again.
reset_tree()
{
	local f
	if [ -n "$gitref" ]; then
		[ ! -d "$tree/.git" ] || git_pristine
		return 0
	fi
	[ -f "$tree/.tb-dirty" ] || return 0
	while IFS= read -r f; do
		restore_file "$f" 2>/dev/null && continue
		kp_log "warning: cannot put '$(printf '%q' "$f" | head -c 200)' back safely ($tree/.tb-dirty); preparing the source tree again"
		rm -rf "$tree" "$orig"
		drop_obj
		return 0
	done < "$tree/.tb-dirty"
	rm -f "$tree/.tb-dirty"
}

# The default object directory goes with its tree; an --obj is the
# author's and is never removed (kbuild rebuilds what a new tree changed).
drop_obj() { [ -n "$objdir" ] || rm -rf "$obj"; }

# The checkout of a git tree back to its commit exactly: files a series
# changed rewritten, files it created removed.
git_pristine()
{
	git -C "$tree" reset -q --hard
	git -C "$tree" clean -q -f -d -x
}

# The checkout of a git tree at $commit, made once per repository.
prepare_checkout()
{
	if [ ! -d "$tree/.git" ]; then
		kp_log "checking $src out in $tree (once per repository: later commits rewrite only the files that differ; $src is not written to)"
		rm -rf "$tree"
		mkdir -p "$(dirname "$tree")"
		git clone -q --shared --no-checkout "$src" "$tree" ||
			kp_die "cannot clone $src into $tree"
	fi
	git -C "$tree" -c advice.detachedHead=false checkout -q -f --detach "$commit" ||
		kp_die "cannot check out $commit of $src in $tree"
	git -C "$tree" clean -q -f -d -x
	[ -f "$tree/Makefile" ] && [ -f "$tree/mm/mremap.c" ] ||
		kp_die "'$src' at $gitref does not look like a Linux source tree"
}

prepare_tree()
{
	if [ -n "$gitref" ]; then
		prepare_checkout
		return 0
	fi
	[ "$(cat "$tree/.tb-ok" 2>/dev/null)" != "$tree_stamp" ] || return 0
	kp_log "preparing the source tree from $src"
	rm -rf "$tree" "$orig"
	drop_obj
	mkdir -p "$tree"
	if [ -f "$src" ]; then
		tar -xf "$src" -C "$tree" --strip-components=1
	else
		tar -C "$src" --exclude=.git -cf - . | tar -C "$tree" -xf -
		make -s -C "$tree" mrproper
	fi
	[ -f "$tree/Makefile" ] && [ -f "$tree/mm/mremap.c" ] ||
		kp_die "'$src' does not look like a Linux source tree"
	echo "$tree_stamp" > "$tree/.tb-ok"
}

# Save the pristine original of every file the series touches, before any
# patch applies, and list them all in .tb-dirty first, so a failure at any
# point resets them. A file that is a symlink, or lies under one, in the
# tree is refused: patching it would write elsewhere.
save_originals()
{
	local f
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		! path_has_symlink "$tree" "$f" ||
			kp_die "refusing the series: it patches $f, a symlink or under one in $src (nothing was applied)"
		[ -z "$gitref" ] || continue
		if [ -f "$tree/$f" ] && [ ! -f "$orig/$f" ]; then
			mkdir -p "$(dirname "$orig/$f")"
			cp -p "$tree/$f" "$orig/$f"
		fi
		printf '%s\n' "$f" >> "$tree/.tb-dirty"
	done <<< "$series_files"
}

# What patch(1) said it patched must be what the checked series names.
check_patched()
{
	local log=$1 f
	grep -q '^patching symbolic link ' "$log" && return 1
	while IFS= read -r f; do
		grep -qxF -- "$f" <<< "$series_files" || return 1
	done < <(sed -n 's/^patching file \([^ ]*\).*/\1/p' "$log")
	return 0
}

t_start=$(date +%s)
reset_tree
prepare_tree
# Patches apply with --fuzz=0: an offset is fine (a newer tree), but a hunk
# whose context does not match exactly is a different patch, so it fails.
work=$AB_BUILD_DIR/work/$key
rm -rf "$work"
mkdir -p "$work" "$obj"
printf '%s\n' "$tree" > "$obj/.tb-objdir"
# arm64: FRAG with the symbols thpbench-arm64.config names replaced by
# its lines; what the checks below hold the .config to.
if [ "$arch" = arm64 ]; then
	sed -n 's/^\(# \)\{0,1\}\(CONFIG_[A-Za-z0-9_]*\)[= ].*/\2/p' "$afrag" > "$work/arm64-syms"
	{ grep -v -w -F -f "$work/arm64-syms" "$frag" || true; cat "$afrag"; } > "$work/fragment"
	frag=$work/fragment
fi
# An extra fragment's x86-only lines (those thpbench-arm64.config
# replaces) are left out of an arm64 kernel too.
for x in "${extras[@]}"; do
	if [ "$arch" = arm64 ]; then
		{ cat "$frag"; grep -v -w -F -f "$work/arm64-syms" "$KP_DIR/thpbench-$x.config" || true; } > "$work/fragment.$x"
	else
		cat "$frag" "$KP_DIR/thpbench-$x.config" > "$work/fragment.$x"
	fi
	frag=$work/fragment.$x
done
if [ -n "$series" ]; then
	save_originals
	while IFS= read -r p; do
		kp_log "applying $(basename "$p")"
		if ! patch -d "$tree" -p1 --forward --batch --fuzz=0 \
			--no-backup-if-mismatch -r "$work/rejects" \
			< "$p" > "$work/patch.log" 2>&1; then
			cat "$work/patch.log" >&2
			if [ -s "$work/rejects" ]; then
				printf '%s\n' "--- rejected hunks:" >&2
				cat "$work/rejects" >&2
			fi
			reset_tree
			kp_die "$(basename "$p") does not apply to $src"
		fi
		if ! check_patched "$work/patch.log"; then
			cat "$work/patch.log" >&2
			reset_tree
			kp_die "$(basename "$p") patched a file its headers do not name; refusing the series"
		fi
	done < <(kp_series_patches "$series")
fi

# gcov: one Makefile line opts a directory (mm/) or one object (a .c a
# series touches elsewhere) into profiling; the rest of the kernel stays
# uninstrumented. The Makefiles are put back like a patched file: the
# original saved, listed in .tb-dirty first.
gcov_mark_dirty()
{
	local mk=$1
	! path_has_symlink "$tree" "$mk" || kp_die "refusing --gcov: $mk is a symlink or under one in $tree"
	[ -z "$gitref" ] || return 0
	! grep -qxF -- "$mk" "$tree/.tb-dirty" 2>/dev/null || return 0
	if [ ! -f "$orig/$mk" ]; then
		mkdir -p "$(dirname "$orig/$mk")"
		cp -p "$tree/$mk" "$orig/$mk"
	fi
	printf '%s\n' "$mk" >> "$tree/.tb-dirty"
}

gcov_optin()
{
	local f d
	gcov_mark_dirty mm/Makefile
	printf '\n# thpbench --gcov\nGCOV_PROFILE := y\n' >> "$tree/mm/Makefile"
	while IFS= read -r f; do
		case $f in *.c) ;; *) continue ;; esac
		d=$(dirname "$f")
		[ "$d" != mm ] && [ -f "$tree/$d/Makefile" ] || continue
		gcov_mark_dirty "$d/Makefile"
		printf 'GCOV_PROFILE_%s.o := y\n' "$(basename "$f" .c)" >> "$tree/$d/Makefile"
	done <<< "${series_files:-}"
}
[ "$gcov" = 0 ] || gcov_optin


kp_need_cmd make gcc flex bison bc perl
blog=$work/build.log
# kbuild prints a line per object it makes (the progress line, the log
# and the tests count them) unless MAKEFLAGS holds an s, which a calling
# make (`make -s ab-bench`, `make check`) passes down with its jobserver:
# neither is this build's.
unset MAKEFLAGS MFLAGS MAKELEVEL
# ccache where it is installed (THPBENCH_CCACHE=no: never): a commit built
# before, in any object directory, compiles from its cache.
ccache=()
if [ "${THPBENCH_CCACHE:-yes}" != no ] && command -v ccache > /dev/null; then
	ccache=(CC="ccache $kgcc")
fi
kmake() { make -C "$tree" O="$obj" ARCH="$arch" ${cross:+CROSS_COMPILE=$cross} "${ccache[@]}" "$@" >> "$blog" 2>&1; }
fail_build()
{
	tail -n 40 "$blog" >&2
	kp_die "kernel build failed ($1); full log: $blog"
}

# tinyconfig, then the fragment, as one allnoconfig pass: later lines win
# (conf warns "override"), options nobody asked for stay off, and it takes
# seconds where tinyconfig + merge_config.sh take minutes. defconfig or a
# given config: the fragment merged over it (merge_config.sh -m).
t_prepared=$(date +%s)
kp_log "configuring $sname (${cfg_id%%:*} + $(basename "$frag"))"
case $base_config in
tinyconfig)
	# Each tiny fragment this version has (tiny-base.config is v5.x on).
	for f in kernel/configs/tiny-base.config kernel/configs/tiny.config \
		arch/$karch/configs/tiny.config; do
		[ ! -f "$tree/$f" ] || cat "$tree/$f"
	done > "$work/allconfig"
	cat "$frag" >> "$work/allconfig"
	kmake KCONFIG_ALLCONFIG="$work/allconfig" allnoconfig || fail_build allnoconfig ;;
*)
	if [ "$base_config" = defconfig ]; then
		kmake defconfig || fail_build defconfig
	else
		cp "$base_config" "$obj/.config"
	fi
	(cd "$obj" && "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "$frag") >> "$blog" 2>&1 || fail_build merge_config ;;
esac
"$tree/scripts/config" --file "$obj/.config" --set-str LOCALVERSION "$lv" \
	--disable LOCALVERSION_AUTO
kmake olddefconfig || fail_build olddefconfig

# merge_config only warns when a dependency drops an option; a kernel
# without e.g. ADVISE_SYSCALLS would measure something else, so stop. An
# option this kernel version does not define at all (a newer or older
# tree than 6.1) is only noted, unless the suite needs it.
missing=
while IFS= read -r opt; do
	sym=${opt%%=*}
	if [[ " $(kp_kernel_needs "$arch") " != *[[:space:]]"$opt"[[:space:]]* ]] &&
		! kp_kconfig_defines "$tree" "${sym#CONFIG_}"; then
		kp_log "note: $sym is not defined in this kernel version ($(basename "$frag") asks for it; left out)"
		continue
	fi
	missing="$missing$opt "
done < <(kp_config_missing "$frag" "$obj/.config")
[ -z "$missing" ] || kp_die "the ${cfg_id%%:*} configuration lacks what the suite needs: $missing(dropped by olddefconfig: a dependency is off; fix $frag or the --config given)"

# While make runs: the objects compiled so far (of how many, when a full
# build of this configuration was counted before and this one starts from
# nothing) and the time so far; live on a terminal, a plain line every
# THPBENCH_PROGRESS_EVERY seconds (60) otherwise, so a log gets no escapes.
objcount=$AB_BUILD_DIR/objects-$(printf '%s' "$cfg_id $(kp_sha256_stdin < "$frag")" | kp_sha256_stdin | cut -c1-12)
compiled() { grep -cE '^  (CC|AS)( \[M\])? ' "$blog" || true; }
build_progress()
{
	local total=$1 every=${THPBENCH_PROGRESS_EVERY:-60} last n now line
	last=$(date +%s)
	while sleep 1; do
		now=$(date +%s)
		n=$(compiled)
		line="$sname: $n objects compiled${total:+ of about $total}, $(kp_secs $((now - t0)))"
		if [ -t 2 ]; then
			printf '\r\033[K%s: %s' "$kp_prog" "$line" >&2
		elif [ $((now - last)) -ge "$every" ]; then
			kp_log "$line"
			last=$now
		fi
	done
}
progress_pid=''
stop_progress()
{
	[ -n "$progress_pid" ] || return 0
	kill "$progress_pid" 2>/dev/null || true
	wait "$progress_pid" 2>/dev/null || true
	progress_pid=''
	[ ! -t 2 ] || printf '\r\033[K' >&2
}
trap stop_progress EXIT

full=''
[ -n "$(find "$obj" -name '*.o' -print -quit)" ] || full=1
total=''
[ -z "$full" ] || total=$(cat "$objcount" 2>/dev/null || true)
kp_log "building $sname with $jobs jobs${ccache:+ and ccache} (log: $blog)"
t0=$(date +%s)
build_progress "$total" &
progress_pid=$!
kmake -j"$jobs" "$kimage" || { stop_progress; fail_build "$kimage"; }
stop_progress
t1=$(date +%s)
[ -z "$full" ] || compiled > "$objcount"
kp_log "built $sname in $(kp_secs $((t1 - t_start))): $(compiled) objects compiled in $(kp_secs $((t1 - t0))) (tree $(kp_secs $((t_prepared - t_start))), configuration $(kp_secs $((t0 - t_prepared))))"

rm -rf "$out"
mkdir -p "$out"
cp "$obj/arch/$karch/boot/$kimage" "$out/bzImage"
echo "$arch" > "$out/arch"
cp "$obj/.config" "$out/config"
[ ! -f "$obj/System.map" ] || cp "$obj/System.map" "$out/System.map"
cp "$blog" "$out/build.log"
make -s -C "$tree" O="$obj" ARCH="$arch" kernelrelease > "$out/kernelrelease" 2>/dev/null
printf '%s' "$inputs" > "$out/inputs"
if [ -n "$series" ]; then
	kp_series_patches "$series" | while IFS= read -r p; do
		basename "$p"
	done > "$out/patches"
	kp_series_patches "$series" | while IFS= read -r p; do
		printf '%s %s\n' "$(kp_patch_id "$p")" "$(basename "$p")"
	done > "$out/patch-ids"
else
	: > "$out/patches"
	: > "$out/patch-ids"
fi
printf 'prepare %s\nconfigure %s\ncompile %s\n' $((t_prepared - t_start)) \
	$((t0 - t_prepared)) $((t1 - t0)) > "$out/timings"
# gcov: the notes (.gcno) and the sources they describe, kept with the
# image, since the next build (B after A) rewrites both in the shared
# tree and object directory; objdir and srcdir are the absolute paths
# the guest's /sys/kernel/debug/gcov and the notes name.
gcov_snapshot()
{
	local n rel c
	mkdir -p "$out/gcov/obj" "$out/gcov/src"
	printf '%s\n' "$obj" > "$out/gcov/objdir"
	printf '%s\n' "$tree" > "$out/gcov/srcdir"
	while IFS= read -r n; do
		rel=${n#"$obj"/}
		c=${rel%.gcno}.c
		# An object rebuilt without profiling (a series file no longer
		# opted in) left a stale note behind: its command line says.
		grep -qs -e -fprofile-arcs "$obj/$(dirname "$rel")/.$(basename "${rel%.gcno}").o.cmd" || continue
		mkdir -p "$out/gcov/obj/$(dirname "$rel")" "$out/gcov/src/$(dirname "$rel")"
		cp "$n" "$out/gcov/obj/$rel"
		[ ! -f "$tree/$c" ] || cp "$tree/$c" "$out/gcov/src/$c"
	done < <(find "$obj" -name '*.gcno' -type f)
	[ -n "$(ls -A "$out/gcov/obj")" ] || kp_die "--gcov: the build left no .gcno under $obj (is CONFIG_GCOV_KERNEL on? see $out/build.log)"
}
[ "$gcov" = 0 ] || gcov_snapshot

touch "$out/ok"
rm -rf "$work"
echo "$out"
