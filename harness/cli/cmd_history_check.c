// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_history_check - `thpbench history check|plot|report`: load the
 * series (history_db.h), check them (history_check.h), then print the
 * verdicts (history_print.h), draw the charts (history_plot.h) or write
 * the HTML page (history_report.h). The rows of cmd_history.c's table.
 *
 * Exit: 0; 1 when a series fails the gate (check only; plot and report
 * describe, they do not gate); 2 for usage, database or output errors.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cli_err.h"
#include "history/history_analysis.h"
#include "history/history_check.h"
#include "history/history_db.h"
#include "history/history_spec.h"
#include "history/history_format.h"
#include "history/history_print.h"
#include "history/history_plot.h"
#include "history/history_report.h"
#include "results/kcidb.h"
#include "util/util.h"

enum hist_cmd { HC_CHECK, HC_PLOT, HC_REPORT };

struct hist_cli {
	enum hist_cmd cmd;
	const char *db, *out;
	struct history_filter f;
	struct history_check_opts o;
	enum history_format fmt;
	bool verbose;
};

static const char *const cmd_names[] = { "check", "plot", "report" };

static void usage(FILE *f, enum hist_cmd cmd)
{
	switch (cmd) {
	case HC_CHECK:
		fputs("usage: thpbench history check [--db DB] [filters] [options] [--format F] [-o FILE]\n"
		      "  Change points of every series, confirmed on the raw repetitions;\n"
		      "  exit 1 when a series fails the gate (--fail-on).\n"
		      "  --format text|json|junit|tap|lava|kcidb   (default text)\n"
		      "  --origin NAME        KCIDB origin of the kcidb format's ids\n"
		      "                       ([a-z0-9_]+, default thpbench)\n"
		      "  -o, --output FILE    write the format there instead of stdout\n"
		      "  --fail-on open|newest|regression|none\n"
		      "                       open (default): fails while a confirmed regression\n"
		      "                       is open (neither back to its old level nor\n"
		      "                       triaged: history triage); newest: tonight's check\n"
		      "                       confirmed a regression, or the newest night alone\n"
		      "                       looks like one (the early warning); regression:\n"
		      "                       the latest confirmed change is an open regression;\n"
		      "                       none: never\n", f);
		break;
	case HC_PLOT:
		fputs("usage: thpbench history plot [--db DB] [filters] [options] -o DIR\n"
		      "  A trend chart per series in DIR (.gp, .dat, .png, .svg).\n", f);
		break;
	default:
		fputs("usage: thpbench history report [--db DB] [filters] [options] -o DIR\n"
		      "  DIR/index.html (static HTML, no script): the gate's verdict, the open\n"
		      "  regressions and the changes of the last 14 nights with their charts,\n"
		      "  the quiet series folded away; charts already drawn from the same\n"
		      "  data in DIR are kept.\n", f);
	}
	fputs("  --db DB              SQLite file or postgresql://... (default "
	      HISTORY_DB_DEFAULT ")\n"
	      "filters: --machine M (or --host M) --suite S --case C --metric M (exact names)\n"
	      "options:\n"
	      "  --alpha A            false-alarm level of the night test, per night\n"
	      "                       (default 0.00015)\n"
	      "  --min-segment N      nights before a change at least (default 3)\n"
	      "  --threshold T        noise threshold (default 0.02: changes beyond 2%)\n"
	      "  --confirm-nights N   nights before a change its level comes from, and\n"
	      "                       after it at most (default 30)\n"
	      "  --threads N          (default: one per CPU)\n"
	      "  -v, --verbose        say how long loading and checking took (stderr)\n", f);
}

enum {
	OPT_DB = 256, OPT_HOST, OPT_SUITE, OPT_CASE, OPT_METRIC,
	OPT_MINSEG, OPT_ALPHA, OPT_THRESH, OPT_CONFIRM, OPT_THREADS,
	OPT_FORMAT, OPT_FAILON, OPT_ORIGIN,
};

