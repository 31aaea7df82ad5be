// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the machine does to a verdict (claims_host.h), from a recorded
 * environment: timings of page-table work withheld where page-table
 * writes are emulated (counts kept), "not comparable here", the free page
 * reporting caveat measured from the run, and the table's header naming
 * the hypervisor the kernel detected.
 *
 * The PVM simulation draws aligned 4 KiB mremap times log-uniformly from
 * 2 to 85 ms and THP's from 1 to 7 ms, as the PVM host showed them, with
 * fixed seeds: judged as timings there the verdict flips between runs;
 * withheld, it holds still.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims/claims.h"
#include "claims/claims_host.h"
#include "util/util.h"
#include "claims_fx.h"

static json_t *platform(const char *hv, const char *from, const char *cpuid,
			const char *pt, bool reporting)
{
	json_t *p = json_object(), *v = json_object(), *t = json_object();
	json_t *pr = json_object();

	json_object_set_new(v, "vm", json_boolean(*hv));
	json_object_set_new(v, "hypervisor", json_string(hv));
	json_object_set_new(v, "from", json_string(from));
	json_object_set_new(v, "cpuid", json_string(cpuid));
	json_object_set_new(p, "virt", v);
	json_object_set_new(t, "mode", json_string(pt));
	json_object_set_new(t, "why", json_string(!strcmp(pt, "emulated") ?
		"PVM: the host shadows the guest's page tables" : "bare metal"));
	json_object_set_new(p, "page_tables", t);
	json_object_set_new(pr, "on", json_boolean(reporting));
	json_object_set_new(pr, "order", json_integer(9));
	json_object_set_new(p, "page_reporting", pr);
	return p;
}

static void set_env(struct tb_results *r, json_t *plat)
{
	json_decref(r->env);
	r->env = json_object();
	json_object_set_new(r->env, "kernel", json_string("6.18.44"));
	json_object_set_new(r->env, "numa_nodes", json_integer(1));
	json_object_set_new(r->env, "nr_cpus", json_integer(2));
	json_object_set_new(r->env, "pmu", json_false());
	json_object_set_new(r->env, "platform", plat);
}

static struct suite_claim claim(const char *metric, const char *depends,
				const char *claimed_value, const char *sense)
{
	struct suite_claim cl = { .id = "c", .fields = json_object() };

	json_object_set_new(cl.fields, "metric", json_string(metric));
	json_object_set_new(cl.fields, "base", json_string("never"));
	json_object_set_new(cl.fields, "new", json_string("always"));
	json_object_set_new(cl.fields, "better", json_string("lower"));
	json_object_set_new(cl.fields, "sense", json_string(sense));
	json_object_set_new(cl.fields, "claimed_value", json_string(claimed_value));
	if (depends)
		json_object_set_new(cl.fields, "depends", json_string(depends));
	return cl;
}

static json_t *eval(const struct suite_claim *cl, const struct tb_results *r)
{
	json_t *all = claims_evaluate(cl, 1, r);
	json_t *o = json_incref(json_array_get(all, 0));

	json_decref(all);
	return o;
}

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static const double never_us[] = { 204, 190, 215, 199, 226 };
static const double always_us[] = { 240, 221, 233, 275, 230 };
static const double never_flt[] = { 262206, 262207, 262205, 262208, 262206 };
static const double always_flt[] = { 575, 574, 576, 575, 574 };

/* Emulated page tables: the timing row is withheld and says why; the
 * count keeps its verdict; a timing that does not depend on page tables
 * is judged as anywhere. */
