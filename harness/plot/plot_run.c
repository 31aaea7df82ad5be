// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_run - the charts of one results file (plot.h): per case group, a
 * panel per metric with one bar per case (mean, 95% CI, every run).
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot_axis.h"
#include "plot_gp.h"
#include "stats/metric_info.h"
#include "plot_metrics.h"
#include "stats/stats.h"
#include "util/util.h"

#define MAX_PERF 6
#define MAX_COUNTERS 12

/* The cases of one suite case name: one chart. */
struct group {
	const char *name;
	const struct tb_case **c;
	size_t n, cap;
};

/* One metric of a group: the values and summary of each case. */
struct panel {
	const char *metric;
	double **v;		/* per case, the ok runs' values */
	size_t *nv;
	struct summary *s;	/* per case; s[i].n == 0 when no value */
};

static const char *group_key(const struct tb_case *c)
{
	return c->name && *c->name ? c->name : c->workload;
}

static struct group *make_groups(const struct tb_results *r, size_t *ng)
{
	struct group *g = NULL;
	size_t cap = 0, i, k;

	*ng = 0;
	for (i = 0; i < r->ncases; i++) {
		const char *key = group_key(&r->cases[i]);

		for (k = 0; k < *ng; k++)
			if (!strcmp(g[k].name, key))
				break;
		if (k == *ng) {
			g = xgrow(g, sizeof(*g), &cap, k);
			memset(&g[k], 0, sizeof(g[k]));
			g[k].name = key;
			(*ng)++;
		}
		g[k].c = xgrow(g[k].c, sizeof(*g[k].c), &g[k].cap, g[k].n);
		g[k].c[g[k].n++] = &r->cases[i];
	}
	return g;
}

