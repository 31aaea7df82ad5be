// SPDX-License-Identifier: GPL-2.0-only
/*
 * histeval - how well `history check` finds the changes of synthetic
 * nightly histories with known answers (histgen.h): precision, recall and
 * F1 per family and over all, and how many A/A histories raised an alarm.
 * Not a test: a measure to compare detectors on data they were not tuned
 * on (tests/bench/history_f1.sh prints it).
 *
 *   histeval [--seeds N] [--first S] [--verbose]
 *
 * Per seed, 77 histories of 5 repetitions at 3% CV, 0.5% night-to-night
 * noise, 60 nights unless said (families, as issue 18 describes its
 * held-out set):
 *   aa        10  no change (5 normal, 5 lognormal noise)
 *   step      20  one step of +-2, 3, 5, 10, 20% (normal, lognormal)
 *   outlier    5  a step and a +30% night elsewhere
 *   missing    5  a step, 6 nights not run, 2 failed
 *   late       5  a step 2-4 nights before the newest
 *   fixed     10  a regression of 5-30% fixed 5-15 nights later
 *   drift      5  a slow trend of 5-15% over the history, no step
 *   long       7  500 nights, 4-5 changes of 5-30%, one fixed after 10
 *   nightcv   10  one step of +-5, 10% with 2% night-to-night noise
 * A change found within +-1 night of a step is a hit (each step once);
 * any other confirmed change is a false alarm (on a drift, every one).
 * F1 = 2 hits / (2 hits + false alarms + misses).
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
       F_NIGHTCV, NFAM };

static const char *const fam_names[NFAM] = {
	"aa", "step", "outlier", "missing", "late", "fixed", "drift", "long",
	"nightcv",
};

struct tally {
	size_t hits, misses, false_alarms, histories, alarmed;
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

static void add_step(struct histgen *g, size_t night, double size)
{
	g->steps[g->nsteps++] = (struct histgen_at){ night, size };
}

/* History number i of family f. */
static void make(int f, size_t i, gsl_rng *r, uint64_t seed, struct histgen *g)
{
	static const double sizes[] = { 0.02, 0.03, 0.05, 0.10, 0.20 };
	static const double big[] = { 0.05, 0.10, 0.15, 0.20, 0.30 };
	size_t k;

	histgen_init(g);
	g->nights = 60;
	g->night_cv = 0.005;
	g->seed = seed;
	switch (f) {
	case F_AA:
		g->lognormal = i % 2;
		break;
	case F_STEP:
		g->lognormal = i % 2;
		add_step(g, between(r, 15, 45), sizes[(i / 2) % 5] * (i >= 10 ? -1 : 1));
		break;
	case F_OUTLIER:
		add_step(g, between(r, 20, 40), pick(r, sizes + 2, 3));
		g->outliers[g->noutliers++] = (struct histgen_at){ between(r, 5, 15), 0.30 };
		break;
	case F_MISSING:
		add_step(g, between(r, 20, 40), pick(r, sizes + 1, 4));
		for (k = 0; k < 6; k++)
			g->missing[g->nmissing++] = between(r, 1, 58);
		g->failed[g->nfailed++] = between(r, 1, 58);
		g->failed[g->nfailed++] = between(r, 1, 58);
		break;
	case F_LATE:
		add_step(g, g->nights - between(r, 2, 4), pick(r, sizes + 2, 3) * (i % 2 ? -1 : 1));
		break;
	case F_FIXED: {
		double s = pick(r, big, 5);
		size_t at = between(r, 15, 35);

		add_step(g, at, s);
		add_step(g, at + between(r, 5, 15), 1 / (1 + s) - 1);
		break;
	}
	case F_DRIFT:
		g->drift = pick(r, (const double[]){ 0.05, 0.10, 0.15 }, 3) / (double)g->nights;
		break;
	case F_LONG: {
		size_t at = between(r, 40, 90), n = between(r, 4, 5);

		g->nights = 500;
		for (k = 0; k < n && at < 480; k++) {
			double s = pick(r, big, 5) * (gsl_rng_uniform(r) < 0.5 ? -1 : 1);

			add_step(g, at, s);
			if (k == 0 && s > 0) {
				add_step(g, at + 10, 1 / (1 + s) - 1);
				k++;
			}
			at += between(r, 60, 110);
		}
		break;
	}
	case F_NIGHTCV:
		g->night_cv = 0.02;
		add_step(g, between(r, 20, 40), (i % 4 < 2 ? 0.05 : 0.10) * (i % 2 ? -1 : 1));
		break;
	}
}

static size_t family_size(int f)
{
	static const size_t n[NFAM] = { 10, 20, 5, 5, 5, 10, 5, 7, 10 };

	return n[f];
}

/* The original night of a series night (histgen: run id = night + 1). */
static long original(const struct history_series *s, size_t i)
{
	return (long)s->nights[i].run_id - 1;
}

