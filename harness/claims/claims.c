// SPDX-License-Identifier: GPL-2.0-only
#include "claims.h"
#include "claims_events.h"
#include "claims_factor.h"
#include "claims_host.h"
#include "claims_level.h"
#include "claims_supersede.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/kconfig.h"
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

static const char *verdict_of(const json_t *o)
{
	const char *v = json_string_value(json_object_get(o, "verdict"));

	return v ? v : "";
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

/* "4.4" -> "4.5": the first release after a series, point releases and all. */
static int next_release(const char *v, char *buf, size_t len)
{
	long major, minor;

	if (sscanf(v, "%ld.%ld", &major, &minor) != 2)
		return -1;
	snprintf(buf, len, "%ld.%ld", major, minor + 1);
	return 0;
}

/* `needs = kernel A-B WHY`: the running kernel outside A to B inclusive. */
static bool kernel_range_unmet(const char *needs, const struct tb_results *r,
			       char *why, size_t len)
{
	const char *kernel = json_string_value(json_object_get(r->env, "kernel"));
	char lo[32], hi[32], next[40];
	int n = 0;

	if (sscanf(needs, "kernel %31[0-9.]-%31[0-9.] %n", lo, hi, &n) != 2 || !n ||
	    next_release(hi, next, sizeof(next))) {
		snprintf(why, len, "needs = '%s': expected 'kernel A-B WHY'", needs);
		return true;
	}
	if (kernel_at_least(kernel, lo) == 1 && kernel_at_least(kernel, next) == 0)
		return false;
	snprintf(why, len, "needs a %s-%s kernel (%s); this one is %s", lo, hi,
		 needs + n, kernel ? kernel : "unknown");
	return true;
}

/* Nodes made by numa=fake (NUMA_EMU): where pages land is real, what a
 * remote access costs is not. */
static bool numa_emulated(const struct tb_results *r)
{
	const char *cmdline = json_string_value(json_object_get(r->env, "cmdline"));

	return cmdline && strstr(cmdline, "numa=fake=");
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
	if (!strcmp(needs, "numa") && numa_emulated(r)) {
		snprintf(why, len, "needs real NUMA nodes: these %ld are emulated "
			 "(numa=fake on the kernel command line), so placement is "
			 "real but remote access costs nothing extra", nodes);
		return true;
	}
	if (!strcmp(needs, "numa-nodes") && nodes < 2) {
		snprintf(why, len, "needs at least 2 NUMA nodes, emulated ones will "
			 "do (./run.sh guest --nodes 2); this machine has %ld", nodes);
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
	if (!strncmp(needs, "kernel ", 7))
		return kernel_range_unmet(needs, r, why, len);
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

/* The interval against the consistent band of a claimed factor c > 1. */
static void judge_band(json_t *o, const struct suite_claim *cl,
		       const struct claim_factor *cf, double c)
{
	double t = DEFAULT_TOLERANCE, lo, hi;
	char why[320];

	if (*claim_field(cl, "tolerance") &&
	    (parse_positive(claim_field(cl, "tolerance"), &t) || t <= 1))
		t = DEFAULT_TOLERANCE;
	claims_band(c, t, &lo, &hi);
	json_object_set_new(o, "band_lo", json_real(lo));
	json_object_set_new(o, "band_hi", json_real(hi));
	if (cf->lo > 1 && cf->f >= lo && cf->f <= hi) {
		set_verdict(o, "reproduced", NULL);
		return;
	}
	if (cf->hi >= lo && cf->lo <= hi) {
		snprintf(why, sizeof(why), "the interval [%.3g, %.3g] overlaps the "
			 "band consistent with %.4gx (%.3g-%.3gx, tolerance %gx): "
			 "the data neither show the claim nor rule it out",
			 cf->lo, cf->hi, c, lo, hi, t);
		set_verdict(o, "inconclusive", why);
		return;
	}
	if (cf->lo > 1) {
		snprintf(why, sizeof(why), "the size differs: measured/claimed = "
			 "%.2f; consistent with %.4gx would be %.3g-%.3gx "
			 "(tolerance %gx)", cf->f / c, c, lo, hi, t);
		set_verdict(o, "direction only", why);
		return;
	}
	snprintf(why, sizeof(why), "%s; the interval lies below the band "
		 "consistent with %.4gx (%.3g-%.3gx)", cf->hi < 1 ?
		 "significant in the other direction" : "no significant difference",
		 c, lo, hi);
	set_verdict(o, "not reproduced", why);
}

/* A claim of no effect (claimed_value = 1): the interval must lie within
 * EQUAL_WITHIN either way, not merely contain 1. A control says so in
 * its own words: it checks a setup, the posting claimed nothing. */
static void judge_equal(json_t *o, const struct claim_factor *cf, bool control)
{
	char why[160];

	if (cf->lo >= 1 / EQUAL_WITHIN && cf->hi <= EQUAL_WITHIN) {
		set_verdict(o, control ? "as expected" : "reproduced", NULL);
		return;
	}
	if (cf->lo > 1 || cf->hi < 1)
		snprintf(why, sizeof(why), "no effect expected; a significant "
			 "difference was measured");
	else
		snprintf(why, sizeof(why), "no effect expected; the interval is "
			 "wider than +-%.0f%%, too noisy to show it",
			 (EQUAL_WITHIN - 1) * 100);
	set_verdict(o, control ? "not as expected" : "not reproduced", why);
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
	claims_add_caveat(o, buf);
}

static const char *sense_of(const struct suite_claim *cl)
{
	return *claim_field(cl, "sense") ? claim_field(cl, "sense") : "better";
}

static void judge_factor(json_t *o, const struct suite_claim *cl,
			 const struct sample *a, const struct sample *b)
{
	bool higher = !strcmp(claim_field(cl, "better"), "higher");
	struct claim_factor cf;
	char text[128];
	double c;

	if (claim_factor(a->v, a->n, b->v, b->n, higher, &cf)) {
		set_verdict(o, "not measurable", "the change is undefined (a mean of 0)");
		return;
	}
	json_object_set_new(o, "factor", json_real(cf.f));
	json_object_set_new(o, "ci_lo", json_real(cf.lo));
	json_object_set_new(o, "ci_hi", json_real(cf.hi));
	json_object_set_new(o, "measured", json_string(
		claim_factor_words(&cf, sense_of(cl), text, sizeof(text))));
	note_split(o, a);
	note_split(o, b);
	if (parse_positive(claim_field(cl, "claimed_value"), &c)) {
		if (cf.lo > 1)
			set_verdict(o, "direction only", "the claim states no factor "
				    "above 1 (claimed_value) to hold the size against");
		else
			set_verdict(o, "not reproduced", cf.hi < 1 ?
				    "significant in the other direction" :
				    "no significant difference");
		return;
	}
	json_object_set_new(o, "of_claimed", json_real(cf.f / c));
	if (c == 1 || *claim_field(cl, "control"))
		judge_equal(o, &cf, *claim_field(cl, "control"));
	else if (c < 1)
		set_verdict(o, "not measurable", "claimed_value below 1: state "
			    "the claim the way it is better (swap base and new)");
	else
		judge_band(o, cl, &cf, c);
}

/*
 * `parts = M1 M2 ...`: the metric split into parts measured apart (the
 * timed mremap as unmap + move). For each: its share of the metric on
 * each side and its own factor, so the row says which part carries it.
 */
static void add_parts(json_t *o, const struct suite_claim *cl,
		      const struct tb_results *r, const struct sample *a,
		      const struct sample *b)
{
	char *list = xstrdup(claim_field(cl, "parts")), *tok, *save = NULL;
	bool higher = !strcmp(claim_field(cl, "better"), "higher");
	json_t *parts = json_array();
	struct sample pa, pb;
	struct summary sa, sb, ta, tb;
	struct claim_factor cf;
	char why[256], text[128];

	stats_summary(a->v, a->n, &ta);
	stats_summary(b->v, b->n, &tb);
	for (tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		json_t *p = json_object();

		memset(&pa, 0, sizeof(pa));
		memset(&pb, 0, sizeof(pb));
		json_object_set_new(p, "metric", json_string(tok));
		if (load_sample(r, a->c->id, tok, &pa, why, sizeof(why)) ||
		    load_sample(r, b->c->id, tok, &pb, why, sizeof(why)) ||
		    claim_factor(pa.v, pa.n, pb.v, pb.n, higher, &cf)) {
			json_object_set_new(p, "measured", json_string(
				*why ? why : "the change is undefined (a mean of 0)"));
		} else {
			stats_summary(pa.v, pa.n, &sa);
			stats_summary(pb.v, pb.n, &sb);
			json_object_set_new(p, "share_base", json_real(sa.mean / ta.mean));
			json_object_set_new(p, "share_new", json_real(sb.mean / tb.mean));
			json_object_set_new(p, "factor", json_real(cf.f));
			json_object_set_new(p, "ci_lo", json_real(cf.lo));
			json_object_set_new(p, "ci_hi", json_real(cf.hi));
			json_object_set_new(p, "measured", json_string(claim_factor_words(
				&cf, sense_of(cl), text, sizeof(text))));
		}
		*why = 0;
		free(pa.v);
		free(pb.v);
		json_array_append_new(parts, p);
	}
	free(list);
	json_object_set_new(o, "parts", parts);
}

/* Rows true by construction, and rows that detail another claim. */
static void relabel(json_t *o, const struct suite_claim *cl)
{
	char buf[600];

	if (*claim_field(cl, "derived") && !strcmp(verdict_of(o), "reproduced"))
		set_verdict(o, "derived", claim_field(cl, "derived"));
	if (*claim_field(cl, "detail_of")) {
		snprintf(buf, sizeof(buf), "see %s", claim_field(cl, "detail_of"));
		json_object_set_new(o, "detail_of",
				    json_string(claim_field(cl, "detail_of")));
		set_verdict(o, buf, NULL);
	}
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
	if (*claim_field(cl, "source"))
		json_object_set_new(o, "source", json_string(claim_field(cl, "source")));
	claims_host_caveats(o, cl, r);
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
	if (!*claim_field(cl, "new")) {
		describe_base(o, &a);
	} else if (!strcmp(claim_field(cl, "kind"), "level")) {
		claims_level(o, cl, a.c, b.c);
	} else {
		judge_factor(o, cl, &a, &b);
		claims_supersede(o, cl, r);
		if (*claim_field(cl, "parts"))
			add_parts(o, cl, r, &a, &b);
	}
	relabel(o, cl);
	if (needs_unmet(cl, r, why, sizeof(why)))
		set_verdict(o, "not measurable", why);
	else
		claims_host_withhold(o, cl, r);
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

void claims_record_kconfig(const struct suite_claim *claims, size_t n,
			   json_t *env)
{
	const char **names = xcalloc(n + 1, sizeof(*names));
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (*claim_field(&claims[i], "superseded_config"))
			names[k++] = claim_field(&claims[i], "superseded_config");
	if (k)
		json_object_set_new(env, "kconfig", kconfig_options(NULL,
			json_string_value(json_object_get(env, "kernel")), names, k));
	free(names);
}
