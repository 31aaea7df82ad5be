// SPDX-License-Identifier: GPL-2.0-only
/*
 * kcidb - the KCIDB v5 writer (kcidb.h): objects are built as jansson
 * values as they are added, with every string cleaned on the way in, so
 * that writing is one json_dumpf.
 */
#include "kcidb.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/metric_unit.h"
#include "util/hash.h"
#include "util/utf8.h"
#include "util/util.h"

struct kcidb {
	char origin[KCIDB_ORIGIN_MAX + 1];
	json_t *checkouts, *builds, *tests;
	json_t *seen;		/* ids of the checkouts and builds added */
};

bool kcidb_origin_valid(const char *s)
{
	size_t n = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++, n++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return false;
	return n <= KCIDB_ORIGIN_MAX;
}

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

char *kcidb_path(const char *const *n, size_t count)
{
	size_t len = 2, i;
	char *out, *p;
	bool part = false;	/* inside a part: a '.' goes before the next */

	for (i = 0; i < count; i++)
		len += (n[i] ? strlen(n[i]) : 0) + 1;
	out = p = xmalloc(len);
	for (i = 0; i < count; i++) {
		const char *s = n[i] ? n[i] : "";
		bool sep = true;

		for (; *s; s++) {
			if (*s == '.' || *s == '/' || *s == ':') {
				sep = true;
				continue;
			}
			if (!path_char(*s))
				continue;
			if (sep && part)
				*p++ = '.';
			sep = false;
			part = true;
			*p++ = *s;
		}
	}
	if (p == out)
		*p++ = '_';
	*p = '\0';
	return out;
}

/* n digits at s, their value in *v; false when they are not all digits. */
static bool digits(const char *s, int n, int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

static bool zone_ok(const char *z)
{
	int h, m;

	if (!strcmp(z, "Z") || !strcmp(z, "z") || !*z)
		return true;
	if ((z[0] != '+' && z[0] != '-') || strlen(z) != 6 || z[3] != ':')
		return false;
	return digits(z + 1, 2, &h) && digits(z + 4, 2, &m) && h < 24 && m < 60;
}

bool kcidb_time(const char *s, char *out, size_t len)
{
	int y, mo, d, h, mi, se;
	const char *z;
	size_t frac = 0;

	if (!s || strlen(s) < 19 || s[4] != '-' || s[7] != '-' ||
	    (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':' ||
	    s[16] != ':')
		return false;
	if (!digits(s, 4, &y) || !digits(s + 5, 2, &mo) ||
	    !digits(s + 8, 2, &d) || !digits(s + 11, 2, &h) ||
	    !digits(s + 14, 2, &mi) || !digits(s + 17, 2, &se))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    se > 60)
		return false;
	z = s + 19;
	if (*z == '.') {
		for (frac = 1; isdigit((unsigned char)z[frac]); frac++)
			;
		if (frac == 1 || frac > 10)
			return false;
		z += frac;
	}
	if (!zone_ok(z))
		return false;
	if (snprintf(out, len, "%.10sT%.*s%s", s, (int)(8 + frac), s + 11,
		     !*z || *z == 'z' ? "Z" : z) >= (int)len)
		return false;
	return true;
}

struct kcidb *kcidb_new(const char *origin)
{
	struct kcidb *k = xmalloc(sizeof(*k));

	snprintf(k->origin, sizeof(k->origin), "%s",
		 kcidb_origin_valid(origin) ? origin : "thpbench");
	k->checkouts = json_array();
	k->builds = json_array();
	k->tests = json_array();
	k->seen = json_object();
	return k;
}

void kcidb_free(struct kcidb *k)
{
	if (!k)
		return;
	json_decref(k->checkouts);
	json_decref(k->builds);
	json_decref(k->tests);
	json_decref(k->seen);
	free(k);
}

void kcidb_id(const struct kcidb *k, const char *kind,
	      const char *const *parts, size_t n, char id[KCIDB_ID_LEN])
{
	size_t len = strlen(kind) + 1, i, off;
	char hex[HASH_SHA256_HEX], *buf;

	for (i = 0; i < n; i++)
		len += (parts[i] ? strlen(parts[i]) : 0) + 1;
	buf = xmalloc(len);
	off = strlen(kind) + 1;
	memcpy(buf, kind, off);
	for (i = 0; i < n; i++) {
		size_t l = parts[i] ? strlen(parts[i]) : 0;

		if (l)
			memcpy(buf + off, parts[i], l);
		buf[off + l] = '\0';
		off += l + 1;
	}
	if (hash_sha256(buf, len, hex))
		snprintf(hex, sizeof(hex), "%064d", 0);
	free(buf);
	snprintf(id, KCIDB_ID_LEN, "%s:%s", k->origin, hex);
}

/* A cleaned string member, nothing for NULL. */
static void set_str(json_t *o, const char *key, const char *s)
{
	char *c;

	if (!s)
		return;
	c = utf8_clean_dup(s);
	json_object_set_new(o, key, json_string(c));
	free(c);
}

void kcidb_misc_num(json_t *misc, const char *key, double v)
{
	if (misc && isfinite(v))
		json_object_set_new(misc, key, json_real(v));
}

void kcidb_misc_str(json_t *misc, const char *key, const char *s)
{
	if (misc)
		set_str(misc, key, s);
}

static void set_time(json_t *o, const char *s)
{
	char t[64];

	if (kcidb_time(s, t, sizeof(t)))
		json_object_set_new(o, "start_time", json_string(t));
}

/* A new object with id and origin; NULL when id was added already. */
static json_t *new_object(struct kcidb *k, const char *id, bool dedupe)
{
	json_t *o;

	if (dedupe) {
		if (json_object_get(k->seen, id))
			return NULL;
		json_object_set_new(k->seen, id, json_true());
	}
	o = json_object();
	json_object_set_new(o, "id", json_string(id));
	json_object_set_new(o, "origin", json_string(k->origin));
	return o;
}

void kcidb_add_checkout(struct kcidb *k, const struct kcidb_checkout *c,
			char id[KCIDB_ID_LEN])
{
	const char *parts[] = { c->key };
	json_t *o;

	kcidb_id(k, "checkout", parts, 1, id);
	if (!(o = new_object(k, id, true)))
		return;
	set_str(o, "git_commit_name", c->key);
	set_str(o, "comment", c->comment);
	set_time(o, c->start_time);
	json_array_append_new(k->checkouts, o);
}

void kcidb_add_build(struct kcidb *k, const struct kcidb_build *b,
		     char id[KCIDB_ID_LEN])
{
	const char *parts[] = { b->checkout_id, b->key };
	json_t *o, *misc;

	kcidb_id(k, "build", parts, 2, id);
	if (!(o = new_object(k, id, true)))
		return;
	json_object_set_new(o, "checkout_id", json_string(b->checkout_id));
	set_str(o, "comment", b->comment);
	set_time(o, b->start_time);
	misc = json_object();
	set_str(misc, "kernel_release", b->key);
	json_object_set_new(o, "misc", misc);
	json_array_append_new(k->builds, o);
}

static const char *status_of(const char *s)
{
	static const char *const ok[] = { "FAIL", "ERROR", "MISS", "PASS",
					  "DONE", "SKIP" };
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(ok); i++)
		if (!strcmp(s, ok[i]))
			return ok[i];
	return "ERROR";	/* a caller's mistake: still a valid document */
}

