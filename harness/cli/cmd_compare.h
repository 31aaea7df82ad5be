/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd_compare - `thpbench compare`: parse its options, load the results
 * files, compare (compare.h) and print (compare_format.h).
 *
 *   thpbench compare BASE.json NEW.json [options]
 *   thpbench compare RESULTS.json --by thp|label [--base VALUE] [options]
 *
 * argv[0] is the subcommand's name ("compare"); options follow it.
 * Returns the exit code: 0, 1 when --fail-on regression found one, 2 for
 * usage, file or environment errors (messages on stderr).
 */
#ifndef THPBENCH_CMD_COMPARE_H
#define THPBENCH_CMD_COMPARE_H

#include <stdio.h>

int cmd_compare(int argc, char **argv);
/* The same, printing the comparison to out (tests use a memory stream). */
int compare_main(int argc, char **argv, FILE *out);

#endif
