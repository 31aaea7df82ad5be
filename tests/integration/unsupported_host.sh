#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A host without a feature is no error (issue 22, defect 5). On a fake mm
# sysfs tree with a 2 MiB pool only and a fake /proc whose CPU lacks
# pdpe1gb (THPBENCH_PROC_ROOT; the real knobs are never touched): the
# 1 GiB case is "not measurable here", said once with the cause, never
# run, recorded in extra.unsupported, and its claim is "not measurable"
# naming the cause; a workload that fails shows its last stderr line in
# the table and in results.json, not only its exit status.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

[ "$(id -u)" = 0 ] || { echo "skip: the pool cases need root (the knobs are a fake tree)"; exit 77; }
root=$TMPD/mm
put() { mkdir -p "$(dirname "$1")" && printf '%s\n' "$2" > "$1"; }
put "$root/transparent_hugepage/enabled" 'always [madvise] never'
put "$root/hugepages/hugepages-2048kB/nr_hugepages" 0
put "$root/hugepages/hugepages-2048kB/nr_overcommit_hugepages" 0
put "$TMPD/proc/cpuinfo" "$(printf 'processor\t: 0\nflags\t\t: fpu pse pae sse2 ht')"
put "$TMPD/proc/cmdline" 'ro quiet'
export THPBENCH_SYSFS_ROOT="$root" THPBENCH_STATE_DIR="$TMPD/state" THPBENCH_PROC_ROOT="$TMPD/proc"

cat > "$TMPD/s.conf" <<'CONF'
[suite]
repetitions = 3
warmup = 0
thp = current

[case clear_2M]
workload = /bin/true
hugetlb.2048kB = 4
expect_huge = no

[case clear_1G]
workload = /bin/true
hugetlb.1048576kB = 2
expect_huge = no

[case short]
workload = /bin/sh
args = -c "echo working; echo 'the pool has 1014 free, it needs 1024' >&2; exit 1"

[claim c1]
posting = 001
comparison = 1 GiB vs 2 MiB
metric = wall_usec
base = clear_2M/thp=madvise
new = clear_1G/thp=madvise
better = lower
sense = faster
claimed = 2x
claimed_value = 2
CONF

$TB run "$TMPD/s.conf" -o "$TMPD/r" > "$TMPD/out" 2> "$TMPD/err"
check "exit 0: the host lacking 1 GiB pages is no failed suite" [ $? -eq 0 ]
check "the cause is said once, with the case it takes out" [ "$(grep -c '1 GiB' "$TMPD/err")" = 1 ]
check "the cause: this CPU has no 1 GiB pages" grep -q \
	"not measurable here: this CPU has no 1 GiB pages (no pdpe1gb flag in $TMPD/proc/cpuinfo); not run: clear_1G/thp=madvise" "$TMPD/err"
check "no knob error for the 1 GiB pool" sh -c "! grep -q 'nr_hugepages is not a writable\|clear_1G.*error' '$TMPD/err'"
check "the 1 GiB case never ran, its cause recorded" \
	[ "$(jq -r '.cases[] | select(.id == "clear_1G/thp=madvise") | "\(.runs | length) \(.extra.unsupported)"' "$TMPD/r/results.json")" = \
	  "0 this CPU has no 1 GiB pages (no pdpe1gb flag in $TMPD/proc/cpuinfo)" ]
check "the table says not measurable here" \
	grep -q '^ clear_1G/thp=madvise: not measurable here: this CPU has no 1 GiB pages' "$TMPD/out"
check "the claim is not measurable, naming the cause" \
	[ "$(jq -r '.meta.claims[0] | "\(.verdict): \(.reason)"' "$TMPD/r/results.json")" = \
	  "not measurable: clear_1G/thp=madvise not measurable here: this CPU has no 1 GiB pages (no pdpe1gb flag in $TMPD/proc/cpuinfo)" ]
check "the 2 MiB case ran" \
	[ "$(jq '[.cases[] | select(.id == "clear_2M/thp=madvise") | .runs[] | select(.status == "ok")] | length' "$TMPD/r/results.json")" = 3 ]
check "a failed workload's last stderr line is in the table" \
	grep -q 'run 1: failed: exited with status 1: the pool has 1014 free, it needs 1024$' "$TMPD/out"
check "and in results.json" \
	[ "$(jq -r '.cases[] | select(.id == "short/thp=madvise") | .runs[0].reason' "$TMPD/r/results.json")" = \
	  "exited with status 1: the pool has 1014 free, it needs 1024" ]
check "its output still reaches its log" grep -q '^the pool has 1014 free' "$TMPD/r/logs/short_thp_madvise.log"
check "the fake pool is back to 0" [ "$(cat "$root/hugepages/hugepages-2048kB/nr_hugepages")" = 0 ]
finish
