// SPDX-License-Identifier: GPL-2.0-only
#include "history_digest.h"
#include "history_gate.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

const struct history_cp *history_latest_change(const struct history_result *r)
{
	size_t i;

	for (i = r->ncp; i-- > 0;)
		if (r->cp[i].kind != HCP_REJECTED)
			return &r->cp[i];
	return NULL;
}

/* The latest open regression of r (history_gate.h), or NULL. */
static const struct history_cp *latest_open(const struct history_result *r)
{
	size_t i;

	for (i = r->ncp; i-- > 0;)
		if (history_cp_status(&r->cp[i]) == HCP_STATUS_OPEN)
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

/* a's change started after b's (ISO times compare as text); none is oldest. */
static int newer(const struct history_digest_item *a,
		 const struct history_digest_item *b)
{
	int c = strcmp(a->since ? a->since : "", b->since ? b->since : "");

	return c > 0 ? -1 : c < 0;
}

/* Open: failing first, then the newest. Recent: by kind, then the newest. */
static int cmp(const void *pa, const void *pb)
{
	const struct history_digest_item *a = pa, *b = pb;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	if (a->a == HA_OPEN && a->fails != b->fails)
		return a->fails ? -1 : 1;
	if (a->a == HA_RECENT && a->cp->kind != b->cp->kind)
		return a->cp->kind < b->cp->kind ? -1 : 1;
	if (a->a != HA_QUIET && newer(a, b))
		return newer(a, b);
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
		if (v[i].a == HA_OPEN && latest_open(&r[i]))
			v[i].cp = latest_open(&r[i]);
		if (v[i].cp)
			v[i].since = r[i].s->nights[v[i].cp->night].started;
		else if (r[i].watch.present)
			v[i].since = r[i].s->nights[r[i].watch.night].started;
		counts[v[i].a]++;
	}
	qsort(v, n, sizeof(*v), cmp);
	return v;
}
