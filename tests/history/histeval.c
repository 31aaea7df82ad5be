// SPDX-License-Identifier: GPL-2.0-only
/*
 * histeval - how well `history check` finds the changes of synthetic
 * nightly histories with known answers (histgen.h): precision, recall and
 * F1 per family and over all, how many A/A histories raised an alarm, and
 * how drifts are reported. Not a test: a measure to compare detectors
 * (tests/bench/history_f1.sh prints it).
 *
 *   histeval [--dev N] [--held-out N] [--first S] [--verbose]
 *
 * Two ranges of seeds: development (1..N: tune on these) and held-out
 * (10001..10000+N: evaluate a finished change only). A change that raises
 * the first and lowers the second is no improvement. --first S evaluates
 * N seeds from S instead (one range).
 *
 * Per seed, 92 histories of 5 repetitions, 60 nights unless said; each
 * history draws its repetitions' cv from 1, 2, 3, 5, 10%, their noise
 * shape (normal, lognormal, heavy-tailed t3) and its night-to-night noise
 * (0.5-1%) unless said:
 *   aa        14  no change (some with outlier nights, gaps, a host
 *                 change without effect)
 *   step      16  one step of +-2, 3, 5, 10, 20%
 *   outlier    6  a step and 1-3 nights of +-20-40% anywhere (also after it)
 *   missing    8  a step; gaps of 2-5 nights (one may hold the step),
 *                 failed nights, nights of 2 repetitions
 *   late       5  a step 2-4 nights before the newest
 *   fixed      6  a regression of 5-30% fixed 5-15 nights later
 *   drift      6  a slow trend of 5-15% over 20-50 nights, no step
 *   long       5  300-500 nights, 4-6 changes of 5-30%
 *   nightcv    8  a step of +-5, 10% with 2% night-to-night noise
 *                 (half of them heavy-tailed)
 *   multi      8  2-4 steps of 3-20%, 8-25 nights apart, 90 nights
 *   variance   5  the cv doubles or halves, the level stays
 *   host       5  a host change that moves the level 3-10% (an
 *                 environment change), and a kernel step elsewhere
 * A step's truth is its first night with values (a step inside a gap is
 * first seen after it). A change found within +-1 night of a step is a
 * hit (each step once; a host change's step only as an environment
 * change); any other confirmed change is a false alarm (on a drift or a
 * variance change, every one). F1 = 2 hits / (2 hits + false alarms +
 * misses). Drift findings: on the drift family they are the answer; on
 * aa, variance and step-free histories, false drifts.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "histgen.h"
#include "history/history_check.h"
#include "util/util.h"

enum { F_AA, F_STEP, F_OUTLIER, F_MISSING, F_LATE, F_FIXED, F_DRIFT, F_LONG,
       F_NIGHTCV, F_MULTI, F_VARIANCE, F_HOST, NFAM };

static const char *const fam_names[NFAM] = {
	"aa", "step", "outlier", "missing", "late", "fixed", "drift", "long",
	"nightcv", "multi", "variance", "host",
};

static const size_t fam_size[NFAM] = { 14, 16, 6, 8, 5, 6, 6, 5, 8, 8, 5, 5 };

#define HELD_OUT_FIRST 10001

struct tally {
	size_t hits, misses, false_alarms, histories, alarmed;
	size_t drifts;		/* drift findings */
};

static bool verbose;

static double pick(gsl_rng *r, const double *v, size_t n)
{
	return v[gsl_rng_uniform_int(r, n)];
}

static size_t between(gsl_rng *r, size_t lo, size_t hi)
{
	return lo + gsl_rng_uniform_int(r, hi - lo + 1);
}

static double sign(gsl_rng *r)
{
	return gsl_rng_uniform(r) < 0.5 ? -1 : 1;
}

static void add_step(struct histgen *g, size_t night, double size)
{
	if (g->nsteps < HISTGEN_MAX)
		g->steps[g->nsteps++] = (struct histgen_at){ night, size };
}

static void add_missing(struct histgen *g, size_t night)
{
	if (g->nmissing < HISTGEN_MAX && night < g->nights)
		g->missing[g->nmissing++] = night;
}

static void add_outlier(struct histgen *g, size_t night, double size)
{
	if (g->noutliers < HISTGEN_MAX)
		g->outliers[g->noutliers++] = (struct histgen_at){ night, size };
}

