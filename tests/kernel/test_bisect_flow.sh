#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bisect.sh end to end without building or booting a kernel: a synthetic
# git history whose file "level" says what each commit's kernel does
# (vmstat.thp_split_pmd per run; roi_usec 1 ms at level 0, 3 ms at 256,
# log-normal noise, 5% or FAKE_CV), a stand-in build-kernel.sh (THPBENCH_BUILD_KERNEL)
# that fails where the tree has a file "broken", a stand-in qemu that
# answers with a real transfer block (init --emit) of the suite run at
# the repetitions in the initramfs, prebuilt static binaries. Checks:
# - 16 commits, the change at commit k = 11, commit 7 does not build:
#   the counter names commit 11 (exit 0) in 2 repetitions a step, 7 is
#   skipped; report.txt lines fit 72 columns and give subject, author,
#   patch-id; report.json, git-bisect.log, the chart's script;
# - SIGINT to the process group while a step builds: exit 130 at once,
#   nothing left running, the finished boots kept; --resume finishes with
#   the same answer and measures no finished boot again;
# - roi_usec at 25% noise names commit 11 too, with more repetitions;
# - a change spread over two commits (half at 6, the rest at 11) is
#   reported as spread with both commits, exit 1, never one commit;
# - steps that stay inconclusive (a noisy timing, capped at one boot of
#   2 runs) end in a range holding commit 11, exit 1;
# - GOOD and BAD alike: "nothing to bisect", exit 3, after the references;
# - --from-history: GOOD and BAD from a history whose change point lies
#   between the kernels of commits 6 and 12: commit 11 again;
# - argument errors exit 2 before creating anything; thpbench bisect's own
#   (no directory, unknown sub-command), and an unfinished bisection's
#   report says how to resume (exit 2).
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/bisect_lib.sh"

K=$(sha_of "$t_tmp/tree" 11)
BROKEN=$(sha_of "$t_tmp/tree" 7)
common=(--tree "$t_tmp/tree" --good "$(sha_of "$t_tmp/tree" 0)" --bad HEAD
	--suite "$t_tmp/suite.conf" --accel tcg)

# 1. The counter; interrupted while a step builds, then resumed.
set -m
env --default-signal=INT "$BISECT" "${common[@]}" \
	--metric mremap:vmstat.thp_split_pmd --out "$t_tmp/b1" > "$t_tmp/b1.out" 2>&1 &
bpid=$!
set +m
# Interrupt once the references and the first step are done (4 + 1 boots),
# during the next build (which then sleeps). However long this machine
# takes to get there: the bound only ends a bisection that hangs.
for _ in $(seq 1 6000); do
	[ "$(find "$t_tmp/b1/runs" -mindepth 1 -maxdepth 1 -name '0*' 2>/dev/null | wc -l)" -ge 5 ] && break
	kill -0 "$bpid" 2>/dev/null || break
	sleep 0.1
done
touch "$t_tmp/slow"
for _ in $(seq 1 100); do
	pgrep -f "sleep $FAKE_SLEEP" > /dev/null && break
	kill -0 "$bpid" 2>/dev/null || break
	sleep 0.1
done
kept=$(find "$t_tmp/b1/runs" -mindepth 1 -maxdepth 1 -name '0*' | wc -l)
interrupt_job "$bpid" "bisect.sh"
[ "$int_rc" = 130 ] || fail "bisect.sh after SIGINT: exit $int_rc, want 130 ($(tail -n 3 "$t_tmp/b1.out"))"
left=$(settled leftovers)
[ -z "$left" ] && [ -z "$(settled pgrep -f "sleep $FAKE_SLEEP")" ] || fail "processes left after SIGINT: $left $(pgrep -af "sleep $FAKE_SLEEP")"
for p in $(pgrep -f "sleep $FAKE_SLEEP"); do kill "$p"; done
[ "$kept" -ge 5 ] || fail "interrupted too early: $kept runs"
grep -q -- "--resume" "$t_tmp/b1.out" || fail "the interrupt message does not say how to resume"
[ "$T_FAILS" -eq 0 ] && ok "SIGINT during a build: exit 130 at once, nothing left, $kept runs kept"

rm -f "$t_tmp/slow"
b0=$(boots)
rc=0
"$BISECT" --resume "$t_tmp/b1" > "$t_tmp/b1r.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "resume: exit $rc, want 0 ($(tail -n 5 "$t_tmp/b1r.out"))"
r=$t_tmp/b1/report.json
[ "$(jq -r .outcome "$r")" = found ] || fail "resume: outcome $(jq -r .outcome "$r")"
[ "$(jq -r .first_bad.sha "$r")" = "$K" ] || fail "resume: first bad $(jq -r .first_bad.sha "$r"), want commit 11 $K"
[ "$(jq -r --arg b "$BROKEN" '.steps[] | select(.sha == $b) | .class' "$r")" = skip ] ||
	fail "commit 7 (does not build) is not a skipped step"
