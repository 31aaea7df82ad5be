// SPDX-License-Identifier: GPL-2.0-only
#include "knob.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static knob_write_fn g_write_hook;

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * The bracketed word of a choice file ("always [madvise] never"), else
 * the text without surrounding white space.
 */
void knob_value_span(const char *buf, size_t n, size_t *off, size_t *len)
{
	size_t i, open = n;

	for (i = 0; i < n; i++) {
		if (buf[i] == '[') {
			open = i;
		} else if (buf[i] == ']' && open < n) {
			*off = open + 1;
			*len = i - open - 1;
			return;
		}
	}
	i = 0;
	while (i < n && is_blank(buf[i]))
		i++;
	while (n > i && is_blank(buf[n - 1]))
		n--;
	*off = i;
	*len = n - i;
}

int knob_read_path(const char *abspath, char *buf, size_t len)
{
	char raw[KNOB_MAX];
	size_t off, n;

	if (read_file_str(abspath, raw, sizeof(raw)))
		return -1;
	knob_value_span(raw, strlen(raw), &off, &n);
	if (n >= len) {
		errno = EOVERFLOW;
		return -1;
	}
	memcpy(buf, raw + off, n);
	buf[n] = '\0';
	return 0;
}

int knob_read(const char *root, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	return knob_read_path(path, buf, len);
}

bool knob_choices(const char *raw, char *out, size_t len)
{
	size_t o = 0;

	if (!strchr(raw, '['))
		return false;
	for (; *raw && o + 1 < len; raw++)
		if (*raw != '[' && *raw != ']' && *raw != '\n')
			out[o++] = *raw;
	out[o] = '\0';
	str_trim(out);
	return true;
}

bool knob_word_in(const char *words, const char *w)
{
	size_t n = strlen(w);
	const char *p = words;

	while ((p = strstr(p, w))) {
		if ((p == words || is_blank(p[-1])) &&
		    (!p[n] || is_blank(p[n])))
			return true;
		p += n;
	}
	return false;
}

int thp_modes_available(const char *root, char modes[][16], size_t max)
{
	char path[PATH_MAX], raw[KNOB_MAX], list[KNOB_MAX];
	char *save, *w;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/" THP_DIR "/enabled", root);
	if (read_file_str(path, raw, sizeof(raw)) ||
	    !knob_choices(raw, list, sizeof(list)))
		return -1;
	for (w = strtok_r(list, " \t", &save); w && n < max;
	     w = strtok_r(NULL, " \t", &save))
		snprintf(modes[n++], 16, "%s", w);
	return (int)n;
}

bool knob_name_ok(const char *name)
{
	const char *p, *end;
	size_t n;

	if (strncmp(name, THP_DIR "/", sizeof(THP_DIR)) &&
	    strncmp(name, HUGETLB_DIR "/", sizeof(HUGETLB_DIR)))
		return false;
	for (p = name; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
	}
	return name[strlen(name) - 1] != '/';
}

void knob_set_write_hook(knob_write_fn fn)
{
	g_write_hook = fn;
}

/*
 * O_TRUNC: sysfs ignores it, and a fake tree of plain files then reads
 * back exactly what was written.
 */
int knob_write(const char *abspath, const char *value)
{
	if (g_write_hook)
		return g_write_hook(abspath, value);
	return write_file_str(abspath, value);
}
