// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench history SUBCOMMAND: the nightly history. This file is the
 * dispatcher and the storage subcommands (import, list); the analysis
 * subcommands add their rows to the table below.
 */
#include "commands.h"

#include <getopt.h>
#include <jansson.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/history_db.h"
#include "history/history_delete.h"
#include "history/history_import.h"
#include "util/util.h"

static void import_usage(FILE *f)
{
	fputs("usage: thpbench history import [--db DB] [--kernel-id ID] RESULTS.json...\n"
	      "  --db DB          SQLite file, or postgresql://... (default "
	      HISTORY_DB_DEFAULT ")\n"
	      "  --kernel-id ID   the kernel's identity from CI (git describe or commit);\n"
	      "                   default: the file's meta.kernel_id (thpbench run\n"
	      "                   --kernel-id), else its uname -r\n"
	      "Importing a file that is already stored does nothing (same content hash).\n",
	      f);
}

/* The parent directory of the default SQLite file may not exist yet. */
static void make_default_dir(const char *db)
{
	if (!strcmp(db, HISTORY_DB_DEFAULT))
		mkdir_p("results", 0755);
}

static int history_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "kernel-id", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dbspec = HISTORY_DB_DEFAULT, *kid = NULL;
	struct history_db *db;
	int64_t id;
	int c, i, rc, failed = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dbspec = optarg; break;
		case 'k': kid = optarg; break;
		case 'h': import_usage(stdout); return TB_EXIT_OK;
		default: import_usage(stderr); return TB_EXIT_ERROR;
		}
	}
	if (optind >= argc) {
		tb_err("history import: no results file given");
		import_usage(stderr);
		return TB_EXIT_ERROR;
	}
	if (kid && history_kernel_id_check(kid)) {
		tb_err("--kernel-id \"%s\": use 1 to 128 characters of A-Z a-z 0-9 . _ + : / @ ~ ^ -",
		       kid);
		return TB_EXIT_ERROR;
	}
	make_default_dir(dbspec);
	if (history_db_open(dbspec, &db))
		return TB_EXIT_ERROR;
	for (i = optind; i < argc; i++) {
		rc = history_import_file(db, argv[i], kid, &id);
		if (rc == HISTORY_IMPORTED)
			printf("%s: imported as run %" PRId64 "\n", argv[i], id);
		else if (rc == HISTORY_ALREADY)
			printf("%s: already stored as run %" PRId64 " (same content)\n",
			       argv[i], id);
		else
			failed++;
	}
	history_db_close(db);
	if (failed)
		tb_err("history import: %d of %d file(s) not imported", failed,
		       argc - optind);
	return failed ? TB_EXIT_ERROR : TB_EXIT_OK;
}

static void init_usage(FILE *f)
{
	fputs("usage: thpbench history init [--db DB]\n"
	      "  open the database, creating it and its schema when missing: a CI job\n"
	      "  runs it before the benchmark, so that a wrong --db (a directory that\n"
	      "  is not there, a server that does not answer) stops it at once\n", f);
}

static int history_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dbspec = HISTORY_DB_DEFAULT;
	struct history_db *db;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dbspec = optarg; break;
		case 'h': init_usage(stdout); return TB_EXIT_OK;
		default: init_usage(stderr); return TB_EXIT_ERROR;
		}
	}
	if (optind < argc) {
		tb_err("history init: unexpected argument \"%s\"", argv[optind]);
		init_usage(stderr);
		return TB_EXIT_ERROR;
	}
	make_default_dir(dbspec);
	if (history_db_open(dbspec, &db))
		return TB_EXIT_ERROR;
	history_db_close(db);
	return TB_EXIT_OK;
}

static void list_usage(FILE *f)
{
	fputs("usage: thpbench history list [--db DB] [--host H] [--suite S] [--format text|json]\n"
	      "  one line per stored run, oldest first: id, time, host, kernel id,\n"
	      "  suite and the first 12 digits of its hash and of the host fingerprint,\n"
	      "  cases and night x case x metric rows\n", f);
}

static void list_text(const struct history_run_info *v, size_t n)
{
	char t[64], h[256], k[256], su[256], sh[80], fp[80];
	size_t i;

	printf("%-6s %-20s %-16s %-28s %-12s %-12s %-12s %5s %7s\n", "run",
	       "time", "host", "kernel", "suite", "suite-hash", "host-fp",
	       "cases", "metrics");
	/* Host names and ids come from results files: printable only. */
	for (i = 0; i < n; i++)
		printf("%-6" PRId64 " %-20s %-16s %-28s %-12s %-12.12s %-12.12s %5ld %7ld\n",
		       v[i].id, str_printable(v[i].started, t, sizeof(t)),
		       str_printable(v[i].host, h, sizeof(h)),
		       str_printable(v[i].kernel_id, k, sizeof(k)),
		       str_printable(v[i].suite, su, sizeof(su)),
		       str_printable(v[i].suite_hash, sh, sizeof(sh)),
		       str_printable(v[i].host_fingerprint, fp, sizeof(fp)),
		       v[i].ncases, v[i].nmetrics);
	printf("%zu run(s)\n", n);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static void list_json(const struct history_run_info *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "id", json_integer(v[i].id));
		json_object_set_new(o, "time", str_or_null(v[i].started));
		json_object_set_new(o, "host", str_or_null(v[i].host));
		json_object_set_new(o, "host_fingerprint", str_or_null(v[i].host_fingerprint));
		json_object_set_new(o, "kernel_id", str_or_null(v[i].kernel_id));
		json_object_set_new(o, "kernel_release", str_or_null(v[i].kernel_release));
		json_object_set_new(o, "suite", str_or_null(v[i].suite));
		json_object_set_new(o, "suite_hash", str_or_null(v[i].suite_hash));
		json_object_set_new(o, "thpbench_version", str_or_null(v[i].thpbench_version));
		json_object_set_new(o, "source", str_or_null(v[i].source));
		json_object_set_new(o, "cases", json_integer(v[i].ncases));
		json_object_set_new(o, "metrics", json_integer(v[i].nmetrics));
		json_array_append_new(a, o);
	}
	json_dumpf(a, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(a);
}

