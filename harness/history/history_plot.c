// SPDX-License-Identifier: GPL-2.0-only
#include "history_plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history_format.h"
#include "history_gate.h"
#include "history_tics.h"
#include "plot/plot_axis.h"
#include "plot/plot_gp.h"
#include "plot/plot_metrics.h"
#include "util/util.h"

#define NIGHT_TICS 8
/* Half the width a segment's mean line reaches past its first and last
 * night: a segment of one night (tonight's change) is a short bar too. */
#define SEG_PAD 0.4
/* Room above the data for the change-point labels, as a share of the range. */
#define HEADROOM 0.28

/* Pixels per night on the x axis: the plot is about 860 px wide. */
static double px_per_night(const struct history_series *s)
{
	return 860.0 / (double)(s->n_nights + 1);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

const char *history_plot_stem(const struct history_series *s, char *buf,
			      size_t len)
{
	char raw[1024], slug[900];

	snprintf(raw, sizeof(raw), "%s_%s_%s_%s", or_dash(s->host),
		 or_dash(s->suite), or_dash(s->case_id), or_dash(s->metric));
	gp_slug(raw, slug, sizeof(slug));
	snprintf(buf, len, "history-%s-%.8s", slug, or_dash(s->suite_hash));
	return buf;
}

static const char *kind_rgb(enum hcp_kind k)
{
	switch (k) {
	case HCP_REGRESSION:
		return "#cc3311";
	case HCP_IMPROVEMENT:
		return "#228833";
	case HCP_REJECTED:
		return "#aaaaaa";
	default:
		return "#4477aa";
	}
}

static bool boundary(const struct history_cp *cp)
{
	return cp->kind != HCP_REJECTED;
}

/* Night index -> x: its position among the series' nights (1-based). */
static void write_nights(FILE *f, const struct history_series *s)
{
	size_t i, j;

	fputs("# night mean min max n started kernel_id (nights with values)\n",
	      f);
	for (i = 0; i < s->n_nights; i++) {
		const struct history_night *n = &s->nights[i];
		double lo = INFINITY, hi = -INFINITY;

		if (!n->n)
			continue;
		for (j = 0; j < n->n; j++) {
			lo = fmin(lo, n->values[j]);
			hi = fmax(hi, n->values[j]);
		}
		fprintf(f, "%zu ", i + 1);
		gp_num(f, history_night_mean(n));
		fputc(' ', f);
		gp_num(f, lo);
		fputc(' ', f);
		gp_num(f, hi);
		fprintf(f, " %zu ", n->n);
		gp_text(f, or_dash(n->started), GP_DATA);
		fputc(' ', f);
		gp_text(f, or_dash(n->kernel_id), GP_DATA);
		fputc('\n', f);
	}
}

struct segment {
	size_t first, last;	/* nights with values, indices */
	double mean;		/* of their night means */
};

/*
 * The segments between confirmed change points (those with values), in
 * a malloc'ed array; their number in *n.
 */
static struct segment *segments(const struct history_result *r, size_t *n)
{
	const struct history_series *s = r->s;
	struct segment *v = xcalloc(r->ncp + 1, sizeof(*v));
	/* Tonight alone beyond its segment (the watch) is no part of it. */
	size_t end = r->watch.present ? r->watch.night : s->n_nights;
	size_t from = 0, c = 0, i;

	*n = 0;
	for (;;) {
		size_t to = end, k = 0;
		struct segment seg = { 0 };
		double sum = 0;

		while (c < r->ncp && !boundary(&r->cp[c]))
			c++;
		if (c < r->ncp)
			to = r->cp[c].night;
		for (i = from; i < to; i++) {
			if (!s->nights[i].n)
				continue;
			if (!k)
				seg.first = i;
			seg.last = i;
			sum += history_night_mean(&s->nights[i]);
			k++;
		}
		if (k) {
			seg.mean = sum / (double)k;
			v[(*n)++] = seg;
		}
		if (c >= r->ncp)
			break;
		from = to;
		c++;
	}
	return v;
}

/* Each segment's mean as a line a little wider than its nights. */
static void write_segments(FILE *f, const struct segment *v, size_t n)
{
	size_t i;

	fputs("# segment: from, mean of its night means; to, the same\n", f);
	for (i = 0; i < n; i++) {
		gp_num(f, (double)v[i].first + 1 - SEG_PAD);
		fputc(' ', f);
		gp_num(f, v[i].mean);
		fputc('\n', f);
		gp_num(f, (double)v[i].last + 1 + SEG_PAD);
		fputc(' ', f);
		gp_num(f, v[i].mean);
		fputs("\n\n", f);
	}
}

/*
 * "mean 7.521 ms" over each segment's line, all in one unit: at its right
 * end, or, when the segment is too short to carry it (tonight's change),
 * just left of where it starts, beyond the change point's line.
 */
static void label_segments(FILE *f, const struct history_result *r,
			   const struct segment *v, size_t n,
			   const struct gp_axis *ax)
{
	double ppn = px_per_night(r->s), ref = 0;
	char val[64], text[96];
	size_t i;

	for (i = 0; i < n; i++)
		ref = fmax(ref, fabs(v[i].mean));
	for (i = 0; i < n; i++) {
		double width = (double)(v[i].last - v[i].first) + 2 * SEG_PAD;
		bool fits = width * ppn >= 7.0 * 18;	/* 7 px a character */

		history_value_text(r->s->metric, v[i].mean, ref, val, sizeof(val));
		snprintf(text, sizeof(text), "mean %s", val);
		fputs("set label ", f);
		gp_text(f, text, GP_DOUBLE);
		fputs(" at ", f);
		gp_num(f, fits ? (double)v[i].last + 1 + SEG_PAD :
				 (double)v[i].first + 1 - SEG_PAD - 0.6);
		fputs(", ", f);
		gp_num(f, v[i].mean * ax->factor);
		fprintf(f, " right offset 0,%s font ',11' tc rgb '#222222' boxed front\n",
			fits ? "0.9" : "0");
	}
}

static void widen_for_labels(struct gp_axis *ax)
{
	if (ax->log)
		ax->hi *= pow(ax->hi / ax->lo, HEADROOM);
	else
		ax->hi += (ax->hi - ax->lo) * HEADROOM;
}

static void fit_axis(const struct history_series *s, struct gp_axis *ax)
{
	size_t i, total = 0, k = 0;
	double *v;

	for (i = 0; i < s->n_nights; i++)
		total += s->nights[i].n;
	v = xmalloc((total ? total : 1) * sizeof(*v));
	for (i = 0; i < s->n_nights; i++) {
		memcpy(v + k, s->nights[i].values, s->nights[i].n * sizeof(*v));
		k += s->nights[i].n;
	}
	gp_axis_fit_spread(ax, s->metric, v, k);
	free(v);
	widen_for_labels(ax);
}

static void write_night_tics(FILE *f, const struct history_series *s)
{
	struct history_tic t[NIGHT_TICS];
	char xlabel[64];
	size_t n = history_tics(s, NIGHT_TICS, t, xlabel, sizeof(xlabel)), i;

	fputs("set xtics (", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		gp_text(f, t[i].label, GP_TIC);
		fprintf(f, " %zu", t[i].night + 1);
	}
	fputs(") nomirror out\nset xlabel ", f);
	gp_text(f, xlabel, GP_SINGLE);
	fputc('\n', f);
}

#define LABEL_LEVELS 3

/* Labels placed so far, per level: their extents in nights, from and to. */
struct label_levels {
	double used[LABEL_LEVELS][2 * 16];
	size_t n[LABEL_LEVELS];
	double ppn;		/* pixels per night */
};

/*
 * A mark at x: a vertical line (dash type dt) and, at the top, its two
 * lines of text, level, on a white box, on the side of the line where
 * there is room; a label that would cover an earlier one goes a level
 * lower.
 */
static void mark(FILE *f, struct label_levels *lv, size_t n_nights, double x,
		 int dt, const char *rgb, const char *line1, const char *line2)
{
	bool right_half = x > (double)(n_nights + 1) / 2;
	size_t longest = strlen(line1) > strlen(line2) ? strlen(line1) : strlen(line2);
	/* Its extent in nights: about 7 px a character, and the offset. */
	double w = (7.0 * (double)longest + 12) / lv->ppn;
	double from = right_half ? x - w : x, to = right_half ? x : x + w;
	char label[512];
	size_t l, k;

	fputs("set arrow from ", f);
	gp_num(f, x);
	fputs(", graph 0 to ", f);
	gp_num(f, x);
	fprintf(f, ", graph 1 nohead dt %d lw 2 lc rgb '%s' front\n", dt, rgb);
	for (l = 0; l < LABEL_LEVELS - 1; l++) {
		for (k = 0; k < lv->n[l]; k += 2)
			if (from < lv->used[l][k + 1] && to > lv->used[l][k])
				break;
		if (k >= lv->n[l])
			break;
	}
	if (lv->n[l] < ARRAY_SIZE(lv->used[l])) {
		lv->used[l][lv->n[l]++] = from;
		lv->used[l][lv->n[l]++] = to;
	}
	snprintf(label, sizeof(label), "%s\n%s", line1, line2);
	fputs("set label ", f);
	gp_text(f, label, GP_DOUBLE);
	fputs(" at ", f);
	gp_num(f, x);
	fprintf(f, ", graph %.2f %s offset %s,0 font ',11' tc rgb '%s' boxed front\n",
		0.96 - 0.1 * (double)l, right_half ? "right" : "left",
		right_half ? "-0.8" : "0.8", rgb);
}

static void rel_text(double rel, char *buf, size_t len)
{
	if (isfinite(rel))
		snprintf(buf, len, " %+.1f%%", rel * 100);
	else
		buf[0] = '\0';
}

/*
 * Each change point: a dashed line between the last night before it and
 * its first, labelled with its kind, size, status and first kernel. A
 * rejected candidate is a thin grey dotted line without a label. The
 * watch (tonight alone beyond its segment, not yet a change) a dotted
 * line before the newest night, labelled "tonight alone".
 */
static void write_change_points(FILE *f, const struct history_result *r)
{
	struct label_levels lv = { .ppn = px_per_night(r->s) };
	char line1[256], rel[32], kid[200];
	size_t i;

	for (i = 0; i < r->ncp; i++) {
		const struct history_cp *cp = &r->cp[i];
		double x = (double)cp->night + 0.5;	/* between it and the night before */
		enum hcp_status st = history_cp_status(cp);

		if (cp->kind == HCP_REJECTED) {
			fputs("set arrow from ", f);
			gp_num(f, x);
			fputs(", graph 0 to ", f);
			gp_num(f, x);
			fprintf(f, ", graph 1 nohead dt 3 lw 1 lc rgb '%s' back\n",
				kind_rgb(cp->kind));
			continue;
		}
		rel_text(cp->c.ch.rel, rel, sizeof(rel));
		snprintf(line1, sizeof(line1), "%s%s%s%s", hcp_kind_name(cp->kind),
			 rel, st == HCP_STATUS_NONE ? "" : ", ",
			 st == HCP_STATUS_NONE ? "" : hcp_status_name(st));
		snprintf(kid, sizeof(kid), "%s: %s", hcp_first_term(cp->kind),
			 or_dash(r->s->nights[cp->night].kernel_id));
		mark(f, &lv, r->s->n_nights, x, 2, kind_rgb(cp->kind), line1, kid);
	}
	if (!r->watch.present)
		return;
	rel_text(r->watch.nt.change, rel, sizeof(rel));
	snprintf(line1, sizeof(line1), "tonight alone%s: %s", rel,
		 r->watch.strong && r->watch.kind == HCP_REGRESSION ?
		 "fails, to be confirmed" : "to be confirmed");
	snprintf(kid, sizeof(kid), "kernel %s",
		 or_dash(r->s->nights[r->watch.night].kernel_id));
	mark(f, &lv, r->s->n_nights, (double)r->watch.night + 0.5, 3,
	     kind_rgb(r->watch.kind), line1, kid);
}

static void chart_what(const struct history_result *r, char *buf, size_t len)
{
	const struct history_series *s = r->s;

	snprintf(buf, len, "%s  %s  (%s / %s, %zu nights)", or_dash(s->case_id),
		 or_dash(s->metric), or_dash(s->host), or_dash(s->suite),
		 r->n_used);
}

static int write_data(struct gp_chart *ch, const struct history_result *r,
		      const struct segment *seg, size_t nseg, char *dat,
		      char *segf, size_t len, char *err, size_t errlen)
{
	FILE *f = gp_data(ch, "dat", dat, len, err, errlen);

	if (!f)
		return -1;
	write_nights(f, r->s);
	if (gp_data_close(ch, f, dat, err, errlen))
		return -1;
	f = gp_data(ch, "seg.dat", segf, len, err, errlen);
	if (!f)
		return -1;
	write_segments(f, seg, nseg);
	return gp_data_close(ch, f, segf, err, errlen);
}

static void write_plot(FILE *f, const char *dat, const char *seg,
		       const struct gp_axis *ax)
{
	fputs("plot ", f);
	gp_text(f, dat, GP_SINGLE);
	fputs(" using 1:", f);
	gp_axis_col(f, ax, 2);
	fputc(':', f);
	gp_axis_col(f, ax, 3);
	fputc(':', f);
	gp_axis_col(f, ax, 4);
	fputs(" with yerrorbars lc rgb '#4477aa' pt 7 ps 0.7 title 'night mean (bar: its runs, min to max)', \\\n     ", f);
	gp_text(f, seg, GP_SINGLE);
	fputs(" using 1:", f);
	gp_axis_col(f, ax, 2);
	fputs(" with lines lw 3 lc rgb '#222222' title 'mean between change points', \\\n"
	      "     NaN with lines dt 2 lw 2 lc rgb '#cc3311' title 'change point: red worse, green better, blue other; dotted: tonight alone'\n",
	      f);
}

static int chart(const struct history_result *r, const char *dir,
		 struct plot_set *ps, char *err, size_t errlen)
{
	char stem[1024], what[2048], dat[1100], segf[1100];
	struct gp_chart ch;
	struct gp_axis ax;
	struct segment *seg;
	size_t nseg;
	int rc = -1;
	FILE *f;

	history_plot_stem(r->s, stem, sizeof(stem));
	chart_what(r, what, sizeof(what));
	if (gp_open(&ch, ps, dir, stem, what, err, errlen))
		return -1;
	seg = segments(r, &nseg);
	if (write_data(&ch, r, seg, nseg, dat, segf, sizeof(dat), err, errlen)) {
		gp_abort(&ch);
		goto out;
	}
	f = ch.gp;
	fit_axis(r->s, &ax);
	/* height 1: a line between the night label and the key below it, which
	 * gnuplot otherwise sets flush against each other. */
	fputs("set border 3\nset tics nomirror out\n"
	      "set key below left horizontal samplen 2 font ',11' height 1\n"
	      "set grid ytics lc rgb '#dddddd'\nset errorbars 0.5\n"
	      "set pointintervalbox 0.0001\n"
	      "set style textbox opaque noborder margins 2,1\n", f);
	fputs("set title ", f);
	gp_text(f, what, GP_DOUBLE);
	fputs(" font ',14'\n", f);
	fprintf(f, "set xrange [0.3:%zu.7]\n", r->s->n_nights);
	write_night_tics(f, r->s);
	gp_axis_write(f, &ax, 'y');
	write_change_points(f, r);
	label_segments(f, r, seg, nseg, &ax);
	gp_begin(&ch, GP_WIDTH, GP_HEIGHT);
	write_plot(f, dat, segf, &ax);
	rc = gp_close(&ch, err, errlen);
out:
	free(seg);
	return rc;
}

int history_plot(const struct history_result *r, size_t n, const char *dir,
		 struct plot_set *ps, char *err, size_t errlen)
{
	size_t i;

	if (mkdir_p(dir, 0755)) {
		snprintf(err, errlen, "%s: cannot create: %s", dir,
			 strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		if (r[i].n_used && chart(&r[i], dir, ps, err, errlen))
			return -1;
	return 0;
}
