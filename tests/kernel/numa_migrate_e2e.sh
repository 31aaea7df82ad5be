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
# setting kernel/numa_balancing) has 3 ok runs; in each run some THPs are
# still huge on node 1 afterwards (huge_at_dest, pagemap), each was
# migrated whole, so thp_migration_success >= huge_at_dest, and each is
# 512 pages there (pages_at_dest >= 512 x huge_at_dest); under balancing
# the PMDs were marked (numa_huge_pte_updates >= 1) and hint-faulted
# (numa_hint_faults >= 1), and numa_pages_migrated >= 512 x huge_at_dest.
# Prints each run's figures. Exit 0 pass, 1 fail, 2 when the flow failed.
set -uo pipefail

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO_DIR" || exit 2
fails=0
fail() { echo "numa-migrate-e2e: FAIL: $*"; fails=$((fails + 1)); }

out=$REPO_DIR/results/numa-migrate-e2e-$(date +%Y%m%d-%H%M%S)
kernel-patches/scripts/guest.sh configs/thp-paths-numa.conf --nodes 2 --cpus 2 \
	--mem 4G --out "$out" || { echo "numa-migrate-e2e: guest.sh failed"; exit 2; }
res=$out/results.json

[ "$(jq -r .env.numa_nodes "$res")" = 2 ] || fail "env.numa_nodes is $(jq -c .env.numa_nodes "$res"), want 2"

fields='huge_before huge_at_dest pages_at_dest thp_migration_success thp_migration_fail thp_migration_split pgmigrate_success numa_huge_pte_updates numa_hint_faults numa_pages_migrated roi_usec'
# The figures of every ok run of case $1, one line each, in $fields' order.
runs() {
	jq -r --arg c "$1" --arg f "$fields" '.cases[] | select(.id | startswith($c + "/"))
		| .runs[] | select(.status == "ok") | .metrics as $m
		| [$f | splits(" ") | $m[.] // "-" | if type == "number" then round else . end | tostring] | join(" ")' "$res"
}

for c in migrate_move_pages migrate_mbind migrate_balancing; do
	n=0
	while read -r hb h p s f sp pg hpte hint nmig usec; do
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
[ "$fails" -eq 0 ] || { echo "numa-migrate-e2e: $fails failure(s)"; exit 1; }
echo "numa-migrate-e2e: pass"
