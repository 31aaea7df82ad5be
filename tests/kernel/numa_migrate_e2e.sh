#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# THP migration in a 2-node guest, end to end (builds the kernel the
# first time, boots qemu: TCG here, several minutes). Not part of `make
# check`; `make numa-migrate-e2e` runs it (and `make numa-e2e` after seed
# 004's placement).
#
# Runs configs/thp-paths-numa.conf with ./run.sh guest --nodes 2 --cpus 2
# and asserts counts, never times: the guest has 2 nodes; each case
# (move_pages(2), mbind(MPOL_MF_MOVE), NUMA balancing with the harness
# setting kernel/numa_balancing, move_pages(2) to a node left with free
# 4 KiB pages but no free 2 MiB block) has 3 ok runs; in each run some THPs are
# still huge on node 1 afterwards (huge_at_dest, pagemap), each was
# migrated whole, so thp_migration_success >= huge_at_dest, and each is
# 512 pages there (pages_at_dest >= 512 x huge_at_dest); under balancing
# the PMDs were marked (numa_huge_pte_updates >= 1) and hint-faulted
# (numa_hint_faults >= 1), and numa_pages_migrated >= 512 x huge_at_dest.
# On the fragmented destination (migrate_split, the harness setting
# vm/compact_unevictable_allowed=0) some THPs arrive split (split_at_dest
# >= 1: all 512 pages on node 1, no THP; pagemap), each was counted failed
# and split by migrate_pages_batch(), so thp_migration_fail and
# thp_migration_split are each >= split_at_dest, and pages_at_dest >= 512 x
# (huge_at_dest + split_at_dest). Then `thpbench coverage` of the results
# lists thp_migration_success, _fail, _split and numa_huge_pte_updates as
# moved, each by its case (against a background of 0: the guest's
# initramfs has no `sleep` for run --background's idle intervals).
# Prints each run's figures and the coverage rows.
#
#   numa_migrate_e2e.sh [--results DIR]   DIR: check a finished guest run's
#                                          results instead of booting one
# Exit 0 pass, 1 fail, 2 when the flow failed.
set -uo pipefail

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO_DIR" || exit 2
fails=0
fail() { echo "numa-migrate-e2e: FAIL: $*"; fails=$((fails + 1)); }

case ${1:-} in
-h|--help) sed -n '4,/^set -uo/{/^set -uo/d; s/^# \{0,1\}//; p}' "$0"; exit 0 ;;
--results) out=${2:?--results takes a directory}
	[ -f "$out/results.json" ] || { echo "numa-migrate-e2e: no $out/results.json"; exit 2; } ;;
'') out=$REPO_DIR/results/numa-migrate-e2e-$(date +%Y%m%d-%H%M%S)
	t0=$(date +%s)
	kernel-patches/scripts/guest.sh configs/thp-paths-numa.conf --nodes 2 --cpus 2 \
		--mem 4G --out "$out" || { echo "numa-migrate-e2e: guest.sh failed"; exit 2; }
	echo "numa-migrate-e2e: guest run took $(($(date +%s) - t0)) s" ;;
*) echo "usage: $0 [--results DIR]" >&2; exit 2 ;;
esac
res=$out/results.json

[ "$(jq -r .env.numa_nodes "$res")" = 2 ] || fail "env.numa_nodes is $(jq -c .env.numa_nodes "$res"), want 2"

