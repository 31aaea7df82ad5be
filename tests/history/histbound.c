// SPDX-License-Identifier: GPL-2.0-only
/*
 * histbound - how soon can any gate catch a step through night-to-night
 * noise without failing quiet histories? Issue 18's replay figure (+5%
 * at 3% CV after 30 quiet nights, 2% night-to-night CV, caught within 3
 * nights, A/A over 60 nights at most 5 in 100) set against rules that
 * know more than a detector can:
 *
 *   bound     no rule can do better on average over where a step starts
 *             (Neyman-Pearson: the first failure within a 4-night window
 *             is a test of "no change" against "this step on these 4
 *             nights" at some level; disjoint windows share the 5%, so
 *             with K windows where a step may start the average catch is
 *             at most Phi(2 delta / sigma - z(5% / K)), K = 13: a step
 *             starts on night 8 to 56)
 *   oracle    knows the level and the night's spread: fails when the mean
 *             of the last m nights (any m of 1-4, or 4 only) is h
 *             standard errors above the level
 *   estimate  the 4-night rule, the level and spread estimated from the
 *             (at most 30) nights before the 4, tested from 15 on
 *   thpbench  the gate itself (history check defaults, --fail-on open),
 *             nights gated one at a time (histreplay.h)
 *
 * Each rule's h is the smallest whose A/A rate is at most the target (5%,
 * and thpbench's own measured rate, to compare at equal false alarms).
 * Histories come from histgen (the unit tests' generator; 5 or 10
 * repetitions: histgen's default and the nightly suite's), fixed seeds.
 *
 *   histbound [--reps R]... [--sims N] [--seeds N] [--aa-seeds N]
 *
 * Not a test: a measure (tests/bench/history_bound.sh prints it).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>

#include "histgen.h"
#include "histreplay.h"
#include "util/util.h"

#define AA_NIGHTS 60
#define STEP_AT 30
#define WITHIN 3
#define STEP_NIGHTS (STEP_AT + WITHIN + 1)
#define STEP_SIZE 0.05
#define NIGHT_CV 0.02
#define TARGET_AA 0.05
#define WINDOWS 13
#define BASE_MAX 30
#define BASE_MIN 15

enum rule { R_ANY4, R_LAST4, R_ESTIMATE, NRULES };

static const char *const rule_names[NRULES] = {
	"oracle: knows level and spread, any of the last 1-4 nights",
	"oracle: knows level and spread, the last 4 nights only",
	"estimate: level and spread from <= 30 nights before, last 4",
};

/* Per history and rule, the largest statistic over the nights that matter. */
struct maxima {
	double *aa;		/* A/A: over all nights */
	double *before, *after;	/* step: nights before STEP_AT, nights STEP_AT.. */
};

struct sim {
	size_t reps, n;
	double level, sigma;	/* of a quiet night's value (log of its mean) */
	double *aa;		/* the A/A histories' night values, n x AA_NIGHTS */
	struct maxima m[NRULES];
};

static void night_values(const struct histgen *g, double *y)
{
	struct history_series s;
	size_t i;

	histgen_series(g, &s);
	for (i = 0; i < s.n_nights; i++)
		y[i] = log(history_night_mean(&s.nights[i]));
	history_series_free(&s);
}

static void gen(size_t reps, uint64_t seed, size_t nights, bool step, double *y)
{
	struct histgen g;

	histgen_init(&g);
	g.seed = seed;
	g.nights = nights;
	g.reps = reps;
	g.night_cv = NIGHT_CV;
	if (step)
		g.steps[g.nsteps++] = (struct histgen_at){ STEP_AT, STEP_SIZE };
	night_values(&g, y);
}

/* The A/A histories, and the level and spread of a quiet night in them. */
static void calibrate(struct sim *sm)
{
	double s = 0, q = 0, n = 0, *y;
	size_t i, t;

	sm->aa = xmalloc(sm->n * AA_NIGHTS * sizeof(*sm->aa));
	for (i = 0; i < sm->n; i++) {
		y = sm->aa + i * AA_NIGHTS;
		gen(sm->reps, 100000 + i, AA_NIGHTS, false, y);
		for (t = 0; t < AA_NIGHTS; t++) {
			s += y[t];
			q += y[t] * y[t];
			n++;
		}
	}
	sm->level = s / n;
	sm->sigma = sqrt((q - s * s / n) / (n - 1));
}

