/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli_session_opt - the options `run` and `coverage` share, parsed into
 * struct session_opts the same way for both: -o DIR, --thp LIST, -r N
 * (>= 1), --warmup N (>= 0), --seed S, --wait[=SECONDS], --progress
 * MODE. Each takes its getopt code below; a bad value is tb_die()'s
 * message naming the option (exit 2).
 */
#ifndef THPBENCH_CLI_SESSION_OPT_H
#define THPBENCH_CLI_SESSION_OPT_H

#include <stdbool.h>

#include "measure/session.h"

#define CLI_OPT_OUTDIR 'o'
#define CLI_OPT_THP 't'
#define CLI_OPT_REPS 'r'
#define CLI_OPT_WARMUP 'w'
#define CLI_OPT_SEED 's'
#define CLI_OPT_WAIT 'W'
#define CLI_OPT_PROGRESS 'P'

/* True when c is one of the codes above, applied to o. */
bool cli_session_opt(int c, const char *arg, struct session_opts *o);

#endif
