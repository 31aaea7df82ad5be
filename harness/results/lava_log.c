// SPDX-License-Identifier: GPL-2.0-only
/*
 * lava_log - read a LAVA job log entry by entry (lava_log.h).
 */
#include "lava_log.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * Drop YAML's non-specific tag ("! " before a value) outside strings, in
 * place. Any other '!' outside a string (a named tag such as !!binary)
 * makes the line unreadable: false.
 */
static bool drop_tags(char *s)
{
	bool in_str = false;
	char *w = s;

	for (; *s; s++) {
		if (in_str) {
			if (*s == '\\' && s[1])
				*w++ = *s++;
			else if (*s == '"')
				in_str = false;
		} else if (*s == '"') {
			in_str = true;
		} else if (*s == '!') {
			if (s[1] != ' ')
				return false;
			s++;
			continue;
		}
		*w++ = *s;
	}
	*w = '\0';
	return true;
}

static const char *str_or_num(json_t *o, const char *key, char *buf, size_t len)
{
	json_t *v = json_object_get(o, key);

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_number(v)) {
		snprintf(buf, len, "%.17g", json_number_value(v));
		return buf;
	}
	return NULL;
}

static bool take_result(json_t *msg, const struct lava_log_cb *cb)
{
	struct lava_result r;
	char m[64];

	r.definition = json_string_value(json_object_get(msg, "definition"));
	r.name = json_string_value(json_object_get(msg, "case"));
	r.result = json_string_value(json_object_get(msg, "result"));
	if (!r.definition || !r.name || !r.result)
		return false;
	r.measurement = str_or_num(msg, "measurement", m, sizeof(m));
	r.units = json_string_value(json_object_get(msg, "units"));
	if (cb->result)
		cb->result(&r, cb->arg);
	return true;
}

/* One line; false when it is not an entry. */
static bool take_line(char *line, const struct lava_log_cb *cb)
{
	json_t *e, *msg;
	const char *lvl;
	bool ok = true;

	if (!strncmp(line, "- ", 2))
		line += 2;
	if (!drop_tags(line) || !(e = json_loads(line, JSON_REJECT_DUPLICATES, NULL)))
		return false;
	lvl = json_string_value(json_object_get(e, "lvl"));
	msg = json_object_get(e, "msg");
	if (!json_is_object(e) || !lvl) {
		ok = false;
	} else if (!strcmp(lvl, "target")) {
		ok = json_is_string(msg);
		if (ok && cb->target)
			cb->target(json_string_value(msg), cb->arg);
	} else if (!strcmp(lvl, "results")) {
		ok = json_is_object(msg) && take_result(msg, cb);
	}
	json_decref(e);
	return ok;
}

static bool blank(const char *s)
{
	s += strspn(s, " \t\r\n");
	return !*s || !strcmp(s, "---") || !strncmp(s, "...", 3);
}

int lava_log_read(FILE *f, const struct lava_log_cb *cb, struct lava_log_stats *st)
{
	char *line = NULL;
	size_t cap = 0, no = 0;
	ssize_t n;

	memset(st, 0, sizeof(*st));
	errno = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		no++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (blank(line))
			continue;
		if ((size_t)n <= LAVA_LOG_LINE_MAX && take_line(line, cb)) {
			st->entries++;
			continue;
		}
		if (!st->unread++)
			st->first_unread = no;
	}
	free(line);
	if (ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
