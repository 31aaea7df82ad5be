// SPDX-License-Identifier: GPL-2.0-only
/*
 * Level claims (kind = level: where two cases sit, e.g. 004's remote
 * share ~0.5 under always and ~0 under never), needs = numa / numa-nodes
 * on emulated nodes, and the table lines for per-thread details and the
 * source of the claimed figures.
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
#include "claims_fx.h"
#include "util/util.h"

/* A case with n runs: remote_share = v[i], per thread t0 = v[i] - d,
 * t1 = v[i] + d. */
static void add_case(struct tb_results *r, const char *id, const double *v,
		     size_t n, double d)
{
	double t0[8], t1[8];
	size_t i;

	assert_true(n <= 8);
	for (i = 0; i < n; i++) {
		t0[i] = v[i] - d;
		t1[i] = v[i] + d;
	}
	fx_add_case(r, id, "remote_share", v, n);
	fx_add_case(r, id, "remote_share.t0", t0, n);
	fx_add_case(r, id, "remote_share.t1", t1, n);
}

static struct suite_claim claim(const char *needs, const char *within)
{
	struct suite_claim cl = { .id = "004-numa", .fields = json_object() };

	json_object_set_new(cl.fields, "metric", json_string("remote_share"));
	json_object_set_new(cl.fields, "base", json_string("i/thp=always"));
	json_object_set_new(cl.fields, "new", json_string("i/thp=never"));
	json_object_set_new(cl.fields, "kind", json_string("level"));
	json_object_set_new(cl.fields, "claimed_value", json_string("0.5"));
	json_object_set_new(cl.fields, "claimed_new", json_string("0"));
	json_object_set_new(cl.fields, "per", json_string("remote_share.t*"));
	json_object_set_new(cl.fields, "source", json_string("the RFC"));
	if (within)
		json_object_set_new(cl.fields, "within", json_string(within));
	if (needs)
		json_object_set_new(cl.fields, "needs", json_string(needs));
	return cl;
}

/* Evaluate on nodes NUMA nodes (numa=fake when emulated). */
static json_t *judge(const double *always, const double *never, size_t n,
		     const char *needs, const char *within, int nodes,
		     bool emulated, struct tb_results *keep)
{
	struct tb_results r = { .env = json_object() };
	struct suite_claim cl = claim(needs, within);
	json_t *out;

	json_object_set_new(r.env, "numa_nodes", json_integer(nodes));
	json_object_set_new(r.env, "cmdline", json_string(emulated ?
			    "console=ttyS0 numa=fake=2 thpbench.label=x" : "quiet"));
	add_case(&r, "i/thp=always", always, n, 0.02);
	add_case(&r, "i/thp=never", never, n, 0);
	out = claims_evaluate(&cl, 1, &r);
	json_decref(cl.fields);
	if (keep)
		*keep = r;
	else
		results_free(&r);
	return out;
}

static const char *field(json_t *out, const char *key)
{
	const char *s = json_string_value(json_object_get(json_array_get(out, 0), key));

	return s ? s : "";
}

static const double half[] = { 0.49, 0.51, 0.50, 0.48, 0.52 };
static const double none[] = { 0, 0, 0, 0, 0 };
static const double few[] = { 0.01, 0.0, 0.02, 0.01, 0.0 };
static const double quarter[] = { 0.25, 0.24, 0.26, 0.25, 0.25 };
static const double edge[] = { 0.30, 0.40, 0.35, 0.25, 0.45 };

static void test_reproduced(void **state)
{
	json_t *out;

	(void)state;
	out = judge(half, none, 5, "numa-nodes", NULL, 2, true, NULL);
	assert_string_equal(field(out, "verdict"), "reproduced");
	assert_non_null(strstr(field(out, "measured"), "0.50 ["));
	assert_int_equal(json_array_size(json_object_get(json_array_get(out, 0), "details")), 2);
	json_decref(out);
	out = judge(half, few, 5, "numa-nodes", NULL, 2, false, NULL);
	assert_string_equal(field(out, "verdict"), "reproduced");
	json_decref(out);
}

