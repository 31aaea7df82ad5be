// SPDX-License-Identifier: GPL-2.0-only
/*
 * patch_hunks - reading a series' hunks and placing their lines (patch_hunks.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "patch_hunks.h"
#include "util/safe_file.h"
#include "util/util.h"

#define PATH_LEN_MAX 4096
/* A hunk longer than this is not a patch a reviewer reads. */
#define HUNK_LINES_MAX 1000000u

struct preader {
	struct patch_set *ps;
	const char *path;
	long lineno;
	char *file;		/* current +++ file; NULL: none */
	struct patch_hunk *cur;
	unsigned int old_left, new_left, new_at;
	char *err;
	size_t errlen;
};

static int pbad(struct preader *r, const char *why)
{
	snprintf(r->err, r->errlen, "%s:%ld: %s", r->path, r->lineno, why);
	return -1;
}

/* "N" or "N,M" (M defaults to 1) at *s; advances *s. */
static bool range(const char **s, unsigned int *start, unsigned int *len)
{
	char *end;
	unsigned long a, b = 1;

	if (**s < '0' || **s > '9')
		return false;
	errno = 0;
	a = strtoul(*s, &end, 10);
	if (*end == ',') {
		if (end[1] < '0' || end[1] > '9')
			return false;
		b = strtoul(end + 1, &end, 10);
	}
	if (errno || a > INT_MAX || b > HUNK_LINES_MAX)
		return false;
	*start = (unsigned int)a;
	*len = (unsigned int)b;
	*s = end;
	return true;
}

static int open_hunk(struct preader *r, const char *l)
{
	struct patch_set *ps = r->ps;
	struct patch_hunk *h;
	unsigned int os, ol, ns, nl;

	l += 3;
	if (*l != '-' || (l++, !range(&l, &os, &ol)) || strncmp(l, " +", 2) ||
	    (l += 2, !range(&l, &ns, &nl)) || strncmp(l, " @@", 3))
		return pbad(r, "a malformed @@ hunk header");
	if (!r->file)
		return 0;	/* a deleted file's hunks: nothing added */
	if (ps->n >= PATCH_HUNKS_MAX)
		return pbad(r, "more hunks than a series here may hold");
	ps->h = xgrow(ps->h, sizeof(*ps->h), &ps->cap, ps->n);
	h = &ps->h[ps->n++];
	*h = (struct patch_hunk){
		.file = xstrdup(r->file), .patch = (int)ps->nnames - 1,
		.patch_name = ps->names[ps->nnames - 1],
		.old_start = os, .old_len = ol, .new_start = ns, .new_len = nl,
		.ops = xcalloc((size_t)ol + nl + 1, 1),
	};
	r->cur = h;
	r->old_left = ol;
	r->new_left = nl;
	r->new_at = nl ? ns : ns + 1;
	return 0;
}

static int hunk_line(struct preader *r, const char *l)
{
	struct patch_hunk *h = r->cur;
	size_t k = strlen(h->ops);
	char op = *l ? *l : ' ';	/* an empty line: context (some mailers) */

	if (op == '\\')
		return 0;		/* "\ No newline at end of file" */
	if ((op == ' ' && (!r->old_left || !r->new_left)) ||
	    (op == '-' && !r->old_left) || (op == '+' && !r->new_left) ||
	    (op != ' ' && op != '-' && op != '+'))
		return pbad(r, "a hunk line past its header's counts, or not ' ', '-' or '+'");
	h->ops[k] = op;
	if (op != '+')
		r->old_left--;
	if (op == '-') {
		h->removed++;
		h->anchor = r->new_at;
	}
	if (op == '+') {
		h->added = xrealloc(h->added, (h->nadded + 1) * sizeof(*h->added));
		h->added[h->nadded++] = r->new_at;
		h->anchor = r->new_at + 1;
	}
	if (op != '-') {
		r->new_left--;
		r->new_at++;
	}
	if (!r->old_left && !r->new_left)
		r->cur = NULL;
	return 0;
}

static int plus_header(struct preader *r, const char *l)
{
	const char *p = l + 4;
	size_t n = strcspn(p, "\t");

	free(r->file);
	r->file = NULL;
	if (!strncmp(p, "/dev/null", 9))
		return 0;
	if (n > PATH_LEN_MAX)
		return pbad(r, "a +++ path over 4 KiB");
	if (!strncmp(p, "b/", 2)) {
		p += 2;
		n -= 2;
	}
	r->file = xstrndup(p, n);
	return 0;
}