static void score(const struct histgen *g, const struct history_series *s,
		  const struct history_result *r, struct tally *t)
{
	bool used[HISTGEN_MAX] = { false };
	size_t i, j, fa = 0, hits = 0;

	for (i = 0; i < r->ncp; i++) {
		long at = original(s, r->cp[i].night);
		bool hit = false;

		if (r->cp[i].kind == HCP_REJECTED)
			continue;
		for (j = 0; j < g->nsteps && !hit; j++)
			if (!used[j] && labs(at - (long)g->steps[j].night) <= 1)
				hit = used[j] = true;
		hits += hit;
		fa += !hit;
	}
	t->hits += hits;
	t->false_alarms += fa;
	t->misses += g->nsteps - hits;
	t->histories++;
	t->alarmed += hits + fa > 0;
}

static double f1(const struct tally *t)
{
	double d = 2.0 * (double)t->hits + (double)t->false_alarms + (double)t->misses;

	return d > 0 ? 2.0 * (double)t->hits / d : NAN;
}

static void print(const char *name, const struct tally *t)
{
	printf("  %-8s %4zu histories  hits %4zu  misses %4zu  false alarms %4zu  F1 %.2f  (alarmed: %zu)\n",
	       name, t->histories, t->hits, t->misses, t->false_alarms, f1(t),
	       t->alarmed);
}

static void one_seed(uint64_t seed, struct tally *fam, struct tally *all)
{
	struct history_check_opts o;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct tally here = { 0 };
	int f;
	size_t i;

	gsl_rng_set(r, (unsigned long)seed);
	history_check_opts_init(&o);
	for (f = 0; f < NFAM; f++)
		for (i = 0; i < family_size(f); i++) {
			struct history_series s;
			struct history_result *res = xmalloc(sizeof(*res));
			struct histgen g;

			make(f, i, r, seed * 1000 + (uint64_t)f * 100 + i, &g);
			histgen_series(&g, &s);
			history_check_series(&s, &o, res);
			score(&g, &s, res, &fam[f]);
			if (f != F_AA && f != F_DRIFT) {
				struct tally one = { 0 };

				score(&g, &s, res, &one);
				here.hits += one.hits;
				here.misses += one.misses;
				here.false_alarms += one.false_alarms;
				here.histories++;
			} else {
				struct tally one = { 0 };

				score(&g, &s, res, &one);
				here.false_alarms += one.false_alarms;
				here.histories++;
			}
			if (verbose)
				printf("seed %llu %s %zu: %zu steps, %zu changes found\n",
				       (unsigned long long)seed, fam_names[f], i,
				       g.nsteps, res->ncp);
			for (size_t c = 0; verbose && c < res->ncp; c++) {
				char *t = history_cp_text(res, &res->cp[c]);

				printf("    night %ld: %s\n", original(&s, res->cp[c].night), t);
				free(t);
			}
			history_results_free(res, 1);
			history_series_free(&s);
		}
	printf("seed %llu: F1 %.2f (hits %zu, misses %zu, false alarms %zu)\n",
	       (unsigned long long)seed, f1(&here), here.hits, here.misses,
	       here.false_alarms);
	all->hits += here.hits;
	all->misses += here.misses;
	all->false_alarms += here.false_alarms;
	all->histories += here.histories;
	gsl_rng_free(r);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seeds", 1, NULL, 'n' }, { "first", 1, NULL, 'f' },
		{ "verbose", 0, NULL, 'v' }, { NULL, 0, NULL, 0 },
	};
	struct tally fam[NFAM] = { { 0 } }, all = { 0 };
	long seeds = 3, first = 1;
	int o, f;
	uint64_t s;

	while ((o = getopt_long(argc, argv, "v", opts, NULL)) != -1) {
		switch (o) {
		case 'n': seeds = strtol(optarg, NULL, 10); break;
		case 'f': first = strtol(optarg, NULL, 10); break;
		case 'v': verbose = true; break;
		default:
			fputs("usage: histeval [--seeds N] [--first S] [--verbose]\n", stderr);
			return TB_EXIT_ERROR;
		}
	}
	if (seeds < 1 || first < 0) {
		fputs("histeval: --seeds >= 1, --first >= 0\n", stderr);
		return TB_EXIT_ERROR;
	}
	for (s = (uint64_t)first; s < (uint64_t)(first + seeds); s++)
		one_seed(s, fam, &all);
	printf("per family (all seeds):\n");
	for (f = 0; f < NFAM; f++)
		print(fam_names[f], &fam[f]);
	printf("all: F1 %.2f (hits %zu, misses %zu, false alarms %zu); A/A histories with an alarm: %zu of %zu\n",
	       f1(&all), all.hits, all.misses, all.false_alarms,
	       fam[F_AA].alarmed, fam[F_AA].histories);
	return 0;
}