static json_t *number_json(const char *metric, double v)
{
	const char *u = metric ? metric_unit(metric) : "";
	json_t *n = json_object();

	json_object_set_new(n, "value", json_real(v));
	if (*u && strcmp(u, "count"))
		json_object_set_new(n, "unit", json_string(u));
	return n;
}

void kcidb_add_test(struct kcidb *k, const struct kcidb_test *t)
{
	char id[KCIDB_ID_LEN], *path;
	const char **parts = xmalloc((t->nkey + 1) * sizeof(*parts));
	json_t *o;

	parts[0] = t->build_id;
	if (t->nkey)
		memcpy(parts + 1, t->key, t->nkey * sizeof(*parts));
	kcidb_id(k, "test", parts, t->nkey + 1, id);
	free(parts);
	o = new_object(k, id, false);
	json_object_set_new(o, "build_id", json_string(t->build_id));
	path = kcidb_path(t->path, t->npath);
	json_object_set_new(o, "path", json_string(path));
	free(path);
	json_object_set_new(o, "status", json_string(status_of(t->status)));
	if (isfinite(t->value))
		json_object_set_new(o, "number", number_json(t->metric, t->value));
	set_time(o, t->start_time);
	if (t->host) {
		json_t *env = json_object();

		set_str(env, "comment", t->host);
		json_object_set_new(o, "environment", env);
	}
	set_str(o, "comment", t->comment);
	if (t->misc && json_object_size(t->misc))
		json_object_set(o, "misc", t->misc);
	json_decref(t->misc);
	json_array_append_new(k->tests, o);
}

int kcidb_write(const struct kcidb *k, FILE *f)
{
	json_t *doc = json_pack("{s:{s:i,s:i},s:O,s:O,s:O}", "version",
				"major", KCIDB_MAJOR, "minor", KCIDB_MINOR,
				"checkouts", k->checkouts, "builds", k->builds,
				"tests", k->tests);
	int rc;

	if (!doc)
		return -1;
	rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			JSON_REAL_PRECISION(15));
	json_decref(doc);
	if (rc || fputc('\n', f) == EOF)
		return -1;
	return 0;
}
