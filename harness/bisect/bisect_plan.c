// SPDX-License-Identifier: GPL-2.0-only
/* bisect_plan - see bisect_plan.h. */
#include "bisect_plan.h"

#include <stdint.h>
#include <stdlib.h>

#include "util/util.h"

const char *bisect_class_name(enum bisect_class c)
{
	static const char *const n[] = { "untested", "measuring", "good", "bad",
					 "partial", "skip", "inconclusive" };

	return n[c];
}

double bisect_class_level(enum bisect_class c)
{
	switch (c) {
	case BC_GOOD:
		return 0;
	case BC_PARTIAL:
		return 0.5;
	case BC_BAD:
		return 1;
	default:
		return -1;
	}
}

const char *bisect_outcome_name(enum bisect_outcome_kind k)
{
	static const char *const n[] = { "found", "range", "spread",
					 "nonmonotone" };

	return n[k];
}

static bool decided(enum bisect_class c)
{
	return bisect_class_level(c) >= 0;
}

/* The next decided commit after i (n when none). */
static size_t next_decided(const enum bisect_class *c, size_t n, size_t i)
{
	for (i++; i < n && !decided(c[i]); i++)
		;
	return i;
}

/*
 * The untested commit of (i, j) nearest the point t/parts of the way
 * from i to j (ties: the earlier); SIZE_MAX when none. In integers, all
 * positions times parts: the middle (t 1, parts 2) compares 2k with i+j.
 */
static size_t nearest_untested(const enum bisect_class *c, size_t i, size_t j,
			       size_t t, size_t parts)
{
	size_t best = SIZE_MAX, k, dist, bd = SIZE_MAX, target = i * parts + t * (j - i);

	for (k = i + 1; k < j; k++) {
		if (c[k] != BC_UNTESTED)
			continue;
		dist = k * parts > target ? k * parts - target : target - k * parts;
		if (dist < bd) {
			bd = dist;
			best = k;
		}
	}
	return best;
}

static size_t middle_untested(const enum bisect_class *c, size_t i, size_t j)
{
	return nearest_untested(c, i, j, 1, 2);
}

static size_t untested_in(const enum bisect_class *c, size_t i, size_t j)
{
	size_t k, u = 0;

	for (k = i + 1; k < j; k++)
		u += c[k] == BC_UNTESTED;
	return u;
}

/*
 * The next jump at or after decided commit *i: its ends in *i and *j
 * (consecutive decided commits of different levels). False when none.
 * Start with *i = 0; continue with *i = *j.
 */
static bool next_jump(const enum bisect_class *c, size_t n, size_t *i,
		      size_t *j)
{
	for (; *i < n; *i = *j) {
		*j = next_decided(c, n, *i);
		if (*j >= n)
			return false;
		if (bisect_class_level(c[*i]) != bisect_class_level(c[*j]))
			return true;
	}
	return false;
}

size_t bisect_plan_next(const enum bisect_class *c, size_t n)
{
	size_t i, j, k;

	for (i = 0; i < n; i++)
		if (c[i] == BC_MEASURING)
			return i;
	for (i = 0; next_jump(c, n, &i, &j); i = j) {
		k = middle_untested(c, i, j);
		if (k != SIZE_MAX)
			return k;
	}
	return SIZE_MAX;
}

size_t bisect_plan_next_n(const enum bisect_class *c, size_t n, size_t k, size_t *out)
{
	enum bisect_class *cc;
	size_t i, j, t, q, x, got = 0;

	if (k <= 1) {
		x = bisect_plan_next(c, n);
		if (x == SIZE_MAX || !k)
			return 0;
		out[0] = x;
		return 1;
	}
	for (i = 0; i < n && got < k; i++)
		if (c[i] == BC_MEASURING)
			out[got++] = i;
	cc = xcalloc(n, sizeof(*cc));
	for (i = 0; i < n; i++)
		cc[i] = c[i];
	for (i = 0; got < k && next_jump(c, n, &i, &j); i = j) {
		q = untested_in(c, i, j);
		if (q > k - got)
			q = k - got;
		/* q commits splitting the jump into q + 1 parts: whatever they
		 * are, the next jump is about 1/(q+1) of this one. */
		for (t = 1; t <= q; t++) {
			x = nearest_untested(cc, i, j, t, q + 1);
			if (x == SIZE_MAX)
				break;
			cc[x] = BC_MEASURING;
			out[got++] = x;
		}
	}
	free(cc);
	return got;
}

size_t bisect_plan_rounds(size_t n, size_t k, size_t first_bad)
{
	enum bisect_class *c = xcalloc(n, sizeof(*c));
	size_t *pick = xcalloc(k ? k : 1, sizeof(*pick)), rounds = 0, got, x;

	c[0] = BC_GOOD;
	c[n - 1] = BC_BAD;
	while ((got = bisect_plan_next_n(c, n, k, pick)) > 0) {
		rounds++;
		for (x = 0; x < got; x++)
			c[pick[x]] = pick[x] >= first_bad ? BC_BAD : BC_GOOD;
	}
	free(pick);
	free(c);
	return rounds;
}

size_t bisect_plan_rounds_bound(size_t n, size_t k)
{
	size_t r = 0;
	double p = 1;

	while (p < (double)(n - 1)) {
		p *= (double)(k + 1);
		r++;
	}
	return r;
}

bool bisect_plan_rounds_stats(size_t n, size_t k, size_t *worst, double *mean)
{
	size_t m = n - 1, tries = m < BISECT_ROUNDS_ALL ? m : BISECT_ROUNDS_SAMPLE, t, r;
	double sum = 0;

	*worst = 0;
	for (t = 0; t < tries; t++) {
		/* every first bad commit 1..n-1, or tries of them evenly */
		size_t first = tries == m ? t + 1 : 1 + (t * (m - 1)) / (tries - 1);

		r = bisect_plan_rounds(n, k, first);
		sum += (double)r;
		if (r > *worst)
			*worst = r;
	}
	*mean = sum / (double)tries;
	return tries == m;
}

size_t bisect_plan_left(const enum bisect_class *c, size_t n)
{
	size_t i, j, k, left = 0;

	for (i = 0; next_jump(c, n, &i, &j); i = j)
		for (k = i + 1; k < j; k++)
			left += c[k] == BC_UNTESTED || c[k] == BC_MEASURING;
	return left;
}

void bisect_plan_outcome(const enum bisect_class *c, size_t n,
			 struct bisect_outcome *o)
{
	size_t i, j, cap = 0;
	bool back = false;

	o->jumps = NULL;
	o->njumps = 0;
	for (i = 0; next_jump(c, n, &i, &j); i = j) {
		struct bisect_jump *jp;

		o->jumps = xgrow(o->jumps, sizeof(*o->jumps), &cap, o->njumps);
		jp = &o->jumps[o->njumps++];
		jp->from = i;
		jp->to = j;
		jp->from_level = bisect_class_level(c[i]);
		jp->to_level = bisect_class_level(c[j]);
		jp->first = i + 1;
		jp->last = j;
		back |= jp->to_level < jp->from_level;
	}
	if (back)
		o->kind = BO_NONMONOTONE;
	else if (o->njumps > 1)
		o->kind = BO_SPREAD;
	else if (o->njumps == 1 && o->jumps[0].first == o->jumps[0].last)
		o->kind = BO_FOUND;
	else
		o->kind = BO_RANGE;
}

void bisect_outcome_free(struct bisect_outcome *o)
{
	free(o->jumps);
	o->jumps = NULL;
	o->njumps = 0;
}
