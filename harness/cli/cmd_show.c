// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench show RESULTS.json - the summary and claim table of a results
 * file, as `thpbench run` printed them where it ran: for a run made in a
 * guest (./run.sh guest) or on another machine, whose console is gone.
 * The claims are those the run evaluated (meta.claims), not re-judged.
 * `--get KEY`: one scalar of its env or meta instead (results_get.h),
 * for scripts, which read no results.json themselves. A run made with
 * its background measured (run --background) shows its path coverage
 * table last (thpbench coverage).
 */
#include <stdio.h>
#include <string.h>

#include "claims/claims.h"
#include "commands.h"
#include "compare/compare_coverage.h"
#include "results/report.h"
#include "results/results_get.h"
#include "results/store.h"
#include "util/util.h"

/* A run that measured the background (run --background): its coverage
 * table too (compare_coverage.h). */
static void show_coverage(const struct tb_results *r)
{
	struct compare_coverage cov;

	if (!json_object_get(r->meta, "background"))
		return;
	compare_coverage_build(r, &cov);
	fputc('\n', stdout);
	compare_coverage_text(stdout, &cov);
	compare_coverage_free(&cov);
}

int cmd_show(int argc, char **argv)
{
	struct tb_results r;
	char err[512];

	char val[4096];
	int rc = 0;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: thpbench show RESULTS.json [--get KEY]\n"
		       "  Print a results file's summary and claim table, as the run printed\n"
		       "  them; with --get, one value of its env or meta (env.hostname,\n"
		       "  meta.suite, meta.machine, ...), exit 2 when it has none. A run made\n"
		       "  with --background shows its path coverage table last.\n");
		return 0;
	}
	if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "--get"))) {
		tb_err("show: expected one RESULTS.json (usage: thpbench show RESULTS.json [--get KEY])");
		return TB_EXIT_ERROR;
	}
	if (store_load(argv[1], &r, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	if (argc == 4) {
		rc = results_get(&r, argv[3], val, sizeof(val), err, sizeof(err));
		if (rc)
			tb_err("%s: %s", argv[1], err);
		else
			printf("%s\n", val);
		results_free(&r);
		return rc ? TB_EXIT_ERROR : 0;
	}
	report_results(stdout, &r);
	claims_print(stdout, json_object_get(r.meta, "claims"), r.env);
	show_coverage(&r);
	results_free(&r);
	return rc;
}
