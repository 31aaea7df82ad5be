// SPDX-License-Identifier: GPL-2.0-only
#include "kconfig.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "util/util.h"

/* A config is a few hundred KiB; more than this is not one. */
#define KCONFIG_MAX	(64u << 20)

static char *read_gz(const char *path, size_t *len)
{
	size_t cap = 1 << 16;
	gzFile f = gzopen(path, "rb");	/* reads plain text as is */
	char *buf;
	int n = 0;

	if (!f)
		return NULL;
	*len = 0;
	buf = xmalloc(cap);
	while (*len < KCONFIG_MAX &&
	       (n = gzread(f, buf + *len, (unsigned int)(cap - *len - 1))) > 0) {
		*len += (size_t)n;
		if (*len + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	gzclose(f);
	if (n < 0 || *len >= KCONFIG_MAX) {
		free(buf);
		return NULL;
	}
	buf[*len] = 0;
	return buf;
}

char *kconfig_read(const char *root, const char *release, size_t *len,
		   char *source, size_t source_len)
{
	char path[4096];
	char *text;

	snprintf(path, sizeof(path), "%s/proc/config.gz", root ? root : "");
	text = read_gz(path, len);
	if (!text && release && !strchr(release, '/')) {
		snprintf(path, sizeof(path), "%s/boot/config-%s", root ? root : "",
			 release);
		text = read_gz(path, len);
	}
	if (text)
		snprintf(source, source_len, "%s", path + (root ? strlen(root) : 0));
	return text;
}

const char *kconfig_value(const char *text, const char *name, char *buf,
			  size_t len)
{
	size_t n = strlen(name);
	const char *p = text, *eol;

	for (; p && *p; p = eol ? eol + 1 : NULL) {
		eol = strchr(p, '\n');
		if (!strncmp(p, name, n) && p[n] == '=') {
			snprintf(buf, len, "%.*s", (int)((eol ? eol : p + strlen(p)) -
							 (p + n + 1)), p + n + 1);
			return buf;
		}
	}
	snprintf(buf, len, "n");
	return buf;
}

json_t *kconfig_options(const char *root, const char *release,
			const char *const *names, size_t n)
{
	json_t *o = json_object(), *opts = json_object();
	char source[4096], val[256];
	size_t len, i;
	char *text = kconfig_read(root, release, &len, source, sizeof(source));

	if (!text) {
		json_decref(opts);
		json_object_set_new(o, "source", json_null());
		json_object_set_new(o, "unknown", json_string(
			"no /proc/config.gz and no /boot/config-RELEASE"));
		return o;
	}
	for (i = 0; i < n; i++)
		json_object_set_new(opts, names[i], json_string(
			kconfig_value(text, names[i], val, sizeof(val))));
	free(text);
	json_object_set_new(o, "source", json_string(source));
	json_object_set_new(o, "options", opts);
	return o;
}
