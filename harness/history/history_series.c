// SPDX-License-Identifier: GPL-2.0-only
#include "history_series.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void night_free(struct history_night *n)
{
	free(n->started);
	free(n->kernel_id);
	free(n->kernel_release);
	free(n->host_fingerprint);
	free(n->values);
}

void history_series_free(struct history_series *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n_nights; i++)
		night_free(&s->nights[i]);
	free(s->nights);
	free(s->host);
	free(s->suite);
	free(s->suite_hash);
	free(s->case_id);
	free(s->metric);
	free(s->better);
	memset(s, 0, sizeof(*s));
}

void history_series_array_free(struct history_series *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		history_series_free(&v[i]);
	free(v);
}

double history_night_mean(const struct history_night *n)
{
	double sum = 0;
	size_t i;

	if (!n->n)
		return NAN;
	for (i = 0; i < n->n; i++)
		sum += n->values[i];
	return sum / (double)n->n;
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

const char *history_series_name(const struct history_series *s, char *buf,
				size_t len)
{
	snprintf(buf, len, "%s %s %s %s", or_dash(s->host), or_dash(s->suite),
		 or_dash(s->case_id), or_dash(s->metric));
	return buf;
}
