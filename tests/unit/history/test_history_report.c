// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report page and its charts on synthetic histories: what comes first
 * (history_digest), what the page says and escapes, the labels of the
 * night axis, the segment line of a one-night change, a change from 0 (no
 * percentage), and charts kept when their data did not change. The page
 * in a browser is tests/integration/history_report.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../history/histgen.h"
#include "history/history_check.h"
#include "history/history_digest.h"
#include "history/history_format.h"
#include "history/history_gate.h"
#include "history/history_plot.h"
#include "history/history_report.h"
#include "history/history_tics.h"
#include "plot/plot.h"
#include "util/util.h"

#define NS 4

struct fx {
	struct history_series v[NS];
	struct history_result *r;
	struct history_check_opts o;
	char dir[64];
};

/*
 * 0: quiet (hostile case id); 1: fails tonight (a step the night before,
 * confirmed tonight); 2: a regression 10 nights ago, still in effect; 3:
 * an improvement 5 nights ago. The gate: --fail-on newest (what is new
 * tonight), so that 2 is open but passes.
 */
static int setup(void **state)
{
	struct fx *fx = xcalloc(1, sizeof(*fx));
	struct histgen g;

	histgen_init(&g);
	g.case_id = "<img src=x onerror=alert(1)>\"'&";
	g.host = "evil\"<b>host";
	histgen_series(&g, &fx->v[0]);
	histgen_init(&g);
	g.case_id = "tonight/thp=always";
	g.reps = 10;
	g.steps[g.nsteps++] = (struct histgen_at){ 28, 0.15 };
	histgen_series(&g, &fx->v[1]);
	histgen_init(&g);
	g.case_id = "older/thp=always";
	g.steps[g.nsteps++] = (struct histgen_at){ 20, 0.10 };
	histgen_series(&g, &fx->v[2]);
	histgen_init(&g);
	g.case_id = "better/thp=always";
	g.steps[g.nsteps++] = (struct histgen_at){ 25, -0.10 };
	histgen_series(&g, &fx->v[3]);
	history_check_opts_init(&fx->o);
	fx->o.fail_on = HISTORY_FAIL_NEWEST;
	fx->r = history_check_all(fx->v, NS, &fx->o);
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/thpbench-report-XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	/* No gnuplot: the page and the scripts, not the images. */
	setenv("THPBENCH_GNUPLOT", "/nonexistent/gnuplot", 1);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	char cmd[128];
	size_t i;

	history_results_free(fx->r, NS);
	for (i = 0; i < NS; i++)
		history_series_free(&fx->v[i]);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", fx->dir);
	assert_int_equal(system(cmd), 0);
	free(fx);
	return 0;
}

