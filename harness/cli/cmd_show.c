// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench show RESULTS.json - the summary and claim table of a results
 * file, as `thpbench run` printed them where it ran: for a run made in a
 * guest (./run.sh guest) or on another machine, whose console is gone.
 * The claims are those the run evaluated (meta.claims), not re-judged.
 */
#include <stdio.h>
#include <string.h>

#include "claims/claims.h"
#include "commands.h"
#include "results/report.h"
#include "results/store.h"
#include "util/util.h"

int cmd_show(int argc, char **argv)
{
	struct tb_results r;
	char err[512];

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: thpbench show RESULTS.json\n"
		       "  Print a results file's summary and claim table, as the run printed\n"
		       "  them.\n");
		return 0;
	}
	if (argc != 2) {
		tb_err("show: expected one RESULTS.json (usage: thpbench show RESULTS.json)");
		return TB_EXIT_ERROR;
	}
	if (store_load(argv[1], &r, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	report_results(stdout, &r);
	claims_print(stdout, json_object_get(r.meta, "claims"), r.env);
	results_free(&r);
	return 0;
}
