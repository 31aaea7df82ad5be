// SPDX-License-Identifier: GPL-2.0-only
#include "utf8.h"

#include <string.h>

#include "util.h"

size_t utf8_seq(const char *str, uint32_t *cpo)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0x80) {
		cp = s[0];
		n = 1;
		goto out;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	/* A NUL is no continuation byte: never read past the end. */
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff) ||
			cp == 0xfffe || cp == 0xffff)) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
out:
	if (cpo)
		*cpo = cp;
	return n;
}

const char *utf8_invalid(const char *s)
{
	size_t n;

	for (; s && *s; s += n)
		if (!(n = utf8_seq(s, NULL)))
			return s;
	return NULL;
}

size_t utf8_chars(const char *s)
{
	size_t k = 0, n;

	for (; s && *s; s += n ? n : 1)
		n = utf8_seq(s, NULL), k++;
	return k;
}

static bool is_control(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

const char *utf8_control(const char *s)
{
	uint32_t c;
	size_t n;

	for (; s && *s; s += n ? n : 1) {
		n = utf8_seq(s, &c);
		if (is_control(n ? c : (unsigned char)*s))
			return s;
	}
	return NULL;
}

char *utf8_cut_dup(const char *s, size_t max)
{
	const char *p = s;
	size_t k, n;
	char *out;

	if (!s)
		return NULL;
	for (k = 0; *p && k < max; k++, p += n ? n : 1)
		n = utf8_seq(p, NULL);
	if (!*p)
		return xstrdup(s);
	out = xmalloc((size_t)(p - s) + sizeof("…"));
	memcpy(out, s, (size_t)(p - s));
	memcpy(out + (p - s), "…", sizeof("…"));
	return out;
}

char *utf8_clean_dup(const char *s)
{
	const char *in = s ? s : "";
	char *out = xmalloc(3 * strlen(in) + 1), *p = out;

	while (*in) {
		size_t n = utf8_seq(in, NULL);

		if (!n) {	/* one byte of invalid UTF-8: U+FFFD */
			memcpy(p, "\xef\xbf\xbd", 3);
			p += 3;
			in++;
			continue;
		}
		memcpy(p, in, n);
		p += n;
		in += n;
	}
	*p = '\0';
	return out;
}

/* The escape of the character at s into out (at most 7 bytes and a NUL);
 * the bytes of s it stands for. */
static size_t escape_one(const char *s, char out[8])
{
	uint32_t c;
	size_t n = utf8_seq(s, &c);

	if (!n) {
		snprintf(out, 8, "\\x%02x", (unsigned char)*s);
		return 1;
	}
	switch (c) {
	case '\n': strcpy(out, "\\n"); break;
	case '\r': strcpy(out, "\\r"); break;
	case '\t': strcpy(out, "\\t"); break;
	case '\\': strcpy(out, "\\\\"); break;
	default:
		if (c < 0x20 || c == 0x7f)
			snprintf(out, 8, "\\x%02x", (unsigned)c);
		else if (c >= 0x80 && c <= 0x9f)
			snprintf(out, 8, "\\u%04x", (unsigned)c);
		else {
			memcpy(out, s, n);
			out[n] = '\0';
		}
	}
	return n;
}

const char *str_escape(const char *s, char *buf, size_t len)
{
	size_t o = 0, l;
	char e[8];

	if (!len)
		return buf;
	for (; s && *s; o += l) {
		s += escape_one(s, e);
		l = strlen(e);
		if (o + l + 1 > len)
			break;
		memcpy(buf + o, e, l);
	}
	buf[o] = '\0';
	return buf;
}

void fputs_escaped(const char *s, FILE *f)
{
	char e[8];

	while (s && *s) {
		s += escape_one(s, e);
		fputs(e, f);
	}
}

char *str_escape_dup(const char *s)
{
	/* At most 6 bytes of escape per byte ("\u0085" for 2). */
	size_t len = 4 * strlen(s ? s : "") + 1;
	char *buf = xmalloc(len);

	return (char *)str_escape(s, buf, len);
}
