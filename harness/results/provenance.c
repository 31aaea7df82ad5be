// SPDX-License-Identifier: GPL-2.0-only
/* provenance - see provenance.h. */
#include "provenance.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "store.h"
#include "util/util.h"

#define MAX_KEY 128

static bool key_ok(const char *k, size_t n)
{
	size_t i;
	bool part = false;

	if (!n || n > MAX_KEY)
		return false;
	for (i = 0; i < n; i++) {
		char c = k[i];

		if (c == '.') {
			if (!part)
				return false;
			part = false;
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '_') {
			part = true;
		} else {
			return false;
		}
	}
	return part;
}

static json_t *typed_value(const char *v)
{
	double x;

	if (!strcmp(v, "true"))
		return json_true();
	if (!strcmp(v, "false"))
		return json_false();
	if (!strcmp(v, "null"))
		return json_null();
	if (!strcmp(v, "[]"))
		return json_array();
	if (!strcmp(v, "{}"))
		return json_object();
	if (parse_double(v, &x) || !isfinite(x))
		return NULL;
	if (x == floor(x) && fabs(x) < 9e15)
		return json_integer((json_int_t)x);
	return json_real(x);
}

static bool is_index(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0 && n < 7;
}

/* The member PART of container o: an object's key, or an array's index
 * (the next one appends). *slot: NULL when a new one may go there. */
static int member(json_t *o, const char *part, size_t n, json_t **slot)
{
	char name[MAX_KEY + 1];
	size_t idx;

	snprintf(name, sizeof(name), "%.*s", (int)n, part);
	if (json_is_object(o)) {
		if (is_index(part, n))
			return -1;	/* an index where a name goes */
		*slot = json_object_get(o, name);
		return 0;
	}
	if (!is_index(part, n))
		return -1;
	idx = (size_t)strtoul(name, NULL, 10);
	if (idx > json_array_size(o))
		return -1;	/* an index that skips */
	*slot = json_array_get(o, idx);
	return 0;
}

static void add(json_t *o, const char *part, size_t n, json_t *v)
{
	char name[MAX_KEY + 1];

	snprintf(name, sizeof(name), "%.*s", (int)n, part);
	if (json_is_object(o))
		json_object_set_new(o, name, v);
	else
		json_array_append_new(o, v);
}

/* Put v at dotted path key (n bytes) under o (an object, or an array
 * when the part is an index); -1 (v released) when it clashes. */
static int put(json_t *o, const char *key, size_t n, json_t *v)
{
	const char *dot = memchr(key, '.', n), *end;
	size_t plen = dot ? (size_t)(dot - key) : n;
	json_t *sub;

	if (member(o, key, plen, &sub))
		goto clash;
	if (!dot) {
		if (sub)
			goto clash;
		add(o, key, plen, v);
		return 0;
	}
	if (!sub) {
		end = memchr(dot + 1, '.', n - plen - 1);
		sub = is_index(dot + 1, end ? (size_t)(end - dot - 1) : n - plen - 1) ?
		      json_array() : json_object();
		add(o, key, plen, sub);
	} else if (!json_is_object(sub) && !json_is_array(sub)) {
		goto clash;
	}
	return put(sub, dot + 1, n - plen - 1, v);
clash:
	json_decref(v);
	return -1;
}

json_t *provenance_from_pairs(char *const *pairs, size_t n, char *err,
			      size_t errlen)
{
	json_t *o = json_object(), *v;
	size_t i, klen;
	const char *eq;
	bool typed;

	for (i = 0; i < n; i++) {
		eq = strchr(pairs[i], '=');
		klen = eq ? (size_t)(eq - pairs[i]) : 0;
		typed = klen && pairs[i][klen - 1] == ':';
		if (typed)
			klen--;
		if (!eq || !key_ok(pairs[i], klen)) {
			snprintf(err, errlen, "'%.80s': give KEY=TEXT or KEY:=NUMBER, KEY of [A-Za-z0-9_] parts joined by '.'",
				 pairs[i]);
			goto bad;
		}
		v = typed ? typed_value(eq + 1) : json_string(eq + 1);
		if (!v) {
			snprintf(err, errlen, "'%.80s': %s", pairs[i], typed ?
				 "after := a number, true, false, null, [] or {}" : "the text is not UTF-8");
			goto bad;
		}
		if (put(o, pairs[i], klen, v)) {
			snprintf(err, errlen, "'%.80s': that key is given twice, is both a value and an object, or has an index that skips or where a name goes",
				 pairs[i]);
			goto bad;
		}
	}
	return o;
bad:
	json_decref(o);
	return NULL;
}

int provenance_stamp(const char *path, const char *key, json_t *obj,
		     const char *timings, char *err, size_t errlen)
{
	struct tb_results r = { 0 };
	json_t *t;
	int rc = -1;

	if (!key_ok(key, strlen(key)) || strchr(key, '.')) {
		snprintf(err, errlen, "meta key '%.80s': [A-Za-z0-9_] only", key);
		return -1;
	}
	t = timings ? json_string(timings) : NULL;

	if (timings && !t) {
		snprintf(err, errlen, "timings: not UTF-8 text");
		return -1;
	}
	if (store_load(path, &r, err, errlen))
		goto out;
	if (!r.meta)
		r.meta = json_object();
	if (obj)
		json_object_set(r.meta, key, obj);
	if (t)
		json_object_set(r.meta, "timings", t);
	rc = store_write(&r, path, err, errlen);
out:
	json_decref(t);
	results_free(&r);
	return rc;
}
