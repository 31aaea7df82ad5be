// SPDX-License-Identifier: GPL-2.0-only
#include "claims.h"
#include "claims_events.h"
#include "claims_supersede.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hypothesis.h"
#include "results/report.h"
#include "stats/stats.h"
#include "stats/stats_split.h"
#include "util/util.h"

#define CLAIM_MIN_RUNS 3
#define DEFAULT_TOLERANCE 2.0
#define EQUAL_WITHIN 1.10

struct sample {
	const struct tb_case *c;
	double *v;
	size_t n;
};

static void set_verdict(json_t *o, const char *verdict, const char *reason)
{
	json_object_set_new(o, "verdict", json_string(verdict));
	if (reason)
		json_object_set_new(o, "reason", json_string(reason));
	else
		json_object_del(o, "reason");
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
	const char *unsup, *lacks;

	s->c = results_find_case(r, id);
	if (!s->c) {
		snprintf(why, len, "case %s was not run", id);
		return -1;
	}
	s->v = xmalloc((s->c->nruns + 1) * sizeof(double));
	s->n = case_metric_values(s->c, metric, s->v, s->c->nruns);
	lacks = json_string_value(json_object_get(s->c->extra, "unsupported"));
	if (!s->n && lacks) {
		snprintf(why, len, "%s not measurable here: %s", id, lacks);
		return -1;
	}
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

static long env_long(const struct tb_results *r, const char *key, long dflt)
{
	const json_t *v = json_object_get(r->env, key);

	return json_is_integer(v) ? (long)json_integer_value(v) : dflt;
}

static bool needs_unmet(const struct suite_claim *cl, const struct tb_results *r,
			char *why, size_t len)
{
	const char *needs = claim_field(cl, "needs");
	long nodes = env_long(r, "numa_nodes", 1);

	if (!strcmp(needs, "pmu") && !json_is_true(json_object_get(r->env, "pmu"))) {
		snprintf(why, len, "needs a hardware PMU for %s; this machine has none",
			 claim_field(cl, "metric"));
		return true;
	}
	if (!strcmp(needs, "numa") && nodes < 2) {
		snprintf(why, len, "needs at least 2 NUMA nodes (the posting's "
			 "effect is THPs placed on the first toucher's node); "
			 "this machine has %ld", nodes);
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
	set_verdict(o, "reported", NULL);
}

void claims_band(double c, double t, double *lo, double *hi)
{
	*lo = fmax(c / t, pow(c, 1 / t));
	*hi = fmin(c * t, pow(c, t));
}

static int parse_positive(const char *s, double *out)
{
	return *s && !parse_double(s, out) && isfinite(*out) && *out > 0 ? 0 : -1;
}

/* Significant in the claimed direction: does the size agree too? */
static void judge_magnitude(json_t *o, const struct suite_claim *cl, double f)
{
	double c, t = DEFAULT_TOLERANCE, lo, hi;
	char why[256];

	if (parse_positive(claim_field(cl, "claimed_value"), &c) || c <= 1) {
		set_verdict(o, "direction only",
			    "the claim states no factor above 1 (claimed_value) "
			    "to hold the size against");
		return;
	}
	if (*claim_field(cl, "tolerance") &&
	    (parse_positive(claim_field(cl, "tolerance"), &t) || t <= 1))
		t = DEFAULT_TOLERANCE;
	claims_band(c, t, &lo, &hi);
	json_object_set_new(o, "of_claimed", json_real(f / c));
	json_object_set_new(o, "band_lo", json_real(lo));
	json_object_set_new(o, "band_hi", json_real(hi));
	if (f >= lo && f <= hi) {
		set_verdict(o, "reproduced", NULL);
		return;
	}
	snprintf(why, sizeof(why), "the size differs: measured/claimed = %.2f; "
		 "consistent with %.4gx would be %.3g-%.3gx (tolerance %gx)",
		 f / c, c, lo, hi, t);
	set_verdict(o, "direction only", why);
}

/* A claim of no effect (claimed_value = 1, a control): the interval must
 * lie within EQUAL_WITHIN either way, not merely contain 1. */
static void judge_equal(json_t *o, double lo, double hi)
{
	char why[160];

	if (lo >= 1 / EQUAL_WITHIN && hi <= EQUAL_WITHIN) {
		set_verdict(o, "reproduced", NULL);
		return;
	}
	if (lo > 1 || hi < 1)
		snprintf(why, sizeof(why), "claimed no effect; a significant "
			 "difference was measured");
	else
		snprintf(why, sizeof(why), "claimed no effect; the interval is "
			 "wider than +-%.0f%%, too noisy to show it",
			 (EQUAL_WITHIN - 1) * 100);
	set_verdict(o, "not reproduced", why);
}

static void add_caveat(json_t *o, const char *text)
{
	json_t *cav = json_object_get(o, "caveats");

	if (!cav) {
		cav = json_array();
		json_object_set_new(o, "caveats", cav);
	}
	json_array_append_new(cav, json_string(text));
}

static void note_split(json_t *o, const struct sample *s)
{
	struct split sp;
	char buf[256];

	if (!stats_split(s->v, s->n, &sp))
		return;
	snprintf(buf, sizeof(buf), "%s: runs split, %zu near %.4g and %zu near "
		 "%.4g (%.1fx apart); the factor is between group mixes",
		 s->c->id, sp.n_low, sp.low_median, sp.n_high, sp.high_median,
		 sp.gap);
	add_caveat(o, buf);
}

static void judge_factor(json_t *o, const struct suite_claim *cl,
			 const struct sample *a, const struct sample *b)
{
	bool higher = !strcmp(claim_field(cl, "better"), "higher");
	const char *sense = *claim_field(cl, "sense") ? claim_field(cl, "sense") : "better";
	struct change ch;
	double f, lo, hi, c;
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
	note_split(o, a);
	note_split(o, b);
	if (!parse_positive(claim_field(cl, "claimed_value"), &c))
		json_object_set_new(o, "of_claimed", json_real(f / c));
	if (!parse_positive(claim_field(cl, "claimed_value"), &c) && c == 1)
		judge_equal(o, lo, hi);
	else if (lo > 1)
		judge_magnitude(o, cl, f);
	else if (hi < 1)
		set_verdict(o, "not reproduced", "significant in the other direction");
	else
		set_verdict(o, "not reproduced", "no significant difference");
}

/* Caveats of `depends`, each where this machine is of that kind. */
static void add_caveats(json_t *o, const struct suite_claim *cl,
			const struct tb_results *r)
{
	const json_t *plat = json_object_get(r->env, "platform");
	char *dep = xstrdup(claim_field(cl, "depends")), *tok, *save = NULL;
	char buf[200];

	for (tok = strtok_r(dep, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(tok, "vm") &&
		    json_is_true(json_object_get(json_object_get(plat, "virt"), "vm")))
			add_caveat(o, "a VM: timings include the hypervisor's faults and exits");
		else if (!strcmp(tok, "page-reporting") &&
			 json_is_true(json_object_get(json_object_get(plat,
						"page_reporting"), "on")))
			add_caveat(o, "free page reporting: the first touch of fresh "
				   "memory costs ~10x here");
		else if (!strcmp(tok, "numa") && env_long(r, "numa_nodes", 1) < 2)
			add_caveat(o, "1 NUMA node: remote-node effects cannot show");
		else if (!strcmp(tok, "pmu") &&
			 !json_is_true(json_object_get(r->env, "pmu")))
			add_caveat(o, "no PMU: no TLB-miss counts");
		else if (strcmp(tok, "vm") && strcmp(tok, "page-reporting") &&
			 strcmp(tok, "numa") && strcmp(tok, "pmu")) {
			snprintf(buf, sizeof(buf), "unknown dependency '%s'", tok);
			add_caveat(o, buf);
		}
	}
	free(dep);
}

static json_t *evaluate_one(const struct suite_claim *cl, const struct tb_results *r)
{
	json_t *o = json_object();
	struct sample a = { 0 }, b = { 0 };
	char why[512];
	const char *metric = claim_field(cl, "metric");

	json_object_set_new(o, "id", json_string(cl->id));
	json_object_set_new(o, "posting", json_string(claim_field(cl, "posting")));
	json_object_set_new(o, "comparison", json_string(claim_field(cl, "comparison")));
	json_object_set_new(o, "claimed", json_string(claim_field(cl, "claimed")));
	json_object_set_new(o, "metric", json_string(metric));
	if (*claim_field(cl, "note"))
		json_object_set_new(o, "note", json_string(claim_field(cl, "note")));
	add_caveats(o, cl, r);
	claims_name_events(o, metric, r->env);
	if (!*claim_field(cl, "base") ||
	    load_sample(r, claim_field(cl, "base"), metric, &a, why, sizeof(why)) ||
	    (*claim_field(cl, "new") &&
	     load_sample(r, claim_field(cl, "new"), metric, &b, why, sizeof(why)))) {
		if (!*claim_field(cl, "base"))
			snprintf(why, sizeof(why), "the claim names no base case");
		/* An unmet need explains more than a missing sample. */
		needs_unmet(cl, r, why, sizeof(why));
		set_verdict(o, "not measurable", why);
		goto out;
	}
	if (!*claim_field(cl, "new"))
		describe_base(o, &a);
	else
		judge_factor(o, cl, &a, &b);
	claims_supersede(o, cl, r);
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