/* The noise every family draws first: cv, shape, night noise. */
static void noise(struct histgen *g, gsl_rng *r)
{
	static const double cvs[] = { 0.01, 0.02, 0.03, 0.05, 0.10 };

	g->cv = pick(r, cvs, ARRAY_SIZE(cvs));
	g->noise = (enum histgen_noise)gsl_rng_uniform_int(r, 3);
	g->night_cv = 0.005 + 0.005 * gsl_rng_uniform(r);
}

static void make_aa(struct histgen *g, gsl_rng *r, size_t i)
{
	size_t k;

	switch (i % 4) {
	case 1:
		add_outlier(g, between(r, 5, 55), 0.3 * sign(r));
		break;
	case 2:
		for (k = between(r, 10, 50), g->nmissing = 0; g->nmissing < 4; k++)
			add_missing(g, k);
		break;
	case 3:
		g->hosts[g->nhosts++] = between(r, 20, 40);
		break;
	}
}

static void make_missing(struct histgen *g, gsl_rng *r)
{
	size_t at = between(r, 20, 40), k, gaps = between(r, 1, 3), j;

	add_step(g, at, pick(r, (const double[]){ 0.03, 0.05, 0.10, 0.20 }, 4) * sign(r));
	for (j = 0; j < gaps; j++) {
		/* the first gap holds the step half the time */
		size_t from = j == 0 && gsl_rng_uniform(r) < 0.5 ?
			      at - between(r, 0, 2) : between(r, 5, 54);
		size_t len = between(r, 2, 5);

		for (k = 0; k < len; k++)
			add_missing(g, from + k);
	}
	g->failed[g->nfailed++] = between(r, 1, 58);
	g->partial[g->npartial++] = between(r, 1, 58);
	g->partial[g->npartial++] = between(r, 1, 58);
}

static void make_long(struct histgen *g, gsl_rng *r)
{
	static const double big[] = { 0.05, 0.10, 0.15, 0.20, 0.30 };
	size_t at = between(r, 40, 90), n = between(r, 4, 6), k;

	g->nights = between(r, 300, 500);
	for (k = 0; k < n && at + 20 < g->nights; k++) {
		double s = pick(r, big, ARRAY_SIZE(big)) * sign(r);

		add_step(g, at, s);
		if (k == 0 && s > 0) {
			add_step(g, at + 10, 1 / (1 + s) - 1);
			k++;
		}
		at += between(r, 40, 110);
	}
}

static void make_multi(struct histgen *g, gsl_rng *r)
{
	static const double sizes[] = { 0.03, 0.05, 0.10, 0.20 };
	size_t at = between(r, 10, 25), n = between(r, 2, 4), k;

	g->nights = 90;
	for (k = 0; k < n && at + 5 < g->nights; k++) {
		add_step(g, at, pick(r, sizes, ARRAY_SIZE(sizes)) * sign(r));
		at += between(r, 8, 25);
	}
}

