// SPDX-License-Identifier: GPL-2.0-only
#include "history_triage.h"
#include "history_backend.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/hash.h"
#include "util/utf8.h"
#include "util/util.h"

static const char *const state_names[] = {
	[TRIAGE_NONE] = "",
	[TRIAGE_ACCEPTED] = "accepted",
	[TRIAGE_FALSE_ALARM] = "false-alarm",
	[TRIAGE_FIXED] = "fixed",
	[TRIAGE_REOPENED] = "reopened",
};

const char *history_triage_state_name(enum triage_state s)
{
	return (size_t)s < ARRAY_SIZE(state_names) ? state_names[s] : "";
}

int history_triage_state_parse(const char *s)
{
	size_t i;

	for (i = 1; s && i < ARRAY_SIZE(state_names); i++)
		if (!strcmp(s, state_names[i]))
			return (int)i;
	return -1;
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

void history_cp_id(const struct history_series *s, size_t night,
		   char out[HISTORY_CP_ID_LEN])
{
	const struct history_night *n = &s->nights[night];
	const char *parts[] = { s->host, s->suite_hash, s->case_id, s->metric,
				n->started, n->kernel_id };
	char hex[HASH_SHA256_HEX], *buf;
	size_t len = 1, i, k = 0;

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		len += strlen(or_empty(parts[i])) + 1;
	buf = xmalloc(len);
	/* NUL-separated: no part can pose as two. */
	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		size_t l = strlen(or_empty(parts[i])) + 1;

		memcpy(buf + k, or_empty(parts[i]), l);
		k += l;
	}
	if (hash_sha256(buf, k, hex))
		tb_die("cannot hash a change point (out of memory?)");
	free(buf);
	memcpy(out, hex, HISTORY_CP_ID_LEN - 1);
	out[HISTORY_CP_ID_LEN - 1] = 0;
}

/*
 * NULL or a text of at most max characters (code points: what the
 * message says), valid UTF-8 (PostgreSQL refuses the rest, SQLite would
 * keep it: both backends alike), no control character, C1 included (a
 * terminal obeys U+009B as ESC [).
 */
static int text_ok(const char *what, const char *s, bool required,
		   size_t max, char *err, size_t errlen)
{
	const char *bad;
	size_t n;

	if (!s || !*s) {
		if (required)
			snprintf(err, errlen, "history triage: %s is required", what);
		return required ? -1 : 0;
	}
	if ((bad = utf8_invalid(s))) {
		snprintf(err, errlen, "history triage: %s is not valid UTF-8 (byte 0x%02x at offset %zu): give it in UTF-8",
			 what, (unsigned char)*bad, (size_t)(bad - s));
		return -1;
	}
	if ((bad = utf8_control(s))) {
		uint32_t c;

		utf8_seq(bad, &c);
		snprintf(err, errlen, "history triage: %s holds a control character (U+%04X at offset %zu)",
			 what, (unsigned)c, (size_t)(bad - s));
		return -1;
	}
	n = utf8_chars(s);
	if (n > max) {
		snprintf(err, errlen, "history triage: %s is longer than %zu characters (%zu)",
			 what, max, n);
		return -1;
	}
	return 0;
}

int history_triage_check(const struct history_triage *t, char *err, size_t errlen)
{
	if (t->state == TRIAGE_NONE || (size_t)t->state >= ARRAY_SIZE(state_names)) {
		snprintf(err, errlen, "history triage: no decision (--accept, --false-alarm, --fixed-by REF or --reopen)");
		return -1;
	}
	if (text_ok("--by NAME (who decided)", t->name, true,
		    HISTORY_TRIAGE_NAME_MAX, err, errlen) ||
	    text_ok("--reason TEXT (why it is intended)", t->reason,
		    t->state == TRIAGE_ACCEPTED, HISTORY_TRIAGE_TEXT_MAX, err,
		    errlen) ||
	    text_ok("--fixed-by REF (the fix)", t->fix,
		    t->state == TRIAGE_FIXED, HISTORY_TRIAGE_TEXT_MAX, err,
		    errlen))
		return -1;
	if (t->fix && t->state != TRIAGE_FIXED) {
		snprintf(err, errlen, "history triage: --fixed-by goes with no other decision");
		return -1;
	}
	return 0;
}

static int id_cb(void *ctx, size_t ncols, const char *const *cells)
{
	int64_t *id = ctx;
	long long v;

	if (ncols && cells[0] && sscanf(cells[0], "%lld", &v) == 1)
		*id = v;
	return 0;
}

