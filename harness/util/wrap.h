/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wrap - plain text for mail: lines of at most a given number of columns
 * (display columns of UTF-8 text), words never broken where it can be
 * helped.
 *
 * wrap_text() fills lines word by word. A word wider than a whole line
 * (a long path) is the only thing ever broken, and then after a '/', '-',
 * '_', '.' or ',' where one lets the piece fit, hard at the width only
 * when none does.
 *
 * wrap_command() lays out a shell command so that pasting the lines into
 * a shell runs exactly that command: lines cut between words end in
 * " \", continuation lines are indented; a word wider than a line is cut
 * (at the same places) by a backslash-newline with the rest of the word
 * at column 0, which the shell removes before it splits words.
 */
#ifndef THPBENCH_WRAP_H
#define THPBENCH_WRAP_H

#include <stdio.h>

/* Display width of UTF-8 text: columns, not bytes ("±" is one). */
int text_width(const char *s);

/* text on lines of at most cols columns: the first begins with first,
 * the others with cont; each ends in a newline. */
void wrap_text(FILE *out, int cols, const char *first, const char *cont,
	       const char *text);

/* The shell command cmd (words separated by spaces) the same way. */
void wrap_command(FILE *out, int cols, const char *first, const char *cont,
		  const char *cmd);

/*
 * Copy in to out (len bytes) with every "sha256:" and 64 hex digits cut
 * to "sha256:" and the first 12, as git shortens commit ids: a digest
 * fits a line and still names its file.
 */
void short_digests(const char *in, char *out, size_t len);

#endif
