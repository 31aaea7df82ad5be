// SPDX-License-Identifier: GPL-2.0-only
/* Suite files: what parses, and the FILE:LINE errors for what does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/plan.h"
#include "measure/suite.h"
#include "util/util.h"

static char tmpl[64];

static const char *write_conf(const char *text)
{
	FILE *f;
	int fd;

	snprintf(tmpl, sizeof(tmpl), "/tmp/thpbench-suite-XXXXXX");
	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return tmpl;
}

static int load(const char *text, struct suite *s, char *err, size_t len)
{
	int rc = suite_load(write_conf(text), s, err, len);

	unlink(tmpl);
	return rc;
}

static void expect_error(const char *text, const char *fragment)
{
	struct suite s;
	char err[512] = "", want[600];

	assert_int_equal(load(text, &s, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:%s", tmpl, fragment);
	if (!strstr(err, want))
		fail_msg("error \"%s\" lacks \"%s\"", err, want);
}

static void test_good_suite(void **state)
{
	struct suite s;
	char err[512];
	const char *text =
		"[suite]\nname = q\nrepetitions = 7\nwarmup = 2\ntimeout = 30\n"
		"events = page-faults,tlb:tlb_flush\nthp = always,never\n"
		"order = shuffle\nseed = 42\n"
		"[case m]\nworkload = mremap\nargs = --size 1G --label 'a b'\n"
		"env = GLIBC_TUNABLES=glibc.malloc.hugetlb=1\n"
		"env = FOO=bar\nhugetlb.2048kB = 16\n"
		"set = transparent_hugepage/defrag = always\n"
		"expect_huge = no\nbetter.gbps = higher\nthreshold.gbps = 5%\n"
		"[claim 000]\nposting = 000\nmetric = roi_usec\n";

	(void)state;
	assert_int_equal(load(text, &s, err, sizeof(err)), 0);
	assert_string_equal(s.name, "q");
	assert_int_equal(s.repetitions, 7);
	assert_int_equal(s.warmup, 2);
	assert_true(s.timeout_s == 30);
	assert_string_equal(s.order, "shuffle");
	assert_true(s.seed_set && s.seed == 42);
	assert_int_equal(s.nthp, 2);
	assert_string_equal(s.thp[1], "never");
	assert_int_equal(s.ncases, 1);
	assert_int_equal(s.cases[0].nargs, 4);
	assert_string_equal(s.cases[0].args[3], "a b");
	assert_int_equal(s.cases[0].nenv, 2);
	assert_int_equal(s.cases[0].nset, 2);
	assert_string_equal(s.cases[0].set[0].key,
			    "hugepages/hugepages-2048kB/nr_hugepages");
	assert_string_equal(s.cases[0].set[0].value, "16");
	assert_string_equal(s.cases[0].set[1].key, "transparent_hugepage/defrag");
	assert_string_equal(s.cases[0].set[1].value, "always");
	assert_int_equal(s.cases[0].expect_huge, EXPECT_NO);
	assert_int_equal(s.cases[0].line, 10);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		json_object_get(s.cases[0].extra, "metric"), "gbps"), "better")),
		"higher");
	assert_true(json_real_value(json_object_get(json_object_get(
		json_object_get(s.cases[0].extra, "metric"), "gbps"),
		"threshold")) == 0.05);
	assert_int_equal(s.nclaims, 1);
	assert_string_equal(json_string_value(json_object_get(s.claims[0].fields,
							      "metric")), "roi_usec");
	suite_free(&s);
}

/* The sysctl knobs thpbench manages can be set by a case like mm knobs. */
static void test_set_sysctl(void **state)
{
	struct suite s;
	char err[512];

	(void)state;
	assert_int_equal(load("[case v]\nworkload = x\n"
			      "set = vm/hugetlb_optimize_vmemmap = 1\n",
			      &s, err, sizeof(err)), 0);
	assert_int_equal(s.cases[0].nset, 1);
	assert_string_equal(s.cases[0].set[0].key, "vm/hugetlb_optimize_vmemmap");
	assert_string_equal(s.cases[0].set[0].value, "1");
	suite_free(&s);
	assert_int_equal(load("[case v]\nworkload = x\nset = kernel/numa_balancing=1\n",
			      &s, err, sizeof(err)), 0);
	assert_string_equal(s.cases[0].set[0].key, "kernel/numa_balancing");
	suite_free(&s);
}

