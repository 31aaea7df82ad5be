// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_kcidb - `compare --format kcidb` (compare_print.h): a
 * comparison as a KCIDB v5 report, written by results/kcidb.h.
 *
 * Each side's kernel (meta "kernel_id", else env "kernel") is a checkout
 * and its release a build; sides of one kernel (--by thp, an A/A) share
 * them. Per pair and metric two tests, thpbench.SUITE.CASE.METRIC under
 * each side's build: the base side's DONE (a measurement, its mean), the
 * new side's carrying the verdict: FAIL for a regression, PASS for no
 * change or an improvement, DONE where the data claim nothing either way
 * (inconclusive, a neutral metric's change, a gauge), SKIP with too few
 * runs. p, the change and its interval, the threshold in misc. Ids come
 * from the files' contents (host, start time, case ids, metric), so the
 * same two files give the same ids.
 */
#include "compare_format.h"
#include "compare_print.h"

#include <math.h>
#include <string.h>

#include "results/kcidb.h"
#include "util/util.h"

static const char *env_s(const json_t *o, const char *key)
{
	const char *s = o ? json_string_value(json_object_get(o, key)) : NULL;

	return s ? s : "";
}

static const char *kernel_of(const struct tb_results *r)
{
	const char *k = env_s(r->meta, "kernel_id");

	return *k ? k : env_s(r->env, "kernel");
}

/* The side's build (and checkout) into id. */
static void side_build(struct kcidb *k, const struct tb_results *r,
		       char id[KCIDB_ID_LEN])
{
	char co[KCIDB_ID_LEN];
	struct kcidb_checkout c = { 0 };
	struct kcidb_build b = { 0 };

	c.key = kernel_of(r);
	c.start_time = env_s(r->env, "started");
	kcidb_add_checkout(k, &c, co);
	b.checkout_id = co;
	b.key = env_s(r->env, "kernel");
	b.comment = b.key;
	b.start_time = c.start_time;
	kcidb_add_build(k, &b, id);
}

static const char *status_of(enum verdict v)
{
	switch (v) {
	case VERDICT_REGRESSION:
		return "FAIL";
	case VERDICT_NO_CHANGE:
	case VERDICT_IMPROVEMENT:
		return "PASS";
	case VERDICT_TOO_FEW:
		return "SKIP";
	default:
		return "DONE";
	}
}

static json_t *side_misc(const struct compare_side *s, const char *name,
			 const char *role)
{
	json_t *m = json_object();

	kcidb_misc_str(m, "side", role);
	kcidb_misc_str(m, "name", name);
	json_object_set_new(m, "n", json_integer((json_int_t)s->n));
	kcidb_misc_num(m, "stddev", s->s.stddev);
	kcidb_misc_num(m, "median", s->s.median);
	return m;
}

static void verdict_misc(json_t *m, const struct compare_metric *cm)
{
	kcidb_misc_str(m, "verdict", verdict_name(cm->verdict));
	kcidb_misc_str(m, "better", better_name(cm->info.better));
	kcidb_misc_num(m, "threshold", cm->info.threshold);
	if (!cm->tested)
		return;
	kcidb_misc_num(m, "p", cm->p);
	kcidb_misc_num(m, "change", cm->ch.rel);
	kcidb_misc_num(m, "change_lo", cm->ch.lo);
	kcidb_misc_num(m, "change_hi", cm->ch.hi);
	kcidb_misc_num(m, "min_detectable_change", cm->mde);
}

static void add_test(struct kcidb *k, const struct comparison *c,
		     const struct compare_pair *p, const struct compare_metric *m,
		     bool new_side, const char *build)
{
	const struct tb_results *r = new_side ? c->rb : c->ra;
	const struct tb_case *tc = new_side ? p->b : p->a;
	const struct compare_side *s = new_side ? &m->b : &m->a;
	const char *suite = env_s(r->meta, "suite");
	const char *path[] = { "thpbench", *suite ? suite : "compare", tc->id,
			       m->name };
	const char *key[] = { new_side ? "new" : "base",
			      env_s(r->env, "hostname"),
			      env_s(r->env, "started"), p->a->id, p->b->id,
			      m->name };
	struct kcidb_test t = { 0 };

	t.build_id = build;
	t.path = path;
	t.npath = ARRAY_SIZE(path);
	t.key = key;
	t.nkey = ARRAY_SIZE(key);
	t.status = new_side ? status_of(m->verdict) : "DONE";
	t.metric = m->name;
	t.value = s->n ? s->s.mean : NAN;
	t.start_time = env_s(r->env, "started");
	t.host = env_s(r->env, "hostname");
	t.comment = p->title;
	t.misc = side_misc(s, new_side ? p->b_name : p->a_name,
			   new_side ? "new" : "base");
	if (new_side)
		verdict_misc(t.misc, m);
	kcidb_add_test(k, &t);
}

void compare_print_kcidb(const struct comparison *c, FILE *out)
{
	struct kcidb *k = kcidb_new(c->opts.origin);
	char ba[KCIDB_ID_LEN], bb[KCIDB_ID_LEN];
	size_t i, j;

	side_build(k, c->ra, ba);
	side_build(k, c->rb, bb);
	for (i = 0; i < c->npairs; i++)
		for (j = 0; j < c->pairs[i].nm; j++) {
			add_test(k, c, &c->pairs[i], &c->pairs[i].m[j], false, ba);
			add_test(k, c, &c->pairs[i], &c->pairs[i].m[j], true, bb);
		}
	kcidb_write(k, out);
	kcidb_free(k);
}
