// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_json - `history check --format json`, schema
 * "thpbench-history-check/2": per series its identity, the newest night,
 * the gate (fails, skipped by triage, open regressions, the watch), and
 * every change point with its id, status, triage and all its statistics,
 * and the drift of the current segment (`drifts`, 0 or 1: history_trend.h) (fractions
 * stay fractions; null where a number does not exist). Night indices are
 * 0-based into the series' nights, oldest first.
 */
#include "history_format.h"
#include "history_gate.h"
#include "history_print.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "plot/plot_metrics.h"
#include "results/store_json.h"
#include "util/utf8.h"

/* Text from the database: invalid UTF-8 replaced, never dropped. */
static json_t *str(const char *s)
{
	char *c;
	json_t *j;

	if (!s)
		return json_null();
	c = utf8_clean_dup(s);
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

static json_t *night_test_json(const struct history_night_test *nt)
{
	return json_pack("{s:s,s:I,s:I,s:I,s:o,s:o,s:o,s:o,s:o,s:I,s:o,s:o,s:o}",
			 "scale", nt->log_scale ? "log" : "raw",
			 "nights_before", (json_int_t)nt->nights_a,
			 "nights_after", (json_int_t)nt->nights_b,
			 "outlier_nights", (json_int_t)nt->outliers_a,
			 "mean_before", store_num(nt->mean_a),
			 "mean_after", store_num(nt->mean_b),
			 "change", store_num(nt->change),
			 "night_sd", store_num(nt->sd),
			 "within_sd", store_num(nt->sd_within),
			 "df", (json_int_t)nt->df,
			 "t", store_num(nt->t), "p", store_num(nt->p),
			 "level", store_num(nt->level));
}

static json_t *reps_json(const struct history_confirm *c)
{
	return json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "verdict", verdict_name(c->verdict),
			 "before", side_json(&c->a, c->nights_a, c->outliers_a, c->na),
			 "after", side_json(&c->b, c->nights_b, c->outliers_b, c->nb),
			 "change", store_num(c->ch.rel),
			 "change_lo", store_num(c->ch.lo),
			 "change_hi", store_num(c->ch.hi),
			 "p", store_num(c->p),
			 "p_welch", store_num(c->w.p),
			 "p_mann_whitney", store_num(c->mw.p),
			 "smallest_detectable", store_num(c->mde));
}

static json_t *triage_json(const struct history_cp_triage *t)
{
	if (t->state == TRIAGE_NONE)
		return json_null();
	return json_pack("{s:s,s:o,s:o,s:o,s:o}",
			 "state", history_triage_state_name(t->state),
			 "name", str(t->name), "reason", str(t->reason),
			 "fix", str(t->fix), "decided", str(t->decided));
}

static json_t *cp_json(const struct history_result *r,
		       const struct history_cp *cp,
		       const struct history_check_opts *o)
{
	const struct history_confirm *c = &cp->c;
	char *text = history_cp_text(r, cp), *st = history_cp_status_text(r, cp, o);
	json_t *j = json_pack(
		"{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:b,s:o,s:b,s:o,s:o,s:o,s:o}",
		"id", cp->id,
		"kind", hcp_kind_name(cp->kind),
		"status", hcp_status_name(history_cp_status(cp)),
		"status_text", str(st),
		"first_bad", night_json(r->s, cp->night),
		"last_good", night_json(r->s, cp->good),
		"confirmed_on", night_json(r->s, cp->confirmed_at),
		"before", side_json(&c->a, c->nights_a, c->outliers_a, c->na),
		"after", side_json(&c->b, c->nights_b, c->outliers_b, c->nb),
		"change", store_num(c->ch.rel),
		"change_lo", store_num(c->ch.lo),
		"change_hi", store_num(c->ch.hi),
		"night_test", night_test_json(&cp->nt),
		"repetitions", reps_json(c),
		"smallest_detectable", store_num(c->mde),
		"kernel_changed", cp->kernel_changed,
		"host_changed", cp->host_changed,
		"host_change", cp->host_changed ?
			json_pack("{s:o, s:o}", "from", night_json(r->s, cp->host_from),
				  "to", night_json(r->s, cp->host_to)) : json_null(),
		"ambiguous", cp->ambiguous,
		"recovered_on", cp->recovered ? night_json(r->s, cp->recovered_at) : json_null(),
		"triage", triage_json(&cp->triage),
		"bisect", str(cp->bisect),
		"text", str(text));

	free(text);
	free(st);
	return j;
}

