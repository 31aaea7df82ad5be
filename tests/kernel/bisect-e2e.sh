#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel bisection end to end (builds kernels, boots qemu: tens of
# minutes here). Not part of `make check`; `make bisect-e2e` runs it.
#
#   tests/kernel/bisect-e2e.sh
#   E2E_K=N (default 11): the commit (1..15) that applies 000's patch
#   E2E_BROKEN=N (default 7): the commit that does not build (N+1 fixes it)
#   E2E_INT_AFTER=N (default 5): SIGINT once N runs are finished
#   E2E_LAVA=N: instead of 1-3, the counter bisected with --lava (each
#     boot a LAVA job, lava-run) on 1 device, then on N: both name commit
#     K, N devices in fewer rounds (make bisect-lava-e2e: N = 2)
#
# A synthetic history on Debian's linux-source-6.1 (the tree of the A/B
# flow): commit 0, the tarball as it is; commits 1..15 each add a comment
# to a file the tiny kernel compiles, and commit K also applies
# kernel-patches/000-mremap-thp-pmd-move (mremap splits huge PMDs); commit
# BROKEN also breaks mm/util.c, fixed by the next. Then, with that
# series' guest suite:
#   1. ./run.sh bisect on mremap:vmstat.thp_split_pmd, interrupted by
#      SIGINT to its process group after E2E_INT_AFTER runs (exit 130,
#      no qemu, make or compiler left, the finished runs kept), then
#      --resume: names commit K (exit 0); BROKEN is a skipped step;
#   2. the same on mremap:roi_usec (a timing, emulated under TCG): names
#      commit K too;
#   3. GOOD and BAD both without the patch (commits K+1.. are not: two
#      commits before K): "nothing to bisect", exit 3.
# Prints per run: steps, boots, repetitions, wall time, load average.
# The tree is made once (build/bisect-e2e/tree, a git repository of the
# tarball) and its history rewritten each time. Exit 0 pass, 1 fail,
# 2 when a flow itself failed.
set -uo pipefail

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO_DIR" || exit 2
K=${E2E_K:-11}
BROKEN=${E2E_BROKEN:-7}
INT_AFTER=${E2E_INT_AFTER:-5}
SRC=${E2E_KERNEL_SRC:-/usr/src/linux-source-6.1.tar.xz}
WORK=$REPO_DIR/build/bisect-e2e
SERIES=$REPO_DIR/kernel-patches/000-mremap-thp-pmd-move
BISECT=$REPO_DIR/kernel-patches/scripts/bisect.sh
fails=0
fail() { echo "bisect-e2e: FAIL: $*"; fails=$((fails + 1)); }
say() { echo "bisect-e2e: $*"; }
case "$K $BROKEN" in *[!0-9\ ]*) echo "E2E_K and E2E_BROKEN are numbers" >&2; exit 2 ;; esac
[ "$K" -ge 2 ] && [ "$K" -le 15 ] && [ "$BROKEN" -ge 1 ] && [ "$BROKEN" -le 14 ] &&
	[ "$BROKEN" != "$K" ] && [ "$BROKEN" != $((K - 1)) ] ||
	{ echo "need 2 <= E2E_K <= 15, 1 <= E2E_BROKEN <= 14, not K or K-1" >&2; exit 2; }
kernel-patches/scripts/install-deps.sh || exit 2
[ -f "$SRC" ] || { echo "no $SRC" >&2; exit 2; }
make -s || exit 2

# ---- The history.
tree=$WORK/tree
key=$(sha256sum < "$SRC" | cut -c1-16)
if [ "$(cat "$WORK/tree.key" 2>/dev/null)" != "$key" ]; then
	say "making the base tree from $SRC (once)"
	rm -rf "$tree" "$WORK/tree.key"
	mkdir -p "$tree"
	tar -xf "$SRC" -C "$tree" --strip-components=1 || exit 2
	git -C "$tree" init -q || exit 2
	# Debian's top .gitignore ignores every top-level entry: add by force.
	git -C "$tree" add -f -A && git -C "$tree" -c user.name=base -c user.email=base@localhost \
		commit -q -m "Linux 6.1 (Debian linux-source-6.1)" || exit 2
	git -C "$tree" tag -f e2e-base > /dev/null
	echo "$key" > "$WORK/tree.key"
