# SPDX-License-Identifier: GPL-2.0-only
# thpbench run --profile, attribution with a known answer: workloads/
# prof_split spends its region of interest in spin_three() and spin_one(),
# same body, called 3:1, so of their combined self samples spin_three must
# have 75% (tolerance: +-10 points, for sampling noise and the loop's own
# instructions). Its other case never calls spin_one(): that function
# must be absent there (no prof.* metric at all, in any repetition) and
# compare must say "absent", not 0. Also: perf's folded stacks exist per
# repetition, the profile is recorded in meta.profile with its event, and
# a run without --profile has no prof.* metric; plot draws the profile
# chart with no bar for the absent side. Needs perf (linux-perf)
# able to sample here (cpu-clock: no PMU needed) and jq; root.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

command -v jq >/dev/null || { echo "skip: jq not installed"; exit 77; }
command -v perf >/dev/null || { echo "skip: perf not installed (apt-get install linux-perf)"; exit 77; }
need_root
perf record -q -e cpu-clock -o "$TMPD/probe.data" -- true >/dev/null 2>&1 ||
	{ echo "skip: perf record -e cpu-clock does not work here"; exit 77; }

suite=tests/fixtures/profile/split.conf
$TB run "$suite" -o "$TMPD/p" --progress none > "$TMPD/out" 2> "$TMPD/err"
check "run --profile exits 0" test $? -eq 0
R=$TMPD/p/results.json

# Per repetition: spin_three / (spin_three + spin_one) in [0.65, 0.85].
check "every rep of 'both' attributes 3:1 within 10 points" jqe '
	[.cases[] | select(.label == "both") | .runs[] | .metrics
	 | .["prof.self.u:spin_three"] / (.["prof.self.u:spin_three"] + .["prof.self.u:spin_one"])]
	| length == 3 and all(. >= 0.65 and . <= 0.85)' "$R"
check "the two functions hold most of the samples (>= 80%)" jqe '
	[.cases[] | select(.label == "both") | .runs[] | .metrics
	 | .["prof.self.u:spin_three"] + .["prof.self.u:spin_one"]] | all(. >= 80)' "$R"
check "spin_one is absent from every rep of 'three-only'" jqe '
	[.cases[] | select(.label == "three-only") | .runs[] | .metrics
	 | has("prof.self.u:spin_one") or has("prof.total.u:spin_one")] | length == 3 and all(. == false)' "$R"
check "meta.profile records the mode and event" jqe \
	'.meta.profile.mode == "task" and (.meta.profile.event == "cpu-clock" or .meta.profile.event == "cycles")' "$R"
check "meta.profile records perf's default rate, given explicitly" jqe '.meta.profile.freq == 4000' "$R"
check "the run says the rate it samples at" grep -Eq 'event (cpu-clock|cycles) at 4000 Hz' "$TMPD/err"
check "each rep has samples" jqe '[.cases[].runs[].metrics["prof.samples"]] | length == 6 and all(. > 0)' "$R"
n=$(ls "$TMPD"/p/profile/*/rep*.folded 2>/dev/null | wc -l)
check "a folded stack file per repetition (6, got $n)" test "$n" -eq 6
check "folded stacks name spin_three under main" \
	grep -q 'main;spin_three [0-9]' "$TMPD"/p/profile/both_thp_never/rep1.folded
check "no perf.data is kept without --profile-keep" \
	sh -c "! ls $TMPD/p/profile/*/*.data 2>/dev/null | grep -q ."
check "run prints the top functions" grep -q 'both/thp=never: top functions' "$TMPD/out"

$TB compare "$R" --by label > "$TMPD/cmp" 2>&1
check "compare says spin_one is absent on the new side" \
	grep -Eq '\[\.\] spin_one +[0-9.]+ +absent' "$TMPD/cmp"
$TB compare "$R" --by label -f json > "$TMPD/cmp.json" 2>/dev/null
check "compare json: spin_one absent in b, b null (not 0)" jqe '
	[.pairs[].profile.functions[] | select(.function == "[.] spin_one")]
	| length == 1 and .[0].absent == "b" and .[0].b == null' "$TMPD/cmp.json"
$TB compare "$R" --by label -f cover > "$TMPD/cover" 2>/dev/null
check "cover letter has the block" grep -q 'where the time went' "$TMPD/cover"
check "cover letter fits 72 columns" sh -c "! awk 'length > 72' $TMPD/cover | grep -q ."

$TB plot "$R" --by label -o "$TMPD/plots" > /dev/null 2>&1
P=$(ls "$TMPD"/plots/*-profile.dat 2>/dev/null | head -n 1)
check "plot draws the profile chart (png and its data)" \
	sh -c "[ -n '$P' ] && ls $TMPD/plots/*-profile.png > /dev/null"
check "the chart's data: spin_one present in A, absent (NaN, no bar) in B" \
	awk '!/^#/ && $2 > 0 && $5 ~ /NaN/ { ok = 1 } END { exit !ok }' "$P"
$TB run -o "$TMPD/f" -r 3 --warmup 0 --progress none --profile --profile-freq 1000 -- \
	workloads/prof_split --rounds 20 >/dev/null 2>&1
check "--profile-freq 1000 is recorded" jqe '.meta.profile.freq == 1000' "$TMPD/f/results.json"
for bad in 0 100001 1k; do
	$TB run -o "$TMPD/bad" -r 1 --profile --profile-freq $bad -- /bin/true > /dev/null 2> "$TMPD/bad.err"
	check "--profile-freq $bad: exit 2 naming the option" sh -c "[ $? -eq 2 ] && grep -q 'profile-freq' $TMPD/bad.err"
done
$TB run -o "$TMPD/np" -r 3 --warmup 0 --progress none -- workloads/prof_split --rounds 20 >/dev/null 2>&1
check "without --profile no prof.* metric" jqe \
	'[.cases[].runs[].metrics | keys[] | select(startswith("prof."))] | length == 0' "$TMPD/np/results.json"
# The A/B's profile boots: the block of an unprofiled pair from two other files.
$TB compare "$TMPD/np/results.json" "$TMPD/np/results.json" > "$TMPD/c0" 2>&1
check "an unprofiled pair has no block" sh -c "! grep -q 'where the time went' $TMPD/c0"
$TB compare "$TMPD/np/results.json" "$TMPD/np/results.json" --profile-a "$TMPD/f/results.json" \
	--profile-b "$TMPD/f/results.json" > "$TMPD/c1" 2>&1
check "--profile-a/-b: the block from the profiled files, at their rate" \
	grep -Eq 'where the time went \((cpu-clock|cycles) samples at 1000 Hz' "$TMPD/c1"
$TB compare "$TMPD/np/results.json" "$TMPD/np/results.json" --profile-a "$TMPD/f/results.json" \
	> /dev/null 2> "$TMPD/c2"
check "--profile-a alone: exit 2" sh -c "[ $? -eq 2 ] && grep -q 'go together' $TMPD/c2"
finish
