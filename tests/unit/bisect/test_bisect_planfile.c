// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan.json's one writer (bisect_planfile.h): a plan written from what
 * git prints reads back through bisect_state and bisect_driver_load as
 * given; option ranges refused where the reader would refuse them; a
 * hostile commit list, a case the suite lacks, a driver value no boot
 * takes are refused and nothing is written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect/bisect_planfile.h"
#include "bisect/bisect_state.h"
#include "util/util.h"

#define G "1111111111111111111111111111111111111111"
#define M "2222222222222222222222222222222222222222"
#define B "3333333333333333333333333333333333333333"
#define P "abcdefabcdefabcdefabcdefabcdefabcdefabcd"

static char dir[64], suite[128];

static int setup(void **state)
{
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_bisect_planfile.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(suite, sizeof(suite), "%s/s.conf", dir);
	f = fopen(suite, "w");
	if (!f)
		return -1;
	fputs("[suite]\nname = t\nrepetitions = 7\n\n[case mremap]\nworkload = mremap\n", f);
	return fclose(f);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static FILE *text(const char *s)
{
	FILE *f = fmemopen((void *)s, strlen(s), "r");

	assert_non_null(f);
	return f;
}

static const char commits[] =
	G "\x1f" "2026-01-01T00:00:00+00:00\x1f" "A <a@x>\x1f" "good one\n"
	M "\x1f" "2026-01-02T00:00:00+00:00\x1f" "B <b@x>\x1f" "mid\x1fwith a unit separator\n"
	B "\x1f" "2026-01-03T00:00:00+00:00\x1f" "C <c@x>\x1f" "bad one\n";

/* A plan from commit lines c and options (keys, values). */
static int make(const char *c, const char *case_metric, const char **k,
		const char **v, size_t nopts, const char *boot, char *err, size_t len)
{
	struct bisect_plan_input in = {
		.tree = "/src/linux", .good = G, .bad = B, .good_ref = "v1",
		.bad_ref = "v2", .suite = suite, .case_metric = case_metric,
		.version = "test", .command = "./run.sh bisect ...",
		.driver = { "tinyconfig", boot, "tcg", "2G", "", "6.1.0", 2, 600, 3 },
		.opt_keys = k, .opt_values = v, .nopts = nopts,
	};
	int rc;

	in.commits = text(c);
	in.patch_ids = text(P " " M "\n");
	rc = bisect_planfile_create(dir, &in, err, len);
	fclose(in.commits);
	fclose(in.patch_ids);
	return rc;
}

static void test_round_trip(void **state)
{
	const char *k[] = { "confidence", "max_reps" }, *v[] = { "0.95", "40" };
	struct bisect_state s;
	struct bisect_driver_fields f;
	char err[512], runs[128];

	(void)state;
	assert_int_equal(make(commits, "mremap:roi_usec", k, v, 2, "qemu", err, sizeof(err)), 0);
	snprintf(runs, sizeof(runs), "%s/runs", dir);
	assert_int_equal(mkdir(runs, 0755), 0);
	if (bisect_state_load(dir, &s, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.c[0].sha, G);
	assert_string_equal(s.c[1].subject, "mid with a unit separator");
	assert_string_equal(s.c[1].patch_id, P);
	assert_string_equal(s.c[2].patch_id, "");
	assert_string_equal(s.case_name, "mremap");
	assert_string_equal(s.metric, "roi_usec");
	assert_int_equal(s.ref_reps, 7);	/* the suite's repetitions */
	assert_true(s.opts.confidence == 0.95);
	assert_int_equal(s.opts.max_reps, 40);
	bisect_state_free(&s);

	if (bisect_driver_load(dir, NULL, &f, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(f.tree, "/src/linux");
	assert_string_equal(f.d.boot, "qemu");
	assert_string_equal(f.d.accel, "tcg");
	assert_string_equal(f.d.orig_release, "6.1.0");
	assert_int_equal(f.d.timeout, 600);
	assert_int_equal(f.d.jobs, 3);
	bisect_driver_free(&f);
}

static void expect_refused(const char *c, const char *cm, const char *key,
			   const char *val, const char *boot, const char *want)
{
	char err[512], path[128];
	const char *k[] = { key }, *v[] = { val };

	snprintf(path, sizeof(path), "%s/plan.json", dir);
	unlink(path);
	assert_int_equal(make(c, cm, k, v, key ? 1 : 0, boot, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("'%s' lacks '%s'", err, want);
	assert_int_not_equal(access(path, F_OK), 0);
}

static void test_refused(void **state)
{
	(void)state;
	expect_refused(commits, "mremap:roi_usec", "confidence", "1.5", "qemu",
		       "confidence must be a number in [0.5, 1]");
	expect_refused(commits, "mremap:roi_usec", "max_reps", "2.5", "qemu",
		       "max_reps must be an integer number");
	expect_refused(commits, "mremap:roi_usec", "frob", "1", "qemu", "unknown option \"frob\"");
	expect_refused(commits, "mremap:roi_usec", "threshold", "x", "qemu", "must be a number");
	expect_refused(commits, "nope:roi_usec", NULL, NULL, "qemu", "no case 'nope'");
	expect_refused(commits, "roi_usec", NULL, NULL, "qemu", "CASE:METRIC");
	expect_refused(commits, "mremap:roi_usec", NULL, NULL, "grub", "boot must be qemu, kexec or lava");
	expect_refused(G "\x1f" "d\x1f" "a\x1f" "s\n", "mremap:roi_usec", NULL, NULL, "qemu",
		       "GOOD and at least one commit");
	expect_refused(G "\x1f" "d\x1f" "a\x1f" "s\n" M "\x1f" "d\x1f" "a\x1f" "s\n",
		       "mremap:roi_usec", NULL, NULL, "qemu", "not reached from");
	expect_refused(G "\x1f" "d\x1f" "a\x1f" "s\n../../etc\x1f" "d\x1f" "a\x1f" "s\n" B "\n",
		       "mremap:roi_usec", NULL, NULL, "qemu", "--commits line 2");
	expect_refused(G "\x1f" "d\n" B "\x1f" "d\n" B "\x1f" "d\n",
		       "mremap:roi_usec", NULL, NULL, "qemu", "listed twice");
}

/* A driver value the writer would refuse is refused when read back. */
static void test_driver_hostile(void **state)
{
	struct bisect_driver_fields f;
	char path[128], err[512];
	FILE *fp;

	(void)state;
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("{\"schema\": \"thpbench-bisect-plan/1\", \"tree\": \"/t\", \"good\": \"" G
	      "\", \"bad\": \"" B "\", \"driver\": {\"config\": \"c\", \"boot\": \"qemu\","
	      " \"accel\": \"kvm\", \"mem\": \"1G\", \"smp\": -1, \"timeout\": 5,"
	      " \"jobs\": 1}}", fp);
	fclose(fp);
	assert_int_equal(bisect_driver_load(dir, NULL, &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "smp must be a positive"));
	bisect_driver_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_driver_hostile),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
