// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench run SUITE.conf [opts] | thpbench run [opts] -- COMMAND [ARGS...]
 *
 * Parses the options, runs the session (measure/session.h: load, begin,
 * run, end), and prints: the report and the claims on stdout and in
 * summary.txt (with --background, the coverage table too:
 * compare_coverage.h), results.json (session_save), the charts. Exit 0; 2 on an
 * error or a knob that would not go back; 3 when nothing valid was
 * measured; 128 + SIGINT when stopped by a signal.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims/claims.h"
#include "cli_err.h"
#include "cli_session_opt.h"
#include "commands.h"
#include "compare/compare_coverage.h"
#include "compare/compare_profile.h"
#include "measure/kgcov.h"
#include "history/history_import.h"
#include "measure/session.h"
#include "plot/plot.h"
#include "results/report.h"
#include "util/util.h"

/* Functions a profiled case lists at the end of the report. */
#define TOP_FUNCTIONS 10

static void usage(FILE *f)
{
	fprintf(f,
		"usage: thpbench run SUITE.conf [-o DIR] [-r N] [--thp always,madvise,never]\n"
		"                    [--label L] [--seed S] [-e EVENTS] [--warmup N] [--machine NAME]\n"
		"                    [--timeout SEC] [--order interleave|shuffle|sequential]\n"
		"                    [--kernel-id ID] [--progress auto|tty|lines|none]\n"
		"                    [--wait[=SECONDS]] [--background]\n"
		"                    [--profile[=task|system]] [--profile-keep] [--profile-freq HZ]\n"
		"                    [--kernel-gcov[=DIR]]\n"
		"                    [--mthp 16K,64K,2M] [--mthp-shmem MODE]\n"
		"                    [--memory-state fresh,compacted,fragmented,pinned] [--fragment-share F]\n"
		"       thpbench run [opts] -- COMMAND [ARGS...]\n");
}

