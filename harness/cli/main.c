// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench - benchmark and regression harness for huge-page kernel patches.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "stats/stats.h"
#include "util/util.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "run a suite, or -- COMMAND, and write results.json" },
	{ "compare", cmd_compare, "compare two results files (or modes/labels in one)" },
	{ "merge", cmd_merge, "several results files of one setup as one" },
	{ "show", cmd_show, "print a results file's summary and claim table" },
	{ "coverage", cmd_coverage, "which cases moved which THP event counter beyond the background" },
	{ "kernel-coverage", cmd_kernel_coverage, "which kernel lines (gcov) a run ran, and which lines of a series" },
	{ "plot", cmd_plot, "draw gnuplot charts of results files" },
	{ "restore", cmd_restore, "undo THP/hugetlb settings left by an interrupted run" },
	{ "list", cmd_list, "workloads, suites and events usable here" },
	{ "history", cmd_history, "nightly history: import, list, check, plot, report" },
	{ "bisect", cmd_bisect, "decisions and report of a kernel bisection (./run.sh bisect)" },
	{ "provenance", cmd_provenance, "stamp a results file's meta with where it came from" },
	{ "lava", cmd_lava, "LAVA test cases of a run, a job definition, results out of a job log" },
	{ "suite", cmd_suite, "print one value of a suite file (for scripts)" },
	{ "series", cmd_series, "check a patch series as untrusted input (kernel-patches)" },
	{ "pmu-check", cmd_pmu_check, "do this machine's TLB counters count what they should?" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: thpbench COMMAND [ARGS...]\n\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\nthpbench COMMAND --help for its options.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	/* GSL aborts on an error by default: record it instead (stats.h);
	 * compare turns it into a message and exit 2. */
	stats_gsl_trap();
	if (argc < 2) {
		usage(stderr);
		return TB_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	tb_err("unknown command \"%s\"", argv[1]);
	usage(stderr);
	return TB_EXIT_ERROR;
}
