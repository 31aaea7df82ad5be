// SPDX-License-Identifier: GPL-2.0-only
#include "history_range.h"

#include <stdio.h>
#include <string.h>

/* "host/suite, host/suite" of the series in a, each once. */
static void places(const struct history_analysis *a, char *buf, size_t len)
{
	size_t i, j, used = 0;

	*buf = '\0';
	for (i = 0; i < a->n && used < len; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(a->v[j].host, a->v[i].host) &&
			    !strcmp(a->v[j].suite, a->v[i].suite))
				break;
		if (j < i)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s/%s",
					 used ? ", " : "", a->v[i].host,
					 a->v[i].suite);
	}
}

static bool one_place(const struct history_analysis *a)
{
	size_t i;

	for (i = 1; i < a->n; i++)
		if (strcmp(a->v[i].host, a->v[0].host) ||
		    strcmp(a->v[i].suite, a->v[0].suite))
			return false;
	return true;
}

int history_range_pick(const struct history_analysis *a,
		       const struct history_filter *f,
		       struct history_range *r, char *err, size_t errlen)
{
	const char *cs = f->case_id ? f->case_id : "", *m = f->metric ? f->metric : "";
	const struct history_result *res;
	const struct history_cp *cp = NULL;
	char where[512];
	size_t i;

	if (!a->n) {
		snprintf(err, errlen, "no series %s %s in the history (history list shows them)",
			 cs, m);
		return -1;
	}
	if (!one_place(a)) {
		places(a, where, sizeof(where));
		snprintf(err, errlen, "series %s %s is recorded on several hosts or suites: %s; name one host and suite",
			 cs, m, where);
		return -1;
	}
	res = &a->r[0];
	for (i = 0; i < res->ncp; i++)
		if (res->cp[i].kind == HCP_REGRESSION ||
		    res->cp[i].kind == HCP_IMPROVEMENT ||
		    res->cp[i].kind == HCP_CHANGED)
			cp = &res->cp[i];
	if (!cp) {
		snprintf(err, errlen, "no confirmed change point in %s %s to bisect", cs, m);
		return -1;
	}
	r->kind = hcp_kind_name(cp->kind);
	r->good = res->s->nights[cp->good].kernel_id;
	r->bad = res->s->nights[cp->night].kernel_id;
	if (!r->good || !*r->good || !r->bad || !*r->bad || !strcmp(r->good, r->bad)) {
		snprintf(err, errlen, "the change point names no two kernels (%s, %s)",
			 r->good ? r->good : "", r->bad ? r->bad : "");
		return -1;
	}
	return 0;
}
