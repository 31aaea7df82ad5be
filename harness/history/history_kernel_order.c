// SPDX-License-Identifier: GPL-2.0-only
#include "history_kernel_order.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

static bool lower_hex(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s) || isupper((unsigned char)*s))
			return false;
	return true;
}

/*
 * Split "TAG-N-gHEX" into TAG (length *tag_len) and N; a string that is
 * no describe output is its own TAG with N = 0.
 */
static void describe(const char *s, size_t *tag_len, long *n)
{
	const char *g = strrchr(s, '-'), *d;

	*tag_len = strlen(s);
	*n = 0;
	if (!g || g[1] != 'g' || strlen(g + 2) < 4 || !lower_hex(g + 2) || g == s)
		return;
	for (d = g - 1; d > s && *d != '-'; d--)
		;
	if (*d != '-' || !digits(d + 1, (size_t)(g - d - 1)))
		return;
	*tag_len = (size_t)(d - s);
	*n = strtol(d + 1, NULL, 10);
}

/* vX.Y[.Z][-rcN] into four numbers, rc = LONG_MAX for a release. */
static bool version(const char *s, long v[4])
{
	char *end;

	if (s[0] != 'v' || !isdigit((unsigned char)s[1]))
		return false;
	v[0] = strtol(s + 1, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return false;
	v[1] = strtol(end + 1, &end, 10);
	v[2] = 0;
	if (*end == '.' && isdigit((unsigned char)end[1]))
		v[2] = strtol(end + 1, &end, 10);
	v[3] = __LONG_MAX__;
	if (!strncmp(end, "-rc", 3) && isdigit((unsigned char)end[3]))
		v[3] = strtol(end + 3, &end, 10);
	return !*end;
}

static int cmp_long(long a, long b)
{
	return (a > b) - (a < b);
}

int history_kernel_order(const char *a, const char *b)
{
	size_t la, lb;
	long na, nb, va[4], vb[4];
	int i, c;

	if (!a || !b)
		return HISTORY_ORDER_UNKNOWN;
	if (!strcmp(a, b))
		return 0;
	describe(a, &la, &na);
	describe(b, &lb, &nb);
	if (la == lb && !strncmp(a, b, la) && (na || nb) && na != nb)
		return cmp_long(na, nb);
	if (!na && !nb && version(a, va) && version(b, vb)) {
		for (i = 0; i < 4; i++)
			if ((c = cmp_long(va[i], vb[i])))
				return c;
		return HISTORY_ORDER_UNKNOWN;
	}
	if (!strncmp(a, "next-", 5) && !strncmp(b, "next-", 5) &&
	    strlen(a) == 13 && strlen(b) == 13 && digits(a + 5, 8) &&
	    digits(b + 5, 8))
		return strcmp(a, b) < 0 ? -1 : 1;
	return HISTORY_ORDER_UNKNOWN;
}

static bool same_time(const struct history_night *x, const struct history_night *y)
{
	return x->started && y->started && !strcmp(x->started, y->started);
}

void history_series_order_nights(struct history_series *s)
{
	size_t i, j;

	/* Insertion sort within each run of equal start times: such runs are
	 * a handful of nights, and an unknown pair must stay put. */
	for (i = 1; i < s->n_nights; i++)
		for (j = i; j > 0 && same_time(&s->nights[j - 1], &s->nights[j]) &&
			    history_kernel_order(s->nights[j - 1].kernel_id,
						 s->nights[j].kernel_id) == 1; j--) {
			struct history_night t = s->nights[j];

			s->nights[j] = s->nights[j - 1];
			s->nights[j - 1] = t;
		}
}
