// SPDX-License-Identifier: GPL-2.0-only
#include "history_confirm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum better history_series_better(const struct history_series *s)
{
	int b = s->better ? better_parse(s->better) : -1;

	return b >= 0 ? (enum better)b : metric_default_better(s->metric);
}

/* The values of nights [from, to) in one malloc'ed array; count in *n. */
static double *pool(const struct history_series *s, size_t from, size_t to,
		    size_t *n, size_t *nights)
{
	size_t i, k = 0;
	double *v;

	*nights = 0;
	for (i = from; i < to; i++)
		k += s->nights[i].n;
	v = xmalloc((k ? k : 1) * sizeof(*v));
	k = 0;
	for (i = from; i < to; i++) {
		if (s->nights[i].n)
			(*nights)++;
		memcpy(v + k, s->nights[i].values,
		       s->nights[i].n * sizeof(*v));
		k += s->nights[i].n;
	}
	*n = k;
	return v;
}

void history_confirm(const struct history_series *s, size_t a_from,
		     size_t at, size_t b_to, enum better better,
		     const struct history_confirm_opts *o,
		     struct history_confirm *c)
{
	double *a = pool(s, a_from, at, &c->na, &c->nights_a);
	double *b = pool(s, at, b_to, &c->nb, &c->nights_b);
	double alpha = 1 - o->confidence;
	struct verdict_in in;

	memset(&c->w, 0, sizeof(c->w));
	memset(&c->mw, 0, sizeof(c->mw));
	memset(&c->a, 0, sizeof(c->a));
	memset(&c->b, 0, sizeof(c->b));
	c->p = c->mde = c->w.p = c->mw.p = NAN;
	memset(&c->ch, 0, sizeof(c->ch));
	c->ch.rel = c->ch.lo = c->ch.hi = NAN;
	c->verdict = VERDICT_TOO_FEW;
	stats_summary(a, c->na, &c->a);
	stats_summary(b, c->nb, &c->b);
	if (c->na >= VERDICT_MIN_N && c->nb >= VERDICT_MIN_N) {
		mann_whitney(a, c->na, b, c->nb, &c->mw);
		change_ci(a, c->na, b, c->nb, o->confidence, &c->ch);
		c->w = c->ch.w;
		c->p = fmax(c->w.p, c->mw.p);
		c->mde = rule_detectable_change(&c->ch, c->na, c->nb,
						o->threshold, alpha, o->power);
		in = (struct verdict_in){
			.na = c->na, .nb = c->nb, .better = better,
			.threshold = o->threshold, .alpha = alpha, .p = c->p,
			.diff = c->ch.w.diff, .ch = c->ch,
		};
		c->verdict = verdict_decide(&in);
	}
	free(a);
	free(b);
}
