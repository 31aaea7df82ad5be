/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims_factor - how many times better one case is than another on a
 * metric, with its 95% interval, and the factor said in words.
 *
 * The factor is in the claim's direction: for a lower-is-better metric
 * base/new, else new/base (the ratio of geometric means, log-scale Welch
 * interval: hypothesis.h change_ci()), so > 1 is the way the claim says.
 * In words it is always a factor >= 1 and the direction that makes it
 * so: 0.85x [0.74, 0.98] "faster" is "1.18x [1.02, 1.35] slower" - a
 * "0.04x faster" would be 25x slower said upside down.
 */
#ifndef THPBENCH_CLAIMS_FACTOR_H
#define THPBENCH_CLAIMS_FACTOR_H

#include <stdbool.h>
#include <stddef.h>

struct claim_factor {
	double f, lo, hi;
};

/* -1 when undefined (a mean of 0 on the divided side). */
int claim_factor(const double *base, size_t nbase, const double *new,
		 size_t nnew, bool higher_better, struct claim_factor *out);

/* "1.18x [1.02, 1.35] slower": sense is the claimed direction's word
 * ("faster", "fewer", "less", ...), turned round where f < 1. */
const char *claim_factor_words(const struct claim_factor *cf, const char *sense,
			       char *buf, size_t len);

/* "slower" for "faster", "more" for "fewer" or "less", ...; for a word
 * it does not know, "the other way than SENSE" (into buf). */
const char *sense_opposite(const char *sense, char *buf, size_t len);

#endif
