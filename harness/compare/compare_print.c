// SPDX-License-Identifier: GPL-2.0-only
#include "compare_print.h"

#include <string.h>

#include "util/util.h"

static const char *const format_names[] = {
	[COMPARE_FMT_TEXT] = "text",
	[COMPARE_FMT_MINISTAT] = "ministat",
	[COMPARE_FMT_EMAIL] = "email",
	[COMPARE_FMT_MD] = "md",
	[COMPARE_FMT_CSV] = "csv",
	[COMPARE_FMT_JSON] = "json",
	[COMPARE_FMT_WELCH] = "welch",
	[COMPARE_FMT_COVER] = "cover",
	[COMPARE_FMT_KCIDB] = "kcidb",
};

int compare_format_parse(const char *s)
{
	size_t i;

	if (!strcmp(s, "markdown"))
		return COMPARE_FMT_MD;
	for (i = 0; i < ARRAY_SIZE(format_names); i++)
		if (!strcmp(s, format_names[i]))
			return (int)i;
	return -1;
}

void compare_print(const struct comparison *c, enum compare_format f, FILE *out)
{
	static void (*const print[])(const struct comparison *, FILE *) = {
		[COMPARE_FMT_TEXT] = compare_print_text,
		[COMPARE_FMT_MINISTAT] = compare_print_ministat,
		[COMPARE_FMT_EMAIL] = compare_print_email,
		[COMPARE_FMT_MD] = compare_print_md,
		[COMPARE_FMT_CSV] = compare_print_csv,
		[COMPARE_FMT_JSON] = compare_print_json,
		[COMPARE_FMT_WELCH] = compare_print_welch,
		[COMPARE_FMT_COVER] = compare_print_cover,
		[COMPARE_FMT_KCIDB] = compare_print_kcidb,
	};

	print[(size_t)f < ARRAY_SIZE(print) ? f : COMPARE_FMT_TEXT](c, out);
}