static bool strv_has(char **v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* Union of the metric names of the group's cases (borrowed strings). */
static size_t group_metrics(const struct group *g, char ***out)
{
	char **all = NULL, **names;
	size_t n = 0, cap = 0, i, k, nn;

	for (i = 0; i < g->n; i++) {
		nn = case_metric_names(g->c[i], &names);
		for (k = 0; k < nn; k++) {
			if (strv_has(all, n, names[k]))
				continue;
			all = xgrow(all, sizeof(*all), &cap, n);
			all[n++] = names[k];
		}
		free(names);
	}
	*out = all;
	return n;
}

static void panel_fill(struct panel *p, const struct group *g,
		       const char *metric)
{
	size_t i;

	p->metric = metric;
	p->v = xcalloc(g->n, sizeof(*p->v));
	p->nv = xcalloc(g->n, sizeof(*p->nv));
	p->s = xcalloc(g->n, sizeof(*p->s));
	for (i = 0; i < g->n; i++) {
		p->v[i] = xmalloc((g->c[i]->nruns + 1) * sizeof(double));
		p->nv[i] = case_metric_values(g->c[i], metric, p->v[i],
					      g->c[i]->nruns);
		if (stats_summary(p->v[i], p->nv[i], &p->s[i]))
			memset(&p->s[i], 0, sizeof(p->s[i]));
	}
}

static void panel_free(struct panel *p, size_t ncases)
{
	size_t i;

	for (i = 0; i < ncases; i++)
		free(p->v[i]);
	free(p->v);
	free(p->nv);
	free(p->s);
}

static bool panel_any(const struct panel *p, size_t ncases, bool nonzero)
{
	size_t i, k;

	for (i = 0; i < ncases; i++)
		for (k = 0; k < p->nv[i]; k++)
			if (!nonzero || p->v[i][k] != 0)
				return true;
	return false;
}

static bool panel_has_ci(const struct panel *p, size_t ncases)
{
	size_t i;

	for (i = 0; i < ncases; i++)
		if (p->s[i].n >= 2 && isfinite(p->s[i].ci95_lo))
			return true;
	return false;
}

/* What a chart leaves out, for its subtitle. */
struct left_out {
	size_t over_max;	/* cut by MAX_PERF/MAX_COUNTERS */
	size_t zero_vmstat;	/* vmstat counters that never moved */
	char zero[256];		/* other counters that were 0 in every run */
};

static void note_zero(struct left_out *lo, const char *metric)
{
	size_t o = strlen(lo->zero);

	if (!strncmp(metric, "vmstat.", 7)) {
		lo->zero_vmstat++;
	} else if (o + strlen(metric) + 3 < sizeof(lo->zero)) {
		snprintf(lo->zero + o, sizeof(lo->zero) - o, "%s%s",
			 o ? ", " : "", metric);
	} else {
		lo->over_max++;
	}
}

/*
 * The metrics of one chart: kind's metrics with a value somewhere. A
 * counter that was 0 in every run of every case is named in the subtitle
 * instead of taking a panel of its own.
 */
static size_t pick_panels(const struct group *g, enum pm_kind kind,
			  struct panel **out, struct left_out *lo)
{
	char **all, **picked;
	size_t nall = group_metrics(g, &all), max, npick, i, n = 0, cut;
	struct panel *p;

	memset(lo, 0, sizeof(*lo));
	max = kind == PM_PERF ? MAX_PERF : MAX_COUNTERS;
	npick = plot_metric_pick(all, nall, kind, nall, &picked, &cut);
	p = xcalloc(npick + 1, sizeof(*p));
	for (i = 0; i < npick; i++) {
		bool keep = false;

		panel_fill(&p[n], g, picked[i]);
		if (!panel_any(&p[n], g->n, kind == PM_COUNTER))
			note_zero(lo, picked[i]);
		else if (n == max)
			lo->over_max++;
		else
			keep = true;
		if (keep)
			n++;
		else
			panel_free(&p[n], g->n);
	}
	free(picked);
	free(all);
	*out = p;
	return n;
}

/* The values of a case's dimensions, "64K fragmented"; "" for none. */
static void dims_text(const struct tb_case *c, char *buf, size_t len)
{
	const char *key;
	size_t n = 0;
	json_t *v;

	buf[0] = '\0';
	json_object_foreach(c->dims, key, v)
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "",
					      json_string_value(v) ? json_string_value(v) : "");
}

/* The x tic text of each case: what differs between the group's cases
 * (dimensions, THP mode, label), one line each. */
static char *case_label(const struct group *g, size_t i)
{
	const struct tb_case *c = g->c[i];
	bool thp = false, label = false, dims = false;
	char buf[512], d0[160], dk[160];
	size_t k, n = 0;

	dims_text(g->c[0], d0, sizeof(d0));
	for (k = 1; k < g->n; k++) {
		thp |= strcmp(g->c[k]->thp, g->c[0]->thp) != 0;
		label |= strcmp(g->c[k]->label, g->c[0]->label) != 0;
		dims_text(g->c[k], dk, sizeof(dk));
		dims |= strcmp(dk, d0) != 0;
	}
	if (!thp && !label && !dims) {
		thp = *c->thp;
		label = !thp && *c->label;
	}
	buf[0] = '\0';
	dims_text(c, dk, sizeof(dk));
	if (dims)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", dk);
	if (thp && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? "\n" : "",
				      *c->thp ? c->thp : "(as found)");
	if (label && n < sizeof(buf))
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? "\n" : "",
				      c->label);
	if (!n)
		snprintf(buf, sizeof(buf), "%s", c->id);
	return xstrdup(buf);
}

