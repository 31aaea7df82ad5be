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

/* The untested commit of (i, j) nearest the middle; SIZE_MAX when none. */
static size_t middle_untested(const enum bisect_class *c, size_t i, size_t j)
{
	size_t best = SIZE_MAX, k, dist, bd = SIZE_MAX;

	for (k = i + 1; k < j; k++) {
		if (c[k] != BC_UNTESTED)
			continue;
		/* 2|k - (i+j)/2|, in integers */
		dist = 2 * k > i + j ? 2 * k - (i + j) : (i + j) - 2 * k;
		if (dist < bd) {
			bd = dist;
			best = k;
		}
	}
	return best;
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
