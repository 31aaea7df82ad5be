// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bisection's search (bisect_plan.h), its state directory read back
 * after every boot as a resumed run would (bisect_state.h), and its
 * report (bisect_report.h): a driver simulated in C over a scratch
 * directory, with the files the real one writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect/bisect_plan.h"
#include "bisect/bisect_report.h"
#include "bisect/bisect_state.h"
#include "util/util.h"

/* ---- the search alone ---- */

/* Run the search on true classes `truth` (skips where skip[i]); the
 * number of steps taken. */
static size_t search(const enum bisect_class *truth, size_t n,
		     enum bisect_class *c, struct bisect_outcome *o)
{
	size_t i, k, steps = 0;

	for (i = 0; i < n; i++)
		c[i] = BC_UNTESTED;
	c[0] = BC_GOOD;
	c[n - 1] = BC_BAD;
	while ((k = bisect_plan_next(c, n)) != SIZE_MAX) {
		assert_int_equal(c[k], BC_UNTESTED);
		c[k] = truth[k];
		steps++;
	}
	bisect_plan_outcome(c, n, o);
	return steps;
}

/* Every first bad commit k of 15, with every other commit b failing to
 * build: k is named, or, when b is just before it, both are suspects. */
static void test_plan_every_k_and_skip(void **state)
{
	enum bisect_class truth[16], c[16];
	struct bisect_outcome o;
	size_t k, b, i, steps;

	(void)state;
	for (k = 1; k < 16; k++)
		for (b = 1; b < 15; b++) {
			if (b == k)
				continue;
			for (i = 0; i < 16; i++)
				truth[i] = i == b ? BC_SKIP : i < k ? BC_GOOD : BC_BAD;
			steps = search(truth, 16, c, &o);
			assert_true(steps <= 6);	/* log2(15) + the skip */
			assert_int_equal(o.njumps, 1);
			assert_int_equal(o.jumps[0].to, k);
			if (b == k - 1 && c[b] == BC_SKIP) {
				assert_int_equal(o.kind, BO_RANGE);
				assert_int_equal(o.jumps[0].first, b);
			} else {
				assert_int_equal(o.kind, BO_FOUND);
				assert_int_equal(o.jumps[0].first, k);
			}
			bisect_outcome_free(&o);
		}
}

static void test_plan_spread_and_back(void **state)
{
	enum bisect_class truth[16], c[16];
	struct bisect_outcome o;
	size_t i;

	(void)state;
	/* Half the change at 6, the rest at 11. */
	for (i = 0; i < 16; i++)
		truth[i] = i < 6 ? BC_GOOD : i < 11 ? BC_PARTIAL : BC_BAD;
	search(truth, 16, c, &o);
	assert_int_equal(o.kind, BO_SPREAD);
	assert_int_equal(o.njumps, 2);
	assert_int_equal(o.jumps[0].to, 6);
	assert_int_equal(o.jumps[0].first, 6);
	assert_int_equal(o.jumps[1].to, 11);
	assert_int_equal(o.jumps[1].first, 11);
	assert_true(o.jumps[0].to_level == 0.5);
	bisect_outcome_free(&o);

	/* A level that goes back is said, not hidden. */
	{
		enum bisect_class seen[6] = { BC_GOOD, BC_BAD, BC_GOOD, BC_SKIP,
					      BC_INCONCLUSIVE, BC_BAD };

		assert_int_equal(bisect_plan_next(seen, 6), SIZE_MAX);
		bisect_plan_outcome(seen, 6, &o);
		assert_int_equal(o.kind, BO_NONMONOTONE);
		assert_int_equal(o.njumps, 3);
		assert_int_equal(o.jumps[2].first, 3);	/* 3 and 4 undecided */
		assert_int_equal(o.jumps[2].last, 5);
		bisect_outcome_free(&o);
	}
	/* A commit being measured goes on before anything else. */
	{
		enum bisect_class m[5] = { BC_GOOD, BC_UNTESTED, BC_MEASURING,
					   BC_UNTESTED, BC_BAD };

		assert_int_equal(bisect_plan_next(m, 5), 2);
		assert_int_equal(bisect_plan_left(m, 5), 3);
	}
}

/* ---- the state directory ---- */

#define NC 12
#define K 8		/* first bad commit */
#define BROKEN 5	/* does not build */

