// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_change - the change chart of a compared pair (plot_change.h).
 * Nothing is computed here that compare_build() did not: the chart shows
 * the numbers of the tables.
 */
#include "plot_change.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_format.h"
#include "plot_gp.h"
#include "plot_pairs.h"
#include "util/util.h"

#define PCT_MAX 16		/* rows per panel */
#define CNT_MAX 16
/* Heights in pixels: a line of the header (and its margin), a panel's
 * title, a row of each panel (two lines of label), the % axis and its
 * label, the gap under the counts, the legend (two rows). */
#define HEAD_LINE_PX 22
#define HEAD_PAD_PX 30
#define TITLE_PX 34
#define PCT_ROW_PX 46
#define CNT_ROW_PX 50
#define AXIS_PX 78
#define CNT_FOOT_PX 14
#define LEGEND_PX 56
/* Least room between two labelled tics of the % axis. */
#define TIC_GAP_PX 90

/* How the % axis maps a relative change: percent, or a log ratio. */
struct change_axis {
	bool log;
	double lo, hi;
};

/* Where each panel lies on the image, in pixels from the bottom. */
struct layout {
	int width, height, left, right, head;
	int pct_top, pct_bottom, cnt_top, cnt_bottom;
};

static void fit_change(struct change_axis *ax, const struct compare_metric **m,
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
		ax->lo = pos / 1.3;
		ax->hi = (1 + hi) * 1.3;
		return;
	}
	span = fmax(hi - lo, 0.02);
	ax->lo = 100 * (lo - 0.06 * span);
	ax->hi = 100 * (hi + 0.06 * span);
}

/* A tic label: "0", "+150%", "-50%". */
static void pct_label(double pct, char *buf, size_t len)
{
	if (fabs(pct) < 1e-9)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%+.6g%%", pct);
}

/*
 * Tics of the log axis at ratios people read (halving, doubling, 5x,
 * 10x, ...), labelled in %: 0 first, then the others in order of how
 * round they are, each only where it keeps TIC_GAP_PX from those placed.
 */
static void write_log_tics(FILE *f, const struct change_axis *ax, double plot_px)
{
	static const double r[] = {
		1, 2, 0.5, 10, 0.1, 5, 0.2, 100, 0.01, 4, 0.25, 50, 20, 0.05,
		1000, 0.001, 500, 200, 1.5, 0.75, 3, 8, 1e4, 1e-4, 1.25, 0.8,
	};
	double kept[ARRAY_SIZE(r)] = { 0 }, gap = log2(ax->hi / ax->lo) * TIC_GAP_PX / plot_px;
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
		pct_label((r[i] - 1) * 100, buf, sizeof(buf));
		gp_text(f, buf, GP_TIC);
		fprintf(f, " %g", r[i]);
	}
	fputs(")\n", f);
}

/* Tics of the linear axis: a 1, 2, 2.5 or 5 step giving at most one
 * label per TIC_GAP_PX. */
static void write_lin_tics(FILE *f, const struct change_axis *ax, double plot_px)
{
	static const double steps[] = { 1, 2, 2.5, 5 };
	double span = ax->hi - ax->lo, want = span * TIC_GAP_PX / plot_px;
	double mag = pow(10, floor(log10(want))), step = 10 * mag, t;
	char buf[32];
	size_t i;
	bool first = true;

	for (i = 0; i < ARRAY_SIZE(steps); i++)
		if (steps[i] * mag >= want) {
			step = steps[i] * mag;
			break;
		}
	fputs("set xtics (", f);
	for (t = ceil(ax->lo / step) * step; t <= ax->hi + 1e-9; t += step) {
		fputs(first ? "" : ", ", f);
		first = false;
		pct_label(t, buf, sizeof(buf));
		gp_text(f, buf, GP_TIC);
		fprintf(f, " %g", fabs(t) < 1e-9 ? 0 : t);
	}
	fputs(")\n", f);
}

/*
 * Where a % row's bar ends, as a relative change: the change itself, or,
 * for a change from a base of 0 (no relative change exists), the end of
 * the axis on the side the difference points to; 0 (no bar) otherwise.
 */
static double bar_end(const struct compare_metric *m,
		      const struct change_axis *ax)
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

