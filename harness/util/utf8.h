/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * utf8 - text from a hostile source (a database, a results file, a
 * command line) checked as UTF-8, counted in characters, cut, and shown
 * on one line.
 *
 * Valid UTF-8 here: the shortest form, no surrogates (U+D800-U+DFFF),
 * nothing beyond U+10FFFF, and not U+FFFE/U+FFFF (which XML refuses), so
 * that what SQLite stores PostgreSQL stores too and every format writes.
 *
 * str_escape() and friends are util.h's str_printable() for one field on
 * one line of text (history check and list, TAP, a confirmation):
 * str_printable keeps '\n' for multi-line messages and passes invalid
 * UTF-8; these never let a stored string start a line, move the cursor
 * or pose as another field. '\n', '\r', '\t' and '\\' become the two
 * characters "\n", "\r", "\t", "\\"; other C0 controls and DEL "\xNN";
 * C1 controls (U+0080-U+009F) "\u00NN"; each byte of invalid UTF-8
 * "\xNN". Other UTF-8 stays as it is.
 */
#ifndef THPBENCH_UTF8_H
#define THPBENCH_UTF8_H

#include <stdint.h>
#include <stdio.h>

/* Bytes of the valid UTF-8 character at s (1 for an ASCII byte, the NUL
 * included), its code point in *cp when cp is not NULL; 0 when s holds
 * none (an invalid or cut sequence). */
size_t utf8_seq(const char *s, uint32_t *cp);
/* The first byte of s that starts no valid character; NULL when s is
 * valid UTF-8 (or NULL). */
const char *utf8_invalid(const char *s);
/* Characters (code points) of s; a byte of invalid UTF-8 counts as one. */
size_t utf8_chars(const char *s);
/* The first control character of s (C0, DEL, or C1 U+0080-U+009F in
 * valid UTF-8 or as a raw byte); NULL when there is none. */
const char *utf8_control(const char *s);
/* At most max characters of s (never half of one), then "…" when s was
 * longer; malloc'ed. NULL stays NULL. */
char *utf8_cut_dup(const char *s, size_t max);
/* A malloc'ed copy of s with each byte that starts no valid character
 * replaced by U+FFFD (jansson refuses invalid UTF-8; a database or a
 * results file may hold anything); NULL is taken as "". */
char *utf8_clean_dup(const char *s);

/* s escaped (above) into buf, cut at len but never inside an escape or
 * a character; returns buf. */
const char *str_escape(const char *s, char *buf, size_t len);
void fputs_escaped(const char *s, FILE *f);
char *str_escape_dup(const char *s);

#endif
