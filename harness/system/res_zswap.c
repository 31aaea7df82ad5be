// SPDX-License-Identifier: GPL-2.0-only
/*
 * res_zswap - zswap on (or off) for a case (resource.h, kind "zswap"):
 * /sys/module/zswap/parameters/enabled, a knob outside the mm tree, kept
 * as a resource so it is journalled before it is written and put back on
 * every path like the rest. opt holds the value found ("Y" or "N"), dev
 * the value the case wants.
 *
 * Undo: the value found written back. A journalled entry is ours only
 * when it names that file and both values are Y or N.
 */
#include "resource.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void zpath(const struct res_env *e, char *buf, size_t len)
{
	snprintf(buf, len, "%s/module/zswap/parameters/enabled", e->sys_root);
}

static bool yn(const char *s)
{
	return !strcmp(s, "Y") || !strcmp(s, "N");
}

static int zswap_make(struct res *r, const struct res_env *e,
		      int (*sync)(void *), void *arg, char *err, size_t errlen)
{
	char got[16];

	zpath(e, r->path, sizeof(r->path));
	if (!yn(r->dev)) {
		snprintf(err, errlen, "zswap: \"%s\" is not Y or N", r->dev);
		return -1;
	}
	if (read_file_str(r->path, r->opt, sizeof(r->opt)) || !yn(r->opt)) {
		snprintf(err, errlen, "zswap: %s: %s (a kernel without CONFIG_ZSWAP?)",
			 r->path, errno ? strerror(errno) : "not Y or N");
		r->opt[0] = '\0';
		return -1;
	}
	if (sync(arg)) {
		snprintf(err, errlen, "zswap: cannot journal %s", r->path);
		return -1;
	}
	if (write_file_str(r->path, r->dev) ||
	    read_file_str(r->path, got, sizeof(got)) || strcmp(got, r->dev)) {
		snprintf(err, errlen, "zswap: cannot set %s to %s: %s", r->path,
			 r->dev, strerror(errno));
		return -1;
	}
	return 0;
}

static int zswap_undo(const struct res *r, const struct res_env *e)
{
	char path[RES_PATH], got[16];

	(void)e;
	if (!yn(r->opt))
		return 0;	/* journalled before it was read: nothing changed */
	snprintf(path, sizeof(path), "%s", r->path);
	if (!read_file_str(path, got, sizeof(got)) && !strcmp(got, r->opt))
		return 0;
	if (write_file_str(path, r->opt))
		return -1;
	return 0;
}

static int zswap_owned(const struct res *r, const struct res_env *e,
		       char *why, size_t len)
{
	char path[RES_PATH];

	zpath(e, path, sizeof(path));
	if (strcmp(r->path, path)) {
		snprintf(why, len, "%s is not %s", r->path, path);
		return 0;
	}
	if (*r->opt && !yn(r->opt)) {
		snprintf(why, len, "value \"%s\" to put back is not Y or N", r->opt);
		return 0;
	}
	return 1;
}

const struct res_kind res_kind_zswap = {
	.name = "zswap",
	.make = zswap_make,
	.undo = zswap_undo,
	.owned = zswap_owned,
};