static void row_head(FILE *f, size_t row, const struct compare_metric *m)
{
	fprintf(f, "%zu ", row);
	gp_text(f, m->name, GP_DATA);
	fprintf(f, " %d ", (int)m->verdict);
	gp_text(f, verdict_name(m->verdict), GP_DATA);
}

static void write_pct_rows(FILE *f, const struct compare_metric **m, size_t n,
			   const struct change_axis *ax)
{
	size_t i, k;

	fputs("# block 0: timings and throughput, as thpbench compare computed them\n"
	      "# (fractions: 0.05 = +5%): change (new vs base) and its interval\n"
	      "# (NaN: none on a relative scale), where the bar ends (the change;\n"
	      "# the axis end for a change from a base of 0), noise threshold, p of\n"
	      "# the deciding test (adjusted), ok runs base and new\n"
	      "# row metric verdict_code verdict change change_lo change_hi bar "
	      "threshold p n_base n_new\n", f);
	for (i = 0; i < n; i++) {
		const double v[] = {
			m[i]->ch.rel, m[i]->ch.lo, m[i]->ch.hi, bar_end(m[i], ax),
			m[i]->info.threshold, m[i]->p,
		};

		row_head(f, i, m[i]);
		for (k = 0; k < ARRAY_SIZE(v); k++) {
			fputc(' ', f);
			gp_num(f, v[k]);
		}
		fprintf(f, " %zu %zu\n", m[i]->a.n, m[i]->b.n);
	}
}

static void write_cnt_rows(FILE *f, const struct compare_metric **m, size_t n)
{
	char na[32], nb[32];
	size_t i;

	fputs("\n\n# block 1: counts, the mean per run of base and new, where their\n"
	      "# bars end (a fraction of the row's larger mean) and the numbers\n"
	      "# written at the bars' ends\n"
	      "# row metric verdict_code verdict mean_base mean_new bar_base "
	      "bar_new label_base label_new\n", f);
	for (i = 0; i < n; i++) {
		double a = m[i]->a.s.mean, b = m[i]->b.s.mean;
		double top = fmax(fabs(a), fabs(b));

		row_head(f, i, m[i]);
		fputc(' ', f);
		gp_num(f, a);
		fputc(' ', f);
		gp_num(f, b);
		fputc(' ', f);
		gp_num(f, top > 0 ? fabs(a) / top : 0);
		fputc(' ', f);
		gp_num(f, top > 0 ? fabs(b) / top : 0);
		fputc(' ', f);
		gp_text(f, compare_fmt_num(a, na, sizeof(na)), GP_DATA);
		fputc(' ', f);
		gp_text(f, compare_fmt_num(b, nb, sizeof(nb)), GP_DATA);
		fputc('\n', f);
	}
}

static int write_dat(struct gp_chart *ch, const struct compare_metric **pm,
		     size_t np, const struct compare_metric **cm, size_t nc,
		     const struct change_axis *ax, char *name, size_t len,
		     char *err, size_t errlen)
{
	FILE *f = gp_data(ch, "dat", name, len, err, errlen);

	if (!f)
		return -1;
	write_pct_rows(f, pm, np, ax);
	write_cnt_rows(f, cm, nc);
	return gp_data_close(ch, f, name, err, errlen);
}

/* A row's label: the metric, then its change and verdict as the tables
 * say them ("roi_usec\n+405.9%, regression"). */
static void row_label(const struct comparison *c,
		      const struct compare_metric *m, char *buf, size_t len)
{
	char pct[48];

	compare_fmt_change(m, pct, sizeof(pct));
	snprintf(buf, len, "%s\n%s%s%s", m->name, pct, *pct ? ", " : "",
		 compare_fmt_verdict(c, m->verdict));
}

static int label_chars(const struct comparison *c,
		       const struct compare_metric **m, size_t n)
{
	char buf[256], *nl;
	int w = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		row_label(c, m[i], buf, sizeof(buf));
		/* a metric name as long as buf leaves no second line */
		nl = strchr(buf, '\n');
		if (nl)
			*nl = '\0';
		w = compare_fmt_width(buf) > w ? compare_fmt_width(buf) : w;
		if (nl)
			w = compare_fmt_width(nl + 1) > w
				    ? compare_fmt_width(nl + 1)
				    : w;
	}
	return w;
}