fi
git -C "$tree" checkout -q -f -B e2e e2e-base || exit 2
git -C "$tree" clean -q -fdx
files=(kernel/sys.c mm/util.c fs/open.c lib/string.c kernel/fork.c)
for i in $(seq 1 15); do
	f=${files[$((i % ${#files[@]}))]}
	printf '/* bisect e2e: harmless change %d */\n' "$i" >> "$tree/$f"
	git -C "$tree" add -f "$f"
	if [ "$i" = "$K" ]; then
		git -C "$tree" apply --index "$SERIES"/0001-*.patch || exit 2
	fi
	if [ "$i" = "$BROKEN" ]; then
		printf 'this does not compile;\n' >> "$tree/mm/util.c"
		git -C "$tree" add -f mm/util.c
	fi
	if [ "$i" = $((BROKEN + 1)) ]; then
		sed -i '/^this does not compile;$/d' "$tree/mm/util.c"
		git -C "$tree" add -f mm/util.c
	fi
	msg="e2e: harmless change $i"
	[ "$i" != "$K" ] || msg="mm/mremap: split huge PMD instead of moving it (e2e commit $i)"
	[ "$i" != "$BROKEN" ] || msg="e2e: harmless change $i (does not build)"
	GIT_COMMITTER_DATE="2026-01-01T00:00:$(printf %02d "$i")" \
		git -C "$tree" -c user.name="E2E Author" -c user.email=e2e@example.org \
		commit -q --date="2026-01-01T00:00:$(printf %02d "$i")" -m "$msg" || exit 2
done
sha() { git -C "$tree" rev-parse "e2e~$((15 - $1))"; }
want=$(sha "$K")
say "history: 15 commits on $(sha 0 | cut -c1-12); the patch in commit $K ($(echo "$want" | cut -c1-12)), commit $BROKEN does not build"

stamp=$(date +%Y%m%d-%H%M%S)
summary=()
# Steps, boots and repetitions of a finished run's report.json.
tally()
{
	jq -r --argjson last "$(( $(jq .commits "$1") - 1 ))" '
		[.steps[] | select(.index != 0 and .index != $last)] as $s |
		"\($s | length) steps (\([$s[] | select(.class == "skip")] | length) skipped), " +
		"\([.steps[].boots] | add) boots, \([.steps[].repetitions] | add) repetitions " +
		"(references \(.steps[0].repetitions)+\([.steps[] | select(.index == $last)][0].repetitions); steps \([$s[] | .repetitions] | map(tostring) | join(",")))"' "$1"
}
leftover()
{
	pgrep -af "qemu-system-x86_64.*$1|$REPO_DIR/build/ab/obj|cc1 .*$REPO_DIR/build/ab" | grep -v "^$$ " || true
}

# ---- E2E_LAVA=N: the counter with LAVA jobs, 1 device and N.
if [ -n "${E2E_LAVA:-}" ]; then
	case $E2E_LAVA in *[!0-9]*|''|0|1) echo "E2E_LAVA must be a number >= 2" >&2; exit 2 ;; esac
	kernel-patches/scripts/install-deps.sh --lava || exit 2
	for d in 1 "$E2E_LAVA"; do
		o=$REPO_DIR/results/bisect-e2e-lava$d-$stamp
		t0=$(date +%s)
		rc=0
		"$BISECT" --tree "$tree" --good "$(sha 0)" --bad e2e --suite "$SERIES/suite.conf" \
			--metric mremap:vmstat.thp_split_pmd --lava --devices "$d" --out "$o" \
			> "$WORK/lava$d.log" 2>&1 || rc=$?
		got=$(jq -r .first_bad.sha "$o/report.json" 2>/dev/null)
		r=$(sed -n 's/.*LAVA: \([0-9]*\) rounds.*/\1/p' "$WORK/lava$d.log")
		eval "rounds_$d=\${r:-0}"
		say "--lava --devices $d: exit $rc, first bad ${got:0:12}, ${r:-?} rounds, $(tally "$o/report.json" 2>/dev/null), $(( $(date +%s) - t0 )) s"
		[ "$rc" = 0 ] && [ "$got" = "$want" ] || fail "--devices $d did not name commit $K (log $WORK/lava$d.log)"
	done
	eval "rn=\$rounds_$E2E_LAVA"
	[ "$rn" -gt 0 ] && [ "$rn" -lt "$rounds_1" ] && say "ok: $rn rounds with $E2E_LAVA devices, $rounds_1 with 1" ||
		fail "$E2E_LAVA devices took $rn rounds, 1 device $rounds_1"
	[ "$fails" = 0 ] || { say "$fails check(s) failed"; exit 1; }
	say "pass"
	exit 0
fi

# ---- 1. The counter, interrupted and resumed.
out1=$REPO_DIR/results/bisect-e2e-split-$stamp
args=(--tree "$tree" --good "$(sha 0)" --bad e2e --suite "$SERIES/suite.conf")
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
set -m
env --default-signal=INT "$BISECT" "${args[@]}" --metric mremap:vmstat.thp_split_pmd \
	--out "$out1" > "$WORK/run1.log" 2>&1 &
pid=$!
set +m
say "run 1 (vmstat.thp_split_pmd) started, log $WORK/run1.log; SIGINT after $INT_AFTER runs"
while kill -0 "$pid" 2>/dev/null; do
	n=$(find "$out1/runs" -mindepth 1 -maxdepth 1 -name '0*' 2>/dev/null | wc -l)
	[ "$n" -lt "$INT_AFTER" ] || break
	sleep 5
done
sleep 20	# into the next build or boot
kept=$(find "$out1/runs" -mindepth 1 -maxdepth 1 -name '0*' | wc -l)
ti=$(date +%s)
kill -INT -- "-$pid" 2>/dev/null
rc=0
wait "$pid" || rc=$?
[ "$rc" = 130 ] || fail "run 1 after SIGINT: exit $rc, want 130 ($(tail -n 3 "$WORK/run1.log"))"
[ $(($(date +%s) - ti)) -le 15 ] || fail "run 1 took $(($(date +%s) - ti)) s to stop after SIGINT"
sleep 2
left=$(leftover "$out1")
[ -z "$left" ] || fail "left running after SIGINT: $left"
say "run 1 interrupted after $kept finished runs (exit $rc), resuming"
rc=0
"$BISECT" --resume "$out1" >> "$WORK/run1.log" 2>&1 || rc=$?
t1=$(date +%s)
load1=$(cut -d' ' -f1-3 /proc/loadavg)
r=$out1/report.json
[ "$rc" = 0 ] || fail "run 1 resumed: exit $rc, want 0 ($(tail -n 5 "$WORK/run1.log"))"
[ "$(jq -r .first_bad.sha "$r" 2>/dev/null)" = "$want" ] ||
	fail "run 1: first bad $(jq -r .first_bad.sha "$r" 2>/dev/null), want commit $K $want"
[ "$(jq -r --arg b "$(sha "$BROKEN")" '.steps[] | select(.sha == $b) | .class' "$r" 2>/dev/null)" = skip ] ||
	fail "run 1: commit $BROKEN (does not build) is not a skipped step"
[ "$(find "$out1/runs" -mindepth 1 -maxdepth 1 -name '0*' | head -n "$kept" | wc -l)" = "$kept" ] ||
	fail "run 1: finished runs were lost in the resume"
summary+=("1 vmstat.thp_split_pmd: $(tally "$r" 2>/dev/null); wall $((t1 - t0)) s (interrupted and resumed); load $load0 -> $load1")

# ---- 2. The timing.
out2=$REPO_DIR/results/bisect-e2e-roi-$stamp
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
say "run 2 (roi_usec), log $WORK/run2.log"
rc=0
"$BISECT" "${args[@]}" --metric mremap:roi_usec --out "$out2" > "$WORK/run2.log" 2>&1 || rc=$?
t1=$(date +%s)
load1=$(cut -d' ' -f1-3 /proc/loadavg)
r=$out2/report.json
[ "$rc" = 0 ] || fail "run 2: exit $rc, want 0 ($(tail -n 5 "$WORK/run2.log"))"
[ "$(jq -r .first_bad.sha "$r" 2>/dev/null)" = "$want" ] ||
	fail "run 2: first bad $(jq -r .first_bad.sha "$r" 2>/dev/null), want commit $K $want"
summary+=("2 roi_usec: $(tally "$r" 2>/dev/null); wall $((t1 - t0)) s; load $load0 -> $load1")

# ---- 3. No real change between GOOD and BAD.
out3=$REPO_DIR/results/bisect-e2e-none-$stamp
t0=$(date +%s)
g3=$(( K >= 3 ? K - 3 : 0 ))
[ "$g3" != "$BROKEN" ] || g3=$((g3 - 1))
say "run 3 (nothing to bisect: commits $g3..$((K - 1))), log $WORK/run3.log"
rc=0
"$BISECT" --tree "$tree" --good "$(sha "$g3")" --bad "$(sha $((K - 1)))" \
	--suite "$SERIES/suite.conf" --metric mremap:vmstat.thp_split_pmd --reps 5 \
	--out "$out3" > "$WORK/run3.log" 2>&1 || rc=$?
t1=$(date +%s)
[ "$rc" = 3 ] || fail "run 3: exit $rc, want 3 ($(tail -n 5 "$WORK/run3.log"))"
grep -q "^Nothing to bisect" "$WORK/run3.log" || fail "run 3: no 'Nothing to bisect' line"
summary+=("3 no change: exit $rc, $(jq '[.steps[].boots] | add' "$out3/report.json" 2>/dev/null) boots; wall $((t1 - t0)) s")

echo
say "cpus $(nproc); results in $out1, $out2, $out3"
printf 'bisect-e2e: run %s\n' "${summary[@]}"
[ "$fails" -eq 0 ] || { echo "bisect-e2e: $fails failure(s)"; exit 1; }
echo "bisect-e2e: pass"
