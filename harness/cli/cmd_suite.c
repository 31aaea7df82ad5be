// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_suite - `thpbench suite get FILE KEY`: one value of a suite file,
 * checked whole by the parser (measure/suite.c) and printed by
 * measure/suite_get.c, for kernel-patches/scripts (which read no suite
 * file themselves). Exit 0; 2 on a malformed suite or an unknown key.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "measure/suite.h"
#include "measure/suite_get.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench suite get FILE KEY\n"
	      "  Print KEY of the suite FILE (its default when FILE does not\n"
	      "  set it): name, description, repetitions, warmup, timeout,\n"
	      "  events, thp, order, seed; or cases, one case name a line.\n"
	      "  The whole file is checked first; exit 2 when it is malformed.\n", f);
}

int cmd_suite(int argc, char **argv)
{
	struct suite s;
	char err[1024];
	int rc = 0;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "get")) {
		usage(stderr);
		return TB_EXIT_ERROR;
	}
	if (suite_load(argv[2], &s, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	if (suite_get(&s, argv[3], stdout, err, sizeof(err))) {
		tb_err("%s", err);
		rc = TB_EXIT_ERROR;
	}
	suite_free(&s);
	return rc;
}
