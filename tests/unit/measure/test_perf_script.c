// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf_script: the reader of `perf script -F comm,tid,ip,sym,dso` output
 * with call chains. Self and total shares with exact counts, recursion
 * counted once in total, kernel frames told from user ones, folded
 * stacks root first, hostile lines skipped and counted, metric names
 * sanitised, and the metrics prof_to_metrics stores (floor, limit).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/perf_script.h"

static FILE *text(const char *s)
{
	FILE *f = fmemopen((void *)s, strlen(s), "r");

	assert_non_null(f);
	return f;
}

static const struct prof_fn *fn(const struct prof_data *pd, const char *name,
				bool kernel)
{
	size_t i;

	for (i = 0; i < pd->nfn; i++)
		if (pd->fn[i].kernel == kernel && !strcmp(pd->fn[i].name, name))
			return &pd->fn[i];
	return NULL;
}

/* Three samples: two in the kernel under a user caller, one user-only. */
static const char three[] =
	"prof_split  4242 \n"
	"\tffffffff8125a0c0 move_huge_pmd ([kernel.kallsyms])\n"
	"\tffffffff81259000 move_page_tables ([kernel.kallsyms])\n"
	"\t            1234 main (/w/prof_split)\n"
	"\n"
	"prof_split  4242 \n"
	"\tffffffff81259abc __split_huge_pmd ([kernel.kallsyms])\n"
	"\tffffffff81259000 move_page_tables ([kernel.kallsyms])\n"
	"\t            1234 main (/w/prof_split)\n"
	"\n"
	"prof_split  4242 \n"
	"\t            1300 std::map<int, int>::find(int const&) (/w/prof_split)\n"
	"\t            1234 main (/w/prof_split)\n"
	"\n";

static void test_self_total(void **state)
{
	struct prof_data pd = { 0 };
	FILE *f = text(three);
	const struct prof_fn *x;

	(void)state;
	assert_int_equal(perf_script_read(f, &pd), 0);
	fclose(f);
	assert_int_equal(pd.samples, 3);
	assert_int_equal(pd.bad_lines, 0);
	x = fn(&pd, "move_huge_pmd", true);
	assert_non_null(x);
	assert_int_equal(x->self, 1);
	assert_int_equal(x->total, 1);
	x = fn(&pd, "move_page_tables", true);
	assert_int_equal(x->self, 0);
	assert_int_equal(x->total, 2);
	x = fn(&pd, "main", false);
	assert_int_equal(x->self, 0);
	assert_int_equal(x->total, 3);
	assert_null(fn(&pd, "main", true));
	x = fn(&pd, "std::map<int, int>::find(int const&)", false);
	assert_non_null(x);
	assert_int_equal(x->self, 1);
	prof_data_free(&pd);
}

static void test_recursion_counted_once(void **state)
{
	static const char rec[] =
		"a 1\n\t10 fib (/x)\n\t10 fib (/x)\n\t10 fib (/x)\n\t20 main (/x)\n\n";
	struct prof_data pd = { 0 };
	FILE *f = text(rec);

	(void)state;
	perf_script_read(f, &pd);
	fclose(f);
	assert_int_equal(fn(&pd, "fib", false)->total, 1);
	assert_int_equal(fn(&pd, "fib", false)->self, 1);
	prof_data_free(&pd);
}

static void test_folded(void **state)
{
	struct prof_data pd = { 0 };
	FILE *f = text(three), *o;
	char buf[2048] = "";

	(void)state;
	perf_script_read(f, &pd);
	fclose(f);
	o = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(prof_write_folded(&pd, o), 0);
	fclose(o);
	assert_non_null(strstr(buf, "main;move_page_tables_[k];move_huge_pmd_[k] 1\n"));
	assert_non_null(strstr(buf, "main;move_page_tables_[k];__split_huge_pmd_[k] 1\n"));
	/* Spaces inside a symbol would split the "STACK COUNT" line. */
	assert_non_null(strstr(buf, "main;std::map<int,_int>::find(int_const&) 1\n"));
	prof_data_free(&pd);
}