static int on_pline(struct preader *r, const char *l)
{
	if (r->cur)
		return hunk_line(r, l);
	if (!strncmp(l, "+++ ", 4))
		return plus_header(r, l);
	if (!strncmp(l, "@@ ", 3))
		return open_hunk(r, l);
	return 0;
}

int patch_hunks_read(const char *path, struct patch_set *ps, char *err,
		     size_t errlen)
{
	struct preader r = { .ps = ps, .path = path, .err = err, .errlen = errlen };
	size_t len;
	char *text = read_regular(path, SF_NOFOLLOW, &len, err, errlen), *p, *nl;
	const char *base = strrchr(path, '/');
	int rc = 0;

	if (!text)
		return -1;
	ps->names = xgrow(ps->names, sizeof(*ps->names), &ps->ncap, ps->nnames);
	ps->names[ps->nnames++] = xstrdup(base ? base + 1 : path);
	for (p = text; !rc && p < text + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(text + len - p));
		if (!nl)
			nl = text + len;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		r.lineno++;
		rc = on_pline(&r, p);
	}
	if (!rc && r.cur)
		rc = pbad(&r, "the patch ends inside a hunk (its header counts more lines)");
	free(r.file);
	free(text);
	return rc;
}

/* Line l of the tree before hunk set `later` (hunks of one patch, one
 * file) in the tree after it; 0 when that patch removed it. */
static unsigned int move_line(const struct patch_set *ps, size_t from, size_t to,
			      const char *file, int patch, unsigned int l)
{
	long delta = 0;
	size_t i;

	for (i = from; i < to; i++) {
		const struct patch_hunk *h = &ps->h[i];
		unsigned int o, nw, k;

		if (h->patch != patch || strcmp(h->file, file))
			continue;
		if (l >= h->old_start + h->old_len && h->old_len) {
			delta += (long)h->new_len - (long)h->old_len;
			continue;
		}
		if (!h->old_len && l > h->old_start) {
			delta += h->new_len;
			continue;
		}
		if (l < h->old_start || !h->old_len)
			continue;
		/* Inside the hunk: a context line moves, a removed one is gone. */
		for (o = h->old_start, nw = h->new_start, k = 0; h->ops[k]; k++) {
			if (h->ops[k] == '+') {
				nw++;
				continue;
			}
			if (o == l)
				return h->ops[k] == ' ' ? nw : 0;
			o++;
			if (h->ops[k] == ' ')
				nw++;
		}
		return 0;
	}
	return (unsigned int)((long)l + delta);
}

void patch_hunks_settle(struct patch_set *ps)
{
	size_t i, j;
	int p;

	for (i = 0; i < ps->n; i++) {
		struct patch_hunk *h = &ps->h[i];

		for (p = h->patch + 1; p < (int)ps->nnames; p++) {
			for (j = 0; j < h->nadded; j++)
				if (h->added[j])
					h->added[j] = move_line(ps, i + 1, ps->n, h->file, p,
								h->added[j]);
			if (h->anchor)
				h->anchor = move_line(ps, i + 1, ps->n, h->file, p, h->anchor);
		}
	}
}

void patch_hunks_free(struct patch_set *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		free(ps->h[i].file);
		free(ps->h[i].ops);
		free(ps->h[i].added);
	}
	free(ps->h);
	for (i = 0; i < ps->nnames; i++)
		free(ps->names[i]);
	free(ps->names);
	memset(ps, 0, sizeof(*ps));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int patch_hunks_read_dir(const char *dir, struct patch_set *ps, char *err,
			 size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	if (!d) {
		snprintf(err, errlen, "series %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 6 && !strcmp(de->d_name + l - 6, ".patch") && de->d_name[0] != '.') {
			names = xgrow(names, sizeof(*names), &cap, n);
			names[n++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		char path[PATH_MAX];

		if (!rc && (size_t)snprintf(path, sizeof(path), "%s/%s", dir, names[i]) < sizeof(path))
			rc = patch_hunks_read(path, ps, err, errlen);
		free(names[i]);
	}
	free(names);
	if (!rc && !n) {
		snprintf(err, errlen, "series %s holds no .patch file", dir);
		rc = -1;
	}
	if (!rc)
		patch_hunks_settle(ps);
	return rc;
}
