// SPDX-License-Identifier: GPL-2.0-only
/*
 * series_check - a patch series checked as untrusted input (contract in
 * series_check.h). The header rules are the ones patch(1) and git read;
 * a header inside a hunk is text, so the hunks are counted from their
 * @@ lines, as patch(1) does.
 */
#include "series_check.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

void series_paths_free(struct series_paths *p)
{
	free_strv(p->v, p->n);
	memset(p, 0, sizeof(*p));
}

static void paths_add(struct series_paths *p, const char *s, size_t n)
{
	p->v = xgrow(p->v, sizeof(*p->v), &p->cap, p->n);
	p->v[p->n++] = xstrndup(s, n);
}

/* One patch being read: the hunk lines left, and the first refusal. */
struct reader {
	struct series_paths *out;
	long long old, new;
	bool refused;
	char *why;
	size_t whylen;
};

/* The first refusal only; anything not printable ASCII as '?'. */
static void bad(struct reader *r, const char *what, const char *name)
{
	char *p;

	if (r->refused)
		return;
	r->refused = true;
	snprintf(r->why, r->whylen, "%s%s", what, name ? name : "");
	for (p = r->why; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
}

static bool path_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || strchr("._/+,-", c);
}

/* A component of NAME that no series may have ("..", "." or empty),
 * the first; NULL and *ncomp the count of components when none. */
static const char *bad_component(const char *name, size_t *ncomp)
{
	const char *s = name;
	size_t n = 0, len;

	*ncomp = 0;
	if (!*name)
		return NULL;
	for (;;) {
		len = strcspn(s, "/");
		n++;
		if (len == 0)
			return "";
		if (len == 1 && s[0] == '.')
			return ".";
		if (len == 2 && s[0] == '.' && s[1] == '.')
			return "..";
		if (!s[len])
			break;
		s += len + 1;
	}
	*ncomp = n;
	return NULL;
}

/* NAME as the patch gives it; strip: a -p1 prefix comes off. */
static void path(struct reader *r, const char *name, bool strip)
{
	char what[64];
	const char *comp, *p;
	size_t n = 0;

	if (!strcmp(name, "/dev/null"))
		return;
	if (name[0] == '"')
		return bad(r, "quoted file name ", name);
	if (name[0] == '/')
		return bad(r, "absolute path ", name);
	for (p = name; *p; p++)
		if (!path_char(*p))
			return bad(r, "file name with a character no Linux source name has: ", name);
	comp = bad_component(name, &n);
	if (comp) {
		snprintf(what, sizeof(what), "path with a \"%s\" component: ", comp);
		return bad(r, what, name);
	}
	if (strip && n < 2)
		return bad(r, "no a/ or b/ prefix to strip: ", name);
	p = strip ? strchr(name, '/') + 1 : name;
	paths_add(r->out, p, strlen(p));
}

