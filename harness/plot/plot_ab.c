// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_ab - the charts of a comparison (plot.h): per pair of cases the
 * change of each metric with its interval, coloured by the verdict
 * compare.h reached, and the two samples side by side. Nothing is
 * computed here that compare_build() did not: the chart shows its numbers.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_format.h"
#include "plot_axis.h"
#include "plot_gp.h"
#include "plot_metrics.h"
#include "util/util.h"

#define MAX_ROWS 24
/* Width of a GP_FONT character in pixels, measured on pngcairo output. */
#define GP_CHAR_PX 10.0
#define MAX_DIST 6

static const struct {
	enum verdict v;
	const char *rgb;
} verdict_rgb[] = {
	{ VERDICT_IMPROVEMENT, "0x228833" },
	{ VERDICT_REGRESSION, "0xcc3311" },
	{ VERDICT_NO_CHANGE, "0x888888" },
	{ VERDICT_INCONCLUSIVE, "0xee9933" },
	{ VERDICT_CHANGED, "0x4477aa" },
	{ VERDICT_TOO_FEW, "0xdddddd" },
	{ VERDICT_LEVEL, "0xbbbbbb" },
};

static const char *rgb_of(enum verdict v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(verdict_rgb); i++)
		if (verdict_rgb[i].v == v)
			return verdict_rgb[i].rgb;
	return "0x999999";
}

/* Charted metrics of a pair: both sides measured, not a constant 0. */
static bool chartable(const struct cmp_metric *m)
{
	if (plot_metric_kind(m->name) == PM_OTHER || !m->a.n || !m->b.n)
		return false;
	return m->a.s.max != 0 || m->a.s.min != 0 || m->b.s.max != 0 ||
	       m->b.s.min != 0;
}

static int metric_cmp(const void *x, const void *y)
{
	const struct cmp_metric *a = *(const struct cmp_metric *const *)x;
	const struct cmp_metric *b = *(const struct cmp_metric *const *)y;

	return plot_metric_cmp(&a->name, &b->name);
}

/* The pair's charted metrics in chart order (kind PM_OTHER: all kinds). */
static size_t pick(const struct cmp_pair *p, enum pm_kind kind,
		   const struct cmp_metric ***out)
{
	const struct cmp_metric **v = xcalloc(p->nm + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < p->nm; i++)
		if (chartable(&p->m[i]) &&
		    (kind == PM_OTHER || plot_metric_kind(p->m[i].name) == kind))
			v[n++] = &p->m[i];
	qsort(v, n, sizeof(*v), metric_cmp);
	*out = v;
	return n;
}

/* How the change axis maps a relative change: percent, or a log ratio. */
struct change_axis {
	bool log;
	double lo, hi;
};

static void fit_change(struct change_axis *ax, const struct cmp_metric **m,
		       size_t n)
{
	double lo = 0, hi = 0, pos = 1, span;
	size_t i;

	for (i = 0; i < n; i++) {
		/* A change from a base of 0 has no relative size: leave its
		 * bar room to show its direction (+100% or -50%). */
		double from0 = isfinite(m[i]->ch.rel) || m[i]->ch.method != CHANGE_DIFF ?
			NAN : m[i]->ch.w.diff > 0 ? 1 : m[i]->ch.w.diff < 0 ? -0.5 : NAN;
		double t = m[i]->info.threshold, v[] = {
			m[i]->ch.rel, m[i]->ch.lo, m[i]->ch.hi, -t, t, from0,
		};
		size_t k;

		for (k = 0; k < ARRAY_SIZE(v); k++) {
			if (!isfinite(v[k]))
				continue;
			lo = fmin(lo, v[k]);
			hi = fmax(hi, v[k]);
			if (v[k] > -1)
				pos = fmin(pos, 1 + v[k]);
		}
	}
	/* Halving and doubling look alike only on a log axis. */
	ax->log = hi > 1 || lo < -0.5;
	if (ax->log) {
		ax->lo = pos / 1.5;
		ax->hi = (1 + hi) * 1.5;
		return;
	}
	span = fmax(hi - lo, 0.02);
	ax->lo = 100 * (lo - 0.08 * span);
	ax->hi = 100 * (hi + 0.08 * span);
}

/*
 * Tics of the log axis, as percentages ("-90%" at a ratio of 0.1): 0
 * first, then decades, then halving/doubling steps, each only where it
 * keeps clear of those already placed (a tenth of the axis).
 */
