// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_bisect_plan - `thpbench bisect plan DIR ...` writes a new
 * bisection's DIR/plan.json (the one writer; bisect/bisect_planfile.h
 * checks everything), and `thpbench bisect driver DIR` prints what
 * kernel-patches/scripts/bisect.sh needs of it to resume: tree, good,
 * bad, config, boot, accel, mem, smp, timeout, jobs, initrd and
 * orig_release, each ended by a NUL byte (any path survives). Exit 0;
 * 2 with the reason on stderr.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_planfile.h"
#include "commands.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench bisect plan DIR --tree DIR --good SHA --bad SHA\n"
	      "         --suite FILE --metric CASE:METRIC --commits FILE\n"
	      "         --patch-ids FILE [--good-ref REF] [--bad-ref REF]\n"
	      "         [--reps N] [--opt KEY=VALUE]... [--config C] [--boot qemu|kexec|lava]\n"
	      "         [--accel auto|kvm|tcg] [--mem SIZE] [--smp N] [--timeout SEC]\n"
	      "         [--jobs N] [--initrd FILE] [--orig-release REL]\n"
	      "         [--version V] [--command LINE]\n"
	      "       thpbench bisect driver DIR [--boot qemu|kexec|lava]\n"
	      "  plan    write DIR/plan.json (bisect.sh runs it): --commits holds\n"
	      "          'SHA\\x1fDATE\\x1fAUTHOR\\x1fSUBJECT' lines, GOOD first, then\n"
	      "          GOOD..BAD first parent; --patch-ids 'git patch-id --stable'\n"
	      "          lines; --opt: confidence, threshold, max_reps, max_looks,\n"
	      "          max_batch, min_batch, margin, ref_boots, ref_max_boots,\n"
	      "          ref_confidence; --reps: per reference boot (default the\n"
	      "          suite's repetitions)\n"
	      "  driver  print DIR/plan.json's tree, good, bad and driver fields,\n"
	      "          each ended by a NUL byte; DIR is checked first (bisect\n"
	      "          verify); --boot: the driver the command line says, a plan\n"
	      "          that says another is refused\n", f);
}

enum { O_TREE = 256, O_GOOD, O_BAD, O_GREF, O_BREF, O_SUITE, O_METRIC, O_COMMITS,
       O_IDS, O_REPS, O_OPT, O_CONFIG, O_BOOT, O_ACCEL, O_MEM, O_SMP, O_TIMEOUT,
       O_JOBS, O_INITRD, O_ORIG, O_VERSION, O_COMMAND };

static const struct option plan_opts[] = {
	{ "tree", required_argument, NULL, O_TREE },
	{ "good", required_argument, NULL, O_GOOD },
	{ "bad", required_argument, NULL, O_BAD },
	{ "good-ref", required_argument, NULL, O_GREF },
	{ "bad-ref", required_argument, NULL, O_BREF },
	{ "suite", required_argument, NULL, O_SUITE },
	{ "metric", required_argument, NULL, O_METRIC },
	{ "commits", required_argument, NULL, O_COMMITS },
	{ "patch-ids", required_argument, NULL, O_IDS },
	{ "reps", required_argument, NULL, O_REPS },
	{ "opt", required_argument, NULL, O_OPT },
	{ "config", required_argument, NULL, O_CONFIG },
	{ "boot", required_argument, NULL, O_BOOT },
	{ "accel", required_argument, NULL, O_ACCEL },
	{ "mem", required_argument, NULL, O_MEM },
	{ "smp", required_argument, NULL, O_SMP },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "jobs", required_argument, NULL, O_JOBS },
	{ "initrd", required_argument, NULL, O_INITRD },
	{ "orig-release", required_argument, NULL, O_ORIG },
	{ "version", required_argument, NULL, O_VERSION },
	{ "command", required_argument, NULL, O_COMMAND },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A whole number option, or -1 (said) when it is not one. */
static int num(const char *name, const char *v, long *out)
{
	if (parse_long(v, out) || *out <= 0) {
		tb_err("--%s must be a positive whole number ('%.40s')", name, v);
		return -1;
	}
	return 0;
}

static FILE *open_in(const char *name, const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		tb_err("--%s %s: cannot read", name, path);
	return f;
}

