#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The confirmation A/B for real (issue 32): a nightly history on this
# machine made of guest runs under qemu, then `./run.sh nightly --confirm
# qemu`. Not part of `make check` (it boots kernels: ~15 minutes under
# TCG here); `make confirm-e2e` runs it.
#
#   tests/kernel/confirm_e2e.sh
#   CONFIRM_E2E_NIGHTS=DIR  reuse the guest runs of an earlier call (DIR is
#                           its ab.sh directory: A-1..A-4, B-1) instead of
#                           booting them again
#
#  1. kernel A (stock 6.1, tinyconfig) and B (A + 000-mremap-thp-pmd-move)
#     from the A/B cache ($THPBENCH_BUILD_DIR, built when missing, under
#     flock /work/kbuild.lock where that lock exists);
#  2. the nights: ab.sh --boots 4 gives four guest runs of A and one of B
#     (the 000 suite, 8 repetitions); each is recorded as a night with
#     ./run.sh nightly --results FILE --kernel-id ID (the kernel's cache id):
#     three nights of A, then the night of B with --confirm qemu;
#  3. asserts: that night raises the watch, the confirmation boots A and B
#     (A B A B, 2 boots x 8 repetitions a kernel), the gate fails (exit 1)
#     on vmstat.thp_split_pmd with the confirmation's verdict (changed)
#     printed, and the confirmations table holds it;
#  4. a night of kernel A again, --confirm qemu: the gate passes and the
#     confirmation is not triggered.
# Exit 0 pass, 1 fail, 2 when the flow itself failed.
set -uo pipefail

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO_DIR" || exit 2
for tool in jq sqlite3 qemu-system-x86_64; do
	command -v $tool >/dev/null || { echo "confirm-e2e: skip: $tool not installed"; exit 77; }
done
export THPBENCH_BUILD_DIR=${THPBENCH_BUILD_DIR:-$REPO_DIR/build/ab}
WORK=$REPO_DIR/results/confirm-e2e-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$WORK" || exit 2
fails=0
fail() { echo "confirm-e2e: FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "confirm-e2e: ok: $*"; }
say() { echo "confirm-e2e: $*"; }
t0=$(date +%s)

build() { # [--series DIR]: the kernel's cache directory
	if [ -e /work/kbuild.lock ]; then
		flock /work/kbuild.lock kernel-patches/scripts/build-kernel.sh "$@"
	else
		kernel-patches/scripts/build-kernel.sh "$@"
	fi
}
kA=$(build | tail -n 1) && kB=$(build --series kernel-patches/000-mremap-thp-pmd-move | tail -n 1) ||
	{ say "building the kernels failed"; exit 2; }
idA=$(basename "$kA") idB=$(basename "$kB")
say "kernel A $idA, kernel B $idB ($THPBENCH_BUILD_DIR/kernels)"
SUITE=kernel-patches/000-mremap-thp-pmd-move/suite.conf

nights=${CONFIRM_E2E_NIGHTS:-}
if [ -z "$nights" ]; then
	nights=$WORK/nights
	kernel-patches/scripts/ab.sh --kernel-a "$kA/bzImage:$kA/config" \
		--kernel-b "$kB/bzImage:$kB/config" --suite "$SUITE" --boots 4 --reps 8 \
		--name confirm-e2e-nights --out "$nights" >"$WORK/nights.log" 2>&1 ||
		{ tail -n 20 "$WORK/nights.log"; say "the guest runs failed ($WORK/nights.log)"; exit 2; }
fi
for f in A-1 A-2 A-3 A-4 B-1; do
	[ -f "$nights/$f/results.json" ] || { say "no $nights/$f/results.json"; exit 2; }
done
t_nights=$(($(date +%s) - t0))

# A guest run as the night of a nightly: one night a day, and without the
# A/B label ab.sh gives each guest (a label is part of the case, so it
# would make two series of one).
night() { # N FILE: the night's results file
	jq --arg t "2026-11-$((10 + $1))T02:00:00Z" 'del(.cases[].label) | .env.started = $t' \
		"$nights/$2/results.json" >"$WORK/night-$1.json"
}
DB=$WORK/history.sqlite
nightly() { # N FILE KERNEL_ID [ARGS]
	n=$1 f=$2 k=$3
	shift 3
	night "$n" "$f" || exit 2
	./run.sh nightly --results "$WORK/night-$n.json" --kernel-id "$k" --machine e2e-qemu \
		--db "$DB" --suite "$SUITE" -o "$WORK/out-$n" "$@" >"$WORK/nightly-$n.log" 2>&1
}
for i in 1 2 3; do
	nightly $i A-$i "$idA"
	[ $? -eq 0 ] || fail "night $i (kernel A) fails the gate ($WORK/nightly-$i.log)"
done

t1=$(date +%s)
nightly 4 B-1 "$idB" --confirm qemu
rc=$?
t_confirm=$(($(date +%s) - t1))
log=$WORK/nightly-4.log
cat "$log"
[ $rc -eq 1 ] && ok "the night of B with --confirm qemu fails the gate (exit 1)" ||
	fail "the night of B: exit $rc, want 1 ($log)"
grep -q "confirmation 1: kernel $idA (last good) against $idB (suspect)" "$log" &&
	ok "the confirmation booted A ($idA) and B ($idB)" || fail "no confirmation of $idA against $idB"
grep -q "^confirmation [0-9a-f]*: mremap/thp=always vmstat.thp_split_pmd ($idA vs $idB): changed" "$log" &&
	ok "its verdict on vmstat.thp_split_pmd: changed" || fail "no verdict 'changed' on vmstat.thp_split_pmd"
grep -q "^FAIL e2e-qemu .* vmstat.thp_split_pmd: " "$log" &&
	ok "the gate fails on vmstat.thp_split_pmd" || fail "the gate does not fail on vmstat.thp_split_pmd"
grep -q "confirmation (A B A B, qemu $idA vs $idB, 16 vs 16 runs): changed .*confirmed: the gate decides on it" "$log" &&
	ok "  with the confirmation's verdict printed (16 vs 16 runs)" || fail "the confirmation's verdict not printed beside the watch"
row=$(sqlite3 "$DB" "SELECT verdict, kernel_a, kernel_b, method, na, nb FROM confirmations WHERE metric = 'vmstat.thp_split_pmd'")
[ "$row" = "changed|$idA|$idB|qemu|16|16" ] && ok "recorded in the history: $row" || fail "confirmations row: '$row'"
grep -q "confirm-qemu: A ($idA) and B ($idB), 2 boots each" "$log" || fail "the qemu runner did not run"

nightly 5 A-4 "$idA" --confirm qemu
rc=$?
cat "$WORK/nightly-5.log"
[ $rc -eq 0 ] && ok "a night of kernel A again passes the gate" || fail "the night of A again: exit $rc ($WORK/nightly-5.log)"
grep -q "confirmation: not triggered" "$WORK/nightly-5.log" &&
	ok "  and confirms nothing (not triggered)" || fail "the night of A again triggered a confirmation"
[ ! -d "$WORK/out-5/confirm/1" ] || fail "the night of A again booted kernels"

say "guest runs for the nights $t_nights s; the night with its confirmation $t_confirm s (load $(cut -d' ' -f1 /proc/loadavg)); $WORK"
[ $fails -eq 0 ] && { say "passed"; exit 0; }
say "$fails check(s) failed"
exit 1