static void test_withheld_on_emulated_page_tables(void **state)
{
	struct tb_results r = { 0 };
	struct suite_claim t = claim("usec", "vm,page-tables", "17.3", "faster");
	struct suite_claim n = claim("minflt", "page-tables", "512", "fewer");
	struct suite_claim plain = claim("usec", "vm", "17.3", "faster");
	json_t *o;

	(void)state;
	fx_add_case(&r, "never", "usec", never_us, 5);
	fx_add_case(&r, "always", "usec", always_us, 5);
	fx_add_case(&r, "never", "minflt", never_flt, 5);
	fx_add_case(&r, "always", "minflt", always_flt, 5);
	set_env(&r, platform("PVM", "kernel log: pvm-pv: detected", "bhyve bhyve",
			     "emulated", false));
	o = eval(&t, &r);
	assert_string_equal(str(o, "verdict"), "not measurable");
	assert_non_null(strstr(str(o, "reason"), "page-table writes are emulated "
			       "(PVM: the host shadows"));
	/* What was measured is kept. */
	assert_non_null(strstr(str(o, "measured"), "slower"));
	json_decref(o);
	o = eval(&n, &r);
	assert_string_equal(str(o, "verdict"), "reproduced");
	assert_non_null(strstr(json_string_value(json_array_get(
		json_object_get(o, "caveats"), 0)), "this count is not affected"));
	json_decref(o);
	o = eval(&plain, &r);
	assert_string_equal(str(o, "verdict"), "not reproduced");
	json_decref(o);

	/* The same data where page tables are nested: judged. */
	set_env(&r, platform("KVM", "kernel log: Hypervisor detected: KVM",
			     "KVMKVMKVM", "nested", false));
	o = eval(&t, &r);
	assert_string_equal(str(o, "verdict"), "not reproduced");
	json_decref(o);
	json_decref(t.fields);
	json_decref(n.fields);
	json_decref(plain.fields);
	results_free(&r);
}

static double log_uniform(gsl_rng *g, double lo, double hi)
{
	return exp(log(lo) + gsl_rng_uniform(g) * (log(hi) - log(lo)));
}

/* Runs of the PVM host: each a fresh set of 5 repetitions per side. */
static void test_pvm_runs_hold_still(void **state)
{
	struct suite_claim t = claim("usec", "vm,page-tables", "17.3", "faster");
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	json_t *judged = json_object(), *o;
	unsigned long seed;
	double nv[5], av[5];
	size_t i;

	(void)state;
	for (seed = 1; seed <= 30; seed++) {
		struct tb_results r = { 0 };

		gsl_rng_set(g, seed);
		for (i = 0; i < 5; i++) {
			nv[i] = log_uniform(g, 2000, 85000);
			av[i] = log_uniform(g, 1000, 7000);
		}
		fx_add_case(&r, "never", "usec", nv, 5);
		fx_add_case(&r, "always", "usec", av, 5);
		set_env(&r, platform("PVM", "kernel log: pvm-pv: detected",
				     "bhyve bhyve", "nested", false));
		o = eval(&t, &r);
		json_object_set_new(judged, str(o, "verdict"), json_true());
		json_decref(o);
		set_env(&r, platform("PVM", "kernel log: pvm-pv: detected",
				     "bhyve bhyve", "emulated", false));
		o = eval(&t, &r);
		assert_string_equal(str(o, "verdict"), "not measurable");
		json_decref(o);
		results_free(&r);
	}
	/* Judged as timings, the same host gives more than one verdict. */
	assert_true(json_object_size(judged) >= 2);
	json_decref(judged);
	gsl_rng_free(g);
	json_decref(t.fields);
}

