// SPDX-License-Identifier: GPL-2.0-only
/* plot_pairs - shared by the charts of a compared pair (plot_pairs.h). */
#include "plot_pairs.h"

#include <stdlib.h>
#include <string.h>

#include "compare/compare_format.h"
#include "util/util.h"

static const struct {
	enum verdict v;
	const char *rgb;
} verdict_rgb[] = {
	{ VERDICT_IMPROVEMENT, "0x228833" },
	{ VERDICT_REGRESSION, "0xcc3311" },
	{ VERDICT_NO_CHANGE, "0x888888" },
	{ VERDICT_INCONCLUSIVE, "0xee9933" },
	{ VERDICT_CHANGED, "0x4477aa" },
	{ VERDICT_TOO_FEW, "0xdddddd" },
	{ VERDICT_LEVEL, "0xbbbbbb" },
};

const char *pair_rgb(enum verdict v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(verdict_rgb); i++)
		if (verdict_rgb[i].v == v)
			return verdict_rgb[i].rgb;
	return "0x999999";
}

void pair_write_vcolor(FILE *f)
{
	size_t i;

	fputs("# Colour of a verdict_code (column 3).\nvcolor(v) = ", f);
	for (i = 0; i < ARRAY_SIZE(verdict_rgb); i++)
		fprintf(f, "v == %d ? %s : ", (int)verdict_rgb[i].v,
			verdict_rgb[i].rgb);
	fputs("0x999999\n", f);
}

size_t pair_verdicts_seen(const struct compare_metric **m, size_t n,
			  const char **text, const char **rgb)
{
	bool seen[VERDICT_LEVEL + 1] = { false };
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if ((size_t)m[i]->verdict < ARRAY_SIZE(seen))
			seen[m[i]->verdict] = true;
	for (i = 0; i < ARRAY_SIZE(verdict_rgb); i++)
		if (seen[verdict_rgb[i].v]) {
			text[k] = verdict_name(verdict_rgb[i].v);
			rgb[k++] = verdict_rgb[i].rgb;
		}
	return k;
}

bool pair_chartable(const struct compare_metric *m)
{
	if (plot_metric_kind(m->name) == PM_OTHER || !m->a.n || !m->b.n)
		return false;
	return m->a.s.max != 0 || m->a.s.min != 0 || m->b.s.max != 0 ||
	       m->b.s.min != 0;
}

static int by_kind(const void *x, const void *y)
{
	const struct compare_metric *a = *(
		const struct compare_metric *const *)x;
	const struct compare_metric *b = *(
		const struct compare_metric *const *)y;

	return plot_metric_cmp(&a->name, &b->name);
}

static int changed_first(const void *x, const void *y)
{
	const struct compare_metric *a = *(
		const struct compare_metric *const *)x;
	const struct compare_metric *b = *(
		const struct compare_metric *const *)y;
	int ca = verdict_is_change(a->verdict), cb = verdict_is_change(b->verdict);

	if (ca != cb)
		return cb - ca;
	return by_kind(x, y);
}

size_t pair_pick(const struct compare_pair *p, enum pm_kind kind,
		 bool changed, const struct compare_metric ***out)
{
	const struct compare_metric **v = xcalloc(p->nm + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < p->nm; i++)
		if (pair_chartable(&p->m[i]) &&
		    (kind == PM_OTHER || plot_metric_kind(p->m[i].name) == kind))
			v[n++] = &p->m[i];
	qsort(v, n, sizeof(*v), changed ? changed_first : by_kind);
	*out = v;
	return n;
}

/* meta.timings of either file ("emulated (qemu TCG): ..."), or NULL. */
static const char *timings_note(const struct comparison *c)
{
	const json_t *t = json_object_get(c->ra->meta, "timings");

	if (!json_is_string(t))
		t = json_object_get(c->rb->meta, "timings");
	return json_is_string(t) ? json_string_value(t) : NULL;
}

void pair_what(const struct comparison *c, const struct compare_pair *p,
	       const char *chart, char *buf, size_t len)
{
	char ka[128], kb[128];
	const char *timings = timings_note(c);
	size_t n;

	compare_fmt_kernel(c->ra, ka, sizeof(ka));
	compare_fmt_kernel(c->rb, kb, sizeof(kb));
	/* Kernel A/B runs are labelled with the kernel: say it once. */
	if (*p->a_name && strstr(ka, p->a_name))
		ka[0] = '\0';
	if (*p->b_name && strstr(kb, p->b_name))
		kb[0] = '\0';
	snprintf(buf, len, "%s: %s\nbase: %s%s%s, n = %zu · new: %s%s%s, "
		 "n = %zu", p->title, chart, p->a_name, *ka ? ", " : "", ka,
		 case_ok_runs(p->a), p->b_name, *kb ? ", " : "", kb,
		 case_ok_runs(p->b));
	/* Emulated timings are said on every chart that shows them. */
	n = strlen(buf);
	if (timings && n < len)
		snprintf(buf + n, len - n, "\ntimings: %s", timings);
}
