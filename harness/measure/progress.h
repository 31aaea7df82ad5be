/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * progress - what a run is doing, while it runs, on stderr.
 *
 * On a terminal one status line rewrites itself ("[12/90] mremap/thp=always
 * rep 2/10  elapsed 45s"). Anywhere else (a CI log, a pipe, a file) every
 * execution of a case ends with one line of its own, so that a log shows
 * a long run advancing and which case is slow or failing:
 *
 *   [ 12/90  0:45 left ~4:10] mremap/thp=always rep 2/10: ok in 0.84 s
 *   [  0/90  0:03] clear_2M/thp=madvise warm-up 1/1: ok in 1.20 s
 *   [ 13/90  0:47 left ~4:05] split/thp=madvise rep 2/10: timeout in 120 s
 *
 * "left" extrapolates the mean time per recorded repetition so far.
 * Counts are of recorded repetitions; warm-ups are shown but not counted.
 */
#ifndef THPBENCH_PROGRESS_H
#define THPBENCH_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum progress_mode {
	PROGRESS_AUTO,		/* TTY on a terminal, LINES elsewhere */
	PROGRESS_TTY,
	PROGRESS_LINES,
	PROGRESS_NONE,
};

struct progress {
	FILE *f;
	enum progress_mode mode;	/* never AUTO once started */
	size_t done, total;		/* recorded repetitions */
	double t0, first_rep;		/* now_usec() at start, at the first recorded one */
	double t_exec;			/* start of the execution in flight */
};

/* -1 when s is not auto, tty, lines or none. */
int progress_mode_parse(const char *s);

/* Start: AUTO resolves by isatty(fileno(f)); total recorded repetitions. */
void progress_start(struct progress *p, FILE *f, enum progress_mode mode,
		    size_t total);

/* One execution of case_id begins; warmup or repetition rep (0-based) of n. */
void progress_begin(struct progress *p, const char *case_id, bool warmup,
		    int rep, int n);

/*
 * It ended with status ("ok", "failed", ...; reason may be NULL). A
 * recorded repetition counts towards done.
 */
void progress_end(struct progress *p, const char *case_id, bool warmup,
		  int rep, int n, const char *status, const char *reason);

/* The run is over: clear the status line. */
void progress_finish(struct progress *p);

#endif