static void write_bars(FILE *f, const struct group *g, const struct panel *p,
		       size_t ip, char **labels)
{
	size_t i;

	fputs(ip ? "\n\n" : "", f);
	gp_comment(f, "block %zu: %s (%s)", ip, p->metric,
		   plot_metric_unit(p->metric));
	fputs("# x case n mean ci95_lo ci95_hi stddev min median max\n", f);
	for (i = 0; i < g->n; i++) {
		const struct summary *s = &p->s[i];
		const double nan = NAN, *cols[] = {
			s->n ? &s->mean : &nan, s->n ? &s->ci95_lo : &nan,
			s->n ? &s->ci95_hi : &nan, s->n ? &s->stddev : &nan,
			s->n ? &s->min : &nan, s->n ? &s->median : &nan,
			s->n ? &s->max : &nan,
		};
		size_t k;

		fprintf(f, "%zu ", i);
		gp_text(f, labels[i], GP_DATA);
		fprintf(f, " %zu", s->n);
		for (k = 0; k < ARRAY_SIZE(cols); k++) {
			fputc(' ', f);
			gp_num(f, *cols[k]);
		}
		fputc('\n', f);
	}
}

static void write_runs(FILE *f, const struct group *g, const struct panel *p,
		       size_t ip, char **labels)
{
	size_t i, k;

	fputs(ip ? "\n\n" : "", f);
	gp_comment(f, "block %zu: %s (%s), every ok run", ip, p->metric,
		   plot_metric_unit(p->metric));
	fputs("# x case run value\n", f);
	for (i = 0; i < g->n; i++)
		for (k = 0; k < p->nv[i]; k++) {
			fprintf(f, "%zu ", i);
			gp_text(f, labels[i], GP_DATA);
			fprintf(f, " %zu ", k + 1);
			gp_num(f, p->v[i][k]);
			fputc('\n', f);
		}
}

static void panel_axis(const struct panel *p, size_t ncases,
		       struct gp_axis *ax)
{
	size_t i, k, n = 0, total = 3 * ncases + 1;
	double *all;

	for (i = 0; i < ncases; i++)
		total += p->nv[i];
	all = xmalloc(total * sizeof(*all));
	/* The bars (means) decide whether the axis is logarithmic... */
	for (i = 0; i < ncases; i++)
		if (p->s[i].n)
			all[n++] = p->s[i].mean;
	k = n;
	/* ...the single runs and intervals only widen it. */
	for (i = 0; i < ncases; i++) {
		memcpy(all + n, p->v[i], p->nv[i] * sizeof(*all));
		n += p->nv[i];
		if (!p->s[i].n)
			continue;
		all[n++] = p->s[i].ci95_lo;
		all[n++] = p->s[i].ci95_hi;
	}
	gp_axis_fit(ax, p->metric, all, n, k);
	free(all);
}

/* How the panels of a chart sit on the image. */
struct frame {
	size_t rows, cols;
	int height;
	bool slant;		/* case names slanted under the bars */
	bool two_lines;		/* case names of two lines (mode, label) */
};

static void layout(size_t n, struct frame *fr)
{
	fr->cols = n <= 3 ? n : (n == 4 ? 2 : n <= 9 ? 3 : 4);
	fr->rows = (n + fr->cols - 1) / fr->cols;
	fr->height = GP_HEIGHT + (fr->rows > 1 ? (int)(fr->rows - 1) * 100 : 0) +
		     (fr->rows > 2 ? (int)(fr->rows - 2) * 130 : 0);
}

/* "n = 5" or "n = 3-5": ok runs per case over the chart's panels. */
static void n_range(const struct panel *p, size_t np, size_t ncases,
		    char *buf, size_t len)
{
	size_t lo = SIZE_MAX, hi = 0, i, k;

	for (i = 0; i < np; i++)
		for (k = 0; k < ncases; k++) {
			lo = p[i].nv[k] < lo ? p[i].nv[k] : lo;
			hi = p[i].nv[k] > hi ? p[i].nv[k] : hi;
		}
	if (lo == hi)
		snprintf(buf, len, "n = %zu run%s per case", hi,
			 hi == 1 ? "" : "s");
	else
		snprintf(buf, len, "n = %zu-%zu runs per case", lo, hi);
}

