#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The nightly CI entry (./run.sh nightly): run the nightly suite, record it
# in the history database, check the history, write the reports.
#
#   scripts/nightly.sh [--kernel-id ID] [--machine NAME] [--db DB] [-o DIR]
#                      [--suite FILE] [--fail-on open|newest|regression|none]
#                      [--keep N] [--results FILE] [--confirm qemu|none]
#
#   --kernel-id ID  the kernel's identity from CI (git describe or commit of
#                   the tree it was built from; kept in results.json as
#                   meta.kernel_id); default: uname -r
#   --machine NAME  the lab's name for this machine: its series' identity, kept
#                   when the host is renamed (kept in results.json as
#                   meta.machine); default: the hostname
#   --db DB         SQLite file or postgresql://... (default results/history.sqlite)
#   -o DIR          results directory (default results/nightly-DATE)
#   --suite FILE    another suite (default configs/nightly.conf)
#   --fail-on G     the gate of history check (default open: a confirmed
#                   regression nobody triaged and that has not come back;
#                   newest: only a regression confirmed tonight, or tonight
#                   alone looking like one)
#   --keep N        keep the N newest results directories of this suite next
#                   to DIR that a nightly recorded, delete the older ones
#                   (scripts/prune-nights.sh); 0 (default) keeps all
#   --results FILE  tonight's results were made elsewhere (a guest run, a lab
#                   machine): record FILE as tonight's run instead of running
#                   the suite here
#   --confirm qemu  when tonight raises a watch on a new kernel (history
#                   confirm --plan), boot the last good and the suspect kernel
#                   A B A B in qemu (scripts/confirm-qemu.sh: the kernels by
#                   id in $THPBENCH_KERNELS, default $THPBENCH_BUILD_DIR/kernels),
#                   run the suite there, record compare's verdict in the
#                   history (history confirm) and gate on it; none (default)
#                   confirms nothing. THPBENCH_CONFIRM_RUNNER=CMD replaces the
#                   runner (a test's stub): CMD --kernel-a ID --kernel-b ID
#                   --suite FILE -o DIR writes DIR/A.json and DIR/B.json
#
# The database is opened first (history init): a wrong --db stops it before
# the run. A line per repetition while it runs; then the gate's verdict and
# the series with a confirmed change, and the time of each step.
# Writes DIR/results.json (the run), DIR/run.log, DIR/history-import.txt,
# DIR/history-check.txt (its changes printed),
# DIR/history-junit.xml (Jenkins, GitLab), DIR/history-check.tap,
# DIR/history-check.json and DIR/report/index.html; results/latest points
# at DIR. Exit 0 ok, 1 the gate failed (an open confirmed regression:
# triage it with thpbench history triage ID ...), 2 the run, the import or
# the check could not be done.
set -u
TB=./harness/thpbench
kid=
db=results/history.sqlite
out=
suite=configs/nightly.conf
failon=open
machine=
keep=0
results=
confirm=none

die() { echo "nightly: $*" >&2; exit 2; }
need() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernel-id) need "$@"; kid=$2; shift 2 ;;
	--machine) need "$@"; machine=$2; shift 2 ;;
	--db) need "$@"; db=$2; shift 2 ;;
	-o) need "$@"; out=$2; shift 2 ;;
	--suite) need "$@"; suite=$2; shift 2 ;;
	--fail-on) need "$@"; failon=$2; shift 2 ;;
	--keep) need "$@"; keep=$2; shift 2 ;;
	--results) need "$@"; results=$2; shift 2 ;;
	--confirm) need "$@"; confirm=$2; shift 2 ;;
	-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) die "unknown option \"$1\" (--help lists them)" ;;
	esac
done
case $kid in
*[!A-Za-z0-9._+:/@~^-]*) die "--kernel-id \"$kid\": use A-Z a-z 0-9 . _ + : / @ ~ ^ -" ;;
esac
case $machine in
-*|*[!A-Za-z0-9._+:@-]*) die "--machine \"$machine\": use A-Z a-z 0-9 . _ + : @ - (not starting with -)" ;;
esac
case $keep in
''|*[!0-9]*) die "--keep \"$keep\": a number of results directories (0 keeps all)" ;;
esac
case $confirm in
qemu|none) ;;
kexec) die "--confirm kexec: not built yet (the kexec chain of baremetal.sh); use qemu" ;;
*) die "--confirm \"$confirm\": qemu or none" ;;
esac
[ -z "$results" ] || [ -f "$results" ] || die "--results $results: no such file"
[ -f "$suite" ] || die "no suite $suite"
name=$(basename "$suite" .conf)
[ -n "$out" ] || out=results/$name-$(date -u +%Y%m%d-%H%M%S)
set -- --db "$db"
[ -n "$kid" ] && set -- "$@" --kernel-id "$kid"
[ -n "$machine" ] && set -- "$@" --machine "$machine"
# The database as messages may show it: a PostgreSQL password never.
shown_db=$(printf '%s' "$db" | sed -E 's#^(postgres(ql)?://[^/?]*):[^?]*@#\1:***@#; s#([?&][Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]=)[^&]*#\1***#g')