static json_t *watch_json(const struct history_result *r)
{
	const struct history_watch *w = &r->watch;
	char *text;
	json_t *j;

	if (!w->present)
		return json_null();
	text = history_watch_text(r);
	j = json_pack("{s:s,s:b,s:o,s:o,s:o,s:o,s:o,s:o}",
		      "kind", hcp_kind_name(w->kind), "strong", w->strong,
		      "bisect", str(w->bisect),
		      "night", night_json(r->s, w->night),
		      "baseline_from", night_json(r->s, w->a_from),
		      "night_test", night_test_json(&w->nt),
		      "repetitions", reps_json(&w->c), "text", str(text));
	free(text);
	return j;
}

static json_t *drifts_json(const struct history_result *r)
{
	const struct history_drift *d = &r->drift;
	json_t *a = json_array();
	char *text;

	if (!r->ndrift)
		return a;
	text = history_drift_text(r);
	json_array_append_new(a, json_pack(
		"{s:s,s:s,s:b,s:o,s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
		"id", d->id, "kind", hcp_kind_name(d->kind),
		"open", history_drift_open(r),
		"from", night_json(r->s, d->from), "to", night_json(r->s, d->to),
		"nights", (json_int_t)d->nights, "change", store_num(d->change),
		"slope", store_num(d->slope), "p", store_num(d->p),
		"level_from", store_num(d->level_from),
		"level_to", store_num(d->level_to),
		"triage", triage_json(&d->triage), "text", str(text)));
	free(text);
	return a;
}

static json_t *series_json(const struct history_result *r,
			   const struct history_check_opts *o)
{
	const struct history_series *s = r->s;
	json_t *cps = json_array(), *j;
	char *why;
	bool skipped = history_result_skipped(r, o->fail_on, &why);
	size_t i;

	for (i = 0; i < r->ncp; i++)
		json_array_append_new(cps, cp_json(r, &r->cp[i], o));
	j = json_pack("{s:o,s:o,s:o,s:o,s:o,s:s,s:s,s:I,s:I,s:I,s:o,s:b,s:b,s:o,s:I,s:b,s:o,s:o,s:o}",
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
		      "skipped", skipped, "skip_reason", str(why),
		      "open_regressions", (json_int_t)history_open_regressions(r),
		      "new_tonight", history_newest_new(r),
		      "watch", watch_json(r),
		      "change_points", cps, "drifts", drifts_json(r));
	free(why);
	return j;
}

void history_write_json(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i, fails = 0;
	json_t *series = json_array(), *doc;

	for (i = 0; i < n; i++) {
		fails += history_result_fails(&r[idx[i]], o->fail_on);
		json_array_append_new(series, series_json(&r[idx[i]], o));
	}
	doc = json_pack("{s:s,s:{s:s,s:b,s:I},s:{s:f,s:I,s:I,s:I,s:I,s:I,s:f,s:f},s:o}",
			"schema", "thpbench-history-check/2",
			"gate", "fail_on", history_fail_on_name(o->fail_on),
			"failed", fails > 0,
			"series_failing", (json_int_t)fails,
			"options", "alpha", o->win.alpha,
			"min_segment", (json_int_t)o->win.min_segment,
			"min_after", (json_int_t)o->win.min_after,
			"fast", (json_int_t)o->win.fast,
			"variance_nights", (json_int_t)o->win.variance_nights,
			"confirm_nights", (json_int_t)o->confirm_nights,
			"confidence", o->confirm.confidence,
			"threshold", o->confirm.threshold,
			"series", series);
	json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(doc);
	free(idx);
}
