// SPDX-License-Identifier: GPL-2.0-only
#include "claims_host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/metric_info.h"
#include "stats/stats.h"
#include "util/util.h"

/* The clearing workload's pass 1 (workloads/clear_huge_page.c): fresh in
 * the first warm-up, warm in the repetitions that follow on a kept pool. */
#define FRESH_METRIC	"pass1_gbps"

static const json_t *platform(const struct tb_results *r, const char *key)
{
	return json_object_get(json_object_get(r->env, "platform"), key);
}

static bool is_vm(const struct tb_results *r)
{
	return json_is_true(json_object_get(platform(r, "virt"), "vm"));
}

static bool page_reporting(const struct tb_results *r)
{
	return json_is_true(json_object_get(platform(r, "page_reporting"), "on"));
}

bool claims_page_tables_emulated(const struct tb_results *r, const char **why)
{
	const json_t *pt = platform(r, "page_tables");
	const char *mode = json_string_value(json_object_get(pt, "mode"));

	if (why)
		*why = json_string_value(json_object_get(pt, "why"));
	if (why && !*why)
		*why = "";
	return mode && !strcmp(mode, "emulated");
}

static long numa_nodes(const struct tb_results *r)
{
	const json_t *v = json_object_get(r->env, "numa_nodes");

	return json_is_integer(v) ? (long)json_integer_value(v) : 1;
}

void claims_add_caveat(json_t *o, const char *text)
{
	json_t *cav = json_object_get(o, "caveats");

	if (!cav) {
		cav = json_array();
		json_object_set_new(o, "caveats", cav);
	}
	json_array_append_new(cav, json_string(text));
}

int claims_fresh_factor(const struct tb_results *r, double *factor,
			const char **case_id)
{
	const struct tb_case *c;
	const json_t *fresh;
	struct summary s;
	double *v;
	size_t i, n;

	for (i = 0; i < r->ncases; i++) {
		c = &r->cases[i];
		fresh = json_object_get(json_object_get(c->extra, "first_warmup"),
					FRESH_METRIC);
		if (!json_is_number(fresh) || json_number_value(fresh) <= 0)
			continue;
		v = xmalloc((c->nruns + 1) * sizeof(*v));
		n = case_metric_values(c, FRESH_METRIC, v, c->nruns);
		if (n && !stats_summary(v, n, &s) && s.mean > 0) {
			*factor = s.mean / json_number_value(fresh);
			*case_id = c->id;
			free(v);
			return 0;
		}
		free(v);
	}
	return -1;
}

/* "the first touch of fresh memory costs 45x warm memory's here (...)" */
static void fresh_cost(const struct tb_results *r, char *buf, size_t len)
{
	const char *id;
	double f;

	if (!claims_fresh_factor(r, &f, &id))
		snprintf(buf, len, "the first touch of fresh memory costs %.0fx "
			 "warm memory's here (%s: first warm-up's %s against the "
			 "repetitions')", f, id, FRESH_METRIC);
	else
		snprintf(buf, len, "the first touch of fresh memory is slow here "
			 "(by how much, this run does not measure: the seeds "
			 "suite's clear_2M does)");
}

void claims_host_caveats(json_t *o, const struct suite_claim *cl,
			 const struct tb_results *r)
{
	char *dep = xstrdup(claim_field(cl, "depends")), *tok, *save = NULL;
	char buf[400], cost[300];
	const char *why;

	for (tok = strtok_r(dep, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(tok, "vm")) {
			if (is_vm(r))
				claims_add_caveat(o, "a VM: timings include the hypervisor's faults and exits");
		} else if (!strcmp(tok, "page-reporting")) {
			if (!page_reporting(r))
				continue;
			fresh_cost(r, cost, sizeof(cost));
			snprintf(buf, sizeof(buf), "free page reporting: %s", cost);
			claims_add_caveat(o, buf);
		} else if (!strcmp(tok, "numa")) {
			if (numa_nodes(r) < 2)
				claims_add_caveat(o, "1 NUMA node: remote-node effects cannot show");
		} else if (!strcmp(tok, "pmu")) {
			if (!json_is_true(json_object_get(r->env, "pmu")))
				claims_add_caveat(o, "no PMU: no TLB-miss counts");
		} else if (!strcmp(tok, "page-tables")) {
			if (claims_page_tables_emulated(r, &why) &&
			    !metric_is_timing(claim_field(cl, "metric"))) {
				snprintf(buf, sizeof(buf), "page-table writes are "
					 "emulated (%s): this count is not affected", why);
				claims_add_caveat(o, buf);
			}
		} else {
			snprintf(buf, sizeof(buf), "unknown dependency '%s'", tok);
			claims_add_caveat(o, buf);
		}
	}
	free(dep);
}

static bool listed(const char *list, const char *word)
{
	char *dup = xstrdup(list), *tok, *save = NULL;
	bool found = false;

	for (tok = strtok_r(dup, ", ", &save); tok && !found;
	     tok = strtok_r(NULL, ", ", &save))
		found = !strcmp(tok, word);
	free(dup);
	return found;
}

static void set_verdict(json_t *o, const char *verdict, const char *reason)
{
	json_object_set_new(o, "verdict", json_string(verdict));
	json_object_set_new(o, "reason", json_string(reason));
}

/* The machine kind of not_comparable_on that this machine is, or NULL. */
static const char *incomparable_kind(const char *list, const struct tb_results *r)
{
	if (listed(list, "page-reporting") && page_reporting(r))
		return "page-reporting";
	if (listed(list, "page-tables") && claims_page_tables_emulated(r, NULL))
		return "page-tables";
	if (listed(list, "vm") && is_vm(r))
		return "vm";
	return NULL;
}

bool claims_host_withhold(json_t *o, const struct suite_claim *cl,
			  const struct tb_results *r)
{
	const char *kind = incomparable_kind(claim_field(cl, "not_comparable_on"), r);
	const char *why;
	char buf[600], cost[300];

	if (listed(claim_field(cl, "depends"), "page-tables") &&
	    metric_is_timing(claim_field(cl, "metric")) &&
	    claims_page_tables_emulated(r, &why)) {
		snprintf(buf, sizeof(buf), "page-table writes are emulated (%s): "
			 "this timing of page-table work measures the hypervisor, "
			 "not the kernel", why);
		set_verdict(o, "not measurable", buf);
		return true;
	}
	if (!kind)
		return false;
	if (!strcmp(kind, "page-reporting")) {
		fresh_cost(r, cost, sizeof(cost));
		snprintf(buf, sizeof(buf), "free page reporting hands freed memory "
			 "back to the host, so %s: that cost, not the posting's, "
			 "decides this figure, and a match would be coincidence", cost);
	} else {
		snprintf(buf, sizeof(buf), "on %s this figure is dominated by what "
			 "the machine adds, not by the posting's effect",
			 !strcmp(kind, "vm") ? "a VM" : "emulated page tables");
	}
	set_verdict(o, "not comparable here", buf);
	return true;
}
