// SPDX-License-Identifier: GPL-2.0-only
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Messages quote names from hostile files: never an escape code raw. */
static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char *text = NULL;

	if (vasprintf(&text, fmt, ap) < 0) {
		fprintf(stderr, "thpbench: %s(message lost: out of memory)\n", prefix);
		return;
	}
	fprintf(stderr, "thpbench: %s", prefix);
	fputs_printable(text, stderr);
	fputc('\n', stderr);
	free(text);
}

void tb_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void tb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void tb_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	exit(TB_EXIT_ERROR);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		tb_die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	if (!p)
		tb_die("out of memory allocating %zu x %zu bytes", nmemb, n);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		tb_die("out of memory allocating %zu bytes", n);
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		tb_die("out of memory");
	return d;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		tb_die("out of memory");
	return d;
}

void *xgrow(void *arr, size_t elsz, size_t *cap, size_t idx)
{
	size_t old = *cap;

	if (idx < *cap)
		return arr;
	while (*cap <= idx)
		*cap = *cap ? *cap * 2 : 8;
	arr = xrealloc(arr, *cap * elsz);
	memset((char *)arr + old * elsz, 0, (*cap - old) * elsz);
	return arr;
}

static int size_shift(const char *suffix)
{
	static const char units[] = "KMGT";
	const char *u;

	if (!*suffix)
		return 0;
	u = strchr(units, toupper((unsigned char)*suffix));
	if (!u)
		return -1;
	suffix++;
	if (!strcasecmp(suffix, "") || !strcasecmp(suffix, "b") ||
	    !strcasecmp(suffix, "ib"))
		return 10 * (int)(u - units + 1);
	return -1;
}

int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int shift;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (!strcasecmp(end, "b"))
		shift = 0;
	else
		shift = size_shift(end);
	if (shift < 0)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*out))
		return -1;
	return 0;
}

int parse_long(const char *s, long *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*out = strtol(s, &end, 0);
	if (errno || end == s || *end)
		return -1;
	return 0;
}

int read_file_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int write_file_str(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int saved, fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = write(fd, val, len);
	saved = errno;
	close(fd);
	errno = saved;
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int mkdir_p(const char *path, unsigned int mode)
{
	char tmp[PATH_MAX];
	char *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -1;
	return 0;
}

double now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

char *str_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

bool str_list_has_empty(const char *s, char sep)
{
	const char *end;

	for (;; s = end + 1) {
		end = strchr(s, sep);
		if (!end)
			end = s + strlen(s);
		while (s < end && isspace((unsigned char)*s))
			s++;
		if (s == end)
			return true;
		if (!*end)
			return false;
	}
}

void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* Bytes of s[0..] that form one character: c, or '?' for a control. */
static size_t printable_char(const unsigned char *s, char *c)
{
	if ((s[0] < 0x20 && s[0] != '\n') || s[0] == 0x7f ||
	    (s[0] >= 0x80 && s[0] <= 0x9f)) {
		*c = '?';
		return 1;
	}
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
		*c = '?';
		return 2;
	}
	*c = (char)s[0];
	return 1;
}

const char *str_printable(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0;
	char c;

	if (!len)
		return buf;
	while (*p && o + 1 < len) {
		p += printable_char(p, &c);
		buf[o++] = c;
	}
	buf[o] = '\0';
	return buf;
}

void fputs_printable(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	char c;

	while (*p) {
		p += printable_char(p, &c);
		fputc(c, f);
	}
}

char *str_printable_dup(const char *s)
{
	size_t len = strlen(s ? s : "") + 1;
	char *buf = xmalloc(len);

	str_printable(s, buf, len);
	return buf;
}

const char *fmt_shortest(double v, char *buf, size_t len)
{
	int p, exp10;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!isfinite(v))
		return buf;
	/* 17 significant digits always read back */
	for (p = 1; p <= 17; p++) {
		snprintf(buf, len, "%.*e", p - 1, v);
		if (p == 17 || strtod(buf, NULL) == v)
			break;
	}
	exp10 = v == 0 ? 0 : atoi(strchr(buf, 'e') + 1);
	/* Plain digits where a reader expects them (1090, 0.00145), the
	 * exponent only for the very large and the very small. */
	if (exp10 >= -5 && exp10 <= 16)
		snprintf(buf, len, "%.*f", p - 1 - exp10 > 0 ? p - 1 - exp10 : 0, v);
	else
		snprintf(buf, len, "%.*g", p, v);
	return buf;
}
