// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_series - `thpbench series check DIR`: a patch series directory
 * checked as untrusted input (bisect/series_check.h says what is
 * refused) before kernel-patches/scripts applies it. Prints the files
 * the series touches, one per line, sorted; exit 0. A refusal is one
 * line on stderr naming the patch, the line and why; exit 2. The limits
 * come from THPBENCH_SERIES_MAX_PATCHES and THPBENCH_SERIES_MAX_MB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/series_check.h"
#include "commands.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench series check DIR\n"
	      "  Check the *.patch files of DIR as untrusted input (names,\n"
	      "  size, every header's path and mode; no binary or context\n"
	      "  diff) and print the files they touch, sorted. Exit 0, or 2\n"
	      "  naming the first patch and line refused.\n"
	      "  THPBENCH_SERIES_MAX_PATCHES (500), THPBENCH_SERIES_MAX_MB (64)\n"
	      "  bound the series.\n", f);
}

/* A positive limit from the environment, or its default. */
static int env_limit(const char *name, long def, long *out)
{
	const char *v = getenv(name);

	*out = def;
	if (!v || !*v)
		return 0;
	if (parse_long(v, out) || *out <= 0) {
		tb_err("%s='%s': give a positive whole number", name, v);
		return -1;
	}
	return 0;
}

int cmd_series(int argc, char **argv)
{
	struct series_limits lim;
	struct series_paths out = { 0 };
	char err[1024];
	size_t i;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 3 || strcmp(argv[1], "check")) {
		usage(stderr);
		return TB_EXIT_ERROR;
	}
	if (env_limit("THPBENCH_SERIES_MAX_PATCHES", SERIES_MAX_PATCHES_DEFAULT, &lim.max_patches) ||
	    env_limit("THPBENCH_SERIES_MAX_MB", SERIES_MAX_MB_DEFAULT, &lim.max_mb))
		return TB_EXIT_ERROR;
	if (series_check_dir(argv[2], &lim, &out, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	for (i = 0; i < out.n; i++)
		printf("%s\n", out.v[i]);
	series_paths_free(&out);
	return 0;
}
