/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli_err - how the cli prints what a library layer left in err (or a
 * history_db handle, history_db.h): the libraries do not print, so that
 * a caller other than the cli (a test, a daemon) decides where errors go.
 * A message may hold several lines (what failed, then what it means);
 * each is printed as one tb_err() message, "thpbench: LINE".
 */
#ifndef THPBENCH_CLI_ERR_H
#define THPBENCH_CLI_ERR_H

#include <stdbool.h>

/* Each line of msg through tb_err(); nothing for NULL or "". */
void cli_err(const char *msg);
/* The same as tb_warn() ("thpbench: warning: LINE"). */
void cli_warn(const char *msg);
/*
 * A library's message callback (history_import.h's say,
 * settings_say.h's sink): cli_warn() for a warning, else cli_err().
 */
void cli_say(void *arg, bool warning, const char *msg);

#endif
