/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect_plan - where a performance bisection goes next, and what it
 * found, from what each commit was classified as so far.
 *
 * Commits 0..n-1 in history order (first parent): 0 is GOOD, n-1 BAD.
 * Levels: good 0, partial 1/2, bad 1. A "jump" lies between two
 * consecutive decided commits of different levels; commits between them
 * that were not decided (untested, skipped, inconclusive) are where it
 * may be. The search assumes the level never goes back (a single change,
 * or a change spread over several commits in one direction) and checks
 * what it can: a level that does go back is reported, not hidden.
 *
 * Next: a commit still being measured goes on; else the first jump
 * (lowest in history) with an untested commit inside gets the untested
 * one nearest its middle (ties: the earlier), skipping skipped and
 * inconclusive ones as git bisect skips; else the search is done.
 *
 * Outcome, when done:
 *   found        one jump, GOOD to BAD level, one suspect: the first bad
 *                commit
 *   range        one jump, but skipped or inconclusive commits in it:
 *                the first bad commit is one of the suspects
 *   spread       several jumps through a partial level: the change is
 *                spread over several commits; each jump is reported
 *   nonmonotone  a level goes back somewhere: the assumption behind the
 *                search does not hold; each jump is reported
 */
#ifndef THPBENCH_BISECT_PLAN_H
#define THPBENCH_BISECT_PLAN_H

#include <stdbool.h>
#include <stddef.h>

enum bisect_class {
	BC_UNTESTED,
	BC_MEASURING,		/* measured, not decided yet */
	BC_GOOD,
	BC_BAD,
	BC_PARTIAL,
	BC_SKIP,		/* did not build, boot or run */
	BC_INCONCLUSIVE,	/* undecided at the caps */
};

const char *bisect_class_name(enum bisect_class c);
/* 0, 0.5, 1 for good, partial, bad; -1 for the others. */
double bisect_class_level(enum bisect_class c);

/*
 * The commit to measure next, or SIZE_MAX when the search is done. c[0]
 * and c[n-1] must be decided (the references).
 */
size_t bisect_plan_next(const enum bisect_class *c, size_t n);

/*
 * Up to k commits to measure at once (k devices), in out[]; the count, 0
 * when the search is done. Commits still being measured come first; then
 * the first jump with untested commits gets the q = min(k - those,
 * untested) nearest the points splitting it into q + 1 equal parts, then
 * the next jump, and so on. With k = 1 it is bisect_plan_next(). Each
 * commit is still decided alone, by the same rule: only the choice of
 * where to look changes. A round of k splits a jump of L candidates
 * into k + 1, so a search takes about ceil(log_{k+1} L) rounds.
 */
size_t bisect_plan_next_n(const enum bisect_class *c, size_t n, size_t k, size_t *out);

/*
 * Rounds of bisect_plan_next_n() over n commits (0 GOOD, n-1 BAD, n >= 2)
 * with k at once when the first bad commit is first_bad (1..n-1) and
 * every commit decides at once (no skips, no more repetitions): the
 * round count a search of that length needs (thpbench bisect rounds).
 */
size_t bisect_plan_rounds(size_t n, size_t k, size_t first_bad);

/* ceil(log_{k+1}(n - 1)): the rounds a search over n commits needs. */
size_t bisect_plan_rounds_bound(size_t n, size_t k);

/*
 * Over every first bad commit (n - 1 < BISECT_ROUNDS_ALL), else over
 * BISECT_ROUNDS_SAMPLE of them spread evenly: the most rounds and the
 * mean. True when every placement was tried.
 */
#define BISECT_ROUNDS_ALL 8192
#define BISECT_ROUNDS_SAMPLE 257
bool bisect_plan_rounds_stats(size_t n, size_t k, size_t *worst, double *mean);

/* Commits still untested inside the jumps: an upper bound of the steps
 * left (about log2 of it when each step halves its jump). */
size_t bisect_plan_left(const enum bisect_class *c, size_t n);

enum bisect_outcome_kind {
	BO_FOUND,
	BO_RANGE,
	BO_SPREAD,
	BO_NONMONOTONE,
};
const char *bisect_outcome_name(enum bisect_outcome_kind k);

struct bisect_jump {
	size_t from, to;	/* last commit at the old level, first at the new */
	double from_level, to_level;
	size_t first, last;	/* suspects: commits first..last (= from+1..to) */
};

struct bisect_outcome {
	enum bisect_outcome_kind kind;
	struct bisect_jump *jumps;	/* malloc'ed */
	size_t njumps;
};

/* The outcome of a finished search (bisect_plan_next() said done). */
void bisect_plan_outcome(const enum bisect_class *c, size_t n,
			 struct bisect_outcome *o);
void bisect_outcome_free(struct bisect_outcome *o);

#endif
