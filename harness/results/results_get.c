// SPDX-License-Identifier: GPL-2.0-only
#include "results_get.h"

#include <stdio.h>
#include <string.h>

/* The member part (n bytes) of o, NULL when o is no object or lacks it. */
static json_t *member(const json_t *o, const char *part, size_t n)
{
	char name[256];

	if (!json_is_object(o) || !n || n >= sizeof(name))
		return NULL;
	memcpy(name, part, n);
	name[n] = '\0';
	return json_object_get(o, name);
}

static int scalar(const json_t *v, const char *key, char *buf, size_t len,
		  char *err, size_t errlen)
{
	const char *s;
	size_t i;

	if (json_is_string(v)) {
		s = json_string_value(v);
		for (i = 0; s[i]; i++)
			if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
				snprintf(err, errlen, "%s holds a control character", key);
				return -1;
			}
		if (strlen(s) >= len) {
			snprintf(err, errlen, "%s is longer than %zu bytes", key, len - 1);
			return -1;
		}
		snprintf(buf, len, "%s", s);
	} else if (json_is_number(v)) {
		snprintf(buf, len, "%.17g", json_number_value(v));
	} else if (json_is_boolean(v)) {
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	} else {
		snprintf(err, errlen, "%s is not a string, number or boolean", key);
		return -1;
	}
	return 0;
}

int results_get(const struct tb_results *r, const char *key, char *buf,
		size_t len, char *err, size_t errlen)
{
	const char *p = key, *dot;
	const json_t *v;

	if (!strncmp(key, "env.", 4))
		v = r->env;
	else if (!strncmp(key, "meta.", 5))
		v = r->meta;
	else {
		snprintf(err, errlen, "%s: a key starts with env. or meta.", key);
		return -1;
	}
	p = strchr(key, '.') + 1;
	for (; v; p = dot + 1) {
		dot = strchrnul(p, '.');
		v = member(v, p, (size_t)(dot - p));
		if (!*dot)
			break;
	}
	if (!v) {
		snprintf(err, errlen, "%s is not in the results file", key);
		return -1;
	}
	return scalar(v, key, buf, len, err, errlen);
}
