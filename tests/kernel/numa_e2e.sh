#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Seed 004's mechanism in a 2-node guest, end to end (builds the kernel
# the first time, boots qemu: TCG here, a few minutes). Not part of `make
# check`; `make numa-e2e` runs it.
#
# Runs configs/numa.conf with ./run.sh guest --nodes 2 --cpus 2
# --gib-pages 1 and asserts counts, never times: the guest has 2 nodes
# (numa=fake=2) and its 1 GiB pool; the threads ran on CPUs of both
# nodes; under THP always each thread finds between a third and two
# thirds of its pages on the other node, under never fewer than 5%; the
# claim table calls the placement claim (004-numa) reproduced and the
# timing claim (004) not measurable, because the nodes are emulated.
# Exit 0 pass, 1 fail, 2 when the flow itself failed.
set -uo pipefail

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO_DIR" || exit 2
fails=0
fail() { echo "numa-e2e: FAIL: $*"; fails=$((fails + 1)); }

out=$REPO_DIR/results/numa-e2e-$(date +%Y%m%d-%H%M%S)
kernel-patches/scripts/guest.sh configs/numa.conf --nodes 2 --cpus 2 --mem 6G \
	--gib-pages 1 --out "$out" || { echo "numa-e2e: guest.sh failed"; exit 2; }
res=$out/results.json

[ "$(jq -r .env.numa_nodes "$res")" = 2 ] || fail "env.numa_nodes is $(jq -c .env.numa_nodes "$res"), want 2"
jq -r .env.cmdline "$res" | grep -q 'numa=fake=2' || fail "the guest's command line lacks numa=fake=2"
jq -r .env.cmdline "$res" | grep -q 'hugepages=1' || fail "the guest's command line lacks the 1 GiB pool"
[ "$(jq -r '.env.hugetlb["1048576kB"]' "$res")" = 1 ] ||
	fail "the 1 GiB pool in the guest: $(jq -c .env.hugetlb "$res"), want 1048576kB: 1"

# Per-thread remote shares of every ok run, "case t0 t1" lines.
shares() {
	jq -r --arg id "interleave/thp=$1" '.cases[] | select(.id == $id) | .runs[]
		| select(.status == "ok") | [.metrics["remote_share.t0"], .metrics["remote_share.t1"]]
		| map(tostring) | join(" ")' "$res"
}
# Every thread of every ok run of THP mode $1 has a remote share in ($2, $3).
shares_within()
{
	local n=0 t0 t1 s
	while read -r t0 t1; do
		n=$((n + 1))
		for s in $t0 $t1; do
			awk -v s="$s" -v lo="$2" -v hi="$3" 'BEGIN { exit !(s > lo && s < hi) }' ||
				fail "THP $1: a thread's remote share is $s, want it in ($2, $3)"
		done
	done < <(shares "$1")
	[ "$n" -ge 3 ] || fail "THP $1: $n ok runs, want 3"
}
shares_within always 0.33 0.67
shares_within never -1 0.05
nodes=$(jq -r '[.cases[].runs[] | select(.status == "ok") | "\(.metrics["node.t0"]) \(.metrics["node.t1"])"] | unique | join(",")' "$res")
[ "$nodes" = "0 1" ] || fail "the two threads ran on nodes '$nodes', want 0 and 1 in every run"
claim() { jq -r --arg id "$1" '.meta.claims[] | select(.id == $id) | .verdict' "$res"; }
[ "$(claim 004-numa)" = reproduced ] || fail "claim 004-numa: $(claim 004-numa), want reproduced"
[ "$(claim 004)" = "not measurable" ] || fail "claim 004 (timing): $(claim 004), want not measurable"
jq -r '.meta.claims[] | select(.id == "004") | .reason' "$res" | grep -q emulated ||
	fail "claim 004's reason does not say the nodes are emulated"
grep -q 'NUMA nodes emulated' "$out/summary.txt" || fail "the printed table does not say the nodes are emulated"
echo "numa-e2e: remote shares (t0 t1) always: $(shares always | paste -sd,), never: $(shares never | paste -sd,)"
[ "$fails" -eq 0 ] || { echo "numa-e2e: $fails failure(s)"; exit 1; }
echo "numa-e2e: pass"