static void group_what(const struct tb_results *r, const struct group *g,
		       enum pm_kind kind, char *buf, size_t len)
{
	const struct tb_case *c = g->c[0];
	const char *kernel = json_string_value(json_object_get(r->env,
							       "kernel"));
	size_t i, o;

	o = (size_t)snprintf(buf, len, "%s", c->workload);
	for (i = 0; i < c->nargs && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, " %s", c->args[i]);
	if (o < len && strcmp(g->name, c->workload))
		o += (size_t)snprintf(buf + o, len - o, " [%s]", g->name);
	if (o < len && kind == PM_COUNTER)
		o += (size_t)snprintf(buf + o, len - o, ": counters");
	if (o < len)
		snprintf(buf + o, len - o, " · kernel %s",
			 kernel && *kernel ? kernel : "unknown");
}

/*
 * Explicit margins and spacing: gnuplot's automatic ones size each panel
 * by its own tic labels, so slanted names or wide numbers shrink one
 * panel of a row to a sliver. Room, in pixels: 24 a line for the header,
 * 85 left of each panel for its numbers and unit, below each panel 45
 * for the case names (65 for two lines, 110 slanted) and 45 above for its
 * title.
 */
static void write_layout(FILE *f, const struct frame *fr, int header_lines)
{
	double h = fr->height;
	double below = fr->slant ? 110 : fr->two_lines ? 65 : 45;
	double top = 1 - (22.0 + 24 * header_lines + 38) / h;

	fprintf(f, "set multiplot layout %zu,%zu rowsfirst margins %.3f,%.3f,"
		"%.3f,%.3f spacing %.3f,%.3f title ", fr->rows, fr->cols,
		85.0 / GP_WIDTH, 1 - 15.0 / GP_WIDTH, below / h, top,
		85.0 / GP_WIDTH, (below + 45) / h);
}

static void write_multiplot(FILE *f, const char *what, const char *nr,
			    const struct left_out *lo, const struct frame *fr)
{
	char buf[2048], zero[512] = "";

	if (*lo->zero || lo->zero_vmstat)
		snprintf(zero, sizeof(zero), "\n0 in every run: %s%s%.0zu%s",
			 lo->zero, *lo->zero && lo->zero_vmstat ? " and " : "",
			 lo->zero_vmstat, lo->zero_vmstat == 1 ?
			 " vmstat thp_* counter" : lo->zero_vmstat ?
			 " vmstat thp_* counters" : "");
	snprintf(buf, sizeof(buf), "%s · %s\nbar: mean · error bar: 95%% CI "
		 "of the mean · dot: one run%s%s", what, nr,
		 lo->over_max ? " · more metrics in results.json" : "", zero);
	write_layout(f, fr, zero[0] ? 3 : 2);
	gp_text(f, buf, GP_DOUBLE);
	fputs(" font ',14'\n", f);
}

/* Widest line of a tic label, in characters. */
static int label_width(const char *s)
{
	int w = 0, best = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			w = 0;
			continue;
		}
		/* UTF-8 continuation bytes take no column. */
		if (((unsigned char)*s & 0xc0) != 0x80 && ++w > best)
			best = w;
	}
	return best;
}

/*
 * Whether the case names under the bars would run into each other in a
 * panel (many cases, or label and THP mode both varying): then they are
 * written on one line each, slanted, in a smaller font.
 */
static bool xtics_slant(char **labels, size_t n, size_t cols)
{
	double panel_px = (double)GP_WIDTH / cols - 85;
	int widest = 0;
	size_t i;

	for (i = 0; i < n; i++)
		widest = label_width(labels[i]) > widest ?
			 label_width(labels[i]) : widest;
	return widest * 9.0 > 0.9 * panel_px / (double)n;
}

