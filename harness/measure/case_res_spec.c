// SPDX-License-Identifier: GPL-2.0-only
/* case_res_spec - the grammar of a case's resource keys (case_res_spec.h). */
#include "case_res_spec.h"
#include "system/service_recipe.h"
#include "util/util.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MIN_SIZE (16ULL << 20)

static int size_ok(const char *s, uint64_t *v, char *err, size_t errlen)
{
	if (parse_size(s, v) || *v < MIN_SIZE || *v > (1ULL << 42)) {
		snprintf(err, errlen, "\"%s\" is not a size from 16M to 4T (512M, 1G)", s);
		return -1;
	}
	return 0;
}

/* tmpfs options: only huge= and size=, so nothing else reaches mount(2). */
static int tmpfs_opts_ok(const char *opts, char *err, size_t errlen)
{
	static const char *const huge[] = { "always", "within_size", "advise",
					     "never" };
	char buf[256], *o, *save;
	uint64_t v;
	size_t i;

	if (strlen(opts) >= sizeof(buf) || !*opts) {
		snprintf(err, errlen, "tmpfs options \"%s\" empty or too long", opts);
		return -1;
	}
	strcpy(buf, opts);
	for (o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if (!strncmp(o, "size=", 5)) {
			if (size_ok(o + 5, &v, err, errlen))
				return -1;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(huge); i++)
			if (!strncmp(o, "huge=", 5) && !strcmp(o + 5, huge[i]))
				break;
		if (i == ARRAY_SIZE(huge)) {
			snprintf(err, errlen, "tmpfs option \"%s\" is not huge=always|within_size|advise|never or size=SIZE", o);
			return -1;
		}
	}
	return 0;
}

static int swap_check(const char *val, char *err, size_t errlen)
{
	char buf[128], *size, *comp = NULL;
	uint64_t v;

	if (strlen(val) >= sizeof(buf) || strncmp(val, "zram", 4) ||
	    (val[4] && val[4] != ':')) {
		snprintf(err, errlen, "\"%s\" is not zram, zram:SIZE or zram:SIZE:COMPRESSOR", val);
		return -1;
	}
	if (!val[4])
		return 0;
	strcpy(buf, val + 5);
	size = buf;
	comp = strchr(buf, ':');
	if (comp)
		*comp++ = '\0';
	if (size_ok(size, &v, err, errlen))
		return -1;
	if (comp && (!*comp || strspn(comp, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(comp))) {
		snprintf(err, errlen, "compressor \"%s\" is not a name like lz4 or lzo-rle", comp);
		return -1;
	}
	return 0;
}

static int mount_check(const char *val, char *err, size_t errlen)
{
	uint64_t v;

	if (!strcmp(val, "tmpfs") || !strcmp(val, "xfs") || !strcmp(val, "ext4"))
		return 0;
	if (!strncmp(val, "tmpfs:", 6))
		return tmpfs_opts_ok(val + 6, err, errlen);
	if (!strncmp(val, "xfs:", 4)) {
		if (size_ok(val + 4, &v, err, errlen))
			return -1;
		/* mkfs.xfs refuses anything smaller. */
		if (v < 320ULL << 20) {
			snprintf(err, errlen, "an xfs image of %s is under mkfs.xfs's 300 MB: 320M at least", val + 4);
			return -1;
		}
		return 0;
	}
	if (!strncmp(val, "ext4:", 5))
		return size_ok(val + 5, &v, err, errlen);
	snprintf(err, errlen, "\"%s\" is not tmpfs[:huge=...,size=...], xfs[:SIZE] or ext4[:SIZE]", val);
	return -1;
}

int case_res_check(const char *key, const char *val, char *err,
		   size_t errlen)
{
	uint64_t v;

	if (!strcmp(key, "swap"))
		return swap_check(val, err, errlen);
	if (!strcmp(key, "mount"))
		return mount_check(val, err, errlen);
	if (!strcmp(key, "service")) {
		struct svc_recipe rc;

		return svc_recipe_parse(val, &rc, err, errlen);
	}
	if (!strcmp(key, "zswap")) {
		if (strcmp(val, "on") && strcmp(val, "off")) {
			snprintf(err, errlen, "\"%s\" is not on or off", val);
			return -1;
		}
		return 0;
	}
	if (!strcmp(val, "max"))
		return 0;
	return size_ok(val, &v, err, errlen);
}
