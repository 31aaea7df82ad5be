#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The nightly CI entry (./run.sh nightly): run the nightly suite, record it
# in the history database, check the history, write the reports.
#
#   scripts/nightly.sh [--kernel-id ID] [--db DB] [-o DIR] [--suite FILE]
#                      [--fail-on newest|regression|none]
#
#   --kernel-id ID  the kernel's identity from CI (git describe or commit of
#                   the tree it was built from; kept in results.json as
#                   meta.kernel_id); default: uname -r
#   --db DB         SQLite file or postgresql://... (default results/history.sqlite)
#   -o DIR          results directory (default results/nightly-DATE)
#   --suite FILE    another suite (default configs/nightly.conf)
#   --fail-on G     the gate of history check (default newest: the newest
#                   night starts a confirmed regression)
#
# Writes DIR/results.json (the run), DIR/history-check.txt (also printed),
# DIR/history-junit.xml (Jenkins, GitLab), DIR/history-check.tap,
# DIR/history-check.json and DIR/report/index.html; results/latest points
# at DIR. Exit 0 ok, 1 the gate failed (a new confirmed regression), 2 the
# run, the import or the check could not be done.
set -u
TB=./harness/thpbench
kid=
db=results/history.sqlite
out=
suite=configs/nightly.conf
failon=newest

die() { echo "nightly: $*" >&2; exit 2; }
need() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernel-id) need "$@"; kid=$2; shift 2 ;;
	--db) need "$@"; db=$2; shift 2 ;;
	-o) need "$@"; out=$2; shift 2 ;;
	--suite) need "$@"; suite=$2; shift 2 ;;
	--fail-on) need "$@"; failon=$2; shift 2 ;;
	-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) die "unknown option \"$1\" (--help lists them)" ;;
	esac
done
case $kid in
*[!A-Za-z0-9._+:/@~^-]*) die "--kernel-id \"$kid\": use A-Z a-z 0-9 . _ + : / @ ~ ^ -" ;;
esac
[ -f "$suite" ] || die "no suite $suite"
name=$(basename "$suite" .conf)
[ -n "$out" ] || out=results/$name-$(date -u +%Y%m%d-%H%M%S)
set -- --db "$db"
[ -n "$kid" ] && set -- "$@" --kernel-id "$kid"

start=$(date +%s)
mkdir -p "$out" || die "cannot create $out"
$TB run "$suite" -o "$out" ${kid:+--kernel-id "$kid"} >"$out/run.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { tail -n 20 "$out/run.log" >&2; die "the run failed (exit $rc; $out/run.log)"; }
echo "nightly: ran $suite in $(( $(date +%s) - start )) s: $out"
case $out in results/*) rm -f results/latest; ln -s "${out#results/}" results/latest ;; esac

$TB history import "$@" "$out/results.json" || die "the import into $db failed"

if ! $TB history --help 2>/dev/null | grep -q '^  check'; then
	echo "nightly: this thpbench has no history check: recorded only"
	exit 0
fi
host=$(jq -r '.env.hostname' "$out/results.json")
suitename=$(jq -r '.meta.suite' "$out/results.json")
set -- --db "$db" --host "$host" --suite "$suitename"
$TB history check "$@" --fail-on "$failon" --format text -o "$out/history-check.txt"
gate=$?
cat "$out/history-check.txt" 2>/dev/null
[ $gate -le 1 ] || die "history check failed (exit $gate)"
for f in junit:history-junit.xml tap:history-check.tap json:history-check.json; do
	$TB history check "$@" --fail-on "$failon" --format "${f%%:*}" -o "$out/${f#*:}"
	[ $? -le 1 ] || die "history check --format ${f%%:*} failed"
done
$TB history report "$@" -o "$out/report" >/dev/null || die "history report failed"
echo "nightly: $out/history-junit.xml, $out/report/index.html"
[ $gate -eq 1 ] && echo "nightly: FAIL: a new confirmed regression (history check above)"
exit $gate
