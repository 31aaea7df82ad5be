// SPDX-License-Identifier: GPL-2.0-only
/* results.json round trip, load errors, and the summary's dialect. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/report.h"
#include "results/results_get.h"
#include "results/store.h"
#include "results/store_log.h"
#include "util/util.h"

static char dir[] = "/tmp/thpbench-store-XXXXXX";

static void build(struct tb_results *r)
{
	static const double usec[] = { 1000, 1100, 900 };
	struct tb_case *c;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->env = json_pack("{s:s, s:b}", "kernel", "6.1.0", "pmu", 0);
	r->meta = json_pack("{s:s}", "suite", "t");
	c = results_add_case(r);
	c->id = xstrdup("m/thp=always");
	c->name = xstrdup("m");
	c->workload = xstrdup("mremap");
	c->nargs = 2;
	c->args = xcalloc(3, sizeof(char *));
	c->args[0] = xstrdup("--size");
	c->args[1] = xstrdup("1G");
	c->thp = xstrdup("always");
	c->label = xstrdup("base");
	c->expect_huge = true;
	c->settings = json_pack("{s:s}", "transparent_hugepage/enabled", "always");
	c->dims = json_pack("{s:s, s:s}", "mthp", "64K", "mem", "fragmented");
	for (i = 0; i < 3; i++) {
		struct tb_run *run = case_add_run(c);

		run->status = RUN_OK;
		run->exit_code = 0;
		run->huge = 1;
		run->roi = true;
		run->seq = (long)i;
		metric_set_put(&run->metrics, "roi_usec", usec[i]);
		metric_set_put(&run->metrics, "cycles", 1e6 + (double)i);
		metric_set_put(&run->counted_pct, "cycles", 50 + (double)i);
		note_set_put(&run->unsupported, "dTLB-load-misses",
			     "<not supported>: no hardware PMU");
	}
	case_add_run(c)->status = RUN_TIMEOUT;
	c->runs[3].reason = xstrdup("killed after the timeout");
}

static void test_round_trip(void **state)
{
	struct tb_results r, back;
	char path[128], err[256];
	const struct tb_case *c;
	double v[8];
	struct dirent *de;
	DIR *d;

	(void)state;
	build(&r);
	snprintf(path, sizeof(path), "%s/results.json", dir);
	assert_int_equal(store_write(&r, path, err, sizeof(err)), 0);
	d = opendir(dir);
	while ((de = readdir(d)))
		assert_null(strstr(de->d_name, ".tmp."));
	closedir(d);
	assert_int_equal(store_load(path, &back, err, sizeof(err)), 0);
	assert_int_equal(back.ncases, 1);
	c = &back.cases[0];
	assert_string_equal(c->id, "m/thp=always");
	assert_string_equal(c->args[1], "1G");
	assert_true(c->expect_huge);
	assert_int_equal(c->nruns, 4);
	assert_int_equal(c->runs[3].status, RUN_TIMEOUT);
	assert_string_equal(c->runs[3].reason, "killed after the timeout");
	assert_int_equal(case_metric_values(c, "roi_usec", v, 8), 3);
	assert_true(v[0] == 1000 && v[1] == 1100 && v[2] == 900);
	assert_true(metric_set_find(&c->runs[2].counted_pct, "cycles")->value == 52);
	assert_null(metric_set_find(&c->runs[0].metrics, "dTLB-load-misses"));
	assert_non_null(note_set_find(&c->runs[0].unsupported, "dTLB-load-misses"));
	assert_string_equal(json_string_value(json_object_get(back.env, "kernel")), "6.1.0");
	assert_true(json_equal(c->dims, r.cases[0].dims));
	results_free(&r);
	results_free(&back);
	unlink(path);
}

static void expect_load_error(const char *text, const char *fragment)
{
	struct tb_results r;
	char path[128], err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad.json", dir);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	assert_int_equal(store_load(path, &r, err, sizeof(err)), -1);
	if (!strstr(err, fragment))
		fail_msg("error \"%s\" lacks \"%s\"", err, fragment);
	unlink(path);
}

static void test_load_errors(void **state)
{
	(void)state;
	expect_load_error("{\"schema\": \"thpbench-results/1\",\n \"cases\": [\n", "bad.json:3:");
	expect_load_error("{\"schema\": \"other/2\", \"cases\": []}", "expected \"thpbench-results/1\"");
	expect_load_error("{\"schema\": \"thpbench-results/1\"}", "no \"cases\" array");
	expect_load_error("{\"schema\": \"thpbench-results/1\", \"cases\": [{\"id\": \"a\", "
			  "\"runs\": [{\"status\": \"meh\"}]}]}", "unknown status \"meh\"");
	expect_load_error("{\"schema\": \"thpbench-results/1\", \"cases\": [{\"id\": \"a\", "
			  "\"runs\": [{\"status\": \"ok\", \"metrics\": {\"x\": \"1\"}}]}]}",
			  "metric x is not a number");
	/* once accepted silently */
	expect_load_error("{\"schema\": \"thpbench-results/1\",\n \"cases\": [],\n"
			  " \"cases\": []}", "bad.json:3:");
	expect_load_error("{\"schema\": \"thpbench-results/1\", \"cases\": [\n"
			  "{\"id\": \"a\", \"runs\": []},\n{\"id\": \"a\", \"runs\": []}]}",
			  "bad.json:3: case id \"a\" appears twice");
	expect_load_error("{\"schema\": \"thpbench-results/1\", \"env\": 3, \"cases\": []}",
			  "must be objects");
	expect_load_error("{\"schema\": \"thpbench-results/1\", \"cases\": [7]}",
			  "not an object");
	expect_load_error("{\"schema\": \"thpbench-results/1\", \"cases\": [{\"id\": \"a\", "
			  "\"dims\": [\"64K\"], \"runs\": []}]}", "case a: \"dims\" is not an object");
	expect_load_error("{\"schema\": \"thpbench-results/1\", \"cases\": [{\"id\": \"a\", "
			  "\"dims\": {\"mthp\": 64}, \"runs\": []}]}", "case a: dims.mthp is not a string");
}

