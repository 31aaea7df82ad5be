// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench history SUBCOMMAND: the nightly history. This file is the
 * dispatcher and the storage subcommands (import, list); the analysis
 * subcommands add their rows to the table below.
 */
#include "commands.h"
#include "cli_err.h"

#include <getopt.h>
#include <jansson.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/history_db.h"
#include "history/history_delete.h"
#include "history/history_format.h"
#include "history/history_import.h"
#include "history/history_import_batch.h"
#include "history/history_triage.h"
#include "util/utf8.h"
#include "util/util.h"

static void import_usage(FILE *f)
{
	fputs("usage: thpbench history import [--db DB] [--kernel-id ID] [--machine NAME] RESULTS.json|DIR...\n"
	      "  --db DB          SQLite file, or postgresql://... (default "
	      HISTORY_DB_DEFAULT ")\n"
	      "  --kernel-id ID   the kernel's identity from CI (git describe or commit);\n"
	      "                   default: the file's meta.kernel_id (thpbench run\n"
	      "                   --kernel-id), else its uname -r\n"
	      "  --machine NAME   the machine's name, its series' identity; default: the\n"
	      "                   file's meta.machine (thpbench run --machine), else its\n"
	      "                   hostname\n"
	      "  -v, --verbose    say on stderr how the CPU time was spent: reading and\n"
	      "                   checking the files (one thread), writing them (another)\n"
	      "A DIR stands for its *.json and */results.json files. All files go in one\n"
	      "transaction; a file that fails is left out, the others are stored.\n"
	      "Importing a file that is already stored does nothing (same content hash).\n",
	      f);
}

/* history_db_open(_existing), printing what failed. */
static int open_db(const char *spec, bool existing, struct history_db **db)
{
	char err[2048];
	int rc = existing ? history_db_open_existing(spec, db, err, sizeof(err))
			  : history_db_open(spec, db, err, sizeof(err));

	if (rc)
		cli_err(err);
	return rc;
}

/* The parent directory of the default SQLite file may not exist yet. */
static void make_default_dir(const char *db)
{
	if (!strcmp(db, HISTORY_DB_DEFAULT))
		mkdir_p("results", 0755);
}

struct import_outcome {
	const char *path;
	int rc;
	int64_t id;
};

struct import_log {
	struct import_outcome *v;
	size_t n;
};

static void note_import(void *ctx, const char *path, int rc, int64_t id)
{
	struct import_log *l = ctx;

	l->v[l->n++] = (struct import_outcome){ path, rc, id };
}

/* After the commit: only then is "imported" true. */
static void print_imports(const struct import_log *l)
{
	size_t i, counts[3] = { 0 };

	for (i = 0; i < l->n; i++) {
		const struct import_outcome *o = &l->v[i];

		if (o->rc == HISTORY_IMPORTED)
			printf("%s: imported as run %" PRId64 "\n", o->path, o->id);
		else if (o->rc == HISTORY_ALREADY)
			printf("%s: already stored as run %" PRId64 " (same content)\n",
			       o->path, o->id);
		counts[o->rc == HISTORY_IMPORTED ? 0 : o->rc == HISTORY_ALREADY ? 1 : 2]++;
	}
	if (l->n > 1)
		printf("%zu file(s): %zu imported, %zu stored before, %zu failed\n",
		       l->n, counts[0], counts[1], counts[2]);
}

