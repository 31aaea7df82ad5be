/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_email - the email format (compare_print_email(), compare_print.h)
 * and its rules, which the cover format follows too: lines of at most
 * COMPARE_EMAIL_COLS columns (util/wrap.h: words never broken where they
 * fit a line, sha256 digests shortened to 12 hex digits, commands that
 * paste back whole, control characters from the results files made
 * blanks) and the two-line row per metric:
 *
 *   metric                    base               new          change
 *   roi_usec                  8012 ±3.1%       20310 ±4.0%   +153.5%
 *       [+140.2%, +167.1%], p < 0.0001: regression
 */
#ifndef THPBENCH_COMPARE_EMAIL_H
#define THPBENCH_COMPARE_EMAIL_H

#include <stdio.h>

#include "compare.h"

#define COMPARE_EMAIL_COLS 72

/* text wrapped to COMPARE_EMAIL_COLS, the first line after first, the
 * rest after cont. */
void compare_email_wrap(FILE *out, const char *first, const char *cont,
			const char *text);
/* A shell command, indented two columns, continued with " \" (wrap.h). */
void compare_email_command(FILE *out, const char *cmd);
/* The column heads, with the two sides called a and b. */
void compare_email_head(FILE *out, const char *a, const char *b);
/* One metric's two lines. */
void compare_email_row(FILE *out, const struct comparison *c,
		       const struct compare_metric *m);

#endif