static void test_defaults(void **state)
{
	struct suite s;
	char err[256];

	(void)state;
	assert_int_equal(load("[case x]\nworkload = true\n", &s, err, sizeof(err)), 0);
	assert_int_equal(s.repetitions, 5);
	assert_int_equal(s.warmup, 1);
	assert_string_equal(s.order, "interleave");
	assert_null(s.thp);
	assert_int_equal(s.cases[0].repetitions, -1);
	assert_false(s.background);
	assert_false(s.cases[0].drop_slab);
	suite_free(&s);
	assert_int_equal(load("[suite]\nbackground = yes\n[case x]\nworkload = true\n", &s, err, sizeof(err)), 0);
	assert_true(s.background);
	suite_free(&s);
	assert_int_equal(load("[case x]\nworkload = true\ndrop_slab = yes\n"
			      "[case y]\nworkload = true\ndrop_slab = no\n", &s, err, sizeof(err)), 0);
	assert_true(s.cases[0].drop_slab);
	assert_false(s.cases[1].drop_slab);
	suite_free(&s);
}

static void test_unknown_key(void **state)
{
	(void)state;
	expect_error("[suite]\nrepetitions = 3\n\n[case a]\nworkload = x\ncolour = red\n",
		     "6: unknown key \"colour\" in [case a]");
	expect_error("[suite]\nspeed = 3\n", "2: unknown key \"speed\" in [suite]");
	/* better.METRIC and threshold.METRIC without the dot or the metric */
	expect_error("[case a]\nworkload = x\nbetter = lower\n",
		     "3: unknown key \"better\" in [case a]");
	expect_error("[case a]\nworkload = x\nthreshold = 5%\n",
		     "3: unknown key \"threshold\" in [case a]");
	expect_error("[case a]\nworkload = x\nthreshold. = 5%\n",
		     "3: unknown key \"threshold.\" in [case a]");
	expect_error("[case a]\nworkload = x\nbetterx.gbps = lower\n",
		     "3: unknown key \"betterx.gbps\" in [case a]");
}

/* swap, mount, memcg (case_res.h): kept as written when they are specs,
 * else the line's error; nothing but huge= and size= reaches mount(2). */
static void test_resource_keys(void **state)
{
	struct suite s;
	char err[512];

	(void)state;
	assert_int_equal(load("[case a]\nworkload = x\nswap = zram:256M:lz4\n"
			      "mount = tmpfs:huge=within_size,size=64M\nmemcg = 256M\n"
			      "[case b]\nworkload = x\nswap = zram\nmount = xfs:512M\n",
			      &s, err, sizeof(err)), 0);
	assert_string_equal(s.cases[0].swap, "zram:256M:lz4");
	assert_string_equal(s.cases[0].mount, "tmpfs:huge=within_size,size=64M");
	assert_string_equal(s.cases[0].memcg, "256M");
	assert_string_equal(s.cases[1].swap, "zram");
	assert_null(s.cases[1].memcg);
	suite_free(&s);
	expect_error("[case a]\nworkload = x\nswap = zswap\n", "3: swap: \"zswap\" is not zram");
	expect_error("[case a]\nworkload = x\nswap = zram:1k\n", "3: swap: \"1k\" is not a size");
	expect_error("[case a]\nworkload = x\nswap = zram:1G:lz4;reboot\n", "3: swap: compressor");
	expect_error("[case a]\nworkload = x\nmount = tmpfs:huge=always,uid=0\n",
		     "3: mount: tmpfs option \"uid=0\"");
	expect_error("[case a]\nworkload = x\nmount = tmpfs:huge=sometimes\n",
		     "3: mount: tmpfs option \"huge=sometimes\"");
	expect_error("[case a]\nworkload = x\nmount = btrfs:1G\n", "3: mount: \"btrfs:1G\"");
	expect_error("[case a]\nworkload = x\nmount = xfs:256M\n", "3: mount: an xfs image");
	expect_error("[case a]\nworkload = x\nmemcg = lots\n", "3: memcg: \"lots\"");
	expect_error("[case a]\nworkload = x\nzswap = yes\n", "3: zswap: \"yes\" is not on or off");
	expect_error("[case a]\nworkload = x\ndrop_slab = 2\n", "3: drop_slab: \"2\" is not yes or no");
}

