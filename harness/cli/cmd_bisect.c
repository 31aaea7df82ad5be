// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_bisect - `thpbench bisect plan|driver|next|report DIR`: the
 * statistical half of `./run.sh bisect` (kernel-patches/scripts/bisect.sh
 * builds and boots).
 *
 *   plan DIR ..  DIR/plan.json written, driver DIR its driver part read
 *                (cmd_bisect_plan.c)
 *   next DIR     what to do next, one line on stdout:
 *                  measure SHA REPS good|bad|step
 *                  done OUTCOME        (found, range, spread, nonmonotone)
 *                  nothing             (GOOD vs BAD: no change to bisect)
 *                  error               (the reason on stderr)
 *                and why on stderr. Exit 0; 2 when DIR is malformed.
 *   report DIR   DIR/report.txt (printed), report.json, git-bisect.log and
 *                the chart in DIR/plots/ (-o DIR2 for elsewhere).
 *                Exit 0 one first bad commit; 1 none single (range,
 *                spread, nonmonotone); 3 nothing to bisect; 2 error or
 *                not finished.
 *   verify DIR   nothing printed, exit 0, when DIR may be trusted
 *                (bisect/bisect_dir.h); else the offending path and what
 *                to do on stderr, exit 2. bisect.sh runs it on --resume;
 *                next, report and driver check the same first.
 *
 * Every file report writes is made afresh as NAME.tmp (O_CREAT|O_EXCL|
 * O_NOFOLLOW, util/safe_file.h) and renamed over NAME: a planted link is
 * replaced, never written through; OUTDIR and OUTDIR/plots must be real
 * directories of ours (system/trust.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bisect/bisect_dir.h"
#include "bisect/bisect_plot.h"
#include "bisect/bisect_report.h"
#include "bisect/bisect_state.h"
#include "commands.h"
#include "plot/plot.h"
#include "system/trust.h"
#include "util/safe_file.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench bisect plan DIR ... (bisect plan --help)\n"
	      "       thpbench bisect driver DIR\n"
	      "       thpbench bisect next DIR [--devices N]\n"
	      "       thpbench bisect verify DIR\n"
	      "       thpbench bisect rounds --commits C [--devices N,...]\n"
	      "       thpbench bisect report DIR [-o OUTDIR] [--no-plot]\n"
	      "  The decisions of a performance bisection whose results\n"
	      "  directory is DIR (written by ./run.sh bisect; see\n"
	      "  kernel-patches/README.md).\n"
	      "  plan     write DIR/plan.json, what to bisect (bisect.sh)\n"
	      "  driver   print how DIR's kernels are built and booted\n"
	      "  next     the next measurement, or that the search is over; with\n"
	      "           --devices N up to N step commits, one line each\n"
	      "  rounds   rounds of a search over C commits with N devices\n"
	      "  verify   exit 0 (silent) when DIR may be trusted: no symlink,\n"
	      "           FIFO or device in it, ours and not group/other-\n"
	      "           writable, runs/ only NNNN run directories; else 2\n"
	      "  report   report.txt (printed), report.json, git-bisect.log and\n"
	      "           the chart, into DIR (or OUTDIR); exit 0 first bad\n"
	      "           commit found, 1 no single commit, 3 nothing to\n"
	      "           bisect, 2 error or not finished\n", f);
}

static int load(const char *dir, struct bisect_state *s)
{
	char err[2048];

	if (bisect_state_load(dir, s, err, sizeof(err))) {
		tb_err("%s", err);
		bisect_state_free(s);
		return -1;
	}
	return 0;
}

#define NEXT_MAX_DEVICES 64

static int do_next(const char *dir, size_t devices)
{
	struct bisect_action all[NEXT_MAX_DEVICES], a;
	struct bisect_state s;
	const char *role;
	size_t n, i;

	if (load(dir, &s))
		return TB_EXIT_ERROR;
	n = bisect_state_eval_n(&s, all, devices);
	a = all[0];
	switch (a.kind) {
	case BA_MEASURE:
		for (i = 0; i < n; i++) {
			role = all[i].commit == 0 ? "good" : all[i].commit == s.n - 1 ? "bad" : "step";
			printf("measure %s %zu %s\n", s.c[all[i].commit].sha, all[i].reps, role);
		}
		break;
	case BA_DONE: {
		struct bisect_result r;

		bisect_result_build(&r, &s);
		printf("done %s\n", r.outcome);
		bisect_result_free(&r);
		break;
	}
	case BA_NOTHING:
		printf("nothing\n");
		break;
	case BA_ERROR:
		printf("error\n");
		break;
	}
	fprintf(stderr, "bisect: %s\n", a.why);
	bisect_state_free(&s);
	return 0;
}

