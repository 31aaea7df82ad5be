// SPDX-License-Identifier: GPL-2.0-only
/* bisect_plot - see bisect_plot.h. */
#include "bisect_plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_axis.h"
#include "plot/plot_gp.h"
#include "util/util.h"

/* Tol's bright scheme, as plot_gp's palette. */
#define RGB_GOOD 0x228833
#define RGB_BAD 0xee6677
#define RGB_PARTIAL 0xccbb44
#define RGB_OTHER 0xbbbbbb
#define RGB_REF 0x4477aa

/* At most this many named tics, so they stay readable. */
#define MAX_TICS 40
/* Commits up to this many get a minor tic each. */
#define MAX_MINOR_TICS 400

static int class_rgb(enum bisect_class c)
{
	switch (c) {
	case BC_GOOD:
		return RGB_GOOD;
	case BC_BAD:
		return RGB_BAD;
	case BC_PARTIAL:
		return RGB_PARTIAL;
	default:
		return RGB_OTHER;
	}
}

static void write_steps(FILE *f, const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	size_t i;

	fputs("# index mean lo hi rgb: each decided step\n", f);
	for (i = 0; i < r->norder; i++) {
		const struct bisect_commit *c = &s->c[r->order[i]];

		if (!c->decided_step)
			continue;
		fprintf(f, "%zu ", r->order[i]);
		gp_num(f, c->step.mean);
		fputc(' ', f);
		gp_num(f, c->step.mean_lo);
		fputc(' ', f);
		gp_num(f, c->step.mean_hi);
		fprintf(f, " %d\n", class_rgb(c->cls));
	}
	fputs("\n\n# index: each skipped commit\n", f);
	for (i = 0; i < s->n; i++)
		if (s->c[i].cls == BC_SKIP)
			fprintf(f, "%zu\n", i);
}

static void write_runs(FILE *f, const struct bisect_state *s)
{
	size_t i, k;

	fputs("# index value: every repetition\n", f);
	for (i = 0; i < s->n; i++)
		for (k = 0; k < s->c[i].n; k++) {
			fprintf(f, "%zu ", i);
			gp_num(f, s->c[i].v[k]);
			fputc('\n', f);
		}
}

static void fit_axis(const struct bisect_state *s, struct gp_axis *ax)
{
	size_t i, total = 0, k = 0;
	double *v;

	for (i = 0; i < s->n; i++)
		total += s->c[i].n;
	v = xmalloc((total + 2) * sizeof(*v));
	for (i = 0; i < s->n; i++) {
		memcpy(v + k, s->c[i].v, s->c[i].n * sizeof(*v));
		k += s->c[i].n;
	}
	gp_axis_fit_spread(ax, s->metric, v, k);
	free(v);
}

static void write_tics(FILE *f, const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	size_t i, step = r->norder / MAX_TICS + 1;
	char sh[16];

	fputs("set xtics (", f);
	for (i = 0; i < r->norder; i += step) {
		size_t k = r->order[i];

		if (i)
			fputs(", ", f);
		snprintf(sh, sizeof(sh), "%s%.7s", k == 0 ? "GOOD " :
			 k == s->n - 1 ? "BAD " : "", s->c[k].sha);
		gp_text(f, sh, GP_TIC);
		fprintf(f, " %zu", k);
	}
	fputs(") rotate by -40 font ',10'\n", f);
	/* A small tic at every commit, so untested ones show as gaps. */
	if (s->n <= MAX_MINOR_TICS) {
		fputs("set xtics add (", f);
		for (i = 0; i < s->n; i++)
			fprintf(f, "%s\"\" %zu 1", i ? ", " : "", i);
		fputs(")\n", f);
	}
}

static void write_marks(FILE *f, const struct bisect_result *r,
			const struct gp_axis *ax)
{
	const struct bisect_state *s = r->s;
	double lv[2] = { s->refs.good, s->refs.bad };
	const char *ln[2] = { "GOOD", "BAD" };
	size_t i;
	char label[128];

	for (i = 0; i < 2 && s->refs_done; i++) {
		fputs("set arrow from graph 0, first ", f);
		gp_num(f, lv[i] * ax->factor);
		fputs(" to graph 1, first ", f);
		gp_num(f, lv[i] * ax->factor);
		fprintf(f, " nohead dt 2 lw 1.5 lc rgb '#%06x' back\n", RGB_REF);
		fputs("set label ", f);
		gp_text(f, ln[i], GP_DOUBLE);
		fputs(" at graph 0.005, first ", f);
		gp_num(f, lv[i] * ax->factor);
		fprintf(f, " offset 0,0.6 font ',10' tc rgb '#%06x'\n", RGB_REF);
	}
	for (i = 0; r->have_o && i < r->o.njumps; i++) {
		const struct bisect_jump *j = &r->o.jumps[i];
		double x = (double)j->to - 0.5;

		if (j->first == j->last)
			snprintf(label, sizeof(label), "%s %.12s",
				 r->o.kind == BO_FOUND ? "first bad" : "jump",
				 s->c[j->to].sha);
		else
			snprintf(label, sizeof(label), "in %.7s..%.7s",
				 s->c[j->first].sha, s->c[j->last].sha);
		fputs("set arrow from ", f);
		gp_num(f, x);
		fputs(", graph 0 to ", f);
		gp_num(f, x);
		fprintf(f, ", graph 1 nohead lw 2 lc rgb '#%06x' front\n", RGB_BAD);
		fputs("set label ", f);
		gp_text(f, label, GP_DOUBLE);
		fputs(" at ", f);
		gp_num(f, x);
		fprintf(f, ", graph 0.97 rotate by 90 right offset -1.3,0 font ',10' tc rgb '#%06x' front\n",
			RGB_BAD);
	}
}

