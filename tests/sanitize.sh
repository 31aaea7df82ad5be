#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The unit tests and a CLI smoke under AddressSanitizer + UBSan + leak
# checking: tests/sanitize.sh SAN_DIR (built by `make sanitize`). Every
# report goes to a log file; any log file is a failure, whatever exit
# status the command itself was expected to have.
set -u
san=$1
logs=$(mktemp -d)
T=$(mktemp -d)
trap 'rm -rf "$logs" "$T"' EXIT
export ASAN_OPTIONS="detect_leaks=1:log_path=$logs/asan:halt_on_error=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:log_path=$logs/ubsan:halt_on_error=1"
export LSAN_OPTIONS="log_path=$logs/lsan"
fail=0
n=0

run() {
	want=$1
	shift
	n=$((n + 1))
	"$@" > "$T/out" 2>&1
	rc=$?
	if [ "$want" != any ] && [ "$rc" -ne "$want" ]; then
		echo "FAIL: $* exited $rc, expected $want"
		tail -5 "$T/out"
		fail=1
	fi
}

for t in "$san"/tests/unit/*/test_*; do
	case $t in
	*.o | *.d) continue ;;
	# counts the page faults of a fork of itself: ASan's own differ
	*/test_counters) continue ;;
	esac
	run 0 "$t"
done
TB=$san/thpbench
export THPBENCH_GNUPLOT=
# A fake sysfs tree and state dir: settings are applied, journaled and
# restored without touching the machine's knobs or its lock.
mkdir -p "$T/mm/transparent_hugepage/khugepaged" "$T/mm/hugepages/hugepages-2048kB"
echo "always [madvise] never" > "$T/mm/transparent_hugepage/enabled"
echo "always defer [madvise] never" > "$T/mm/transparent_hugepage/defrag"
echo 511 > "$T/mm/transparent_hugepage/khugepaged/max_ptes_none"
echo 0 > "$T/mm/hugepages/hugepages-2048kB/nr_hugepages"
export THPBENCH_SYSFS_ROOT="$T/mm" THPBENCH_STATE_DIR="$T/state"
run 0 "$TB" list
run 0 "$TB" run -r 2 --warmup 1 --thp madvise,never -e task-clock,page-faults -o "$T/r" -- /bin/true
run 3 "$TB" run -r 1 --warmup 0 -o "$T/f" -- /bin/false
run 0 "$TB" run -r 1 --warmup 0 --timeout 5 -o "$T/l" -- /bin/sh -c 'sleep 60 & exit 0'
printf '[case a]\nworkload = x\nargs = -a\nargs = "x\n' > "$T/bad.conf"
run 2 "$TB" run "$T/bad.conf"
run any "$TB" compare tests/fixtures/compare/base.json tests/fixtures/compare/new.json
run 0 "$TB" plot tests/fixtures/plot/thp.json -o "$T/p"
run 2 "$TB" compare "$T/r/results.json" "$T/r/results.json"
run 0 "$TB" restore
[ "$(sed 's/.*\[\(.*\)\].*/\1/' "$T/mm/transparent_hugepage/enabled")" = madvise ] || {
	echo "FAIL: the fake THP mode was not restored"
	fail=1
}
reports=$(ls "$logs" | wc -l)
if [ "$reports" -ne 0 ]; then
	for f in "$logs"/*; do
		echo "--- $f"
		head -40 "$f"
	done
	fail=1
fi
echo "sanitize: $n commands under ASan+UBSan+LSan, $reports report(s)"
exit $fail
