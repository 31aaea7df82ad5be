// SPDX-License-Identifier: GPL-2.0-only
#include "claims_factor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/hypothesis.h"
#include "util/util.h"

static const char *const opposites[][2] = {
	{ "faster", "slower" }, { "fewer", "more" }, { "less", "more" },
	{ "higher", "lower" }, { "smaller", "larger" }, { "better", "worse" },
	{ "cheaper", "dearer" }, { "shorter", "longer" },
};

int claim_factor(const double *base, size_t nbase, const double *new,
		 size_t nnew, bool higher_better, struct claim_factor *out)
{
	struct change ch;

	/* change_ci gives second/first - 1: put the worse-expected side first. */
	if (higher_better ? change_ci(base, nbase, new, nnew, 0.95, &ch) :
			    change_ci(new, nnew, base, nbase, 0.95, &ch))
		return -1;
	out->f = ch.rel + 1;
	out->lo = ch.lo + 1;
	out->hi = ch.hi + 1;
	return isfinite(out->f) ? 0 : -1;
}

const char *sense_opposite(const char *sense, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(opposites); i++) {
		if (!strcmp(sense, opposites[i][0]))
			return opposites[i][1];
		if (!strcmp(sense, opposites[i][1]))
			return opposites[i][0];
	}
	snprintf(buf, len, "the other way than %s", sense);
	return buf;
}

/* 1/x for the turned-round interval; a bound at or below 0 has none. */
static double inverse(double x)
{
	return x > 0 ? 1 / x : INFINITY;
}

static void bound(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%s", isnan(v) ? "?" : "inf");
}

const char *claim_factor_words(const struct claim_factor *cf, const char *sense,
			       char *buf, size_t len)
{
	char other[64], lo[32], hi[32];
	bool turn = cf->f < 1;

	bound(lo, sizeof(lo), turn ? inverse(cf->hi) : cf->lo);
	bound(hi, sizeof(hi), turn ? inverse(cf->lo) : cf->hi);
	snprintf(buf, len, "%.2fx [%s, %s] %s", turn ? inverse(cf->f) : cf->f,
		 lo, hi, turn ? sense_opposite(sense, other, sizeof(other)) : sense);
	return buf;
}
