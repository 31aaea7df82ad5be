// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_history_triage - `thpbench history triage ID DECISION --by NAME`:
 * record what someone decided about a confirmed change point
 * (history_triage.h), after finding it in the history the way `history
 * check` does with its default options (history_analysis.h), so that a
 * mistyped or stale id is refused rather than stored.
 *
 * Exit: 0 recorded; 2 usage, database, or no such change point.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cli_err.h"
#include "history/history_analysis.h"
#include "history/history_db.h"
#include "history/history_gate.h"
#include "history/history_triage.h"
#include "util/utf8.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench history triage [--db DB] [filters] ID DECISION --by NAME [--reason TEXT]\n"
	      "  ID          a change point's id, as history check prints it (a unique\n"
	      "              prefix of 6 digits or more will do)\n"
	      "  DECISION    --accept        intended (--reason required)\n"
	      "              --false-alarm   not a real change\n"
	      "              --fixed-by REF  linked to its fix (commit, URL)\n"
	      "              --reopen        take back the decision before\n"
	      "  --by NAME   who decides (up to 100 characters); --reason TEXT why\n"
	      "              (up to 1000); UTF-8, no control characters\n"
	      "  --db DB     SQLite file or postgresql://... (default " HISTORY_DB_DEFAULT ")\n"
	      "filters (to look in fewer series): --machine M --suite S --case C --metric X\n"
	      "A triaged regression no longer fails the gate; reports show it as skipped\n"
	      "with the reason. Decisions are kept: history list --triage shows them.\n", f);
}

struct triage_cli {
	const char *db, *id;
	struct history_filter f;
	struct history_triage t;
	int decisions;
};

enum { OPT_DB = 256, OPT_HOST, OPT_SUITE, OPT_CASE, OPT_METRIC, OPT_ACCEPT,
       OPT_FALSE, OPT_FIXED, OPT_REOPEN, OPT_BY, OPT_REASON };

static int parse(struct triage_cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "machine", required_argument, NULL, OPT_HOST },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "suite", required_argument, NULL, OPT_SUITE },
		{ "case", required_argument, NULL, OPT_CASE },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ "accept", no_argument, NULL, OPT_ACCEPT },
		{ "false-alarm", no_argument, NULL, OPT_FALSE },
		{ "fixed-by", required_argument, NULL, OPT_FIXED },
		{ "reopen", no_argument, NULL, OPT_REOPEN },
		{ "by", required_argument, NULL, OPT_BY },
		{ "reason", required_argument, NULL, OPT_REASON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[512];
	int o;

	optind = 1;
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case OPT_DB: c->db = optarg; break;
		case OPT_HOST: c->f.host = optarg; break;
		case OPT_SUITE: c->f.suite = optarg; break;
		case OPT_CASE: c->f.case_id = optarg; break;
		case OPT_METRIC: c->f.metric = optarg; break;
		case OPT_ACCEPT: c->t.state = TRIAGE_ACCEPTED; c->decisions++; break;
		case OPT_FALSE: c->t.state = TRIAGE_FALSE_ALARM; c->decisions++; break;
		case OPT_FIXED:
			c->t.state = TRIAGE_FIXED;
			c->t.fix = optarg;
			c->decisions++;
			break;
		case OPT_REOPEN: c->t.state = TRIAGE_REOPENED; c->decisions++; break;
		case OPT_BY: c->t.name = optarg; break;
		case OPT_REASON: c->t.reason = optarg; break;
		case 'h': usage(stdout); return 1;
		default: usage(stderr); return -1;
		}
	}
	if (optind + 1 != argc) {
		tb_err("history triage: %s", optind >= argc ? "no change point id given" :
		       "one change point id at a time");
		usage(stderr);
		return -1;
	}
	c->id = argv[optind];
	if (c->decisions != 1) {
		tb_err("history triage: give one decision: --accept, --false-alarm, --fixed-by REF or --reopen");
		return -1;
	}
	if (strlen(c->id) < 6 || strlen(c->id) >= HISTORY_CP_ID_LEN ||
	    strspn(c->id, "0123456789abcdef") != strlen(c->id)) {
		tb_err("history triage: \"%s\" is no change point id (6 to 12 lower-case hex digits, as history check prints it)",
		       c->id);
		return -1;
	}
	if (history_triage_check(&c->t, err, sizeof(err))) {
		tb_err("%s", err);
		return -1;
	}
	return 0;
}