int history_triage_record(struct history_db *db, struct history_triage *t)
{
	char now[32];
	time_t tnow = time(NULL);
	struct tm tm;
	const char *p[14];

	if (history_triage_check(t, db->err, sizeof(db->err)))
		return -1;
	gmtime_r(&tnow, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	p[0] = t->cp_id;
	p[1] = t->host;
	p[2] = t->suite;
	p[3] = t->suite_hash;
	p[4] = t->case_id;
	p[5] = t->metric;
	p[6] = t->night;
	p[7] = t->kernel_id;
	p[8] = history_triage_state_name(t->state);
	p[9] = t->reason && *t->reason ? t->reason : NULL;
	p[10] = t->name;
	p[11] = t->fix && *t->fix ? t->fix : NULL;
	p[12] = t->decided ? t->decided : now;
	if (db->ops->begin(db))
		return -1;
	if (db->ops->query(db, "record the triage",
			   "INSERT INTO triage (cp_id, host, suite, suite_hash,"
			   " case_id, metric, night, kernel_id, state, reason, name,"
			   " fix, decided) VALUES ($1, $2, $3, $4, $5, $6, $7, $8,"
			   " $9, $10, $11, $12, $13) RETURNING id",
			   13, p, id_cb, &t->id) ||
	    db->ops->commit(db)) {
		db->ops->rollback(db);
		return -1;
	}
	if (!t->decided)
		t->decided = xstrdup(now);
	return 0;
}

struct triage_list {
	struct history_db *db;		/* for its errors */
	struct history_triage *v;
	size_t n, cap;
	int err;
};

enum {
	TR_ID, TR_CP, TR_HOST, TR_SUITE, TR_HASH, TR_CASE, TR_METRIC, TR_NIGHT,
	TR_KERNEL, TR_STATE, TR_REASON, TR_NAME, TR_FIX, TR_DECIDED, TR_NCOLS
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int triage_row(void *ctx, size_t ncols, const char *const *c)
{
	struct triage_list *l = ctx;
	struct history_triage *t;
	long long id = 0;
	int st;

	if (ncols != TR_NCOLS || !c[TR_CP] || !c[TR_ID] ||
	    sscanf(c[TR_ID], "%lld", &id) != 1 ||
	    (st = history_triage_state_parse(c[TR_STATE])) < 0) {
		char shown[64];

		/* The state as stored: escaped, one line. */
		hdb_fail(l->db, "history: unexpected row in the triage table (state \"%s\")",
			 str_escape(ncols > TR_STATE && c[TR_STATE] ? c[TR_STATE] : "?",
				    shown, sizeof(shown)));
		return l->err = -1;
	}
	l->v = xgrow(l->v, sizeof(*l->v), &l->cap, l->n);
	t = &l->v[l->n++];
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->cp_id = xstrdup(c[TR_CP]);
	t->host = dup_or_null(c[TR_HOST]);
	t->suite = dup_or_null(c[TR_SUITE]);
	t->suite_hash = dup_or_null(c[TR_HASH]);
	t->case_id = dup_or_null(c[TR_CASE]);
	t->metric = dup_or_null(c[TR_METRIC]);
	t->night = dup_or_null(c[TR_NIGHT]);
	t->kernel_id = dup_or_null(c[TR_KERNEL]);
	t->state = (enum triage_state)st;
	t->reason = dup_or_null(c[TR_REASON]);
	t->name = dup_or_null(c[TR_NAME]);
	t->fix = dup_or_null(c[TR_FIX]);
	t->decided = dup_or_null(c[TR_DECIDED]);
	return 0;
}

static void free_one(struct history_triage *t)
{
	free(t->cp_id);
	free(t->host);
	free(t->suite);
	free(t->suite_hash);
	free(t->case_id);
	free(t->metric);
	free(t->night);
	free(t->kernel_id);
	free(t->reason);
	free(t->name);
	free(t->fix);
	free(t->decided);
}

void history_triage_free(struct history_triage *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free_one(&v[i]);
	free(v);
}

static int cmp_cp_then_id(const void *x, const void *y)
{
	const struct history_triage *a = x, *b = y;
	int c = strcmp(a->cp_id, b->cp_id);

	return c ? c : (a->id > b->id) - (a->id < b->id);
}

static int cmp_id(const void *x, const void *y)
{
	const struct history_triage *a = x, *b = y;

	return (a->id > b->id) - (a->id < b->id);
}

/* Keep the newest decision of each change point, oldest first. */
static void keep_latest(struct triage_list *l)
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
	qsort(l->v, l->n, sizeof(*l->v), cmp_id);
}

int history_triage_load(struct history_db *db, const struct history_filter *f,
			bool latest_only, struct history_triage **out,
			size_t *n_out)
{
	const char *cols[] = { "host", "suite", "case_id", "metric" };
	const char *vals[4] = { 0 }, *params[4];
	struct triage_list l = { .db = db };
	char where[256] = "", night[160], decided[160], *sql;
	size_t np = 0, i, len;
	int rc;

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
	history_schema_time_text(db->ops->dialect, "night", night, sizeof(night));
	history_schema_time_text(db->ops->dialect, "decided", decided, sizeof(decided));
	len = strlen(where) + strlen(night) + strlen(decided) + 512;
	sql = xmalloc(len);
	snprintf(sql, len,
		 "SELECT id, cp_id, host, suite, suite_hash, case_id, metric, %s,"
		 " kernel_id, state, reason, name, fix, %s FROM triage"
		 " WHERE 1 = 1%s ORDER BY id", night, decided, where);
	rc = db->ops->query(db, "load the triage", sql, np, params, triage_row, &l);
	free(sql);
	if (rc || l.err) {
		history_triage_free(l.v, l.n);
		return -1;
	}
	if (latest_only)
		keep_latest(&l);
	*out = l.v;
	*n_out = l.n;
	return 0;
}
