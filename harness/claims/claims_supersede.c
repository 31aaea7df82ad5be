// SPDX-License-Identifier: GPL-2.0-only
#include "claims_supersede.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct check {
	char metric[128];
	char op[3];
	double value;
};

static int read_version(const char *s, long v[3])
{
	char *end;
	int i;

	v[0] = v[1] = v[2] = 0;
	for (i = 0; i < 3; i++) {
		if (*s < '0' || *s > '9')
			return i >= 2 ? 0 : -1;
		v[i] = strtol(s, &end, 10);
		s = end;
		if (*s != '.')
			return i >= 1 ? 0 : -1;
		s++;
	}
	return 0;
}

int kernel_at_least(const char *release, const char *version)
{
	long have[3], want[3];
	int i;

	if (!release || !version || read_version(release, have) ||
	    read_version(version, want))
		return -1;
	for (i = 0; i < 3; i++)
		if (have[i] != want[i])
			return have[i] > want[i];
	return 1;
}

static int parse_check(const char *s, struct check *c)
{
	char num[64], extra;

	if (sscanf(s, "%127s %2s %63s %c", c->metric, c->op, num, &extra) != 3 ||
	    parse_double(num, &c->value) || !isfinite(c->value))
		return -1;
	if (strcmp(c->op, "==") && strcmp(c->op, "!=") && strcmp(c->op, "<") &&
	    strcmp(c->op, "<=") && strcmp(c->op, ">") && strcmp(c->op, ">="))
		return -1;
	return 0;
}

static bool holds(const struct check *c, double v)
{
	if (!strcmp(c->op, "=="))
		return v == c->value;
	if (!strcmp(c->op, "!="))
		return v != c->value;
	if (!strcmp(c->op, "<"))
		return v < c->value;
	if (!strcmp(c->op, "<="))
		return v <= c->value;
	if (!strcmp(c->op, ">"))
		return v > c->value;
	return v >= c->value;
}

/* Every ok run of the case has the metric and it holds; 0 runs: fails. */
static int check_case(const struct tb_results *r, const char *id,
		      const struct check *c, size_t *nruns, char *why, size_t len)
{
	const struct tb_case *tc = results_find_case(r, id);
	const struct metric *m;
	size_t i;

	if (!tc)
		return 0;
	for (i = 0; i < tc->nruns; i++) {
		if (tc->runs[i].status != RUN_OK)
			continue;
		m = metric_set_find(&tc->runs[i].metrics, c->metric);
		if (!m || !holds(c, m->value)) {
			snprintf(why, len, "%s was %s%g in a run of %s", c->metric,
				 m ? "" : "not counted, not ", m ? m->value : 0.0, id);
			return -1;
		}
		(*nruns)++;
	}
	return 0;
}

static void append_reason(json_t *o, const char *more)
{
	const char *old = json_string_value(json_object_get(o, "reason"));
	char buf[768];

	snprintf(buf, sizeof(buf), "%s%s%s", old ? old : "", old ? "; " : "", more);
	json_object_set_new(o, "reason", json_string(buf));
}

void claims_supersede(json_t *o, const struct suite_claim *cl,
		      const struct tb_results *r)
{
	const char *by = claim_field(cl, "superseded_by");
	const char *verdict = json_string_value(json_object_get(o, "verdict"));
	const char *kernel = json_string_value(json_object_get(r->env, "kernel"));
	char version[32] = "", why[512] = "", buf[768];
	struct check c;
	size_t nruns = 0;

	if (!*by || !verdict || strcmp(verdict, "not reproduced"))
		return;
	sscanf(by, "%31s", version);
	if (kernel_at_least(kernel, version) != 1) {
		snprintf(buf, sizeof(buf), "kernel %s predates %s, the change "
			 "that would explain it", kernel ? kernel : "?", version);
		append_reason(o, buf);
		return;
	}
	if (parse_check(claim_field(cl, "superseded_check"), &c)) {
		append_reason(o, "superseded_check is missing or not METRIC OP "
			      "NUMBER: the superseding change is unconfirmed");
		return;
	}
	if (check_case(r, claim_field(cl, "base"), &c, &nruns, why, sizeof(why)) ||
	    check_case(r, claim_field(cl, "new"), &c, &nruns, why, sizeof(why)) ||
	    !nruns) {
		snprintf(buf, sizeof(buf), "not explained by %s: %s", by,
			 *why ? why : "no ok run to check");
		append_reason(o, buf);
		return;
	}
	snprintf(buf, sizeof(buf), "superseded since v%s; checked: %s %s %g "
		 "in all %zu runs", by, c.metric, c.op, c.value, nruns);
	json_object_set_new(o, "verdict", json_string("superseded"));
	append_reason(o, buf);
}