# GitLab Runner cleans the checkout before every job (git clean -ffdx) or
# clones it afresh: an SQLite history inside it would start empty every
# night and never gate (docs/ci/gitlab-ci.yml).
case $db in
postgres://*|postgresql://*) ;;
*)
	if [ "${GITLAB_CI:-}" = true ] && [ -n "${CI_PROJECT_DIR:-}" ]; then
		case $(realpath -m -- "$db")/ in
		"$(realpath -m -- "$CI_PROJECT_DIR")"/*)
			die "--db $db is inside the checkout, which GitLab cleans before every job: every night would start with an empty history. Give a path outside it (e.g. /var/lib/thpbench/history.sqlite) or a postgresql:// URI (docs/ci/gitlab-ci.yml)" ;;
		esac
	fi ;;
esac

# The confirmation (--confirm): each pair of kernels tonight's watches
# name (history confirm --plan) is run A B A B by the runner, and
# compare's verdict of its two files recorded (history confirm); the
# binary reads and writes every file, this only sequences.
confirm_night() {
	plan=$out/confirm/plan.tsv
	mkdir -p "$out/confirm" || return 1
	$TB history confirm "$@" --plan >"$plan" || return 1
	if [ ! -s "$plan" ]; then
		echo "nightly: confirmation: not triggered (no watch on a new kernel tonight)"
		return 0
	fi
	runner=${THPBENCH_CONFIRM_RUNNER:-sh scripts/confirm-qemu.sh}
	cut -f3,4 "$plan" | sort -u | {
		n=0
		while IFS='	' read -r ka kb; do
			n=$((n + 1))
			d=$out/confirm/$n
			echo "nightly: confirmation $n: kernel $ka (last good) against $kb (suspect), A B A B ($runner)"
			$runner --kernel-a "$ka" --kernel-b "$kb" --suite "$suite" -o "$d" ||
				{ echo "nightly: the confirmation runner failed (exit $?)" >&2; exit 1; }
			$TB history confirm "$@" --method "$confirm" "$d/A.json" "$d/B.json" ||
				exit 1
		done
	}
}

# The database must open before an hour of benchmarks, not after: a
# directory that is not there, a server that does not answer.
$TB history init --db "$db" || die "cannot open the history database $shown_db (above); nothing was run"
mkdir -p "$out" || die "cannot create $out"

# The run: its report into run.log; one line per repetition (and every
# warning, e.g. what a non-root run skips) on the console and in run.log.
if [ -n "$results" ]; then
	# Run elsewhere (a guest, a lab machine): tonight is that file.
	cp -- "$results" "$out/results.json" || die "cannot copy $results into $out"
	t_run=0
	echo "nightly: tonight's results from $results"
else
echo "nightly: running $suite into $out (a line per repetition)"
t0=$(date +%s)
: >"$out/run.log"
{
	$TB run "$suite" -o "$out" ${kid:+--kernel-id "$kid"} ${machine:+--machine "$machine"} \
		--progress lines \
		2>&1 >>"$out/run.log"
	echo $? >"$out/.run-rc"
} | tee -a "$out/run.log"
rc=$(cat "$out/.run-rc" 2>/dev/null || echo 2)
rm -f "$out/.run-rc"
[ "$rc" -eq 0 ] || { tail -n 20 "$out/run.log" >&2; die "the run failed (exit $rc; $out/run.log)"; }
t_run=$(($(date +%s) - t0))
echo "nightly: ran $suite in $t_run s: $out"
fi
case $out in results/*) rm -f results/latest; ln -s "${out#results/}" results/latest ;; esac

$TB history import "$@" "$out/results.json" >"$out/history-import.txt" ||
	die "the import into $shown_db failed"
cat "$out/history-import.txt"

if ! $TB history --help 2>/dev/null | grep -q '^  check'; then
	echo "nightly: this thpbench has no history check: recorded only"
	exit 0
fi
# The binary reads its results file (show --get); the script parses none.
# --machine names the series when given (a results file made elsewhere
# names the guest).
host=$machine
[ -n "$host" ] || host=$($TB show "$out/results.json" --get meta.machine 2> /dev/null) ||
	host=$($TB show "$out/results.json" --get env.hostname) || die "results.json names no machine"
suitename=$($TB show "$out/results.json" --get meta.suite) || die "results.json names no suite"
set -- --db "$db" --machine "$host" --suite "$suitename"
t_confirm=0
if [ "$confirm" != none ]; then
	t0=$(date +%s)
	confirm_night "$@" || die "the confirmation failed (above; $out/confirm)"
	t_confirm=$(($(date +%s) - t0))
fi
t0=$(date +%s)
$TB history check "$@" --fail-on "$failon" --format text -o "$out/history-check.txt"
gate=$?
# On the console: the verdict and the series with something to say; the
# quiet ones (no confirmed change) are only counted.
awk -v file="$out/history-check.txt" '
	NR <= 2 { print; next }
	/^[^ ]/ { show = !(/^ok / && (/; no change point$/ || /, 0 confirmed$/)); quiet += !show }
	show { print }
	END { if (quiet) printf "(%d quiet series: every line is in %s)\n", quiet, file }' \
	"$out/history-check.txt" 2>/dev/null
[ $gate -le 1 ] || die "history check failed (exit $gate)"
for f in junit:history-junit.xml tap:history-check.tap json:history-check.json; do
	$TB history check "$@" --fail-on "$failon" --format "${f%%:*}" -o "$out/${f#*:}"
	[ $? -le 1 ] || die "history check --format ${f%%:*} failed"
done
t_check=$(($(date +%s) - t0))
t0=$(date +%s)
$TB history report "$@" -o "$out/report" >/dev/null || die "history report failed"
t_report=$(($(date +%s) - t0))
echo "nightly: run $t_run s, confirmation $t_confirm s, check $t_check s, report $t_report s"
if [ "$keep" -gt 0 ]; then
	sh scripts/prune-nights.sh --keep "$keep" "$(dirname "$out")" "$name-" ||
		echo "nightly: warning: pruning old results directories failed (above)" >&2
fi
echo "nightly: $out/history-junit.xml, $out/report/index.html"
[ $gate -eq 1 ] && echo "nightly: FAIL: the gate --fail-on $failon failed (history check above; triage with thpbench history triage ID ...)"
exit $gate
