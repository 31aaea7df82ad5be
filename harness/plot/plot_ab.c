// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot_ab - the charts of a comparison (plot.h): per pair of cases the
 * change chart (plot_change.h) and the two samples side by side (the
 * distribution chart, here). Nothing is computed here that
 * compare_build() did not: the chart shows its numbers.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_format.h"
#include "plot_axis.h"
#include "plot_change.h"
#include "plot_gp.h"
#include "plot_metrics.h"
#include "plot_pairs.h"
#include "plot_profile.h"
#include "util/util.h"

#define MAX_DIST 6

static void write_side(FILE *f, const struct compare_metric *m,
		       const struct compare_side *s, const char *side,
		       size_t blk)
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

static void dist_panel(FILE *f, const struct compare_metric *m, size_t k,
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
	snprintf(note, sizeof(note), "%s: %s",
		 compare_fmt_change(m, pct, sizeof(pct)),
		 verdict_name(m->verdict));
	snprintf(title, sizeof(title), "%s\n%s", m->name, note);
	fputc('\n', f);
	gp_comment(f, "%s: blocks %zu (base) and %zu (new) of %s", m->name,
		   2 * k, 2 * k + 1, dat);
	fputs("set title ", f);
	gp_text(f, title, GP_DOUBLE);
	fprintf(f, " tc rgb %s\n", pair_rgb(m->verdict));
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
static size_t pick_dist(const struct compare_pair *p,
			const struct compare_metric ***out)
{
	const struct compare_metric **perf, **cnt;
	size_t np = pair_pick(p, PM_PERF, false, &perf);
	size_t nc = pair_pick(p, PM_COUNTER, false, &cnt);
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
	if (compare_fmt_width(a) > DIST_TIC_CHARS ||
	    compare_fmt_width(b) > DIST_TIC_CHARS) {
		for (i = 0; a[i] && a[i] == b[i]; i++)
			if (a[i] == '-' || a[i] == '.' || a[i] == '/')
				cut = i + 1;
		if (a[cut] && b[cut]) {
			a += cut;
			b += cut;
		}
	}
	if (compare_fmt_width(a) > DIST_TIC_CHARS ||
	    compare_fmt_width(b) > DIST_TIC_CHARS) {
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

static int dist_chart(const struct comparison *c, const struct compare_pair *p,
		      const char *dir, const char *stem, struct plot_set *ps,
		      char *err, size_t errlen)
{
	const struct compare_metric **m;
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
	char stem[300], s1[320], s2[320], s3[320];
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
		snprintf(s3, sizeof(s3), "%s-profile", stem);
		if (plot_change_chart(c, &c->pairs[i], outdir, s1, ps, err, errlen) ||
		    dist_chart(c, &c->pairs[i], outdir, s2, ps, err, errlen) ||
		    plot_profile_chart(c, &c->pairs[i], outdir, s3, ps, err, errlen))
			return -1;
	}
	return 0;
}