struct fixture {
	char dir[256];
	char sha[NC][41];
	size_t runs;
};

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void write_plan(struct fixture *fx, const char *subject5,
		       const char *options)
{
	char path[512];
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s/plan.json", fx->dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"schema\": \"thpbench-bisect-plan/1\", \"case\": \"mremap\","
		" \"metric\": \"vmstat.thp_split_pmd\", \"tree\": \"/t\","
		" \"options\": %s, \"commits\": [", options);
	for (i = 0; i < NC; i++)
		fprintf(f, "%s{\"sha\": \"%s\", \"subject\": \"%s %zu\","
			" \"author\": \"A U Thor <a@example.org>\", \"date\": \"2026-01-01\","
			" \"patch_id\": \"%040zu\"}", i ? ", " : "", fx->sha[i],
			i == 5 && subject5 ? subject5 : "harmless change", i, i);
	fputs("]}\n", f);
	assert_int_equal(fclose(f), 0);
}

static void fixture_init(struct fixture *fx, const char *subject5)
{
	size_t i;
	char path[512];

	snprintf(fx->dir, sizeof(fx->dir), "/tmp/tb-bisect-XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	for (i = 0; i < NC; i++)
		snprintf(fx->sha[i], sizeof(fx->sha[i]), "%040zx", 0xabc000 + i);
	write_plan(fx, subject5, "{\"ref_reps\": 4}");
	snprintf(path, sizeof(path), "%s/runs", fx->dir);
	assert_int_equal(mkdir_p(path, 0755), 0);
	fx->runs = 0;
}

static void fixture_free(struct fixture *fx)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	assert_int_equal(system(cmd), 0);
}

/* A run directory for commit i: its results (reps values of v), or skip. */
static void add_run(struct fixture *fx, size_t i, size_t reps, double v,
		    const char *skip)
{
	char d[512], p[600], *json;
	size_t k, len = 0, cap = 4096 + reps * 200;

	snprintf(d, sizeof(d), "%s/runs/%04zu", fx->dir, ++fx->runs);
	assert_int_equal(mkdir_p(d, 0755), 0);
	snprintf(p, sizeof(p), "%s/commit", d);
	write_text(p, fx->sha[i]);
	if (skip) {
		snprintf(p, sizeof(p), "%s/skip", d);
		write_text(p, skip);
		return;
	}
	json = xmalloc(cap);
	len += (size_t)snprintf(json + len, cap - len,
		"{\"schema\": \"thpbench-results/1\", \"env\": {}, \"meta\": {\"timings\": \"emulated\"},"
		" \"cases\": [{\"id\": \"mremap/thp=always\", \"name\": \"mremap\","
		" \"workload\": \"mremap\", \"args\": [], \"env\": [], \"thp\": \"always\","
		" \"label\": \"k\", \"expect_huge\": false, \"settings\": {}, \"extra\": {}, \"runs\": [");
	for (k = 0; k < reps; k++)
		len += (size_t)snprintf(json + len, cap - len,
			"%s{\"status\": \"ok\", \"exit_code\": 0, \"signal\": 0, \"roi\": true,"
			" \"huge\": 1, \"seq\": %zu, \"metrics\": {\"vmstat.thp_split_pmd\": %g}}",
			k ? ", " : "", k, v);
	snprintf(json + len, cap - len, "]}]}\n");
	snprintf(p, sizeof(p), "%s/results.json", d);
	write_text(p, json);
	free(json);
}

static double truth(size_t i)
{
	return i < K ? 0 : 256;
}

/* Drive the bisection as bisect.sh does, loading the directory afresh
 * before every decision (every boot is a resume point). */
static size_t drive(struct fixture *fx, struct bisect_action *last)
{
	struct bisect_state s;
	char err[1024];
	size_t boots = 0;

	for (;;) {
		assert_int_equal(bisect_state_load(fx->dir, &s, err, sizeof(err)), 0);
		bisect_state_eval(&s, last);
		bisect_state_free(&s);
		if (last->kind != BA_MEASURE)
			return boots;
		assert_true(last->reps >= 1);
		add_run(fx, last->commit, last->reps, truth(last->commit),
			last->commit == BROKEN ? "build: mm/util.c:1: error: expected ';'" : NULL);
		boots++;
		assert_true(boots < 40);
	}
}