static int history_import(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "kernel-id", required_argument, NULL, 'k' },
		{ "machine", required_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dbspec = HISTORY_DB_DEFAULT;
	struct history_import_opts io = { 0 };
	struct history_import_cpu cpu = { 0 };
	bool verbose = false;
	struct import_log log = { 0 };
	char err[2048];
	struct history_db *db;
	char **paths;
	size_t npaths;
	long failed;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hv", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dbspec = optarg; break;
		case 'k': io.kernel_id = optarg; break;
		case 'm': io.machine = optarg; break;
		case 'v': verbose = true; break;
		case 'h': import_usage(stdout); return TB_EXIT_OK;
		default: import_usage(stderr); return TB_EXIT_ERROR;
		}
	}
	if (optind >= argc) {
		tb_err("history import: no results file given");
		import_usage(stderr);
		return TB_EXIT_ERROR;
	}
	if (io.kernel_id && history_kernel_id_check(io.kernel_id)) {
		tb_err("--kernel-id \"%s\": use 1 to 128 characters of A-Z a-z 0-9 . _ + : / @ ~ ^ -",
		       io.kernel_id);
		return TB_EXIT_ERROR;
	}
	if (io.machine && history_machine_check(io.machine)) {
		tb_err("--machine \"%s\": use 1 to %d characters of A-Z a-z 0-9 . _ + : @ - (not starting with -)",
		       io.machine, HISTORY_MACHINE_MAX);
		return TB_EXIT_ERROR;
	}
	if (history_import_expand(argv + optind, (size_t)(argc - optind), &paths,
				  &npaths, err, sizeof(err))) {
		cli_err(err);
		return TB_EXIT_ERROR;
	}
	make_default_dir(dbspec);
	if (open_db(dbspec, false, &db)) {
		free_strv(paths, npaths);
		return TB_EXIT_ERROR;
	}
	log.v = xcalloc(npaths ? npaths : 1, sizeof(*log.v));
	if (verbose)
		io.cpu = &cpu;
	io.say = cli_say;	/* printed as it happens */
	failed = history_import_files(db, paths, npaths, &io, note_import, &log);
	if (failed < 0)
		cli_err(history_db_error(db));
	if (verbose && failed >= 0)
		fprintf(stderr, "history import: %zu file(s), CPU: read and checked them in %.2f s, wrote them in %.2f s\n",
			npaths, cpu.read_s, cpu.write_s);
	history_db_close(db);
	if (failed < 0)
		tb_err("history import: the transaction failed: nothing of the %zu file(s) was stored",
		       npaths);
	else
		print_imports(&log);
	if (failed > 0)
		tb_err("history import: %ld of %zu file(s) not imported", failed, npaths);
	free(log.v);
	free_strv(paths, npaths);
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
	if (open_db(dbspec, false, &db))
		return TB_EXIT_ERROR;
	history_db_close(db);
	return TB_EXIT_OK;
}