static void write_xtics(FILE *f, char **labels, size_t n, bool slant)
{
	double pad;
	size_t i;
	char *p, *one;

	fputs("set xtics (", f);
	for (i = 0; i < n; i++) {
		one = xstrdup(labels[i]);
		for (p = one; slant && *p; p++)
			*p = *p == '\n' ? '/' : *p;
		fputs(i ? ", " : "", f);
		gp_text(f, one, GP_TIC);
		fprintf(f, " %zu", i);
		free(one);
	}
	fputs(slant ? ") rotate by 30 right font ',11'\n" : ")\n", f);
	/* One or two bars are not drawn a page wide. */
	pad = n < 3 ? (3.0 - (double)n) * 0.3 : 0;
	fprintf(f, "set xrange [%g:%g]\n", -0.6 - pad, (double)n - 0.4 + pad);
}

static const char *direction(const char *metric)
{
	switch (metric_default_better(metric)) {
	case BETTER_LOWER:
		return " (lower is better)";
	case BETTER_HIGHER:
		return " (higher is better)";
	default:
		return "";
	}
}

static void write_panel(FILE *f, const struct panel *p, size_t ip,
			size_t ncases, const char *bars, const char *runs,
			enum pm_kind kind)
{
	struct gp_axis ax;
	char title[512];

	panel_axis(p, ncases, &ax);
	snprintf(title, sizeof(title), "%s%s", p->metric,
		 kind == PM_PERF ? direction(p->metric) : "");
	fputc('\n', f);
	gp_comment(f, "%s: block %zu of %s and %s", p->metric, ip, bars, runs);
	fputs("set title ", f);
	gp_text(f, title, GP_SINGLE);
	fputc('\n', f);
	gp_axis_write(f, &ax, 'y');
	fputs("plot ", f);
	gp_text(f, bars, GP_SINGLE);
	fprintf(f, " index %zu using 1:", ip);
	gp_axis_col(f, &ax, 4);
	fputs(":($1-0.32):($1+0.32):(", f);
	gp_num(f, gp_axis_base(&ax));
	fputs("):", f);
	gp_axis_col(f, &ax, 4);
	fputs(":($1+1) with boxxyerror lc variable notitle", f);
	if (panel_has_ci(p, ncases)) {
		fprintf(f, ", \\\n     '' index %zu using 1:", ip);
		gp_axis_col(f, &ax, 4);
		fputc(':', f);
		gp_axis_col_clamped(f, &ax, 5);
		fputc(':', f);
		gp_axis_col(f, &ax, 6);
		fputs(" with yerrorbars lc rgb '#222222' lw 2 pt 7 ps 0 notitle", f);
	}
	fputs(", \\\n     ", f);
	gp_text(f, runs, GP_SINGLE);
	fprintf(f, " index %zu using 1:", ip);
	gp_axis_col(f, &ax, 4);
	fputs(" with points pt 7 ps 0.9 lc rgb '#30222222' notitle\n", f);
}

static void write_style(FILE *f)
{
	fputs("set style fill solid 0.55 border lc rgb '#333333'\n"
	      "set errorbars 1.5\n"
	      "set border 3\n"
	      "set tics nomirror out\n"
	      "set grid ytics lc rgb '#dddddd' lw 1\n"
	      "set key off\n"
	      "set jitter overlap 0.6 spread 0.5\n"
	      "# Error bars run through their mean, no white disc around it.\n"
	      "set pointintervalbox 0.0001\n", f);
}

static int write_data(struct gp_chart *ch, const struct group *g,
		      const struct panel *p, size_t np, char **labels,
		      char *bars, char *runs, size_t len, char *err,
		      size_t errlen)
{
	FILE *fb, *fr;
	size_t i;

	fb = gp_data(ch, "dat", bars, len, err, errlen);
	if (!fb)
		return -1;
	fr = gp_data(ch, "runs.dat", runs, len, err, errlen);
	if (!fr) {
		fclose(fb);
		return -1;
	}
	fputs("# Per case of each metric: mean and 95% CI of the mean over "
	      "the ok runs\n", fb);
	fputs("# Every ok run of each metric, as in results.json\n", fr);
	for (i = 0; i < np; i++) {
		write_bars(fb, g, &p[i], i, labels);
		write_runs(fr, g, &p[i], i, labels);
	}
	if (gp_data_close(ch, fb, bars, err, errlen)) {
		fclose(fr);
		return -1;
	}
	return gp_data_close(ch, fr, runs, err, errlen);
}

