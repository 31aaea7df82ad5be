// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON format, schema "thpbench-compare/2": every statistic of every
 * metric, null where one does not exist. Fractions stay fractions (0.02
 * is 2%); outliers are 0-based indices into the side's "values".
 */
#include "compare_format.h"
#include "compare_profile.h"
#include "results/json_text.h"
#include "compare_print.h"

#include <math.h>
#include <stdint.h>

#include <jansson.h>

#include "results/store_json.h"

static json_t *pair_of(double lo, double hi)
{
	return json_pack("[oo]", store_num(lo), store_num(hi));
}

static json_t *side_json(const struct compare_side *s)
{
	json_t *o = json_object(), *v = json_array(), *out = json_array();
	size_t i;

	for (i = 0; i < s->n; i++) {
		json_array_append_new(v, json_real(s->v[i]));
		if (s->outlier[i])
			json_array_append_new(out, json_integer((json_int_t)i));
	}
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "mean", store_num(s->s.mean));
	json_object_set_new(o, "stddev", store_num(s->s.stddev));
	json_object_set_new(o, "stderr", store_num(s->s.stderr_mean));
	json_object_set_new(o, "cv", store_num(s->s.cv));
	json_object_set_new(o, "median", store_num(s->s.median));
	json_object_set_new(o, "min", store_num(s->s.min));
	json_object_set_new(o, "max", store_num(s->s.max));
	json_object_set_new(o, "ci", pair_of(s->ci_lo, s->ci_hi));
	json_object_set_new(o, "values", v);
	json_object_set_new(o, "outliers", out);
	if (!isnan(s->counted_min))	/* an event: the least share counted */
		json_object_set_new(o, "counted_pct_min", json_real(s->counted_min));
	return o;
}

static json_t *tests_json(const struct compare_metric *m)
{
	json_t *w, *mw;

	if (!m->tested)
		return json_null();
	w = json_object();
	json_object_set_new(w, "diff", store_num(m->w.diff));
	json_object_set_new(w, "ci", pair_of(m->w.ci_lo, m->w.ci_hi));
	json_object_set_new(w, "t", store_num(m->w.t));
	json_object_set_new(w, "df", store_num(m->w.df));
	json_object_set_new(w, "p", store_num(m->w.p));
	json_object_set_new(w, "p_adj", store_num(m->p_welch_adj));
	mw = json_object();
	json_object_set_new(mw, "u", store_num(m->mw.u));
	json_object_set_new(mw, "p", store_num(m->mw.p));
	json_object_set_new(mw, "p_adj", store_num(m->p_mw_adj));
	json_object_set_new(mw, "method", json_string(m->mw.exact ? "exact" : "normal"));
	json_object_set_new(mw, "z", store_num(m->mw.z));
	return json_pack("{soso}", "welch", w, "mann_whitney", mw);
}

static json_t *metric_json(const struct compare_metric *m)
{
	json_t *o = json_object(), *ch = json_object();

	json_object_set_new(o, "name", json_string(m->name));
	json_object_set_new(o, "better", json_string(better_name(m->info.better)));
	json_object_set_new(o, "threshold", json_real(m->info.threshold));
	json_object_set_new(o, "base", side_json(&m->a));
	json_object_set_new(o, "new", side_json(&m->b));
	json_object_set_new(o, "tests", tests_json(m));
	json_object_set_new(ch, "estimate", store_num(m->ch.rel));
	json_object_set_new(ch, "ci", pair_of(m->ch.lo, m->ch.hi));
	json_object_set_new(ch, "method", json_string(m->tested ?
				change_method_name(m->ch.method) : "none"));
	json_object_set_new(ch, "level", store_num(m->tested ? m->ch.level : NAN));
	json_object_set_new(ch, "scale_diff", store_num(m->tested ? m->ch.w.diff : NAN));
	json_object_set_new(ch, "scale_ci", pair_of(m->tested ? m->ch.w.ci_lo : NAN,
						    m->tested ? m->ch.w.ci_hi : NAN));
	json_object_set_new(ch, "scale_p", store_num(m->ch.w.p));
	json_object_set_new(ch, "family", m->judged ?
			    json_integer((json_int_t)m->family) : json_null());
	json_object_set_new(o, "change", ch);
	json_object_set_new(o, "p", store_num(m->p));
	json_object_set_new(o, "min_detectable_change", store_num(m->mde));
	json_object_set_new(o, "n_needed", m->tested && m->n_needed &&
			    m->n_needed != SIZE_MAX ?
			    json_integer((json_int_t)m->n_needed) : json_null());
	json_object_set_new(o, "verdict", json_string(verdict_name(m->verdict)));
	return o;
}

