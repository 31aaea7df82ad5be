// SPDX-License-Identifier: GPL-2.0-only
#include "history_confirmation.h"
#include "history_backend.h"
#include "history_check.h"
#include "history_triage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/util.h"

int history_verdict_parse(const char *s)
{
	int v;

	for (v = VERDICT_TOO_FEW; s && v <= VERDICT_LEVEL; v++)
		if (!strcmp(s, verdict_name((enum verdict)v)))
			return v;
	return -1;
}

static int id_cb(void *ctx, size_t ncols, const char *const *cells)
{
	int64_t *id = ctx;
	long long v;

	if (ncols && cells[0] && sscanf(cells[0], "%lld", &v) == 1)
		*id = v;
	return 0;
}

int history_confirmation_record(struct history_db *db,
				struct history_confirmation *c)
{
	char now[32];
	time_t tnow = time(NULL);
	struct tm tm;
	struct hdb_value p[17];
	const char *text[11] = { c->cp_id, c->host, c->suite, c->suite_hash,
				 c->case_id, c->metric, c->night, c->kernel_a,
				 c->kernel_b, c->method, verdict_name(c->verdict) };
	double real[4] = { c->change, c->lo, c->hi, c->p };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(text); i++) {
		if (!text[i] || !*text[i])
			return hdb_fail(db, "history confirm: a confirmation without its %s",
					i < 6 ? "series" : i < 7 ? "night" : i < 9 ? "kernels" : "method");
		p[i] = (struct hdb_value){ .type = HDB_TEXT, .v.text = text[i] };
	}
	for (i = 0; i < ARRAY_SIZE(real); i++)
		p[11 + i] = isfinite(real[i]) ?
			(struct hdb_value){ .type = HDB_REAL, .v.real = real[i] } :
			(struct hdb_value){ .type = HDB_NULL };
	p[15] = (struct hdb_value){ .type = HDB_INT, .v.i = c->na };
	p[16] = (struct hdb_value){ .type = HDB_INT, .v.i = c->nb };
	gmtime_r(&tnow, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (db->ops->begin(db))
		return -1;
	/* insert() has no rows: the id is the newest row's, in the same
	 * transaction (appends only). */
	{
		struct hdb_value all[18];
		const char *none[1] = { NULL };

		memcpy(all, p, sizeof(p));
		all[17] = (struct hdb_value){ .type = HDB_TEXT,
					      .v.text = c->recorded ? c->recorded : now };
		if (db->ops->insert(db, "record the confirmation",
				    "INSERT INTO confirmations (cp_id, host, suite,"
				    " suite_hash, case_id, metric, night, kernel_a,"
				    " kernel_b, method, verdict, change, lo, hi, p,"
				    " na, nb, recorded) VALUES ($1, $2, $3, $4, $5,"
				    " $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,"
				    " $16, $17, $18)", 18, all) ||
		    db->ops->query(db, "read the confirmation's id",
				   "SELECT max(id) FROM confirmations", 0, none,
				   id_cb, &c->id) ||
		    db->ops->commit(db)) {
			db->ops->rollback(db);
			return -1;
		}
	}
	if (!c->recorded)
		c->recorded = xstrdup(now);
	return 0;
}

struct conf_list {
	struct history_db *db;
	struct history_confirmation *v;
	size_t n, cap;
	int err;
};