static void list_usage(FILE *f)
{
	fputs("usage: thpbench history list [--db DB] [--machine M] [--suite S] [--triage] [--format text|json]\n"
	      "  one line per stored run, oldest first: id, time, machine, hostname,\n"
	      "  kernel id, suite and the first 12 digits of its hash and of the host\n"
	      "  fingerprint, cases and night x case x metric rows; then the triage\n"
	      "  decisions in force (text).\n"
	      "  --triage   the triage decisions in force only: when, change point id,\n"
	      "             decision, who, series, first bad night and kernel, reason\n", f);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void list_text(const struct history_run_info *v, size_t n)
{
	char t[128], h[512], hn[512], k[512], su[512], sh[13], fp[13];
	size_t i;

	printf("%-6s %-20s %-16s %-16s %-28s %-12s %-12s %-12s %5s %7s\n", "run",
	       "time", "machine", "hostname", "kernel", "suite", "suite-hash",
	       "host-fp", "cases", "metrics");
	/* Host names and ids come from results files: escaped, one line each
	 * (issue 36 small item: a stored newline forged rows); the hashes cut
	 * at 12 by str_escape, never inside an escape. */
	for (i = 0; i < n; i++)
		printf("%-6" PRId64 " %-20s %-16s %-16s %-28s %-12s %-12s %-12s %5ld %7ld\n",
		       v[i].id, str_escape(v[i].started, t, sizeof(t)),
		       str_escape(v[i].host, h, sizeof(h)),
		       str_escape(or_dash(v[i].hostname), hn, sizeof(hn)),
		       str_escape(v[i].kernel_id, k, sizeof(k)),
		       str_escape(v[i].suite, su, sizeof(su)),
		       str_escape(v[i].suite_hash, sh, sizeof(sh)),
		       str_escape(v[i].host_fingerprint, fp, sizeof(fp)),
		       v[i].ncases, v[i].nmetrics);
	printf("%zu run(s)\n", n);
}

/*
 * A stored string as JSON; invalid UTF-8 (SQLite keeps it) as U+FFFD:
 * json_string() refuses it, and the whole row went missing (issue 36
 * small item).
 */
static json_t *str_or_null(const char *s)
{
	char *clean;
	json_t *j;

	if (!s)
		return json_null();
	clean = utf8_clean_dup(s);
	j = json_string(clean);
	free(clean);
	return j ? j : json_null();
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
		json_object_set_new(o, "machine", str_or_null(v[i].host));
		json_object_set_new(o, "hostname", str_or_null(v[i].hostname));
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

static void triage_text(const struct history_triage *v, size_t n, bool heading)
{
	size_t i;

	if (heading)
		printf("\ntriage decisions in force:\n");
	printf("%-20s %-12s %-11s %-16s %s\n", "decided", "id", "decision",
	       "by", "series, first bad night (kernel): reason");
	/*
	 * Names and reasons come from files and people, through a database
	 * that may hold anything: each escaped on its own (issue 36 small
	 * item: a reason's newline forged rows), the separators ours.
	 */
	for (i = 0; i < n; i++) {
		const char *f[] = { or_dash(v[i].decided), v[i].cp_id,
				    or_dash(v[i].name), or_dash(v[i].host),
				    or_dash(v[i].suite), or_dash(v[i].case_id),
				    or_dash(v[i].metric), or_dash(v[i].night),
				    or_dash(v[i].kernel_id), v[i].fix, v[i].reason };
		char *e[ARRAY_SIZE(f)];
		size_t j;

		for (j = 0; j < ARRAY_SIZE(f); j++)
			e[j] = f[j] ? str_escape_dup(f[j]) : NULL;
		printf("%-20s %-12s %-11s %-16s %s %s %s %s, %s (%s)%s%s%s%s\n",
		       e[0], e[1], history_triage_state_name(v[i].state), e[2],
		       e[3], e[4], e[5], e[6], e[7], e[8], e[9] ? ": fix " : "",
		       e[9] ? e[9] : "", e[10] ? ": " : "", e[10] ? e[10] : "");
		for (j = 0; j < ARRAY_SIZE(f); j++)
			free(e[j]);
	}
	printf("%zu decision(s)\n", n);
}

static void triage_json(const struct history_triage *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack(
			"{s:I,s:o,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			"row", (json_int_t)v[i].id, "id", str_or_null(v[i].cp_id),
			"decision", history_triage_state_name(v[i].state),
			"by", str_or_null(v[i].name), "reason", str_or_null(v[i].reason),
			"fix", str_or_null(v[i].fix), "decided", str_or_null(v[i].decided),
			"machine", str_or_null(v[i].host), "suite", str_or_null(v[i].suite),
			"suite_hash", str_or_null(v[i].suite_hash),
			"case", str_or_null(v[i].case_id), "metric", str_or_null(v[i].metric),
			"first_bad_night", str_or_null(v[i].night),
			"first_bad_kernel", str_or_null(v[i].kernel_id)));
	json_dumpf(a, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(a);
}

static int history_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "machine", required_argument, NULL, 'H' },
		{ "host", required_argument, NULL, 'H' },
		{ "suite", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "triage", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dbspec = HISTORY_DB_DEFAULT, *format = "text";
	struct history_filter f = { 0 };
	struct history_run_info *v = NULL;
	struct history_triage *t = NULL;
	struct history_db *db;
	size_t n = 0, nt = 0;
	bool triage_only = false, json;
	int c, rc = TB_EXIT_OK;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dbspec = optarg; break;
		case 'H': f.host = optarg; break;
		case 's': f.suite = optarg; break;
		case 'f': format = optarg; break;
		case 't': triage_only = true; break;
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
	json = !strcmp(format, "json");
	if (open_db(dbspec, true, &db))
		return TB_EXIT_ERROR;
	if ((!triage_only && history_db_list_runs(db, &f, &v, &n)) ||
	    ((triage_only || !json) && history_triage_load(db, &f, true, &t, &nt))) {
		cli_err(history_db_error(db));
		rc = TB_EXIT_ERROR;
	}
	else if (triage_only && json)
		triage_json(t, nt);
	else if (triage_only)
		triage_text(t, nt, false);
	else if (json)
		list_json(v, n);
	else {
		list_text(v, n);
		if (nt)
			triage_text(t, nt, true);
	}
	history_run_info_free(v, n);
	history_triage_free(t, nt);
	history_db_close(db);
	return rc;
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
	if (open_db(dbspec, true, &db))
		return TB_EXIT_ERROR;
	for (i = optind; i < argc; i++) {
		parse_long(argv[i], &id);
		r = history_delete_run(db, (int64_t)id, what, sizeof(what));
		if (r > 0) {
			printf("deleted run %ld: ", id);
			fputs_escaped(what, stdout);
			putchar('\n');
		} else if (!r) {
			tb_err("history delete: no run %ld (history list shows the ids)", id);
			failed++;
		} else {
			cli_err(history_db_error(db));
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
	{ "list", history_list, "the stored runs and the triage decisions in force" },
	{ "delete", history_delete, "take wrongly imported runs out" },
	{ "check", cmd_history_check, "change points, confirmed; exit 1 when the gate fails" },
	{ "plot", cmd_history_plot, "a trend chart per series (gnuplot)" },
	{ "report", cmd_history_report, "a static HTML page: verdicts, charts, tables" },
	{ "triage", cmd_history_triage, "record a decision on a change point: accepted, false alarm, fixed" },
	{ "confirm", cmd_history_confirm, "the watches to confirm (--plan); record a paired A/B run's verdict" },
	{ "range", cmd_history_range, "the kernels to bisect between, from a series' newest change" },
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