static double mean_of(const double *y, size_t from, size_t to)
{
	double s = 0;
	size_t i;

	for (i = from; i < to; i++)
		s += y[i];
	return s / (double)(to - from);
}

/* Rule r's statistic on night t (-inf where it does not test). */
static double statistic(const struct sim *sm, enum rule r, const double *y,
			size_t t)
{
	double best = -INFINITY, mb, ss = 0, sb;
	size_t m, b0, tau, i;

	switch (r) {
	case R_ANY4:
		for (m = 1; m <= 4 && m <= t + 1; m++)
			best = fmax(best, (mean_of(y, t + 1 - m, t + 1) - sm->level) /
					  (sm->sigma / sqrt((double)m)));
		return best;
	case R_LAST4:
		if (t < 3)
			return best;
		return (mean_of(y, t - 3, t + 1) - sm->level) / (sm->sigma / 2);
	default:
		if (t < 3 + BASE_MIN)
			return best;
		tau = t - 3;
		b0 = tau > BASE_MAX ? tau - BASE_MAX : 0;
		mb = mean_of(y, b0, tau);
		for (i = b0; i < tau; i++)
			ss += (y[i] - mb) * (y[i] - mb);
		sb = sqrt(ss / (double)(tau - b0 - 1));
		return (mean_of(y, tau, t + 1) - mb) /
		       (sb * sqrt(0.25 + 1 / (double)(tau - b0)));
	}
}

static double max_over(const struct sim *sm, enum rule r, const double *y,
		       size_t from, size_t to)
{
	double best = -INFINITY;
	size_t t;

	for (t = from; t < to; t++)
		best = fmax(best, statistic(sm, r, y, t));
	return best;
}

static void simulate(struct sim *sm)
{
	double y[AA_NIGHTS];
	size_t i;
	int r;

	for (r = 0; r < NRULES; r++) {
		sm->m[r].aa = xmalloc(sm->n * sizeof(double));
		sm->m[r].before = xmalloc(sm->n * sizeof(double));
		sm->m[r].after = xmalloc(sm->n * sizeof(double));
	}
	for (i = 0; i < sm->n; i++) {
		for (r = 0; r < NRULES; r++)
			sm->m[r].aa[i] = max_over(sm, r, sm->aa + i * AA_NIGHTS,
						  0, AA_NIGHTS);
		gen(sm->reps, 200000 + i, STEP_NIGHTS, true, y);
		for (r = 0; r < NRULES; r++) {
			sm->m[r].before[i] = max_over(sm, r, y, 0, STEP_AT);
			sm->m[r].after[i] = max_over(sm, r, y, STEP_AT, STEP_NIGHTS);
		}
	}
}

/*
 * The share of step histories caught in time by rule r with the smallest
 * h whose A/A rate is at most aa; that rate in *aa_got.
 */
static double caught(const struct sim *sm, enum rule r, double aa,
		     double *aa_got)
{
	double *v = xmalloc(sm->n * sizeof(double)), h;
	size_t allowed = (size_t)floor(aa * (double)sm->n), i, hits = 0, k;

	memcpy(v, sm->m[r].aa, sm->n * sizeof(double));
	gsl_sort(v, 1, sm->n);
	h = v[sm->n - 1 - allowed];
	for (k = 0, i = 0; i < sm->n; i++)
		k += sm->m[r].aa[i] > h;
	*aa_got = (double)k / (double)sm->n;
	for (i = 0; i < sm->n; i++)
		hits += sm->m[r].before[i] <= h && sm->m[r].after[i] > h;
	free(v);
	return (double)hits / (double)sm->n;
}

/* The gate itself on histories of the same shape (other seeds). */
static void replay_thpbench(size_t reps, size_t seeds, size_t aa_seeds,
			    struct histreplay_tally *step,
			    struct histreplay_tally *aa)
{
	struct histgen g;

	histgen_init(&g);
	g.reps = reps;
	g.night_cv = NIGHT_CV;
	g.nights = AA_NIGHTS;
	histreplay_many(&g, 400000, aa_seeds, 0, aa);
	g.nights = STEP_AT + 7;
	g.steps[g.nsteps++] = (struct histgen_at){ STEP_AT, STEP_SIZE };
	histreplay_many(&g, 300000, seeds, WITHIN, step);
}

