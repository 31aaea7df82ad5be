# SPDX-License-Identifier: GPL-2.0-only
# thpbench plot on fixture results (tests/fixtures/plot): every .gp runs
# under gnuplot without a word on stderr, also from another directory;
# PNGs are PNGs of the size their script states; SVGs parse as XML; the
# .dat files hold exactly the values of the results file (runs), the
# mean/CI of them (bars, checked with an independent t table) and what
# `thpbench compare --format json` computes (A/B). Without gnuplot the
# data and scripts are still written, exit 0, one line says how to
# install it. Needs jq and xmllint; gnuplot for the drawing checks.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

FX=tests/fixtures/plot
for tool in jq xmllint; do
	command -v $tool >/dev/null || { echo "skip: $tool not installed"; exit 77; }
done
[ -x "$TB" ] || { echo "FAIL: $TB not built (run make)"; exit 1; }

# --- helpers -------------------------------------------------------------

# Values of a data file as "BLOCK_NAME FIELDS...": BLOCK_NAME is the word
# after "# block K:" up to the first ',' or ' ('; data lines are kept with
# their double-quoted field (the case label) dropped.
dat_rows() {
	awk '/^# block [0-9]+: / { m = $4; sub(/,$/, "", m); next }
	     /^#/ || NF == 0 { next }
	     { gsub(/"[^"]*"/, ""); $1 = $1; print m, $0 }' "$1"
}

# Compare two "KEY... NUMBERS" files field by field: words equal, numbers
# equal within a relative tolerance (0: exactly). NaN only matches NaN.
same_rows() {
	awk -v tol="$3" '
		function num(s) { return s ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ }
		function abs(x) { return x < 0 ? -x : x }
		NR == FNR { want[FNR] = $0; nw = FNR; next }
		{
			ng = FNR
			if (!(FNR in want)) { print "extra line: " $0; bad = 1; next }
			n = split(want[FNR], w, " ")
			if (n != NF) { print "line " FNR ": got \"" $0 "\", want \"" want[FNR] "\""; bad = 1; next }
			for (i = 1; i <= NF; i++) {
				if (num($i) && num(w[i])) {
					d = abs($i - w[i]); s = abs(w[i]) > abs($i) ? abs(w[i]) : abs($i)
					if (d > tol * s + (tol ? 1e-12 : 0)) { print "line " FNR " field " i ": got " $i ", want " w[i]; bad = 1 }
				} else if ($i != w[i]) {
					print "line " FNR " field " i ": got " $i ", want " w[i]; bad = 1
				}
			}
		}
		END { if (ng != nw) { print "got " ng " lines, want " nw; bad = 1 } exit bad }' "$2" "$1"
}

# Every ok run of the charted metrics, in file, case and run order.
want_runs() { # RESULTS GROUP METRICS_JSON
	jq -r --arg g "$2" --argjson ms "$3" '
		[.cases[] | select(.name == $g)] as $cs
		| $ms[] as $m
		| range(0; $cs | length) as $x
		| [$cs[$x].runs[] | select(.status == "ok") | .metrics[$m]
		   | select(. != null)] | to_entries[]
		| "\($m) \($x) \(.key + 1) \(.value)"' "$1"
}

# n, mean, 95% CI (Student t, df = n - 1, from a table), stddev, min,
# median, max of each case's ok runs, computed here with jq.
want_bars() { # RESULTS GROUP METRICS_JSON
	jq -r --arg g "$2" --argjson ms "$3" '
		def t95: [null, 12.7062047362, 4.30265272975, 3.18244630528,
			  2.7764451052, 2.57058183564, 2.44691185114,
			  2.36462425159, 2.3060041352, 2.2621571628,
			  2.22813885199][.];
		def median: sort | if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		[.cases[] | select(.name == $g)] as $cs
		| $ms[] as $m
		| range(0; $cs | length) as $x
		| [$cs[$x].runs[] | select(.status == "ok") | .metrics[$m]
		   | select(. != null)] as $v
		| ($v | length) as $n
		| ($v | add / $n) as $mean
		| (if $n > 1 then ([$v[] | (. - $mean) * (. - $mean)] | add / ($n - 1) | sqrt)
		   else null end) as $sd
		| (if $n > 1 then (($n - 1) | t95) * $sd / ($n | sqrt) else null end) as $h
		| [$m, $x, $n, $mean,
		   (if $h then $mean - $h else "NaN" end),
		   (if $h then $mean + $h else "NaN" end),
		   ($sd // "NaN"), ($v | min), ($v | median), ($v | max)]
		| map(tostring) | join(" ")' "$1"
}

# The metric names of a data file's blocks, as a JSON array.
dat_metrics() {
	sed -n 's/^# block [0-9]*: \([^ ,]*\).*/\1/p' "$1" | jq -R . | jq -sc .
}

gp_size() { # SCRIPT -> "W H" of the pngcairo terminal
	sed -n 's/.*set terminal pngcairo size \([0-9]*\),\([0-9]*\).*/\1 \2/p' "$1"
}

png_size() { # PNG -> "W H" from IHDR, or "not a PNG"
	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	ihdr=$(od -An -tx1 -j12 -N4 "$1" | tr -d ' \n')
	if [ "$sig" != 89504e470d0a1a0a ] || [ "$ihdr" != 49484452 ]; then
		echo "not a PNG"
		return
	fi
	od -An -tu1 -j16 -N8 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4,
					       $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
}

svg_size() { # SVG -> "W H" from the viewBox
	xmllint --xpath 'string(/*[local-name()="svg"]/@viewBox)' "$1" 2>/dev/null |
		awk '{ print $3, $4 }'
}

# gnuplot SCRIPT run from an empty directory elsewhere: exit 0, nothing
# printed at all (warnings count), images back next to the script and
# none in the directory it was started from.
gp_clean() {
	abs=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	stem=${abs%.gp}
	rm -f "$stem.png" "$stem.svg"
	mkdir -p "$TMPD/elsewhere"
	out=$(cd "$TMPD/elsewhere" && gnuplot "$abs" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || [ -n "$out" ]; then
		echo "$1: rc $rc: $out"
		return 1
	fi
	[ -s "$stem.png" ] && [ -s "$stem.svg" ] && [ -z "$(ls "$TMPD/elsewhere")" ]
}

images_ok() { # DIR: every script clean, every image valid, of its size
	ok_all=0
	for gp in "$1"/*.gp; do
		gp_clean "$gp" || { ok_all=1; continue; }
		want=$(gp_size "$gp")
		got=$(png_size "${gp%.gp}.png")
		[ "$got" = "$want" ] || { echo "${gp%.gp}.png: $got, script says $want"; ok_all=1; }
		xmllint --noout "${gp%.gp}.svg" || ok_all=1
		got=$(svg_size "${gp%.gp}.svg")
		[ "$got" = "$want" ] || { echo "${gp%.gp}.svg: $got, script says $want"; ok_all=1; }
	done
	return $ok_all
}

runs_match() { # RESULTS DIR GROUP STEM
	dat_rows "$2/$4.runs.dat" > "$TMPD/got"
	want_runs "$1" "$3" "$(dat_metrics "$2/$4.runs.dat")" > "$TMPD/want"
	[ -s "$TMPD/want" ] && same_rows "$TMPD/got" "$TMPD/want" 0
}

bars_match() { # RESULTS DIR GROUP STEM
	dat_rows "$2/$4.dat" > "$TMPD/got"
	want_bars "$1" "$3" "$(dat_metrics "$2/$4.dat")" > "$TMPD/want"
	[ -s "$TMPD/want" ] && same_rows "$TMPD/got" "$TMPD/want" 1e-9
}

# --- one results file ------------------------------------------------------

HAVE_GP=0
command -v gnuplot >/dev/null && HAVE_GP=1
D1=$TMPD/one
if [ $HAVE_GP = 1 ]; then
	check "plot one file: exit 0" $TB plot $FX/thp.json -o $D1
	check "plot one file: a chart per group and kind" \
		test -s $D1/mremap.png -a -s $D1/mremap-counters.png -a \
		-s $D1/clear-huge.svg -a ! -e $D1/broken.gp
	check "plot one file: scripts clean, images valid and of the stated size" images_ok $D1
	check "prints the chart paths" sh -c "$TB plot $FX/thp.json -o $D1 | grep -qx 'chart: $D1/mremap.png'"
else
	$TB plot $FX/thp.json -o $D1 >/dev/null
fi
check "runs.dat: every ok run, none of the failed ones (mremap)" runs_match $FX/thp.json $D1 mremap mremap
check "runs.dat: every ok run (mremap counters)" runs_match $FX/thp.json $D1 mremap mremap-counters
check "runs.dat: every ok run (clear-huge, one ok run)" runs_match $FX/thp.json $D1 clear-huge clear-huge
check "dat: mean and 95% CI of the ok runs (mremap)" bars_match $FX/thp.json $D1 mremap mremap
check "dat: mean and 95% CI (mremap counters)" bars_match $FX/thp.json $D1 mremap mremap-counters
check "dat: n = 1 has no CI (NaN)" bars_match $FX/thp.json $D1 clear-huge clear-huge
check "charted: roi_usec, wall_usec, task-clock; not maxrss_kb" \
	test "$(dat_metrics $D1/mremap.dat)" = '["roi_usec","wall_usec","task-clock"]'
check "counters: faults, tlb flushes, thp_fault_alloc" \
	test "$(dat_metrics $D1/mremap-counters.dat)" = '["page-faults","tlb:tlb_flush","vmstat.thp_fault_alloc"]'
check "counters that were 0 in every run are named, not drawn" \
	grep -q '0 in every run: majflt and 1 vmstat thp_\* counter"' $D1/mremap-counters.gp
log_axes() { # SCRIPT -> the metrics whose panel has a log y axis
	awk '/^# [^ ]*: block/ { m = $2; sub(/:$/, "", m) }
	     /^set logscale y/ { printf "%s ", m }' "$1"
}
check "roi_usec and task-clock always vs never (17x) on log axes, wall time linear" \
	test "$(log_axes $D1/mremap.gp)" = "roi_usec task-clock "

D5=$TMPD/bythp
$TB plot $FX/thp.json --by thp -o $D5 > /dev/null
check "--by thp: exit 0, always vs never A/B charts next to the file's own" \
	test $? -eq 0 -a -s $D5/ab-mremap-always-change.dat -a -s $D5/mremap.gp
[ $HAVE_GP = 1 ] && check "--by thp: scripts clean, images valid" images_ok $D5

# --- gnuplot missing -------------------------------------------------------

D2=$TMPD/nogp
THPBENCH_GNUPLOT=/nonexistent $TB plot $FX/thp.json -o $D2 > $TMPD/out 2> $TMPD/err
check "no gnuplot (THPBENCH_GNUPLOT): exit 0" test $? -eq 0
check "no gnuplot: one line says how to install it" \
	test "$(cat $TMPD/out $TMPD/err | grep -c 'apt-get install gnuplot-nox')" -eq 1
check "no gnuplot: no images" sh -c "! ls $D2 | grep -q '\\.png\$\\|\\.svg\$'"
check "no gnuplot: the same scripts and data as with it" \
	sh -c "cd $D2 && for f in *.gp *.dat; do cmp -s \$f $D1/\$f || exit 1; done; \
	       test \$(ls *.gp *.dat | wc -l) -eq \$(cd $D1 && ls *.gp *.dat | wc -l)"
mkdir -p $TMPD/emptybin
D3=$TMPD/nogp-path
env -u THPBENCH_GNUPLOT PATH=$TMPD/emptybin "$PWD/harness/thpbench" plot $FX/thp.json -o $D3 > $TMPD/out 2>&1
check "no gnuplot on PATH: exit 0" test $? -eq 0
check "no gnuplot on PATH: the install line, scripts and data written" \
	sh -c "grep -q 'apt-get install gnuplot-nox' $TMPD/out && test -s $D3/mremap.gp -a -s $D3/mremap.runs.dat"

# --- usage -----------------------------------------------------------------

$TB plot > /dev/null 2>&1
check "no file: exit 2" test $? -eq 2
$TB plot $FX/thp.json > /dev/null 2>&1
check "no -o: exit 2" test $? -eq 2
$TB plot $TMPD/missing.json -o $TMPD/x > /dev/null 2>&1
check "missing file: exit 2" test $? -eq 2
$TB plot $FX/ab_base.json $FX/ab_new.json --by thp -o $TMPD/x > /dev/null 2>&1
check "--by with two files: exit 2" test $? -eq 2
$TB plot --bogus $FX/thp.json -o $TMPD/x > /dev/null 2>&1
check "unknown option: exit 2" test $? -eq 2

# --- A/B -------------------------------------------------------------------

D4=$TMPD/ab
$TB plot $FX/ab_base.json $FX/ab_new.json -o $D4 > /dev/null
check "A/B: exit 0" test $? -eq 0
check "A/B: change and distribution charts per pair, each file's own charts" \
	test -s $D4/ab-mremap-always-change.gp -a -s $D4/ab-split-thp-always-dist.gp -a \
	-s $D4/ab_base/mremap.gp -a -s $D4/ab_new/split-thp.gp
[ $HAVE_GP = 1 ] && check "A/B: scripts clean, images valid and of the stated size" images_ok $D4

$TB compare $FX/ab_base.json $FX/ab_new.json --format json > $TMPD/cmp.json

# Block 0 (timings, % change): row metric verdict change lo hi bar,
# against compare's JSON: the bar ends at the estimate the tables print
# (one estimate everywhere)
change_match() { # STEM TITLE_PREFIX
	# Quoted fields ("no change") become one word: no_change.
	awk '/^# block 1:/ { exit } /^#/ || NF == 0 { next }
	     { n = split($0, p, "\""); line = ""
	       for (i = 1; i <= n; i++) {
		       if (i % 2 == 0) gsub(/ /, "_", p[i])
		       line = line " " p[i]
	       }
	       split(line, f, " "); print f[2], f[4], f[5], f[6], f[7], f[8] }' \
		"$D4/$1.dat" > $TMPD/got
	jq -r --arg t "$2" --argjson ms "$(awk '/^# block 1:/ { exit } /^#/ || NF == 0 { next } { gsub(/"/, ""); print $2 }' "$D4/$1.dat" | jq -R . | jq -sc .)" '
		.pairs[] | select(.title | startswith($t)) | .metrics as $all
		| $ms[] as $m | $all[] | select(.name == $m)
		| [.name, (.verdict | gsub(" "; "_")), .change.estimate,
		   .change.ci[0], .change.ci[1], .change.estimate] | map(tostring) | join(" ")' \
		$TMPD/cmp.json > $TMPD/want
	[ -s $TMPD/want ] && same_rows $TMPD/got $TMPD/want 1e-8
}
check "A/B change.dat: change, CI, verdict as thpbench compare computes them" \
	change_match ab-mremap-always-change "mremap "
check "A/B change.dat (split-thp)" change_match ab-split-thp-always-change "split-thp "
# Block 1 (counts): row metric verdict mean_base mean_new bar_base bar_new,
# the means as compare computes them, each bar its mean over the row's
# larger one.
count_match() { # STEM TITLE_PREFIX
	awk '/^# block 1:/ { b = 1; next } !b || /^#/ || NF == 0 { next }
	     { n = split($0, p, "\""); line = ""
	       for (i = 1; i <= n; i++) { if (i % 2 == 0) gsub(/ /, "_", p[i]); line = line " " p[i] }
	       split(line, f, " "); print f[2], f[4], f[5], f[6], f[7], f[8] }' "$D4/$1.dat" > $TMPD/got
	jq -r --arg t "$2" --argjson ms "$(awk '/^# block 1:/ { b = 1; next } !b || /^#/ || NF == 0 { next } { gsub(/"/, ""); print $2 }' "$D4/$1.dat" | jq -R . | jq -sc .)" '
		.pairs[] | select(.title | startswith($t)) | .metrics as $all
		| $ms[] as $m | $all[] | select(.name == $m)
		| ([.base.mean, .new.mean] | map(fabs) | max) as $top
		| [.name, (.verdict | gsub(" "; "_")), .base.mean, .new.mean,
		   (.base.mean | fabs) / $top, (.new.mean | fabs) / $top] | map(tostring) | join(" ")' \
		$TMPD/cmp.json > $TMPD/want
	[ -s $TMPD/want ] && same_rows $TMPD/got $TMPD/want 1e-8
}
check "A/B change.dat counts: means and bars as thpbench compare computes them" \
	count_match ab-mremap-always-change "mremap "
# Timings in block 0, counts in block 1; in each, what changed first.
chart_rows() { awk -v blk="$2" '/^# block / { b = $3 + 0; next } /^#/ || NF == 0 || b != blk { next }
	{ gsub(/"/, ""); printf "%s ", $2 }' "$D4/$1.dat"; }
check "A/B change.dat: timings in the % panel" \
	test "$(chart_rows ab-mremap-always-change 0)" = "roi_usec "
check "A/B change.dat: counts in their own panel, what changed first" \
	test "$(chart_rows ab-mremap-always-change 1)" = "tlb:tlb_flush page-faults vmstat.thp_fault_alloc "
check "A/B: -94% on a log axis with % tics" grep -q "set logscale x 2" $D4/ab-mremap-always-change.gp

dist_match() { # STEM GROUP
	awk '/^# block [0-9]+: / { m = $4; sub(/,$/, "", m); s = $5; next }
	     /^#/ || NF == 0 { next } { print m, s, $3 }' "$D4/$1.dat" > $TMPD/got
	: > $TMPD/want
	for m in $(sed -n 's/^# block [0-9]*: \([^,]*\), base.*/\1/p' "$D4/$1.dat"); do
		for side in base new; do
			jq -r --arg g "$2" --arg m "$m" --arg s "$side" '
				.cases[] | select(.name == $g) | .runs[]
				| select(.status == "ok") | .metrics[$m]
				| select(. != null) | "\($m) \($s) \(.)"' \
				$FX/ab_$side.json >> $TMPD/want
		done
	done
	[ -s $TMPD/want ] && same_rows $TMPD/got $TMPD/want 0
}
check "A/B dist.dat: every ok run of base and new" dist_match ab-mremap-always-dist mremap
check "A/B dist.dat (split-thp)" dist_match ab-split-thp-always-dist split-thp

[ $HAVE_GP = 1 ] || { [ "$nfail" -eq 0 ] && { echo "skip: gnuplot not installed (drawing not checked)"; exit 77; }; }
finish
