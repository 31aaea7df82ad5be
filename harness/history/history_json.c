// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_json - `history check --format json`, schema
 * "thpbench-history-check/1": per series its identity, the newest night,
 * the gate, and every change point with all its statistics (fractions
 * stay fractions; null where a number does not exist). Night indices are
 * 0-based into the series' nights, oldest first.
 */
#include "history_format.h"
#include "history_print.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "plot/plot_metrics.h"
#include "results/store_json.h"

/* Text from the database: invalid UTF-8 replaced, never dropped. */
static json_t *str(const char *s)
{
	char *c;
	json_t *j;

	if (!s)
		return json_null();
	c = history_utf8_clean(s);
	j = json_string(c);
	free(c);
	return j;
}

static json_t *night_json(const struct history_series *s, size_t i)
{
	const struct history_night *n = &s->nights[i];

	return json_pack("{s:I,s:I,s:o,s:o,s:o,s:o,s:I,s:o}",
			 "index", (json_int_t)i, "run_id", (json_int_t)n->run_id,
			 "started", str(n->started), "kernel_id", str(n->kernel_id),
			 "kernel_release", str(n->kernel_release),
			 "host_fingerprint", str(n->host_fingerprint),
			 "n", (json_int_t)n->n,
			 "mean", store_num(history_night_mean(n)));
}

static json_t *side_json(const struct summary *sm, size_t nights,
			 size_t outliers, size_t reps)
{
	return json_pack("{s:I,s:I,s:I,s:o,s:o,s:o}", "nights", (json_int_t)nights,
			 "outlier_nights", (json_int_t)outliers,
			 "repetitions", (json_int_t)reps,
			 "mean", store_num(reps ? sm->mean : NAN),
			 "stddev", store_num(reps ? sm->stddev : NAN),
			 "median", store_num(reps ? sm->median : NAN));
}

static json_t *cp_json(const struct history_result *r,
		       const struct history_cp *cp)
{
	const struct history_confirm *c = &cp->c;
	char *text = history_cp_text(r, cp);
	json_t *o = json_pack(
		"{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:b,s:o,s:o}",
		"kind", hcp_kind_name(cp->kind),
		"found_by", cp->newest_test ? "newest-night test" : "e-divisive",
		"verdict", verdict_name(c->verdict),
		"first_bad", night_json(r->s, cp->night),
		"last_good", night_json(r->s, cp->good),
		"before", side_json(&c->a, c->nights_a, c->outliers_a, c->na),
		"after", side_json(&c->b, c->nights_b, c->outliers_b, c->nb),
		"change", store_num(c->ch.rel),
		"change_lo", store_num(c->ch.lo),
		"change_hi", store_num(c->ch.hi),
		"night_verdict", str(verdict_name(c->night_verdict)),
		"night_change", store_num(c->night_ch.rel),
		"p", store_num(c->p),
		"p_welch", store_num(c->w.p),
		"p_mann_whitney", store_num(c->mw.p),
		"smallest_detectable", store_num(c->mde),
		"split_q", store_num(cp->q),
		"split_p", store_num(cp->p_split),
		"kernel_changed", cp->kernel_changed,
		"host_changed", cp->host_changed,
		"bisect", str(cp->bisect),
		"text", str(text));

	free(text);
	return o;
}

static json_t *series_json(const struct history_result *r,
			   const struct history_check_opts *o)
{
	const struct history_series *s = r->s;
	json_t *cps = json_array();
	size_t i;

	for (i = 0; i < r->ncp; i++)
		json_array_append_new(cps, cp_json(r, &r->cp[i]));
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:s,s:s,s:I,s:I,s:I,s:o,s:b,s:b,s:b,s:o}",
			 "host", str(s->host), "suite", str(s->suite),
			 "suite_hash", str(s->suite_hash), "case", str(s->case_id),
			 "metric", str(s->metric), "better", better_name(r->better),
			 "unit", plot_metric_unit(s->metric),
			 "nights", (json_int_t)s->n_nights,
			 "nights_used", (json_int_t)r->n_used,
			 "nights_overflow", (json_int_t)r->n_overflow,
			 "newest", r->newest == SIZE_MAX ? json_null() :
				   night_json(s, r->newest),
			 "fails", history_result_fails(r, o->fail_on),
			 "newest_regression", r->newest_regression,
			 "open_regression", r->open_regression,
			 "change_points", cps);
}

void history_write_json(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o)
{
	static const char *const gates[] = { "newest", "regression", "none" };
	size_t *idx = history_order(r, n, o->fail_on), i, fails = 0;
	json_t *series = json_array(), *doc;

	for (i = 0; i < n; i++) {
		fails += history_result_fails(&r[idx[i]], o->fail_on);
		json_array_append_new(series, series_json(&r[idx[i]], o));
	}
	doc = json_pack("{s:s,s:{s:s,s:b,s:I},s:{s:I,s:f,s:I,s:I,s:I,s:f,s:f},s:o}",
			"schema", "thpbench-history-check/1",
			"gate", "fail_on", gates[o->fail_on], "failed", fails > 0,
			"series_failing", (json_int_t)fails,
			"options", "seed", (json_int_t)o->edv.seed,
			"alpha", o->edv.alpha,
			"permutations", (json_int_t)o->edv.permutations,
			"min_segment", (json_int_t)o->edv.min_segment,
			"confirm_nights", (json_int_t)o->confirm_nights,
			"confidence", o->confirm.confidence,
			"threshold", o->confirm.threshold,
			"series", series);
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(doc);
	free(idx);
}