static void write_log_tics(FILE *f, const struct change_axis *ax,
			   double plot_px)
{
	static const double r[] = {
		1, 0.1, 10, 0.01, 100, 0.001, 1000, 1e-4, 1e4, 1e-5, 1e5,
		0.5, 2, 0.25, 4,
	};
	/* Room for a label like "+9900%" between two tics. */
	double kept[ARRAY_SIZE(r)] = { 0 }, gap = log2(ax->hi / ax->lo) * 80 / plot_px;
	char buf[32];
	size_t i, k, n = 0;

	fputs("set xtics (", f);
	for (i = 0; i < ARRAY_SIZE(r); i++) {
		if (r[i] < ax->lo || r[i] > ax->hi)
			continue;
		for (k = 0; k < n; k++)
			if (fabs(log2(r[i] / kept[k])) < gap)
				break;
		if (k < n)
			continue;
		fputs(n ? ", " : "", f);
		kept[n++] = r[i];
		if (r[i] == 1)
			snprintf(buf, sizeof(buf), "0");
		else
			snprintf(buf, sizeof(buf), "%+.6g%%", (r[i] - 1) * 100);
		gp_text(f, buf, GP_TIC);
		fprintf(f, " %g", r[i]);
	}
	fputs(")\n", f);
}

/*
 * Where a row's bar ends, as a relative change: the change itself, or,
 * for a change from a base of 0 (no relative change exists), the end of
 * the axis on the side the difference points to; 0 (no bar) otherwise.
 */
static double bar_end(const struct cmp_metric *m, const struct change_axis *ax)
{
	double far_up = ax->log ? ax->hi - 1 : ax->hi / 100;
	double far_down = ax->log ? ax->lo - 1 : ax->lo / 100;

	if (isfinite(m->ch.rel))
		return m->ch.rel;
	if (m->ch.method == CHANGE_DIFF && m->ch.w.diff > 0)
		return far_up;
	if (m->ch.method == CHANGE_DIFF && m->ch.w.diff < 0)
		return far_down;
	return 0;
}

static void write_change_row(FILE *f, size_t row, const struct cmp_metric *m,
			     const struct change_axis *ax)
{
	const double v[] = {
		m->ch.rel, m->ch.lo, m->ch.hi, bar_end(m, ax), m->info.threshold,
		m->p,
	};
	size_t i;

	fprintf(f, "%zu ", row);
	gp_text(f, m->name, GP_DATA);
	fprintf(f, " %d ", (int)m->verdict);
	gp_text(f, verdict_name(m->verdict), GP_DATA);
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		fputc(' ', f);
		gp_num(f, v[i]);
	}
	fprintf(f, " %zu %zu\n", m->a.n, m->b.n);
}

static int write_change_dat(struct gp_chart *ch, const struct cmp_metric **m,
			    size_t n, const struct change_axis *ax, char *name,
			    size_t len, char *err, size_t errlen)
{
	FILE *f = gp_data(ch, "dat", name, len, err, errlen);
	size_t i;

	if (!f)
		return -1;
	fputs("# Per metric, as thpbench compare computed it (fractions: "
	      "0.05 = +5%):\n# change (new vs base) and its interval (NaN: "
	      "none on a relative scale),\n# where the bar ends (the change; "
	      "the axis end for a change from a base of 0),\n# noise "
	      "threshold, p of the deciding test (adjusted), ok runs base "
	      "and new\n"
	      "# row metric verdict_code verdict change change_lo change_hi "
	      "bar threshold p n_base n_new\n", f);
	for (i = 0; i < n; i++)
		write_change_row(f, i, m[i], ax);
	return gp_data_close(ch, f, name, err, errlen);
}

/* Right-hand tic text of a row: "-12.3% [-15.1%, -9.4%] improvement",
 * in the words of the table (cf_change(), cf_interval()). */
static void row_note(const struct cmp_metric *m, char *buf, size_t len)
{
	char pct[48], ci[96];

	cf_change(m, pct, sizeof(pct));
	cf_interval(m, ci, sizeof(ci));
	snprintf(buf, len, "%s%s%s %s%s", pct, *ci ? " " : "", ci,
		 verdict_name(m->verdict),
		 m->ch.method == CHANGE_DIFF && m->ch.base == 0 ?
		 " (base 0: no relative change)" : "");
}