static void test_not_reproduced(void **state)
{
	json_t *out;

	(void)state;
	/* a quarter is outside 0.5 +- 0.15 */
	out = judge(quarter, none, 5, NULL, NULL, 2, true, NULL);
	assert_string_equal(field(out, "verdict"), "not reproduced");
	assert_non_null(strstr(field(out, "reason"), "i/thp=always"));
	assert_non_null(strstr(field(out, "reason"), "lies outside"));
	json_decref(out);
	/* never as remote as always: the new case is off its band */
	out = judge(half, half, 5, NULL, NULL, 2, true, NULL);
	assert_string_equal(field(out, "verdict"), "not reproduced");
	assert_non_null(strstr(field(out, "reason"), "i/thp=never"));
	json_decref(out);
	/* a wider band takes the quarter in */
	out = judge(quarter, none, 5, NULL, "0.3", 2, true, NULL);
	assert_string_equal(field(out, "verdict"), "reproduced");
	json_decref(out);
}

static void test_inconclusive(void **state)
{
	json_t *out;

	(void)state;
	out = judge(edge, none, 5, NULL, NULL, 2, true, NULL);
	assert_string_equal(field(out, "verdict"), "inconclusive");
	assert_non_null(strstr(field(out, "reason"), "straddles"));
	json_decref(out);
}

static void test_needs(void **state)
{
	json_t *out;

	(void)state;
	/* one node: placement cannot show */
	out = judge(none, none, 5, "numa-nodes", NULL, 1, false, NULL);
	assert_string_equal(field(out, "verdict"), "not measurable");
	assert_non_null(strstr(field(out, "reason"), "at least 2 NUMA nodes"));
	json_decref(out);
	/* emulated nodes: placement yes, timing (needs = numa) no */
	out = judge(half, none, 5, "numa", NULL, 2, true, NULL);
	assert_string_equal(field(out, "verdict"), "not measurable");
	assert_non_null(strstr(field(out, "reason"), "emulated"));
	json_decref(out);
	out = judge(half, none, 5, "numa", NULL, 2, false, NULL);
	assert_string_equal(field(out, "verdict"), "reproduced");
	json_decref(out);
	/* too few runs */
	out = judge(half, none, 2, NULL, NULL, 2, true, NULL);
	assert_string_equal(field(out, "verdict"), "not measurable");
	json_decref(out);
}

static void test_bad_fields(void **state)
{
	struct tb_results r = { .env = json_object() };
	struct suite_claim cl = claim(NULL, "-1");
	json_t *out;

	(void)state;
	add_case(&r, "i/thp=always", half, 5, 0);
	add_case(&r, "i/thp=never", none, 5, 0);
	out = claims_evaluate(&cl, 1, &r);
	assert_string_equal(field(out, "verdict"), "not measurable");
	assert_non_null(strstr(field(out, "reason"), "positive within"));
	json_decref(out);
	json_object_del(cl.fields, "within");
	json_object_del(cl.fields, "claimed_new");
	out = claims_evaluate(&cl, 1, &r);
	assert_string_equal(field(out, "verdict"), "not measurable");
	json_decref(out);
	json_decref(cl.fields);
	results_free(&r);
}

/* The row, the per-thread lines, the source and the emulated-NUMA header. */
static void test_printed(void **state)
{
	struct tb_results r;
	char *text = NULL;
	size_t len = 0;
	json_t *out = judge(half, none, 5, "numa-nodes", NULL, 2, true, &r);
	FILE *f = open_memstream(&text, &len);

	(void)state;
	claims_print(f, out, r.env);
	fclose(f);
	assert_non_null(strstr(text, "004-numa"));
	assert_non_null(strstr(text, "reproduced"));
	assert_non_null(strstr(text, "i/thp=always: t0 0.48 t1 0.52"));
	assert_non_null(strstr(text, "i/thp=never: t0 0.00 t1 0.00"));
	assert_non_null(strstr(text, "source: the RFC"));
	assert_non_null(strstr(text, "NUMA nodes emulated (numa=fake)"));
	free(text);
	json_decref(out);
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reproduced),
		cmocka_unit_test(test_not_reproduced),
		cmocka_unit_test(test_inconclusive),
		cmocka_unit_test(test_needs),
		cmocka_unit_test(test_bad_fields),
		cmocka_unit_test(test_printed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
