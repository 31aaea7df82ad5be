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
# nodes; under THP always the threads' mean share of pages on the other
# node is about half (0.4 to 0.6; each thread's is a race), under never
# each thread's is under 5%; the claim table calls the placement claim
# (004-numa) reproduced and the timing claim (004) not measurable,
# because the nodes are emulated, and cites the RFC for the fault counts.
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

# Remote shares of every ok run of THP mode $1: "mean t0 t1" lines.
shares() {
	jq -r --arg id "interleave/thp=$1" '.cases[] | select(.id == $id) | .runs[]
		| select(.status == "ok") | .metrics
		| [.remote_share, .["remote_share.t0"], .["remote_share.t1"]]
		| map(tostring) | join(" ")' "$res"
}
# $2 (an awk condition on m, the mean, and a, b, the threads' shares)
# holds in each of at least 3 ok runs of THP mode $1.
shares_hold()
{
	local n=0 m a b
	while read -r m a b; do
		n=$((n + 1))
		awk -v m="$m" -v a="$a" -v b="$b" "BEGIN { exit !($2) }" ||
			fail "THP $1: remote shares $m (mean), $a, $b (threads): want $2"
	done < <(shares "$1")
	[ "$n" -ge 3 ] || fail "THP $1: $n ok runs, want 3"
}
# Under always each 2 MiB region sits on its first toucher's node: the
# threads' shares add up to about 1 (who touched more first is a race),
# about half on average; under never each page is on its toucher's node.
shares_hold always 'm > 0.4 && m < 0.6'
shares_hold never 'a < 0.05 && b < 0.05'
nodes=$(jq -r '[.cases[].runs[] | select(.status == "ok") | "\(.metrics["node.t0"]) \(.metrics["node.t1"])"] | unique | join(",")' "$res")
[ "$nodes" = "0 1" ] || fail "the two threads ran on nodes '$nodes', want 0 and 1 in every run"
claim() { jq -r --arg id "$1" '.meta.claims[] | select(.id == $id) | .verdict' "$res"; }
[ "$(claim 004-numa)" = reproduced ] || fail "claim 004-numa: $(claim 004-numa), want reproduced"
[ "$(claim 004)" = "not measurable" ] || fail "claim 004 (timing): $(claim 004), want not measurable"
jq -r '.meta.claims[] | select(.id == "004") | .reason' "$res" | grep -q emulated ||
	fail "claim 004's reason does not say the nodes are emulated"
grep -q 'NUMA nodes emulated' "$out/summary.txt" || fail "the printed table does not say the nodes are emulated"
# The fault counts 004-faults is judged against are the RFC's, not the
# reply's in seeds/: the table must say where they come from.
grep -q 'source: RFC.*61,644 vs 31,250,840 faults' "$out/summary.txt" ||
	fail "the printed table does not cite the RFC's fault counts (004-faults)"
echo "numa-e2e: remote shares (mean t0 t1) always: $(shares always | paste -sd,); never: $(shares never | paste -sd,)"
[ "$fails" -eq 0 ] || { echo "numa-e2e: $fails failure(s)"; exit 1; }
echo "numa-e2e: pass"