enum {
	CF_ID, CF_CP, CF_HOST, CF_SUITE, CF_HASH, CF_CASE, CF_METRIC, CF_NIGHT,
	CF_KA, CF_KB, CF_METHOD, CF_VERDICT, CF_CHANGE, CF_LO, CF_HI, CF_P,
	CF_NA, CF_NB, CF_RECORDED, CF_NCOLS
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static double num(const char *s)
{
	char *end;
	double v;

	if (!s)
		return NAN;
	v = strtod(s, &end);
	return end != s ? v : NAN;
}

static int conf_row(void *ctx, size_t ncols, const char *const *c)
{
	struct conf_list *l = ctx;
	struct history_confirmation *x;
	long long id = 0;
	int v;

	if (ncols != CF_NCOLS || !c[CF_CP] || !c[CF_ID] ||
	    sscanf(c[CF_ID], "%lld", &id) != 1 ||
	    (v = history_verdict_parse(c[CF_VERDICT])) < 0) {
		hdb_fail(l->db, "history: unexpected row in the confirmations table (id %lld)", id);
		return l->err = -1;
	}
	l->v = xgrow(l->v, sizeof(*l->v), &l->cap, l->n);
	x = &l->v[l->n++];
	memset(x, 0, sizeof(*x));
	x->id = id;
	x->cp_id = xstrdup(c[CF_CP]);
	x->host = dup_or_null(c[CF_HOST]);
	x->suite = dup_or_null(c[CF_SUITE]);
	x->suite_hash = dup_or_null(c[CF_HASH]);
	x->case_id = dup_or_null(c[CF_CASE]);
	x->metric = dup_or_null(c[CF_METRIC]);
	x->night = dup_or_null(c[CF_NIGHT]);
	x->kernel_a = dup_or_null(c[CF_KA]);
	x->kernel_b = dup_or_null(c[CF_KB]);
	x->method = dup_or_null(c[CF_METHOD]);
	x->verdict = (enum verdict)v;
	x->change = num(c[CF_CHANGE]);
	x->lo = num(c[CF_LO]);
	x->hi = num(c[CF_HI]);
	x->p = num(c[CF_P]);
	x->na = c[CF_NA] ? atoll(c[CF_NA]) : 0;
	x->nb = c[CF_NB] ? atoll(c[CF_NB]) : 0;
	x->recorded = dup_or_null(c[CF_RECORDED]);
	return 0;
}

static void free_one(struct history_confirmation *x)
{
	free(x->cp_id);
	free(x->host);
	free(x->suite);
	free(x->suite_hash);
	free(x->case_id);
	free(x->metric);
	free(x->night);
	free(x->kernel_a);
	free(x->kernel_b);
	free(x->method);
	free(x->recorded);
}

void history_confirmation_free(struct history_confirmation *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free_one(&v[i]);
	free(v);
}

static int cmp_cp_then_id(const void *x, const void *y)
{
	const struct history_confirmation *a = x, *b = y;
	int c = strcmp(a->cp_id, b->cp_id);

	return c ? c : (a->id > b->id) - (a->id < b->id);
}

/* The newest row of each watch, sorted by cp_id (for bsearch). */
static void keep_latest(struct conf_list *l)
{
	size_t i, k = 0;

	if (!l->n)
		return;
	qsort(l->v, l->n, sizeof(*l->v), cmp_cp_then_id);
	for (i = 0; i < l->n; i++) {
		if (i + 1 < l->n && !strcmp(l->v[i].cp_id, l->v[i + 1].cp_id))
			free_one(&l->v[i]);
		else
			l->v[k++] = l->v[i];
	}
	l->n = k;
}

int history_confirmation_load(struct history_db *db,
			      const struct history_filter *f,
			      struct history_confirmation **out, size_t *n_out)
{
	const char *cols[] = { "host", "suite", "case_id", "metric" };
	const char *vals[4] = { 0 }, *params[4];
	struct conf_list l = { .db = db };
	char where[256] = "", sql[1024];
	size_t np = 0, i, len;

	if (f) {
		vals[0] = f->host;
		vals[1] = f->suite;
		vals[2] = f->case_id;
		vals[3] = f->metric;
	}
	for (i = 0; i < ARRAY_SIZE(cols); i++) {
		if (!vals[i])
			continue;
		params[np++] = vals[i];
		len = strlen(where);
		snprintf(where + len, sizeof(where) - len, " AND %s = $%zu",
			 cols[i], np);
	}
	snprintf(sql, sizeof(sql),
		 "SELECT id, cp_id, host, suite, suite_hash, case_id, metric, night,"
		 " kernel_a, kernel_b, method, verdict, change, lo, hi, p, na, nb,"
		 " recorded FROM confirmations WHERE 1 = 1%s ORDER BY id", where);
	if (db->ops->query(db, "load the confirmations", sql, np, params,
			   conf_row, &l) || l.err) {
		history_confirmation_free(l.v, l.n);
		return -1;
	}
	keep_latest(&l);
	*out = l.v;
	*n_out = l.n;
	return 0;
}

static int cmp_key(const void *k, const void *e)
{
	return strcmp(k, ((const struct history_confirmation *)e)->cp_id);
}

void history_confirmation_apply(struct history_result *r, size_t n,
				const struct history_confirmation *v,
				size_t nv)
{
	size_t i;

	for (i = 0; nv && i < n; i++) {
		struct history_watch *w = &r[i].watch;
		struct history_watch_conf *wc = &w->conf;
		const struct history_confirmation *hit;
		char id[HISTORY_CP_ID_LEN];

		if (!w->present)
			continue;
		history_cp_id(r[i].s, w->night, id);
		hit = bsearch(id, v, nv, sizeof(*v), cmp_key);
		if (!hit)
			continue;
		wc->done = true;
		wc->verdict = hit->verdict;
		wc->change = hit->change;
		wc->lo = hit->lo;
		wc->hi = hit->hi;
		wc->p = hit->p;
		wc->na = hit->na;
		wc->nb = hit->nb;
		free(wc->text);
		{
			char buf[1024];

			snprintf(buf, sizeof(buf), "%s %s vs %s", hit->method,
				 hit->kernel_a, hit->kernel_b);
			wc->text = xstrdup(buf);
		}
	}
}