static void test_hostile(void **state)
{
	char *big = malloc(3 * PERF_LINE_MAX);
	static const char bad[] =
		"\tffff orphan (/x)\n"			/* a frame before any header */
		"x 1\n"
		"\tnothex sym (/x)\n"			/* not an address */
		"\tffff nodso\n"			/* no "(dso)" */
		"\tffff  ([kernel.kallsyms])\n"		/* no symbol */
		"\tffff ok (/x)\n"
		"\n";
	struct prof_data pd = { 0 };
	FILE *f;
	size_t n;

	(void)state;
	f = text(bad);
	perf_script_read(f, &pd);
	fclose(f);
	assert_int_equal(pd.samples, 1);
	assert_int_equal(pd.bad_lines, 4);
	assert_int_equal(fn(&pd, "ok", false)->self, 1);
	prof_data_free(&pd);

	/* A line longer than the buffer: skipped whole, once. */
	n = (size_t)sprintf(big, "x 1\n\tffff ");
	memset(big + n, 'A', 2 * PERF_LINE_MAX);
	strcpy(big + n + 2 * PERF_LINE_MAX, " (/x)\n\tffff tail (/x)\n\n");
	f = text(big);
	perf_script_read(f, &pd);
	fclose(f);
	assert_int_equal(pd.bad_lines, 1);
	assert_int_equal(pd.samples, 1);
	assert_int_equal(fn(&pd, "tail", false)->self, 1);
	prof_data_free(&pd);
	free(big);
}

static void test_metric_names(void **state)
{
	char buf[160];

	(void)state;
	prof_metric_name(buf, sizeof(buf), "self", true, "move_huge_pmd");
	assert_string_equal(buf, "prof.self.k:move_huge_pmd");
	prof_metric_name(buf, sizeof(buf), "total", false, "a b;$(rm -rf)`x`");
	assert_string_equal(buf, "prof.total.u:a_b_$_rm__rf__x_");
	assert_true(prof_is_metric("prof.samples"));
	assert_false(prof_is_metric("roi_usec"));
}

static double value(const struct metric_set *ms, const char *name)
{
	const struct metric *m = metric_set_find(ms, name);

	return m ? m->value : -1;
}

static void test_to_metrics(void **state)
{
	struct prof_data pd = { 0 };
	struct metric_set ms = { 0 };
	FILE *f = text(three);

	(void)state;
	perf_script_read(f, &pd);
	fclose(f);
	prof_to_metrics(&pd, &ms, 0.5, 40);
	assert_true(value(&ms, "prof.samples") == 3);
	assert_true(value(&ms, "prof.total.u:main") == 100);
	assert_true(value(&ms, "prof.self.u:main") == 0);
	assert_true(value(&ms, "prof.self.k:move_huge_pmd") > 33.3 &&
		    value(&ms, "prof.self.k:move_huge_pmd") < 33.4);
	metric_set_free(&ms);
	/* At most 1 function: the largest total (main) only. */
	prof_to_metrics(&pd, &ms, 0.5, 1);
	assert_true(value(&ms, "prof.total.u:main") == 100);
	assert_true(value(&ms, "prof.total.k:move_page_tables") < 0);
	metric_set_free(&ms);
	/* A floor above every share but main's. */
	prof_to_metrics(&pd, &ms, 70, 40);
	assert_true(value(&ms, "prof.total.k:move_page_tables") < 0);
	assert_true(value(&ms, "prof.total.u:main") == 100);
	metric_set_free(&ms);
	prof_data_free(&pd);
}

static void test_empty(void **state)
{
	struct prof_data pd = { 0 };
	struct metric_set ms = { 0 };
	FILE *f = text("\n\n");

	(void)state;
	perf_script_read(f, &pd);
	fclose(f);
	prof_to_metrics(&pd, &ms, 0.5, 40);
	assert_int_equal(ms.n, 1);
	assert_true(value(&ms, "prof.samples") == 0);
	metric_set_free(&ms);
	prof_data_free(&pd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self_total),
		cmocka_unit_test(test_recursion_counted_once),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_to_metrics),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
