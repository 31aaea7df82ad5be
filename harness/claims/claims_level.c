// SPDX-License-Identifier: GPL-2.0-only
#include "claims_level.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "util/util.h"

#define DEFAULT_WITHIN 0.15

struct level {
	const struct tb_case *c;
	double target;
	struct summary s;
	double lo, hi;		/* 95% interval of the mean */
};

static int number(const struct suite_claim *cl, const char *key, double dflt,
		  double *out)
{
	const char *v = claim_field(cl, key);

	*out = dflt;
	return *v && (parse_double(v, out) || !isfinite(*out)) ? -1 : 0;
}

static int summarize(struct level *l, const char *metric)
{
	double *v = xmalloc((l->c->nruns + 1) * sizeof(*v));
	size_t n = case_metric_values(l->c, metric, v, l->c->nruns);
	int rc = stats_summary(v, n, &l->s) ||
		 stats_ci_mean(&l->s, 0.95, &l->lo, &l->hi) ? -1 : 0;

	/* All equal (a share of exactly 0): the interval is the value. */
	if (!rc && l->s.stddev == 0)
		l->lo = l->hi = l->s.mean;
	free(v);
	return rc;
}

/* "THP mode always: t0 0.49, t1 0.51" for the metrics matching glob. */
static void add_details(json_t *o, const struct level *l, const char *glob)
{
	char **names, line[512], part[96];
	double *v = xmalloc((l->c->nruns + 1) * sizeof(*v));
	size_t i, n, nn = case_metric_names(l->c, &names), used;
	struct summary s;

	used = (size_t)snprintf(line, sizeof(line), "%s:", l->c->id);
	for (i = 0; i < nn && used < sizeof(line); i++) {
		if (fnmatch(glob, names[i], 0))
			continue;
		n = case_metric_values(l->c, names[i], v, l->c->nruns);
		if (stats_summary(v, n, &s))
			continue;
		snprintf(part, sizeof(part), " %s %.2f", strrchr(names[i], '.') ?
			 strrchr(names[i], '.') + 1 : names[i], s.mean);
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s", part);
	}
	json_array_append_new(json_object_get(o, "details"), json_string(line));
	free(names);
	free(v);
}

/* -1 the interval is outside the band, 0 straddles an edge, 1 inside. */
static int place(const struct level *l, double within)
{
	double blo = l->target - within, bhi = l->target + within;

	if (l->hi < blo || l->lo > bhi)
		return -1;
	return l->lo >= blo && l->hi <= bhi;
}

static void set(json_t *o, const char *verdict, const char *reason)
{
	json_object_set_new(o, "verdict", json_string(verdict));
	if (reason)
		json_object_set_new(o, "reason", json_string(reason));
}

static void judge(json_t *o, const struct level *a, const struct level *b,
		  double within)
{
	int pa = place(a, within), pb = place(b, within);
	const struct level *off = pa < 0 ? a : pb < 0 ? b : pa == 0 ? a : b;
	char why[300];

	if (pa > 0 && pb > 0) {
		set(o, "reproduced", NULL);
		return;
	}
	snprintf(why, sizeof(why), "%s: %.3f [%.3f, %.3f] %s the band %.2f +- %.2f",
		 off->c->id, off->s.mean, off->lo, off->hi,
		 pa < 0 || pb < 0 ? "lies outside" : "straddles the edge of",
		 off->target, within);
	set(o, pa < 0 || pb < 0 ? "not reproduced" : "inconclusive", why);
}

void claims_level(json_t *o, const struct suite_claim *cl,
		  const struct tb_case *base, const struct tb_case *new)
{
	struct level a = { .c = base }, b = { .c = new };
	const char *metric = claim_field(cl, "metric");
	double within;
	char text[160];

	if (number(cl, "claimed_value", NAN, &a.target) || isnan(a.target) ||
	    number(cl, "claimed_new", NAN, &b.target) || isnan(b.target) ||
	    number(cl, "within", DEFAULT_WITHIN, &within) || within <= 0) {
		set(o, "not measurable", "a level claim needs claimed_value, "
		    "claimed_new and a positive within");
		return;
	}
	if (summarize(&a, metric) || summarize(&b, metric)) {
		set(o, "not measurable", "fewer than 2 finite values of the metric");
		return;
	}
	snprintf(text, sizeof(text), "%.2f [%.2f, %.2f] vs %.2f [%.2f, %.2f]",
		 a.s.mean, a.lo, a.hi, b.s.mean, b.lo, b.hi);
	json_object_set_new(o, "measured", json_string(text));
	json_object_set_new(o, "base_mean", json_real(a.s.mean));
	json_object_set_new(o, "new_mean", json_real(b.s.mean));
	json_object_set_new(o, "details", json_array());
	if (*claim_field(cl, "per")) {
		add_details(o, &a, claim_field(cl, "per"));
		add_details(o, &b, claim_field(cl, "per"));
	}
	judge(o, &a, &b, within);
}
