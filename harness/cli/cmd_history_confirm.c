// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_history_confirm - `thpbench history confirm`: the watches a paired
 * A/B run should confirm (--plan), and the recording of that run's
 * comparison (history_confirmation.h).
 *
 *   history confirm [--db DB] [filters] --plan
 *       one line per present watch on a kernel change:
 *       "CASE_ID<TAB>METRIC<TAB>LAST_GOOD_KERNEL<TAB>SUSPECT_KERNEL"
 *   history confirm [--db DB] [filters] [--method M] A.json B.json
 *       compare A (last good) with B (suspect) as `thpbench compare` does
 *       and record, for each such watch whose case and metric the files
 *       hold, compare's verdict; prints one line per recorded watch
 *
 * Exit: 0 done (nothing to confirm included); 2 usage, database, files.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cli_err.h"
#include "compare/compare.h"
#include "history/history_analysis.h"
#include "history/history_confirmation.h"
#include "history/history_db.h"
#include "history/history_triage.h"
#include "results/store.h"
#include "util/utf8.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench history confirm [--db DB] [filters] --plan\n"
	      "       thpbench history confirm [--db DB] [filters] [--method M] A.json B.json\n"
	      "  --plan      list the watches to confirm: CASE METRIC LAST_GOOD SUSPECT\n"
	      "              (tab-separated; the newest night raised a watch on a new kernel)\n"
	      "  A.json B.json  the paired run of the last good (A) and suspect (B)\n"
	      "              kernel, A B A B in one session (merged per kernel);\n"
	      "              compare's verdict is recorded for each watch they cover\n"
	      "  --method M  how it was run: qemu, kexec, stub (default qemu)\n"
	      "  --db DB     SQLite file or postgresql://... (default " HISTORY_DB_DEFAULT ")\n"
	      "filters: --machine M --suite S --case C --metric X\n"
	      "The gate then decides on the confirmation: a regression (or a change of a\n"
	      "neutral counter) fails it, no change clears the watch.\n", f);
}

struct confirm_cli {
	const char *db, *method, *a, *b;
	struct history_filter f;
	bool plan;
};

enum { OPT_DB = 256, OPT_HOST, OPT_SUITE, OPT_CASE, OPT_METRIC, OPT_PLAN,
       OPT_METHOD };

static int parse(struct confirm_cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "machine", required_argument, NULL, OPT_HOST },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "suite", required_argument, NULL, OPT_SUITE },
		{ "case", required_argument, NULL, OPT_CASE },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ "plan", no_argument, NULL, OPT_PLAN },
		{ "method", required_argument, NULL, OPT_METHOD },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case OPT_DB: c->db = optarg; break;
		case OPT_HOST: c->f.host = optarg; break;
		case OPT_SUITE: c->f.suite = optarg; break;
		case OPT_CASE: c->f.case_id = optarg; break;
		case OPT_METRIC: c->f.metric = optarg; break;
		case OPT_PLAN: c->plan = true; break;
		case OPT_METHOD: c->method = optarg; break;
		case 'h': usage(stdout); return 1;
		default: usage(stderr); return -1;
		}
	}
	if (!*c->method || strspn(c->method, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
	    strlen(c->method) || strlen(c->method) > 32) {
		tb_err("history confirm: --method \"%s\": a-z 0-9 - (up to 32)", c->method);
		return -1;
	}
	if (c->plan ? optind != argc : optind + 2 != argc) {
		tb_err("history confirm: %s", c->plan ? "--plan takes no files" :
		       "give the two results files: A.json (last good) B.json (suspect)");
		usage(stderr);
		return -1;
	}
	if (!c->plan) {
		c->a = argv[optind];
		c->b = argv[optind + 1];
	}
	return 0;
}

/*
 * A watch a paired run can settle: tonight, on a kernel other than the
 * night before's and new to the watch's baseline nights. A kernel the
 * baseline already measured (back to A after a night of B) is no suspect:
 * its nights are the baseline.
 */
static bool wanted(const struct history_result *r, size_t *good)
{
	const struct history_watch *w = &r->watch;
	const struct history_night *n = r->s->nights;
	size_t i;

	if (!w->present || !w->kernel_changed || w->night == 0)
		return false;
	*good = w->night - 1;
	if (!n[*good].kernel_id || !n[w->night].kernel_id)
		return false;
	for (i = w->a_from; i < w->night; i++)
		if (n[i].kernel_id && !strcmp(n[i].kernel_id, n[w->night].kernel_id))
			return false;
	return true;
}

static void plan(const struct history_analysis *a)
{
	char x[4][1024];
	size_t i, good;

	for (i = 0; i < a->n; i++) {
		const struct history_series *s = a->r[i].s;

		if (!wanted(&a->r[i], &good))
			continue;
		printf("%s\t%s\t%s\t%s\n", str_escape(s->case_id, x[0], sizeof(x[0])),
		       str_escape(s->metric, x[1], sizeof(x[1])),
		       str_escape(s->nights[good].kernel_id, x[2], sizeof(x[2])),
		       str_escape(s->nights[a->r[i].watch.night].kernel_id, x[3], sizeof(x[3])));
	}
}

