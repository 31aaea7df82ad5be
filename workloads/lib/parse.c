// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option values. Sizes take binary suffixes like the postings' command
 * lines ("-b 128g", "5G"); counts are plain decimals so that "10M keys"
 * cannot be misread as 10 * 2^20.
 */
#include "wl.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int wl_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static int suffix_shift(const char *s, unsigned int *shift)
{
	static const char units[] = "kmgt";
	const char *u;

	if (!*s) {
		*shift = 0;
		return 0;
	}
	if (!strcasecmp(s, "b")) {
		*shift = 0;
		return 0;
	}
	u = strchr(units, tolower((unsigned char)*s));
	if (!u)
		return -1;
	s++;
	if (*s && strcasecmp(s, "b") && strcasecmp(s, "ib"))
		return -1;
	*shift = 10 * (unsigned int)(u - units + 1);
	return 0;
}

int wl_parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned int shift;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || suffix_shift(end, &shift))
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

uint64_t wl_opt_size(const char *opt, const char *arg, const char *usage)
{
	uint64_t v;

	if (wl_parse_size(arg, &v))
		wl_usage_error(usage, "%s: '%s' is not a size (e.g. 4096, 64M, 2G)",
			       opt, arg);
	if (!v)
		wl_usage_error(usage, "%s: must be greater than zero", opt);
	return v;
}

uint64_t wl_opt_count(const char *opt, const char *arg, uint64_t min,
		      uint64_t max, const char *usage)
{
	uint64_t v;

	if (wl_parse_u64(arg, &v))
		wl_usage_error(usage, "%s: '%s' is not a whole number", opt, arg);
	if (v < min || v > max)
		wl_usage_error(usage, "%s: %llu is out of range [%llu, %llu]",
			       opt, (unsigned long long)v,
			       (unsigned long long)min,
			       (unsigned long long)max);
	return v;
}

const char *wl_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB",
					     "PiB", "EiB" };
	double v = (double)bytes;
	unsigned int i = 0;

	while (v >= 1024 && i + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.2f %s", v, units[i]);
	return buf;
}