static int chart(const struct tb_results *r, const struct group *g,
		 enum pm_kind kind, const char *dir, const char *stem,
		 struct plot_set *ps, char *err, size_t errlen)
{
	struct gp_chart ch;
	struct panel *p;
	struct left_out lo;
	struct frame fr;
	size_t np, i;
	char **labels, what[1024], nr[64], bars[512], runs[512];
	int rc = -1;

	np = pick_panels(g, kind, &p, &lo);
	if (!np) {
		free(p);
		return 0;
	}
	labels = xcalloc(g->n, sizeof(*labels));
	for (i = 0; i < g->n; i++)
		labels[i] = case_label(g, i);
	group_what(r, g, kind, what, sizeof(what));
	n_range(p, np, g->n, nr, sizeof(nr));
	if (gp_open(&ch, ps, dir, stem, what, err, errlen))
		goto out;
	if (write_data(&ch, g, p, np, labels, bars, runs, sizeof(bars), err,
		       errlen)) {
		gp_abort(&ch);
		goto out;
	}
	write_style(ch.gp);
	layout(np, &fr);
	fr.slant = xtics_slant(labels, g->n, fr.cols);
	fr.two_lines = false;
	for (i = 0; i < g->n; i++)
		fr.two_lines |= strchr(labels[i], '\n') != NULL;
	gp_begin(&ch, GP_WIDTH, fr.height);
	write_multiplot(ch.gp, what, nr, &lo, &fr);
	write_xtics(ch.gp, labels, g->n, fr.slant);
	for (i = 0; i < np; i++)
		write_panel(ch.gp, &p[i], i, g->n, bars, runs, kind);
	fputs("unset multiplot\n", ch.gp);
	rc = gp_close(&ch, err, errlen);
out:
	for (i = 0; i < np; i++)
		panel_free(&p[i], g->n);
	free(p);
	free_strv(labels, g->n);
	return rc;
}

/* A stem no earlier group of this file took ("mremap", "mremap-2"). */
static void group_stem(struct group *g, size_t ig, char *buf, size_t len)
{
	char slug[256], other[256];
	size_t k, dup = 0;

	gp_slug(g[ig].name, slug, sizeof(slug));
	for (k = 0; k < ig; k++)
		if (!strcmp(gp_slug(g[k].name, other, sizeof(other)), slug))
			dup++;
	if (dup)
		snprintf(buf, len, "%s-%zu", slug, dup + 1);
	else
		snprintf(buf, len, "%s", slug);
}

int plot_results(const struct tb_results *r, const char *outdir,
		 struct plot_set *ps, char *err, size_t errlen)
{
	struct group *g;
	size_t ng, i;
	char stem[300], cstem[320];
	int rc = 0;

	if (mkdir_p(outdir, 0755)) {
		snprintf(err, errlen, "%s: cannot create directory: %s",
			 outdir, strerror(errno));
		return -1;
	}
	g = make_groups(r, &ng);
	for (i = 0; i < ng && !rc; i++) {
		group_stem(g, i, stem, sizeof(stem));
		snprintf(cstem, sizeof(cstem), "%s-counters", stem);
		rc = chart(r, &g[i], PM_PERF, outdir, stem, ps, err, errlen);
		if (!rc)
			rc = chart(r, &g[i], PM_COUNTER, outdir, cstem, ps,
				   err, errlen);
	}
	for (i = 0; i < ng; i++)
		free(g[i].c);
	free(g);
	return rc;
}
