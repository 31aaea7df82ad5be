// SPDX-License-Identifier: GPL-2.0-only
#include "cmd_compare.h"
#include "commands.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/compare_format.h"
#include "compare/compare_print.h"
#include "compare/compare_profile.h"
#include "results/kcidb.h"
#include "results/store.h"
#include "util/util.h"

struct cli {
	struct compare_opts o;
	enum compare_format format;
	bool fail_on_regression;
	struct metric_override *ov;
	size_t nov;
	char **metrics;
	size_t nmetrics;
	char *command;
	const char *prof_a, *prof_b;	/* --profile-a, --profile-b */
	struct tb_results pa, pb;	/* loaded from them */
	bool have_pa, have_pb;
};

static void usage(FILE *f)
{
	fputs("usage: thpbench compare BASE.json NEW.json [options]\n"
	      "       thpbench compare RESULTS.json --by thp|label|mthp|mem [--base VALUE] [options]\n"
	      "options:\n"
	      "  -f, --format FMT        text (default), ministat, welch, email, cover, md, csv, json, kcidb\n"
	      "      --origin NAME       KCIDB origin of the kcidb format's ids\n"
	      "                          ([a-z0-9_]+, default thpbench)\n"
	      "  -b, --by thp|label|mthp|mem  compare THP modes, labels, mTHP sizes or\n"
	      "                          memory states inside one file\n"
	      "      --base VALUE        the THP mode, label, mTHP size or memory state\n"
	      "                          to compare against\n"
	      "                          (default: the first of each case in file order)\n"
	      "  -c, --confidence PCT    confidence level, default 95 (also 0.95)\n"
	      "  -t, --threshold [METRIC=]PCT%\n"
	      "                          noise threshold, default 2%; METRIC is a glob;\n"
	      "                          repeatable (also a fraction: 0.02)\n"
	      "      --better METRIC=lower|higher|neutral\n"
	      "                          direction of a metric (glob), repeatable\n"
	      "  -m, --metric GLOB       compare only matching metrics, repeatable\n"
	      "      --test welch|mann-whitney|both\n"
	      "                          test deciding significance, default welch\n"
	      "      --outliers mad|tukey   outlier rule (flagged, never dropped)\n"
	      "      --judge-gauges      give levels (vmstat.nr_*) verdicts too\n"
	      "      --fail-on regression   exit 1 when any verdict is a regression\n"
	      "      --force             compare despite environment differences\n"
	      "      --chart FILE        a chart the cover format names, repeatable\n"
	      "      --profile-a FILE --profile-b FILE\n"
	      "                          \"where the time went\" from these two results\n"
	      "                          files (an A/B's profile boots), each pair's\n"
	      "                          from their pair of the same case\n"
	      "  -h, --help\n", f);
}

/* "2%" -> 0.02; "0.02" -> 0.02; "2" is refused as ambiguous. */
static int parse_fraction(const char *s, double *out)
{
	char buf[64];
	size_t l = strlen(s);
	bool pct = l && s[l - 1] == '%';

	if (l >= sizeof(buf))
		return -1;
	memcpy(buf, s, l + 1);
	if (pct)
		buf[l - 1] = 0;
	if (parse_double(buf, out) || *out < 0)
		return -1;
	if (pct)
		*out /= 100;
	else if (*out >= 1)
		return -1;
	return *out < 1 ? 0 : -1;
}

static int parse_confidence(const char *s, double *out)
{
	char buf[64];
	size_t l = strlen(s);

	if (l >= sizeof(buf))
		return -1;
	memcpy(buf, s, l + 1);
	if (l && buf[l - 1] == '%')
		buf[l - 1] = 0;
	if (parse_double(buf, out))
		return -1;
	if (*out > 1)
		*out /= 100;
	return *out >= 0.5 && *out < 1 ? 0 : -1;
}

static struct metric_override *new_override(struct cli *c, const char *pat,
					     size_t len)
{
	struct metric_override *ov;

	c->ov = xrealloc(c->ov, (c->nov + 1) * sizeof(*c->ov));
	ov = &c->ov[c->nov++];
	ov->pattern = xstrndup(pat, len);
	ov->threshold = NAN;
	ov->better = -1;
	return ov;
}

static int opt_threshold(struct cli *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	double v;

	if (parse_fraction(eq ? eq + 1 : arg, &v)) {
		tb_err("--threshold %s: expected a percentage such as 2%% or a fraction such as 0.02, optionally after METRIC=",
		       arg);
		return -1;
	}
	if (eq)
		new_override(c, arg, (size_t)(eq - arg))->threshold = v;
	else
		c->o.threshold = v;
	return 0;
}

