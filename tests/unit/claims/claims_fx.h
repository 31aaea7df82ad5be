/* SPDX-License-Identifier: GPL-2.0-only */
/* Results built in memory for the claims tests: cases of ok runs. */
#ifndef THPBENCH_TEST_CLAIMS_FX_H
#define THPBENCH_TEST_CLAIMS_FX_H

#include "results/results.h"
#include "util/util.h"

/* Case `id` of n ok runs (made on first use) gets metric = v[i] in run i. */
static inline struct tb_case *fx_add_case(struct tb_results *r, const char *id,
					  const char *metric, const double *v,
					  size_t n)
{
	struct tb_case *c = results_find_case(r, id);
	size_t i;

	if (!c) {
		c = results_add_case(r);
		c->id = xstrdup(id);
		c->workload = xstrdup("w");
		for (i = 0; i < n; i++)
			case_add_run(c)->status = RUN_OK;
	}
	for (i = 0; i < n && i < c->nruns; i++)
		metric_set_put(&c->runs[i].metrics, metric, v[i]);
	return c;
}

#endif