/* History number i of family f. */
static void make(int f, size_t i, gsl_rng *r, uint64_t seed, struct histgen *g)
{
	static const double sizes[] = { 0.02, 0.03, 0.05, 0.10, 0.20 };
	static const double big[] = { 0.05, 0.10, 0.15, 0.20, 0.30 };
	size_t at, k;

	histgen_init(g);
	g->nights = 60;
	g->seed = seed;
	noise(g, r);
	switch (f) {
	case F_AA:
		make_aa(g, r, i);
		break;
	case F_STEP:
		add_step(g, between(r, 15, 45), sizes[(i / 2) % 5] * (i % 2 ? -1 : 1));
		break;
	case F_OUTLIER:
		at = between(r, 20, 40);
		add_step(g, at, pick(r, sizes + 2, 3) * sign(r));
		for (k = between(r, 1, 3); k > 0; k--) {
			size_t o = between(r, 3, 58);

			if (o != at && o + 1 != at && o != at + 1)
				add_outlier(g, o, (0.2 + 0.2 * gsl_rng_uniform(r)) * sign(r));
		}
		break;
	case F_MISSING:
		make_missing(g, r);
		break;
	case F_LATE:
		add_step(g, g->nights - between(r, 2, 4), pick(r, sizes + 2, 3) * sign(r));
		break;
	case F_FIXED: {
		double s = pick(r, big, 5);

		at = between(r, 15, 35);
		add_step(g, at, s);
		add_step(g, at + between(r, 5, 15), 1 / (1 + s) - 1);
		break;
	}
	case F_DRIFT: {
		size_t len = between(r, 20, 50);

		g->drift_from = between(r, 5, g->nights - len);
		g->drift = pick(r, (const double[]){ 0.05, 0.10, 0.15 }, 3) * sign(r) / (double)len;
		/* the drift goes on to the newest night: nights still drifting */
		break;
	}
	case F_LONG:
		make_long(g, r);
		break;
	case F_NIGHTCV:
		g->night_cv = 0.02;
		g->night_heavy = i % 2;
		add_step(g, between(r, 20, 40), (i % 4 < 2 ? 0.05 : 0.10) * sign(r));
		break;
	case F_MULTI:
		make_multi(g, r);
		break;
	case F_VARIANCE:
		g->cv_steps[g->ncv_steps++] = (struct histgen_at){
			between(r, 20, 40), i % 2 ? 1.0 : -0.5 };
		break;
	case F_HOST:
		/* one kernel all along: the host moved the level, not it */
		g->kernel_same = true;
		at = between(r, 15, 25);
		g->hosts[g->nhosts++] = at;
		add_step(g, at, pick(r, (const double[]){ 0.03, 0.05, 0.10 }, 3) * sign(r));
		add_step(g, at + between(r, 15, 25), pick(r, sizes + 2, 3) * sign(r));
		break;
	}
}

/* The original night of a series night (histgen: run id = night + 1). */
static long original(const struct history_series *s, size_t i)
{
	return (long)s->nights[i].run_id - 1;
}

/* The first night at or after `night` that has values (a gap hides it). */
static long seen_at(const struct history_series *s, size_t night)
{
	size_t i;

	for (i = 0; i < s->n_nights; i++)
		if (original(s, i) >= (long)night && s->nights[i].n)
			return original(s, i);
	return (long)night;
}

static bool host_step(const struct histgen *g, size_t j)
{
	size_t h;

	for (h = 0; h < g->nhosts; h++)
		if (g->hosts[h] == g->steps[j].night)
			return true;
	return false;
}

static void score(const struct histgen *g, const struct history_series *s,
		  const struct history_result *r, struct tally *t)
{
	bool used[HISTGEN_MAX] = { false };
	size_t i, j, fa = 0, hits = 0;

	for (i = 0; i < r->ncp; i++) {
		long at = original(s, r->cp[i].night);
		bool hit = false, env = r->cp[i].kind == HCP_ENVIRONMENT;

		if (r->cp[i].kind == HCP_REJECTED)
			continue;
		for (j = 0; j < g->nsteps && !hit; j++)
			if (!used[j] && host_step(g, j) == env &&
			    labs(at - seen_at(s, g->steps[j].night)) <= 1)
				hit = used[j] = true;
		/* an environment change nobody put there blames nothing */
		hits += hit;
		fa += !hit && !(env && !g->nhosts);
	}
	t->hits += hits;
	t->false_alarms += fa;
	t->misses += g->nsteps - hits;
	t->histories++;
	t->alarmed += hits + fa + r->ndrift > 0;
	t->drifts += r->ndrift;
}

static double f1(const struct tally *t)
{
	double d = 2.0 * (double)t->hits + (double)t->false_alarms + (double)t->misses;

	return d > 0 ? 2.0 * (double)t->hits / d : NAN;
}

static void print(const char *name, const struct tally *t)
{
	printf("  %-8s %4zu histories  hits %4zu  misses %4zu  false alarms %4zu  F1 %.2f  drifts %3zu  (alarmed: %zu)\n",
	       name, t->histories, t->hits, t->misses, t->false_alarms, f1(t),
	       t->drifts, t->alarmed);
}

static void add(struct tally *to, const struct tally *t)
{
	to->hits += t->hits;
	to->misses += t->misses;
	to->false_alarms += t->false_alarms;
	to->histories += t->histories;
	to->alarmed += t->alarmed;
	to->drifts += t->drifts;
}