static void test_state_drive_and_report(void **state)
{
	struct fixture fx;
	struct bisect_action a;
	struct bisect_state s;
	struct bisect_result r;
	char err[1024], *buf = NULL, *line, *save = NULL;
	size_t boots, len = 0;
	FILE *f;
	json_t *j;

	(void)state;
	fixture_init(&fx, "mm: a subject far longer than any line of the report may be, with \xc3\xa9t\xc3\xa9 UTF-8 and a \\u0001 control");
	boots = drive(&fx, &a);
	assert_int_equal(a.kind, BA_DONE);
	/* 2 boots per reference, then one boot per step: log2(11) + a skip */
	assert_true(boots >= 4 + 3 && boots <= 4 + 5);

	assert_int_equal(bisect_state_load(fx.dir, &s, err, sizeof(err)), 0);
	assert_int_equal(s.runs, boots);
	bisect_result_build(&r, &s);
	assert_string_equal(r.outcome, "found");
	assert_int_equal(bisect_result_exit(&r), 0);
	assert_int_equal(r.o.jumps[0].to, K);
	assert_int_equal(s.c[K].n, 2);		/* a counter: 2 repetitions */

	f = open_memstream(&buf, &len);
	bisect_report_text(f, &r);
	fclose(f);
	assert_non_null(strstr(buf, "First bad commit:\n  " "0000000000000000000000000000000000abc008"));
	assert_non_null(strstr(buf, "patch-id: 0000000000000000000000000000000000000008"));
	assert_non_null(strstr(buf, "Author: A U Thor <a@example.org>"));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t cols = 0;
		const char *p;

		for (p = line; *p; p++)
			cols += ((unsigned char)*p & 0xc0) != 0x80;
		assert_true(cols <= BISECT_TEXT_WIDTH);
		for (p = line; *p; p++)
			assert_true((unsigned char)*p >= 0x20);
	}
	free(buf);
	buf = NULL;

	j = bisect_report_json(&r);
	assert_string_equal(json_string_value(json_object_get(j, "outcome")), "found");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "first_bad"), "sha")),
			    fx.sha[K]);
	json_decref(j);

	f = open_memstream(&buf, &len);
	bisect_report_gitlog(f, &r);
	fclose(f);
	assert_non_null(strstr(buf, "git bisect skip 0000000000000000000000000000000000abc005"));
	assert_non_null(strstr(buf, "git bisect bad 0000000000000000000000000000000000abc008"));
	assert_non_null(strstr(buf, "git bisect start 0000000000000000000000000000000000abc00b "
				    "0000000000000000000000000000000000abc000"));
	free(buf);
	bisect_result_free(&r);
	bisect_state_free(&s);
	fixture_free(&fx);
}

/* Runs past 0007 are decimal (0008 is no octal), and ten or more load. */
static void test_state_many_runs(void **state)
{
	struct fixture fx;
	struct bisect_state s;
	char err[1024];
	size_t i;

	(void)state;
	fixture_init(&fx, NULL);
	for (i = 0; i < 12; i++)
		add_run(&fx, i % 2 ? NC - 1 : 0, 3, i % 2 ? 256 : 0, NULL);
	assert_int_equal(bisect_state_load(fx.dir, &s, err, sizeof(err)), 0);
	assert_int_equal(s.runs, 12);
	assert_int_equal(s.c[0].boots, 6);
	assert_int_equal(s.c[0].first_run, 1);
	assert_int_equal(s.c[NC - 1].last_run, 12);
	bisect_state_free(&s);
	fixture_free(&fx);
}

static void expect_load_error(struct fixture *fx, const char *what)
{
	struct bisect_state s;
	char err[1024];

	assert_int_equal(bisect_state_load(fx->dir, &s, err, sizeof(err)), -1);
	if (!strstr(err, what))
		fail_msg("error \"%s\" lacks \"%s\"", err, what);
	bisect_state_free(&s);
}

static void test_state_hostile(void **state)
{
	struct fixture fx;
	char p[600];

	(void)state;
	fixture_init(&fx, NULL);
	write_plan(&fx, NULL, "{\"max_looks\": 0}");
	expect_load_error(&fx, "max_looks must be an integer");
	write_plan(&fx, NULL, "{\"colour\": 1}");
	expect_load_error(&fx, "unknown option \"colour\"");
	write_plan(&fx, NULL, "{\"ref_reps\": 2.5}");
	expect_load_error(&fx, "ref_reps");
	write_plan(&fx, NULL, "{}");
	add_run(&fx, 0, 3, 0, NULL);
	snprintf(p, sizeof(p), "%s/runs/0001/commit", fx.dir);
	write_text(p, "0123456789012345678901234567890123456789\n");
	expect_load_error(&fx, "not a commit of this bisection's plan");
	snprintf(p, sizeof(p), "%s/runs/0001/commit", fx.dir);
	write_text(p, fx.sha[0]);
	snprintf(p, sizeof(p), "%s/runs/0001/results.json", fx.dir);
	unlink(p);
	expect_load_error(&fx, "neither results.json nor skip");
	write_text(p, "{\"schema\": \"thpbench-results/1\", \"env\": {}, \"meta\": {}, \"cases\": []}");
	expect_load_error(&fx, "no case \"mremap\"");
	snprintf(p, sizeof(p), "%s/plan.json", fx.dir);
	write_text(p, "{\"schema\": \"thpbench-bisect-plan/1\", \"case\": \"c\", \"metric\": \"m\","
		      " \"commits\": [{\"sha\": \"xyz\"}, {\"sha\": \"abc\"}]}");
	expect_load_error(&fx, "full hex commit id");
	write_text(p, "[1, 2");
	expect_load_error(&fx, "plan.json:1:");
	fixture_free(&fx);
}