static void write_row_tics(FILE *f, const struct comparison *c,
			   const struct compare_metric **m, size_t n)
{
	char buf[256];
	size_t i;

	fputs("set ytics (", f);
	for (i = 0; i < n; i++) {
		row_label(c, m[i], buf, sizeof(buf));
		fputs(i ? ", " : "", f);
		gp_text(f, buf, GP_TIC);
		fprintf(f, " %zu", i);
	}
	fprintf(f, ") nomirror scale 0\nset yrange [%g:%g]\n",
		(double)n - 0.5, -0.5);
}

static void layout_of(struct layout *l, const char *what, int label_px,
		      size_t np, size_t nc)
{
	const char *s;
	int y;

	l->head = HEAD_PAD_PX + HEAD_LINE_PX;
	for (s = what; *s; s++)
		l->head += *s == '\n' ? HEAD_LINE_PX : 0;
	l->left = label_px + 24;
	l->width = l->left + 640 > GP_WIDTH ? l->left + 640 : GP_WIDTH;
	l->right = l->width - 50;
	l->height = l->head + LEGEND_PX +
		    (np ? TITLE_PX + (int)np * PCT_ROW_PX + AXIS_PX : 0) +
		    (nc ? TITLE_PX + (int)nc * CNT_ROW_PX + CNT_FOOT_PX : 0);
	y = l->height - l->head;
	l->pct_top = l->pct_bottom = l->cnt_top = l->cnt_bottom = 0;
	if (np) {
		l->pct_top = y - TITLE_PX;
		l->pct_bottom = l->pct_top - (int)np * PCT_ROW_PX;
		y = l->pct_bottom - AXIS_PX;
	}
	if (nc) {
		l->cnt_top = y - TITLE_PX;
		l->cnt_bottom = l->cnt_top - (int)nc * CNT_ROW_PX;
	}
}

/* Set the plot area to pixels [left, right] x [bottom, top]. */
static void margins(FILE *f, const struct layout *l, int bottom, int top)
{
	fprintf(f, "set lmargin at screen %.4f\nset rmargin at screen %.4f\n"
		"set bmargin at screen %.4f\nset tmargin at screen %.4f\n",
		(double)l->left / l->width, (double)l->right / l->width,
		(double)bottom / l->height, (double)top / l->height);
}

static void panel_title(FILE *f, const struct layout *l, int top,
			const char *text)
{
	fputs("set label ", f);
	gp_text(f, text, GP_DOUBLE);
	fprintf(f, " at screen %.4f, screen %.4f left font ',14'\n",
		8.0 / l->width, (top + 14.0) / l->height);
}

/*
 * The legend, drawn as objects and labels in centred rows at the bottom
 * (gnuplot's key would wrap into a column): the verdicts on the chart,
 * the noise band (with a % panel) and the outlined base bar (with a count
 * panel).
 */
static void write_legend(FILE *f, const struct layout *l,
			 const struct compare_metric **m, size_t n, double t,
			 bool pct, bool cnt)
{
	const char *text[VERDICT_LEVEL + 4], *rgb[VERDICT_LEVEL + 4];
	char thr[64];
	double w[VERDICT_LEVEL + 4] = { 0 }, x, row_w;
	size_t i, k = pair_verdicts_seen(m, n, text, rgb), first = 0, row = 0;

	if (pct) {
		if (isfinite(t))
			snprintf(thr, sizeof(thr), "noise ±%g%%", 100 * t);
		else
			snprintf(thr, sizeof(thr), "noise threshold");
		text[k] = thr;
		rgb[k++] = "0xe4e4e4";
	}
	if (cnt) {
		text[k] = "base (counts)";
		rgb[k++] = NULL;
	}
	for (i = 0; i < k; i++)
		w[i] = 30 + compare_fmt_width(text[i]) * GP_CHAR_PX;
	while (first < k) {
		double y = (LEGEND_PX - 22.0 - 22.0 * (double)row) / l->height;
		size_t last = first;

		for (row_w = w[first]; last + 1 < k &&
		     row_w + 24 + w[last + 1] <= l->width - 40; last++)
			row_w += 24 + w[last + 1];
		x = (l->width - row_w) / 2;
		for (i = first; i <= last; i++) {
			fprintf(f, "set object %zu rect from screen %.4f, screen %.4f "
				"to screen %.4f, screen %.4f ", i + 1, x / l->width, y,
				(x + 22) / l->width, y + 14.0 / l->height);
			if (rgb[i])
				fprintf(f, "fc rgb %s fs solid 0.8 ", rgb[i]);
			else
				fputs("fs empty ", f);
			fputs("border lc rgb '#333333'\n", f);
			fprintf(f, "set label %zu ", i + 10);
			gp_text(f, text[i], GP_SINGLE);
			fprintf(f, " at screen %.4f, screen %.4f left\n",
				(x + 30) / l->width, y + 7.0 / l->height);
			x += w[i] + 24;
		}
		first = last + 1;
		row++;
	}
}

