// SPDX-License-Identifier: GPL-2.0-only
/*
 * The history database: import, idempotency, list, load_series, hostile
 * strings, schema version, concurrent writers, a writer killed mid-import.
 *
 * Runs against a fresh SQLite file in a temporary directory, and, when
 * THPBENCH_TEST_PG names a PostgreSQL URI (tests/integration/history_pg.sh
 * starts a throwaway server and sets it), the same tests against it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <libpq-fe.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "history/history_analysis.h"
#include "history/history_backend.h"
#include "history/history_db.h"
#include "history/history_delete.h"
#include "history/history_gate.h"
#include "history/history_import.h"
#include "history/history_spec.h"
#include "history/history_import_batch.h"
#include "history/history_kernel_order.h"
#include "history/history_triage.h"
#include "results/store.h"
#include "util/util.h"

static char dir[] = "/tmp/thpbench-history-XXXXXX";
static const char *pg_uri;	/* NULL: SQLite */
static char spec[600];
static int db_seq;

static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* A new empty database for each test. */
static const char *fresh_db(void)
{
	if (!pg_uri) {
		snprintf(spec, sizeof(spec), "%s/h%d.sqlite", dir, ++db_seq);
		return spec;
	}
	PGconn *c = PQconnectdb(pg_uri);
	PGresult *r;

	assert_int_equal(PQstatus(c), CONNECTION_OK);
	PQsetNoticeProcessor(c, quiet, NULL);
	r = PQexec(c, "DROP TABLE IF EXISTS night_metrics, rep_values, reps, cases,"
		      " runs, triage, thpbench_schema CASCADE");
	assert_int_equal(PQresultStatus(r), PGRES_COMMAND_OK);
	PQclear(r);
	PQfinish(c);
	snprintf(spec, sizeof(spec), "%s", pg_uri);
	return spec;
}

struct night_spec {
	const char *host, *kernel, *started, *suite;
	const char *case_id;
	const char *metric;	/* NULL: roi_usec */
	size_t ncases, nreps, nmetrics;
	double base;		/* value of rep r: base + r */
	double failed_value;	/* 0: the failed repetition has no value */
};

/* Write a results file for one night and return its path (static buffer). */
static const char *write_night(const struct night_spec *ns, const char *name)
{
	static char path[600];
	struct tb_results r;
	char err[512], id[2048], mname[64];
	size_t i, j, k;

	memset(&r, 0, sizeof(r));
	r.env = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i, s:i, s:s, s:{s:s, s:s}, s:{s:i}}",
			  "hostname", ns->host, "kernel", ns->kernel,
			  "started", ns->started, "cpu", "Test CPU",
			  "nr_cpus", 2, "mem_total_kb", 24576000, "numa_nodes", 1,
			  "cmdline", "BOOT_IMAGE=/vmlinuz-x root=/dev/vda",
			  "thp", "enabled", "madvise", "defrag", "madvise",
			  "hugetlb", "2048kB", 0);
	r.meta = json_pack("{s:s}", "suite", ns->suite ? ns->suite : "nightly");
	for (i = 0; i < (ns->ncases ? ns->ncases : 1); i++) {
		struct tb_case *c = results_add_case(&r);

		if (ns->case_id && !i)
			snprintf(id, sizeof(id), "%s", ns->case_id);
		else
			snprintf(id, sizeof(id), "case%zu/thp=always", i);
		c->id = xstrdup(id);
		c->name = xstrdup("case");
		c->workload = xstrdup("mremap");
		c->thp = xstrdup("always");
		c->label = xstrdup("");
		for (j = 0; j < ns->nreps; j++) {
			struct tb_run *run = case_add_run(c);

			run->status = RUN_OK;
			run->exit_code = 0;
			run->seq = (long)j;
			metric_set_put(&run->metrics, ns->metric ? ns->metric : "roi_usec",
				       ns->base + (double)j);
			for (k = 1; k < ns->nmetrics; k++) {
				snprintf(mname, sizeof(mname), "vmstat.m%zu", k);
				metric_set_put(&run->metrics, mname, (double)k);
			}
		}
		/* A failed repetition: stored, never in a series (also with a
		 * value it got before it failed). */
		if (ns->failed_value)
			metric_set_put(&case_add_run(c)->metrics, "roi_usec",
				       ns->failed_value);
		else
			case_add_run(c);
		c->runs[c->nruns - 1].status = RUN_FAILED;
	}
	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	assert_int_equal(store_write(&r, path, err, sizeof(err)), 0);
	results_free(&r);
	return path;
}

static struct night_spec night(const char *started, double base)
{
	struct night_spec ns = {
		.host = "box1", .kernel = "6.18.0", .started = started,
		.nreps = 3, .nmetrics = 2, .base = base,
	};
	return ns;
}

static int count_cb(void *ctx, size_t ncols, const char *const *cells)
{
	long *n = ctx;

	*n = ncols && cells[0] ? strtol(cells[0], NULL, 10) : -1;
	return 0;
}

static long count(struct history_db *db, const char *table)
{
	char sql[128];
	long n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	assert_int_equal(db->ops->query(db, "count", sql, 0, NULL, count_cb, &n), 0);
	return n;
}

