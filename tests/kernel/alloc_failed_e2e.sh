#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make alloc-failed-e2e: the two allocation-failure cases of
# configs/thp-paths.conf on this host, through the harness (about a
# minute: the "pinned" memory state breaks up and mlocks every free
# 2 MiB block before each; not in check, whose tests take <= 30 s).
#
# For the workloads' own memory, with vm/compact_unevictable_allowed 0:
# - collapse --each: every MADV_COLLAPSE that returned ENOMEM
#   (alloc_failed) was one thp_collapse_alloc_failed; none returned it:
#   the host still had a block (skip, said so);
# - zero_page: every read-faulted range that fell back to the 4 KiB zero
#   page (zero_fallback_ranges) was one thp_zero_page_alloc_failed; none
#   fell back: reclaim or compaction found a block for the huge zero folio
#   (skip, said so).
# And after the run: no fragmenter, compact_unevictable_allowed as before.
# Needs root; run it under `flock /work/host.lock` where the host is shared.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
case "${1:-}" in
-h|--help)
	sed -n '4,/^$/s/^# \{0,1\}//p' "$0"
	exit 0 ;;
esac
cd "$(dirname "$0")/../.." || exit 2
. tests/workloads/lib.sh
TB=./harness/thpbench
K=/proc/sys/vm/compact_unevictable_allowed
[ "$(id -u)" = 0 ] || skip_all "needs root (the pinned memory state, knobs)"
[ -w $K ] || skip_all "no writable $K (CONFIG_COMPACTION off)"
before=$(cat $K)

awk '/^\[case collapse-alloc-failed\]/,0' configs/thp-paths.conf |
	sed "s#^workload = collapse#workload = $PWD/workloads/collapse#;
	     s#^workload = zero_page#workload = $PWD/workloads/zero_page#" \
	> "$tmp/cases"
grep -q '^\[case zero-page-alloc-failed\]' "$tmp/cases" ||
	{ fail "configs/thp-paths.conf lacks the two cases"; finish; }
{ printf '[suite]\nname = alloc-failed-e2e\n\n'; cat "$tmp/cases"; } > "$tmp/s.conf"
$TB run "$tmp/s.conf" -o "$tmp/out" --wait=300 --progress none > "$tmp/run.log" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "the two cases ran (exit 0)" ||
	{ fail "thpbench run exit $rc"; tail -20 "$tmp/run.log"; }

val() { sed -n "s/^$2 //p" "$1" | head -1; }
log=$(ls "$tmp/out/logs/collapse-alloc-failed"_* 2>/dev/null | head -1)
if [ -z "$log" ]; then
	fail "collapse-alloc-failed: no log"
elif ! grep -qx ok "$log"; then
	fail "collapse-alloc-failed: no 'ok'"; tail -5 "$log"
else
	af=$(val "$log" alloc_failed); caf=$(val "$log" thp_collapse_alloc_failed)
	if [ "${af:-0}" -ge 1 ]; then
		pass "collapse: $af MADV_COLLAPSEs of ours found no huge page"
		[ "${caf:-0}" -ge "$af" ] &&
			pass "collapse: thp_collapse_alloc_failed rose by $caf >= $af" ||
			fail "collapse: thp_collapse_alloc_failed '$caf' < $af"
	else
		skip "collapse: every range got its huge page (the host still had a free 2 MiB block)"
	fi
fi
log=$(ls "$tmp/out/logs/zero-page-alloc-failed"_* 2>/dev/null | head -1)
if [ -z "$log" ]; then
	fail "zero-page-alloc-failed: no log"
elif ! grep -qx ok "$log"; then
	fail "zero-page-alloc-failed: no 'ok'"; tail -5 "$log"
else
	zf=$(val "$log" zero_fallback_ranges); zaf=$(val "$log" thp_zero_page_alloc_failed)
	if [ "${zf:-0}" -ge 1 ]; then
		pass "zero page: $zf read-faulted ranges of ours got the 4 KiB zero page"
		[ "${zaf:-0}" -ge "$zf" ] &&
			pass "zero page: thp_zero_page_alloc_failed rose by $zaf >= $zf" ||
			fail "zero page: thp_zero_page_alloc_failed '$zaf' < $zf"
	else
		skip "zero page: every range mapped the huge zero page (it was kept, or reclaim/compaction found it a block)"
	fi
fi
pgrep -x fragment > /dev/null && fail "a fragmenter is still running" ||
	pass "no fragmenter left"
[ "$(cat $K)" = "$before" ] && pass "compact_unevictable_allowed is back to $before" ||
	fail "compact_unevictable_allowed reads $(cat $K), was $before"
finish
