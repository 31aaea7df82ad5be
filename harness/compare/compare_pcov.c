// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_pcov - which changed lines of a series ran (compare_pcov.h).
 */
#include <stdlib.h>
#include <string.h>

#include "compare_kcov.h"
#include "compare_pcov.h"
#include "util/util.h"

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

/* Context lines after a hunk's last change. */
static unsigned int trailing_context(const struct patch_hunk *h)
{
	size_t k = strlen(h->ops);
	unsigned int n = 0;

	while (k > 0 && h->ops[--k] == ' ')
		n++;
	return n;
}

static void add_line(struct compare_pcov_hunk *r, const struct lcov_line *l)
{
	r->lines = xrealloc(r->lines, (r->nlines + 1) * sizeof(*r->lines));
	r->lines[r->nlines++] = l->line;
	if (!l->count) {
		r->missed = xrealloc(r->missed, (r->nmissed + 1) * sizeof(*r->missed));
		r->missed[r->nmissed++] = l->line;
	}
}

static void one_hunk(struct compare_pcov_hunk *r, const struct patch_hunk *h,
		     const struct lcov *lc)
{
	const struct lcov_file *f = lcov_find(lc, h->file);
	const struct lcov_line *l;
	unsigned int a, end;
	size_t i;

	r->h = h;
	if (!f) {
		r->state = COMPARE_PCOV_NOT_BUILT;
		return;
	}
	for (i = 0; i < h->nadded; i++)
		if (h->added[i] && (l = lcov_line_find(f, h->added[i])))
			add_line(r, l);
	if (!r->nlines && h->anchor && (h->removed || h->nadded)) {
		end = h->anchor + trailing_context(h);
		for (a = h->anchor; a < end; a++) {
			if ((l = lcov_line_find(f, a))) {
				add_line(r, l);
				r->after_removal = true;
				break;
			}
		}
	}
	if (r->nlines > 1) {
		qsort(r->lines, r->nlines, sizeof(*r->lines), cmp_uint);
		qsort(r->missed, r->nmissed, sizeof(*r->missed), cmp_uint);
	}
	r->state = r->nlines ? COMPARE_PCOV_CODE : COMPARE_PCOV_NO_CODE;
}

void compare_pcov_build(struct compare_pcov *pc, const struct patch_set *ps,
			const struct lcov *lc)
{
	size_t i;

	memset(pc, 0, sizeof(*pc));
	pc->v = xcalloc(ps->n + 1, sizeof(*pc->v));
	pc->n = ps->n;
	for (i = 0; i < ps->n; i++) {
		one_hunk(&pc->v[i], &ps->h[i], lc);
		pc->total += pc->v[i].nlines;
		pc->ran += pc->v[i].nlines - pc->v[i].nmissed;
	}
}

void compare_pcov_print(FILE *f, const struct compare_pcov *pc)
{
	char buf[4096];
	size_t i;

	fprintf(f, "Patch coverage: lines the series changes that the suite ran\n\n");
	for (i = 0; i < pc->n; i++) {
		const struct compare_pcov_hunk *r = &pc->v[i];
		const struct patch_hunk *h = r->h;

		fprintf(f, "%s\n  %s @@ +%u,%u: ", h->patch_name, h->file, h->new_start,
			h->new_len);
		if (r->state == COMPARE_PCOV_NOT_BUILT) {
			fprintf(f, "not built (the kernel does not compile or profile %s)\n", h->file);
			continue;
		}
		if (r->state == COMPARE_PCOV_NO_CODE) {
			fprintf(f, "no code (%zu added, %u removed; none executable)\n",
				h->nadded, h->removed);
			continue;
		}
		compare_kcov_ranges(r->lines, r->nlines, buf, sizeof(buf));
		fprintf(f, "%zu of %zu changed line(s) ran%s (line%s %s)\n",
			r->nlines - r->nmissed, r->nlines,
			r->after_removal ? ", after the removed lines" : "",
			r->nlines > 1 ? "s" : "", buf);
		if (r->nmissed) {
			compare_kcov_ranges(r->missed, r->nmissed, buf, sizeof(buf));
			fprintf(f, "    not run: %s\n", buf);
		}
	}
	fprintf(f, "\nthe suite ran %zu of %zu changed lines\n", pc->ran, pc->total);
}

