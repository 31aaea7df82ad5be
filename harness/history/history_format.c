// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_format - the dispatcher, the helpers every format shares, and
 * the text format.
 */
#include "history_format.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot_metrics.h"
#include "util.h"

static const char *const format_names[] = {
	[HISTORY_FMT_TEXT] = "text",
	[HISTORY_FMT_JSON] = "json",
	[HISTORY_FMT_JUNIT] = "junit",
	[HISTORY_FMT_TAP] = "tap",
	[HISTORY_FMT_LAVA] = "lava",
};

int history_format_parse(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(format_names); i++)
		if (!strcmp(s, format_names[i]))
			return (int)i;
	return -1;
}

int history_write(FILE *f, enum history_format fmt,
		  const struct history_result *r, size_t n,
		  const struct history_check_opts *o)
{
	static void (*const fns[])(FILE *, const struct history_result *,
				   size_t, const struct history_check_opts *) = {
		[HISTORY_FMT_TEXT] = history_write_text,
		[HISTORY_FMT_JSON] = history_write_json,
		[HISTORY_FMT_JUNIT] = history_write_junit,
		[HISTORY_FMT_TAP] = history_write_tap,
		[HISTORY_FMT_LAVA] = history_write_lava,
	};

	if ((size_t)fmt >= ARRAY_SIZE(fns)) {
		errno = EINVAL;
		return -1;
	}
	fns[fmt](f, r, n, o);
	if (fflush(f) || ferror(f))
		return -1;
	return 0;
}

bool history_newest_changed(const struct history_result *r)
{
	const struct history_cp *cp = r->ncp ? &r->cp[r->ncp - 1] : NULL;

	return cp && cp->night == r->newest && cp->kind != HCP_REJECTED;
}

static int rank(const struct history_result *r, enum history_fail_on f)
{
	if (history_result_fails(r, f))
		return 0;
	return history_newest_changed(r) ? 1 : 2;
}

size_t *history_order(const struct history_result *r, size_t n,
		      enum history_fail_on f)
{
	size_t *idx = xmalloc((n ? n : 1) * sizeof(*idx)), k = 0, i;
	int pass;

	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < n; i++)
			if (rank(&r[i], f) == pass)
				idx[k++] = i;
	return idx;
}

/* Length of the valid UTF-8 sequence at s, 0 when there is none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff) ||
			cp == 0xfffe || cp == 0xffff)) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

char *history_utf8_clean(const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	char *out = xmalloc(3 * strlen(str ? str : "") + 1), *p = out;

	while (*s) {
		size_t n = utf8_len(s);

		if (!n) {
			memcpy(p, "\xef\xbf\xbd", 3);
			p += 3;
			s++;
			continue;
		}
		memcpy(p, s, n);
		p += n;
		s += n;
	}
	*p = 0;
	return out;
}

void history_xml_escape(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	while (*s) {
		size_t n = utf8_len(s);

		if (!n) {
			fputs("\xef\xbf\xbd", f);
			s++;
			continue;
		}
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if (*s < 0x20 && *s != '\t' && *s != '\n')
				fputs("\xef\xbf\xbd", f);
			else
				fwrite(s, 1, n, f);
		}
		s += n;
	}
}

const char *history_token(const char *s, char *buf, size_t len)
{
	size_t i = 0;

	if (!len)
		return buf;
	for (; s && *s && i + 1 < len; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || strchr("._-", c);

		buf[i++] = ok ? c : '_';
	}
	buf[i] = '\0';
	if (!i)
		snprintf(buf, len, "_");
	return buf;
}

double history_newest_mean(const struct history_result *r)
{
	if (r->newest == SIZE_MAX || r->newest >= r->s->n_nights)
		return NAN;
	return history_night_mean(&r->s->nights[r->newest]);
}

/* --- text ------------------------------------------------------------ */

static const char *fail_on_name(enum history_fail_on f)
{
	return f == HISTORY_FAIL_NEWEST ? "newest" :
	       f == HISTORY_FAIL_REGRESSION ? "regression" : "none";
}

static void text_series(FILE *f, const struct history_result *r,
			const struct history_check_opts *o)
{
	const struct history_series *s = r->s;
	char name[512];
	size_t i, confirmed = 0;

	for (i = 0; i < r->ncp; i++)
		confirmed += r->cp[i].kind != HCP_REJECTED;
	fprintf(f, "%-4s %s: %zu nights", history_result_fails(r, o->fail_on) ?
		"FAIL" : "ok", history_series_name(s, name, sizeof(name)),
		r->n_used);
	if (r->newest != SIZE_MAX)
		fprintf(f, ", newest %s (kernel %s) mean %.6g %s",
			s->nights[r->newest].started ? s->nights[r->newest].started : "?",
			s->nights[r->newest].kernel_id ? s->nights[r->newest].kernel_id : "?",
			history_newest_mean(r), plot_metric_unit(s->metric));
	if (!r->ncp)
		fputs("; no change point\n", f);
	else
		fprintf(f, "; %zu change point%s, %zu confirmed\n", r->ncp,
			r->ncp == 1 ? "" : "s", confirmed);
	for (i = r->ncp; i-- > 0;) {
		char *t = history_cp_text(r, &r->cp[i]);

		fprintf(f, "     %s\n", t);
		free(t);
		if (r->cp[i].bisect)
			fprintf(f, "     %s\n", r->cp[i].bisect);
	}
}

void history_write_text(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i, fails = 0;

	for (i = 0; i < n; i++)
		fails += history_result_fails(&r[i], o->fail_on);
	fprintf(f, "history check: %zu series; gate --fail-on %s: %s", n,
		fail_on_name(o->fail_on), fails ? "FAILED" : "passed");
	if (fails)
		fprintf(f, " (%zu series)", fails);
	fputs("\n\n", f);
	for (i = 0; i < n; i++)
		text_series(f, &r[idx[i]], o);
	free(idx);
}