static void test_bad_numbers(void **state)
{
	(void)state;
	expect_error("[suite]\nrepetitions = many\n", "2: repetitions: \"many\"");
	expect_error("[suite]\nrepetitions = -1\n", "2: repetitions");
	expect_error("[suite]\ntimeout = 5s\n", "2: timeout");
	expect_error("[case a]\nworkload = x\nhugetlb.2048kB = lots\n",
		     "3: hugetlb.2048kB");
	expect_error("[case a]\nworkload = x\nthreshold.gbps = 150%\n",
		     "3: threshold.gbps");
}

static void test_missing_section(void **state)
{
	(void)state;
	expect_error("repetitions = 3\n[case a]\nworkload = x\n",
		     "1: \"repetitions\" is outside any section");
	expect_error("[suite]\n[bench]\nx = 1\n", "3: unknown section [bench]");
}

static void test_semantic_errors(void **state)
{
	(void)state;
	expect_error("[suite]\nthp = always,sometimes\n", "2: unknown THP mode \"sometimes\"");
	expect_error("[case a]\nworkload = x\nset = ../../etc/passwd=1\n", "3: set: knob");
	expect_error("[case a]\nworkload = x\nset = kernel/foo=1\n", "3: set: knob");
	/* sysctl knobs: only the managed ones, by their whole name */
	expect_error("[case a]\nworkload = x\nset = vm/drop_caches=3\n", "3: set: knob");
	expect_error("[case a]\nworkload = x\nset = vm/hugetlb_optimize_vmemmap/../x=1\n",
		     "3: set: knob");
	expect_error("[case a]\nworkload = x\nargs = 'unbalanced\n", "3: args");
	/* a second args line that fails once freed the first twice */
	expect_error("[case a]\nworkload = x\nargs = -a b\nargs = 'x\n", "4: args");
	expect_error("[case a]\nworkload = x\nexpect_huge = maybe\n", "3: expect_huge");
	expect_error("[suite]\norder = random\n", "2: order");
	expect_error("[suite]\nbackground = maybe\n", "2: background: \"maybe\" is not yes or no");
	expect_error("[suite]\nrepetitions = 2\n\n[case lonely]\nargs = -x\n",
		     "4: [case lonely] has no \"workload\"");
}

