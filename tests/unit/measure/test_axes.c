// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mTHP and memory-state axes: suite keys and run options, their
 * FILE:LINE errors, and what the plan expands a case into (ids, dims,
 * knobs, "not measurable here" for a size this kernel lacks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/axes.h"
#include "measure/plan.h"
#include "measure/suite.h"
#include "system/sysctl_knob.h"
#include "util/util.h"

static const char *const path = "axes.conf";

static int parse(const char *text, struct suite *s, char *err, size_t len)
{
	return suite_parse(path, text, strlen(text), s, err, len);
}

static void expect_error(const char *text, const char *fragment)
{
	struct suite s;
	char err[512] = "";

	assert_int_equal(parse(text, &s, err, sizeof(err)), -1);
	if (!strstr(err, fragment))
		fail_msg("error \"%s\" lacks \"%s\"", err, fragment);
}

static void test_keys_parse(void **state)
{
	struct suite s;
	char err[512];

	(void)state;
	assert_int_equal(parse("[suite]\nmthp = 16K,64K\nmemory_state = compacted,fragmented\n"
			       "fragment_share = 0.5\n[case a]\nworkload = /bin/true\n"
			       "mthp = 2M\nmthp_shmem = within_size\n", &s, err, sizeof(err)), 0);
	assert_int_equal(s.axes.nmthp, 2);
	assert_string_equal(s.axes.mthp[1].name, "64K");
	assert_int_equal(s.axes.nmem, 2);
	assert_int_equal(s.axes.mem[1], MEM_FRAGMENTED);
	assert_true(s.axes.fragment_share == 0.5);
	assert_int_equal(s.cases[0].axes.nmthp, 1);
	assert_string_equal(s.cases[0].axes.mthp_shmem, "within_size");
	assert_null(s.cases[0].axes.mem);
	suite_free(&s);
}

static void test_key_errors(void **state)
{
	(void)state;
	expect_error("[suite]\nmthp = 48K\n[case a]\nworkload = x\n",
		     "axes.conf:2: mthp: \"48K\": not an mTHP size");
	expect_error("[suite]\n[case a]\nworkload = x\nmthp = 64K,64K\n",
		     "axes.conf:4: mthp: mTHP choice \"64K\" is listed twice");
	expect_error("[suite]\nmemory_state = fresh,stale\n[case a]\nworkload = x\n",
		     "axes.conf:2: memory_state: \"stale\": not a memory state");
	expect_error("[suite]\nmemory_state = fresh,fresh\n[case a]\nworkload = x\n",
		     "axes.conf:2: memory_state: memory state \"fresh\" is listed twice");
	expect_error("[suite]\nmemory_state = fresh,\n[case a]\nworkload = x\n",
		     "axes.conf:2: memory_state: \"fresh,\" has an empty item");
	expect_error("[suite]\nfragment_share = 1\n[case a]\nworkload = x\n",
		     "axes.conf:2: fragment_share: \"1\" is not a share");
	expect_error("[suite]\nfragment_share = nan\n[case a]\nworkload = x\n",
		     "axes.conf:2: fragment_share");
	expect_error("[suite]\n[case a]\nworkload = x\nmthp_shmem = madvise\n",
		     "axes.conf:4: mthp_shmem: \"madvise\" is not always");
	expect_error("[suite]\n[case a]\nworkload = x\n[claim c]\nkind = ratio\n",
		     "axes.conf:5: kind: \"ratio\" is not factor or level");
}

/* Issue 36's small items: every empty list item refused with the key and
 * line, and a choice of all 17 sizes 8K..512M is no "named twice". */
static void test_empty_items_and_many_sizes(void **state)
{
	struct suite s;
	char err[512];

	(void)state;
	expect_error("[suite]\nmthp = 16K++64K\n[case a]\nworkload = x\n",
		     "axes.conf:2: mthp: an empty size in an mTHP choice");
	expect_error("[suite]\nmthp = +64K\n[case a]\nworkload = x\n",
		     "axes.conf:2: mthp: an empty size");
	expect_error("[suite]\n[case a]\nworkload = x\nmthp = 16K+\n",
		     "axes.conf:4: mthp: an empty size");
	expect_error("[suite]\nmthp = 16K,\n[case a]\nworkload = x\n",
		     "axes.conf:2: mthp: an empty mTHP choice");
	expect_error("[suite]\nmemory_state = ,fresh\n[case a]\nworkload = x\n",
		     "axes.conf:2: memory_state: \",fresh\" has an empty item");
	expect_error("[suite]\nmemory_state = fresh, ,compacted\n[case a]\nworkload = x\n",
		     "axes.conf:2: memory_state: \"fresh, ,compacted\" has an empty item");
	/* thp takes the same comma lists: an empty item is refused too. */
	expect_error("[suite]\nthp = ,always\n[case a]\nworkload = x\n",
		     "axes.conf:2: THP mode list \",always\" has an empty item");
	expect_error("[suite]\n[case a]\nworkload = x\nthp = always,,never\n",
		     "\"always,,never\" has an empty item");
	assert_int_equal(parse("[suite]\nmthp = 8K+16K+32K+64K+128K+256K+512K+1M+2M+4M+8M+16M+32M+64M+128M+256M+512M\n"
			       "[case a]\nworkload = x\n", &s, err, sizeof(err)), 0);
	assert_int_equal(s.axes.mthp[0].n, 17);
	suite_free(&s);
	expect_error("[suite]\nmthp = 16K\n[case a]\nworkload = x\n"
		     "set = transparent_hugepage/hugepages-16kB/enabled=never\n",
		     "axes.conf:3: [case a]: set = transparent_hugepage/hugepages-16kB/enabled conflicts with mthp = 16K of [suite]");
	expect_error("[case a]\nworkload = x\nmthp = 64K\nmthp_shmem = advise\n"
		     "set = transparent_hugepage/hugepages-16kB/shmem_enabled=always\n",
		     "conflicts with mthp = 64K (");
	assert_int_equal(parse("[suite]\n[case a]\nworkload = x\n"
			       "set = transparent_hugepage/hugepages-16kB/enabled=always\n",
			       &s, err, sizeof(err)), 0);
	suite_free(&s);
	assert_int_equal(parse("[suite]\nmthp = 16K\n[case a]\nworkload = x\n"
			       "set = transparent_hugepage/hugepages-16kB/shmem_enabled=always\n",
			       &s, err, sizeof(err)), 0);
	suite_free(&s);
}

static void test_option_keys(void **state)
{
	struct axes a;
	char err[256];

	(void)state;
	axes_init(&a);
	assert_int_equal(axes_key(&a, "memory-state", "fragmented", err, sizeof(err)), 1);
	assert_int_equal(axes_key(&a, "fragment-share", "0.25", err, sizeof(err)), 1);
	assert_int_equal(axes_key(&a, "mthp-shmem", "advise", err, sizeof(err)), 1);
	assert_int_equal(axes_key(&a, "thp", "always", err, sizeof(err)), 0);
	assert_int_equal(axes_key(&a, "mthp", "3K", err, sizeof(err)), -1);
	assert_int_equal(a.nmem, 1);
	assert_true(axes_fragment_share(&a) == 0.25);
	axes_free(&a);
	assert_true(axes_fragment_share(&a) == FRAGMENT_SHARE_DEFAULT);
}

static const struct mthp_size sizes[] = {
	{ .kb = 16, .anon = true, .shmem = true },
	{ .kb = 64, .anon = true, .shmem = true },
	{ .kb = 2048, .anon = true, .shmem = true },
};

static const char *knob(const struct plan_item *it, const char *key)
{
	size_t i;

	for (i = 0; i < it->nknobs; i++)
		if (!strcmp(it->knobs[i].key, key))
			return it->knobs[i].value;
	return NULL;
}

/* Case x mTHP x memory x THP, the command line over the suite. */
static void test_plan_expands(void **state)
{
	struct axes cli;
	struct plan_opts o = { .reps = -1, .warmup = -1, .timeout_s = -1,
			       .current_thp = "madvise", .can_write = true,
			       .axes = &cli, .mthp_sizes = sizes,
			       .nmthp_sizes = ARRAY_SIZE(sizes) };
	struct tb_results r = { 0 };
	struct plan p;
	struct suite s;
	char err[256];

	(void)state;
	axes_init(&cli);
	assert_int_equal(axes_key(&cli, "mthp", "64K,1M", err, sizeof(err)), 1);
	assert_int_equal(parse("[suite]\nthp = always,never\nmthp = 16K\n"
			       "memory_state = compacted,fragmented\n"
			       "[case a]\nworkload = /bin/true\n",
			       &s, err, sizeof(err)), 0);
	plan_build(&s, &o, &p, &r);
	assert_int_equal(p.n, 8);
	assert_string_equal(r.cases[0].id, "a/mthp=64K/mem=compacted/thp=always");
	assert_string_equal(r.cases[3].id, "a/mthp=64K/mem=fragmented/thp=never");
	assert_string_equal(r.cases[4].id, "a/mthp=1M/mem=compacted/thp=always");
	assert_string_equal(json_string_value(json_object_get(r.cases[0].dims, "mthp")), "64K");
	assert_string_equal(json_string_value(json_object_get(r.cases[3].dims, "mem")),
			    "fragmented");
	assert_true(p.items[0].has_mthp && p.items[0].has_mem);
	assert_int_equal(p.items[3].mem, MEM_FRAGMENTED);
	assert_true(p.items[3].fragment_share == FRAGMENT_SHARE_DEFAULT);
	assert_string_equal(knob(&p.items[0], "transparent_hugepage/hugepages-64kB/enabled"),
			    "always");
	assert_string_equal(knob(&p.items[1], "transparent_hugepage/hugepages-64kB/enabled"),
			    "never");
	assert_string_equal(knob(&p.items[0], "transparent_hugepage/hugepages-2048kB/enabled"),
			    "never");
	/* Every other size off (a case's own set of it is refused). */
	assert_string_equal(knob(&p.items[0], "transparent_hugepage/hugepages-16kB/enabled"),
			    "never");
	assert_null(knob(&p.items[0], "transparent_hugepage/hugepages-64kB/shmem_enabled"));
	assert_string_equal(json_string_value(json_object_get(r.cases[0].settings,
				"transparent_hugepage/hugepages-64kB/enabled")), "always");
	assert_true(r.cases[0].expect_huge);
	assert_false(r.cases[1].expect_huge);
	assert_null(p.items[0].skip);
	assert_non_null(p.items[4].skip);
	assert_true(p.items[4].unsupported);
	assert_non_null(strstr(p.items[4].skip, "this kernel has no 1M"));
	assert_non_null(json_object_get(r.cases[4].extra, "unsupported"));
	plan_free(&p);
	results_free(&r);
	suite_free(&s);
	axes_free(&cli);
}

/*
 * Only a fragmented case stops proactive compaction, and only where the
 * knob can be set; it is one of the case's recorded settings.
 */
static void test_plan_fragmented_stops_proactive(void **state)
{
	struct plan_opts o = { .reps = -1, .warmup = -1, .timeout_s = -1,
			       .current_thp = "madvise", .can_write = true,
			       .mthp_sizes = sizes, .nmthp_sizes = ARRAY_SIZE(sizes) };
	const char *text = "[suite]\nmemory_state = fresh,compacted,fragmented\n"
			   "[case a]\nworkload = /bin/true\n";
	struct tb_results r;
	struct plan p;
	struct suite s;
	char err[256];
	int round;

	(void)state;
	for (round = 0; round < 2; round++) {
		o.stop_proactive = round == 0;
		memset(&r, 0, sizeof(r));
		assert_int_equal(parse(text, &s, err, sizeof(err)), 0);
		plan_build(&s, &o, &p, &r);
		assert_int_equal(p.n, 3);
		assert_int_equal(p.items[2].mem, MEM_FRAGMENTED);
		assert_null(knob(&p.items[0], SYSCTL_PROACTIVENESS));
		assert_null(knob(&p.items[1], SYSCTL_PROACTIVENESS));
		if (o.stop_proactive) {
			assert_string_equal(knob(&p.items[2], SYSCTL_PROACTIVENESS), "0");
			assert_string_equal(json_string_value(json_object_get(
				r.cases[2].settings, SYSCTL_PROACTIVENESS)), "0");
		} else {
			assert_null(knob(&p.items[2], SYSCTL_PROACTIVENESS));
		}
		plan_free(&p);
		results_free(&r);
		suite_free(&s);
	}
}

/* The plan of suite text, as root (can_write) or not, without run options. */
static void plan_of(const char *text, bool can_write, struct suite *s,
		    struct plan *p, struct tb_results *r)
{
	struct plan_opts o = { .reps = -1, .warmup = -1, .timeout_s = -1,
			       .current_thp = "madvise", .can_write = can_write,
			       .mthp_sizes = sizes, .nmthp_sizes = ARRAY_SIZE(sizes) };
	char err[256];

	memset(r, 0, sizeof(*r));
	assert_int_equal(parse(text, s, err, sizeof(err)), 0);
	plan_build(s, &o, p, r);
}

/* A choice's own mode decides what is expected; not root skips states. */
static void test_plan_modes_and_not_root(void **state)
{
	struct tb_results r;
	struct plan p;
	struct suite s;

	(void)state;
	plan_of("[suite]\nthp = current\nmemory_state = fresh,compacted\n"
		"[case a]\nworkload = /bin/true\nmthp = 64K=always\n", false, &s, &p, &r);
	assert_int_equal(p.n, 2);
	assert_string_equal(r.cases[0].id, "a/mthp=64K=always/mem=fresh/thp=madvise");
	assert_true(r.cases[0].expect_huge);
	assert_non_null(p.items[0].skip);	/* sets an mTHP knob */
	assert_non_null(strstr(p.items[1].skip, "memory cannot be compacted"));
	plan_free(&p);
	results_free(&r);
	suite_free(&s);
}

/* Without any axis nothing changes: ids and knobs as before. */
static void test_plan_without_axes(void **state)
{
	struct tb_results r;
	struct plan p;
	struct suite s;

	(void)state;
	plan_of("[suite]\nthp = never\n[case a]\nworkload = /bin/true\n", true, &s, &p, &r);
	assert_int_equal(p.n, 1);
	assert_string_equal(r.cases[0].id, "a/thp=never");
	assert_null(r.cases[0].dims);
	assert_int_equal(p.items[0].nknobs, 1);
	assert_false(p.items[0].has_mthp || p.items[0].has_mem);
	plan_free(&p);
	results_free(&r);
	suite_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_parse),
		cmocka_unit_test(test_key_errors),
		cmocka_unit_test(test_empty_items_and_many_sizes),
		cmocka_unit_test(test_option_keys),
		cmocka_unit_test(test_plan_expands),
		cmocka_unit_test(test_plan_fragmented_stops_proactive),
		cmocka_unit_test(test_plan_modes_and_not_root),
		cmocka_unit_test(test_plan_without_axes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
