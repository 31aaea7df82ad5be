/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * histgen - synthetic nightly histories with known answers, for the
 * history tests and the benchmark.
 *
 * A history has `nights` nights of `reps` repetitions each. Night i's
 * level is mean * prod(1 + size of every step at or before i) * (1 +
 * night_cv * N(0,1)) (night-to-night noise: boots, page cache, placement);
 * each repetition is level * (1 + cv * N(0,1)). On top of that:
 *   outliers    that night's values are multiplied by (1 + size)
 *   hosts       from that night on the host fingerprint is a new one
 *               (new microcode); a step at the same night is the effect
 *   missing     those nights were not run: absent from the series
 *   failed      those nights are present with no ok repetition
 *   cv_steps    from that night on the repetitions' cv is cv * (1 + size)
 *               (a variance-only change: the level does not move)
 *   partial     those nights have 2 repetitions only
 * The repetitions' noise has a shape (noise): normal, lognormal (level *
 * exp(cv * N(0,1) - cv^2/2): skewed, the same mean) or heavy (Student's t
 * with 3 degrees of freedom scaled to sd cv: rare far values). The night's
 * offset (night-to-night noise, shared by every repetition of the night,
 * histgen_night_offset()) is normal, or heavy with night_heavy. drift adds
 * drift * mean * (i - drift_from) to night i's level from drift_from on (a
 * slow trend, no step).
 * Kernel ids are 12-digit hex ids (git-like), one per night, unless
 * kernel_same is set (one kernel all along).
 * Deterministic given the seed (GSL MT19937).
 */
#ifndef THPBENCH_HISTGEN_H
#define THPBENCH_HISTGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <gsl/gsl_rng.h>

#include "history/history_series.h"

#define HISTGEN_MAX 64

struct histgen_at {
	size_t night;
	double size;		/* relative: 0.05 = +5% */
};

struct histgen {
	size_t nights, reps;
	double mean, cv, night_cv;
	struct histgen_at steps[HISTGEN_MAX], outliers[HISTGEN_MAX];
	size_t nsteps, noutliers;
	size_t hosts[HISTGEN_MAX], missing[HISTGEN_MAX], failed[HISTGEN_MAX];
	size_t nhosts, nmissing, nfailed;
	bool kernel_same;
	enum histgen_noise { HG_NORMAL, HG_LOGNORMAL, HG_HEAVY } noise;
	bool night_heavy;	/* the night's offset t(3)-shaped */
	double drift;		/* the level grows by drift * mean a night */
	size_t drift_from;	/* ... from this night on */
	struct histgen_at cv_steps[HISTGEN_MAX];
	size_t ncv_steps;
	size_t partial[HISTGEN_MAX], npartial;
	const char *host, *suite, *case_id, *metric, *better;
	uint64_t seed;
};

/* nights 30, reps 5, mean 1000, cv 0.03, night_cv 0, roi_usec lower. */
void histgen_init(struct histgen *g);

/* Fill s (history_series_free) with the history g describes. */
void histgen_series(const struct histgen *g, struct history_series *s);

/*
 * The night-noise model on its own (for simulations that pair runs in one
 * night): the factor every repetition of a night shares, and one
 * repetition of that night at level (its own noise, cv and shape of g).
 */
double histgen_night_offset(const struct histgen *g, gsl_rng *rng);
double histgen_rep(const struct histgen *g, gsl_rng *rng, double level,
		   double cv);

/* The kernel id of night i (also what the results files carry). */
void histgen_kernel_id(size_t night, char *buf, size_t len);
/* The start time of night i: 2023-01-01T02:00:00Z plus i days. */
void histgen_started(size_t night, char *buf, size_t len);
/* The fingerprint token of night i's host: "microcode 0x..." */
void histgen_microcode(const struct histgen *g, size_t night, char *buf,
		       size_t len);

#endif