static int write_file(const char *dir, const char *name,
		      void (*fn)(FILE *, const struct bisect_result *),
		      const struct bisect_result *r)
{
	char path[4200], tmp[4300], err[4600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = sf_replace_open(path, tmp, sizeof(tmp), err, sizeof(err));
	if (!f) {
		tb_err("%s", err);
		return -1;
	}
	fn(f, r);
	if (sf_replace_close(f, tmp, path, err, sizeof(err))) {
		tb_err("%s", err);
		return -1;
	}
	return 0;
}

static void json_out(FILE *f, const struct bisect_result *r)
{
	json_t *j = bisect_report_json(r);

	json_dumpf(j, f, JSON_INDENT(1));
	fputc('\n', f);
	json_decref(j);
}

static int chart(const struct bisect_result *r, const char *out)
{
	struct plot_set ps = { 0 };
	char dir[4200], err[1024];
	enum plot_render_status st;
	size_t i;
	int rc = 0;

	snprintf(dir, sizeof(dir), "%s/plots", out);
	if (bisect_plot(r, dir, &ps, err, sizeof(err))) {
		tb_err("%s", err);
		plot_set_free(&ps);
		return -1;
	}
	st = plot_render(&ps, stderr);
	for (i = 0; i < ps.nimages; i++)
		fprintf(stderr, "chart: %s\n", ps.images[i]);
	if (st == PLOT_FAILED)
		rc = -1;
	plot_set_free(&ps);
	return rc;
}

/* OUTDIR (made when missing) and OUTDIR/plots, when there, real
 * directories of ours: nothing written through a planted link. */
static int check_out(const char *out, bool plot)
{
	char plots[4200], err[4600];
	struct stat st;

	if (trust_dir(out, true, err, sizeof(err))) {
		tb_err("%s", err);
		return -1;
	}
	snprintf(plots, sizeof(plots), "%s/plots", out);
	if (plot && !lstat(plots, &st) &&
	    trust_dir(plots, false, err, sizeof(err))) {
		tb_err("%s", err);
		return -1;
	}
	return 0;
}

static int do_verify(const char *dir)
{
	char err[4600];

	if (bisect_dir_check(dir, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	return 0;
}

static int do_report(const char *dir, const char *out, bool plot)
{
	struct bisect_state s;
	struct bisect_result r;
	int rc;

	if (load(dir, &s))
		return TB_EXIT_ERROR;
	if (!out)
		out = dir;
	if (check_out(out, plot)) {
		bisect_state_free(&s);
		return TB_EXIT_ERROR;
	}
	bisect_result_build(&r, &s);
	rc = bisect_result_exit(&r);
	if (write_file(out, "report.txt", bisect_report_text, &r) ||
	    write_file(out, "report.json", json_out, &r) ||
	    write_file(out, "git-bisect.log", bisect_report_gitlog, &r) ||
	    (plot && chart(&r, out)))
		rc = TB_EXIT_ERROR;
	bisect_report_text(stdout, &r);
	bisect_result_free(&r);
	bisect_state_free(&s);
	return rc;
}

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "no-plot", no_argument, NULL, 'P' },
	{ "devices", required_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_bisect(int argc, char **argv)
{
	const char *out = NULL, *sub;
	bool plot = true;
	long devices = 0;
	int c;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? TB_EXIT_ERROR : 0;
	}
	sub = argv[1];
	argc--;
	argv++;
	if (!strcmp(sub, "plan"))
		return cmd_bisect_plan(argc, argv);
	if (!strcmp(sub, "driver"))
		return cmd_bisect_driver(argc, argv);
	if (!strcmp(sub, "rounds"))
		return cmd_bisect_rounds(argc, argv);
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'P': plot = false; break;
		case 'd':
			if (parse_long(optarg, &devices) || devices < 1 || devices > NEXT_MAX_DEVICES) {
				tb_err("bisect next: --devices %s: give 1..%d", optarg, NEXT_MAX_DEVICES);
				return TB_EXIT_ERROR;
			}
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return TB_EXIT_ERROR;
		}
	}
	if (optind != argc - 1) {
		tb_err("bisect %s: give one results directory", sub);
		usage(stderr);
		return TB_EXIT_ERROR;
	}
	if (!strcmp(sub, "next") && !out && plot)
		return do_next(argv[optind], devices ? (size_t)devices : 1);
	if (devices) {
		tb_err("bisect %s: --devices is for bisect next only", sub);
		return TB_EXIT_ERROR;
	}
	if (!strcmp(sub, "report"))
		return do_report(argv[optind], out, plot);
	if (!strcmp(sub, "verify") && !out && plot)
		return do_verify(argv[optind]);
	tb_err("bisect: unknown sub-command \"%s\" (plan, driver, next, report, verify)%s", sub,
	       strcmp(sub, "next") && strcmp(sub, "verify") ? "" : "; it takes no options");
	return TB_EXIT_ERROR;
}