/* Words put on lines of at most width columns. */
struct wrap {
	FILE *f;
	int width, col;
};

static void word(struct wrap *w, const char *s)
{
	int n = (int)strlen(s);

	if (w->col && w->col + 1 + n > w->width) {
		fputc('\n', w->f);
		w->col = 0;
	}
	if (w->col) {
		fputc(' ', w->f);
		w->col++;
	}
	fputs(s, w->f);
	w->col += n;
}

/* Each not-run range as "FILE:A-B", at most max of them; how many in all. */
static size_t missed_ranges(const struct compare_pcov *pc, char (*out)[400],
			    size_t max)
{
	size_t i, j, k, n = 0;

	for (i = 0; i < pc->n; i++) {
		const struct compare_pcov_hunk *r = &pc->v[i];

		for (j = 0; j < r->nmissed; j = k + 1) {
			k = compare_kcov_run_end(r->missed, r->nmissed, j);
			if (n < max && k > j)
				snprintf(out[n], sizeof(out[n]), "%.300s:%u-%u", r->h->file,
					 r->missed[j], r->missed[k]);
			else if (n < max)
				snprintf(out[n], sizeof(out[n]), "%.300s:%u", r->h->file,
					 r->missed[j]);
			n++;
		}
	}
	return n;
}

#define SUMMARY_RANGES 8

void compare_pcov_summary(FILE *f, const struct compare_pcov *pc, int width)
{
	struct wrap w = { f, width, 0 };
	char buf[512], ranges[SUMMARY_RANGES][400];
	size_t i, n, shown;

	if (!pc->total) {
		word(&w, "the suite ran no changed line: none of the series' changes is");
		word(&w, "executable code in a file this kernel profiles");
		fputc('\n', f);
		return;
	}
	snprintf(buf, sizeof(buf), "the suite ran %zu of %zu changed lines%s", pc->ran,
		 pc->total, pc->ran == pc->total ? "" : "; not run:");
	word(&w, buf);
	n = missed_ranges(pc, ranges, SUMMARY_RANGES);
	shown = n < SUMMARY_RANGES ? n : SUMMARY_RANGES;
	for (i = 0; i < shown; i++) {
		snprintf(buf, sizeof(buf), "%.400s%s", ranges[i], i + 1 < shown ? "," : "");
		word(&w, buf);
	}
	if (n > shown) {
		snprintf(buf, sizeof(buf), "and %zu more", n - shown);
		word(&w, buf);
	}
	fputc('\n', f);
}

static json_t *hunk_json(const struct compare_pcov_hunk *r)
{
	static const char *const st[] = { "code", "not built", "no code" };
	json_t *o = json_object(), *lines = json_array(), *missed = json_array();
	size_t i;

	for (i = 0; i < r->nlines; i++)
		json_array_append_new(lines, json_integer(r->lines[i]));
	for (i = 0; i < r->nmissed; i++)
		json_array_append_new(missed, json_integer(r->missed[i]));
	json_object_set_new(o, "patch", json_string(r->h->patch_name));
	json_object_set_new(o, "file", json_string(r->h->file));
	json_object_set_new(o, "new_start", json_integer(r->h->new_start));
	json_object_set_new(o, "new_len", json_integer(r->h->new_len));
	json_object_set_new(o, "state", json_string(st[r->state]));
	json_object_set_new(o, "after_removal", json_boolean(r->after_removal));
	json_object_set_new(o, "changed_lines", lines);
	json_object_set_new(o, "not_run", missed);
	return o;
}

json_t *compare_pcov_json(const struct compare_pcov *pc)
{
	json_t *hunks = json_array();
	size_t i;

	for (i = 0; i < pc->n; i++)
		json_array_append_new(hunks, hunk_json(&pc->v[i]));
	return json_pack("{s:I, s:I, s:o}", "changed_lines", (json_int_t)pc->total,
			 "ran", (json_int_t)pc->ran, "hunks", hunks);
}

void compare_pcov_free(struct compare_pcov *pc)
{
	size_t i;

	for (i = 0; i < pc->n; i++) {
		free(pc->v[i].lines);
		free(pc->v[i].missed);
	}
	free(pc->v);
	memset(pc, 0, sizeof(*pc));
}