jq -r --arg b "$BROKEN" '.steps[] | select(.sha == $b) | .skip' "$r" | grep -q "^build: .*error: expected" ||
	fail "the skip reason is not the compiler's error"
# A subject longer than the log line keeps ends in "..", never mid-word.
cat "$t_tmp/b1.out" "$t_tmp/b1r.out" | grep -Eq "step ${K:0:12} \(harmless change 11, with a subject [^()]*\.\.\), 2 repetitions" ||
	fail "commit 11's long subject in the log: $(cat "$t_tmp/b1.out" "$t_tmp/b1r.out" | grep "step ${K:0:12}")"
# Every decided step of the counter took one boot of 2 repetitions.
[ "$(jq '[.steps[] | select(.step != null) | .repetitions] | unique' -c "$r")" = "[2]" ] ||
	fail "counter steps took $(jq -c '[.steps[] | select(.step != null) | .repetitions]' "$r") repetitions, want 2 each"
# No finished boot measured twice: each commit's runs are contiguous.
n_runs=$(find "$t_tmp/b1/runs" -mindepth 1 -maxdepth 1 | wc -l)
[ "$n_runs" = "$(jq .runs "$r")" ] || fail "runs: $n_runs directories, report says $(jq .runs "$r")"
[ $(( $(boots) - b0 + kept - 1 )) -le "$n_runs" ] || fail "the resume booted finished runs again"
[ "$(find "$t_tmp/b1/runs" -name '.tmp-*' | wc -l)" = 0 ] || fail "a .tmp run was left"
txt=$t_tmp/b1/report.txt
awk 'length($0) > 72 { print FILENAME ":" FNR ": " length($0) " columns"; bad = 1 } END { exit bad }' "$txt" ||
	fail "report.txt has lines over 72 columns"
grep -q "^First bad commit:" "$txt" && grep -q "  $K" "$txt" && grep -q "harmless change 11" "$txt" &&
	grep -q "Author: Test Author <author@example.org>" "$txt" &&
	grep -q "patch-id: $(git -C "$t_tmp/tree" show "$K" | git patch-id --stable | cut -d' ' -f1)" "$txt" ||
	fail "report.txt lacks the first bad commit's sha, subject, author or patch-id: $(head -n 12 "$txt")"
grep -q "^git bisect bad $K" "$t_tmp/b1/git-bisect.log" && grep -q "^git bisect skip $BROKEN" "$t_tmp/b1/git-bisect.log" ||
	fail "git-bisect.log: $(cat "$t_tmp/b1/git-bisect.log")"
[ -f "$t_tmp/b1/plots/bisect-vmstat.thp_split_pmd.gp" ] || fail "no chart script in plots/"
[ "$T_FAILS" -eq 0 ] && ok "counter: resumed, names commit 11, 7 skipped, 2 reps a step, report fits 72 columns"

# 2. The timing: more repetitions, same commit.
rc=0
FAKE_CV=0.25 "$BISECT" "${common[@]}" --metric mremap:roi_usec --out "$t_tmp/b2" > "$t_tmp/b2.out" 2>&1 || rc=$?
r=$t_tmp/b2/report.json
[ "$rc" = 0 ] && [ "$(jq -r .first_bad.sha "$r")" = "$K" ] ||
	fail "roi_usec: exit $rc, first bad $(jq -r .first_bad.sha "$r" 2>/dev/null) ($(tail -n 5 "$t_tmp/b2.out"))"
[ "$(jq '[.steps[] | select(.step != null) | .repetitions] | max' "$r")" -gt 2 ] ||
	fail "roi_usec steps took no more repetitions than the counter's"
# Values of about 1 and 3 ms read in ms (their digits are the noise's:
# 25% of it), the unit once after an interval.
t=$t_tmp/b2/report.txt
grep -Eq '^  GOOD [0-9]+\.[0-9]+ ms \(.*BAD [0-9]+\.[0-9]+ ms' "$t" &&
	grep -Eq '^ +mean [0-9.]+ \[[0-9.]+, [0-9.]+\] ms$' "$t" || fail "roi_usec report: no ms values: $(grep -E 'GOOD|mean' "$t")"
! grep -Eq ' us\b|[0-9]{4,}\.[0-9]|-0\.00' "$t" || fail "roi_usec report: $(grep -E ' us\b|[0-9]{4,}\.[0-9]|-0\.00' "$t")"
[ "$(awk 'length > 72' "$t" | wc -l)" = 0 ] || fail "roi_usec report: lines over 72 columns: $(awk 'length > 72' "$t")"
[ "$T_FAILS" -eq 0 ] && ok "roi_usec: names commit 11 ($(jq -c '[.steps[] | select(.step != null) | .repetitions]' "$r") repetitions), values in ms"