static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static char *page(struct fx *fx)
{
	char path[128], err[4200];

	assert_int_equal(history_report(fx->r, NS, &fx->o, "db<&>", fx->dir, err,
					 sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/index.html", fx->dir);
	return slurp_file(path);
}

static void test_digest_order(void **state)
{
	struct fx *fx = *state;
	size_t counts[3];
	struct history_digest_item *d =
		history_digest(fx->r, NS, HISTORY_FAIL_NEWEST, 14, counts);

	assert_int_equal(counts[HA_OPEN], 2);
	assert_int_equal(counts[HA_RECENT], 1);
	assert_int_equal(counts[HA_QUIET], 1);
	/* The failing one first, then the older open one. */
	assert_int_equal(d[0].idx, 1);
	assert_true(d[0].fails);
	assert_int_equal(d[1].idx, 2);
	assert_false(d[1].fails);
	assert_int_equal(d[1].a, HA_OPEN);
	assert_int_equal(d[2].idx, 3);
	assert_int_equal(d[2].a, HA_RECENT);
	assert_int_equal(d[2].cp->kind, HCP_IMPROVEMENT);
	assert_int_equal(d[3].idx, 0);
	assert_null(d[3].cp);
	free(d);
	/* A shorter window: the improvement 5 nights ago is no longer recent. */
	d = history_digest(fx->r, NS, HISTORY_FAIL_NEWEST, 3, counts);
	assert_int_equal(counts[HA_RECENT], 0);
	assert_int_equal(counts[HA_QUIET], 2);
	free(d);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

static void test_page(void **state)
{
	struct fx *fx = *state;
	char *s = page(fx);
	const char *gate = strstr(s, "id=\"gate\""), *open = strstr(s, "id=\"open\""),
		   *recent = strstr(s, "id=\"recent\""), *quiet = strstr(s, "id=\"quiet\"");

	/* The verdict first, then open, recent, quiet. */
	assert_non_null(gate);
	assert_true(gate < open && open < recent && recent < quiet);
	assert_non_null(strstr(s, "class=\"verdict fail\">\n<p class=\"big\">FAIL</p>"));
	assert_non_null(strstr(s, "<title>FAIL: "));
	/* A card for each open or recent series, none for the quiet one. */
	assert_int_equal(count(s, "<article class=\"card"), 3);
	assert_true(strstr(s, "tonight/thp=always") < strstr(s, "older/thp=always"));
	assert_true(strstr(s, "older/thp=always") < recent);
	assert_true(strstr(s, "better/thp=always") > recent);
	assert_non_null(strstr(s, "<article class=\"card regression failing\""));
	/* The older one is open: its id and the triage command to close it. */
	{
		const char *older = strstr(s, "older/thp=always");
		char cmd[128];

		assert_non_null(strstr(older, "<span class=\"status open\">open</span>"));
		snprintf(cmd, sizeof(cmd), "thpbench history triage %s --accept",
			 fx->r[2].cp[fx->r[2].ncp - 1].id);
		assert_non_null(strstr(older, cmd));
		assert_true(strstr(older, cmd) < recent);
	}
	assert_non_null(strstr(s, "first fast"));
	assert_non_null(strstr(s, "git bisect start "));
	/* The quiet series: one row, its text escaped. */
	assert_int_equal(count(quiet, "<tr><td>"), 1);
	assert_null(strstr(s, "<img src=x"));
	assert_null(strstr(s, "<b>host"));
	assert_non_null(strstr(s, "&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"));
	assert_non_null(strstr(s, "evil&quot;&lt;b&gt;host"));
	assert_non_null(strstr(s, "db&lt;&amp;&gt;"));
	/* No script, nothing from the network; gnuplot missing is said. */
	assert_null(strstr(s, "<script"));
	assert_null(strstr(s, "http"));
	assert_non_null(strstr(s, "gnuplot missing"));
	free(s);
}

/*
 * A confirmed change smaller than the change these nights detect 8 times
 * in 10 is never shown beside that size without saying why.
 */
static void test_small_change_explained(void **state)
{
	struct fx *fx = *state;
	struct history_cp *cp = &fx->r[1].cp[fx->r[1].ncp - 1];
	double mde = cp->c.mde;
	char *s;

	assert_true(fabs(cp->c.ch.rel) > mde);
	s = page(fx);
	assert_null(strstr(s, "is smaller than that"));
	free(s);
	s = history_cp_text(&fx->r[1], cp);
	assert_null(strstr(s, "this change is smaller"));
	free(s);
	cp->c.mde = fabs(cp->c.ch.rel) * 1.1;
	s = page(fx);
	assert_non_null(strstr(s, "is smaller than that: it was significant all the same"));
	free(s);
	/* The text of check, JUnit, TAP and LAVA says it too. */
	s = history_cp_text(&fx->r[1], cp);
	assert_non_null(strstr(s, "(this change is smaller: significant all the same, its size uncertain)"));
	free(s);
	cp->c.mde = mde;
}

/*
 * Triaged, the older regression is no longer open: it leaves the open
 * section and its card says who accepted it and why.
 */
static void test_triaged_shown(void **state)
{
	struct fx *fx = *state;
	struct history_cp *cp = &fx->r[2].cp[fx->r[2].ncp - 1];
	size_t counts[3];
	struct history_digest_item *d;
	const char *card, *recent;
	char *s;

	cp->triage.state = TRIAGE_ACCEPTED;
	cp->triage.name = xstrdup("Ada <dev>");
	cp->triage.reason = xstrdup("bigger pages, fewer faults: intended");
	cp->triage.decided = xstrdup("2026-02-10T09:00:00Z");
	d = history_digest(fx->r, NS, HISTORY_FAIL_NEWEST, 14, counts);
	assert_int_equal(counts[HA_OPEN], 1);
	free(d);
	s = page(fx);
	recent = strstr(s, "id=\"recent\"");
	card = strstr(s, "older/thp=always");
	assert_non_null(card);
	assert_true(card > recent);
	assert_non_null(strstr(card, "<span class=\"status triaged\">accepted</span>"));
	assert_non_null(strstr(card, "accepted by Ada &lt;dev&gt; on 2026-02-10T09:00:00Z: bigger pages, fewer faults: intended"));
	free(s);
	free(cp->triage.name);
	free(cp->triage.reason);
	free(cp->triage.decided);
	memset(&cp->triage, 0, sizeof(cp->triage));
}

/*
 * issue 36 small item: a 1 MB name (from a hostile database: `history
 * triage` takes 100 characters) overflowed its card. The card shows the
 * first 100 characters and "…"; a long reason wraps (.note).
 */
static void test_long_name_cut(void **state)
{
	struct fx *fx = *state;
	struct history_cp *cp = &fx->r[2].cp[fx->r[2].ncp - 1];
	size_t big = 1 << 20;
	const char *card, *end;
	char *s, *name = xmalloc(big + 1), want[160];

	memset(name, 'N', big);
	name[big] = '\0';
	cp->triage.state = TRIAGE_ACCEPTED;
	cp->triage.name = name;
	cp->triage.reason = xstrdup("intended");
	cp->triage.decided = xstrdup("2026-02-10T09:00:00Z");
	s = page(fx);
	card = strstr(s, "older/thp=always");
	assert_non_null(card);
	end = strstr(card, "</article>");
	assert_non_null(end);
	memset(want, 'N', 100);
	snprintf(want + 100, sizeof(want) - 100, "… on 2026-02-10T09:00:00Z: intended");
	assert_non_null(strstr(card, want));
	assert_true(end - card < 64 * 1024);
	assert_non_null(strstr(s, ".note{color:#7a4a00;overflow-wrap:anywhere}"));
	free(s);
	free(cp->triage.name);
	free(cp->triage.reason);
	free(cp->triage.decided);
	memset(&cp->triage, 0, sizeof(cp->triage));
}

/* Series s checked alone into r (released by the caller): its page's text. */
static char *watch_page(struct fx *fx, struct history_series *s,
			struct history_result *r)
{
	char path[128], err[4200];

	history_check_series(s, &fx->o, r);
	assert_true(r->watch.present);
	assert_int_equal(history_report(r, 1, &fx->o, "db", fx->dir, err,
					 sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/index.html", fx->dir);
	return slurp_file(path);
}

/*
 * Tonight alone far out (the watch, not yet a change): a card of the same
 * shape, a dotted mark on the chart, tonight outside the segment's line.
 */
static void test_watch_card(void **state)
{
	struct fx *fx = *state;
	struct history_series s;
	struct history_result r;
	struct histgen g;
	char path[700], stem[512], *page_text, *gp, *seg, *p;
	double x, y, last_x = 0;

	histgen_init(&g);
	g.case_id = "watch/thp=always";
	g.reps = 10;
	g.steps[g.nsteps++] = (struct histgen_at){ 29, 0.40 };
	histgen_series(&g, &s);
	page_text = watch_page(fx, &s, &r);
	assert_true(r.watch.strong);
	assert_int_equal(r.watch.night, 29);
	assert_non_null(strstr(page_text, "<span class=\"kind regression\">tonight alone</span>"));
	assert_non_null(strstr(page_text, "the next night confirms it"));
	assert_non_null(strstr(page_text, "<th>bisect</th>"));
	history_plot_stem(&s, stem, sizeof(stem));
	snprintf(path, sizeof(path), "%s/%s.gp", fx->dir, stem);
	gp = slurp_file(path);
	assert_non_null(strstr(gp, "set label \"tonight alone +"));
	assert_non_null(strstr(gp, "dt 3 lw 2"));
	snprintf(path, sizeof(path), "%s/%s.seg.dat", fx->dir, stem);
	seg = slurp_file(path);
	for (p = strchr(seg, '\n') + 1; *p; p = strchr(p, '\n') + 1)
		if (sscanf(p, "%lf %lf", &x, &y) == 2)
			last_x = fmax(last_x, x);
	assert_true(last_x > 28 && last_x < 30);	/* ends before night 30 (x) */
	free(seg);
	free(gp);
	free(page_text);
	history_result_release(&r);
	history_series_free(&s);
}

/*
 * A count that was 0 every night and is not tonight: no percentage exists.
 * The headline gives the difference and its direction, never "n/a".
 */
static void test_change_from_zero(void **state)
{
	struct fx *fx = *state;
	static const double tonight[] = { 0, 1, 0, 2, 1, 1, 0, 2, 1, 0 };
	struct history_series s;
	struct history_result r;
	struct histgen g;
	char *page_text;
	size_t i, k;

	histgen_init(&g);
	g.case_id = "zero/thp=always";
	g.metric = "page-faults";
	g.reps = 10;
	histgen_series(&g, &s);
	for (i = 0; i < s.n_nights; i++)
		for (k = 0; k < s.nights[i].n; k++)
			s.nights[i].values[k] = i + 1 < s.n_nights ? 0 : tonight[k % 10];
	page_text = watch_page(fx, &s, &r);
	assert_null(strstr(page_text, "n/a"));
	assert_non_null(strstr(page_text, "tonight alone</span> <span class=\"nw\"><b>+<span class=\"nw\">0.8"));
	assert_non_null(strstr(page_text, "</b> higher</span>"));
	free(page_text);
	history_result_release(&r);
	history_series_free(&s);
}

static void test_tics_distinct(void **state)
{
	struct history_series s = { 0 };
	struct history_tic t[8];
	char xlabel[64], iso[48];
	size_t n, i, j;

	(void)state;
	s.n_nights = 40;
	s.nights = xcalloc(s.n_nights, sizeof(*s.nights));
	/* One night a day from 1 January: month-day labels, the newest among them. */
	for (i = 0; i < s.n_nights; i++) {
		snprintf(iso, sizeof(iso), "2024-01-%02uT02:00:00Z", (unsigned)(i % 31 + 1));
		if (i >= 31)
			snprintf(iso, sizeof(iso), "2024-02-%02uT02:00:00Z", (unsigned)(i - 30));
		s.nights[i].started = xstrdup(iso);
	}
	n = history_tics(&s, 8, t, xlabel, sizeof(xlabel));
	assert_true(n >= 5 && n <= 8);
	assert_int_equal(t[n - 1].night, 39);
	assert_string_equal(t[0].label, "01-01");
	assert_string_equal(xlabel, "night (2024, UTC)");
	assert_string_equal(t[n - 1].label, "02-09");
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_string_not_equal(t[i].label, t[j].label);
	/* Every night on one day: the time tells them apart. */
	for (i = 0; i < s.n_nights; i++) {
		snprintf(iso, sizeof(iso), "2026-03-04T%02u:%02u:00Z",
			 (unsigned)(i / 2 % 24), (unsigned)(i % 2 * 30));
		free(s.nights[i].started);
		s.nights[i].started = xstrdup(iso);
	}
	n = history_tics(&s, 8, t, xlabel, sizeof(xlabel));
	assert_string_equal(t[0].label, "03-04 00:00");
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_string_not_equal(t[i].label, t[j].label);
	/* Every night at the same minute: their numbers. */
	for (i = 0; i < s.n_nights; i++) {
		free(s.nights[i].started);
		s.nights[i].started = xstrdup("2026-03-04T02:00:00Z");
	}
	n = history_tics(&s, 8, t, xlabel, sizeof(xlabel));
	assert_string_equal(t[n - 1].label, "#40");
	assert_string_equal(xlabel, "night (number, oldest 1)");
	history_series_free(&s);
}

/* The files of series i's chart: STEM.SUFFIX in dir, its text. */
static char *chart_file(struct fx *fx, size_t i, const char *suffix)
{
	char stem[512], path[700];

	history_plot_stem(&fx->v[i], stem, sizeof(stem));
	snprintf(path, sizeof(path), "%s/%s.%s", fx->dir, stem, suffix);
	return slurp_file(path);
}

/* Tonight's change is the newest segment, as short as a confirmed change
 * can be (two nights): its mean is a line, not a dot. */
static void test_one_night_segment_drawn(void **state)
{
	struct fx *fx = *state;
	struct plot_set ps = { 0 };
	char err[256], *seg, *gp, *p;
	double x[8], y[8];
	size_t n = 0;

	assert_int_equal(history_plot(&fx->r[1], 1, fx->dir, &ps, err, sizeof(err)), 0);
	plot_set_free(&ps);
	seg = chart_file(fx, 1, "seg.dat");
	for (p = strchr(seg, '\n') + 1; *p && n < 8; p = strchr(p, '\n') + 1) {
		if (*p == '\n')
			continue;
		assert_int_equal(sscanf(p, "%lf %lf", &x[n], &y[n]), 2);
		n++;
	}
	assert_int_equal(n, 4);		/* two segments, two ends each */
	assert_true(x[3] - x[2] > 0.5);	/* the one night after the change */
	assert_true(y[2] > y[0] * 1.1);	/* +15% */
	gp = chart_file(fx, 1, "gp");
	/* Both means labelled; the change point level, with its size. */
	assert_int_equal(count(gp, "set label \"mean "), 2);
	assert_non_null(strstr(gp, "set label \"regression +"));
	assert_null(strstr(gp, "rotate"));
	free(seg);
	free(gp);
}

/* A chart whose script and data are as before, images there: not redrawn. */
static void test_unchanged_chart_kept(void **state)
{
	struct fx *fx = *state;
	struct plot_set ps = { 0 };
	char err[256], stem[512], path[700];
	const char *ext[] = { "png", "svg" };
	size_t i;

	assert_int_equal(history_plot(&fx->r[2], 1, fx->dir, &ps, err, sizeof(err)), 0);
	assert_int_equal(ps.nscripts, 1);
	plot_set_free(&ps);
	/* Same data, no images yet: drawn again. */
	assert_int_equal(history_plot(&fx->r[2], 1, fx->dir, &ps, err, sizeof(err)), 0);
	assert_int_equal(ps.nscripts, 1);
	plot_set_free(&ps);
	history_plot_stem(&fx->v[2], stem, sizeof(stem));
	for (i = 0; i < 2; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.%s", fx->dir, stem, ext[i]);
		f = fopen(path, "w");
		assert_non_null(f);
		fclose(f);
	}
	/* Same data, images there: kept, listed as images, not drawn. */
	assert_int_equal(history_plot(&fx->r[2], 1, fx->dir, &ps, err, sizeof(err)), 0);
	assert_int_equal(ps.nscripts, 0);
	assert_int_equal(ps.nkept, 1);
	assert_int_equal(plot_render(&ps, stderr), PLOT_DRAWN);
	assert_int_equal(ps.nimages, 2);
	plot_set_free(&ps);
	/* A new night: drawn again. */
	fx->v[2].n_nights--;
	fx->r[2].n_used--;
	assert_int_equal(history_plot(&fx->r[2], 1, fx->dir, &ps, err, sizeof(err)), 0);
	fx->v[2].n_nights++;
	fx->r[2].n_used++;
	assert_int_equal(ps.nscripts, 1);
	assert_int_equal(ps.nkept, 0);
	plot_set_free(&ps);
	/* No file is left half written. */
	snprintf(path, sizeof(path), "ls %s | grep -q '\\.new$'", fx->dir);
	assert_int_not_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest_order),
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_small_change_explained),
		cmocka_unit_test(test_triaged_shown),
		cmocka_unit_test(test_long_name_cut),
		cmocka_unit_test(test_watch_card),
		cmocka_unit_test(test_change_from_zero),
		cmocka_unit_test(test_tics_distinct),
		cmocka_unit_test(test_one_night_segment_drawn),
		cmocka_unit_test(test_unchanged_chart_kept),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
