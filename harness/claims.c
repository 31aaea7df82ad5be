// SPDX-License-Identifier: GPL-2.0-only
#include "claims.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hypothesis.h"
#include "report.h"
#include "stats.h"
#include "util.h"

#define CLAIM_MIN_RUNS 3

struct sample {
	const struct tb_case *c;
	double *v;
	size_t n;
};

static const char *field(const struct suite_claim *cl, const char *key)
{
	const char *s = json_string_value(json_object_get(cl->fields, key));

	return s ? s : "";
}

static void set_verdict(json_t *o, const char *verdict, const char *reason)
{
	json_object_set_new(o, "verdict", json_string(verdict));
	if (reason)
		json_object_set_new(o, "reason", json_string(reason));
}

static const char *first_failure(const struct tb_case *c)
{
	size_t i;

	for (i = 0; i < c->nruns; i++)
		if (c->runs[i].status != RUN_OK && c->runs[i].reason)
			return c->runs[i].reason;
	return "no runs";
}

static const char *unsupported_reason(const struct tb_case *c, const char *metric)
{
	const struct note *n;
	size_t i;

	for (i = 0; i < c->nruns; i++) {
		n = note_set_find(&c->runs[i].unsupported, metric);
		if (n)
			return n->reason;
	}
	return NULL;
}

/* Load a case's values of the metric; a reason when they cannot be used. */
static int load_sample(const struct tb_results *r, const char *id,
		       const char *metric, struct sample *s, char *why,
		       size_t len)
{
	const char *unsup;

	s->c = results_find_case(r, id);
	if (!s->c) {
		snprintf(why, len, "case %s was not run", id);
		return -1;
	}
	s->v = xmalloc((s->c->nruns + 1) * sizeof(double));
	s->n = case_metric_values(s->c, metric, s->v, s->c->nruns);
	unsup = unsupported_reason(s->c, metric);
	if (!s->n && unsup) {
		snprintf(why, len, "%s not counted here: %s", metric, unsup);
		return -1;
	}
	if (s->n < CLAIM_MIN_RUNS) {
		snprintf(why, len, "%s: %zu ok run%s with %s (%s)", id, s->n,
			 s->n == 1 ? "" : "s", metric, first_failure(s->c));
		return -1;
	}
	return 0;
}

static bool needs_unmet(const struct suite_claim *cl, const struct tb_results *r,
			char *why, size_t len)
{
	const char *needs = field(cl, "needs");

	if (!strcmp(needs, "pmu") && !json_is_true(json_object_get(r->env, "pmu"))) {
		snprintf(why, len, "needs a hardware PMU for %s; this machine has none",
			 field(cl, "metric"));
		return true;
	}
	if (!strcmp(needs, "glibc-hugetlb") &&
	    !json_is_true(json_object_get(r->env, "glibc_malloc_hugetlb"))) {
		snprintf(why, len, "glibc %s has no glibc.malloc.hugetlb tunable (2.35+)",
			 json_string_value(json_object_get(r->env, "glibc")));
		return true;
	}
	if (!strncmp(needs, "kernel-ab", 9)) {
		snprintf(why, len, "compares kernels with and without the patch: "
			 "./run.sh ab%s", needs + 9);
		return true;
	}
	return false;
}

static void describe_base(json_t *o, const struct sample *a)
{
	struct summary s;
	char mean[32], sd[32], text[96];

	stats_summary(a->v, a->n, &s);
	fmt_grouped(mean, sizeof(mean), s.mean);
	fmt_grouped(sd, sizeof(sd), s.stddev);
	snprintf(text, sizeof(text), "%s +- %s (n=%zu)", mean, sd, s.n);
	json_object_set_new(o, "measured", json_string(text));
	json_object_set_new(o, "mean", json_real(s.mean));
	json_object_set_new(o, "stddev", isfinite(s.stddev) ? json_real(s.stddev) :
			    json_null());
}