/* What the parser once accepted silently, each a FILE:LINE error now. */
static void test_silent_acceptance(void **state)
{
	char text[1024], longv[300];
	struct suite s;
	char err[512];
	FILE *f;

	(void)state;
	expect_error("[case a]\nworkload = x\nthreshold.gbps = abc%\n", "3: threshold.gbps");
	expect_error("[case a]\nworkload = x\n\n[case a]\nargs = -y\n",
		     "4: [case a] appears twice (first at line 1)");
	expect_error("[case a]\n[case a]\nworkload = x\n", "2: [case a] appears twice");
	expect_error("[case a]\nworkload = x\nargs = -v # verbose\n", "3: args");
	expect_error("[suite]\nrepetitions = 0\n", "2: repetitions");
	expect_error("[case a]\nworkload = x\nrepetitions = 0\n", "3: repetitions");
	expect_error("[case a]\nworkload = x\nhugetlb.4kB = 1\n", "3: hugetlb.4kB");
	expect_error("[case a]\nworkload = x\nhugetlb.3000kB = 1\n", "3: hugetlb.3000kB");
	expect_error("[suite]\nthp = always,always\n", "2: THP mode \"always\" is listed twice");
	expect_error("[suite]\nevents = ,,,\n", "2: events");
	expect_error("[suite]\nevents = page-faults,,tlb:tlb_flush\n", "2: events");
	memset(longv, 'x', 250);
	longv[250] = '\0';
	snprintf(text, sizeof(text), "[case a]\nworkload = x\nargs = %s\n", longv);
	expect_error(text, "3: the line is 257 characters long");
	snprintf(text, sizeof(text), "[case %.60s]\nworkload = x\n", longv);
	expect_error(text, "1: the section name");
	/* a NUL byte cut the value short */
	snprintf(tmpl, sizeof(tmpl), "/tmp/thpbench-suite-XXXXXX");
	f = fdopen(mkstemp(tmpl), "w");
	fwrite("[case a]\nworkload = x\0y\n", 1, 25, f);
	fclose(f);
	assert_int_equal(suite_load(tmpl, &s, err, sizeof(err)), -1);
	unlink(tmpl);
	assert_non_null(strstr(err, ":2: a NUL byte"));
	/* still fine: 0 warm-ups, '#' inside a word, a 199-character line */
	memset(longv, 'x', 199 - 8);
	longv[199 - 8] = '\0';
	snprintf(text, sizeof(text), "[suite]\nwarmup = 0\n[case a]\nworkload = x\n"
		 "args = --tag=a#1\nthreshold.gbps = 5 %%\nlabel = %s\n", longv);
	if (load(text, &s, err, sizeof(err)))
		fail_msg("%s", err);
	suite_free(&s);
}

