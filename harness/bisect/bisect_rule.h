/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect_rule - the statistics of a performance bisection: is GOOD vs BAD
 * a change worth bisecting (bisect_refs), and is a commit at GOOD's
 * level, at BAD's, or in between, with what confidence (bisect_step).
 *
 * Samples come in batches: the repetitions of one boot. The model, and
 * the assumptions every error rate below rests on:
 *   value = level of the kernel + boot effect + noise
 * on the log scale when every value of GOOD, BAD and the commit is > 0
 * (timings: changes are ratios), else on the raw scale (counters with
 * zeros). Noise is normal with a spread per kernel (GOOD's and BAD's may
 * differ); boot effects are normal with one spread sigma_b for every
 * kernel, estimated from the references' boots (one-way random effects:
 * (MS between - MS within) / r0, pooled over GOOD and BAD, 0 when they
 * have one boot each). A commit's level is GOOD's or BAD's, or in
 * between when the change is spread over several commits.
 *
 * The position of a commit is theta = (m_x - m_good) / (m_bad - m_good):
 * 0 at GOOD's level, 1 at BAD's. Its variance, by the delta method, is
 *   [Var m_x + (1 - theta)^2 Var m_good + theta^2 Var m_bad] / d^2,
 * with Var m = sigma_b^2 sum(r_j^2) / n^2 + sigma_w^2 / n for n values in
 * boots of r_j; the commit's own noise spread is pooled with the larger
 * of the references' (their degrees of freedom as weights), so one or two
 * values borrow it and a noisier commit shows itself with more. The
 * interval is Student t with Welch-Satterthwaite degrees of freedom over
 * those terms.
 *
 * Step verdict, checked after every batch ("look") at the per-look
 * confidence 1 - (1 - confidence) / max_looks (Bonferroni over the looks
 * a commit may get, so a verdict is wrong with probability at most
 * 1 - confidence whatever the stopping):
 *   partial   the interval of theta lies inside (margin, 1 - margin): in
 *             between, a change spread over several commits
 *   good      else the interval lies below 0.5: closer to GOOD
 *   bad       else the interval lies above 0.5: closer to BAD
 *   more      none yet: next_reps more repetitions (one boot)
 *   inconclusive  none after max_looks boots or max_reps repetitions
 * A counter that is exact on both references (no spread) decides on its
 * first batch.
 *
 * References: the change d = m_bad - m_good with its interval at
 * ref_confidence (per look: divided over the ref_max_boots - ref_boots + 1
 * looks). change: the interval lies beyond +-threshold (log(1 + T) on the
 * log scale, T |m_good| on the raw one); no change: it lies within; more:
 * another boot each; not significant: neither after ref_max_boots boots.
 */
#ifndef THPBENCH_BISECT_RULE_H
#define THPBENCH_BISECT_RULE_H

#include <stdbool.h>
#include <stddef.h>

/* Values v[0..n) in batches of bn[0..nb) values, in order. */
struct bisect_sample {
	const double *v;
	size_t n;
	const size_t *bn;
	size_t nb;
};

struct bisect_opts {
	double confidence;	/* of a step verdict, 0.99 */
	size_t max_looks;	/* boots per commit at most, 4 */
	size_t max_reps;	/* repetitions per commit at most, 60 */
	size_t min_batch;	/* repetitions per boot at least, 2 */
	size_t max_batch;	/* repetitions per boot at most, 30 */
	double margin;		/* partial zone (margin, 1 - margin), 0.2 */
	double threshold;	/* GOOD vs BAD noise threshold, 0.02 */
	double ref_confidence;	/* of the reference change, 0.99 */
	size_t ref_boots;	/* boots per reference first, 2 */
	size_t ref_max_boots;	/* boots per reference at most, 4 */
};

void bisect_opts_init(struct bisect_opts *o);
/* NULL when o is usable, else what is wrong with it. */
const char *bisect_opts_check(const struct bisect_opts *o);

enum bisect_scale { BISECT_RAW, BISECT_LOG };
const char *bisect_scale_name(enum bisect_scale s);

/* The noise model fitted to the references. */
struct bisect_noise {
	enum bisect_scale scale;
	double sw_good, sw_bad;		/* within-boot sd, on the scale */
	double df_good, df_bad;
	double sb;			/* between-boot sd, on the scale */
	double df_b;			/* 0: not estimable (one boot each) */
};

enum bisect_refs_state {
	REFS_MORE,		/* another boot of each */
	REFS_CHANGE,		/* significant beyond the threshold: bisect */
	REFS_NO_CHANGE,		/* within the threshold: nothing to bisect */
	REFS_NOT_SIGNIFICANT,	/* undecided at the cap: nothing to bisect */
};
const char *bisect_refs_state_name(enum bisect_refs_state s);

struct bisect_refs {
	enum bisect_refs_state state;
	struct bisect_noise noise;
	double good, bad;		/* means in metric units (geometric on log) */
	double rel, rel_lo, rel_hi;	/* change bad vs good, relative; NAN when good is 0 */
	double diff, diff_lo, diff_hi;	/* bad - good, metric units (raw scale) */
	double level;			/* confidence of the interval */
	size_t first_reps;		/* planned first batch of a step */
	bool need_boots;		/* REFS_MORE although significant: a step
				 * could not decide within the caps yet */
	bool undecidable;		/* REFS_CHANGE, and still so at the cap */
};

/*
 * Decide on the references g (GOOD) and b (BAD). -1 when a side has no
 * value, fewer than 2 values in all, or a value that is not finite.
 */
int bisect_refs(const struct bisect_sample *g, const struct bisect_sample *b,
		const struct bisect_opts *o, struct bisect_refs *r);

enum bisect_verdict {
	BV_MORE,
	BV_GOOD,
	BV_BAD,
	BV_PARTIAL,
	BV_INCONCLUSIVE,
};
const char *bisect_verdict_name(enum bisect_verdict v);

struct bisect_step {
	enum bisect_verdict verdict;
	double theta, theta_lo, theta_hi;	/* position and its interval */
	double mean, mean_lo, mean_hi;		/* the commit's level, metric units */
	double level;				/* per-look confidence used */
	double df;
	size_t next_reps;			/* BV_MORE: the next boot's repetitions */
};

/*
 * Decide on commit x against references that bisect_refs() called a
 * change. -1 as bisect_refs(), or when x has no value.
 */
int bisect_step(const struct bisect_sample *g, const struct bisect_sample *b,
		const struct bisect_sample *x, const struct bisect_opts *o,
		struct bisect_step *s);

#endif
