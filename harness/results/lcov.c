// SPDX-License-Identifier: GPL-2.0-only
/*
 * lcov - tracefiles read, merged and written (lcov.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lcov.h"
#include "util/safe_file.h"
#include "util/util.h"

#define LCOV_LINE_MAX 8192

static struct lcov_file *file_get(struct lcov *lc, const char *path)
{
	struct lcov_file *f;
	size_t i;

	for (i = lc->nfiles; i-- > 0;)
		if (!strcmp(lc->files[i].path, path))
			return &lc->files[i];
	lc->files = xgrow(lc->files, sizeof(*lc->files), &lc->cap, lc->nfiles);
	f = &lc->files[lc->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	return f;
}

static int cmp_line(const void *a, const void *b)
{
	const struct lcov_line *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static void merge_first(long *dst, long src)
{
	if (src >= 0 && (*dst < 0 || src < *dst))
		*dst = src;
}

/* Sort f's lines and fold duplicates (counts added). */
static void file_fold(struct lcov_file *f)
{
	size_t i, n = 0;

	if (f->nlines < 2)
		return;
	qsort(f->lines, f->nlines, sizeof(*f->lines), cmp_line);
	for (i = 0; i < f->nlines; i++) {
		if (n && f->lines[n - 1].line == f->lines[i].line) {
			f->lines[n - 1].count = sat_add(f->lines[n - 1].count,
							f->lines[i].count);
			merge_first(&f->lines[n - 1].first, f->lines[i].first);
			continue;
		}
		f->lines[n++] = f->lines[i];
	}
	f->nlines = n;
}

static void line_add(struct lcov_file *f, unsigned int line, uint64_t count)
{
	f->lines = xgrow(f->lines, sizeof(*f->lines), &f->lcap, f->nlines);
	f->lines[f->nlines++] = (struct lcov_line){ line, count, -1 };
}

static struct lcov_fn *fn_get(struct lcov_file *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->nfns; i++)
		if (!strcmp(f->fns[i].name, name))
			return &f->fns[i];
	f->fns = xgrow(f->fns, sizeof(*f->fns), &f->fcap, f->nfns);
	f->fns[f->nfns] = (struct lcov_fn){ xstrdup(name), 0, 0, -1 };
	return &f->fns[f->nfns++];
}

/* "N" or "N,rest": N into *v (at most max), the rest (or "") into *rest. */
static bool take_num(const char *s, uint64_t max, uint64_t *v, const char **rest)
{
	char *end;
	unsigned long long n;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || n > max || (*end && *end != ','))
		return false;
	*v = n;
	*rest = *end ? end + 1 : end;
	return true;
}