/* The header, centred on the image: what, both sides, the timings. */
static void write_header(FILE *f, const struct layout *l, const char *what)
{
	fputs("set label 1 ", f);
	gp_text(f, what, GP_DOUBLE);
	fprintf(f, " at screen 0.5, screen %.4f center font ',14'\n",
		1 - 12.0 / l->height);
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

static bool any_finite(const struct compare_metric **m, size_t n, bool ci)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((isfinite(m[i]->ch.rel) || (!ci && m[i]->ch.method == CHANGE_DIFF)) &&
		    (!ci || (isfinite(m[i]->ch.lo) && isfinite(m[i]->ch.hi))))
			return true;
	return false;
}

static void pct_panel(FILE *f, const struct comparison *c,
		      const struct layout *l, const struct compare_metric **m,
		      size_t n, const struct change_axis *ax, const char *dat)
{
	const char *zero = ax->log ? "1" : "0";
	char lvl[16], xl[256];

	margins(f, l, l->pct_bottom, l->pct_top);
	snprintf(xl, sizeof(xl),
		 "Timings and throughput: %% change, new vs base (bar), its "
		 "%s%% interval (whisker)",
		 compare_fmt_level(c->opts.confidence, lvl, sizeof(lvl)));
	panel_title(f, l, l->pct_top, xl);
	write_row_tics(f, c, m, n);
	fputs("set border 3\nset tics out\nset grid xtics lc rgb '#dddddd'\n"
	      "set xtics nomirror\nset key off\n", f);
	if (ax->log) {
		fputs("set logscale x 2\n", f);
		write_log_tics(f, ax, l->right - l->left);
	} else {
		fputs("unset logscale x\n", f);
		write_lin_tics(f, ax, l->right - l->left);
	}
	fprintf(f, "set xrange [%g:%g]\n", ax->lo, ax->hi);
	fprintf(f, "set arrow 1 from %s, graph 0 to %s, graph 1 nohead "
		"lc rgb '#444444'\n", zero, zero);
	fputs("set xlabel ", f);
	gp_text(f, ax->log ? "change of the geometric means, log scale (+100% is twice, -50% half)" :
		"change of the geometric means (%)", GP_SINGLE);
	fputc('\n', f);
	fputs("plot ", f);
	gp_text(f, dat, GP_SINGLE);
	fprintf(f, " index 0 using (%s):1:", zero);
	fputs(ax->log ? "(1-$9):(1+$9)" : "(-100*$9):(100*$9)", f);
	fputs(":($1-0.42):($1+0.42) with boxxyerror fs solid 1 noborder "
	      "lc rgb '#e4e4e4' notitle", f);
	if (any_finite(m, n, false)) {
		fprintf(f, ", \\\n     '' index 0 using (%s):1:(%s):", zero, zero);
		xcol(f, ax, 8);
		fputs(":($1-0.3):($1+0.3):(vcolor($3)) with boxxyerror "
		      "lc rgb variable fs solid 0.8 border lc rgb '#333333' "
		      "notitle", f);
	}
	if (any_finite(m, n, true)) {
		fputs(", \\\n     '' index 0 using ", f);
		xcol(f, ax, 5);
		fputs(":1:", f);
		xcol(f, ax, 6);
		fputc(':', f);
		xcol(f, ax, 7);
		fputs(" with xerrorbars lc rgb '#222222' lw 2 pt 7 ps 0 notitle", f);
	}
	fputc('\n', f);
}