static void judge_factor(json_t *o, const struct suite_claim *cl,
			 const struct sample *a, const struct sample *b)
{
	bool higher = !strcmp(field(cl, "better"), "higher");
	const char *sense = *field(cl, "sense") ? field(cl, "sense") : "better";
	struct change ch;
	double f, lo, hi;
	char text[128];

	/* change_ci gives second/first - 1: put the worse-expected side first. */
	if (higher ? change_ci(a->v, a->n, b->v, b->n, 0.95, &ch) :
		     change_ci(b->v, b->n, a->v, a->n, 0.95, &ch)) {
		set_verdict(o, "not measurable", "the change is undefined (a mean of 0)");
		return;
	}
	f = ch.rel + 1;
	lo = ch.lo + 1;
	hi = ch.hi + 1;
	snprintf(text, sizeof(text), "%.2fx [%.2f, %.2f] %s", f, lo, hi, sense);
	json_object_set_new(o, "factor", json_real(f));
	json_object_set_new(o, "ci_lo", json_real(lo));
	json_object_set_new(o, "ci_hi", json_real(hi));
	json_object_set_new(o, "measured", json_string(text));
	if (lo > 1)
		set_verdict(o, "reproduced", NULL);
	else if (hi < 1)
		set_verdict(o, "not reproduced", "significant in the other direction");
	else
		set_verdict(o, "not reproduced", "no significant difference");
}

static json_t *evaluate_one(const struct suite_claim *cl, const struct tb_results *r)
{
	json_t *o = json_object();
	struct sample a = { 0 }, b = { 0 };
	char why[512];
	const char *metric = field(cl, "metric");

	json_object_set_new(o, "id", json_string(cl->id));
	json_object_set_new(o, "posting", json_string(field(cl, "posting")));
	json_object_set_new(o, "comparison", json_string(field(cl, "comparison")));
	json_object_set_new(o, "claimed", json_string(field(cl, "claimed")));
	json_object_set_new(o, "metric", json_string(metric));
	if (!*field(cl, "base") ||
	    load_sample(r, field(cl, "base"), metric, &a, why, sizeof(why)) ||
	    (*field(cl, "new") &&
	     load_sample(r, field(cl, "new"), metric, &b, why, sizeof(why)))) {
		if (!*field(cl, "base"))
			snprintf(why, sizeof(why), "the claim names no base case");
		/* An unmet need explains more than a missing sample. */
		needs_unmet(cl, r, why, sizeof(why));
		set_verdict(o, "not measurable", why);
		goto out;
	}
	if (!*field(cl, "new"))
		describe_base(o, &a);
	else
		judge_factor(o, cl, &a, &b);
	if (needs_unmet(cl, r, why, sizeof(why)))
		set_verdict(o, "not measurable", why);
out:
	free(a.v);
	free(b.v);
	return o;
}

json_t *claims_evaluate(const struct suite_claim *claims, size_t n,
			const struct tb_results *r)
{
	json_t *all = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(all, evaluate_one(&claims[i], r));
	return all;
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

void claims_print(FILE *f, const json_t *evaluated)
{
	const json_t *o;
	size_t i;

	if (!json_array_size(evaluated))
		return;
	fprintf(f, "\nClaims of the postings, checked here (95%% CI):\n\n");
	fprintf(f, "%-9s %-34s %-28s %-30s %s\n", "posting", "comparison",
		"claimed", "measured here (95% CI)", "verdict");
	json_array_foreach(evaluated, i, o) {
		fprintf(f, "%-9s %-34s %-28s %-30s %s\n", jstr(o, "id"),
			jstr(o, "comparison"), jstr(o, "claimed"),
			*jstr(o, "measured") ? jstr(o, "measured") : "-",
			jstr(o, "verdict"));
		if (*jstr(o, "reason"))
			fprintf(f, "%-9s   (%s)\n", "", jstr(o, "reason"));
	}
}
