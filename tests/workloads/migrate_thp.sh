#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/migrate_thp (THP migration between NUMA nodes). On one node
# (this machine) every mode is exit 3, "not measurable here: one NUMA
# node", and the options are checked before that. With two nodes or more
# (a 2-node guest: tests/kernel/numa_migrate_e2e.sh runs the suite there)
# move_pages(2) and mbind(MPOL_MF_MOVE) each move the THPs to node 1:
# every range that is a THP on node 1 afterwards (pagemap + kpageflags,
# and move_pages(2)'s status query for the node) was migrated whole, so
# thp_migration_success (system-wide) is at least huge_at_dest, and each
# such THP is 512 pages at the destination; the data is checked by the
# workload (exit 1 otherwise).

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/migrate_thp
need_bin "$bin"

val() { sed -n "s/^$1 //p" "$tmp/out"; }

nodes=0
for d in /sys/devices/system/node/node[0-9]*; do
	grep -q 'MemTotal: *[1-9]' "$d/meminfo" && nodes=$((nodes + 1))
done

# Options are checked before the nodes: the same on any machine.
check_usage "$bin"
check_value_opt "$bin" --size
expect_rc 2 "--size 3M (not 2M steps) refused" "$bin" --size 3M
expect_rc 2 "unknown --mode refused" "$bin" --mode sideways &&
	expect_grep "$tmp/err" "--mode: 'sideways' is not" "unknown --mode: message names it"
expect_rc 2 "--from equal to --to refused" "$bin" --from 1 --to 1 &&
	expect_grep "$tmp/err" 'both node 1' "--from = --to: message says so"
expect_rc 2 "--min-huge over the ranges refused" "$bin" --size 4M --min-huge 3
expect_rc 2 "malformed --to refused" "$bin" --to x1
expect_rc 2 "zero --wait refused" "$bin" --wait 0
expect_rc 2 "--dest-fragmented with --mode balancing refused" \
	"$bin" --mode balancing --dest-fragmented &&
	expect_grep "$tmp/err" 'never splits' "--dest-fragmented + balancing: message says why"

if [ "$nodes" -lt 2 ]; then
	for mode in move_pages mbind balancing; do
		expect_rc 3 "one NUMA node ($nodes here), --mode $mode: exit 3" \
			"$bin" --mode $mode --size 4M &&
			expect_grep "$tmp/err" 'not measurable here: one NUMA node' \
				"--mode $mode: says not measurable here: one NUMA node"
	done
	expect_rc 3 "one NUMA node, --dest-fragmented: exit 3" \
		"$bin" --dest-fragmented --size 4M &&
		expect_grep "$tmp/err" 'not measurable here: one NUMA node' \
			"--dest-fragmented: says not measurable here: one NUMA node"
	if grep -q . "$tmp/out"; then
		fail "one node: nothing on stdout expected"
	else
		pass "one node: nothing measured, nothing printed on stdout"
	fi
	finish
fi

# Two nodes or more.
[ "$(id -u)" -eq 0 ] || skip_all "needs root: pagemap frame flags tell a THP at the destination"
expect_rc 2 "a node that does not exist refused" "$bin" --to 1023 &&
	expect_grep "$tmp/err" 'no such NUMA node' "no such node: message says so"

for mode in move_pages mbind; do
	"$bin" --mode $mode --size 16M >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 3 ]; then
		skip "--mode $mode: no THPs on node 0 to move now (exit 3)"
		continue
	fi
	if [ $rc -ne 0 ]; then
		fail "--mode $mode: exit $rc"
		show_output
		continue
	fi
	pass "--mode $mode: moved and verified (exit 0)"
	h=$(val huge_at_dest)
	s=$(val thp_migration_success)
	p=$(val pages_at_dest)
	if [ -n "$h" ] && [ "${s:-0}" -ge "$h" ]; then
		pass "--mode $mode: thp_migration_success $s >= $h THPs still huge at node 1"
	else
		fail "--mode $mode: thp_migration_success '$s', huge_at_dest '$h'"
	fi
	if [ -n "$h" ] && [ "${p:-0}" -ge $((h * 512)) ]; then
		pass "--mode $mode: pages_at_dest $p >= 512 x $h"
	else
		fail "--mode $mode: pages_at_dest '$p' < 512 x '$h'"
	fi
done

check_metric_fd "move_pages run" \
	"roi_usec ranges huge_before ranges_at_dest pages_at_dest moved_kb thp_migration_success thp_migration_fail thp_migration_split pgmigrate_success rss_kb" \
	"$bin" --size 4M --min-huge 0
check_roi "move_pages run" "$bin" --size 4M --min-huge 0

finish