/* Free page reporting's cost is the run's own figure, not a constant. */
static void test_fresh_memory_caveat_measured(void **state)
{
	static const double warm[] = { 22.1, 22.7, 22.4, 22.6, 22.7 };
	struct tb_results r = { 0 };
	struct suite_claim whole = claim("usec", "vm,page-reporting", "1.33", "faster");
	struct tb_case *c;
	const char *id;
	double f;
	json_t *o, *first = json_object();

	(void)state;
	fx_add_case(&r, "never", "usec", never_us, 5);
	fx_add_case(&r, "always", "usec", always_us, 5);
	set_env(&r, platform("KVM", "kernel log: Hypervisor detected: KVM",
			     "KVMKVMKVM", "nested", true));
	assert_int_equal(claims_fresh_factor(&r, &f, &id), -1);
	o = eval(&whole, &r);
	assert_non_null(strstr(json_string_value(json_array_get(json_object_get(
		o, "caveats"), 1)), "this run does not measure"));
	json_decref(o);

	c = fx_add_case(&r, "clear_2M/thp=madvise", "pass1_gbps", warm, 5);
	json_object_set_new(first, "pass1_gbps", json_real(0.5));
	c->extra = json_object();
	json_object_set_new(c->extra, "first_warmup", first);
	assert_int_equal(claims_fresh_factor(&r, &f, &id), 0);
	assert_float_equal(f, 45.0, 0.01);
	assert_string_equal(id, "clear_2M/thp=madvise");
	o = eval(&whole, &r);
	assert_non_null(strstr(json_string_value(json_array_get(json_object_get(
		o, "caveats"), 1)), "costs 45x warm memory's here"));
	json_decref(o);

	/* A whole run that first touch decides: not comparable here. */
	json_object_set_new(whole.fields, "not_comparable_on",
			    json_string("page-reporting"));
	o = eval(&whole, &r);
	assert_string_equal(str(o, "verdict"), "not comparable here");
	assert_non_null(strstr(str(o, "reason"), "45x"));
	json_decref(o);
	set_env(&r, platform("KVM", "kernel log: Hypervisor detected: KVM",
			     "KVMKVMKVM", "nested", false));
	o = eval(&whole, &r);
	assert_string_not_equal(str(o, "verdict"), "not comparable here");
	json_decref(o);
	json_decref(whole.fields);
	results_free(&r);
}

static char *print_table(const struct tb_results *r)
{
	struct suite_claim t = claim("usec", "vm,page-tables", "17.3", "faster");
	json_t *all = claims_evaluate(&t, 1, r);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	claims_print(f, all, r->env);
	fclose(f);
	json_decref(all);
	json_decref(t.fields);
	return buf;
}

/* The header names what the kernel detected, and says why rows are
 * withheld; a cpuid that names another hypervisor is shown as such. */
static void test_header(void **state)
{
	struct tb_results r = { 0 };
	char *out;

	(void)state;
	fx_add_case(&r, "never", "usec", never_us, 5);
	fx_add_case(&r, "always", "usec", always_us, 5);
	set_env(&r, platform("PVM", "kernel log: pvm-pv: detected, 52/52 sites "
			     "patched", "bhyve bhyve", "emulated", false));
	out = print_table(&r);
	assert_non_null(strstr(out, "a VM: PVM (kernel log: pvm-pv: detected, "
			       "52/52 sites patched; cpuid signature 'bhyve "
			       "bhyve', not what the kernel detected)"));
	assert_non_null(strstr(out, "page-table writes are emulated (PVM: the "
			       "host shadows the guest's page tables): timing "
			       "verdicts on page-table-heavy claims are withheld"));
	assert_non_null(strstr(out, "not measurable"));
	assert_null(strstr(out, "bhyve bhyve ("));
	free(out);
	set_env(&r, platform("KVM", "kernel log: Hypervisor detected: KVM",
			     "KVMKVMKVM", "nested", false));
	out = print_table(&r);
	assert_non_null(strstr(out, "a VM: KVM (kernel log: Hypervisor detected: "
			       "KVM; cpuid signature 'KVMKVMKVM')\n"));
	assert_null(strstr(out, "page-table writes are emulated"));
	assert_non_null(strstr(out, "hardware nested paging presumed"));
	free(out);
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_withheld_on_emulated_page_tables),
		cmocka_unit_test(test_pvm_runs_hold_still),
		cmocka_unit_test(test_fresh_memory_caveat_measured),
		cmocka_unit_test(test_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
