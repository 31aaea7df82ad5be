// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_format - the helpers every output format shares.
 */
#include "history_format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_metrics.h"
#include "results/report.h"
#include "util/utf8.h"
#include "util/util.h"

bool history_newest_changed(const struct history_result *r)
{
	size_t i;

	for (i = 0; i < r->ncp; i++)
		if (r->cp[i].confirmed_at == r->newest)
			return true;
	return r->watch.present;
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
	return utf8_seq((const char *)s, NULL);
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

double history_newest_mean(const struct history_result *r)
{
	if (r->newest == SIZE_MAX || r->newest >= r->s->n_nights)
		return NAN;
	return history_night_mean(&r->s->nights[r->newest]);
}

const char *history_value_text(const char *metric, double v, double ref,
			       char *buf, size_t len)
{
	struct pm_scale sc;
	char num[64];

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	plot_metric_scale(metric, fabs(isfinite(ref) ? ref : v), &sc);
	fmt_grouped(num, sizeof(num), v * sc.factor);
	if (!*sc.unit || !strcmp(sc.unit, "count"))
		snprintf(buf, len, "%s", num);
	else
		snprintf(buf, len, "%s %s", num, sc.unit);
	return buf;
}

const char *hcp_first_term(enum hcp_kind k)
{
	return k == HCP_REGRESSION ? "first bad" :
	       k == HCP_IMPROVEMENT ? "first fast" : "first changed";
}

const char *hcp_last_term(enum hcp_kind k)
{
	return k == HCP_REGRESSION ? "last good" :
	       k == HCP_IMPROVEMENT ? "last slow" : "last before";
}
