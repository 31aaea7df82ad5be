// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_history_range - `thpbench history range --case C --metric M`: the
 * kernels `./run.sh bisect --from-history` bisects between
 * (history/history_range.h), printed as KIND, GOOD and BAD, each ended
 * by a NUL byte (kernel ids come from the database: any bytes but NUL),
 * so that the script reads no history JSON itself. Exit 0; 2 when the
 * history names no such range.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_err.h"
#include "commands.h"
#include "history/history_analysis.h"
#include "history/history_range.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench history range [--db DB] --case C --metric M [--host H] [--suite S]\n"
	      "  The newest confirmed regression, improvement or change of the one\n"
	      "  series C M (of one host and suite): its kind, the kernel id of the\n"
	      "  last night before it (GOOD) and of the first night after (BAD),\n"
	      "  each ended by a NUL byte. ./run.sh bisect --from-history asks it.\n", f);
}

enum { OPT_DB = 256, OPT_HOST, OPT_SUITE, OPT_CASE, OPT_METRIC };

static int parse(int argc, char **argv, const char **db,
		 struct history_filter *f)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, OPT_DB },
		{ "machine", required_argument, NULL, OPT_HOST },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "suite", required_argument, NULL, OPT_SUITE },
		{ "case", required_argument, NULL, OPT_CASE },
		{ "metric", required_argument, NULL, OPT_METRIC },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	optind = 1;
	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case OPT_DB: *db = optarg; break;
		case OPT_HOST: f->host = optarg; break;
		case OPT_SUITE: f->suite = optarg; break;
		case OPT_CASE: f->case_id = optarg; break;
		case OPT_METRIC: f->metric = optarg; break;
		case 'h': usage(stdout); return 1;
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc || !f->case_id || !f->metric) {
		tb_err("history range: give --case and --metric (one series), and nothing else");
		usage(stderr);
		return -1;
	}
	return 0;
}

int cmd_history_range(int argc, char **argv)
{
	struct history_filter f = { 0 };
	struct history_check_opts o;
	struct history_analysis a;
	struct history_range r;
	const char *db = HISTORY_DB_DEFAULT;
	char err[2048];
	int rc;

	rc = parse(argc, argv, &db, &f);
	if (rc)
		return rc > 0 ? TB_EXIT_OK : TB_EXIT_ERROR;
	history_check_opts_init(&o);
	if (history_analyse(db, &f, &o, &a, err, sizeof(err))) {
		cli_err(err);
		return TB_EXIT_ERROR;
	}
	rc = history_range_pick(&a, &f, &r, err, sizeof(err));
	if (rc)
		tb_err("history range: %s", err);
	else
		printf("%s%c%s%c%s%c", r.kind, 0, r.good, 0, r.bad, 0);
	history_analysis_free(&a);
	return rc ? TB_EXIT_ERROR : TB_EXIT_OK;
}
