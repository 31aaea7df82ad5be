// SPDX-License-Identifier: GPL-2.0-only
/*
 * lava - LAVA test-case names, units and one run's lines (lava.h).
 */
#include "lava.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/metric_unit.h"

const char *lava_token(const char *s, char *buf, size_t len)
{
	size_t i = 0;

	if (!len)
		return buf;
	for (; s && *s && i + 1 < len; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || strchr("._-", c);

		buf[i++] = ok ? c : '_';
	}
	buf[i] = '\0';
	if (!i)
		snprintf(buf, len, "_");
	return buf;
}

const char *lava_units(const char *metric, char *buf, size_t len)
{
	const char *u = metric_unit(metric);

	if (!strcmp(u, "µs"))
		u = "us";
	else if (!*u)
		u = "none";
	return lava_token(u, buf, len);
}

static const char *case_result(const struct tb_case *c)
{
	size_t ok = case_ok_runs(c);

	if (!c->nruns)
		return "skip";
	return ok == c->nruns ? "pass" : "fail";
}

static void case_metrics(FILE *f, const struct tb_case *c, const char *id)
{
	char **names, name[1536], units[64];
	size_t n = case_metric_names(c, &names), i, k;
	double *v = calloc(c->nruns ? c->nruns : 1, sizeof(*v));

	for (i = 0; v && i < n; i++) {
		size_t nv = case_metric_values(c, names[i], v, c->nruns);
		double sum = 0;

		for (k = 0; k < nv; k++)
			sum += v[k];
		if (!nv || !isfinite(sum / nv))
			continue;
		snprintf(name, sizeof(name), "%s.%s", id, names[i]);
		lava_token(name, name, sizeof(name));
		fprintf(f, "lava-test-case %s --result pass --measurement %.10g --units %s\n",
			name, sum / nv, lava_units(names[i], units, sizeof(units)));
	}
	free(v);
	free(names);
}

void lava_cases_write(FILE *f, const struct tb_results *r)
{
	char id[1024];
	size_t i;

	for (i = 0; i < r->ncases; i++) {
		const struct tb_case *c = &r->cases[i];

		lava_token(c->id, id, sizeof(id));
		fprintf(f, "lava-test-case %s --result %s\n", id, case_result(c));
		case_metrics(f, c, id);
	}
}