fields='huge_before huge_at_dest pages_at_dest thp_migration_success thp_migration_fail thp_migration_split pgmigrate_success numa_huge_pte_updates numa_hint_faults numa_pages_migrated roi_usec split_at_dest dest_free_2m plug_thps filler_kept'
# The figures of every ok run of case $1, one line each, in $fields' order.
runs() {
	jq -r --arg c "$1" --arg f "$fields" '.cases[] | select(.id | startswith($c + "/"))
		| .runs[] | select(.status == "ok") | .metrics as $m
		| [$f | splits(" ") | $m[.] // "-" | if type == "number" then round else . end | tostring] | join(" ")' "$res"
}

for c in migrate_move_pages migrate_mbind migrate_balancing; do
	n=0
	while read -r hb h p s f sp pg hpte hint nmig usec _; do
		n=$((n + 1))
		echo "numa-migrate-e2e: $c run $n: huge_before $hb huge_at_dest $h pages_at_dest $p" \
			"thp_migration_success $s _fail $f _split $sp pgmigrate_success $pg" \
			"numa_huge_pte_updates $hpte numa_hint_faults $hint numa_pages_migrated $nmig usec $usec"
		[ "$h" != - ] && [ "$h" -ge 1 ] 2>/dev/null ||
			{ fail "$c run $n: huge_at_dest '$h', want >= 1"; continue; }
		[ "$s" -ge "$h" ] || fail "$c run $n: thp_migration_success $s < huge_at_dest $h"
		[ "$p" -ge $((512 * h)) ] || fail "$c run $n: pages_at_dest $p < 512 x $h"
		if [ $c = migrate_balancing ]; then
			[ "$hpte" -ge 1 ] || fail "$c run $n: numa_huge_pte_updates $hpte, want >= 1"
			[ "$hint" -ge 1 ] || fail "$c run $n: numa_hint_faults $hint, want >= 1"
			[ "$nmig" -ge $((512 * h)) ] || fail "$c run $n: numa_pages_migrated $nmig < 512 x $h"
		fi
	done < <(runs $c)
	[ "$n" -ge 3 ] || fail "$c: $n ok runs, want 3"
done
c=migrate_split
n=0
while read -r hb h p s f sp pg _ _ _ usec split free2m plug kept; do
	n=$((n + 1))
	echo "numa-migrate-e2e: $c run $n: huge_before $hb huge_at_dest $h split_at_dest $split" \
		"pages_at_dest $p thp_migration_success $s thp_migration_fail $f" \
		"thp_migration_split $sp pgmigrate_success $pg (dest_free_2m $free2m plug_thps $plug" \
		"filler_kept $kept) usec $usec"
	[ "$split" != - ] && [ "$split" -ge 1 ] 2>/dev/null ||
		{ fail "$c run $n: split_at_dest '$split', want >= 1"; continue; }
	[ "$sp" -ge "$split" ] || fail "$c run $n: thp_migration_split $sp < split_at_dest $split"
	[ "$f" -ge "$split" ] || fail "$c run $n: thp_migration_fail $f < split_at_dest $split"
	[ "$h" = - ] || [ "$s" -ge "$h" ] || fail "$c run $n: thp_migration_success $s < huge_at_dest $h"
	[ "$h" = - ] || [ "$p" -ge $((512 * (h + split))) ] ||
		fail "$c run $n: pages_at_dest $p < 512 x ($h + $split)"
done < <(runs $c)
[ "$n" -ge 3 ] || fail "$c: $n ok runs, want 3"

# The coverage table of the same results: each counter moved by its case.
cov=$out/coverage.json
if harness/thpbench coverage "$res" --format json > "$cov"; then
	for pair in thp_migration_success:migrate_move_pages thp_migration_fail:migrate_split \
		    thp_migration_split:migrate_split numa_huge_pte_updates:migrate_balancing; do
		k=${pair%%:*} c=${pair#*:}
		by=$(jq -r --arg k "$k" '.counters[] | select(.counter == $k)
			| [.moved_by[] | "\(.case) \(.per_rep | if type == "number" then round else . end)/rep"]
			| join(", ")' "$cov")
		echo "numa-migrate-e2e: coverage: $k moved by: ${by:-nothing}"
		jq -e --arg k "$k" --arg c "$c" '.counters[] | select(.counter == $k)
			| .moved_by[] | select(.case | startswith($c + "/"))' "$cov" > /dev/null ||
			fail "coverage: $k not listed as moved by $c"
	done
else
	fail "thpbench coverage $res failed"
fi

[ "$fails" -eq 0 ] || { echo "numa-migrate-e2e: $fails failure(s)"; exit 1; }
echo "numa-migrate-e2e: pass"
