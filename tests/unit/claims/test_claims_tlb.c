// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TLB claims (seeds 000-tlb, 002-tlb) on the TLB profile: they name
 * the events they are counted with on the run's machine (env.tlb_profile,
 * as a run writes it), are "not measurable" without a PMU, and on a
 * machine with one are judged by the same rules as every other claim.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims/claims.h"
#include "measure/suite.h"
#include "measure/tlb_profile.h"
#include "util/util.h"

/* The env a run on `pmu`'s machine writes: env.pmu, env.tlb_profile. */
static json_t *env_of(const char *pmu, bool usable)
{
	struct tlb_host h = { .profile = pmu ? tlb_profile_find(pmu) :
				tlb_profile_generic() };
	json_t *env = json_object();

	snprintf(h.pmu, sizeof(h.pmu), "%s", pmu ? pmu : "amd64_fam19h_zen4");
	json_object_set_new(env, "pmu", json_boolean(usable));
	json_object_set_new(env, "kernel", json_string("6.18.44"));
	json_object_set_new(env, "numa_nodes", json_integer(1));
	json_object_set_new(env, "tlb_profile", tlb_host_json(&h));
	return env;
}

/* A case whose metric has values v, or (v NULL) 5 runs that could not
 * count it, as a machine without a PMU records them. */
static void add_case(struct tb_results *r, const char *id, const char *metric,
		     const double *v)
{
	struct tb_case *c = results_add_case(r);
	size_t i;

	c->id = xstrdup(id);
	c->workload = xstrdup("mremap");
	for (i = 0; i < 5; i++) {
		struct tb_run *run = case_add_run(c);

		run->status = RUN_OK;
		metric_set_put(&run->metrics, "wall_usec", 1000);
		if (v)
			metric_set_put(&run->metrics, metric, v[i]);
		else
			note_set_put(&run->unsupported, metric,
				     "<not supported>: derived from tlb.dtlb_load_walks: no hardware PMU: this CPU/VM exposes none for this event (ENOENT)");
	}
}

/* seeds.conf's claim 000-tlb, as the suite states it. */
static struct suite_claim claim_000_tlb(const char *metric)
{
	struct suite_claim cl = { .id = "000-tlb", .fields = json_object() };

	json_object_set_new(cl.fields, "metric", json_string(metric));
	json_object_set_new(cl.fields, "base", json_string("mremap_posting/thp=never"));
	json_object_set_new(cl.fields, "new", json_string("mremap_posting/thp=always"));
	json_object_set_new(cl.fields, "better", json_string("lower"));
	json_object_set_new(cl.fields, "sense", json_string("fewer"));
	json_object_set_new(cl.fields, "claimed_value", json_string("152"));
	json_object_set_new(cl.fields, "needs", json_string("pmu"));
	return cl;
}

static json_t *evaluate(json_t *env, const char *metric, const double *never,
			const double *always)
{
	struct tb_results r = { .env = env };
	struct suite_claim cl = claim_000_tlb(metric);
	json_t *all, *out;

	add_case(&r, "mremap_posting/thp=never", metric, never);
	add_case(&r, "mremap_posting/thp=always", metric, always);
	all = claims_evaluate(&cl, 1, &r);
	out = json_incref(json_array_get(all, 0));
	json_decref(all);
	json_decref(cl.fields);
	results_free(&r);
	return out;
}

