// SPDX-License-Identifier: GPL-2.0-only
#include "verdict.h"

#include <math.h>

#include "util/util.h"

static const char *const verdict_names[] = {
	[VERDICT_TOO_FEW] = "too few",
	[VERDICT_INCONCLUSIVE] = "inconclusive",
	[VERDICT_NO_CHANGE] = "no change",
	[VERDICT_IMPROVEMENT] = "improvement",
	[VERDICT_REGRESSION] = "regression",
	[VERDICT_CHANGED] = "changed",
	[VERDICT_LEVEL] = "level",
};

const char *verdict_name(enum verdict v)
{
	if ((size_t)v < ARRAY_SIZE(verdict_names))
		return verdict_names[v];
	return "inconclusive";
}

int verdict_is_change(enum verdict v)
{
	return v == VERDICT_IMPROVEMENT || v == VERDICT_REGRESSION ||
	       v == VERDICT_CHANGED;
}

static enum verdict directed(enum better better, int up)
{
	if (better == BETTER_NEUTRAL)
		return VERDICT_CHANGED;
	if ((better == BETTER_LOWER) == !!up)
		return VERDICT_REGRESSION;
	return VERDICT_IMPROVEMENT;
}

enum verdict verdict_decide(const struct verdict_in *in)
{
	const struct change *ch = &in->ch;
	int significant = in->p < in->alpha, dir;

	if (in->na < VERDICT_MIN_N || in->nb < VERDICT_MIN_N)
		return VERDICT_TOO_FEW;
	if (ch->method == CHANGE_NONE) {
		if (significant && in->diff != 0)
			return directed(in->better, in->diff > 0);
		if (in->diff == 0 && in->p >= 1)
			return VERDICT_NO_CHANGE;
		return VERDICT_INCONCLUSIVE;
	}
	dir = change_beyond(ch, in->threshold);
	if (significant && dir)
		return directed(in->better, dir > 0);
	if (change_within(ch, in->threshold))
		return VERDICT_NO_CHANGE;
	return VERDICT_INCONCLUSIVE;
}
