# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers sourced by the workload tests (tests/workloads/<name>.sh); not a
# test itself. Each test runs from the repository root after `make`, prints
# one line per check and exits 0 (pass), 77 (skip) or 1 (fail).

# Run on its own (e.g. by a runner globbing *.sh) it is a skip, not a pass.
case $0 in
*/lib.sh | lib.sh)
	echo "SKIP: lib.sh holds helpers for the workload tests; it is not a test"
	exit 77
	;;
esac

set -u

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wltest.XXXXXX") || exit 1
wl_fails=0
wl_cleanups=""

# Run "$@" on exit (LIFO), for restoring global state on every exit path.
at_exit() {
	wl_cleanups="$*; $wl_cleanups"
}

wl_exit_trap() {
	eval "$wl_cleanups"
	rm -rf "$tmp"
}
trap wl_exit_trap EXIT
trap 'exit 1' INT TERM HUP

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; wl_fails=$((wl_fails + 1)); }
skip() { echo "SKIP: $*"; }
skip_all() { echo "SKIP: $*"; exit 77; }

finish() {
	if [ "$wl_fails" -eq 0 ]; then
		echo "all checks passed"
		exit 0
	fi
	echo "$wl_fails check(s) failed"
	exit 1
}

need_bin() {
	if [ ! -x "$1" ]; then
		echo "FAIL: $1 is not built (run make $1)"
		exit 1
	fi
}

# Show the last output of a failed check, indented.
show_output() {
	sed -n '1,20s/^/    out| /p' "$tmp/out"
	sed -n '1,20s/^/    err| /p' "$tmp/err"
}

# expect_rc WANT DESC CMD...: run CMD (stdout in $tmp/out, stderr in
# $tmp/err) and check its exit status.
expect_rc() {
	local want=$1 desc=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass "$desc (exit $rc)"
		return 0
	fi
	fail "$desc: exit $rc, wanted $want"
	show_output
	return 1
}

# expect_grep FILE REGEX DESC: an extended regex must match a line of FILE.
expect_grep() {
	if grep -Eq -- "$2" "$1"; then
		pass "$3"
	else
		fail "$3: no line matching /$2/ in $(basename "$1")"
		sed -n '1,20s/^/    | /p' "$1"
	fi
}

# metric_value FILE NAME: the value of metric NAME in a metric-fd file.
metric_value() {
	awk -v n="$2" '$1 == n { print $2; exit }' "$1"
}

# expect_metric FILE NAME: one "NAME number" line, the number strtod-able.
expect_metric() {
	expect_grep "$1" "^$2 -?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?\$" \
		"metric fd carries $2"
}

# check_usage BIN: --help, an unknown option and a stray argument.
check_usage() {
	local bin=$1

	expect_rc 0 "--help exits 0" "$bin" --help &&
		expect_grep "$tmp/out" '^usage:' "--help prints usage on stdout"
	expect_rc 2 "unknown option refused" "$bin" --no-such-option &&
		expect_grep "$tmp/err" 'usage:' "unknown option: usage on stderr"
	expect_rc 2 "stray argument refused" "$bin" stray &&
		expect_grep "$tmp/err" "unexpected argument 'stray'" \
			"stray argument: message names it"
}

# check_value_opt BIN OPT [KIND]: a malformed and a zero value of OPT are
# refused, naming the option. KIND is "size" (k/m/g/t suffixes, the
# default) or "count" (plain number).
check_value_opt() {
	local bin=$1 opt=$2 kind=${3:-size}
	local bad="is not a size" zero="greater than zero"

	if [ "$kind" = count ]; then
		bad="is not a whole number"
		zero="out of range"
	fi
	expect_rc 2 "malformed $opt refused" "$bin" "$opt" 12x &&
		expect_grep "$tmp/err" "$opt: '12x' $bad" \
			"malformed $opt: message names the value"
	expect_rc 2 "zero $opt refused" "$bin" "$opt" 0 &&
		expect_grep "$tmp/err" "$opt: .*$zero" "zero $opt: message says why"
}

