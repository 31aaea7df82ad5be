// SPDX-License-Identifier: GPL-2.0-only
#include "compare_print.h"

#include <string.h>

#include "util/util.h"

static const char *const format_names[] = {
	[CMP_FMT_TEXT] = "text",
	[CMP_FMT_MINISTAT] = "ministat",
	[CMP_FMT_EMAIL] = "email",
	[CMP_FMT_MD] = "md",
	[CMP_FMT_CSV] = "csv",
	[CMP_FMT_JSON] = "json",
	[CMP_FMT_WELCH] = "welch",
	[CMP_FMT_COVER] = "cover",
};

int cmp_format_parse(const char *s)
{
	size_t i;

	if (!strcmp(s, "markdown"))
		return CMP_FMT_MD;
	for (i = 0; i < ARRAY_SIZE(format_names); i++)
		if (!strcmp(s, format_names[i]))
			return (int)i;
	return -1;
}

void compare_print(const struct comparison *c, enum cmp_format f, FILE *out)
{
	static void (*const print[])(const struct comparison *, FILE *) = {
		[CMP_FMT_TEXT] = compare_print_text,
		[CMP_FMT_MINISTAT] = compare_print_ministat,
		[CMP_FMT_EMAIL] = compare_print_email,
		[CMP_FMT_MD] = compare_print_md,
		[CMP_FMT_CSV] = compare_print_csv,
		[CMP_FMT_JSON] = compare_print_json,
		[CMP_FMT_WELCH] = compare_print_welch,
		[CMP_FMT_COVER] = compare_print_cover,
	};

	print[(size_t)f < ARRAY_SIZE(print) ? f : CMP_FMT_TEXT](c, out);
}