static bool printable_path(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

struct reader {
	const char *path, *strip;
	struct lcov *lc;
	struct lcov_file *cur;
	long lineno;
	char *err;
	size_t errlen;
};

static int bad(struct reader *r, const char *why)
{
	snprintf(r->err, r->errlen, "%s:%ld: %s (not an lcov tracefile geninfo wrote?)",
		 r->path, r->lineno, why);
	return -1;
}

static int on_sf(struct reader *r, const char *p)
{
	size_t n = r->strip ? strlen(r->strip) : 0;

	if (r->cur)
		return bad(r, "SF: inside a record");
	if (!printable_path(p))
		return bad(r, "SF: an empty path or one with a control character");
	if (n && !strncmp(p, r->strip, n) && p[n] == '/')
		p += n + 1;
	r->cur = file_get(r->lc, p);
	return 0;
}

static int on_record(struct reader *r, const char *l)
{
	uint64_t a, b;
	const char *rest;

	if (!strncmp(l, "DA:", 3)) {
		if (!take_num(l + 3, UINT32_MAX, &a, &rest) || !take_num(rest, UINT64_MAX, &b, &rest))
			return bad(r, "DA: wants LINE,COUNT");
		line_add(r->cur, (unsigned int)a, b);
	} else if (!strncmp(l, "FN:", 3)) {
		if (!take_num(l + 3, UINT32_MAX, &a, &rest) || !*rest || !printable_path(rest))
			return bad(r, "FN: wants LINE,NAME");
		fn_get(r->cur, rest)->line = (unsigned int)a;
	} else if (!strncmp(l, "FNDA:", 5)) {
		struct lcov_fn *fn;

		if (!take_num(l + 5, UINT64_MAX, &a, &rest) || !*rest || !printable_path(rest))
			return bad(r, "FNDA: wants COUNT,NAME");
		fn = fn_get(r->cur, rest);
		fn->count = sat_add(fn->count, a);
	} else if (!strcmp(l, "end_of_record")) {
		file_fold(r->cur);
		r->cur = NULL;
	}
	return 0;
}

static int on_line(struct reader *r, char *l)
{
	size_t n = strlen(l);

	if (n && l[n - 1] == '\r')
		l[--n] = '\0';
	if (!strncmp(l, "SF:", 3))
		return on_sf(r, l + 3);
	if (!r->cur) {
		if (!strncmp(l, "DA:", 3) || !strncmp(l, "FN", 2) ||
		    !strcmp(l, "end_of_record"))
			return bad(r, "a record line outside SF: ... end_of_record");
		return 0;
	}
	return on_record(r, l);
}

int lcov_read(const char *path, const char *strip, struct lcov *lc,
	      char *err, size_t errlen)
{
	struct reader r = { .path = path, .strip = strip, .lc = lc, .err = err,
			    .errlen = errlen };
	size_t len;
	char *text = read_regular(path, 0, &len, err, errlen), *p, *nl;
	int rc = 0;

	if (!text)
		return -1;
	if (memchr(text, '\0', len)) {
		free(text);
		return bad(&r, "a NUL byte");
	}
	for (p = text; !rc && *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		r.lineno++;
		if (strlen(p) > LCOV_LINE_MAX)
			rc = bad(&r, "a line over 8 KiB");
		else
			rc = on_line(&r, p);
		if (!nl)
			break;
	}
	if (!rc && r.cur)
		rc = bad(&r, "the last record has no end_of_record");
	free(text);
	return rc;
}

const struct lcov_file *lcov_find(const struct lcov *lc, const char *path)
{
	size_t i;

	for (i = 0; i < lc->nfiles; i++)
		if (!strcmp(lc->files[i].path, path))
			return &lc->files[i];
	return NULL;
}

const struct lcov_line *lcov_line_find(const struct lcov_file *f,
				       unsigned int line)
{
	struct lcov_line key = { .line = line };

	return f ? bsearch(&key, f->lines, f->nlines, sizeof(*f->lines), cmp_line) : NULL;
}

void lcov_add_tagged(struct lcov *dst, const struct lcov *src, long tag)
{
	size_t i, j;

	for (i = 0; i < src->nfiles; i++) {
		const struct lcov_file *s = &src->files[i];
		struct lcov_file *d = file_get(dst, s->path);

		for (j = 0; j < s->nlines; j++) {
			line_add(d, s->lines[j].line, s->lines[j].count);
			if (s->lines[j].count)
				d->lines[d->nlines - 1].first = tag;
		}
		file_fold(d);
		for (j = 0; j < s->nfns; j++) {
			struct lcov_fn *fn = fn_get(d, s->fns[j].name);

			if (!fn->line)
				fn->line = s->fns[j].line;
			fn->count = sat_add(fn->count, s->fns[j].count);
			if (s->fns[j].count)
				merge_first(&fn->first, tag);
		}
	}
}

void lcov_file_totals(const struct lcov_file *f, size_t *lines, size_t *lines_hit,
		      size_t *fns, size_t *fns_hit)
{
	size_t i;

	*lines = f->nlines;
	*lines_hit = *fns_hit = 0;
	*fns = f->nfns;
	for (i = 0; i < f->nlines; i++)
		*lines_hit += f->lines[i].count > 0;
	for (i = 0; i < f->nfns; i++)
		*fns_hit += f->fns[i].count > 0;
}

static int cmp_file(const void *a, const void *b)
{
	const struct lcov_file *const *x = a, *const *y = b;

	return strcmp((*x)->path, (*y)->path);
}

int lcov_write(const struct lcov *lc, FILE *out, const char *prefix)
{
	const struct lcov_file **v = xcalloc(lc->nfiles + 1, sizeof(*v));
	size_t i, j, n, h, fn, fh;

	for (i = 0; i < lc->nfiles; i++)
		v[i] = &lc->files[i];
	qsort(v, lc->nfiles, sizeof(*v), cmp_file);
	fputs("TN:\n", out);
	for (i = 0; i < lc->nfiles; i++) {
		const struct lcov_file *f = v[i];

		if (f->path[0] == '/' || !prefix)
			fprintf(out, "SF:%s\n", f->path);
		else
			fprintf(out, "SF:%s/%s\n", prefix, f->path);
		for (j = 0; j < f->nfns; j++)
			fprintf(out, "FN:%u,%s\n", f->fns[j].line, f->fns[j].name);
		for (j = 0; j < f->nfns; j++)
			fprintf(out, "FNDA:%llu,%s\n",
				(unsigned long long)f->fns[j].count, f->fns[j].name);
		lcov_file_totals(f, &n, &h, &fn, &fh);
		fprintf(out, "FNF:%zu\nFNH:%zu\n", fn, fh);
		for (j = 0; j < f->nlines; j++)
			fprintf(out, "DA:%u,%llu\n", f->lines[j].line,
				(unsigned long long)f->lines[j].count);
		fprintf(out, "LF:%zu\nLH:%zu\nend_of_record\n", n, h);
	}
	free(v);
	return ferror(out) ? -1 : 0;
}

void lcov_free(struct lcov *lc)
{
	size_t i, j;

	for (i = 0; i < lc->nfiles; i++) {
		struct lcov_file *f = &lc->files[i];

		for (j = 0; j < f->nfns; j++)
			free(f->fns[j].name);
		free(f->fns);
		free(f->lines);
		free(f->path);
	}
	free(lc->files);
	memset(lc, 0, sizeof(*lc));
}