static const char *field(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static const double walks_4k[] = { 9.20e6, 9.31e6, 9.12e6, 9.25e6, 9.18e6 };
static const double walks_2m[] = { 60.7e3, 61.9e3, 59.8e3, 60.2e3, 61.1e3 };
static const double walks_2m_weak[] = { 910e3, 925e3, 905e3, 915e3, 920e3 };

/* No PMU here: not measurable, and the row names what would count it. */
static void test_no_pmu_names_the_events(void **state)
{
	json_t *o;

	(void)state;
	o = evaluate(env_of("skl", false), "tlb.dtlb_walks", NULL, NULL);
	assert_string_equal(field(o, "verdict"), "not measurable");
	assert_non_null(strstr(field(o, "reason"), "needs a hardware PMU for tlb.dtlb_walks"));
	assert_string_equal(field(o, "events"),
			    "on Intel Skylake (client): tlb.dtlb_walks (load + store page walks: "
			    "tlb.dtlb_load_walks = skl::DTLB_LOAD_MISSES:WALK_COMPLETED, "
			    "tlb.dtlb_store_walks = skl::DTLB_STORE_MISSES:WALK_COMPLETED)");
	json_decref(o);

	o = evaluate(env_of("amd64_fam19h_zen3", false), "tlb.dtlb_walks", NULL, NULL);
	assert_string_equal(field(o, "verdict"), "not measurable");
	assert_string_equal(field(o, "events"),
			    "on AMD Zen 3: tlb.dtlb_walks = amd64_fam19h_zen3::L1_DTLB_MISS:"
			    "TLB_RELOAD_4K_L2_MISS:TLB_RELOAD_COALESCED_PAGE_MISS:"
			    "TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_1G_L2_MISS");
	json_decref(o);
}

/* With a PMU the same claim is measured and judged by the usual rules. */
static void test_pmu_makes_it_measurable(void **state)
{
	json_t *o;
	double f;

	(void)state;
	o = evaluate(env_of("icx", true), "tlb.dtlb_walks", walks_4k, walks_2m);
	f = json_number_value(json_object_get(o, "factor"));
	assert_string_equal(field(o, "verdict"), "reproduced");
	assert_true(f > 145 && f < 160);
	assert_non_null(strstr(field(o, "events"), "icx::DTLB_LOAD_MISSES:WALK_COMPLETED"));
	json_decref(o);

	/* 10x where 152x was claimed: the direction holds, the size does not */
	o = evaluate(env_of("amd64_fam17h_zen2", true), "tlb.dtlb_walks", walks_4k,
		     walks_2m_weak);
	assert_string_equal(field(o, "verdict"), "direction only");
	assert_non_null(strstr(field(o, "reason"), "the size differs"));
	json_decref(o);

	/* no difference: not reproduced, as for any metric */
	o = evaluate(env_of("skl", true), "tlb.dtlb_walks", walks_4k, walks_4k);
	assert_string_equal(field(o, "verdict"), "not reproduced");
	json_decref(o);
}

/* A figure the model has no event for, and a CPU without a profile. */
static void test_missing_events_said(void **state)
{
	json_t *o;

	(void)state;
	o = evaluate(env_of("amd64_fam19h_zen3", true), "tlb.walk_cycles_pct", NULL, NULL);
	assert_string_equal(field(o, "events"),
			    "on AMD Zen 3: no event counts tlb.walk_cycles_pct on this model");
	json_decref(o);
	o = evaluate(env_of(NULL, false), "tlb.dtlb_walks", NULL, NULL);
	assert_non_null(strstr(field(o, "events"), "no event counts tlb.dtlb_walks"));
	json_decref(o);
	/* not a profile metric: nothing to name */
	o = evaluate(env_of("skl", true), "wall_usec", walks_4k, walks_2m);
	assert_null(json_object_get(o, "events"));
	json_decref(o);
}

static void test_table_prints_them(void **state)
{
	json_t *env = env_of("skl", false), *all = json_array();
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	json_array_append_new(all, evaluate(json_incref(env), "tlb.dtlb_walks", NULL, NULL));
	f = open_memstream(&text, &len);
	claims_print(f, all, env);
	fclose(f);
	assert_non_null(strstr(text, "no usable PMU (TLB-miss claims not measurable)"));
	assert_non_null(strstr(text, "TLB events (-e tlb): Intel Skylake (client) (libpfm4 skl)"));
	assert_non_null(strstr(text, "events: on Intel Skylake (client): tlb.dtlb_walks"));
	free(text);
	json_decref(all);
	json_decref(env);
}

/* The seeds' TLB claims use the profile, and the suites count it. */
static void test_seed_suites_use_the_profile(void **state)
{
	static const char *const suites[] = { "configs/seeds.conf",
					      "configs/seeds-full.conf" };
	const char *names[8], *texts[8];
	struct suite s;
	char err[512];
	size_t i, k, n, tlb_claims;

	(void)state;
	n = tlb_profile_derived(tlb_profile_find("skl"), names, texts, 8);
	for (i = 0; i < ARRAY_SIZE(suites); i++) {
		if (suite_load(suites[i], &s, err, sizeof(err)))
			fail_msg("%s", err);
		assert_non_null(strstr(s.events, "tlb,"));
		tlb_claims = 0;
		for (k = 0; k < s.nclaims; k++) {
			const char *m = claim_field(&s.claims[k], "metric");

			if (strncmp(m, "tlb.", 4))
				continue;
			tlb_claims++;
			assert_string_equal(m, "tlb.dtlb_walks");
			assert_string_equal(claim_field(&s.claims[k], "needs"), "pmu");
		}
		assert_int_equal(tlb_claims, 2);
		suite_free(&s);
	}
	/* on Intel it is derived, on Zen counted: every model has it */
	assert_string_equal(names[0], "tlb.dtlb_walks");
	assert_true(n >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_pmu_names_the_events),
		cmocka_unit_test(test_pmu_makes_it_measurable),
		cmocka_unit_test(test_missing_events_said),
		cmocka_unit_test(test_table_prints_them),
		cmocka_unit_test(test_seed_suites_use_the_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
