#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Turn a patch series, in any of the forms an author has it, into one
# directory of patches that build-kernel.sh --series applies in name order.
#
#   series.sh -o OUTDIR DIR            a directory of *.patch (as bundled)
#   series.sh -o OUTDIR MBOX           `git format-patch --cover-letter
#                                      --stdout` or `b4 am` output (.mbx);
#                                      the cover letter and any mail
#                                      without a diff are left out
#   series.sh -o OUTDIR --tree GIT --base REF --new REF
#                                      the commits REF..REF of a git tree,
#                                      as `git format-patch` writes them
#
# OUTDIR (created; must not exist or be empty) then holds NNNN-*.patch and
# patch-ids ("<git patch-id --stable> <file>" per patch, in order): the
# same change gives the same id in every form. Prints the number of
# patches. Exit 0, or 2 with a message: a bundled series without patches
# (see its README), an mbox with no patch, a range with no commit, or a
# hostile series (thpbench series check: a path outside the tree, a
# symlink mode, a patch file name no patch tool writes), or one over the
# bounds ($THPBENCH_SERIES_MAX_PATCHES patches, default 500;
# $THPBENCH_SERIES_MAX_MB MiB of mbox or patches, default 64).
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"

out='' input='' tree='' base='' new=''

while [ $# -gt 0 ]; do
	case $1 in
	-o) out=${2:?}; shift 2 ;;
	--tree) tree=${2:?}; shift 2 ;;
	--base) base=${2:?}; shift 2 ;;
	--new) new=${2:?}; shift 2 ;;
	-h|--help) kp_help ;;
	-*) kp_die "unknown option '$1' (see --help)" ;;
	*) [ -z "$input" ] || kp_die "one series at a time ('$input' and '$1')"
	   input=$1; shift ;;
	esac
done
[ -n "$out" ] || kp_usage
kp_need_cmd git
if [ -n "$tree$base$new" ]; then
	[ -z "$input" ] || kp_die "give a series or --tree/--base/--new, not both"
	[ -n "$tree" ] && [ -n "$base" ] && [ -n "$new" ] ||
		kp_die "a git range needs all of --tree DIR --base REF --new REF"
elif [ -z "$input" ]; then
	kp_usage
fi
mkdir -p "$out"
[ -z "$(ls -A "$out")" ] || kp_die "'$out' is not empty"
# Absolute: `git -C TREE format-patch -o` would take a relative one as
# relative to the author's tree and write the patches there.
out=$(cd "$out" && pwd)

# A file name from a mail subject: "[PATCH v2 3/7] mm: foo bar" -> mm-foo-bar.
subject_slug()
{
	sed -n '/^Subject: /{s/^Subject: *//; s/^\(\[[^]]*\] *\)*//; p; q}' "$1" |
		tr 'A-Z' 'a-z' | tr -c 'a-z0-9' '-' | sed 's/--*/-/g; s/^-//' |
		cut -c1-50 | sed 's/-$//'
}

# A mail holds a patch when it has a diff git apply would take.
has_diff() { grep -q '^diff --git \|^--- a/\|^+++ b/' "$1"; }

from_dir()
{
	local dir=$1 p n=0
	kp_series_check "$dir" > /dev/null || exit 2
	while IFS= read -r p; do
		n=$((n + 1))
		cp "$p" "$out/$(basename "$p")"
	done < <(kp_series_patches "$dir")
	if [ "$n" = 0 ]; then
		[ ! -f "$dir/README.md" ] ||
			kp_die "no patches in $dir: see its README ($dir/README.md)"
		kp_die "no *.patch file in $dir"
	fi
}

from_mbox()
{
	local mbox=$1 split m n=0 slug
	# Bounded before the split: each mail costs a few processes (a 20,000
	# mail mbox took 51 minutes).
	kp_series_check_size "mbox '$mbox'" "$(grep -c '^From ' "$mbox" || true)" \
		"$(stat -c %s "$mbox")"
	split=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$split'" EXIT
	git mailsplit -o"$split" "$mbox" > /dev/null 2>&1 ||
		kp_die "'$mbox' is not an mbox (git mailsplit failed); give an mbox from git format-patch or b4 am, or a directory of *.patch"
	for m in "$split"/*; do
		[ -f "$m" ] && has_diff "$m" || continue
		n=$((n + 1))
		slug=$(subject_slug "$m")
		cp "$m" "$out/$(printf '%04d' "$n")-${slug:-patch}.patch"
	done
	[ "$n" -gt 0 ] ||
		kp_die "'$mbox' holds no patch (only a cover letter or mail without a diff?)"
}

from_range()
{
	local b n
	git -C "$tree" rev-parse --git-dir > /dev/null 2>&1 || kp_die "'$tree' is not a git tree (--tree)"
	b=$(git -C "$tree" rev-parse --verify -q "$base^{commit}") || kp_die "'$base' is not a commit of $tree (--base)"
	git -C "$tree" rev-parse --verify -q "$new^{commit}" > /dev/null || kp_die "'$new' is not a commit of $tree (--new)"
	git -C "$tree" merge-base --is-ancestor "$b" "$new" ||
		kp_die "--base $base is not an ancestor of --new $new"
	kp_series_check_size "range $base..$new of $tree" \
		"$(git -C "$tree" rev-list --count --no-merges "$b..$new")" 0
	git -C "$tree" format-patch -q --no-cover-letter --no-merges -o "$out" "$b..$new" > /dev/null
	n=$(find "$out" -maxdepth 1 -name '*.patch' | wc -l)
	[ "$n" -gt 0 ] || kp_die "no commit in $base..$new of $tree"
}

if [ -n "$tree" ]; then
	from_range
elif [ -d "$input" ]; then
	from_dir "$input"
elif [ -f "$input" ]; then
	from_mbox "$input"
else
	kp_die "series '$input' is neither a directory of patches nor an mbox file"
fi
# Untrusted whatever its form: names, size, paths and modes (exits 2).
kp_series_check "$out" > /dev/null || exit 2
kp_series_patches "$out" | while IFS= read -r p; do
	printf '%s %s\n' "$(kp_patch_id "$p")" "$(basename "$p")"
done > "$out/patch-ids"
wc -l < "$out/patch-ids"