static int opt_better(struct cli *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	int b = eq ? better_parse(eq + 1) : -1;

	if (b < 0) {
		tb_err("--better %s: expected METRIC=lower, METRIC=higher or METRIC=neutral",
		       arg);
		return -1;
	}
	new_override(c, arg, (size_t)(eq - arg))->better = b;
	return 0;
}

/* The command line as one string, quoted where a shell would need it. */
static char *join_command(int argc, char **argv)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "-_./=:%,+@";
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	int i;

	if (!f)
		tb_die("out of memory");
	fputs("thpbench", f);
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *p;

		if (*a && strspn(a, plain) == strlen(a)) {
			fprintf(f, " %s", a);
			continue;
		}
		fputs(" '", f);
		for (p = a; *p; p++)
			fputs(*p == '\'' ? "'\\''" : (char[]){ *p, 0 }, f);
		fputc('\'', f);
	}
	fclose(f);
	return s;
}

enum {
	OPT_BASE = 256,
	OPT_BETTER,
	OPT_TEST,
	OPT_OUTLIERS,
	OPT_FAIL_ON,
	OPT_FORCE,
	OPT_GAUGES,
	OPT_CHART,
	OPT_ORIGIN,
	OPT_PROF_A,
	OPT_PROF_B,
};

static const struct option long_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "by", required_argument, NULL, 'b' },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "confidence", required_argument, NULL, 'c' },
	{ "threshold", required_argument, NULL, 't' },
	{ "better", required_argument, NULL, OPT_BETTER },
	{ "metric", required_argument, NULL, 'm' },
	{ "test", required_argument, NULL, OPT_TEST },
	{ "outliers", required_argument, NULL, OPT_OUTLIERS },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "judge-gauges", no_argument, NULL, OPT_GAUGES },
	{ "chart", required_argument, NULL, OPT_CHART },
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "profile-a", required_argument, NULL, OPT_PROF_A },
	{ "profile-b", required_argument, NULL, OPT_PROF_B },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static int parse_opt(struct cli *c, int opt, const char *arg)
{
	int v;

	switch (opt) {
	case 'f':
		if ((v = compare_format_parse(arg)) < 0)
			goto bad;
		c->format = (enum compare_format)v;
		return 0;
	case 'b':
		if ((v = compare_by_parse(arg)) < 0)
			goto bad;
		c->o.by = (enum compare_by)v;
		return 0;
	case OPT_BASE:
		c->o.base_value = arg;
		return 0;
	case 'c':
		if (parse_confidence(arg, &c->o.confidence)) {
			tb_err("--confidence %s: expected a level between 50 and 100 (exclusive), such as 95 or 0.95",
			       arg);
			return -1;
		}
		return 0;
	case 't':
		return opt_threshold(c, arg);
	case OPT_BETTER:
		return opt_better(c, arg);
	case 'm':
		c->metrics = xrealloc(c->metrics, (c->nmetrics + 1) * sizeof(char *));
		c->metrics[c->nmetrics++] = (char *)arg;
		return 0;
	case OPT_TEST:
		if ((v = compare_test_parse(arg)) < 0)
			goto bad;
		c->o.test = (enum compare_test)v;
		return 0;
	case OPT_OUTLIERS:
		if ((v = outlier_method_parse(arg)) < 0)
			goto bad;
		c->o.outliers = (enum outlier_method)v;
		return 0;
	case OPT_FAIL_ON:
		if (strcmp(arg, "regression"))
			goto bad;
		c->fail_on_regression = true;
		return 0;
	case OPT_FORCE:
		c->o.force = true;
		return 0;
	case OPT_GAUGES:
		c->o.judge_gauges = true;
		return 0;
	case OPT_CHART:
		c->o.charts = xrealloc(c->o.charts, (c->o.ncharts + 1) * sizeof(char *));
		c->o.charts[c->o.ncharts++] = arg;
		return 0;
	case OPT_ORIGIN:
		if (!kcidb_origin_valid(arg)) {
			tb_err("--origin %s: a KCIDB origin is lower-case letters, digits and '_' (at most %d)",
			       arg, KCIDB_ORIGIN_MAX);
			return -1;
		}
		c->o.origin = arg;
		return 0;
	case OPT_PROF_A:
		c->prof_a = arg;
		return 0;
	case OPT_PROF_B:
		c->prof_b = arg;
		return 0;
	}
	return -1;
bad:
	tb_err("invalid value '%s' for an option; see thpbench compare --help", arg);
	return -1;
}