static void verbose_print(uint64_t seed, int f, size_t i,
			  const struct histgen *g,
			  const struct history_series *s,
			  const struct history_result *res)
{
	size_t c;

	printf("seed %llu %s %zu: cv %.2f noise %d, %zu steps at", (unsigned long long)seed,
	       fam_names[f], i, g->cv, (int)g->noise, g->nsteps);
	for (c = 0; c < g->nsteps; c++)
		printf(" %zu:%+.0f%%", g->steps[c].night, 100 * g->steps[c].size);
	printf("; %zu changes, %zu drifts found\n", res->ncp, res->ndrift);
	for (c = 0; c < res->ncp; c++) {
		char *t = history_cp_text(res, &res->cp[c]);

		printf("    night %ld: %s\n", original(s, res->cp[c].night), t);
		free(t);
	}
}

static void one_seed(uint64_t seed, struct tally *fam)
{
	struct history_check_opts o;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	int f;
	size_t i;

	gsl_rng_set(r, (unsigned long)seed);
	history_check_opts_init(&o);
	for (f = 0; f < NFAM; f++)
		for (i = 0; i < fam_size[f]; i++) {
			struct history_series s;
			struct history_result *res = xmalloc(sizeof(*res));
			struct histgen g;

			make(f, i, r, seed * 1000 + (uint64_t)f * 100 + i, &g);
			histgen_series(&g, &s);
			history_check_series(&s, &o, res);
			score(&g, &s, res, &fam[f]);
			if (verbose)
				verbose_print(seed, f, i, &g, &s, res);
			history_results_free(res, 1);
			history_series_free(&s);
		}
	gsl_rng_free(r);
}

/* Seeds [first, first + n): per family and over all, one line each. */
static void evaluate(const char *name, uint64_t first, long n, bool families)
{
	struct tally fam[NFAM] = { { 0 } }, all = { 0 };
	uint64_t s;
	int f;

	for (s = first; s < first + (uint64_t)n; s++)
		one_seed(s, fam);
	for (f = 0; f < NFAM; f++)
		if (f != F_AA)
			add(&all, &fam[f]);
	if (families) {
		printf("%s, per family (seeds %llu..%llu):\n", name,
		       (unsigned long long)first,
		       (unsigned long long)(first + (uint64_t)n - 1));
		for (f = 0; f < NFAM; f++)
			print(fam_names[f], &fam[f]);
	}
	printf("%s: F1 %.2f (hits %zu, misses %zu, false alarms %zu); A/A %zu/%zu (%.1f per 100); drifts %zu of %zu drifting histories, %zu elsewhere\n",
	       name, f1(&all), all.hits, all.misses, all.false_alarms,
	       fam[F_AA].alarmed, fam[F_AA].histories,
	       100.0 * (double)fam[F_AA].alarmed / (double)fam[F_AA].histories,
	       fam[F_DRIFT].drifts, fam[F_DRIFT].histories,
	       all.drifts - fam[F_DRIFT].drifts + fam[F_AA].drifts);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dev", 1, NULL, 'd' }, { "held-out", 1, NULL, 'H' },
		{ "seeds", 1, NULL, 'n' }, { "first", 1, NULL, 'f' },
		{ "verbose", 0, NULL, 'v' }, { "help", 0, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long dev = 10, held = 10, first = -1;
	int o;

	while ((o = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (o) {
		case 'd': case 'n': dev = strtol(optarg, NULL, 10); break;
		case 'H': held = strtol(optarg, NULL, 10); break;
		case 'f': first = strtol(optarg, NULL, 10); break;
		case 'v': verbose = true; break;
		case 'h':
			puts("usage: histeval [--dev N] [--held-out N] [--first S] [--verbose]");
			return 0;
		default:
			fputs("usage: histeval [--dev N] [--held-out N] [--first S] [--verbose]\n", stderr);
			return TB_EXIT_ERROR;
		}
	}
	if (dev < 1 || held < 0 || dev > 100000 || held > 100000) {
		fputs("histeval: --dev 1..100000, --held-out 0..100000\n", stderr);
		return TB_EXIT_ERROR;
	}
	if (first >= 0) {
		evaluate("seeds", (uint64_t)first, dev, true);
		return 0;
	}
	evaluate("development", 1, dev, true);
	if (held)
		evaluate("held-out", HELD_OUT_FIRST, held, true);
	return 0;
}
