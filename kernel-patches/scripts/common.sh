# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034
#
# Shared helpers for the kernel A/B scripts: messages, the build/cache
# location and the content hashes that key the kernel cache. Sourced, never
# run. Callers set KP_DIR (kernel-patches/) before sourcing.

KP_DIR=${KP_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
REPO_DIR=$(cd "$KP_DIR/.." && pwd)
# Big outputs (kernel trees, objects, images) stay out of the tracked tree:
# /build/ is git-ignored.
AB_BUILD_DIR=${THPBENCH_BUILD_DIR:-$REPO_DIR/build/ab}
DEFAULT_KERNEL_SRC=/usr/src/linux-source-6.1.tar.xz
# Bump when the build recipe changes in a way that changes the image, so
# cached kernels built the old way are not reused.
BUILD_RECIPE=2

kp_prog=$(basename "$0")

log() { printf '%s: %s\n' "$kp_prog" "$*" >&2; }
die() { printf '%s: error: %s\n' "$kp_prog" "$*" >&2; exit 2; }

need_cmd()
{
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found; run kernel-patches/scripts/install-deps.sh"
	done
}

sha256_stdin() { sha256sum | cut -c1-64; }

# Identity of a kernel source: the tarball's bytes, a git tree's commit and
# uncommitted diff, or (plain directory) every file's name, size and mtime.
tree_id()
{
	local src=$1
	if [ -f "$src" ]; then
		printf 'tar:%s\n' "$(sha256_stdin < "$src")"
	elif [ -d "$src/.git" ] || [ -f "$src/.git" ]; then
		printf 'git:%s:%s\n' "$(git -C "$src" rev-parse HEAD)" \
			"$(git -C "$src" diff HEAD | sha256_stdin)"
	elif [ -d "$src" ]; then
		printf 'dir:%s\n' "$(cd "$src" && find . -type f -printf '%P %s %T@\n' |
			LC_ALL=C sort | sha256_stdin)"
	else
		die "kernel source '$src' is neither a tarball nor a directory (--kernel-src)"
	fi
}

# The patches of a series, in the order they apply.
series_patches()
{
	local dir=$1
	find "$dir" -maxdepth 1 -type f -name '*.patch' | LC_ALL=C sort
}

# `git patch-id --stable` of one patch file: the same change gives the same
# id whether it came from a directory, an mbox or a git range (commit
# message, headers, line numbers and whitespace do not count).
patch_id()
{
	git patch-id --stable < "$1" | cut -d' ' -f1
}

# What the build sees of one patch: every added and removed line, up to the
# mail signature ("-- "), so headers and messages do not count but a
# whitespace change does (patch-id ignores whitespace).
patch_body()
{
	awk '/^-- $/ { exit } /^(\+\+\+|---) / { print; next } /^[+-]/ { print }' "$1"
}

# Key of a series' content: patch-ids and bodies, in order.
series_hash()
{
	local dir=$1 p
	series_patches "$dir" | while read -r p; do
		printf '%s %s\n' "$(patch_id "$p")" "$(patch_body "$p" | sha256_stdin)"
	done | sha256_stdin
}

# A series name as a LOCALVERSION suffix: [a-z0-9.-], at most 40 chars
# (uname -r holds 64), so 000-a and 000-b get different releases.
release_slug()
{
	printf '%s' "$1" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9.-' '-' |
		sed 's/--*/-/g; s/^-//; s/-$//' | cut -c1-40 | sed 's/-$//'
}

# Options of a config fragment ("CONFIG_X=y" lines) missing from a .config:
# printed one per line, nothing when all are there.
config_missing()
{
	local frag=$1 config=$2 line
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		grep -qxF "$line" "$config" || printf '%s\n' "$line"
	done < "$frag"
}

# What the guest suite needs of any kernel, ours or prebuilt: THP and
# hugetlb, madvise, the vmstat counters, perf events, an initramfs, the
# serial console.
KERNEL_NEEDS="CONFIG_TRANSPARENT_HUGEPAGE=y CONFIG_HUGETLBFS=y CONFIG_ADVISE_SYSCALLS=y
CONFIG_VM_EVENT_COUNTERS=y CONFIG_PERF_EVENTS=y CONFIG_BLK_DEV_INITRD=y CONFIG_RD_GZIP=y
CONFIG_DEVTMPFS=y CONFIG_PROC_FS=y CONFIG_SYSFS=y CONFIG_SERIAL_8250_CONSOLE=y"

# The release (uname -r) a bzImage will report: the x86 boot header keeps
# a pointer to the version string at 0x20e (relative to 0x200).
bzimage_release()
{
	local img=$1 off
	[ "$(dd if="$img" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || return 1
	off=$(od -An -tu2 -j 526 -N 2 "$img" | tr -d ' ')
	[ -n "$off" ] && [ "$off" -gt 0 ] || return 1
	dd if="$img" bs=1 skip=$((off + 512)) count=128 2>/dev/null |
		tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}

# Create a new directory BASE, or BASE-2, BASE-3 ... when taken (mkdir is
# atomic: two runs started in the same second get two directories).
unique_dir()
{
	local base=$1 d=$1 n=1
	mkdir -p "$(dirname "$base")"
	until mkdir "$d" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -lt 1000 ] || die "cannot create a directory named $base-N"
		d=$base-$n
	done
	printf '%s\n' "$d"
}

# Hold the lock FILE on fd 9 for the rest of the calling (sub)shell,
# saying so when it has to wait.
take_lock()
{
	local file=$1 what=$2
	mkdir -p "$(dirname "$file")"
	exec 9>"$file"
	if ! flock -n 9; then
		log "waiting for $what (lock $file)"
		flock 9
	fi
}