static int parse_opts(int argc, char **argv, struct session_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "repetitions", required_argument, NULL, 'r' },
		{ "events", required_argument, NULL, 'e' },
		{ "thp", required_argument, NULL, 't' },
		{ "label", required_argument, NULL, 'l' },
		{ "machine", required_argument, NULL, 'M' },
		{ "seed", required_argument, NULL, 's' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "order", required_argument, NULL, 'O' },
		{ "sysfs-root", required_argument, NULL, 'R' },
		{ "kernel-id", required_argument, NULL, 'K' },
		{ "progress", required_argument, NULL, 'P' },
		{ "wait", optional_argument, NULL, 'W' },
		{ "background", no_argument, NULL, 'B' },
		{ "profile", optional_argument, NULL, 'p' },
		{ "profile-keep", no_argument, NULL, 'k' },
		{ "profile-freq", required_argument, NULL, 'F' },
		{ "kernel-gcov", optional_argument, NULL, 'G' },
		{ "mthp", required_argument, NULL, 'A' },
		{ "mthp-shmem", required_argument, NULL, 'A' },
		{ "memory-state", required_argument, NULL, 'A' },
		{ "fragment-share", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char err[400];
	int c, idx = 0;

	axes_init(&o->axes);
	o->reps = o->warmup = -1;
	o->timeout_s = -1;
	while ((c = getopt_long(argc, argv, "o:r:e:h", longopts, &idx)) != -1) {
		switch (c) {
		case 'A':
			if (axes_key(&o->axes, longopts[idx].name, optarg, err, sizeof(err)) < 0)
				tb_die("--%s: %s", longopts[idx].name, err);
			break;
		case 'B': o->background = true; break;
		case 'p': o->profile = optarg ? optarg : "task"; break;
		case 'k': o->profile_keep = true; break;
		case 'F':
			if (parse_long(optarg, &o->profile_freq) || o->profile_freq < 1 ||
			    o->profile_freq > PROFILE_FREQ_MAX)
				tb_die("--profile-freq: \"%s\" is not a sample rate of 1 to %d a second",
				       optarg, PROFILE_FREQ_MAX);
			break;
		case 'G': o->kernel_gcov = optarg ? optarg : KGCOV_DEFAULT_ROOT; break;
		case 'e': o->events = optarg; break;
		case 'l': o->label = optarg; break;
		case 'M':
			if (history_machine_check(optarg))
				tb_die("--machine \"%s\": use 1 to %d characters of A-Z a-z 0-9 . _ + : @ - (not starting with -)",
				       optarg, HISTORY_MACHINE_MAX);
			o->machine = optarg;
			break;
		case 'O': o->order = optarg; break;
		case 'R': o->sysfs_root = optarg; break;
		case 'K':
			if (history_kernel_id_check(optarg))
				tb_die("--kernel-id \"%s\": use 1 to 128 characters of A-Z a-z 0-9 . _ + : / @ ~ ^ -",
				       optarg);
			o->kernel_id = optarg;
			break;
		case 'T':
			if (parse_double(optarg, &o->timeout_s) || o->timeout_s < 0)
				tb_die("--timeout: \"%s\" is not a number of seconds", optarg);
			break;
		case 'h': usage(stdout); exit(0);
		default:
			if (cli_session_opt(c, optarg, o))
				break;
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		o->cmd = argv + optind;
		o->ncmd = argc - optind;
	} else if (optind == argc - 1) {
		o->suite_path = argv[optind];
	} else {
		usage(stderr);
		return -1;
	}
	return 0;
}

/* The claims name the kernel config options they depend on: record them. */
static void record_kconfig(const struct suite *s, json_t *env)
{
	claims_record_kconfig(s->claims, s->nclaims, env);
}

/* With the background measured (--background): the coverage table too. */
static void print_coverage(FILE *f, const struct tb_results *r)
{
	struct compare_coverage cov;

	if (!json_object_get(r->meta, "background"))
		return;
	compare_coverage_build(r, &cov);
	fputc('\n', f);
	compare_coverage_text(f, &cov);
	compare_coverage_free(&cov);
}

static void write_outputs(struct session *ss)
{
	char path[4200], err[512];
	json_t *claims = NULL;
	FILE *f;

	if (ss->suite.nclaims) {
		claims = claims_evaluate(ss->suite.claims, ss->suite.nclaims, &ss->res);
		json_object_set_new(ss->res.meta, "claims", claims);
	}
	report_results(stdout, &ss->res);
	compare_profile_top(stdout, &ss->res, TOP_FUNCTIONS);
	claims_print(stdout, claims, ss->res.env);
	print_coverage(stdout, &ss->res);
	if (!ss->outdir)
		return;
	if (session_save(ss, err, sizeof(err))) {
		tb_err("%s", err);
		tb_die("results.json was not written; the %zu completed repetition(s) are in %s/results.jsonl (thpbench compare and plot read it)",
		       ss->log.nruns, ss->outdir);
	}
	snprintf(path, sizeof(path), "%s/summary.txt", ss->outdir);
	f = fopen(path, "w");
	if (f) {
		report_results(f, &ss->res);
		compare_profile_top(f, &ss->res, TOP_FUNCTIONS);
		claims_print(f, claims, ss->res.env);
		print_coverage(f, &ss->res);
		fclose(f);
	}
	printf("\nresults: %s/results.json\n", ss->outdir);
	if (plot_results_dir(&ss->res, ss->outdir, stdout))
		tb_warn("charts were not drawn (above); results.json is complete");
}

int cmd_run(int argc, char **argv)
{
	struct session_opts o = { .argc = argc, .argv = argv,
				  .say = { cli_say, NULL },
				  .on_env = record_kconfig };
	struct session ss;
	char err[1024];
	int rc;

	if (parse_opts(argc, argv, &o))
		return TB_EXIT_ERROR;
	if (session_load(&ss, &o, err, sizeof(err)))
		tb_die("%s", err);
	session_catch_signals();
	if (session_begin(&ss, err, sizeof(err)))
		tb_die("%s", err);
	session_run(&ss);
	rc = session_end(&ss) ? TB_EXIT_ERROR : 0;
	if (session_stopped())
		tb_err("interrupted: writing the runs completed so far");
	write_outputs(&ss);
	if (!rc && !session_stopped() && !session_ok_runs(&ss)) {
		tb_err("nothing valid was measured: every repetition failed, was skipped or was invalid (exit %d)",
		       TB_EXIT_NOTHING);
		rc = TB_EXIT_NOTHING;
	}
	session_free(&ss);
	axes_free(&o.axes);
	return session_stopped() ? 128 + SIGINT : rc;
}
