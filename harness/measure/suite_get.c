// SPDX-License-Identifier: GPL-2.0-only
/* suite_get - see suite_get.h. */
#include "suite_get.h"

#include <string.h>

#include "util/util.h"

static void strv_out(FILE *f, char *const *v, size_t n, const char *sep)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? sep : "", v[i]);
	fputc('\n', f);
}

int suite_get(const struct suite *s, const char *key, FILE *f, char *err,
	      size_t errlen)
{
	char num[64];
	size_t i;

	if (!strcmp(key, "name"))
		fprintf(f, "%s\n", s->name);
	else if (!strcmp(key, "description"))
		fprintf(f, "%s\n", s->description ? s->description : "");
	else if (!strcmp(key, "repetitions"))
		fprintf(f, "%d\n", s->repetitions);
	else if (!strcmp(key, "warmup"))
		fprintf(f, "%d\n", s->warmup);
	else if (!strcmp(key, "timeout"))
		fprintf(f, "%s\n", fmt_shortest(s->timeout_s, num, sizeof(num)));
	else if (!strcmp(key, "events"))
		fprintf(f, "%s\n", s->events);
	else if (!strcmp(key, "thp"))
		strv_out(f, s->thp, s->nthp, ",");
	else if (!strcmp(key, "order"))
		fprintf(f, "%s\n", s->order);
	else if (!strcmp(key, "seed") && s->seed_set)
		fprintf(f, "%lu\n", s->seed);
	else if (!strcmp(key, "cases"))
		for (i = 0; i < s->ncases; i++)
			fprintf(f, "%s\n", s->cases[i].name);
	else {
		snprintf(err, errlen, "%s: %s", s->path,
			 !strcmp(key, "seed") ? "the suite sets no seed" :
			 "no such key; give name, description, repetitions, warmup, timeout, events, thp, order, seed or cases");
		return -1;
	}
	return 0;
}