static const struct compare_metric *find(const struct comparison *cmp,
					 const char *case_id, const char *metric)
{
	size_t i, j;

	for (i = 0; i < cmp->npairs; i++) {
		if (strcmp(cmp->pairs[i].a->id, case_id))
			continue;
		for (j = 0; j < cmp->pairs[i].nm; j++)
			if (!strcmp(cmp->pairs[i].m[j].name, metric))
				return &cmp->pairs[i].m[j];
	}
	return NULL;
}

/* A metric 0 in every run on both sides: compare does not judge it; for
 * the confirmation it is no change. */
static enum verdict verdict_of(const struct compare_metric *m)
{
	if (compare_metric_all_zero(m))
		return VERDICT_NO_CHANGE;
	return m->verdict;
}

static int record(struct history_db *db, const struct confirm_cli *c,
		  const struct history_analysis *a, const struct comparison *cmp)
{
	char x[3][1024];
	size_t i, good, done = 0;

	for (i = 0; i < a->n; i++) {
		const struct history_result *r = &a->r[i];
		const struct history_series *s = r->s;
		const struct compare_metric *m;
		struct history_confirmation h;
		char id[HISTORY_CP_ID_LEN];

		if (!wanted(r, &good) || !(m = find(cmp, s->case_id, s->metric)))
			continue;
		history_cp_id(s, r->watch.night, id);
		memset(&h, 0, sizeof(h));
		h.cp_id = id;
		h.host = s->host;
		h.suite = s->suite;
		h.suite_hash = s->suite_hash;
		h.case_id = s->case_id;
		h.metric = s->metric;
		h.night = s->nights[r->watch.night].started;
		h.kernel_a = s->nights[good].kernel_id;
		h.kernel_b = s->nights[r->watch.night].kernel_id;
		h.method = (char *)c->method;
		h.verdict = verdict_of(m);
		h.change = m->ch.rel;
		h.lo = m->ch.lo;
		h.hi = m->ch.hi;
		h.p = m->p;
		h.na = (long long)m->a.n;
		h.nb = (long long)m->b.n;
		if (history_confirmation_record(db, &h)) {
			free(h.recorded);
			return -1;
		}
		printf("confirmation %s: %s %s (%s vs %s): %s %+.1f%%, p %.3g (%lld vs %lld runs)\n",
		       id, str_escape(s->case_id, x[0], sizeof(x[0])),
		       str_escape(s->metric, x[1], sizeof(x[1])),
		       str_escape(h.kernel_a, x[2], sizeof(x[2])), h.kernel_b,
		       verdict_name(h.verdict), h.change * 100, h.p, h.na, h.nb);
		free(h.recorded);
		done++;
	}
	if (!done)
		printf("confirmation: no watch of this history is covered by %s and %s\n",
		       c->a, c->b);
	return 0;
}

static int confirm(const struct confirm_cli *c, const struct history_analysis *a)
{
	struct tb_results ra, rb;
	struct comparison cmp;
	struct compare_opts o;
	struct history_db *db;
	char err[2048];
	int rc = TB_EXIT_ERROR;

	if (store_load(c->a, &ra, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	if (store_load(c->b, &rb, err, sizeof(err))) {
		tb_err("%s", err);
		results_free(&ra);
		return TB_EXIT_ERROR;
	}
	compare_opts_init(&o);
	/* Two kernels: their identities differ by design, nothing else may. */
	o.force = true;
	if (compare_build(&cmp, &ra, &rb, &o, err, sizeof(err))) {
		tb_err("history confirm: %s", err);
	} else if (history_db_open_existing(c->db, &db, err, sizeof(err))) {
		tb_err("%s", err);
	} else {
		if (record(db, c, a, &cmp))
			tb_err("%s", history_db_error(db));
		else
			rc = TB_EXIT_OK;
		history_db_close(db);
	}
	compare_free(&cmp);
	results_free(&ra);
	results_free(&rb);
	return rc;
}

int cmd_history_confirm(int argc, char **argv)
{
	struct confirm_cli c = { .db = HISTORY_DB_DEFAULT, .method = "qemu" };
	struct history_check_opts o;
	struct history_analysis a;
	char err[2048];
	int rc = parse(&c, argc, argv);

	if (rc)
		return rc > 0 ? TB_EXIT_OK : TB_EXIT_ERROR;
	history_check_opts_init(&o);
	if (history_analyse(c.db, &c.f, &o, &a, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	if (c.plan) {
		plan(&a);
		rc = TB_EXIT_OK;
	} else {
		rc = confirm(&c, &a);
	}
	history_analysis_free(&a);
	return rc;
}