static void write_row_tics(FILE *f, const struct cmp_metric **m, size_t n)
{
	double extra;
	char buf[256];
	size_t i;

	fputs("set ytics (", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		gp_text(f, m[i]->name, GP_TIC);
		fprintf(f, " %zu", i);
	}
	fputs(") nomirror scale 0\nset y2tics (", f);
	for (i = 0; i < n; i++) {
		row_note(m[i], buf, sizeof(buf));
		fputs(i ? ", " : "", f);
		gp_text(f, buf, GP_TIC);
		fprintf(f, " %zu", i);
	}
	/* Few rows: keep them as thick as in a chart of 5, centred. */
	extra = n < 5 ? (5.0 - (double)n) / 2 : 0;
	fprintf(f, ") nomirror scale 0\nset yrange [%g:%g]\nset link y2\n",
		(double)n - 0.4 + extra, -0.6 - extra);
}

static void write_verdict_fn(FILE *f)
{
	size_t i;

	fputs("# Colour of a verdict_code (column 3).\nvcolor(v) = ", f);
	for (i = 0; i < ARRAY_SIZE(verdict_rgb); i++)
		fprintf(f, "v == %d ? %s : ", (int)verdict_rgb[i].v,
			verdict_rgb[i].rgb);
	fputs("0x999999\n", f);
}

static bool any_finite(const struct cmp_metric **m, size_t n, bool ci)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((isfinite(m[i]->ch.rel) || (!ci && m[i]->ch.method == CHANGE_DIFF)) &&
		    (!ci || (isfinite(m[i]->ch.lo) && isfinite(m[i]->ch.hi))))
			return true;
	return false;
}

/* "column(k) as x": percent, or ratio clamped into a log axis; a NaN
 * stays undefined (1/0: nothing drawn), never clamped to an axis end. */
static void xcol(FILE *f, const struct change_axis *ax, int col)
{
	if (!ax->log)
		fprintf(f, "($%d != $%d ? 1/0 : 100*$%d)", col, col, col);
	else
		fprintf(f, "($%d != $%d ? 1/0 : 1+$%d > %g ? 1+$%d : %g)", col,
			col, col, ax->lo, col, ax->lo);
}

/*
 * The legend, drawn as objects and labels in one centred row: gnuplot's
 * key wraps into a column when the plot is narrow, as it is between long
 * row labels.
 */
static void write_legend(FILE *f, const struct cmp_metric **m, size_t n,
			 int width, int height)
{
	bool seen[VERDICT_LEVEL + 1] = { false };
	const char *text[ARRAY_SIZE(verdict_rgb) + 1], *rgb[ARRAY_SIZE(text)];
	double t = m[0]->info.threshold, x, total = 0, y = 14.0 / height;
	char thr[64];
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if ((size_t)m[i]->verdict < ARRAY_SIZE(seen))
			seen[m[i]->verdict] = true;
		if (m[i]->info.threshold != t)
			t = NAN;
	}
	for (i = 0; i < ARRAY_SIZE(verdict_rgb); i++)
		if (seen[verdict_rgb[i].v]) {
			text[k] = verdict_name(verdict_rgb[i].v);
			rgb[k++] = verdict_rgb[i].rgb;
		}
	if (isfinite(t))
		snprintf(thr, sizeof(thr), "noise threshold ±%g%%", 100 * t);
	else
		snprintf(thr, sizeof(thr), "noise threshold");
	text[k] = thr;
	rgb[k++] = "0xe4e4e4";
	for (i = 0; i < k; i++)
		total += 30 + cf_width(text[i]) * GP_CHAR_PX + (i ? 28 : 0);
	x = (width - total) / 2;
	for (i = 0; i < k; i++) {
		fprintf(f, "set object %zu rect from screen %.4f, screen %.4f "
			"to screen %.4f, screen %.4f fc rgb %s fs solid 0.8 "
			"border lc rgb '#333333'\n", i + 1, x / width, y,
			(x + 22) / width, y + 14.0 / height, rgb[i]);
		fprintf(f, "set label %zu ", i + 2);
		gp_text(f, text[i], GP_SINGLE);
		fprintf(f, " at screen %.4f, screen %.4f left\n",
			(x + 30) / width, y + 7.0 / height);
		x += 30 + cf_width(text[i]) * GP_CHAR_PX + 28;
	}
}