/* The append-only log keeps every finished repetition of a run that dies. */
static void test_log(void **state)
{
	struct tb_results r, back;
	struct store_log lg;
	char path[128], err[512], line[] = "{\"case\":0,\"run\":{\"status\":\"ok\",";
	size_t i;
	FILE *f;

	(void)state;
	build(&r);
	snprintf(path, sizeof(path), "%s/results.jsonl", dir);
	assert_int_equal(store_log_open(&lg, path, &r, err, sizeof(err)), 0);
	for (i = 0; i < r.cases[0].nruns; i++)
		store_log_run(&lg, 0, &r.cases[0].runs[i]);
	assert_int_equal(lg.nruns, 4);
	store_log_close(&lg, false);
	/* a crash in the middle of a write: a torn last line */
	f = fopen(path, "a");
	fputs(line, f);
	fclose(f);
	if (store_load(path, &back, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(back.ncases, 1);
	assert_string_equal(back.cases[0].args[1], "1G");
	assert_int_equal(back.cases[0].nruns, 4);
	assert_int_equal(back.cases[0].runs[3].status, RUN_TIMEOUT);
	assert_true(metric_set_find(&back.cases[0].runs[1].metrics, "roi_usec")->value == 1100);
	assert_true(json_is_true(json_object_get(back.meta, "incomplete")));
	assert_true(json_is_true(json_object_get(back.meta, "torn_tail")));
	results_free(&back);
	/* a damaged line in the middle is an error at its line */
	f = fopen(path, "a");
	fputs("\n{\"case\":5,\"run\":{\"status\":\"ok\"}}\n", f);
	fclose(f);
	assert_int_equal(store_load(path, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "results.jsonl:7:"));
	/* once results.json is written the log goes */
	assert_int_equal(store_log_open(&lg, path, &r, err, sizeof(err)), 0);
	store_log_close(&lg, true);
	assert_int_equal(access(path, F_OK), -1);
	results_free(&r);
}

/*
 * A repetition is in the file when store_log_run returns, synced or not
 * (what a thpbench killed with -9 leaves); store_log_sync syncs what was
 * appended since the last sync.
 */
static void test_log_unsynced_runs_readable(void **state)
{
	struct tb_results r, back;
	struct store_log lg;
	char path[128], err[512];

	(void)state;
	build(&r);
	snprintf(path, sizeof(path), "%s/unsynced.jsonl", dir);
	assert_int_equal(store_log_open(&lg, path, &r, err, sizeof(err)), 0);
	assert_false(lg.dirty);
	store_log_run(&lg, 0, &r.cases[0].runs[0]);
	store_log_run(&lg, 0, &r.cases[0].runs[1]);
	if (store_load(path, &back, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(back.cases[0].nruns, 2);
	results_free(&back);
	/* A round's end syncs only once the last sync is old enough. */
	lg.synced_usec = now_usec();
	store_log_sync_due(&lg, 60e6);
	assert_true(lg.dirty);
	lg.synced_usec -= 2 * STORE_LOG_ROUND_SYNC_USEC;
	store_log_sync_due(&lg, STORE_LOG_ROUND_SYNC_USEC);
	assert_false(lg.dirty);
	store_log_run(&lg, 0, &r.cases[0].runs[0]);
	assert_true(lg.dirty);
	store_log_sync(&lg);
	assert_false(lg.dirty);
	assert_true(lg.fd >= 0);
	store_log_close(&lg, true);
	assert_int_equal(access(path, F_OK), -1);
	results_free(&r);
}

/* Past METRIC_INDEX_MIN names a set finds through its index: every name
 * once, in the order put, a second put replacing, add adding. */
static void test_metric_set_index(void **state)
{
	struct metric_set ms = { 0 };
	char name[32];
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "buddy.Normal.order%zu.before", i);
		metric_set_put(&ms, name, (double)i);
	}
	metric_set_put(&ms, "buddy.Normal.order7.before", -7);
	metric_set_add(&ms, "buddy.Normal.order8.before", 0.5);
	metric_set_add(&ms, "new", 2);
	assert_int_equal(ms.n, 1001);
	assert_non_null(ms.slot);
	for (i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "buddy.Normal.order%zu.before", i);
		assert_string_equal(ms.v[i].name, name);
		assert_ptr_equal(metric_set_find(&ms, name), &ms.v[i]);
	}
	assert_true(metric_set_find(&ms, "buddy.Normal.order7.before")->value == -7);
	assert_true(metric_set_find(&ms, "buddy.Normal.order8.before")->value == 8.5);
	assert_true(metric_set_find(&ms, "new")->value == 2);
	assert_null(metric_set_find(&ms, "buddy.Normal.order1000.before"));
	metric_set_free(&ms);
	assert_null(ms.slot);
}

/* One scalar of env or meta by its dotted key; what is no scalar, is
 * missing or would put a control character in a shell is refused. */
static void test_results_get(void **state)
{
	struct tb_results r;
	char v[64], err[256];

	(void)state;
	build(&r);
	json_object_set_new(r.meta, "machine", json_string("box\n; rm -rf /"));
	json_object_set_new(r.meta, "provenance",
			    json_pack("{s:{s:s}, s:i}", "kernel", "release", "6.1.0-b",
				      "reps", 10));
	assert_int_equal(results_get(&r, "meta.suite", v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "t");
	assert_int_equal(results_get(&r, "env.kernel", v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "6.1.0");
	assert_int_equal(results_get(&r, "meta.provenance.kernel.release", v,
				     sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "6.1.0-b");
	assert_int_equal(results_get(&r, "meta.provenance.reps", v, sizeof(v), err,
				     sizeof(err)), 0);
	assert_string_equal(v, "10");
	assert_int_equal(results_get(&r, "env.pmu", v, sizeof(v), err, sizeof(err)), 0);
	assert_string_equal(v, "false");
	assert_int_equal(results_get(&r, "meta.machine", v, sizeof(v), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "control character"));
	assert_int_equal(results_get(&r, "meta.provenance", v, sizeof(v), err, sizeof(err)), -1);
	assert_int_equal(results_get(&r, "meta.nothing", v, sizeof(v), err, sizeof(err)), -1);
	assert_int_equal(results_get(&r, "meta.suite.x", v, sizeof(v), err, sizeof(err)), -1);
	assert_int_equal(results_get(&r, "cases", v, sizeof(v), err, sizeof(err)), -1);
	assert_int_equal(results_get(&r, "meta.", v, sizeof(v), err, sizeof(err)), -1);
	results_free(&r);
}

/* The summary of r, as `thpbench run` prints it. */
static char *report_text(const struct tb_results *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	report_results(f, r);
	fclose(f);
	return text;
}

static void test_report_dialect(void **state)
{
	struct tb_results r;
	char *text;

	(void)state;
	build(&r);
	text = report_text(&r);
	/* mean 1000, sd 100, stderr 57.7 = 5.77% of the mean */
	assert_non_null(strstr(text, "( +-   5.77% )"));
	assert_non_null(strstr(text, "(3 of 4 runs ok)"));
	assert_non_null(strstr(text, "run 4: timeout: killed after the timeout"));
	assert_non_null(strstr(text, "<not supported>"));
	assert_non_null(strstr(text, "dTLB-load-misses (no hardware PMU)"));
	assert_non_null(strstr(text, "  cycles  (counted 50.00-52.00%)\n"));
	assert_non_null(strstr(text, "scaled by enabled/running"));
	assert_null(strstr(text, "warning: counted only"));
	assert_non_null(strstr(text, "standard error of the mean"));
	free(text);
	results_free(&r);
}

/*
 * A profile's worth of counters as a PMU with too few counters leaves
 * them: one counted throughout, one multiplexed (50%), one barely
 * counted in one run (10%: a warning), one never on the PMU (<not
 * counted>), one that could not be opened (<not supported>). Through
 * results.json and back, and into the summary.
 */
static void build_multiplexed(struct tb_results *r)
{
	static const double share[][3] = {
		{ 100, 100, 100 }, { 50, 50, 50 }, { 40, 10, 45 },
	};
	static const char *const names[] = {
		"tlb.cycles", "tlb.dtlb_walks", "tlb.stlb_hits",
	};
	struct tb_case *c;
	size_t i, k;

	memset(r, 0, sizeof(*r));
	r->env = json_pack("{s:s, s:b}", "kernel", "6.1.0", "pmu", 1);
	r->meta = json_pack("{s:s}", "suite", "t");
	c = results_add_case(r);
	c->id = xstrdup("chase/thp=never");
	c->name = xstrdup("chase");
	c->workload = xstrdup("pchase");
	c->args = xcalloc(1, sizeof(char *));
	c->thp = xstrdup("never");
	c->label = xstrdup("");
	c->settings = json_object();
	for (i = 0; i < 3; i++) {
		struct tb_run *run = case_add_run(c);

		run->status = RUN_OK;
		run->huge = 0;
		for (k = 0; k < ARRAY_SIZE(names); k++) {
			metric_set_put(&run->metrics, names[k], 1e6 * (double)(k + 1));
			metric_set_put(&run->counted_pct, names[k], share[k][i]);
		}
		note_set_put(&run->unsupported, "tlb.load_walk_cycles",
			     "<not counted>: its group never got the hardware counters it needs at once");
		note_set_put(&run->unsupported, "dTLB-load-misses",
			     "<not supported>: no hardware PMU (ENOENT)");
	}
}

static void test_report_multiplexed(void **state)
{
	struct tb_results r, back;
	char path[128], err[256], *text;

	(void)state;
	build_multiplexed(&r);
	snprintf(path, sizeof(path), "%s/mux.json", dir);
	assert_int_equal(store_write(&r, path, err, sizeof(err)), 0);
	assert_int_equal(store_load(path, &back, err, sizeof(err)), 0);
	unlink(path);
	assert_true(metric_set_find(&back.cases[0].runs[1].counted_pct,
				    "tlb.stlb_hits")->value == 10);
	assert_null(metric_set_find(&back.cases[0].runs[0].metrics,
				    "tlb.load_walk_cycles"));
	assert_non_null(strstr(note_set_find(&back.cases[0].runs[0].unsupported,
					     "tlb.load_walk_cycles")->reason,
			       "<not counted>"));
	text = report_text(&back);
	/* counted throughout: no share printed */
	assert_non_null(strstr(text, "  tlb.cycles\n"));
	assert_non_null(strstr(text, "  tlb.dtlb_walks  (counted 50.00%)\n"));
	assert_non_null(strstr(text, "  tlb.stlb_hits  (counted 10.00-45.00%)\n"));
	assert_non_null(strstr(text, "warning: counted only 10.00% of the time in run 2"));
	assert_null(strstr(text, "counted only 50"));
	assert_non_null(strstr(text, "  <not counted>"));
	assert_non_null(strstr(text, "tlb.load_walk_cycles (its group never got"));
	assert_non_null(strstr(text, "<not supported>"));
	assert_non_null(strstr(text, "dTLB-load-misses (no hardware PMU (ENOENT))"));
	assert_non_null(strstr(text, "(counted x%): multiplexed"));
	free(text);
	results_free(&r);
	results_free(&back);
}

/*
 * A case whose repetitions all failed before measuring anything (or that
 * never ran): no metric at all. The report used to qsort(NULL, 0), which
 * UBSan (make sanitize) aborts on, losing results.json. Its reasons and
 * names print with control characters as '?'.
 */
static void test_report_no_metrics(void **state)
{
	struct tb_results r;
	struct tb_case *c;
	struct tb_run *run;
	char *text;

	(void)state;
	memset(&r, 0, sizeof(r));
	c = results_add_case(&r);
	c->id = xstrdup("dead\033[2J/thp=always");
	c->workload = xstrdup("w");
	c->thp = xstrdup("always");
	c->label = xstrdup("");
	run = case_add_run(c);
	run->status = RUN_FAILED;
	run->reason = xstrdup("exited with status 1: no\rpe");
	c = results_add_case(&r);
	c->id = xstrdup("never/thp=always");
	c->workload = xstrdup("w");
	c->thp = xstrdup("always");
	c->label = xstrdup("");
	text = report_text(&r);
	assert_non_null(strstr(text, " dead?[2J/thp=always: 'w' (0 of 1 runs ok)"));
	assert_non_null(strstr(text, "run 1: failed: exited with status 1: no?pe\n"));
	assert_non_null(strstr(text, " never/thp=always: 'w' (0 of 0 runs ok)"));
	assert_null(strchr(text, '\033'));
	free(text);
	results_free(&r);
}

/*
 * The first warm-up of a clearing case met fresh pool pages (0.57 GB/s
 * here); the repetitions, on pages the host had already backed, clear at
 * 22 GB/s. Its figure is printed apart, named for what it is, and kept
 * out of the averaged row: a "first" figure averaged over warm runs was
 * warm memory under a misleading name.
 */
static void test_report_first_warmup_apart(void **state)
{
	static const double warm[] = { 22.1, 22.7, 22.4 };
	struct tb_results r;
	struct tb_case *c;
	char *text, *row, *save = NULL;
	double mean, min;
	size_t i, n;

	(void)state;
	memset(&r, 0, sizeof(r));
	c = results_add_case(&r);
	c->id = xstrdup("clear_2M/thp=madvise");
	c->workload = xstrdup("clear_huge_page");
	c->thp = xstrdup("madvise");
	c->label = xstrdup("");
	c->extra = json_pack("{s:{s:{s:s}}, s:{s:f, s:f}}", "metric", "pass1_gbps",
			     "better", "higher", "first_warmup", "pass1_gbps",
			     0.5656, "roi_usec", 3.6e6);
	for (i = 0; i < ARRAY_SIZE(warm); i++) {
		struct tb_run *run = case_add_run(c);

		run->status = RUN_OK;
		metric_set_put(&run->metrics, "pass1_gbps", warm[i]);
	}
	text = report_text(&r);
	assert_non_null(strstr(text, "  first warm-up run (not averaged; its "
			       "first touch met fresh memory): pass1_gbps 0.566\n"));
	/* Only the suite's key figures (better.*), not every metric. */
	assert_null(strstr(text, "roi_usec 3"));
	assert_null(strstr(text, "first_gbps"));
	/* The averaged row: the three warm runs, mean 22.40, min 22.10. */
	for (row = strtok_r(text, "\n", &save); row; row = strtok_r(NULL, "\n", &save))
		if (strstr(row, "  pass1_gbps") && !strstr(row, "warm-up"))
			break;
	assert_non_null(row);
	assert_int_equal(sscanf(row, "%lf ( +- %*f%% ) %zu %lf", &mean, &n, &min), 3);
	assert_float_equal(mean, 22.4, 1e-9);
	assert_int_equal(n, 3);
	assert_float_equal(min, 22.1, 1e-9);
	free(text);
	results_free(&r);
}

static void test_grouping(void **state)
{
	char b[64];

	(void)state;
	fmt_grouped(b, sizeof(b), 1234567.891);
	assert_string_equal(b, "1,234,568");
	fmt_grouped(b, sizeof(b), 999.5);
	assert_string_equal(b, "999.50");
	fmt_grouped(b, sizeof(b), -1000);
	assert_string_equal(b, "-1,000");
	fmt_grouped(b, sizeof(b), 0.1234);
	assert_string_equal(b, "0.123");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_log_unsynced_runs_readable),
		cmocka_unit_test(test_metric_set_index),
		cmocka_unit_test(test_results_get),
		cmocka_unit_test(test_report_dialect),
		cmocka_unit_test(test_report_multiplexed),
		cmocka_unit_test(test_report_no_metrics),
		cmocka_unit_test(test_report_first_warmup_apart),
		cmocka_unit_test(test_grouping),
	};
	int rc;

	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return rc;
}