/* GOOD that does not build stops the bisection with the reason. */
static void test_state_good_skipped(void **state)
{
	struct fixture fx;
	struct bisect_state s;
	struct bisect_action a;
	char err[1024];

	(void)state;
	fixture_init(&fx, NULL);
	add_run(&fx, 0, 0, 0, "build: broken");
	assert_int_equal(bisect_state_load(fx.dir, &s, err, sizeof(err)), 0);
	bisect_state_eval(&s, &a);
	assert_int_equal(a.kind, BA_ERROR);
	assert_non_null(strstr(a.why, "GOOD cannot be measured: build: broken"));
	bisect_state_free(&s);
	fixture_free(&fx);
}

/* Alike references: nothing to bisect after ref_boots boots each. */
static void test_state_nothing(void **state)
{
	struct fixture fx;
	struct bisect_state s;
	struct bisect_action a;
	struct bisect_result r;
	char err[1024];
	size_t i;

	(void)state;
	fixture_init(&fx, NULL);
	for (i = 0; i < 4; i++)
		add_run(&fx, i % 2 ? NC - 1 : 0, 4, 0, NULL);
	assert_int_equal(bisect_state_load(fx.dir, &s, err, sizeof(err)), 0);
	bisect_state_eval(&s, &a);
	assert_int_equal(a.kind, BA_NOTHING);
	bisect_result_build(&r, &s);
	assert_int_equal(bisect_result_exit(&r), 3);
	bisect_result_free(&r);
	bisect_state_free(&s);
	fixture_free(&fx);
}

/* A skip reason with bytes that are no UTF-8 still makes valid JSON. */
static void test_state_skip_bytes(void **state)
{
	struct fixture fx;
	struct bisect_state s;
	struct bisect_result r;
	char err[1024];
	json_t *j, *steps;
	size_t i;
	const char *why = NULL, *why4 = NULL;

	(void)state;
	fixture_init(&fx, NULL);
	for (i = 0; i < 4; i++)
		add_run(&fx, i % 2 ? NC - 1 : 0, 4, i % 2 ? 256 : 0, NULL);
	add_run(&fx, 3, 0, 0, "build: \xff\xfe\x01 bad");
	add_run(&fx, 4, 0, 0, "build: unknown type name \xe2\x80\x98this\xe2\x80\x99 \xe2\x80");
	assert_int_equal(bisect_state_load(fx.dir, &s, err, sizeof(err)), 0);
	bisect_result_build(&r, &s);
	j = bisect_report_json(&r);
	assert_non_null(j);
	steps = json_object_get(j, "steps");
	for (i = 0; i < json_array_size(steps); i++) {
		json_t *st = json_array_get(steps, i);

		if (json_integer_value(json_object_get(st, "index")) == 3)
			why = json_string_value(json_object_get(st, "skip"));
		if (json_integer_value(json_object_get(st, "index")) == 4)
			why4 = json_string_value(json_object_get(st, "skip"));
	}
	assert_non_null(why);
	assert_string_equal(why, "build: ??  bad");
	/* A compiler's quotes stay; a cut sequence does not. */
	assert_non_null(why4);
	assert_string_equal(why4, "build: unknown type name \xe2\x80\x98this\xe2\x80\x99 ??");
	json_decref(j);
	bisect_result_free(&r);
	bisect_state_free(&s);
	fixture_free(&fx);
}

static void test_fit(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(bisect_fit("abc", 10, buf, sizeof(buf)), "abc");
	assert_string_equal(bisect_fit("abcdefghijkl", 8, buf, sizeof(buf)), "abcde...");
	assert_string_equal(bisect_fit("a\tb\nc", 10, buf, sizeof(buf)), "a b c");
	/* é is 2 bytes, 1 column: never cut inside it */
	assert_string_equal(bisect_fit("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4, buf, sizeof(buf)),
			    "\xc3\xa9...");
	assert_string_equal(bisect_fit("\xc3\xa9\xc3\xa9\xc3\xa9", 3, buf, sizeof(buf)),
			    "\xc3\xa9\xc3\xa9\xc3\xa9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_every_k_and_skip),
		cmocka_unit_test(test_plan_spread_and_back),
		cmocka_unit_test(test_state_drive_and_report),
		cmocka_unit_test(test_state_many_runs),
		cmocka_unit_test(test_state_hostile),
		cmocka_unit_test(test_state_good_skipped),
		cmocka_unit_test(test_state_nothing),
		cmocka_unit_test(test_state_skip_bytes),
		cmocka_unit_test(test_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
