// SPDX-License-Identifier: GPL-2.0-only
#include "history_confirm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

enum better history_series_better(const struct history_series *s)
{
	int b = s->better ? better_parse(s->better) : -1;

	return b >= 0 ? (enum better)b : metric_default_better(s->metric);
}

/*
 * Flag the outlier nights among [from, to): those whose mean the MAD rule
 * (stats.h) sets apart from the other nights' means. Needs 3 nights.
 */
static bool *outlier_nights(const struct history_series *s, size_t from,
			    size_t to, size_t *nout)
{
	bool *flag = xcalloc(to - from + 1, sizeof(*flag)), *f;
	double *m = xmalloc((to - from + 1) * sizeof(*m));
	size_t i, k = 0;

	for (i = from; i < to; i++)
		if (s->nights[i].n)
			m[k++] = history_night_mean(&s->nights[i]);
	f = xcalloc(k + 1, sizeof(*f));
	*nout = stats_outliers(m, k, OUTLIER_MAD, f);
	k = 0;
	for (i = from; i < to; i++)
		if (s->nights[i].n)
			flag[i - from] = f[k++];
	free(f);
	free(m);
	return flag;
}

/*
 * The values of nights [from, to) but the outlier nights in one malloc'ed
 * array; count in *n, nights used in *nights (their means in *means),
 * left out in *dropped.
 */
static double *pool(const struct history_series *s, size_t from, size_t to,
		    size_t *n, size_t *nights, size_t *dropped, double **means)
{
	bool *skip = outlier_nights(s, from, to, dropped);
	size_t i, k = 0;
	double *v;

	*nights = 0;
	for (i = from; i < to; i++)
		k += s->nights[i].n;
	v = xmalloc((k ? k : 1) * sizeof(*v));
	k = 0;
	*means = xmalloc((to - from + 1) * sizeof(**means));
	for (i = from; i < to; i++) {
		if (skip[i - from])
			continue;
		if (s->nights[i].n)
			(*means)[(*nights)++] = history_night_mean(&s->nights[i]);
		memcpy(v + k, s->nights[i].values,
		       s->nights[i].n * sizeof(*v));
		k += s->nights[i].n;
	}
	free(skip);
	*n = k;
	return v;
}

/* The verdict of one pair of samples, as compare reaches it. */
static enum verdict judge(const double *a, size_t na, const double *b,
			  size_t nb, enum better better,
			  const struct history_confirm_opts *o, struct change *ch,
			  struct mann_whitney *mw, double *p)
{
	struct verdict_in in;

	mann_whitney(a, na, b, nb, mw);
	change_ci(a, na, b, nb, o->confidence, ch);
	*p = fmax(ch->w.p, mw->p);
	in = (struct verdict_in){
		.na = na, .nb = nb, .better = better,
		.threshold = o->threshold, .alpha = 1 - o->confidence, .p = *p,
		.diff = ch->w.diff, .ch = *ch,
	};
	return verdict_decide(&in);
}

void history_confirm(const struct history_series *s, size_t a_from,
		     size_t at, size_t b_to, enum better better,
		     const struct history_confirm_opts *o,
		     struct history_confirm *c)
{
	double *ma, *mb;
	double *a = pool(s, a_from, at, &c->na, &c->nights_a, &c->outliers_a, &ma);
	double *b = pool(s, at, b_to, &c->nb, &c->nights_b, &c->outliers_b, &mb);

	memset(&c->mw, 0, sizeof(c->mw));
	memset(&c->a, 0, sizeof(c->a));
	memset(&c->b, 0, sizeof(c->b));
	memset(&c->ch, 0, sizeof(c->ch));
	c->p = c->mde = c->mw.p = NAN;
	c->ch.rel = c->ch.lo = c->ch.hi = NAN;
	c->w = c->ch.w;
	c->verdict = VERDICT_TOO_FEW;
	stats_summary(a, c->na, &c->a);
	stats_summary(b, c->nb, &c->b);
	if (c->na >= VERDICT_MIN_N && c->nb >= VERDICT_MIN_N) {
		c->verdict = judge(a, c->na, b, c->nb, better, o, &c->ch,
				   &c->mw, &c->p);
		c->w = c->ch.w;
		c->mde = rule_detectable_change(&c->ch, c->na, c->nb,
						o->threshold, 1 - o->confidence,
						o->power);
	}
	free(ma);
	free(mb);
	free(a);
	free(b);
}
