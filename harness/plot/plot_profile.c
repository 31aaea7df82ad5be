// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_profile - A against B, per function's share of the samples
 * (plot_profile.h). The numbers are compare_profile_build()'s.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare_profile.h"
#include "plot_gp.h"
#include "plot_profile.h"

/* A row's label: the function, then B - A and p, or which side lacks it. */
static void row_label(const struct profile_row *r, char *buf, size_t len)
{
	if (r->absent_a || r->absent_b)
		snprintf(buf, len, "%s\nabsent in %s", r->name, r->absent_a ? "A" : "B");
	else
		snprintf(buf, len, "%s\n%+.1f pt, p=%.2g", r->name, r->diff, r->p);
}

/* One data row: index, A mean lo hi, B mean lo hi (NaN: absent). */
static void write_row(FILE *f, size_t i, const struct profile_row *r)
{
	const double v[6] = {
		r->absent_a ? NAN : r->a.mean, r->absent_a ? NAN : r->a_lo,
		r->absent_a ? NAN : r->a_hi, r->absent_b ? NAN : r->b.mean,
		r->absent_b ? NAN : r->b_lo, r->absent_b ? NAN : r->b_hi,
	};
	size_t k;

	fprintf(f, "%zu", i);
	for (k = 0; k < 6; k++) {
		fputc(' ', f);
		gp_num(f, v[k]);
	}
	fputc('\n', f);
}

static int write_dat(struct gp_chart *ch, const struct profile_diff *d,
		     char *name, size_t len, char *err, size_t errlen)
{
	FILE *f = gp_data(ch, "dat", name, len, err, errlen);
	size_t i;

	if (!f)
		return -1;
	gp_comment(f, "self share of the samples, %% (event %s); NaN: absent", d->event);
	fputs("# row a_mean a_lo a_hi b_mean b_lo b_hi\n", f);
	for (i = 0; i < d->n; i++)
		write_row(f, i, &d->rows[i]);
	return gp_data_close(ch, f, name, err, errlen);
}

static void write_tics(FILE *f, const struct profile_diff *d)
{
	char label[256];
	size_t i;

	fputs("set xtics (", f);
	for (i = 0; i < d->n; i++) {
		row_label(&d->rows[i], label, sizeof(label));
		fputs(i ? ", " : "", f);
		gp_text(f, label, GP_TIC);
		fprintf(f, " %zu", i);
	}
	/* Slanted: kernel function names are long, eight of them collide. */
	fprintf(f, ") rotate by 30 right\nset xrange [-0.6:%.1f]\n", (double)d->n - 0.4);
}

static void write_plot(FILE *f, const struct compare_pair *p, const char *dat)
{
	fputs("set style fill solid 0.8 border lc rgb '#333333'\nset boxwidth 0.35\n"
	      "set grid ytics lc rgb '#dddddd'\nset border 3\nset tics out nomirror\n"
	      "set ylabel 'self share of the samples, % (interval: the mean''s)'\n"
	      "set yrange [0:*]\nset bmargin 9\nset lmargin 16\nset rmargin 4\nset key top right\n", f);
	fputs("plot ", f);
	gp_text(f, dat, GP_SINGLE);
	fputs(" using ($1-0.18):2:3:4:(0.35) with boxerrorbars fs empty lc rgb '#0072b2' lw 2 title ", f);
	gp_text(f, p->a_name, GP_SINGLE);
	fputs(", \\\n     '' using ($1+0.18):5:6:7:(0.35) with boxerrorbars lc rgb '#d55e00' title ", f);
	gp_text(f, p->b_name, GP_SINGLE);
	fputs("\n", f);
}

int plot_profile_chart(const struct comparison *c, const struct compare_pair *p,
		       const char *dir, const char *stem, struct plot_set *ps,
		       char *err, size_t errlen)
{
	struct profile_diff d;
	struct gp_chart ch;
	char what[512], dat[512], rate[48] = "";

	if (!compare_profile_build(c, p, &d) || !d.n)
		return 0;
	if (d.freq)
		snprintf(rate, sizeof(rate), " at %ld Hz", d.freq);
	snprintf(what, sizeof(what), "where the time went: %s\n%s vs %s, event %s%s",
		 p->title, p->a_name, p->b_name, d.event, rate);
	if (gp_open(&ch, ps, dir, stem, what, err, errlen))
		return -1;
	if (write_dat(&ch, &d, dat, sizeof(dat), err, errlen)) {
		gp_abort(&ch);
		return -1;
	}
	gp_begin(&ch, GP_WIDTH, GP_HEIGHT);
	fputs("set title ", ch.gp);
	gp_text(ch.gp, what, GP_DOUBLE);
	fputs("\n", ch.gp);
	write_tics(ch.gp, &d);
	write_plot(ch.gp, p, dat);
	return gp_close(&ch, err, errlen);
}
