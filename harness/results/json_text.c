// SPDX-License-Identifier: GPL-2.0-only
#include "json_text.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void newline(FILE *f, int indent, int depth)
{
	fputc('\n', f);
	fprintf(f, "%*s", indent * depth, "");
}

/* Strings and integers as jansson writes them (its escaping). */
static void scalar(const json_t *v, FILE *f)
{
	char *s = json_dumps(v, JSON_ENCODE_ANY);

	fputs(s ? s : "null", f);
	free(s);
}

static void real(double d, FILE *f)
{
	char buf[40];

	if (!*fmt_shortest(d, buf, sizeof(buf))) {
		fputs("null", f);	/* jansson holds no NaN; be safe */
		return;
	}
	fputs(buf, f);
	if (!strpbrk(buf, ".eE"))
		fputs(".0", f);
}

static void value(const json_t *v, FILE *f, int indent, int depth)
{
	const char *key;
	json_t *x;
	size_t i, n;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		n = json_object_size(v);
		fputc('{', f);
		i = 0;
		json_object_foreach((json_t *)v, key, x) {
			json_t *k = json_string(key);

			newline(f, indent, depth + 1);
			scalar(k, f);
			json_decref(k);
			fputs(": ", f);
			value(x, f, indent, depth + 1);
			if (++i < n)
				fputc(',', f);
		}
		if (n)
			newline(f, indent, depth);
		fputc('}', f);
		break;
	case JSON_ARRAY:
		n = json_array_size(v);
		fputc('[', f);
		json_array_foreach((json_t *)v, i, x) {
			newline(f, indent, depth + 1);
			value(x, f, indent, depth + 1);
			if (i + 1 < n)
				fputc(',', f);
		}
		if (n)
			newline(f, indent, depth);
		fputc(']', f);
		break;
	case JSON_REAL:
		real(json_real_value(v), f);
		break;
	default:
		scalar(v, f);
	}
}

int json_text_write(const json_t *v, FILE *f, int indent)
{
	value(v, f, indent, 0);
	return ferror(f) ? -1 : 0;
}
