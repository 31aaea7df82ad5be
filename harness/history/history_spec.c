// SPDX-License-Identifier: GPL-2.0-only
#include "history_spec.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

#define MAX_SECRETS 32
#define MIN_PIECE 2	/* shorter pieces would blank out ordinary letters */

struct secrets {
	char *v[MAX_SECRETS];
	size_t n;
};

bool history_db_spec_is_pg(const char *spec)
{
	return !strncmp(spec, "postgresql://", 13) || !strncmp(spec, "postgres://", 11);
}

static void add(struct secrets *s, const char *p, size_t len)
{
	size_t i;

	if (len < MIN_PIECE || s->n == MAX_SECRETS)
		return;
	for (i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && !memcmp(s->v[i], p, len))
			return;
	s->v[s->n++] = xstrndup(p, len);
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* A secret, its percent-decoded form, and their '@'/'/'-separated pieces. */
static void add_all(struct secrets *s, const char *p, size_t len)
{
	char *dec = xmalloc(len + 1);
	const char *forms[2] = { p, dec };
	size_t i, o = 0, f, start;

	for (i = 0; i < len; i++) {
		if (p[i] == '%' && i + 2 < len &&
		    isxdigit((unsigned char)p[i + 1]) &&
		    isxdigit((unsigned char)p[i + 2])) {
			dec[o++] = (char)(hexval((unsigned char)p[i + 1]) * 16 +
					  hexval((unsigned char)p[i + 2]));
			i += 2;
		} else {
			dec[o++] = p[i];
		}
	}
	dec[o] = '\0';
	for (f = 0; f < 2; f++) {
		size_t n = f ? o : len;

		add(s, forms[f], n);
		for (i = start = 0; i <= n; i++)
			if (i == n || forms[f][i] == '@' || forms[f][i] == '/') {
				if (start || i < n)
					add(s, forms[f] + start, i - start);
				start = i + 1;
			}
	}
	free(dec);
}

static void collect(const char *spec, struct secrets *s)
{
	const char *rest, *q, *at = NULL, *colon, *p, *end;

	memset(s, 0, sizeof(*s));
	if (!history_db_spec_is_pg(spec))
		return;
	rest = strstr(spec, "://") + 3;
	q = rest + strcspn(rest, "?");
	for (p = rest; p < q; p++)
		if (*p == '@')
			at = p;
	colon = at ? memchr(rest, ':', (size_t)(at - rest)) : NULL;
	if (colon)
		add_all(s, colon + 1, (size_t)(at - colon - 1));
	if (*q != '?')
		return;
	for (p = q + 1; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "&");
		if (!strncasecmp(p, "password=", 9))
			add_all(s, p + 9, (size_t)(end - p - 9));
	}
}

static int longest_first(const void *a, const void *b)
{
	size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);

	return x < y ? 1 : x > y ? -1 : 0;
}

void history_redact(const char *spec, const char *text, char *buf, size_t len)
{
	struct secrets s;
	size_t i, o = 0, k;
	const char *t = text;

	collect(spec, &s);
	qsort(s.v, s.n, sizeof(*s.v), longest_first);
	while (*t && o + 1 < len) {
		for (k = 0; k < s.n; k++)
			if (!strncmp(t, s.v[k], strlen(s.v[k])))
				break;
		if (k < s.n) {
			o += (size_t)snprintf(buf + o, len - o, "***");
			t += strlen(s.v[k]);
		} else {
			buf[o++] = *t++;
		}
	}
	if (o >= len)
		o = len - 1;
	buf[o] = '\0';
	for (i = 0; i < s.n; i++)
		free(s.v[i]);
}

void history_db_spec_show(const char *spec, char *buf, size_t len)
{
	history_redact(spec, spec, buf, len);
}