/*
 * The confirmation: what was recorded, in the words given. A fix is
 * "fixed by REF, decided by NAME" (issue 36 small item: it said "fixed by
 * NAME"). Everything shown escaped (utf8.h): the series from results
 * files, what was typed (checked, but a terminal is no place to find out).
 */
static void confirm(const struct history_triage *t, const struct history_cp *cp,
		    const struct history_series *s)
{
	char name[1024], series[4096], night[256], kernel[1024];
	char *by = str_escape_dup(t->name), *fix = str_escape_dup(t->fix);

	printf("%s: %s by %s", cp->id, history_triage_state_name(t->state),
	       t->state == TRIAGE_FIXED ? fix : by);
	if (t->state == TRIAGE_FIXED)
		printf(", decided by %s", by);
	printf(" (%s: %s at night %s, kernel %s)%s\n",
	       str_escape(history_series_name(s, name, sizeof(name)), series,
			  sizeof(series)),
	       hcp_kind_name(cp->kind), str_escape(t->night, night, sizeof(night)),
	       str_escape(t->kernel_id, kernel, sizeof(kernel)),
	       cp->kind != HCP_REGRESSION ? "; not a regression: the gate never failed on it" :
	       t->state == TRIAGE_REOPENED ? "; it fails the gate again unless it came back" :
	       "; the gate no longer fails on it");
	free(by);
	free(fix);
}

int cmd_history_triage(int argc, char **argv)
{
	char err[2048];
	struct triage_cli c = { .db = HISTORY_DB_DEFAULT };
	struct history_check_opts o;
	struct history_analysis a;
	const struct history_cp *cp;
	const struct history_drift *d;
	struct history_cp as_cp;	/* a drift, named as a change point */
	const struct history_series *s;
	struct history_db *db;
	size_t i;
	int rc;

	rc = parse(&c, argc, argv);
	if (rc)
		return rc > 0 ? TB_EXIT_OK : TB_EXIT_ERROR;
	history_check_opts_init(&o);
	if (history_analyse(c.db, &c.f, &o, &a, err, sizeof(err))) {
		cli_err(err);
		return TB_EXIT_ERROR;
	}
	cp = history_analysis_find_cp(&a, c.id, &i, err, sizeof(err));
	if (!cp && (d = history_analysis_find_drift(&a, c.id, &i))) {
		memset(&as_cp, 0, sizeof(as_cp));
		memcpy(as_cp.id, d->id, sizeof(as_cp.id));
		as_cp.night = d->from;
		as_cp.kind = d->kind;
		cp = &as_cp;
	}
	if (!cp) {
		tb_err("history triage: %s", err);
		history_analysis_free(&a);
		return TB_EXIT_ERROR;
	}
	s = a.r[i].s;
	c.t.cp_id = (char *)cp->id;
	c.t.host = s->host;
	c.t.suite = s->suite;
	c.t.suite_hash = s->suite_hash;
	c.t.case_id = s->case_id;
	c.t.metric = s->metric;
	c.t.night = s->nights[cp->night].started;
	c.t.kernel_id = s->nights[cp->night].kernel_id;
	rc = history_db_open(c.db, &db, err, sizeof(err));
	if (rc)
		cli_err(err);
	else {
		rc = history_triage_record(db, &c.t);
		if (rc)
			cli_err(history_db_error(db));
		history_db_close(db);
	}
	if (!rc)
		confirm(&c.t, cp, s);
	free(c.t.decided);
	history_analysis_free(&a);
	return rc ? TB_EXIT_ERROR : TB_EXIT_OK;
}