static int history_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "host", required_argument, NULL, 'H' },
		{ "suite", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dbspec = HISTORY_DB_DEFAULT, *format = "text";
	struct history_filter f = { 0 };
	struct history_run_info *v;
	struct history_db *db;
	size_t n;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dbspec = optarg; break;
		case 'H': f.host = optarg; break;
		case 's': f.suite = optarg; break;
		case 'f': format = optarg; break;
		case 'h': list_usage(stdout); return TB_EXIT_OK;
		default: list_usage(stderr); return TB_EXIT_ERROR;
		}
	}
	if (optind < argc || (strcmp(format, "text") && strcmp(format, "json"))) {
		tb_err("history list: %s", optind < argc ? "unexpected argument"
							  : "--format is text or json");
		list_usage(stderr);
		return TB_EXIT_ERROR;
	}
	if (history_db_open_existing(dbspec, &db))
		return TB_EXIT_ERROR;
	if (history_db_list_runs(db, &f, &v, &n)) {
		history_db_close(db);
		return TB_EXIT_ERROR;
	}
	if (!strcmp(format, "json"))
		list_json(v, n);
	else
		list_text(v, n);
	history_run_info_free(v, n);
	history_db_close(db);
	return TB_EXIT_OK;
}

static void delete_usage(FILE *f)
{
	fputs("usage: thpbench history delete [--db DB] RUN_ID...\n"
	      "  take wrongly imported runs (a wrong clock, the wrong box) out of the\n"
	      "  history, with their cases, repetitions and night summaries;\n"
	      "  `history list` shows the ids\n", f);
}

static int history_delete(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dbspec = HISTORY_DB_DEFAULT;
	struct history_db *db;
	char what[1024];
	int c, i, r, failed = 0;
	long id;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dbspec = optarg; break;
		case 'h': delete_usage(stdout); return TB_EXIT_OK;
		default: delete_usage(stderr); return TB_EXIT_ERROR;
		}
	}
	if (optind >= argc) {
		tb_err("history delete: no run id given (history list shows them)");
		delete_usage(stderr);
		return TB_EXIT_ERROR;
	}
	for (i = optind; i < argc; i++)
		if (parse_long(argv[i], &id) || id <= 0) {
			tb_err("history delete: \"%s\" is not a run id (a whole number from history list)",
			       argv[i]);
			return TB_EXIT_ERROR;
		}
	if (history_db_open_existing(dbspec, &db))
		return TB_EXIT_ERROR;
	for (i = optind; i < argc; i++) {
		parse_long(argv[i], &id);
		r = history_delete_run(db, (int64_t)id, what, sizeof(what));
		if (r > 0) {
			printf("deleted run %ld: ", id);
			fputs_printable(what, stdout);
			putchar('\n');
		} else if (!r) {
			tb_err("history delete: no run %ld (history list shows the ids)", id);
			failed++;
		} else {
			failed++;
		}
	}
	history_db_close(db);
	return failed ? TB_EXIT_ERROR : TB_EXIT_OK;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} subcommands[] = {
	{ "init", history_init, "create the database if missing; check that it opens" },
	{ "import", history_import, "record results files in the history database" },
	{ "list", history_list, "the stored runs" },
	{ "delete", history_delete, "take wrongly imported runs out" },
	{ "check", cmd_history_check, "change points, confirmed; exit 1 when the gate fails" },
	{ "plot", cmd_history_plot, "a trend chart per series (gnuplot)" },
	{ "report", cmd_history_report, "a static HTML page: verdicts, charts, tables" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: thpbench history SUBCOMMAND [--db DB] [ARGS...]\n\n");
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		fprintf(f, "  %-8s %s\n", subcommands[i].name, subcommands[i].help);
	fprintf(f, "\nDB: an SQLite file (default " HISTORY_DB_DEFAULT
		   ") or postgresql://USER@HOST/DBNAME.\n"
		   "thpbench history SUBCOMMAND --help for its options.\n");
}

int cmd_history(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return TB_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return TB_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	tb_err("history: unknown subcommand \"%s\"", argv[1]);
	usage(stderr);
	return TB_EXIT_ERROR;
}