static const struct option long_opts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "machine", required_argument, NULL, OPT_HOST },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "suite", required_argument, NULL, OPT_SUITE },
	{ "case", required_argument, NULL, OPT_CASE },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "min-segment", required_argument, NULL, OPT_MINSEG },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "threshold", required_argument, NULL, OPT_THRESH },
	{ "confirm-nights", required_argument, NULL, OPT_CONFIRM },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "fail-on", required_argument, NULL, OPT_FAILON },
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "output", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A whole number in [lo, hi]; -1 with the error said. */
static int num_opt(const char *name, const char *arg, long lo, long hi,
		   long *out)
{
	if (parse_long(arg, out) || *out < lo || *out > hi) {
		tb_err("--%s %s: expected a whole number from %ld to %ld", name,
		       arg, lo, hi);
		return -1;
	}
	return 0;
}

/* A number with lo < x < hi (lo <= x when lo_incl); -1 with the error said. */
static int frac_opt(const char *name, const char *arg, double lo, bool lo_incl,
		    double hi, double *out)
{
	if (parse_double(arg, out) || !(lo_incl ? *out >= lo : *out > lo) ||
	    !(*out < hi)) {
		tb_err("--%s %s: expected a number %s %g and below %g", name,
		       arg, lo_incl ? "from" : "above", lo, hi);
		return -1;
	}
	return 0;
}

static int one_opt(struct hist_cli *c, int opt, const char *arg)
{
	long v;
	int k;

	switch (opt) {
	case OPT_DB: c->db = arg; return 0;
	case OPT_HOST: c->f.host = arg; return 0;
	case OPT_SUITE: c->f.suite = arg; return 0;
	case OPT_CASE: c->f.case_id = arg; return 0;
	case OPT_METRIC: c->f.metric = arg; return 0;
	case 'o': c->out = arg; return 0;
	case 'v': c->verbose = true; return 0;
	case OPT_ALPHA:
		return frac_opt("alpha", arg, 0, false, 1, &c->o.win.alpha);
	case OPT_THRESH:
		return frac_opt("threshold", arg, 0, true, 1,
				&c->o.confirm.threshold);
	case OPT_MINSEG:
		if (num_opt("min-segment", arg, 2, 100000, &v))
			return -1;
		c->o.win.min_segment = (size_t)v;
		return 0;
	case OPT_CONFIRM:
		if (num_opt("confirm-nights", arg, 3, 100000, &v))
			return -1;
		c->o.confirm_nights = (size_t)v;
		return 0;
	case OPT_THREADS:
		if (num_opt("threads", arg, 0, 256, &v))
			return -1;
		c->o.threads = (unsigned)v;
		return 0;
	case OPT_FORMAT:
		k = history_format_parse(arg);
		if (k < 0 || c->cmd != HC_CHECK) {
			tb_err(c->cmd != HC_CHECK ? "--format is an option of history check" :
			       "--format %s: expected text, json, junit, tap, lava or kcidb", arg);
			return -1;
		}
		c->fmt = (enum history_format)k;
		return 0;
	case OPT_FAILON:
		k = history_fail_on_parse(arg);
		if (k < 0) {
			tb_err("--fail-on %s: expected open, newest, regression or none", arg);
			return -1;
		}
		c->o.fail_on = (enum history_fail_on)k;
		return 0;
	case OPT_ORIGIN:
		if (!kcidb_origin_valid(arg) || c->cmd != HC_CHECK) {
			tb_err(c->cmd != HC_CHECK ? "--origin is an option of history check" :
			       "--origin %s: a KCIDB origin is lower-case letters, digits and '_' (at most %d)",
			       arg, KCIDB_ORIGIN_MAX);
			return -1;
		}
		c->o.origin = arg;
		return 0;
	}
	return -1;
}

/* 0 go on, 1 done (help), -1 usage error (said). */
static int parse_args(struct hist_cli *c, int argc, char **argv)
{
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:hv", long_opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout, c->cmd);
			return 1;
		}
		if (opt == '?' || one_opt(c, opt, optarg)) {
			usage(stderr, c->cmd);
			return -1;
		}
	}
	if (optind < argc) {
		tb_err("history %s: unexpected argument \"%s\"", cmd_names[c->cmd],
		       argv[optind]);
		usage(stderr, c->cmd);
		return -1;
	}
	if (c->cmd != HC_CHECK && !c->out) {
		tb_err("history %s: no output directory: add -o DIR",
		       cmd_names[c->cmd]);
		return -1;
	}
	return 0;
}

