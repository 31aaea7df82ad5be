#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The report page (thpbench history report) as a kernel developer reads
# it, in headless Chromium at 1200 and 1920 px: the verdict large in the
# first screen, nothing wider than the window, kernel ids, p-values and
# bisect lines each on one line, every chart loaded, hostile names shown
# as text. The history (tests/history/histgen, fixed seeds): quiet series,
# a regression tonight (fails the gate), an older regression still in
# effect, an improvement, a regression fixed later, a host change with a
# step, a case id and a host name made of HTML.
# A regression is then triaged from the command line (history triage) and
# the page shows it so. Screenshots of each width are kept in $SHOTS when
# it is set (to look at).
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

for tool in jq chromium gnuplot; do
	command -v $tool >/dev/null || { echo "FAIL: $tool missing (scripts/install-deps.sh)"; exit 1; }
done
HG=tests/history/histgen
[ -x $HG ] || { echo "FAIL: $HG not built (make)"; exit 1; }

# night_set NAME CASE-PREFIX histgen-options...: 40 nights of suite nightly,
# their cases renamed PREFIX-NN/thp=always.
night_set() {
	name=$1 prefix=$2
	shift 2
	$HG -o "$TMPD/h/$name" --nights 40 --suite nightly "$@" >/dev/null || return 1
	for f in "$TMPD/h/$name"/*.json; do
		jq --arg p "$prefix" '.cases[] |= (.id = ($p + (.id | ltrimstr("case")))
			| .name = ($p + (.name | ltrimstr("case"))))' "$f" >"$f.tmp" &&
			mv "$f.tmp" "$f" || return 1
	done
}
evil_case='<img src=x onerror=alert(1)>"'"'"'&-'
evil_host='evil"<b>host'"'"'&'
night_set quiet clear_thp- --cases 4 --metrics 5 --seed 11 --host box1 &&
night_set tonight mremap- --cases 1 --metrics 1 --seed 12 --host box1 --step 39:0.15 &&
night_set open split- --cases 1 --metrics 1 --seed 13 --host box1 --step 30:0.08 &&
night_set better umap- --cases 1 --metrics 2 --seed 14 --host box1 --step 33:-0.10 &&
night_set fixed thp_pthread- --cases 1 --metrics 1 --seed 15 --host box1 --step 20:0.20 --step 30:-0.1667 &&
night_set env clear_2M- --cases 1 --metrics 1 --seed 17 --host box1 --host-change 35 --step 35:0.10 &&
night_set evil "$evil_case" --cases 1 --metrics 1 --seed 16 --host box1 &&
night_set evilhost mremap- --cases 1 --metrics 1 --seed 18 --host "$evil_host" --step 36:0.12 ||
	{ echo "FAIL: the synthetic history"; exit 1; }
db=$TMPD/h.sqlite
$TB history import --db "$db" "$TMPD"/h/*/*.json >/dev/null || { echo "FAIL: import"; exit 1; }

R=$TMPD/report
$TB history report --db "$db" -o "$R" >/dev/null 2>"$TMPD/report.err"
check "report: exit 0, nothing on stderr" test $? -eq 0 -a ! -s "$TMPD/report.err"
$TB history check --db "$db" --format json --fail-on none >"$TMPD/check.json"
nseries=$(jq '.series | length' "$TMPD/check.json")
ncards=$(grep -c '<article class="card' "$R/index.html")
nquiet=$(sed -n '/<details id="quiet">/,/<\/details>/p' "$R/index.html" | grep -c '<tr><td>')
check "every series is on the page once: $ncards cards + $nquiet quiet = $nseries" \
	test $((ncards + nquiet)) -eq "$nseries"
check "a chart per card, and only for cards" test "$(grep -c '<img ' "$R/index.html")" -eq "$ncards"
check "fewer charts drawn than series ($(ls "$R"/*.png | wc -l) of $nseries)" \
	test "$(ls "$R"/*.png | wc -l)" -eq "$ncards"
check "the failing series is the first card" \
	sh -c "grep -m1 '<article class=\"card' '$R/index.html' | grep -q 'regression failing'"
check "the hostile case id and host are text, not markup" \
	sh -c "! grep -q '<img src=x' '$R/index.html' && ! grep -q '<b>host' '$R/index.html' &&
		grep -q 'evil&quot;&lt;b&gt;host' '$R/index.html'"

# Drawn again into the same directory: every chart is kept.
before=$(stat -c %Y "$R"/*.png | sort | tail -n 1)
sleep 1
$TB history report --db "$db" -o "$R" >/dev/null 2>&1
check "a second report of the same data redraws no chart" \
	test "$(stat -c %Y "$R"/*.png | sort | tail -n 1)" = "$before"


# Triage from the command line: the split regression accepted, with a
# reason made of HTML. It leaves the open section; its card says who
# accepted it and why, as text.
id=$(jq -r '.series[] | select(.case == "split-00/thp=always") | .change_points[-1].id' "$TMPD/check.json")
$TB history triage --db "$db" "$id" --accept --by 'Ada <ada@lab>' \
	--reason '<script>alert(1)</script> larger folios, intended' >/dev/null
check "history triage $id --accept: exit 0" test $? -eq 0
R2=$TMPD/report2
$TB history report --db "$db" -o "$R2" >/dev/null 2>&1
card=$(sed -n '/id="recent"/,$p' "$R2/index.html" | sed -n '/split-00\/thp=always/,/<\/article>/p')
check "  the accepted regression moved to the recent changes" test -n "$card"
check "  its card says accepted, by whom, why (escaped)" sh -c "echo '$card' | grep -q 'status triaged\">accepted</span>' &&
	echo '$card' | grep -q 'accepted by Ada &lt;ada@lab&gt; on .*&lt;script&gt;alert(1)&lt;/script&gt; larger folios'"
check "  no script on the page" sh -c "! grep -q '<script' '$R2/index.html'"
check "  one fewer open regression" test "$(sed -n '/id="open"/,/id="recent"/p' "$R2/index.html" | grep -c '<article')" \
	-eq "$(($(sed -n '/id="open"/,/id="recent"/p' "$R/index.html" | grep -c '<article') - 1))"


# A copy of the triaged page with a probe script (the report itself has
# none): after load it measures what the browser laid out and writes it
# into the DOM.
cp "$R2/index.html" "$R2/probe.html"
cat >>"$R2/probe.html" <<'PROBE'
<script>
window.addEventListener('load', function () {
	var W = window.innerWidth, H = window.innerHeight, out = [];
	var wide = [], wrapped = [], im = document.images, ok = 0;
	document.querySelectorAll('body *').forEach(function (e) {
		var r = e.getBoundingClientRect();
		if (r.width && r.right > W + 1 && !e.closest('.facts,.scroll'))
			wide.push(e.tagName + '.' + e.className);
	});
	document.querySelectorAll('code, .nw').forEach(function (e) {
		// Wrapped: its boxes stand on more than one line.
		var tops = {}, n = 0, rs = e.getClientRects();
		for (var k = 0; k < rs.length; k++)
			if (rs[k].width && !tops[Math.round(rs[k].bottom)]) { tops[Math.round(rs[k].bottom)] = 1; n++; }
		if (n > 1) wrapped.push(e.textContent);
	});
	for (var i = 0; i < im.length; i++)
		if (im[i].complete && im[i].naturalWidth === 1000) ok++;
	var g = document.getElementById('gate'), big = g && g.querySelector('.big');
	out.push('overflow=' + (document.documentElement.scrollWidth > W ? 1 : 0));
	out.push('wide=' + wide.length + ' wrapped=' + wrapped.length);
	out.push('verdict_bottom=' + (g ? Math.round(g.getBoundingClientRect().bottom) : -1));
	out.push('screen=' + H);
	out.push('verdict_px=' + (big ? Math.round(parseFloat(getComputedStyle(big).fontSize)) : 0));
	out.push('verdict=' + (big ? big.textContent : ''));
	out.push('images=' + im.length + ' loaded=' + ok);
	out.push('handlers=' + document.querySelectorAll('[onerror],[onload]').length);
	out.push('detail=' + wide.slice(0, 3).join(',') + '|' + wrapped.slice(0, 3).join(','));
	var p = document.createElement('pre');
	p.id = 'tb-probe';
	p.textContent = out.join(' ');
	document.body.appendChild(p);
});
</script>
PROBE
chrome() { timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$TMPD/chrome" "$@" 2>>"$TMPD/chrome.err"; }
val() { echo "$probe" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
for w in 1200 1920; do
	probe=$(chrome --window-size=$w,900 --virtual-time-budget=10000 --dump-dom \
		"file://$R2/probe.html" | sed -n 's/.*<pre id="tb-probe">\([^<]*\)<.*/\1/p')
	echo "chromium $w px: $probe"
	check "$w px: the page loads" test -n "$probe"
	check "$w px: nothing wider than the window" test "$(val overflow)" = 0 -a "$(val wide)" = 0
	check "$w px: kernel ids, p-values, bisect lines on one line each" \
		test "$(val wrapped)" = 0
	check "$w px: the verdict (FAIL) in the first screen" \
		test "$(val verdict)" = FAIL -a "$(val verdict_bottom)" -gt 0 -a "$(val verdict_bottom)" -le "$(val screen)"
	check "$w px: and large (>= 32 px)" test "$(val verdict_px)" -ge 32
	check "$w px: every chart loads" test "$(val images)" = "$ncards" -a "$(val loaded)" = "$ncards"
	check "$w px: no element made from a hostile name" test "$(val handlers)" = 0
	chrome --window-size=$w,1000 --screenshot="$TMPD/report-$w.png" "file://$R2/index.html" >/dev/null
	check "$w px: a screenshot" sh -c "file '$TMPD/report-$w.png' | grep -q 'PNG image data, $w x 1000'"
	if [ -n "${SHOTS:-}" ]; then
		mkdir -p "$SHOTS" && cp "$TMPD/report-$w.png" "$SHOTS/"
	fi
done
if [ -n "${SHOTS:-}" ]; then
	cp "$R2"/*.png "$SHOTS/" 2>/dev/null
	echo "screenshots and charts: $SHOTS"
fi
finish
