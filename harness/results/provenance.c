// SPDX-License-Identifier: GPL-2.0-only
/* provenance - see provenance.h. */
#include "provenance.h"

#include <math.h>
#include <stdbool.h>
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
	if (parse_double(v, &x) || !isfinite(x))
		return NULL;
	if (x == floor(x) && fabs(x) < 9e15)
		return json_integer((json_int_t)x);
	return json_real(x);
}

/* Put v at dotted path key (n bytes) under o; -1 when it clashes. */
static int put(json_t *o, const char *key, size_t n, json_t *v)
{
	const char *dot = memchr(key, '.', n);
	char part[MAX_KEY + 1];
	json_t *sub;

	snprintf(part, sizeof(part), "%.*s", (int)(dot ? (size_t)(dot - key) : n), key);
	if (!dot) {
		if (json_object_get(o, part)) {
			json_decref(v);
			return -1;
		}
		return json_object_set_new(o, part, v);
	}
	sub = json_object_get(o, part);
	if (!sub) {
		sub = json_object();
		json_object_set_new(o, part, sub);
	} else if (!json_is_object(sub)) {
		json_decref(v);
		return -1;
	}
	return put(sub, dot + 1, n - (size_t)(dot + 1 - key), v);
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
				 "after := a number, true, false or null" : "the text is not UTF-8");
			goto bad;
		}
		if (put(o, pairs[i], klen, v)) {
			snprintf(err, errlen, "'%.80s': that key is given twice, or is both a value and an object",
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
	int rc = -1;

	if (!key_ok(key, strlen(key)) || strchr(key, '.')) {
		snprintf(err, errlen, "meta key '%.80s': [A-Za-z0-9_] only", key);
		return -1;
	}
	if (timings && !json_string(timings)) {
		snprintf(err, errlen, "timings: not UTF-8 text");
		return -1;
	}
	if (store_load(path, &r, err, errlen))
		goto out;
	if (!r.meta)
		r.meta = json_object();
	if (obj)
		json_object_set(r.meta, key, obj);
	if (timings)
		json_object_set_new(r.meta, "timings", json_string(timings));
	rc = store_write(&r, path, err, errlen);
out:
	results_free(&r);
	return rc;
}