static int load(const struct hist_cli *c, struct history_analysis *a)
{
	char shown[1024], err[2048];

	if (history_analyse(c->db, &c->f, &c->o, a, err, sizeof(err))) {
		cli_err(err);
		return -1;
	}
	if (!a->n) {
		history_db_spec_show(c->db, shown, sizeof(shown));
		tb_err("history %s: no series in %s%s", cmd_names[c->cmd], shown,
		       c->f.host || c->f.suite || c->f.case_id || c->f.metric ?
		       " match the filters (history list shows what is stored)" :
		       " (record runs with: thpbench history import)");
		history_analysis_free(a);
		return -1;
	}
	return 0;
}

static int emit(const struct hist_cli *c, const struct history_result *r,
		size_t n)
{
	FILE *f = stdout;

	if (c->cmd == HC_REPORT) {
		char err[4200];

		if (history_report(r, n, &c->o, c->db, c->out, err,
				   sizeof(err))) {
			tb_err("%s", err);
			return -1;
		}
		printf("report: %s/index.html\n", c->out);
		return 0;
	}
	if (c->cmd == HC_PLOT) {
		struct plot_set ps = { 0 };
		char err[4096];
		enum plot_render_status st;
		size_t i;

		if (history_plot(r, n, c->out, &ps, err, sizeof(err))) {
			tb_err("history plot: %s", err);
			plot_set_free(&ps);
			return -1;
		}
		st = plot_render(&ps, stdout);
		for (i = 0; i < ps.nimages; i++)
			printf("chart: %s\n", ps.images[i]);
		plot_set_free(&ps);
		return st == PLOT_FAILED ? -1 : 0;
	}
	if (c->out && !(f = fopen(c->out, "w"))) {
		tb_err("%s: cannot create: %s", c->out, strerror(errno));
		return -1;
	}
	if (history_write(f, c->fmt, r, n, &c->o)) {
		tb_err("%s: write failed: %s", c->out ? c->out : "stdout",
		       strerror(errno));
		if (f != stdout)
			fclose(f);
		return -1;
	}
	if (f != stdout && fclose(f)) {
		tb_err("%s: write failed: %s", c->out, strerror(errno));
		return -1;
	}
	return 0;
}

static size_t max_nights(const struct history_series *v, size_t n)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (v[i].n_nights > m)
			m = v[i].n_nights;
	return m;
}

static int run(enum hist_cmd cmd, int argc, char **argv)
{
	struct hist_cli c = { .cmd = cmd, .db = HISTORY_DB_DEFAULT };
	struct history_analysis a;
	size_t i;
	int rc, fails = 0;

	history_check_opts_init(&c.o);
	rc = parse_args(&c, argc, argv);
	if (rc)
		return rc > 0 ? TB_EXIT_OK : TB_EXIT_ERROR;
	if (load(&c, &a))
		return TB_EXIT_ERROR;
	if (c.verbose)
		fprintf(stderr, "history %s: loaded %zu series (%zu nights) in %.2f s, checked them in %.2f s\n",
			cmd_names[cmd], a.n, max_nights(a.v, a.n), a.load_s,
			a.check_s);
	for (i = 0; i < a.n; i++)
		fails += history_result_fails(&a.r[i], c.o.fail_on);
	rc = emit(&c, a.r, a.n) ? TB_EXIT_ERROR :
	     cmd == HC_CHECK && fails ? TB_EXIT_VERDICT : TB_EXIT_OK;
	history_analysis_free(&a);
	return rc;
}

int cmd_history_check(int argc, char **argv)
{
	return run(HC_CHECK, argc, argv);
}

int cmd_history_plot(int argc, char **argv)
{
	return run(HC_PLOT, argc, argv);
}

int cmd_history_report(int argc, char **argv)
{
	return run(HC_REPORT, argc, argv);
}
