// SPDX-License-Identifier: GPL-2.0-only
#include "histgen.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

void histgen_init(struct histgen *g)
{
	memset(g, 0, sizeof(*g));
	g->nights = 30;
	g->reps = 5;
	g->mean = 1000;
	g->cv = 0.03;
	g->host = "box1";
	g->suite = "synthetic";
	g->case_id = "mremap/thp=always";
	g->metric = "roi_usec";
	g->better = "lower";
	g->seed = 1;
}

static bool listed(const size_t *v, size_t n, size_t night)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == night)
			return true;
	return false;
}

static double factor(const struct histgen_at *v, size_t n, size_t night,
		     bool from_on)
{
	double f = 1;
	size_t i;

	for (i = 0; i < n; i++)
		if (from_on ? night >= v[i].night : night == v[i].night)
			f *= 1 + v[i].size;
	return f;
}

void histgen_kernel_id(size_t night, char *buf, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL * (night + 1);

	h ^= h >> 29;
	snprintf(buf, len, "%012llx",
		 (unsigned long long)(h & 0xffffffffffffULL));
}

void histgen_microcode(const struct histgen *g, size_t night, char *buf,
		       size_t len)
{
	size_t i, k = 0;

	for (i = 0; i < g->nhosts; i++)
		if (night >= g->hosts[i])
			k++;
	snprintf(buf, len, "0x%zx", 0x100 + k);
}

void histgen_started(size_t night, char *buf, size_t len)
{
	/* 2023-01-01T02:00:00Z plus one day a night: 1000 nights end in
	 * 2025, before any import (a future night is refused) */
	time_t t = (time_t)1672538400 + (time_t)night * 86400;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static char *str_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Student's t with 3 degrees of freedom, scaled to unit variance. */
static double heavy(gsl_rng *rng)
{
	return gsl_ran_tdist(rng, 3) / sqrt(3.0);
}

double histgen_night_offset(const struct histgen *g, gsl_rng *rng)
{
	return 1 + g->night_cv * (g->night_heavy ? heavy(rng) :
				  gsl_ran_gaussian(rng, 1));
}

double histgen_rep(const struct histgen *g, gsl_rng *rng, double level,
		   double cv)
{
	switch (g->noise) {
	case HG_LOGNORMAL:
		return level * exp(cv * gsl_ran_gaussian(rng, 1) - cv * cv / 2);
	case HG_HEAVY:
		return level * (1 + cv * heavy(rng));
	case HG_NORMAL:
	default:
		return level * (1 + cv * gsl_ran_gaussian(rng, 1));
	}
}

static void make_night(const struct histgen *g, gsl_rng *rng, size_t i,
		       struct history_night *n)
{
	double ramp = i > g->drift_from ? (double)(i - g->drift_from) : 0;
	double level = g->mean * (factor(g->steps, g->nsteps, i, true) + g->drift * ramp) *
		       factor(g->outliers, g->noutliers, i, false);
	double cv = g->cv * factor(g->cv_steps, g->ncv_steps, i, true);
	char buf[64];
	size_t r, reps;

	/* Draw the night's noise even when unused: a history then differs
	 * from its variants only where they differ. */
	level *= histgen_night_offset(g, rng);
	n->run_id = (int64_t)i + 1;
	histgen_started(i, buf, sizeof(buf));
	n->started = xstrdup(buf);
	if (g->kernel_same)
		histgen_kernel_id(0, buf, sizeof(buf));
	else
		histgen_kernel_id(i, buf, sizeof(buf));
	n->kernel_id = xstrdup(buf);
	n->kernel_release = xstrdup("6.18.0");
	histgen_microcode(g, i, buf, sizeof(buf));
	n->host_fingerprint = xstrdup(buf);
	n->values = xcalloc(g->reps ? g->reps : 1, sizeof(double));
	reps = listed(g->partial, g->npartial, i) && g->reps > 2 ? 2 : g->reps;
	n->n = listed(g->failed, g->nfailed, i) ? 0 : reps;
	for (r = 0; r < g->reps; r++) {
		double v = histgen_rep(g, rng, level, cv);

		if (r < n->n)
			n->values[r] = v;
	}
}

void histgen_series(const struct histgen *g, struct history_series *s)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t i;

	gsl_rng_set(rng, (unsigned long)g->seed);
	memset(s, 0, sizeof(*s));
	s->host = str_or_null(g->host);
	s->suite = str_or_null(g->suite);
	s->suite_hash = xstrdup("0000synthetic");
	s->case_id = str_or_null(g->case_id);
	s->metric = str_or_null(g->metric);
	s->better = str_or_null(g->better);
	s->nights = xcalloc(g->nights ? g->nights : 1, sizeof(*s->nights));
	for (i = 0; i < g->nights; i++) {
		struct history_night n;

		make_night(g, rng, i, &n);
		if (listed(g->missing, g->nmissing, i)) {
			free(n.started);
			free(n.kernel_id);
			free(n.kernel_release);
			free(n.host_fingerprint);
			free(n.values);
			continue;
		}
		s->nights[s->n_nights++] = n;
	}
	gsl_rng_free(rng);
}