# 3. A change spread over two commits.
rc=0
"$BISECT" --tree "$t_tmp/spread" --good "$(sha_of "$t_tmp/spread" 0)" --bad HEAD \
	--suite "$t_tmp/suite.conf" --accel tcg --metric mremap:vmstat.thp_split_pmd \
	--out "$t_tmp/b3" > "$t_tmp/b3.out" 2>&1 || rc=$?
r=$t_tmp/b3/report.json
[ "$rc" = 1 ] || fail "spread: exit $rc, want 1 ($(tail -n 5 "$t_tmp/b3.out"))"
[ "$(jq -r .outcome "$r")" = spread ] || fail "spread: outcome $(jq -r .outcome "$r")"
[ "$(jq -r '.first_bad' "$r")" = null ] || fail "spread: a first bad commit was named"
[ "$(jq -r '[.jumps[].first_at_new_level] | join(" ")' "$r")" = "$(sha_of "$t_tmp/spread" 6) $(sha_of "$t_tmp/spread" 11)" ] ||
	fail "spread: jumps at $(jq -c '[.jumps[] | {first_at_new_level, suspects}]' "$r")"
grep -q "spread over several commits" "$t_tmp/b3/report.txt" || fail "spread: report.txt does not say so"
[ "$T_FAILS" -eq 0 ] && ok "a change in two halves: spread, both commits, exit 1"

# 3b. Steps that stay inconclusive (a noisy timing, one boot of 2 runs a
# commit at most): the commits left are named, never one of them.
rc=0
FAKE_CV=0.25 "$BISECT" "${common[@]}" --metric mremap:roi_usec --max-looks 1 --max-reps 2 --confidence 0.999 \
	--out "$t_tmp/b7" > "$t_tmp/b7.out" 2>&1 || rc=$?
r=$t_tmp/b7/report.json
[ "$rc" = 1 ] || fail "inconclusive steps: exit $rc, want 1 ($(grep -v '^guest|' "$t_tmp/b7.out" | tail -n 3))"
[ "$(jq -r .outcome "$r" 2>/dev/null)" = range ] && [ "$(jq -r .first_bad "$r")" = null ] ||
	fail "inconclusive steps: outcome $(jq -r .outcome "$r" 2>/dev/null), first bad $(jq -r .first_bad.sha "$r" 2>/dev/null)"
jq -e --arg k "$K" '.jumps[0].suspects | index($k) != null' "$r" > /dev/null ||
	fail "inconclusive steps: commit 11 is not among the suspects"
[ "$(jq '[.steps[] | select(.class == "inconclusive")] | length' "$r")" -gt 0 ] ||
	fail "no inconclusive step"
grep -q "^No single first bad commit" "$t_tmp/b7/report.txt" || fail "inconclusive: report.txt does not say so"
[ "$T_FAILS" -eq 0 ] && ok "inconclusive steps: a range of $(jq '.jumps[0].suspects | length' "$r") commits, exit 1"

# 4. Nothing to bisect.
rc=0
b0=$(boots)
"$BISECT" --tree "$t_tmp/flat" --good "$(sha_of "$t_tmp/flat" 0)" --bad HEAD \
	--suite "$t_tmp/suite.conf" --accel tcg --metric mremap:vmstat.thp_split_pmd \
	--out "$t_tmp/b4" > "$t_tmp/b4.out" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "no change: exit $rc, want 3"
grep -q "^Nothing to bisect" "$t_tmp/b4.out" || fail "no change: not 'Nothing to bisect': $(tail -n 5 "$t_tmp/b4.out")"
[ $(( $(boots) - b0 )) = 4 ] || fail "no change: $(( $(boots) - b0 )) boots, want 4 (references only)"
[ "$T_FAILS" -eq 0 ] && ok "GOOD and BAD alike: nothing to bisect after the references, exit 3"

# 5. --from-history: twelve nights, kernels of commits 1..6 then 12..15
# and on (the change between commits 6 and 12); the bisection takes that
# pair from `history check` and names commit 11.
hist=$t_tmp/history.sqlite
for night in $(seq 1 12); do
	c=$night
	[ "$night" -le 6 ] || c=$((night + 5 > 15 ? 15 : night + 5))
	kid=$(sha_of "$t_tmp/tree" "$c" | cut -c1-12)
	jq --argjson v "${lv_step[$c]}" --arg t "2026-01-$(printf %02d "$night")T02:00:00Z" '
		.env.started = $t | .meta.suite = "t"
		| .cases = [ .cases[] | select(.name == "mremap")
			| .runs = [ range(5) as $i | .runs[0] | .seq = $i
				| .metrics = { "vmstat.thp_split_pmd": $v, roi_usec: (1000 + $i) } ] ]' \
		"$FIX/base.json" > "$t_tmp/night-$night.json"
	"$REPO_DIR/harness/thpbench" history import --db "$hist" --kernel-id "$kid" \
		"$t_tmp/night-$night.json" > /dev/null 2>&1 || fail "history import of night $night failed"
