/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gnuplot - find the gnuplot program and run one script with it.
 *
 * Which program: $THPBENCH_GNUPLOT when set (a path; empty or not
 * executable means "no gnuplot", so tests can take that path without
 * touching PATH), else the first executable "gnuplot" on $PATH.
 *
 * A script runs with its own directory as the working directory (the
 * scripts name their data and images relative to themselves), stdin from
 * /dev/null and everything it prints captured: gnuplot reports errors and
 * warnings alike on stderr with exit status 0 for a warning, so the caller
 * gets the text and decides.
 */
#ifndef THPBENCH_GNUPLOT_H
#define THPBENCH_GNUPLOT_H

#include <stddef.h>
#include <sys/types.h>

/* The line to show when gnuplot is missing (no trailing newline). */
#define GNUPLOT_INSTALL_HINT \
	"gnuplot not found: charts not drawn; install it (apt-get install gnuplot-nox) and run gnuplot on the .gp files, or rerun"

/* Path of the gnuplot to use in buf; -1 when there is none. */
int gnuplot_find(char *buf, size_t len);

/*
 * Run `gnuplot BASENAME` in the directory of script. Returns gnuplot's exit
 * status (0 ok), or -1 when it could not be started or was killed; *out
 * receives what it printed (malloc'ed, "" when nothing; free it).
 */
int gnuplot_run(const char *gnuplot, const char *script, char **out);

/*
 * The same in two steps, so that several scripts draw at once (each
 * gnuplot is one single-threaded process that spends its time in cairo):
 * start returns 0 with the job running (-1: not started, and finish then
 * returns -1); finish reads everything it prints until it exits and
 * returns as gnuplot_run does. Finishing jobs in the order they were
 * started cannot deadlock: a job whose pipe is full waits for its turn.
 */
struct gnuplot_job {
	pid_t pid;
	int fd;
};
int gnuplot_start(const char *gnuplot, const char *script,
		  struct gnuplot_job *job);
int gnuplot_finish(struct gnuplot_job *job, char **out);

#endif
