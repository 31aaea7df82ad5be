// SPDX-License-Identifier: GPL-2.0-only
#include "history_plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_axis.h"
#include "plot/plot_gp.h"
#include "plot/plot_metrics.h"
#include "util/util.h"

#define DATE_TICS 8

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

/* Segments between confirmed change points: two rows each, x and mean. */
static void write_segments(FILE *f, const struct history_result *r)
{
	const struct history_series *s = r->s;
	size_t from = 0, c = 0, i;

	fputs("# segment: first night, mean of its night means; last night, the same\n",
	      f);
	for (;;) {
		size_t to = s->n_nights, k = 0, first = 0, last = 0;
		double sum = 0;

		while (c < r->ncp && !boundary(&r->cp[c]))
			c++;
		if (c < r->ncp)
			to = r->cp[c].night;
		for (i = from; i < to; i++) {
			if (!s->nights[i].n)
				continue;
			if (!k)
				first = i;
			last = i;
			sum += history_night_mean(&s->nights[i]);
			k++;
		}
		if (k) {
			fprintf(f, "%zu ", first + 1);
			gp_num(f, sum / (double)k);
			fprintf(f, "\n%zu ", last + 1);
			gp_num(f, sum / (double)k);
			fputs("\n\n", f);
		}
		if (c >= r->ncp)
			break;
		from = to;
		c++;
	}
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
}

static void write_date_tics(FILE *f, const struct history_series *s)
{
	size_t step = s->n_nights / DATE_TICS + 1, i;
	bool first = true;
	char date[16];

	fputs("set xtics (", f);
	for (i = 0; i < s->n_nights; i += step) {
		snprintf(date, sizeof(date), "%.10s", or_dash(s->nights[i].started));
		fputs(first ? "" : ", ", f);
		gp_text(f, date, GP_TIC);
		fprintf(f, " %zu", i + 1);
		first = false;
	}
	fputs(") rotate by -30\n", f);
}

static void write_change_points(FILE *f, const struct history_result *r)
{
	size_t i;

	for (i = 0; i < r->ncp; i++) {
		const struct history_cp *cp = &r->cp[i];
		char label[256];
		double x = (double)cp->night + 0.5;	/* between it and the night before */

		fputs("set arrow from ", f);
		gp_num(f, x);
		fputs(", graph 0 to ", f);
		gp_num(f, x);
		fprintf(f, ", graph 1 nohead dt 2 lw 2 lc rgb '%s' front\n",
			kind_rgb(cp->kind));
		snprintf(label, sizeof(label), "%s: %s", hcp_kind_name(cp->kind),
			 or_dash(r->s->nights[cp->night].kernel_id));
		fputs("set label ", f);
		gp_text(f, label, GP_DOUBLE);
		fputs(" at ", f);
		gp_num(f, x);
		fprintf(f, ", graph 0.97 rotate by 90 right offset -0.6,0 font ',10' tc rgb '%s' front\n",
			kind_rgb(cp->kind));
	}
}

static void chart_what(const struct history_result *r, char *buf, size_t len)
{
	const struct history_series *s = r->s;

	snprintf(buf, len, "%s %s: %s %s (%zu nights)\n"
		 "dot: night mean, bar: its repetitions' range, line: segment mean, dashed: change point",
		 or_dash(s->host), or_dash(s->suite), or_dash(s->case_id),
		 or_dash(s->metric), r->n_used);
}

static int write_data(struct gp_chart *ch, const struct history_result *r,
		      char *dat, char *seg, size_t len, char *err, size_t errlen)
{
	FILE *f = gp_data(ch, "dat", dat, len, err, errlen);

	if (!f)
		return -1;
	write_nights(f, r->s);
	if (gp_data_close(ch, f, dat, err, errlen))
		return -1;
	f = gp_data(ch, "seg.dat", seg, len, err, errlen);
	if (!f)
		return -1;
	write_segments(f, r);
	return gp_data_close(ch, f, seg, err, errlen);
}

static int chart(const struct history_result *r, const char *dir,
		 struct plot_set *ps, char *err, size_t errlen)
{
	char stem[1024], what[2048], dat[1100], seg[1100];
	struct gp_chart ch;
	struct gp_axis ax;
	FILE *f;

	history_plot_stem(r->s, stem, sizeof(stem));
	chart_what(r, what, sizeof(what));
	if (gp_open(&ch, ps, dir, stem, what, err, errlen))
		return -1;
	if (write_data(&ch, r, dat, seg, sizeof(dat), err, errlen)) {
		gp_abort(&ch);
		return -1;
	}
	f = ch.gp;
	fit_axis(r->s, &ax);
	fputs("set border 3\nset tics nomirror out\nset key off\n"
	      "set grid ytics lc rgb '#dddddd'\nset errorbars 0.5\n"
	      "set pointintervalbox 0.0001\n", f);
	fputs("set title ", f);
	gp_text(f, what, GP_DOUBLE);
	fputc('\n', f);
	fprintf(f, "set xrange [0:%zu]\n", r->s->n_nights + 1);
	write_date_tics(f, r->s);
	gp_axis_write(f, &ax, 'y');
	write_change_points(f, r);
	gp_begin(&ch, GP_WIDTH, GP_HEIGHT);
	fputs("plot ", f);
	gp_text(f, dat, GP_SINGLE);
	fputs(" using 1:", f);
	gp_axis_col(f, &ax, 2);
	fputc(':', f);
	gp_axis_col(f, &ax, 3);
	fputc(':', f);
	gp_axis_col(f, &ax, 4);
	fputs(" with yerrorbars lc rgb '#4477aa' pt 7 ps 0.7 notitle, \\\n     ", f);
	gp_text(f, seg, GP_SINGLE);
	fputs(" using 1:", f);
	gp_axis_col(f, &ax, 2);
	fputs(" with lines lw 3 lc rgb '#222222' notitle\n", f);
	return gp_close(&ch, err, errlen);
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