# check_too_big BIN ARGS...: a size beyond memory is refused with exit 2
# before anything is allocated: the message is the check against
# MemAvailable/MemTotal, which comes before any allocation (a failed
# allocation would say so instead). How long it took is printed: the
# machine's, not asserted.
check_too_big() {
	local t0 t1

	t0=$(date +%s)
	expect_rc 2 "over-large size refused" "$@" || return
	t1=$(date +%s)
	expect_grep "$tmp/err" 'needs .*TiB.*(MemAvailable|MemTotal)' \
		"over-large size refused before allocating: message names size and memory ($((t1 - t0)) s)"
}

# with_roi CMD...: run CMD with PERF_CTL_FD=3 / PERF_ACK_FD=4 on fifos
# answered the way perf answers ("ack\n" and a NUL). The commands CMD
# sent are left in $tmp/roi.log, one per line.
with_roi() {
	local rc responder

	rm -f "$tmp/ctl" "$tmp/ack" "$tmp/roi.log"
	mkfifo "$tmp/ctl" "$tmp/ack" || return 99
	: >"$tmp/roi.log"
	(
		while IFS= read -r cmd; do
			printf '%s\n' "$cmd" >>"$tmp/roi.log"
			printf 'ack\n\000'
		done <"$tmp/ctl" >"$tmp/ack"
	) &
	responder=$!
	PERF_CTL_FD=3 PERF_ACK_FD=4 "$@" 3>"$tmp/ctl" 4<"$tmp/ack"
	rc=$?
	wait "$responder"
	return $rc
}

# check_roi DESC CMD...: CMD speaks the ROI protocol: exactly "enable"
# then "disable", each acknowledged, and still succeeds.
check_roi() {
	local desc=$1 got
	shift
	expect_rc 0 "$desc under the ROI protocol" with_roi "$@" || return
	got=$(tr '\n' ' ' <"$tmp/roi.log")
	if [ "$got" = "enable disable " ]; then
		pass "ROI: enable before disable, each once"
	else
		fail "ROI: control fd got '$got', wanted 'enable disable '"
	fi
	if grep -q 'PERF_ACK_FD' "$tmp/err"; then
		fail "ROI: acks were not understood"
		show_output
	else
		pass "ROI: acks understood (no warning)"
	fi
}

# check_metric_fd DESC NAMES CMD...: run CMD with THPBENCH_METRIC_FD=3 on
# a file; each of NAMES (space separated) must be there. Leaves the file
# in $tmp/metrics.
check_metric_fd() {
	local desc=$1 names=$2 n
	shift 2
	THPBENCH_METRIC_FD=3 "$@" >"$tmp/out" 2>"$tmp/err" 3>"$tmp/metrics"
	n=$?
	if [ "$n" -ne 0 ]; then
		fail "$desc with a metric fd: exit $n"
		show_output
		return 1
	fi
	for n in $names; do
		expect_metric "$tmp/metrics" "$n"
	done
}

# vmstat_count NAME: a /proc/vmstat counter (empty when the kernel lacks it).
vmstat_count() {
	awk -v n="$1" '$1 == n { print $2 }' /proc/vmstat
}

# thp_refused BEFORE: did a THP fault fall back since thp_fault_fallback
# was BEFORE? Then no THP could be had (free memory's to decide, and
# system-wide: another process's fallback counts too); when none fell
# back, a region without THPs is the workload's fault.
thp_refused() {
	[ "$(vmstat_count thp_fault_fallback)" -gt "${1:-0}" ] 2>/dev/null
}

thp_enabled() {
	sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled \
		2>/dev/null
}

# build_no_thp: $tmp/no_thp CMD... runs CMD with prctl(PR_SET_THP_DISABLE)
# (inherited across exec), so the "no THP -> exit 3" path can be tested
# without touching the global THP mode. 1 when there is no C compiler.
build_no_thp() {
	[ -x "$tmp/no_thp" ] && return 0
	${CC:-cc} -x c -o "$tmp/no_thp" - <<'CSRC' 2>/dev/null
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	if (argc < 2 || prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)) {
		perror("no_thp");
		return 2;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 2;
}
CSRC
}
