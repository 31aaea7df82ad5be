// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the results loader (store_load_text: results.json and
 * the results.jsonl log). Any input must load or be refused with a
 * message, never crash, leak or hit undefined behaviour. A loaded file is
 * then used as compare/plot/report use it: metric names, summaries of
 * every metric of every case, and written back out.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "results/store.h"

static void exercise(const struct tb_results *r)
{
	struct summary sm;
	double *v;
	char **names;
	size_t i, j, n, nn;

	for (i = 0; i < r->ncases; i++) {
		const struct tb_case *c = &r->cases[i];

		v = malloc((c->nruns ? c->nruns : 1) * sizeof(*v));
		nn = case_metric_names(c, &names);
		for (j = 0; j < nn; j++) {
			n = case_metric_values(c, names[j], v, c->nruns);
			stats_summary(v, n, &sm);
		}
		free(names);
		free(v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tb_results r;
	char err[1024];

	if (store_load_text("fuzz.json", (const char *)data, size, &r, err,
			    sizeof(err))) {
		if (!err[0])
			abort();	/* an error must say what is wrong */
		return 0;
	}
	exercise(&r);
	results_free(&r);
	return 0;
}