/* One option into in; -1 when it is malformed (said). */
static int plan_arg(int c, const char *v, struct bisect_plan_input *in)
{
	struct bisect_driver *d = &in->driver;
	const char *eq;

	switch (c) {
	case O_TREE: in->tree = v; return 0;
	case O_GOOD: in->good = v; return 0;
	case O_BAD: in->bad = v; return 0;
	case O_GREF: in->good_ref = v; return 0;
	case O_BREF: in->bad_ref = v; return 0;
	case O_SUITE: in->suite = v; return 0;
	case O_METRIC: in->case_metric = v; return 0;
	case O_COMMITS: return (in->commits = open_in("commits", v)) ? 0 : -1;
	case O_IDS: return (in->patch_ids = open_in("patch-ids", v)) ? 0 : -1;
	case O_REPS: return num("reps", v, &in->reps);
	case O_CONFIG: d->config = v; return 0;
	case O_BOOT: d->boot = v; return 0;
	case O_ACCEL: d->accel = v; return 0;
	case O_MEM: d->mem = v; return 0;
	case O_SMP: return num("smp", v, &d->smp);
	case O_TIMEOUT: return num("timeout", v, &d->timeout);
	case O_JOBS: return num("jobs", v, &d->jobs);
	case O_INITRD: d->initrd = v; return 0;
	case O_ORIG: d->orig_release = v; return 0;
	case O_VERSION: in->version = v; return 0;
	case O_COMMAND: in->command = v; return 0;
	case O_OPT:
		eq = strchr(v, '=');
		if (!eq || eq == v) {
			tb_err("--opt KEY=VALUE: '%.80s'", v);
			return -1;
		}
		in->opt_keys = xrealloc(in->opt_keys, (in->nopts + 1) * sizeof(char *));
		in->opt_values = xrealloc(in->opt_values, (in->nopts + 1) * sizeof(char *));
		in->opt_keys[in->nopts] = xstrndup(v, (size_t)(eq - v));
		in->opt_values[in->nopts++] = eq + 1;
		return 0;
	}
	usage(stderr);
	return -1;
}

static void plan_free(struct bisect_plan_input *in)
{
	size_t i;

	for (i = 0; i < in->nopts; i++)
		free((char *)in->opt_keys[i]);
	free(in->opt_keys);
	free(in->opt_values);
	if (in->commits)
		fclose(in->commits);
	if (in->patch_ids)
		fclose(in->patch_ids);
}

int cmd_bisect_plan(int argc, char **argv)
{
	struct bisect_plan_input in = {
		.good_ref = "", .bad_ref = "", .version = "unknown", .command = "",
		.driver = { .config = "tinyconfig", .boot = "qemu", .accel = "auto",
			    .mem = "6G", .smp = 2, .timeout = 1800, .jobs = 1,
			    .initrd = "", .orig_release = "" },
	};
	char err[4600];
	int c, rc = TB_EXIT_ERROR;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", plan_opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			plan_free(&in);
			return 0;
		}
		if (plan_arg(c, optarg, &in))
			goto out;
	}
	if (optind != argc - 1) {
		tb_err("bisect plan: give one results directory");
		goto out;
	}
	if (bisect_planfile_create(argv[optind], &in, err, sizeof(err)))
		tb_err("%s", err);
	else
		rc = 0;
out:
	plan_free(&in);
	return rc;
}

int cmd_bisect_driver(int argc, char **argv)
{
	struct bisect_driver_fields f;
	char err[4600];
	const struct bisect_driver *d = &f.d;
	const char *boot = NULL;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[2], "--boot"))
		boot = argv[3];
	else if (argc != 2) {
		tb_err("bisect driver: give one results directory (and --boot qemu|kexec|lava)");
		return TB_EXIT_ERROR;
	}
	if (bisect_driver_load(argv[1], boot, &f, err, sizeof(err))) {
		tb_err("%s", err);
		bisect_driver_free(&f);
		return TB_EXIT_ERROR;
	}
	printf("%s%c%s%c%s%c%s%c%s%c%s%c%s%c%ld%c%ld%c%ld%c%s%c%s%c",
	       f.tree, 0, f.good, 0, f.bad, 0, d->config, 0, d->boot, 0, d->accel, 0,
	       d->mem, 0, d->smp, 0, d->timeout, 0, d->jobs, 0, d->initrd, 0,
	       d->orig_release, 0);
	bisect_driver_free(&f);
	return 0;
}
