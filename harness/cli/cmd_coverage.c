// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench coverage SUITE.conf | RESULTS.json [--format text|json] [run opts]
 *
 * The path coverage table (compare/compare_coverage.h): which cases moved
 * which THP event counter beyond the background. Given a results file
 * (.json or .jsonl) it reads it; given a suite it runs it first, as `run
 * --background` does (measure/session.h; results.json written to -o DIR
 * or results/SUITE-STAMP), then reports. Exit 0; 2 on an error; 3 when
 * the suite measured nothing valid; 128 + SIGINT when stopped.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_err.h"
#include "cli_session_opt.h"
#include "commands.h"
#include "compare/compare_coverage.h"
#include "measure/session.h"
#include "results/store.h"
#include "util/util.h"

struct cov_opts {
	struct session_opts so;
	bool json;
	const char *input;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: thpbench coverage RESULTS.json [--format text|json]\n"
		"       thpbench coverage SUITE.conf [--format text|json] [-o DIR] [-r N]\n"
		"                         [--thp always,madvise,never] [--warmup N] [--seed S]\n"
		"                         [--wait[=SECONDS]] [--progress auto|tty|lines|none]\n"
		"  Which cases moved each THP event counter (vmstat thp_*, compact_*, htlb_*,\n"
		"  numa_huge_*, each mTHP size's stats), per repetition, beyond the same\n"
		"  interval with the case idle; and which counters nothing moved, and why.\n"
		"  A suite is run first with idle intervals (as run --background).\n");
}

static bool is_results_file(const char *path)
{
	size_t n = strlen(path);

	return (n > 5 && !strcmp(path + n - 5, ".json")) ||
	       (n > 6 && !strcmp(path + n - 6, ".jsonl"));
}

static void parse_opts(int argc, char **argv, struct cov_opts *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "repetitions", required_argument, NULL, 'r' },
		{ "thp", required_argument, NULL, 't' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 's' },
		{ "wait", optional_argument, NULL, 'W' },
		{ "progress", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct session_opts *so = &o->so;
	int c;

	axes_init(&so->axes);
	so->reps = so->warmup = -1;
	so->timeout_s = -1;
	so->background = true;
	while ((c = getopt_long(argc, argv, "o:r:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				tb_die("--format: \"%s\" is not text or json", optarg);
			o->json = !strcmp(optarg, "json");
			break;
		case 'h': usage(stdout); exit(0);
		default:
			if (cli_session_opt(c, optarg, so))
				break;
			usage(stderr);
			exit(TB_EXIT_ERROR);
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		exit(TB_EXIT_ERROR);
	}
	o->input = argv[optind];
	so->suite_path = o->input;
}

static void print(const struct cov_opts *o, const struct tb_results *r)
{
	struct compare_coverage cov;
	json_t *j;

	compare_coverage_build(r, &cov);
	if (o->json) {
		j = compare_coverage_json(&cov);
		json_dumpf(j, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
		json_decref(j);
	} else {
		compare_coverage_text(stdout, &cov);
	}
	compare_coverage_free(&cov);
}

/* Run the suite with idle intervals, as cmd_run does, and report. */
static int run_suite(struct cov_opts *o)
{
	struct session ss;
	char err[1024];
	int rc;

	if (session_load(&ss, &o->so, err, sizeof(err)))
		tb_die("%s", err);
	session_catch_signals();
	if (session_begin(&ss, err, sizeof(err)))
		tb_die("%s", err);
	session_run(&ss);
	rc = session_end(&ss) ? TB_EXIT_ERROR : 0;
	if (session_stopped())
		tb_err("interrupted: reporting the runs completed so far");
	if (session_save(&ss, err, sizeof(err))) {
		cli_err(err);
		rc = TB_EXIT_ERROR;
	}
	print(o, &ss.res);
	if (ss.outdir)
		fprintf(stderr, "results: %s/results.json\n", ss.outdir);
	if (!rc && !session_stopped() && !session_ok_runs(&ss)) {
		tb_err("nothing valid was measured (exit %d)", TB_EXIT_NOTHING);
		rc = TB_EXIT_NOTHING;
	}
	session_free(&ss);
	return session_stopped() ? 128 + SIGINT : rc;
}

int cmd_coverage(int argc, char **argv)
{
	struct cov_opts o = { .so = { .argc = argc, .argv = argv,
				      .say = { cli_say, NULL } } };
	struct tb_results r;
	char err[512];
	int rc = 0;

	parse_opts(argc, argv, &o);
	if (!is_results_file(o.input)) {
		rc = run_suite(&o);
	} else if (store_load(o.input, &r, err, sizeof(err))) {
		tb_err("%s", err);
		rc = TB_EXIT_ERROR;
	} else {
		print(&o, &r);
		results_free(&r);
	}
	axes_free(&o.so.axes);
	return rc;
}