static void mode(struct reader *r, const char *m, size_t len)
{
	char why[128];

	if (len == 6 && (!strncmp(m, "100644", 6) || !strncmp(m, "100755", 6)))
		return;
	snprintf(why, sizeof(why), "file mode %.*s%s: only regular files",
		 (int)(len > 40 ? 40 : len), m,
		 len == 6 && !strncmp(m, "120000", 6) ? " (a symlink)" :
		 len == 6 && !strncmp(m, "160000", 6) ? " (a submodule)" : "");
	bad(r, why, NULL);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The first word of s (up to a space or tab), as a new string. */
static char *first_word(const char *s)
{
	size_t n = strcspn(s, " \t");

	return xstrndup(s, n);
}

/* The last blank-separated field of s: start and length. */
static const char *last_field(const char *s, size_t *len)
{
	const char *e = s + strlen(s), *b;

	while (e > s && is_blank(e[-1]))
		e--;
	b = e;
	while (b > s && !is_blank(b[-1]))
		b--;
	*len = (size_t)(e - b);
	return b;
}

/* Digits at *s: their value (saturated), s moved past; false if none. */
static bool digits(const char **s, long long *v)
{
	const char *p = *s;

	*v = 0;
	while (*p >= '0' && *p <= '9') {
		if (*v < LLONG_MAX / 20)
			*v = *v * 10 + (*p - '0');
		p++;
	}
	if (p == *s)
		return false;
	*s = p;
	return true;
}

/* "-N[,M]" or "+N[,M]" at *s: M, or 1 without it. */
static bool range(const char **s, char sign, long long *count)
{
	long long start;

	if (**s != sign)
		return false;
	(*s)++;
	if (!digits(s, &start))
		return false;
	*count = 1;
	if (**s == ',') {
		(*s)++;
		return digits(s, count);
	}
	return true;
}

/* "@@ -N[,M] +N[,M] @@": a hunk of old and new lines. */
static bool hunk_header(const char *l, long long *old, long long *new)
{
	if (strncmp(l, "@@ ", 3))
		return false;
	l += 3;
	if (!range(&l, '-', old) || *l++ != ' ' || !range(&l, '+', new))
		return false;
	return !strncmp(l, " @@", 3);
}

/* "index HEX..HEX MODE" and nothing after: its mode, checked. */
static bool index_line(struct reader *r, const char *l)
{
	const char *p = l + 6, *m;
	size_t n;

	n = strspn(p, "0123456789abcdef");
	if (!n || strncmp(p + n, "..", 2))
		return false;
	p += n + 2;
	n = strspn(p, "0123456789abcdef");
	if (!n || p[n] != ' ')
		return false;
	m = p + n + 1;
	n = strspn(m, "0123456789");
	if (!n || m[n])
		return false;
	mode(r, m, n);
	return true;
}

/* "diff --git A B": two names, neither quoted, no space in them. */
static void diff_git(struct reader *r, const char *rest)
{
	const char *a = rest, *b;
	size_t na, nb;
	char *wa, *wb;

	while (is_blank(*a))
		a++;
	na = strcspn(a, " \t");
	b = a + na;
	while (is_blank(*b))
		b++;
	nb = strcspn(b, " \t");
	if (rest[0] == '"' || !na || !nb || b[nb + strspn(b + nb, " \t")])
		return bad(r, "diff --git line with a quoted name or a space: ", rest);
	wa = xstrndup(a, na);
	wb = xstrndup(b, nb);
	path(r, wa, true);
	path(r, wb, true);
	free(wa);
	free(wb);
}

static bool prefix(const char *l, const char *p)
{
	return !strncmp(l, p, strlen(p));
}

/* A line inside a hunk: counted; false when the hunk ended short. */
static bool hunk_line(struct reader *r, const char *l)
{
	if (l[0] == '\\')
		return true;
	if (l[0] == ' ' || l[0] == '\0') {
		r->old--;
		r->new--;
		return true;
	}
	if (l[0] == '-') {
		r->old--;
		return true;
	}
	if (l[0] == '+') {
		r->new--;
		return true;
	}
	r->old = r->new = 0;	/* a short hunk: patch(1) reads on as headers */
	return false;
}

static void header_line(struct reader *r, const char *l)
{
	const char *rest;
	char *w;
	size_t n;

	if (hunk_header(l, &r->old, &r->new))
		return;
	if (prefix(l, "--- ") || prefix(l, "+++ ") || prefix(l, "*** ") ||
	    prefix(l, "Index: ")) {
		w = first_word(l + (l[0] == 'I' ? 7 : 4));
		path(r, w, true);
		free(w);
	} else if (prefix(l, "diff --git ")) {
		diff_git(r, l + 11);
	} else if (prefix(l, "rename from ") || prefix(l, "rename to ") ||
		   prefix(l, "copy from ") || prefix(l, "copy to ")) {
		rest = strchr(strchr(l, ' ') + 1, ' ') + 1;
		path(r, rest, false);
	} else if (prefix(l, "old mode ") || prefix(l, "new mode ") ||
		   prefix(l, "deleted file mode ") || prefix(l, "new file mode ")) {
		rest = last_field(l, &n);
		mode(r, rest, n);
	} else if (prefix(l, "index ") && index_line(r, l)) {
		return;
	} else if (prefix(l, "********")) {
		bad(r, "a context diff: only unified diffs (git format-patch, diff -u)", NULL);
	} else if (!strcmp(l, "GIT binary patch") || prefix(l, "Binary files ")) {
		bad(r, "a binary patch", NULL);
	}
}

int series_patch_paths(FILE *f, struct series_paths *out, long *line,
		       char *why, size_t whylen)
{
	struct reader r = { .out = out, .why = why, .whylen = whylen };
	char *l = NULL;
	size_t cap = 0;
	ssize_t len;
	long nr = 0;

	while (!r.refused && (len = getline(&l, &cap, f)) >= 0) {
		nr++;
		if (len && l[len - 1] == '\n')
			l[--len] = '\0';
		/* a NUL is no character of a name: shown '?' as the rest */
		for (ssize_t i = 0; i < len; i++)
			if (!l[i])
				l[i] = 0x7f;
		if ((r.old > 0 || r.new > 0) && hunk_line(&r, l))
			continue;
		header_line(&r, l);
	}
	free(l);
	*line = nr;
	return r.refused ? 1 : 0;
}

void series_quote_name(const char *name, char *buf, size_t len)
{
	const unsigned char *p;
	bool plain = true;
	size_t o = 0;
	char tmp[8];

	for (p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			plain = false;
	if (!len)
		return;
#define PUT(s) do { const char *q_ = (s); while (*q_ && o + 1 < len) buf[o++] = *q_++; } while (0)
	if (!plain)
		PUT("$'");
	for (p = (const unsigned char *)name; *p; p++) {
		const char *esc = NULL;

		if (!plain) {
			switch (*p) {
			case '\n': esc = "\\n"; break;
			case '\t': esc = "\\t"; break;
			case '\r': esc = "\\r"; break;
			case 0x1b: esc = "\\E"; break;
			case '\\': esc = "\\\\"; break;
			case '\'': esc = "\\'"; break;
			}
			if (!esc && (*p < 0x20 || *p > 0x7e)) {
				snprintf(tmp, sizeof(tmp), "\\%03o", *p);
				esc = tmp;
			}
		} else if (strchr(" !\"#$&'()*;<>?[\\]^`{|}", *p) ||
			   (*p == '~' && p == (const unsigned char *)name)) {
			snprintf(tmp, sizeof(tmp), "\\%c", *p);
			esc = tmp;
		}
		if (esc) {
			PUT(esc);
		} else {
			tmp[0] = (char)*p;
			tmp[1] = '\0';
			PUT(tmp);
		}
	}
	if (!plain)
		PUT("'");
#undef PUT
	buf[o] = '\0';
}

static bool name_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || strchr("._+,=@~ -", c);
}

static bool is_patch_name(const char *n)
{
	size_t l = strlen(n);

	return l >= 6 && !strcmp(n + l - 6, ".patch");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIR's *.patch names, sorted; the names checked. */
static int list_patches(const char *dir, struct series_paths *names,
			char *err, size_t errlen)
{
	char q[256], path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	const char *p;
	DIR *d = opendir(dir);
	size_t i;

	if (!d) {
		snprintf(err, errlen, "series %s: cannot read: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (is_patch_name(de->d_name))
			paths_add(names, de->d_name, strlen(de->d_name));
	closedir(d);
	qsort(names->v, names->n, sizeof(*names->v), cmp_str);
	for (i = 0; i < names->n; i++) {
		for (p = names->v[i]; *p && name_char(*p); p++)
			;
		series_quote_name(names->v[i], q, 201);
		if (*p) {
			snprintf(err, errlen, "refusing patch file name %s in %s: only letters, digits, space and ._+,=@~- (a newline or glob character is no patch tool's)", q, dir);
			return -1;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, names->v[i]);
		if (lstat(path, &st) || !S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "refusing %s in %s: a *.patch that is not a regular file (a symlink is never followed)", q, dir);
			return -1;
		}
	}
	return 0;
}

static int check_size(const char *dir, const struct series_paths *names,
		      const struct series_limits *lim, char *err, size_t errlen)
{
	char path[PATH_MAX];
	unsigned long long bytes = 0;
	struct stat st;
	size_t i;

	if ((long)names->n > lim->max_patches) {
		snprintf(err, errlen, "series %s holds %zu patches, more than the limit of %ld (THPBENCH_SERIES_MAX_PATCHES raises it)",
			 dir, names->n, lim->max_patches);
		return -1;
	}
	for (i = 0; i < names->n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names->v[i]);
		if (lstat(path, &st)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		bytes += (unsigned long long)st.st_size;
	}
	if (bytes > (unsigned long long)lim->max_mb * 1048576ULL) {
		snprintf(err, errlen, "series %s is %llu MiB, more than the limit of %ld MiB (THPBENCH_SERIES_MAX_MB raises it)",
			 dir, bytes / 1048576ULL, lim->max_mb);
		return -1;
	}
	return 0;
}

static int check_patch(const char *dir, const char *name,
		       struct series_paths *out, char *err, size_t errlen)
{
	char path[PATH_MAX], why[1024];
	long line;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	rc = series_patch_paths(f, out, &line, why, sizeof(why));
	fclose(f);
	if (rc) {
		snprintf(err, errlen, "refusing the series: %s:%ld: %s (nothing was applied)",
			 name, line, why);
		return -1;
	}
	return 0;
}

static void sort_unique(struct series_paths *p)
{
	size_t i, o = 0;

	qsort(p->v, p->n, sizeof(*p->v), cmp_str);
	for (i = 0; i < p->n; i++) {
		if (!*p->v[i] || (o && !strcmp(p->v[o - 1], p->v[i]))) {
			free(p->v[i]);
			continue;
		}
		p->v[o++] = p->v[i];
	}
	p->n = o;
}

int series_check_dir(const char *dir, const struct series_limits *lim,
		     struct series_paths *out, char *err, size_t errlen)
{
	struct series_paths names = { 0 };
	size_t i;
	int rc = -1;

	if (list_patches(dir, &names, err, errlen) ||
	    check_size(dir, &names, lim, err, errlen))
		goto out;
	for (i = 0; i < names.n; i++)
		if (check_patch(dir, names.v[i], out, err, errlen))
			goto out;
	sort_unique(out);
	rc = 0;
out:
	series_paths_free(&names);
	if (rc)
		series_paths_free(out);
	return rc;
}