static double share(size_t k, size_t n)
{
	return 100 * (double)k / (double)n;
}

static void report(size_t reps, size_t sims, size_t seeds, size_t aa_seeds)
{
	struct sim sm = { .reps = reps, .n = sims };
	struct histreplay_tally st, aa;
	double delta = log1p(STEP_SIZE), got, got2, c5, ctb, tb_aa;
	int r;

	calibrate(&sm);
	simulate(&sm);
	replay_thpbench(reps, seeds, aa_seeds, &st, &aa);
	tb_aa = (double)aa.failed / (double)aa.histories;
	printf("%4zu  %5.2f%%  %-62s %6.1f%%  %5.1f%%\n", reps, 100 * sm.sigma,
	       "bound: any rule, on average over where a step starts",
	       100 * gsl_cdf_ugaussian_P(2 * delta / sm.sigma -
					 gsl_cdf_ugaussian_Qinv(TARGET_AA / WINDOWS)),
	       100 * TARGET_AA);
	for (r = 0; r < NRULES; r++) {
		c5 = caught(&sm, r, TARGET_AA, &got);
		ctb = caught(&sm, r, tb_aa, &got2);
		printf("%4zu  %6s  %-62s %6.1f%%  %5.1f%%   at thpbench's A/A: %5.1f%% (%.1f%%)\n",
		       reps, "", rule_names[r], 100 * c5, 100 * got, 100 * ctb,
		       100 * got2);
	}
	printf("%4zu  %6s  %-62s %6.1f%%  %5.1f%%   within 6: %.1f%%, before the step: %.1f%%\n",
	       reps, "", "thpbench: history check defaults, replayed",
	       share(st.caught, st.histories), 100 * tb_aa,
	       share(st.by6, st.histories), share(st.early, st.histories));
	free(sm.aa);
	for (r = 0; r < NRULES; r++) {
		free(sm.m[r].aa);
		free(sm.m[r].before);
		free(sm.m[r].after);
	}
}

static int usage(void)
{
	fputs("usage: histbound [--reps R]... [--sims N] [--seeds N] [--aa-seeds N]\n", stderr);
	return TB_EXIT_ERROR;
}

static bool count_arg(const char *s, size_t lo, size_t hi, size_t *v)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);

	if (*s < '0' || *s > '9' || *end || n < lo || n > hi)
		return false;
	*v = n;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reps", 1, NULL, 'r' }, { "sims", 1, NULL, 'n' },
		{ "seeds", 1, NULL, 's' }, { "aa-seeds", 1, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	size_t reps[8], nreps = 0, sims = 20000, seeds = 400, aa_seeds = 1000, i;
	int o;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		bool ok = false;

		switch (o) {
		case 'r':
			ok = nreps < ARRAY_SIZE(reps) && count_arg(optarg, 2, 1000, &reps[nreps]);
			nreps += ok;
			break;
		case 'n': ok = count_arg(optarg, 100, 10000000, &sims); break;
		case 's': ok = count_arg(optarg, 1, 1000000, &seeds); break;
		case 'a': ok = count_arg(optarg, 1, 1000000, &aa_seeds); break;
		}
		if (!ok)
			return usage();
	}
	if (optind != argc)
		return usage();
	if (!nreps) {
		reps[nreps++] = 5;
		reps[nreps++] = 10;
	}
	printf("+%.0f%% on night %d after %d quiet nights, 3%% CV within a night, %.0f%% night to night;\n"
	       "caught: the gate first fails within %d nights of the step (nights %d-%d), not before;\n"
	       "A/A: %d quiet nights, the gate fails on some night. %zu simulated histories a rule,\n"
	       "thpbench replayed on %zu step and %zu A/A histories.\n",
	       100 * STEP_SIZE, STEP_AT, STEP_AT, 100 * NIGHT_CV, WITHIN, STEP_AT,
	       STEP_AT + WITHIN, AA_NIGHTS, sims, seeds, aa_seeds);
	printf("reps  night   %-62s caught   A/A\n", "rule");
	for (i = 0; i < nreps; i++)
		report(reps[i], sims, seeds, aa_seeds);
	return 0;
}