done
rc=0
"$BISECT" --tree "$t_tmp/tree" --from-history "$hist" 'mremap/thp=always:vmstat.thp_split_pmd' \
	--suite "$t_tmp/suite.conf" --accel tcg --out "$t_tmp/b5" > "$t_tmp/b5.out" 2>&1 || rc=$?
r=$t_tmp/b5/report.json
[ "$rc" = 0 ] && [ "$(jq -r .first_bad.sha "$r" 2>/dev/null)" = "$K" ] ||
	fail "--from-history: exit $rc, first bad $(jq -r .first_bad.sha "$r" 2>/dev/null) ($(grep -v '^guest|' "$t_tmp/b5.out" | tail -n 5))"
[ "$(jq -r .good "$t_tmp/b5/plan.json" 2>/dev/null)" = "$(sha_of "$t_tmp/tree" 6)" ] ||
	fail "--from-history: GOOD is not night 6's kernel (commit 6)"
grep -q "from the history: changed of vmstat.thp_split_pmd" "$t_tmp/b5.out" ||
	fail "--from-history: the change point taken is not said"
[ "$T_FAILS" -eq 0 ] && ok "--from-history: GOOD and BAD from the change point, names commit 11"

# 6. Argument errors: exit 2, nothing created.
refuse()
{
	local what=$1 pat=$2 rc=0
	shift 2
	"$BISECT" "$@" > "$t_tmp/r.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$what: exit $rc, want 2"
	grep -q -- "$pat" "$t_tmp/r.out" || fail "$what: no '$pat' in: $(tail -n 3 "$t_tmp/r.out")"
}
n0=$(find "$t_tmp/results" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
refuse "no metric" "CASE:METRIC" "${common[@]}" --metric roi_usec
refuse "unknown case" "no case 'nope'" "${common[@]}" --metric nope:roi_usec
refuse "bad ref" "is not a commit" "${common[@]}" --bad no-such-ref --metric mremap:roi_usec
refuse "reversed" "not an ancestor" --tree "$t_tmp/tree" --good HEAD --bad "$(sha_of "$t_tmp/tree" 0)" \
	--suite "$t_tmp/suite.conf" --metric mremap:roi_usec
refuse "confidence" "confidence must be a number in \[0.5, 1\]" "${common[@]}" --metric mremap:roi_usec --confidence 1.5
refuse "resume nothing" "no plan.json" --resume "$t_tmp"
refuse "out exists" "exists" "${common[@]}" --metric mremap:roi_usec --out "$t_tmp/b1"
[ "$(find "$t_tmp/results" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" = "$n0" ] ||
	fail "a refused run left a results directory"
tb=$REPO_DIR/harness/thpbench
rc=0; "$tb" bisect > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "thpbench bisect without arguments: exit $rc, want 2"
rc=0; "$tb" bisect next "$t_tmp/none" > "$t_tmp/r.out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "plan.json" "$t_tmp/r.out" || fail "bisect next on no directory: exit $rc ($(cat "$t_tmp/r.out"))"
rc=0; "$tb" bisect frobnicate "$t_tmp/b1" > "$t_tmp/r.out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q 'unknown sub-command "frobnicate"' "$t_tmp/r.out" || fail "bisect frobnicate: exit $rc"
# A bisection cut short: report says so and how to resume, exit 2.
mkdir -p "$t_tmp/b6/runs"
cp "$t_tmp/b1/plan.json" "$t_tmp/b6/"
cp -r "$t_tmp/b1/runs/0001" "$t_tmp/b6/runs/"
rc=0; "$tb" bisect report "$t_tmp/b6" --no-plot > "$t_tmp/r.out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "^Not finished" "$t_tmp/r.out" && grep -q -- "--resume" "$t_tmp/r.out" ||
	fail "report of an unfinished bisection: exit $rc ($(head -n 8 "$t_tmp/r.out"))"
[ "$("$tb" bisect next "$t_tmp/b6" 2>/dev/null)" = "measure $(jq -r .bad "$t_tmp/b6/plan.json") 6 bad" ] ||
	fail "bisect next after GOOD's first boot: $("$tb" bisect next "$t_tmp/b6" 2>&1)"
[ "$T_FAILS" -eq 0 ] && ok "argument errors: exit 2, nothing created"
finish