static void cnt_panel(FILE *f, const struct comparison *c,
		      const struct layout *l, const struct compare_metric **m,
		      size_t n, const char *dat, int index)
{
	margins(f, l, l->cnt_bottom, l->cnt_top);
	panel_title(f, l, l->cnt_top, "Counts per run: mean of base (outlined) "
		    "and new (filled), each row scaled to its larger mean");
	write_row_tics(f, c, m, n);
	fputs("unset logscale x\nunset xtics\nunset xlabel\nunset grid\n"
	      "unset arrow\nset border 2\nset key off\nset xrange [0:1.22]\n", f);
	fputs("plot ", f);
	gp_text(f, dat, GP_SINGLE);
	fprintf(f, " index %d using (0):($1-0.17):(0):7:($1-0.32):($1-0.02) "
	      "with boxxyerror fs empty border lc rgb '#333333' lc rgb '#333333' notitle, \\\n"
	      "     '' index %d using (0):($1+0.17):(0):8:($1+0.02):($1+0.32):"
	      "(vcolor($3)) with boxxyerror lc rgb variable fs solid 0.8 "
	      "border lc rgb '#333333' notitle, \\\n"
	      "     '' index %d using 7:($1-0.17):9 with labels left offset "
	      "char 0.6,0 notitle, \\\n"
	      "     '' index %d using 8:($1+0.17):10 with labels left offset "
	      "char 0.6,0 notitle\n", index, index, index, index);
}

/* One threshold for every row, or NAN. */
static double common_threshold(const struct compare_metric **m, size_t n)
{
	double t = n ? m[0]->info.threshold : NAN;
	size_t i;

	for (i = 1; i < n; i++)
		if (m[i]->info.threshold != t)
			return NAN;
	return t;
}

int plot_change_chart(const struct comparison *c, const struct compare_pair *p,
		      const char *dir, const char *stem, struct plot_set *ps,
		      char *err, size_t errlen)
{
	const struct compare_metric **pm, **cm, **all;
	size_t np = pair_pick(p, PM_PERF, true, &pm);
	size_t nc = pair_pick(p, PM_COUNTER, true, &cm), dropped = 0, i;
	struct change_axis ax = { false, -1, 1 };
	struct layout l;
	struct gp_chart ch;
	char what[2048], dat[512];
	int rc = -1, chars;

	if (np > PCT_MAX) {
		dropped += np - PCT_MAX;
		np = PCT_MAX;
	}
	if (nc > CNT_MAX) {
		dropped += nc - CNT_MAX;
		nc = CNT_MAX;
	}
	if (!np && !nc) {
		rc = 0;
		goto out;
	}
	pair_what(c, p, "what changed, new vs base", what, sizeof(what));
	if (dropped)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 "\n%zu more metrics: thpbench compare", dropped);
	if (gp_open(&ch, ps, dir, stem, what, err, errlen))
		goto out;
	if (np)
		fit_change(&ax, pm, np);
	if (write_dat(&ch, pm, np, cm, nc, &ax, dat, sizeof(dat), err, errlen)) {
		gp_abort(&ch);
		goto out;
	}
	all = xcalloc(np + nc + 1, sizeof(*all));
	for (i = 0; i < np; i++)
		all[i] = pm[i];
	for (i = 0; i < nc; i++)
		all[np + i] = cm[i];
	chars = label_chars(c, all, np + nc);
	layout_of(&l, what, (int)(chars * GP_CHAR_PX), np, nc);
	pair_write_vcolor(ch.gp);
	fputs("set style fill solid 0.8\nset pointintervalbox 0.0001\n", ch.gp);
	gp_begin(&ch, l.width, l.height);
	fputs("set multiplot\n", ch.gp);
	write_header(ch.gp, &l, what);
	write_legend(ch.gp, &l, all, np + nc, common_threshold(pm, np), np, nc);
	free(all);
	if (np)
		pct_panel(ch.gp, c, &l, pm, np, &ax, dat);
	/* The header and legend are drawn once, with the first panel; an
	 * empty block 0 is no data block to gnuplot's index. */
	if (np && nc)
		fputs("unset label\nunset object\n", ch.gp);
	if (nc)
		cnt_panel(ch.gp, c, &l, cm, nc, dat, np ? 1 : 0);
	fputs("unset multiplot\nunset label\nunset object\nunset arrow\n", ch.gp);
	rc = gp_close(&ch, err, errlen);
out:
	free(pm);
	free(cm);
	return rc;
}