static void write_change_plot(FILE *f, const struct change_axis *ax,
			      const struct cmp_metric **m, size_t n,
			      const char *dat)
{
	const char *zero = ax->log ? "1" : "0";

	fprintf(f, "plot ");
	gp_text(f, dat, GP_SINGLE);
	fprintf(f, " using (%s):1:", zero);
	if (ax->log)
		fputs("(1-$9):(1+$9)", f);
	else
		fputs("(-100*$9):(100*$9)", f);
	fputs(":($1-0.4):($1+0.4) with boxxyerror fs solid 1 noborder "
	      "lc rgb '#e4e4e4' notitle", f);
	if (any_finite(m, n, false)) {
		fprintf(f, ", \\\n     '' using (%s):1:(%s):", zero, zero);
		xcol(f, ax, 8);
		fputs(":($1-0.25):($1+0.25):(vcolor($3)) with boxxyerror "
		      "lc rgb variable fs solid 0.8 border lc rgb '#333333' "
		      "notitle", f);
	}
	if (any_finite(m, n, true)) {
		fputs(", \\\n     '' using ", f);
		xcol(f, ax, 5);
		fputs(":1:", f);
		xcol(f, ax, 6);
		fputc(':', f);
		xcol(f, ax, 7);
		fputs(" with xerrorbars lc rgb '#222222' lw 2 pt 7 ps 0 notitle", f);
	}
	fputc('\n', f);
}

/* meta.timings of either file ("emulated (qemu TCG): ..."), or NULL. */
static const char *timings_note(const struct comparison *c)
{
	const json_t *t = json_object_get(c->ra->meta, "timings");

	if (!json_is_string(t))
		t = json_object_get(c->rb->meta, "timings");
	return json_is_string(t) ? json_string_value(t) : NULL;
}

static void pair_what(const struct comparison *c, const struct cmp_pair *p,
		      const char *chart, char *buf, size_t len)
{
	char ka[128], kb[128];
	const char *timings = timings_note(c);
	size_t n;

	cf_kernel(c->ra, ka, sizeof(ka));
	cf_kernel(c->rb, kb, sizeof(kb));
	/* Kernel A/B runs are labelled with the kernel: say it once. */
	if (*p->a_name && strstr(ka, p->a_name))
		ka[0] = '\0';
	if (*p->b_name && strstr(kb, p->b_name))
		kb[0] = '\0';
	snprintf(buf, len, "%s: %s\nbase: %s%s%s, n = %zu · new: %s%s%s, "
		 "n = %zu", p->title, chart, p->a_name, *ka ? ", " : "", ka,
		 case_ok_runs(p->a), p->b_name, *kb ? ", " : "", kb,
		 case_ok_runs(p->b));
	/* Emulated timings are said on every chart that shows them. */
	n = strlen(buf);
	if (timings && n < len)
		snprintf(buf + n, len - n, "\ntimings: %s", timings);
}

/*
 * Margins from the widest row labels, and the header centred on the image
 * rather than on the plot (which the labels push off centre). gnuplot's
 * own margin estimate leaves the plot too narrow for the long right-hand
 * labels.
 */
/* Widest row label (left) and row note (right), in characters. */
static void label_widths(const struct cmp_metric **m, size_t n, int *left,
			 int *right)
{
	char buf[256];
	size_t i;
	int w;

	*left = *right = 0;
	for (i = 0; i < n; i++) {
		w = cf_width(m[i]->name);
		*left = w > *left ? w : *left;
		row_note(m[i], buf, sizeof(buf));
		w = cf_width(buf);
		*right = w > *right ? w : *right;
	}
}

/* Wider than GP_WIDTH when the labels would leave the bars under 400 px. */
static int change_width(const struct cmp_metric **m, size_t n)
{
	int left, right, need;

	label_widths(m, n, &left, &right);
	need = (int)((left + right) * GP_CHAR_PX) + 70 + 400;
	return need > GP_WIDTH ? need : GP_WIDTH;
}