static void test_import_and_load(void **state)
{
	struct history_db *db;
	struct history_series *s;
	struct night_spec ns;
	int64_t id;
	size_t n;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	/* Imported out of order: nights come back by time. */
	ns = night("2026-01-02T02:00:00Z", 200);
	assert_int_equal(history_import_file(db, write_night(&ns, "n2"), "v2", &id),
			 HISTORY_IMPORTED);
	ns = night("2026-01-01T02:00:00Z", 100);
	ns.failed_value = 99999;
	assert_int_equal(history_import_file(db, write_night(&ns, "n1"), NULL, &id),
			 HISTORY_IMPORTED);
	assert_int_equal(history_db_load_series(db, NULL, &s, &n), 0);
	assert_int_equal(n, 2);	/* roi_usec and vmstat.m1 */
	assert_string_equal(s[0].metric, "roi_usec");
	assert_string_equal(s[0].better, "lower");
	assert_null(s[1].better);	/* vmstat: neutral */
	assert_string_equal(s[0].host, "box1");
	assert_string_equal(s[0].suite, "nightly");
	assert_int_equal(strlen(s[0].suite_hash), 64);
	assert_int_equal(s[0].n_nights, 2);
	assert_string_equal(s[0].nights[0].started, "2026-01-01T02:00:00Z");
	assert_string_equal(s[0].nights[0].kernel_id, "6.18.0");	/* uname -r */
	assert_string_equal(s[0].nights[1].kernel_id, "v2");
	assert_string_equal(s[0].nights[1].kernel_release, "6.18.0");
	assert_int_equal(s[0].nights[0].n, 3);	/* the failed rep is left out */
	assert_true(s[0].nights[0].values[0] == 100 && s[0].nights[0].values[2] == 102);
	assert_true(s[0].nights[1].values[1] == 201);
	assert_string_equal(s[0].nights[0].host_fingerprint,
			    s[0].nights[1].host_fingerprint);
	assert_true(s[0].nights[0].run_id != s[0].nights[1].run_id);
	history_series_array_free(s, n);
	history_db_close(db);
}

static void test_idempotent(void **state)
{
	struct history_db *db;
	struct night_spec ns = night("2026-01-01T02:00:00Z", 100);
	const char *p = write_night(&ns, "idem");
	int64_t id1, id2;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	assert_int_equal(history_import_file(db, p, NULL, &id1), HISTORY_IMPORTED);
	assert_int_equal(history_import_file(db, p, "other", &id2), HISTORY_ALREADY);
	assert_int_equal(id1, id2);
	assert_int_equal(count(db, "runs"), 1);
	assert_int_equal(count(db, "night_metrics"), 2);
	assert_int_equal(count(db, "rep_values"), 6);
	assert_int_equal(count(db, "reps"), 4);
	history_db_close(db);
	/* A reopened database keeps it, and the schema is not recreated. */
	assert_int_equal(history_db_open_existing(spec, &db, NULL, 0), 0);
	assert_int_equal(history_import_file(db, p, NULL, &id2), HISTORY_ALREADY);
	assert_int_equal(count(db, "thpbench_schema"), 1);
	history_db_close(db);
}

/* A night of 3 values first, first + 1, first + 2: repetition order. */
static void assert_three_from(const struct history_night *nt, double first)
{
	assert_int_equal(nt->n, 3);
	assert_true(nt->values[0] == first && nt->values[1] == first + 1 &&
		    nt->values[2] == first + 2);
}