static int parse_args(struct cli *c, int argc, char **argv)
{
	int opt, npos;

	optind = 0;	/* full re-initialisation: tests call us repeatedly */
	while ((opt = getopt_long(argc, argv, "f:b:c:t:m:h", long_opts,
				  NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return 1;
		}
		if (opt == '?' || parse_opt(c, opt, optarg)) {
			if (opt == '?')
				usage(stderr);
			return -1;
		}
	}
	npos = argc - optind;
	if (c->o.by == COMPARE_FILES && npos != 2) {
		tb_err("compare: expected BASE.json NEW.json (or one file with --by thp|label|mthp|mem)");
		return -1;
	}
	if (c->o.by != COMPARE_FILES && npos != 1) {
		tb_err("compare --by: expected exactly one RESULTS.json");
		return -1;
	}
	if (!c->prof_a != !c->prof_b) {
		tb_err("compare: --profile-a and --profile-b go together (the profiles of A and of B)");
		return -1;
	}
	if (c->o.base_value && c->o.by == COMPARE_FILES) {
		tb_err("compare: --base only applies with --by");
		return -1;
	}
	c->o.base_path = argv[optind];
	c->o.new_path = npos == 2 ? argv[optind + 1] : NULL;
	c->o.metrics = c->metrics;
	c->o.nmetrics = c->nmetrics;
	c->o.ov = c->ov;
	c->o.nov = c->nov;
	return 0;
}

static void print_refusal(const struct comparison *cmp, const char *err)
{
	tb_err("%s", err);
	if (cmp->ndiffs) {
		fputs("environment differences:\n", stderr);
		compare_fmt_print_diffs(cmp, stderr, "  ");
	}
	if (cmp->nun) {
		fputs("unmatched cases:\n", stderr);
		compare_fmt_print_unmatched(cmp, stderr, "  ");
	}
}

/* --profile-a/-b: load both and hand them to the comparison. */
static int attach_profiles(struct cli *c, struct comparison *cmp)
{
	struct tb_results *pa = &c->pa, *pb = &c->pb;
	char err[1024];

	if (store_load(c->prof_a, pa, err, sizeof(err))) {
		tb_err("--profile-a: %s", err);
		return -1;
	}
	c->have_pa = true;
	if (store_load(c->prof_b, pb, err, sizeof(err))) {
		tb_err("--profile-b: %s", err);
		return -1;
	}
	c->have_pb = true;
	if (compare_attach_profile(cmp, pa, pb, err, sizeof(err))) {
		tb_err("--profile-a %s --profile-b %s: %s", c->prof_a, c->prof_b, err);
		return -1;
	}
	return 0;
}

static int run(struct cli *c, FILE *out)
{
	struct tb_results ra, rb;
	struct comparison cmp;
	char err[1024];
	int rc = TB_EXIT_OK;

	if (store_load(c->o.base_path, &ra, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	if (c->o.new_path && store_load(c->o.new_path, &rb, err, sizeof(err))) {
		tb_err("%s", err);
		results_free(&ra);
		return TB_EXIT_ERROR;
	}
	if (compare_build(&cmp, &ra, c->o.new_path ? &rb : &ra, &c->o, err,
			  sizeof(err))) {
		print_refusal(&cmp, err);
		rc = TB_EXIT_ERROR;
	} else if (c->prof_a && attach_profiles(c, &cmp)) {
		rc = TB_EXIT_ERROR;
	} else {
		compare_print(&cmp, c->format, out);
		if (c->fail_on_regression && compare_count(&cmp, VERDICT_REGRESSION))
			rc = TB_EXIT_VERDICT;
	}
	compare_free(&cmp);
	if (c->have_pa)
		results_free(&c->pa);
	if (c->have_pb)
		results_free(&c->pb);
	results_free(&ra);
	if (c->o.new_path)
		results_free(&rb);
	return rc;
}

int compare_main(int argc, char **argv, FILE *out)
{
	struct cli c;
	size_t i;
	int rc;

	memset(&c, 0, sizeof(c));
	compare_opts_init(&c.o);
	c.format = COMPARE_FMT_TEXT;
	/* before getopt_long permutes argv */
	c.command = join_command(argc, argv);
	c.o.command = c.command;
	rc = parse_args(&c, argc, argv);
	if (!rc) {
		rc = run(&c, out);
	} else {
		rc = rc > 0 ? TB_EXIT_OK : TB_EXIT_ERROR;
	}
	for (i = 0; i < c.nov; i++)
		free(c.ov[i].pattern);
	free(c.ov);
	free(c.metrics);
	free(c.o.charts);
	free(c.command);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	return compare_main(argc, argv, stdout);
}
