// SPDX-License-Identifier: GPL-2.0-only
#include "history_print.h"

#include <errno.h>
#include <string.h>

#include "util/util.h"

static const char *const format_names[] = {
	[HISTORY_FMT_TEXT] = "text",
	[HISTORY_FMT_JSON] = "json",
	[HISTORY_FMT_JUNIT] = "junit",
	[HISTORY_FMT_TAP] = "tap",
	[HISTORY_FMT_LAVA] = "lava",
	[HISTORY_FMT_KCIDB] = "kcidb",
};

int history_format_parse(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(format_names); i++)
		if (!strcmp(s, format_names[i]))
			return (int)i;
	return -1;
}

int history_write(FILE *f, enum history_format fmt,
		  const struct history_result *r, size_t n,
		  const struct history_check_opts *o)
{
	static void (*const fns[])(FILE *, const struct history_result *,
				   size_t, const struct history_check_opts *) = {
		[HISTORY_FMT_TEXT] = history_write_text,
		[HISTORY_FMT_JSON] = history_write_json,
		[HISTORY_FMT_JUNIT] = history_write_junit,
		[HISTORY_FMT_TAP] = history_write_tap,
		[HISTORY_FMT_LAVA] = history_write_lava,
		[HISTORY_FMT_KCIDB] = history_write_kcidb,
	};

	if ((size_t)fmt >= ARRAY_SIZE(fns)) {
		errno = EINVAL;
		return -1;
	}
	fns[fmt](f, r, n, o);
	if (fflush(f) || ferror(f))
		return -1;
	return 0;
}