static void test_split_args(void **state)
{
	char **v;
	size_t n;

	(void)state;
	assert_int_equal(split_args("  -a  \"b c\" d'e f'g ", &v, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[0], "-a");
	assert_string_equal(v[1], "b c");
	assert_string_equal(v[2], "de fg");
	free_strv(v, n);
	assert_int_equal(split_args("a \"b", &v, &n), -1);
}

static void test_plan_expands_modes(void **state)
{
	struct plan_opts o = { .reps = -1, .warmup = -1, .timeout_s = -1,
			       .current_thp = "madvise", .can_write = true };
	struct tb_results r = { 0 };
	struct plan p;
	struct suite s;
	char err[256];

	(void)state;
	assert_int_equal(load("[suite]\nthp = always,never\nrepetitions = 4\n"
			      "[case a]\nworkload = /bin/true\nhugetlb.2048kB = 8\n"
			      "[case b]\nworkload = /bin/true\nthp = current\nrepetitions = 2\n",
			      &s, err, sizeof(err)), 0);
	plan_build(&s, &o, &p, &r);
	assert_int_equal(p.n, 3);
	assert_string_equal(r.cases[0].id, "a/thp=always");
	assert_string_equal(r.cases[1].id, "a/thp=never");
	assert_string_equal(r.cases[2].id, "b/thp=madvise");
	assert_int_equal(p.items[0].reps, 4);
	assert_int_equal(p.items[2].reps, 2);
	assert_true(r.cases[0].expect_huge);
	assert_true(r.cases[1].expect_huge);	/* the hugetlb pool */
	assert_false(r.cases[2].expect_huge);
	assert_int_equal(p.items[0].nknobs, 2);
	assert_string_equal(p.items[0].knobs[0].key, "transparent_hugepage/enabled");
	assert_string_equal(p.items[0].knobs[0].value, "always");
	assert_null(p.items[0].skip);
	plan_free(&p);
	results_free(&r);
	suite_free(&s);
}

static void test_plan_not_root_skips_other_modes(void **state)
{
	struct plan_opts o = { .reps = -1, .warmup = -1, .timeout_s = -1,
			       .current_thp = "madvise", .can_write = false };
	struct tb_results r = { 0 };
	struct plan p;
	struct suite s;
	char err[256];

	(void)state;
	assert_int_equal(load("[suite]\nthp = always,madvise\n"
			      "[case a]\nworkload = /bin/true\n", &s, err, sizeof(err)), 0);
	plan_build(&s, &o, &p, &r);
	assert_int_equal(p.n, 2);
	assert_non_null(p.items[0].skip);
	assert_non_null(strstr(p.items[0].skip, "not root"));
	assert_null(p.items[1].skip);
	assert_int_equal(p.items[1].nknobs, 0);
	plan_free(&p);
	results_free(&r);
	suite_free(&s);
}

static void put_file(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The 1 GiB case of suite text on a host whose proc_root says flags. */
static void plan_1g(const char *base, const char *flags, const char *cmdline,
		    struct plan *p, struct tb_results *r, struct suite *s)
{
	char root[256], proc[256], err[256], line[256];
	struct plan_opts o = { .reps = -1, .warmup = -1, .timeout_s = -1,
			       .current_thp = "madvise", .can_write = true };

	snprintf(root, sizeof(root), "%s/mm", base);
	snprintf(proc, sizeof(proc), "%s/proc", base);
	put_file(root, "hugepages/hugepages-2048kB/nr_hugepages", "0\n");
	snprintf(line, sizeof(line), "processor\t: 0\nflags\t\t: %s\n", flags);
	put_file(proc, "cpuinfo", line);
	put_file(proc, "cmdline", cmdline);
	o.sysfs_root = root;
	o.proc_root = proc;
	assert_int_equal(load("[case clear_2M]\nworkload = /bin/true\nhugetlb.2048kB = 4\n"
			      "[case clear_1G]\nworkload = /bin/true\nhugetlb.1048576kB = 2\n",
			      s, err, sizeof(err)), 0);
	plan_build(s, &o, p, r);
	assert_int_equal(p->n, 2);
	assert_null(p->items[0].skip);
	assert_true(p->items[1].unsupported);
	assert_null(json_object_get(r->cases[1].extra, "skipped"));
}

/*
 * A host without 1 GiB pages: the 1G case is "not measurable here" with
 * the cause (no pdpe1gb, nogbpages, or the kernel), never run, while the
 * 2M case runs.
 */
static void test_plan_host_without_1g_pages(void **state)
{
	char base[] = "/tmp/thpbench-plan-XXXXXX", want[512], cmd[600];
	struct tb_results r = { 0 };
	struct plan p;
	struct suite s;

	(void)state;
	assert_non_null(mkdtemp(base));
	plan_1g(base, "fpu pse pae pge pse36 sse2 ht", "ro quiet\n", &p, &r, &s);
	snprintf(want, sizeof(want),
		 "this CPU has no 1 GiB pages (no pdpe1gb flag in %s/proc/cpuinfo)", base);
	assert_string_equal(p.items[1].skip, want);
	assert_string_equal(json_string_value(json_object_get(r.cases[1].extra,
							      "unsupported")), want);
	plan_free(&p);
	results_free(&r);
	suite_free(&s);
	plan_1g(base, "fpu pse pdpe1gb sse2", "ro nogbpages quiet\n", &p, &r, &s);
	assert_string_equal(p.items[1].skip,
			    "1 GiB pages are off on this kernel (nogbpages on its command line)");
	plan_free(&p);
	results_free(&r);
	suite_free(&s);
	plan_1g(base, "fpu pse pdpe1gb sse2", "ro\n", &p, &r, &s);
	assert_non_null(strstr(p.items[1].skip,
			       "this kernel offers no hugepages-1048576kB pool"));
	plan_free(&p);
	results_free(&r);
	suite_free(&s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_suite),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_set_sysctl),
		cmocka_unit_test(test_unknown_key),
		cmocka_unit_test(test_resource_keys),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_missing_section),
		cmocka_unit_test(test_semantic_errors),
		cmocka_unit_test(test_silent_acceptance),
		cmocka_unit_test(test_split_args),
		cmocka_unit_test(test_plan_expands_modes),
		cmocka_unit_test(test_plan_not_root_skips_other_modes),
		cmocka_unit_test(test_plan_host_without_1g_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