static void test_series_apart(void **state)
{
	struct history_filter f = { .host = "box2" };
	struct history_db *db;
	struct history_series *s;
	struct night_spec ns;
	int64_t id;
	size_t n;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	ns = night("2026-01-01T02:00:00Z", 1);
	history_import_file(db, write_night(&ns, "a1"), NULL, &id);
	ns.host = "box2";
	history_import_file(db, write_night(&ns, "a2"), NULL, &id);
	ns.host = "box1";
	ns.ncases = 2;	/* another suite version */
	ns.started = "2026-01-02T02:00:00Z";
	ns.base = 10;
	ns.failed_value = 99999;
	history_import_file(db, write_night(&ns, "a3"), NULL, &id);
	assert_int_equal(history_db_load_series(db, NULL, &s, &n), 0);
	/* box1 v1: case0 x 2 metrics; box1 v2: 2 cases x 2; box2: 2 */
	assert_int_equal(n, 8);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(s[i].n_nights, 1);
	history_series_array_free(s, n);
	assert_int_equal(history_db_load_series(db, &f, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(s[0].host, "box2");
	/* Each night with its own values, and only those (roi_usec first). */
	assert_string_equal(s[0].metric, "roi_usec");
	assert_three_from(&s[0].nights[0], 1);
	assert_string_equal(s[1].metric, "vmstat.m1");
	assert_int_equal(s[1].nights[0].n, 3);
	assert_true(s[1].nights[0].values[0] == 1 && s[1].nights[0].values[2] == 1);
	history_series_array_free(s, n);
	/* Most of the history (6 of 8 night rows): its values by a scan. */
	f.host = "box1";
	assert_int_equal(history_db_load_series(db, &f, &s, &n), 0);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(s[i].nights[0].n, 3);
	assert_true(s[0].nights[0].values[0] == 1 && s[2].nights[0].values[2] == 12);
	history_series_array_free(s, n);
	f.host = NULL;
	f.metric = "roi_usec";
	f.case_id = "case1/thp=always";
	assert_int_equal(history_db_load_series(db, &f, &s, &n), 0);
	assert_int_equal(n, 1);
	/* Filtered, in repetition order, the failed repetition's value left out. */
	assert_int_equal(s[0].n_nights, 1);
	assert_three_from(&s[0].nights[0], 10);
	history_series_array_free(s, n);
	history_db_close(db);
}

/*
 * Two runs of one start time, imported newest kernel first: in kernel
 * order, each with its own values.
 */
static void test_same_time_runs(void **state)
{
	struct history_db *db;
	struct history_series *s;
	struct night_spec ns;
	int64_t id;
	size_t n;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	ns = night("2026-01-03T02:00:00Z", 100);
	ns.kernel = "v6.18-rc2";
	history_import_file(db, write_night(&ns, "t1"), NULL, &id);
	ns = night("2026-01-03T02:00:00Z", 1);
	ns.kernel = "v6.18-rc1";
	history_import_file(db, write_night(&ns, "t2"), NULL, &id);
	ns = night("2026-01-02T02:00:00Z", 50);
	history_import_file(db, write_night(&ns, "t3"), NULL, &id);
	assert_int_equal(history_db_load_series(db, NULL, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(s[0].n_nights, 3);
	assert_true(s[0].nights[0].values[0] == 50);
	assert_string_equal(s[0].nights[1].kernel_id, "v6.18-rc1");
	assert_three_from(&s[0].nights[1], 1);
	assert_string_equal(s[0].nights[2].kernel_id, "v6.18-rc2");
	assert_three_from(&s[0].nights[2], 100);
	history_series_array_free(s, n);
	history_db_close(db);
}

/*
 * Values come back in repetition order whatever order the database gives
 * them in (a PostgreSQL scan gives them in the order they were written):
 * one night's values written again, last repetition first.
 */
static void test_values_in_rep_order(void **state)
{
	struct history_db *db;
	struct history_series *s;
	struct night_spec ns;
	int64_t id;
	size_t n;
	char sql[200];
	int rep;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	ns = night("2026-01-04T02:00:00Z", 10);
	assert_int_equal(history_import_file(db, write_night(&ns, "r1"), NULL, &id),
			 HISTORY_IMPORTED);
	assert_int_equal(hdb_exec(db, "take the values out",
				  "DELETE FROM rep_values WHERE metric = 'roi_usec'", 0, NULL), 0);
	for (rep = 2; rep >= 0; rep--) {
		snprintf(sql, sizeof(sql),
			 "INSERT INTO rep_values (run_id, case_id, rep, metric, value)"
			 " SELECT id, 'case0/thp=always', %d, 'roi_usec', %d FROM runs",
			 rep, 10 + rep);
		assert_int_equal(hdb_exec(db, "write them back, last first", sql, 0, NULL), 0);
	}
	assert_int_equal(history_db_load_series(db, NULL, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(s[0].metric, "roi_usec");
	assert_three_from(&s[0].nights[0], 10);
	history_series_array_free(s, n);
	history_db_close(db);
}

static void test_hostile_strings(void **state)
{
	static const char evil[] = "x'); DROP TABLE runs; --\"\\";
	struct history_filter f = { .host = evil };
	struct history_run_info *runs;
	struct history_db *db;
	struct history_series *s;
	struct night_spec ns = night("2026-01-01T02:00:00Z", 5);
	int64_t id;
	size_t n;

	(void)state;
	ns.host = evil;
	ns.suite = "s'uite";
	ns.case_id = "c\"a'se;--/thp=always";
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	assert_int_equal(history_import_file(db, write_night(&ns, "evil"), NULL, &id),
			 HISTORY_IMPORTED);
	assert_int_equal(history_db_load_series(db, &f, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(s[0].host, evil);
	assert_string_equal(s[0].case_id, ns.case_id);
	history_series_array_free(s, n);
	assert_int_equal(history_db_list_runs(db, &f, &runs, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(runs[0].suite, "s'uite");
	history_run_info_free(runs, n);
	/* Kernel ids that could smuggle shell or SQL are refused. */
	assert_int_equal(history_kernel_id_check("v6.18-rc1-12-gabcdef0"), 0);
	assert_int_not_equal(history_kernel_id_check("a b"), 0);
	assert_int_not_equal(history_kernel_id_check("x;rm"), 0);
	assert_int_not_equal(history_kernel_id_check("$(id)"), 0);
	assert_int_not_equal(history_kernel_id_check(""), 0);
	assert_int_equal(history_import_file(db, write_night(&ns, "evil"), "a'b", &id), -1);
	history_db_close(db);
}

static void test_bad_input(void **state)
{
	struct history_db *db;
	struct night_spec ns = night("yesterday", 5);
	char path[600];
	char err[2048];
	FILE *f;
	int64_t id;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	assert_int_equal(history_import_file(db, write_night(&ns, "bad"), NULL, &id), -1);
	/* The reason is kept in the handle, naming the file and the field. */
	assert_non_null(strstr(history_db_error(db), "bad.json: env.started"));
	snprintf(path, sizeof(path), "%s/garbage.json", dir);
	f = fopen(path, "w");
	fputs("{\"schema\": \"thpbench-results/1\", \"cases\": 3}", f);
	fclose(f);
	assert_int_equal(history_import_file(db, path, NULL, &id), -1);
	assert_int_equal(history_import_file(db, "/nonexistent.json", NULL, &id), -1);
	assert_non_null(strstr(history_db_error(db), "/nonexistent.json"));
	assert_int_equal(count(db, "runs"), 0);
	history_db_close(db);
	if (!pg_uri) {
		/* Reading a database that is not there does not create it. */
		snprintf(path, sizeof(path), "%s/missing.sqlite", dir);
		assert_int_equal(history_db_open_existing(path, &db, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "missing.sqlite: no such history database"));
		assert_int_equal(access(path, F_OK), -1);
		/* Nor is any file taken for one. */
		snprintf(path, sizeof(path), "%s/garbage.json", dir);
		err[0] = '\0';
		assert_int_equal(history_db_open_existing(path, &db, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "garbage.json"));
	}
}

static void test_newer_schema(void **state)
{
	struct history_db *db;
	char err[2048];

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	assert_int_equal(hdb_exec(db, "bump", "UPDATE thpbench_schema SET version = 99",
				  0, NULL), 0);
	history_db_close(db);
	assert_int_equal(history_db_open(spec, &db, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "written by a newer thpbench (history schema 99"));
}

/* Each child imports its own nights and one shared file. */
static void writer(int w, int nfiles, const char *shared)
{
	struct history_db *db;
	struct night_spec ns;
	char name[64], when[32];
	int64_t id;
	int i, bad = 0;

	if (history_db_open(spec, &db, NULL, 0))
		_exit(10);
	for (i = 0; i < nfiles; i++) {
		snprintf(name, sizeof(name), "w%d-%d", w, i);
		snprintf(when, sizeof(when), "2026-02-%02dT0%d:00:00Z", i + 1, w);
		ns = night(when, 10 * w + i);
		bad += history_import_file(db, write_night(&ns, name), NULL, &id) !=
		       HISTORY_IMPORTED;
		if (i == nfiles / 2)
			bad += history_import_file(db, shared, NULL, &id) < 0;
	}
	history_db_close(db);
	_exit(bad ? 1 : 0);
}

static void test_concurrent_writers(void **state)
{
	const int nfiles = 12;
	struct history_db *db;
	struct night_spec ns = night("2026-03-01T02:00:00Z", 1);
	char shared[600];
	pid_t pid[2];
	int w, st;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	history_db_close(db);
	snprintf(shared, sizeof(shared), "%s", write_night(&ns, "shared"));
	for (w = 0; w < 2; w++) {
		pid[w] = fork();
		assert_true(pid[w] >= 0);
		if (!pid[w])
			writer(w, nfiles, shared);
	}
	for (w = 0; w < 2; w++) {
		assert_int_equal(waitpid(pid[w], &st, 0), pid[w]);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
	assert_int_equal(history_db_open_existing(spec, &db, NULL, 0), 0);
	assert_int_equal(count(db, "runs"), 2 * nfiles + 1);
	assert_int_equal(count(db, "night_metrics"), 2 * (2 * nfiles + 1));
	assert_int_equal(count(db, "rep_values"), 6 * (2 * nfiles + 1));
	history_db_close(db);
}

/* Killed mid-import: the run is there whole or not at all. */
static void test_killed_writer(void **state)
{
	struct night_spec ns = night("2026-04-01T02:00:00Z", 1);
	struct history_db *db;
	const char *p;
	long runs, values;
	int64_t id;
	pid_t pid;
	int st, delay_ms;

	(void)state;
	ns.ncases = 60;
	ns.nreps = 10;
	ns.nmetrics = 20;	/* 12,000 values */
	p = write_night(&ns, "big");
	for (delay_ms = 5; delay_ms <= 80; delay_ms *= 4) {
		assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
		history_db_close(db);
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			if (history_db_open(spec, &db, NULL, 0))
				_exit(10);
			history_import_file(db, p, NULL, &id);
			_exit(0);
		}
		usleep((useconds_t)delay_ms * 1000);
		kill(pid, SIGKILL);
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_int_equal(history_db_open(spec, &db, NULL, 0), 0);
		runs = count(db, "runs");
		values = count(db, "rep_values");
		assert_true((runs == 0 && values == 0) || (runs == 1 && values == 12000));
		assert_true(count(db, "night_metrics") == (runs ? 60 * 20 : 0));
		/* And it imports (or finds it) afterwards. */
		assert_true(history_import_file(db, p, NULL, &id) >= 0);
		assert_int_equal(count(db, "rep_values"), 12000);
		history_db_close(db);
	}
}

/*
 * A night stamped after the import is refused (it would stay the newest
 * and hide later regressions); a wrongly imported run can be deleted,
 * with everything of it.
 */
static void test_future_refused_and_delete(void **state)
{
	struct history_db *db;
	struct night_spec ns = night("2099-01-01T02:00:00Z", 100);
	struct history_series *s;
	char what[512];
	int64_t id1, id2;
	size_t n;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	assert_int_equal(history_import_file(db, write_night(&ns, "future"), NULL, &id1), -1);
	assert_int_equal(count(db, "runs"), 0);
	ns = night("2026-01-01T02:00:00Z", 100);
	assert_int_equal(history_import_file(db, write_night(&ns, "d1"), NULL, &id1),
			 HISTORY_IMPORTED);
	ns = night("2026-01-02T02:00:00Z", 500);
	assert_int_equal(history_import_file(db, write_night(&ns, "d2"), NULL, &id2),
			 HISTORY_IMPORTED);
	assert_int_equal(history_delete_run(db, id2, what, sizeof(what)), 1);
	assert_non_null(strstr(what, "2026-01-02T02:00:00Z host box1 kernel 6.18.0 from "));
	assert_int_equal(count(db, "runs"), 1);
	assert_int_equal(count(db, "cases"), 1);
	assert_int_equal(count(db, "reps"), 4);
	assert_int_equal(count(db, "rep_values"), 6);
	assert_int_equal(count(db, "night_metrics"), 2);
	assert_int_equal(history_db_load_series(db, NULL, &s, &n), 0);
	assert_int_equal(s[0].n_nights, 1);
	assert_true(s[0].nights[0].values[0] == 100);
	history_series_array_free(s, n);
	assert_int_equal(history_delete_run(db, id2, what, sizeof(what)), 0);
	/* the deleted file may be imported again */
	assert_int_equal(history_import_file(db, write_night(&ns, "d2"), NULL, &id2),
			 HISTORY_IMPORTED);
	history_db_close(db);
}

/*
 * SQLite and PostgreSQL take the same ids: PostgreSQL's index rows hold
 * about 2.7 kB (it refused ids over 8 kB that SQLite stored), so both
 * refuse what is over the limits, and both store what is at them. A
 * value beyond 1e150 is left out, with a word, not averaged into inf.
 */
static void test_limits_same_on_both(void **state)
{
	char id[HISTORY_CASE_ID_MAX + 2], name[HISTORY_NAME_MAX + 2];
	struct history_db *db;
	struct night_spec ns = night("2026-01-01T02:00:00Z", 1);
	struct history_series *s;
	int64_t rid;
	size_t n;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	memset(id, 'c', sizeof(id));
	id[HISTORY_CASE_ID_MAX] = '\0';
	ns.case_id = id;
	assert_int_equal(history_import_file(db, write_night(&ns, "id-max"), NULL, &rid),
			 HISTORY_IMPORTED);
	id[HISTORY_CASE_ID_MAX] = 'c';
	id[HISTORY_CASE_ID_MAX + 1] = '\0';
	ns.started = "2026-01-02T02:00:00Z";
	assert_int_equal(history_import_file(db, write_night(&ns, "id-over"), NULL, &rid), -1);
	ns.case_id = NULL;
	memset(name, 'm', sizeof(name));
	name[HISTORY_NAME_MAX + 1] = '\0';
	ns.metric = name;
	assert_int_equal(history_import_file(db, write_night(&ns, "metric-over"), NULL, &rid), -1);
	ns.metric = NULL;
	ns.host = name;
	assert_int_equal(history_import_file(db, write_night(&ns, "host-over"), NULL, &rid), -1);
	name[HISTORY_NAME_MAX] = '\0';
	assert_int_equal(history_import_file(db, write_night(&ns, "host-max"), NULL, &rid),
			 HISTORY_IMPORTED);
	assert_int_equal(count(db, "runs"), 2);
	/* values near 1e308: roi_usec left out of that night, m1 kept */
	ns = night("2026-01-03T02:00:00Z", 1.5e308);
	ns.host = "bigbox";
	assert_int_equal(history_import_file(db, write_night(&ns, "big"), NULL, &rid),
			 HISTORY_IMPORTED);
	{
		struct history_filter f = { .host = "bigbox" };

		assert_int_equal(history_db_load_series(db, &f, &s, &n), 0);
		assert_int_equal(n, 1);
		assert_string_equal(s[0].metric, "vmstat.m1");
		history_series_array_free(s, n);
	}
	history_db_close(db);
}

/* stderr of fn(arg) as text (static buffer). */
static const char *stderr_of(void (*fn)(const char *), const char *arg)
{
	static char out[4096];
	char path[700];
	int saved, fd;

	snprintf(path, sizeof(path), "%s/stderr", dir);
	fflush(stderr);
	saved = dup(2);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_int_equal(read_file_str(path, out, sizeof(out)), 0);
	return out;
}

/* What try_open got back in err. */
static char open_err[2048];

static void try_open(const char *uri)
{
	struct history_db *db;

	open_err[0] = '\0';
	assert_int_equal(history_db_open_existing(uri, &db, open_err,
						  sizeof(open_err)), -1);
}

/*
 * A PostgreSQL password is never shown: not in the spec as messages and
 * index.html show it, not in libpq's connection error (which quotes the
 * rest of a password with an unescaped '@' as a host name).
 */
static void test_password_never_shown(void **state)
{
	char buf[512];
	const char *err;

	(void)state;
	history_db_spec_show("postgresql://thp:s3cr3t@db.lab/history", buf, sizeof(buf));
	assert_string_equal(buf, "postgresql://thp:***@db.lab/history");
	history_db_spec_show("postgres://thp@db.lab:5432/h?sslmode=require&password=s3cr3t",
			     buf, sizeof(buf));
	assert_string_equal(buf, "postgres://thp@db.lab:5432/h?sslmode=require&password=***");
	history_db_spec_show("postgresql://u:hun@ter2xyz@db.lab/h", buf, sizeof(buf));
	assert_null(strstr(buf, "hun"));
	assert_null(strstr(buf, "ter2xyz"));
	history_db_spec_show("postgresql://u:p%40ssw0rd@db.lab/h", buf, sizeof(buf));
	assert_string_equal(buf, "postgresql://u:***@db.lab/h");
	history_redact("postgresql://u:p%40ssw0rd@db.lab/h",
		       "password authentication failed: p@ssw0rd", buf, sizeof(buf));
	assert_null(strstr(buf, "ssw0rd"));
	history_db_spec_show("results/history.sqlite", buf, sizeof(buf));
	assert_string_equal(buf, "results/history.sqlite");
	/* The error comes back in err; the library prints nothing. */
	err = stderr_of(try_open, "postgresql://u:hun@ter2xyz@localhost:1/db");
	assert_string_equal(err, "");
	assert_non_null(strstr(open_err, "cannot connect"));
	assert_null(strstr(open_err, "ter2xyz"));
	err = stderr_of(try_open, "postgresql://u:port@/db?port=s3cr3tport&password=s3cr3tport");
	assert_string_equal(err, "");
	assert_non_null(strstr(open_err, "cannot connect"));
	assert_null(strstr(open_err, "s3cr3t"));
}

/* A version 1 database (the schema before machine names and triage). */
static void downgrade_to_v1(const char *dbspec)
{
	struct history_db *db;

	assert_int_equal(history_db_open(dbspec, &db, NULL, 0), 0);
	assert_int_equal(db->ops->script(db, "drop", "ALTER TABLE runs DROP COLUMN hostname"), 0);
	assert_int_equal(db->ops->script(db, "drop", "DROP TABLE triage"), 0);
	assert_int_equal(db->ops->script(db, "drop", "DROP TABLE confirmations"), 0);
	assert_int_equal(db->ops->script(db, "drop", "UPDATE thpbench_schema SET version = 1"), 0);
	history_db_close(db);
}

static int text_cb(void *ctx, size_t ncols, const char *const *cells)
{
	char **out = ctx;

	if (ncols && !*out)
		*out = xstrdup(cells[0] ? cells[0] : "(null)");
	return 0;
}

static char *one(struct history_db *db, const char *sql)
{
	char *out = NULL;

	assert_int_equal(db->ops->query(db, "one", sql, 0, NULL, text_cb, &out), 0);
	return out;
}

static void test_migrate_v1(void **state)
{
	struct history_db *db;
	struct history_series *s;
	struct night_spec ns;
	struct history_run_info *runs;
	char *v;
	int64_t id;
	size_t n;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	ns = night("2026-01-01T02:00:00Z", 100);
	history_import_file(db, write_night(&ns, "m1"), NULL, &id);
	ns = night("2026-01-02T02:00:00Z", 101);
	history_import_file(db, write_night(&ns, "m2"), NULL, &id);
	history_db_close(db);
	downgrade_to_v1(spec);
	/* Reading it brings it up to date, in place. */
	assert_int_equal(history_db_open_existing(spec, &db, NULL, 0), 0);
	v = one(db, "SELECT max(version) FROM thpbench_schema");
	assert_string_equal(v, "3");
	free(v);
	assert_int_equal(count(db, "triage"), 0);
	assert_int_equal(count(db, "confirmations"), 0);
	assert_int_equal(history_db_list_runs(db, NULL, &runs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(runs[0].host, "box1");
	assert_string_equal(runs[0].hostname, "box1");
	history_run_info_free(runs, n);
	assert_int_equal(history_db_load_series(db, NULL, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(s[0].n_nights, 2);
	history_series_array_free(s, n);
	/* And it takes new nights. */
	ns = night("2026-01-03T02:00:00Z", 102);
	assert_int_equal(history_import_file(db, write_night(&ns, "m3"), NULL, &id),
			 HISTORY_IMPORTED);
	history_db_close(db);
}

/* A clear step: base 100 for 20 nights, 120 for 4 (values base + rep). */
static void import_step(struct history_db *db, const char *host, size_t nights)
{
	char when[32], name[64];
	struct night_spec ns;
	int64_t id;
	size_t i;

	for (i = 0; i < nights; i++) {
		snprintf(when, sizeof(when), "2026-01-%02zuT02:00:00Z", i + 1);
		snprintf(name, sizeof(name), "%s-%zu", host, i);
		ns = night(when, i < 20 ? 100 : 120);
		ns.host = host;
		ns.nreps = 5;
		assert_int_equal(history_import_file(db, write_night(&ns, name), NULL, &id),
				 HISTORY_IMPORTED);
	}
}

static void test_triage_roundtrip(void **state)
{
	struct history_filter f = { .host = "box1", .metric = "roi_usec" };
	struct history_check_opts o;
	struct history_analysis a;
	struct history_triage t = { 0 }, *got;
	struct history_db *db;
	const struct history_cp *cp;
	size_t n;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	import_step(db, "box1", 24);
	history_check_opts_init(&o);
	assert_int_equal(history_analyse(spec, &f, &o, &a, NULL, 0), 0);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.r[0].ncp, 1);
	cp = &a.r[0].cp[0];
	assert_int_equal(cp->kind, HCP_REGRESSION);
	assert_true(history_result_fails(&a.r[0], HISTORY_FAIL_OPEN));
	/* Kept past the analysis: the decision outlives it. */
	t.cp_id = xstrdup(cp->id);
	t.host = xstrdup(a.v[0].host);
	t.suite = xstrdup(a.v[0].suite);
	t.suite_hash = xstrdup(a.v[0].suite_hash);
	t.case_id = xstrdup(a.v[0].case_id);
	t.metric = xstrdup(a.v[0].metric);
	t.night = xstrdup(a.v[0].nights[cp->night].started);
	t.kernel_id = xstrdup(a.v[0].nights[cp->night].kernel_id);
	t.state = TRIAGE_ACCEPTED;
	t.name = xstrdup("Jane O'Doe");
	/* A reason is required to accept. */
	assert_int_equal(history_triage_record(db, &t), -1);
	t.reason = xstrdup("x'); DROP TABLE triage; --");
	assert_int_equal(history_triage_record(db, &t), 0);
	assert_true(t.id > 0);
	free(t.decided);
	t.decided = NULL;
	history_analysis_free(&a);
	assert_int_equal(history_analyse(spec, &f, &o, &a, NULL, 0), 0);
	assert_int_equal(history_cp_status(&a.r[0].cp[0]), HCP_STATUS_ACCEPTED);
	assert_string_equal(a.r[0].cp[0].triage.reason, "x'); DROP TABLE triage; --");
	assert_string_equal(a.r[0].cp[0].triage.name, "Jane O'Doe");
	assert_false(history_result_fails(&a.r[0], HISTORY_FAIL_OPEN));
	history_analysis_free(&a);
	/* Reopened: open again; both decisions kept. */
	t.state = TRIAGE_REOPENED;
	free(t.reason);
	t.reason = NULL;
	assert_int_equal(history_triage_record(db, &t), 0);
	got = xmalloc(sizeof(*got));
	*got = t;
	history_triage_free(got, 1);
	assert_int_equal(history_analyse(spec, &f, &o, &a, NULL, 0), 0);
	assert_int_equal(history_cp_status(&a.r[0].cp[0]), HCP_STATUS_OPEN);
	history_analysis_free(&a);
	assert_int_equal(history_triage_load(db, NULL, false, &got, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(got[0].state, TRIAGE_ACCEPTED);
	assert_string_equal(got[0].night, "2026-01-21T02:00:00Z");
	history_triage_free(got, n);
	assert_int_equal(history_triage_load(db, NULL, true, &got, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(got[0].state, TRIAGE_REOPENED);
	history_triage_free(got, n);
	f.host = "box2";
	assert_int_equal(history_triage_load(db, &f, true, &got, &n), 0);
	assert_int_equal(n, 0);
	history_triage_free(got, n);
	history_db_close(db);
}

static void import_as(struct history_db *db, const char *path,
		      const char *machine, int want)
{
	struct history_import_opts o = { .machine = machine };
	int64_t id;

	assert_int_equal(history_import_files(db, (char *const[]){ (char *)path },
					      1, &o, NULL, NULL), want < 0 ? 1 : 0);
	(void)id;
}

/* A renamed host stays one series under its machine name. */
static void test_machine(void **state)
{
	struct history_run_info *runs;
	struct history_series *s;
	struct history_db *db;
	struct night_spec ns;
	size_t n;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	ns = night("2026-01-01T02:00:00Z", 100);
	ns.host = "old-name";
	import_as(db, write_night(&ns, "r1"), "lab-7", 0);
	ns = night("2026-01-02T02:00:00Z", 100);
	ns.host = "new-name.example.org";
	import_as(db, write_night(&ns, "r2"), "lab-7", 0);
	import_as(db, write_night(&ns, "r3"), "-bad", -1);
	assert_int_equal(history_db_load_series(db, NULL, &s, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(s[0].host, "lab-7");
	assert_int_equal(s[0].n_nights, 2);
	history_series_array_free(s, n);
	assert_int_equal(history_db_list_runs(db, NULL, &runs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(runs[0].hostname, "old-name");
	assert_string_equal(runs[1].hostname, "new-name.example.org");
	assert_string_equal(runs[1].host, "lab-7");
	history_run_info_free(runs, n);
	assert_int_equal(history_machine_check("lab-7.rack2"), 0);
	assert_int_not_equal(history_machine_check("a b"), 0);
	assert_int_not_equal(history_machine_check("x;y"), 0);
	assert_int_not_equal(history_machine_check(""), 0);
	history_db_close(db);
}

/*
 * Two kernels in one night, stamped alike: ordered by their ids whatever
 * the import order; two ids without an order are refused.
 */
static void test_same_second(void **state)
{
	struct history_series *s;
	struct history_db *db;
	struct night_spec ns = night("2026-01-05T02:00:00Z", 100);
	char a[600], b[600];
	int64_t id;
	size_t n;

	(void)state;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	ns.kernel = "6.18.0-later";
	snprintf(b, sizeof(b), "%s", write_night(&ns, "later"));
	ns.base = 200;
	snprintf(a, sizeof(a), "%s", write_night(&ns, "earlier"));
	assert_int_equal(history_import_file(db, b, "v6.18-rc1-5-gbbbbbbb", &id), HISTORY_IMPORTED);
	assert_int_equal(history_import_file(db, a, "v6.18-rc1-3-gaaaaaaa", &id), HISTORY_IMPORTED);
	assert_int_equal(history_db_load_series(db, NULL, &s, &n), 0);
	assert_int_equal(s[0].n_nights, 2);
	assert_string_equal(s[0].nights[0].kernel_id, "v6.18-rc1-3-gaaaaaaa");
	assert_string_equal(s[0].nights[1].kernel_id, "v6.18-rc1-5-gbbbbbbb");
	history_series_array_free(s, n);
	/* Two commits: no order; the second is refused, the first kept. */
	ns.started = "2026-01-06T02:00:00Z";
	snprintf(a, sizeof(a), "%s", write_night(&ns, "c1"));
	ns.base = 300;
	snprintf(b, sizeof(b), "%s", write_night(&ns, "c2"));
	assert_int_equal(history_import_file(db, a, "abcdef0123", &id), HISTORY_IMPORTED);
	assert_int_equal(history_import_file(db, b, "0123abcdef", &id), -1);
	assert_int_equal(count(db, "runs"), 3);
	/* The same kernel twice that second is no puzzle. */
	assert_int_equal(history_import_file(db, b, "abcdef0123", &id), HISTORY_IMPORTED);
	assert_int_equal(history_kernel_order("v6.8-rc1", "v6.8-rc1-2-gabcdef0"), -1);
	assert_int_equal(history_kernel_order("v6.8-rc2", "v6.8-rc1"), 1);
	assert_int_equal(history_kernel_order("v6.8", "v6.8-rc7"), 1);
	assert_int_equal(history_kernel_order("next-20260102", "next-20260101"), 1);
	assert_int_equal(history_kernel_order("v6.9-rc1-2-gabcdef0", "v6.8-rc1-3-gabcdef1"),
			 HISTORY_ORDER_UNKNOWN);
	assert_int_equal(history_kernel_order("6.18.0-1", "6.18.0-2"), HISTORY_ORDER_UNKNOWN);
	history_db_close(db);
}

/* n nights of one machine, day 1.. of month (2026), malloc'ed paths. */
static void write_nights(char **paths, size_t n, int month, const char *prefix)
{
	struct night_spec ns;
	char when[64], name[32];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(when, sizeof(when), "2026-%02d-%02zuT02:00:00Z", month, i + 1);
		snprintf(name, sizeof(name), "%s%zu", prefix, i);
		ns = night(when, 100);
		paths[i] = xstrdup(write_night(&ns, name));
	}
}

/* The messages of a batch, one a line, "E: " or "W: " first. */
static void collect(void *ctx, bool warning, const char *msg)
{
	char *buf = ctx;
	size_t at = strlen(buf);

	snprintf(buf + at, 4096 - at, "%s: %s\n", warning ? "W" : "E", msg);
}

/*
 * Many files, one transaction; a bad one is left out, the rest kept: its
 * error reaches the caller's say, the library prints nothing.
 */
static void test_batch(void **state)
{
	static char said[4096];
	struct history_import_opts o = { .say = collect, .say_ctx = said };
	char *paths[5], bad[600];
	struct history_db *db;
	FILE *f;
	size_t i;

	(void)state;
	write_nights(paths, 4, 3, "batch");
	snprintf(bad, sizeof(bad), "%s/batch-bad.json", dir);
	f = fopen(bad, "w");
	fputs("{\"schema\": \"thpbench-results/1\"", f);
	fclose(f);
	paths[4] = paths[3];
	paths[3] = bad;
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	assert_int_equal(history_import_files(db, paths, 5, &o, NULL, NULL), 1);
	assert_int_equal(count(db, "runs"), 4);
	/* One message: the bad file's error. */
	assert_true(!strncmp(said, "E: ", 3) && strstr(said, "batch-bad.json"));
	assert_ptr_equal(strchr(said, '\n'), said + strlen(said) - 1);
	/* Again: all there already, nothing fails but the bad one. */
	assert_int_equal(history_import_files(db, paths, 5,
					      &(struct history_import_opts){ 0 },
					      NULL, NULL), 1);
	assert_int_equal(count(db, "runs"), 4);
	history_db_close(db);
	paths[3] = paths[4];
	for (i = 0; i < 4; i++)
		free(paths[i]);
}

/* Rows of table whose run is not stored: none may be left behind. */
static long orphans(struct history_db *db, const char *table)
{
	char sql[160];

	snprintf(sql, sizeof(sql), "%s WHERE run_id NOT IN (SELECT id FROM runs)", table);
	return count(db, sql);
}

/*
 * A file that fails after its first write (here the database refuses its
 * repetitions): the batch, written without a savepoint per file, takes
 * the transaction back and imports every file again under a savepoint
 * each: the others are stored, nothing of that file is.
 */
static void test_batch_broken(void **state)
{
	static const char *const tables[] = {
		"cases", "reps", "rep_values", "night_metrics",
	};
	static const char *const poison_sqlite =
		"CREATE TRIGGER poison BEFORE INSERT ON reps"
		" WHEN (SELECT time FROM runs WHERE id = NEW.run_id) = '2026-04-03T02:00:00Z'"
		" BEGIN SELECT RAISE(ABORT, 'poisoned'); END";
	static const char *const poison_pg[] = {
		"CREATE OR REPLACE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$"
		" BEGIN IF (SELECT time FROM runs WHERE id = NEW.run_id) ="
		" '2026-04-03T02:00:00Z'::timestamptz THEN RAISE EXCEPTION 'poisoned';"
		" END IF; RETURN NEW; END $$",
		"CREATE TRIGGER poison BEFORE INSERT ON reps FOR EACH ROW"
		" EXECUTE FUNCTION poison()",
	};
	char *paths[4];
	struct history_db *db;
	long per_night[4];
	size_t i;

	(void)state;
	write_nights(paths, 4, 4, "broken");
	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	/* What one night writes to each table. */
	assert_int_equal(history_import_files(db, paths, 1,
					      &(struct history_import_opts){ 0 },
					      NULL, NULL), 0);
	for (i = 0; i < 4; i++)
		per_night[i] = count(db, tables[i]);
	history_db_close(db);

	assert_int_equal(history_db_open(fresh_db(), &db, NULL, 0), 0);
	if (db->ops->dialect == HDB_PG) {
		assert_int_equal(db->ops->script(db, "poison", poison_pg[0]), 0);
		assert_int_equal(db->ops->script(db, "poison", poison_pg[1]), 0);
	} else {
		assert_int_equal(db->ops->script(db, "poison", poison_sqlite), 0);
	}
	assert_int_equal(history_import_files(db, paths, 4,
					      &(struct history_import_opts){ 0 },
					      NULL, NULL), 1);
	assert_int_equal(count(db, "runs"), 3);
	assert_int_equal(count(db, "runs WHERE time = '2026-04-03T02:00:00Z'"), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(count(db, tables[i]), 3 * per_night[i]);
		assert_int_equal(orphans(db, tables[i]), 0);
	}
	history_db_close(db);
	for (i = 0; i < 4; i++)
		free(paths[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_import_and_load),
		cmocka_unit_test(test_idempotent),
		cmocka_unit_test(test_series_apart),
		cmocka_unit_test(test_same_time_runs),
		cmocka_unit_test(test_values_in_rep_order),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_newer_schema),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_killed_writer),
		cmocka_unit_test(test_batch_broken),
		cmocka_unit_test(test_password_never_shown),
		cmocka_unit_test(test_future_refused_and_delete),
		cmocka_unit_test(test_limits_same_on_both),
		cmocka_unit_test(test_migrate_v1),
		cmocka_unit_test(test_triage_roundtrip),
		cmocka_unit_test(test_machine),
		cmocka_unit_test(test_same_second),
		cmocka_unit_test(test_batch),
	};
	char cmd[600];
	int rc;

	if (!mkdtemp(dir))
		return 1;
	pg_uri = getenv("THPBENCH_TEST_PG");
	if (pg_uri && !*pg_uri)
		pg_uri = NULL;
	rc = pg_uri ? cmocka_run_group_tests_name("history_db_postgresql", tests, NULL, NULL)
		    : cmocka_run_group_tests_name("history_db_sqlite", tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		rc = rc ? rc : 1;
	return rc;
}
