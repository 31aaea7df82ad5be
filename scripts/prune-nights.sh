#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Retention for nightly results directories (./run.sh nightly --keep N):
#
#   scripts/prune-nights.sh --keep N [--dry-run] PARENT PREFIX
#
# Of the directories PARENT/PREFIX* that a nightly recorded in its history
# (they hold history-import.txt, written after a successful import: their
# raw values are in the database), keeps the N newest by that file's time
# and deletes the others, saying which. Anything else under PARENT (a
# directory of another suite, one whose import failed, results/latest's
# target, a file) is never touched. Exit 0, or 2 on a usage error or a
# directory that could not be deleted.
set -u
die() { echo "prune-nights: $*" >&2; exit 2; }
keep= dry=
while [ $# -gt 0 ]; do
	case $1 in
	--keep) [ $# -ge 2 ] || die "--keep needs a number"; keep=$2; shift 2 ;;
	--dry-run) dry=1; shift ;;
	-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	-*) die "unknown option \"$1\"" ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || die "usage: prune-nights.sh --keep N [--dry-run] PARENT PREFIX"
parent=$1 prefix=$2
case $keep in ''|*[!0-9]*|0) die "--keep \"$keep\": a number >= 1" ;; esac
case $prefix in ''|*/*) die "PREFIX \"$prefix\": a name start without /" ;; esac
[ -d "$parent" ] || die "$parent: not a directory"

latest=
[ -L "$parent/latest" ] && latest=$(readlink "$parent/latest")
rc=0
# Newest first; names with a newline are left alone (ls -t cannot carry them).
ls -t "$parent/$prefix"*/history-import.txt 2>/dev/null | tail -n +"$((keep + 1))" |
while IFS= read -r mark; do
	dir=${mark%/history-import.txt}
	[ -d "$dir" ] && [ ! -L "$dir" ] || continue
	[ -n "$latest" ] && [ "${dir##*/}" = "${latest##*/}" ] && continue
	if [ -n "$dry" ]; then
		echo "prune-nights: would delete $dir"
	elif rm -rf -- "$dir"; then
		echo "prune-nights: deleted $dir (older than the newest $keep)"
	else
		echo "prune-nights: cannot delete $dir" >&2
		exit 2
	fi
done || rc=2
exit $rc