static double write_frame(FILE *f, const struct cmp_metric **m, size_t n,
			  const char *header, int width, int height)
{
	double lm, rm;
	int left, right;

	label_widths(m, n, &left, &right);
	lm = (left * GP_CHAR_PX + 30) / width;
	rm = 1 - (right * GP_CHAR_PX + 40) / width;
	if (rm - lm < 0.3)	/* absurdly long names: keep some plot */
		lm = rm - 0.3;
	fprintf(f, "set lmargin at screen %.3f\nset rmargin at screen %.3f\n"
		"set tmargin at screen %.3f\nunset title\n"
		"set label 1 ", lm, rm, 1 - 100.0 / height);
	gp_text(f, header, GP_DOUBLE);
	fprintf(f, " at screen 0.5, screen %.3f center font ',14'\n",
		1 - 28.0 / height);
	return (rm - lm) * width;
}

static void write_change_axis(FILE *f, const struct change_axis *ax,
			      double plot_px, int height)
{
	fputs("set border 3\nset tics out\nset grid xtics lc rgb '#dddddd'\n"
	      "set xtics nomirror\nset key off\n"
	      "set pointintervalbox 0.0001\n", f);
	if (ax->log) {
		fputs("set logscale x 2\n", f);
		write_log_tics(f, ax, plot_px);
	}
	fprintf(f, "set xrange [%g:%g]\n", ax->lo, ax->hi);
	fprintf(f, "set arrow from %s, graph 0 to %s, graph 1 nohead "
		"lc rgb '#444444'\n", ax->log ? "1" : "0", ax->log ? "1" : "0");
	fprintf(f, "set bmargin at screen %.3f\nset xlabel ", 110.0 / height);
	gp_text(f, ax->log ? "change, new vs base (log scale)" :
	       "change, new vs base (%)", GP_SINGLE);
	fputc('\n', f);
}

static int change_chart(const struct comparison *c, const struct cmp_pair *p,
			const char *dir, const char *stem, struct plot_set *ps,
			char *err, size_t errlen)
{
	const struct cmp_metric **m;
	struct change_axis ax;
	struct gp_chart ch;
	char what[2048], dat[512], conf[16];
	size_t n = pick(p, PM_OTHER, &m), dropped = 0;
	int width, height, rc = -1;
	double plot_px;

	if (!n) {
		free(m);
		return 0;
	}
	if (n > MAX_ROWS) {
		dropped = n - MAX_ROWS;
		n = MAX_ROWS;
	}
	pair_what(c, p, "% change of each metric", what, sizeof(what));
	if (gp_open(&ch, ps, dir, stem, what, err, errlen))
		goto out;
	fit_change(&ax, m, n);
	if (write_change_dat(&ch, m, n, &ax, dat, sizeof(dat), err, errlen)) {
		gp_abort(&ch);
		goto out;
	}
	write_verdict_fn(ch.gp);
	write_row_tics(ch.gp, m, n);
	snprintf(what + strlen(what), sizeof(what) - strlen(what),
		 "\nbar: change (geometric means, or the difference where a value is <= 0) · whisker: its interval (%s%%, Bonferroni per family)%s",
		 cf_level(c->opts.confidence, conf, sizeof(conf)),
		 dropped ? " · more metrics: thpbench compare" : "");
	height = GP_HEIGHT + (n > 12 ? (int)(n - 12) * 30 : 0);
	width = change_width(m, n);
	plot_px = write_frame(ch.gp, m, n, what, width, height);
	write_legend(ch.gp, m, n, width, height);
	write_change_axis(ch.gp, &ax, plot_px, height);
	gp_begin(&ch, width, height);
	write_change_plot(ch.gp, &ax, m, n, dat);
	rc = gp_close(&ch, err, errlen);
out:
	free(m);
	return rc;
}

static void write_side(FILE *f, const struct cmp_metric *m,
		       const struct cmp_side *s, const char *side, size_t blk)
{
	size_t i;

	fputs(blk ? "\n\n" : "", f);
	gp_comment(f, "block %zu: %s, %s (%s); outlier 1 = flagged, kept", blk,
		   m->name, side, plot_metric_unit(m->name));
	fputs("# side run value outlier\n", f);
	for (i = 0; i < s->n; i++) {
		gp_text(f, side, GP_DATA);
		fprintf(f, " %zu ", i + 1);
		gp_num(f, s->v[i]);
		fprintf(f, " %d\n", s->outlier && s->outlier[i] ? 1 : 0);
	}
}

