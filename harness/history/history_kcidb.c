// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_kcidb - `history check --format kcidb` (history_print.h): the
 * verdicts as a KCIDB v5 report, written by results/kcidb.h.
 *
 * Ids come from what the history stores, never from the clock: a
 * checkout from the kernel id, a build from it and the kernel release, a
 * test from the host, suite version, case, metric and the run of the
 * newest night, so that checking the same history twice gives the same
 * document.
 */
#include "history_format.h"
#include "history_gate.h"
#include "history_print.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "results/kcidb.h"
#include "stats/metric_info.h"
#include "util/util.h"

/* The night the test stands for: the newest with values, else the last. */
static const struct history_night *night_of(const struct history_result *r)
{
	const struct history_series *s = r->s;

	if (r->newest != SIZE_MAX && r->newest < s->n_nights)
		return &s->nights[r->newest];
	return s->n_nights ? &s->nights[s->n_nights - 1] : NULL;
}

static const char *status_of(const struct history_result *r,
			     const struct history_check_opts *o)
{
	if (!r->n_used)
		return "SKIP";
	if (history_result_fails(r, o->fail_on))
		return "FAIL";
	if (o->fail_on == HISTORY_FAIL_NONE || r->better == BETTER_NEUTRAL)
		return "DONE";
	return "PASS";
}

static void cp_misc(json_t *misc, const struct history_result *r,
		    const struct history_cp *cp)
{
	json_t *j = json_object();

	kcidb_misc_str(j, "id", cp->id);
	kcidb_misc_str(j, "kind", hcp_kind_name(cp->kind));
	kcidb_misc_str(j, "status", hcp_status_name(history_cp_status(cp)));
	kcidb_misc_num(j, "p", cp->c.p);
	kcidb_misc_num(j, "change", cp->c.ch.rel);
	kcidb_misc_num(j, "change_lo", cp->c.ch.lo);
	kcidb_misc_num(j, "change_hi", cp->c.ch.hi);
	kcidb_misc_str(j, "first_bad", r->s->nights[cp->night].kernel_id);
	kcidb_misc_str(j, "last_good", r->s->nights[cp->good].kernel_id);
	kcidb_misc_str(j, "bisect", cp->bisect);
	json_object_set_new(misc, "change_point", j);
}

static json_t *misc_of(const struct history_result *r,
		       const struct history_check_opts *o)
{
	json_t *misc = json_object();

	kcidb_misc_str(misc, "gate", history_fail_on_name(o->fail_on));
	kcidb_misc_str(misc, "better", better_name(r->better));
	kcidb_misc_num(misc, "threshold", o->confirm.threshold);
	kcidb_misc_num(misc, "alpha", o->win.alpha);
	json_object_set_new(misc, "nights", json_integer((json_int_t)r->n_used));
	json_object_set_new(misc, "open_regressions",
			    json_integer((json_int_t)history_open_regressions(r)));
	if (r->ncp)
		cp_misc(misc, r, &r->cp[r->ncp - 1]);
	return misc;
}

static void add_series(struct kcidb *k, const struct history_result *r,
		       const struct history_check_opts *o)
{
	const struct history_series *s = r->s;
	const struct history_night *n = night_of(r);
	char co[KCIDB_ID_LEN], bu[KCIDB_ID_LEN], run[32];
	const char *path[] = { "thpbench", s->suite, s->case_id, s->metric };
	const char *key[] = { s->host, s->suite, s->suite_hash, s->case_id,
			      s->metric, run };
	char *text = r->ncp ? history_cp_text(r, &r->cp[r->ncp - 1]) : NULL;
	struct kcidb_checkout c = { 0 };
	struct kcidb_build b = { 0 };
	struct kcidb_test t = { 0 };

	if (!n)
		return;
	snprintf(run, sizeof(run), "%" PRId64, n->run_id);
	c.key = n->kernel_id;
	c.start_time = n->started;
	kcidb_add_checkout(k, &c, co);
	b.checkout_id = co;
	b.key = n->kernel_release;
	b.comment = n->kernel_release;
	b.start_time = n->started;
	kcidb_add_build(k, &b, bu);
	t.build_id = bu;
	t.path = path;
	t.npath = ARRAY_SIZE(path);
	t.key = key;
	t.nkey = ARRAY_SIZE(key);
	t.status = status_of(r, o);
	t.metric = s->metric;
	t.value = history_newest_mean(r);
	t.start_time = n->started;
	t.host = s->host;
	t.comment = text;
	t.misc = misc_of(r, o);
	kcidb_add_test(k, &t);
	free(text);
}

void history_write_kcidb(FILE *f, const struct history_result *r, size_t n,
			 const struct history_check_opts *o)
{
	struct kcidb *k = kcidb_new(o->origin);
	size_t *idx = history_order(r, n, o->fail_on), i;

	for (i = 0; i < n; i++)
		add_series(k, &r[idx[i]], o);
	kcidb_write(k, f);
	kcidb_free(k);
	free(idx);
}
