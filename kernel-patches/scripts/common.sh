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

series_hash()
{
	local dir=$1 p
	series_patches "$dir" | while read -r p; do
		printf '%s\n' "$(basename "$p")"
		cat "$p"
	done | sha256_stdin
}