static void chart_what(const struct bisect_result *r, char *buf, size_t len)
{
	const struct bisect_state *s = r->s;
	int n = snprintf(buf, len, "bisect of %s (case %s): %s\n%.12s (GOOD) .. %.12s (BAD), %zu commits",
			 s->metric, s->case_name, r->outcome, s->c[0].sha,
			 s->c[s->n - 1].sha, s->n - 1);

	if (s->unit_note && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "\ntimings: %s", s->unit_note);
}

static int write_data(struct gp_chart *ch, const struct bisect_result *r,
		      char *dat, char *runs, size_t len, char *err, size_t errlen)
{
	FILE *f = gp_data(ch, "dat", dat, len, err, errlen);

	if (!f)
		return -1;
	write_steps(f, r);
	if (gp_data_close(ch, f, dat, err, errlen))
		return -1;
	f = gp_data(ch, "runs.dat", runs, len, err, errlen);
	if (!f)
		return -1;
	write_runs(f, r->s);
	return gp_data_close(ch, f, runs, err, errlen);
}

static void write_plot(FILE *f, const struct gp_axis *ax, const char *dat,
		       const char *runs)
{
	fputs("plot ", f);
	gp_text(f, runs, GP_SINGLE);
	fputs(" using 1:", f);
	gp_axis_col(f, ax, 2);
	fputs(" with points pt 7 ps 0.5 lc rgb '#999999' title 'repetition', \\\n     ", f);
	gp_text(f, dat, GP_SINGLE);
	fputs(" index 0 using 1:", f);
	gp_axis_col(f, ax, 2);
	fputc(':', f);
	gp_axis_col_clamped(f, ax, 3);
	fputc(':', f);
	gp_axis_col(f, ax, 4);
	fputs(":5 with yerrorbars pt 5 ps 1.4 lw 2 lc rgb variable title 'step: mean and interval (good green, bad red, partial yellow)', \\\n     ", f);
	gp_text(f, dat, GP_SINGLE);
	fputs(" index 1 using 1:(", f);
	gp_num(f, ax->lo);
	fputs(") with points pt 2 ps 2 lw 2 lc rgb '#000000' title 'skipped'\n", f);
}

static int chart(const struct bisect_result *r, const char *dir,
		 struct plot_set *ps, char *err, size_t errlen)
{
	const struct bisect_state *s = r->s;
	char stem[256], slug[200], what[1024], dat[400], runs[400];
	struct gp_chart ch;
	struct gp_axis ax;
	FILE *f;

	snprintf(stem, sizeof(stem), "bisect-%s", gp_slug(s->metric, slug, sizeof(slug)));
	chart_what(r, what, sizeof(what));
	if (gp_open(&ch, ps, dir, stem, what, err, errlen))
		return -1;
	if (write_data(&ch, r, dat, runs, sizeof(dat), err, errlen)) {
		gp_abort(&ch);
		return -1;
	}
	f = ch.gp;
	fit_axis(s, &ax);
	fputs("set border 3\nset tics nomirror out\nset key below horizontal font ',10' samplen 2\n"
	      "set grid ytics lc rgb '#dddddd'\nset errorbars 0.5\n", f);
	fputs("set title ", f);
	gp_text(f, what, GP_DOUBLE);
	fputc('\n', f);
	fprintf(f, "set xrange [-0.6:%zu.6]\n", s->n - 1);
	fputs("set xlabel 'commit (GOOD .. BAD, first parent)'\n", f);
	write_tics(f, r);
	gp_axis_write(f, &ax, 'y');
	write_marks(f, r, &ax);
	gp_begin(&ch, GP_WIDTH, GP_HEIGHT);
	write_plot(f, &ax, dat, runs);
	return gp_close(&ch, err, errlen);
}

int bisect_plot(const struct bisect_result *r, const char *dir,
		struct plot_set *ps, char *err, size_t errlen)
{
	if (mkdir_p(dir, 0755)) {
		snprintf(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
		return -1;
	}
	if (!r->s->runs)
		return 0;
	return chart(r, dir, ps, err, errlen);
}