static json_t *pair_json(const struct comparison *c,
			 const struct compare_pair *p)
{
	json_t *o = json_object(), *ms = json_array(), *prof;
	size_t i;

	json_object_set_new(o, "title", json_string(p->title));
	json_object_set_new(o, "base", json_pack("{ssss}", "id", p->a->id,
						 "name", p->a_name));
	json_object_set_new(o, "new", json_pack("{ssss}", "id", p->b->id,
						"name", p->b_name));
	for (i = 0; i < p->nm; i++)
		json_array_append_new(ms, metric_json(&p->m[i]));
	json_object_set_new(o, "metrics", ms);
	json_object_set_new(o, "only_base", strv_to_json(p->only_a, p->nonly_a));
	json_object_set_new(o, "only_new", strv_to_json(p->only_b, p->nonly_b));
	prof = compare_profile_json(c, p);
	if (prof)
		json_object_set_new(o, "profile", prof);
	json_object_set_new(o, "notes", strv_to_json(p->notes, p->nnotes));
	return o;
}

static json_t *opts_json(const struct comparison *c)
{
	return json_pack(
		"{s:s, s:s?, s:s?, s:s?, s:f, s:f, s:f, s:s, s:s, s:b, s:s?}",
		"by", compare_by_name(c->opts.by), "base", c->opts.base_path,
		"new", c->opts.new_path, "base_value", c->opts.base_value,
		"confidence", c->opts.confidence, "threshold",
		c->opts.threshold, "power", c->opts.power, "test",
		compare_test_name(c->opts.test), "outliers",
		outlier_method_name(c->opts.outliers), "forced", c->opts.force,
		"command", c->opts.command);
}

void compare_print_json(const struct comparison *c, FILE *out)
{
	json_t *root = json_object(), *a = json_array(), *d = json_array(),
	       *u = json_array(), *t = json_object();
	size_t i;
	enum verdict v;

	json_object_set_new(root, "schema", json_string("thpbench-compare/2"));
	json_object_set_new(root, "options", opts_json(c));
	json_object_set(root, "env_base", c->ra->env);
	json_object_set(root, "env_new", c->rb->env);
	for (i = 0; i < c->ndiffs; i++)
		json_array_append_new(d, json_pack("{sssssssb}", "what",
			c->diffs[i].what, "base", c->diffs[i].a, "new",
			c->diffs[i].b, "blocking", c->diffs[i].blocking));
	json_object_set_new(root, "env_differences", d);
	for (i = 0; i < c->npairs; i++)
		json_array_append_new(a, pair_json(c, &c->pairs[i]));
	json_object_set_new(root, "pairs", a);
	for (i = 0; i < c->nun; i++)
		json_array_append_new(u, json_pack("{ssssss}", "side", c->un[i].side,
			"id", c->un[i].c->id, "why", c->un[i].why));
	json_object_set_new(root, "unmatched", u);
	for (v = VERDICT_TOO_FEW; v <= VERDICT_LEVEL; v++)
		json_object_set_new(t, verdict_name(v),
				    json_integer((json_int_t)compare_count(c, v)));
	json_object_set_new(root, "verdicts", t);
	/* Numbers in their shortest round-trip form, never cut to 10 digits. */
	json_text_write(root, out, 2);
	fputc('\n', out);
	json_decref(root);
}
