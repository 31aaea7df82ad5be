// SPDX-License-Identifier: GPL-2.0-only
#include "history_digest.h"
#include "history_gate.h"

#include <stdlib.h>

#include "util/util.h"

const struct history_cp *history_latest_change(const struct history_result *r)
{
	size_t i;

	for (i = r->ncp; i-- > 0;)
		if (r->cp[i].kind != HCP_REJECTED)
			return &r->cp[i];
	return NULL;
}

/* Nights with values from cp's first night to the newest. */
static size_t nights_since(const struct history_result *r,
			   const struct history_cp *cp)
{
	size_t i, k = 0;

	for (i = cp->night; i < r->s->n_nights; i++)
		k += r->s->nights[i].n > 0;
	return k;
}

static enum history_attention attention(const struct history_result *r,
					const struct history_cp *cp, bool fails,
					size_t recent)
{
	if (fails || history_open_regressions(r))
		return HA_OPEN;
	if (cp && nights_since(r, cp) <= recent)
		return HA_RECENT;
	return HA_QUIET;
}

/* Open: failing first. Recent: by kind, then the newest first. */
static int cmp(const void *pa, const void *pb)
{
	const struct history_digest_item *a = pa, *b = pb;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	if (a->a == HA_OPEN && a->fails != b->fails)
		return a->fails ? -1 : 1;
	if (a->a == HA_RECENT && a->cp->kind != b->cp->kind)
		return a->cp->kind < b->cp->kind ? -1 : 1;
	if (a->a == HA_RECENT && a->cp->night != b->cp->night)
		return a->cp->night > b->cp->night ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

struct history_digest_item *history_digest(const struct history_result *r,
					   size_t n, enum history_fail_on f,
					   size_t recent, size_t counts[3])
{
	struct history_digest_item *v = xcalloc(n ? n : 1, sizeof(*v));
	size_t i;

	counts[HA_OPEN] = counts[HA_RECENT] = counts[HA_QUIET] = 0;
	for (i = 0; i < n; i++) {
		v[i].idx = i;
		v[i].cp = history_latest_change(&r[i]);
		v[i].fails = history_result_fails(&r[i], f);
		v[i].a = attention(&r[i], v[i].cp, v[i].fails, recent);
		counts[v[i].a]++;
	}
	qsort(v, n, sizeof(*v), cmp);
	return v;
}