static void dist_panel(FILE *f, const struct cmp_metric *m, size_t k,
		       const char *dat)
{
	double *all = xmalloc((m->a.n + m->b.n + 1) * sizeof(*all));
	struct gp_axis ax;
	char title[512], note[256], pct[32];
	size_t side;

	memcpy(all, m->a.v, m->a.n * sizeof(*all));
	memcpy(all + m->a.n, m->b.v, m->b.n * sizeof(*all));
	gp_axis_fit_spread(&ax, m->name, all, m->a.n + m->b.n);
	free(all);
	/* Panels are narrow: the change and verdict only, no interval. */
	snprintf(note, sizeof(note), "%s: %s", cf_change(m, pct, sizeof(pct)),
		 verdict_name(m->verdict));
	snprintf(title, sizeof(title), "%s\n%s", m->name, note);
	fputc('\n', f);
	gp_comment(f, "%s: blocks %zu (base) and %zu (new) of %s", m->name,
		   2 * k, 2 * k + 1, dat);
	fputs("set title ", f);
	gp_text(f, title, GP_DOUBLE);
	fprintf(f, " tc rgb %s\n", rgb_of(m->verdict));
	gp_axis_write(f, &ax, 'y');
	fputs("plot ", f);
	for (side = 0; side < 2; side++) {
		fputs(side ? ", \\\n     " : "", f);
		gp_text(f, dat, GP_SINGLE);
		fprintf(f, " index %zu using (%zu):", 2 * k + side, side);
		gp_axis_col(f, &ax, 3);
		fprintf(f, " with boxplot lt %zu fs solid 0.35 notitle", side + 1);
	}
	for (side = 0; side < 2; side++) {
		fputs(", \\\n     ", f);
		gp_text(f, dat, GP_SINGLE);
		fprintf(f, " index %zu using (%zu):", 2 * k + side, side);
		gp_axis_col(f, &ax, 3);
		fputs(" with points pt 7 ps 0.9 lc rgb '#30222222' notitle", f);
	}
	fputc('\n', f);
}

/*
 * Timing and throughput metrics; with fewer than three of them, counters
 * fill the chart up (mremap has one timing, and its thp_fault_alloc is
 * what shows the THP path was taken).
 */
static size_t pick_dist(const struct cmp_pair *p,
			const struct cmp_metric ***out)
{
	const struct cmp_metric **perf, **cnt;
	size_t np = pick(p, PM_PERF, &perf), nc = pick(p, PM_COUNTER, &cnt);
	size_t i;

	np = np > MAX_DIST ? MAX_DIST : np;
	perf = xrealloc(perf, (np + 4) * sizeof(*perf));
	for (i = 0; i < nc && np < 3; i++)
		perf[np++] = cnt[i];
	free(cnt);
	*out = perf;
	return np;
}

/*
 * "always" and "never" under the boxes for "thp=always" vs "thp=never":
 * the header names the knob, and narrow panels have no room for it twice.
 * Names longer than a panel's tic spacing (kernel releases) lose their
 * common prefix ("6.1.0-tb-"), and when still too long become "base" and
 * "new", as the header (which names both in full) calls them.
 */
#define DIST_TIC_CHARS 10

void plot_side_tics(const char *a, const char *b, char *ta, char *tb,
		    size_t len)
{
	const char *ea = strchr(a, '='), *eb = strchr(b, '=');
	size_t i, cut = 0;

	if (ea && eb && ea - a == eb - b && !strncmp(a, b, (size_t)(ea - a)) &&
	    ea[1] && eb[1]) {
		a = ea + 1;
		b = eb + 1;
	}
	if (cf_width(a) > DIST_TIC_CHARS || cf_width(b) > DIST_TIC_CHARS) {
		for (i = 0; a[i] && a[i] == b[i]; i++)
			if (a[i] == '-' || a[i] == '.' || a[i] == '/')
				cut = i + 1;
		if (a[cut] && b[cut]) {
			a += cut;
			b += cut;
		}
	}
	if (cf_width(a) > DIST_TIC_CHARS || cf_width(b) > DIST_TIC_CHARS) {
		a = "base";
		b = "new";
	}
	snprintf(ta, len, "%s", a);
	snprintf(tb, len, "%s", b);
}

static void write_side_tics(FILE *f, const char *a, const char *b)
{
	char ta[256], tb[256];

	plot_side_tics(a, b, ta, tb, sizeof(ta));
	fputs("set xtics (", f);
	gp_text(f, ta, GP_TIC);
	fputs(" 0, ", f);
	gp_text(f, tb, GP_TIC);
	fputs(" 1)\n", f);
}

