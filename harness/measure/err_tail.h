/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * err_tail - a workload's stderr passed on to where it always went (its
 * log file, or our own stderr) while its last non-empty line is kept, so
 * a failed repetition can say why ("exited with status 1: the pool has
 * 1014 free, it needs 1024") instead of only its exit status.
 *
 * The runner gives the child a pipe as fd 2 and pumps it while the child
 * runs and once more after it is gone. A line longer than the buffer
 * keeps its start; control characters (escape codes, \r) are shown as
 * '?', so the line can go into a table or a terminal as it is.
 */
#ifndef THPBENCH_ERR_TAIL_H
#define THPBENCH_ERR_TAIL_H

#include <stdbool.h>
#include <stddef.h>

#define ERR_TAIL_LINE 240

struct err_tail {
	int sink;			/* where the bytes go; -1: nowhere */
	char last[ERR_TAIL_LINE];	/* the last complete non-empty line */
	char part[ERR_TAIL_LINE];	/* the line being written */
	size_t npart;
};

void err_tail_init(struct err_tail *t, int sink);

/* Read what fd holds now (it is non-blocking) and pass it on. false at
 * EOF or a read error (the caller closes fd), true while it may say more. */
bool err_tail_pump(struct err_tail *t, int fd);

/* The last non-empty line, an unfinished last line included; "" if none. */
const char *err_tail_last(struct err_tail *t);

#endif