static int dist_chart(const struct comparison *c, const struct cmp_pair *p,
		      const char *dir, const char *stem, struct plot_set *ps,
		      char *err, size_t errlen)
{
	const struct cmp_metric **m;
	struct gp_chart ch;
	char what[2048], dat[512];
	size_t n = pick_dist(p, &m), i, cols;
	FILE *f;
	int rc = -1;

	if (!n) {
		free(m);
		return 0;
	}
	n = n > MAX_DIST ? MAX_DIST : n;
	pair_what(c, p, "distributions", what, sizeof(what));
	if (gp_open(&ch, ps, dir, stem, what, err, errlen))
		goto out;
	f = gp_data(&ch, "dat", dat, sizeof(dat), err, errlen);
	if (!f) {
		gp_abort(&ch);
		goto out;
	}
	fputs("# Every ok run of base and new, per metric, as compared\n", f);
	for (i = 0; i < n; i++) {
		write_side(f, m[i], &m[i]->a, "base", 2 * i);
		write_side(f, m[i], &m[i]->b, "new", 2 * i + 1);
	}
	if (gp_data_close(&ch, f, dat, err, errlen)) {
		gp_abort(&ch);
		goto out;
	}
	fputs("set style fill solid 0.35 border lc rgb '#333333'\n"
	      "set style boxplot nooutliers\nset boxwidth 0.5\n"
	      "set border 3\nset tics nomirror out\nset key off\n"
	      "set grid ytics lc rgb '#dddddd'\n"
	      "set jitter overlap 0.6 spread 0.5\n"
	      "set xrange [-0.75:1.75]\n", ch.gp);
	write_side_tics(ch.gp, p->a_name, p->b_name);
	gp_begin(&ch, GP_WIDTH, n > 3 ? GP_HEIGHT + 60 : GP_HEIGHT);
	cols = n <= 3 ? n : (n == 4 ? 2 : 3);
	snprintf(what + strlen(what), sizeof(what) - strlen(what),
		 "\nbox: median and quartiles · dot: one run");
	fprintf(ch.gp, "set multiplot layout %zu,%zu rowsfirst title ",
		(n + cols - 1) / cols, cols);
	gp_text(ch.gp, what, GP_DOUBLE);
	fputs(" font ',14'\n", ch.gp);
	for (i = 0; i < n; i++)
		dist_panel(ch.gp, m[i], i, dat);
	fputs("unset multiplot\n", ch.gp);
	rc = gp_close(&ch, err, errlen);
out:
	free(m);
	return rc;
}

/* The slug naming pair k's charts: "mremap-always". */
static void pair_slug(const struct comparison *c, size_t k, char *buf,
		      size_t len)
{
	const struct tb_case *a = c->pairs[k].a;
	char key[512];

	snprintf(key, sizeof(key), "%s%s%s", *a->name ? a->name : a->workload,
		 *a->thp ? "-" : "", a->thp);
	gp_slug(key, buf, len);
}

/* "ab-mremap-always" for the pair; "-2"... when taken by an earlier one. */
static void pair_stem(const struct comparison *c, size_t ip, char *buf,
		      size_t len)
{
	char slug[256], other[256];
	size_t k, dup = 0;

	pair_slug(c, ip, slug, sizeof(slug));
	for (k = 0; k < ip; k++) {
		pair_slug(c, k, other, sizeof(other));
		if (!strcmp(slug, other))
			dup++;
	}
	if (dup)
		snprintf(buf, len, "ab-%s-%zu", slug, dup + 1);
	else
		snprintf(buf, len, "ab-%s", slug);
}

int plot_compare(const struct comparison *c, const char *outdir,
		 struct plot_set *ps, char *err, size_t errlen)
{
	char stem[300], s1[320], s2[320];
	size_t i;

	if (mkdir_p(outdir, 0755)) {
		snprintf(err, errlen, "%s: cannot create directory: %s",
			 outdir, strerror(errno));
		return -1;
	}
	for (i = 0; i < c->npairs; i++) {
		pair_stem(c, i, stem, sizeof(stem));
		snprintf(s1, sizeof(s1), "%s-change", stem);
		snprintf(s2, sizeof(s2), "%s-dist", stem);
		if (change_chart(c, &c->pairs[i], outdir, s1, ps, err, errlen) ||
		    dist_chart(c, &c->pairs[i], outdir, s2, ps, err, errlen))
			return -1;
	}
	return 0;
}
