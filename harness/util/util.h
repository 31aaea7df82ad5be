/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util - error reporting, exit codes, small file and number helpers.
 *
 * Every user-facing error goes through tb_err()/tb_die() so messages share
 * one prefix and errors exit with TB_EXIT_ERROR (2), per the CLI contract.
 * Who calls tb_err(): the cli, with what a library layer handed back
 * (err/errlen, a history_db handle, a callback: history_db.h, cli/cli_err.h).
 * history/ follows that in full, system/ but for settings_say.h's
 * exceptions and reap_leftovers' warning (both on the measuring loop's
 * path); some warnings of measure/, plot/ and results/ do not yet.
 * Below the cli, tb_die() is for out of memory only.
 */
#ifndef THPBENCH_UTIL_H
#define THPBENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

enum tb_exit {
	TB_EXIT_OK = 0,
	TB_EXIT_VERDICT = 1,	/* a comparison/regression gate failed */
	TB_EXIT_ERROR = 2,	/* usage, configuration or environment */
	TB_EXIT_NOTHING = 3,	/* run: not one repetition measured ok */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* "thpbench: <msg>\n" on stderr. */
void tb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "thpbench: warning: <msg>\n" on stderr. */
void tb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * tb_err() then exit(TB_EXIT_ERROR); atexit handlers (settings restore) run.
 * The GNU attribute rather than C11 noreturn: cppcheck (make analyze) reads
 * only project headers, so it sees through the attribute but not through
 * <stdnoreturn.h>, and would report every path after a tb_die().
 */
void tb_die(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* At most n bytes of s, NUL-terminated. */
char *xstrndup(const char *s, size_t n);
/* Grow *arr (element size elsz) so that index idx fits; *cap is updated. */
void *xgrow(void *arr, size_t elsz, size_t *cap, size_t idx);

/*
 * Parse "512", "4k", "2M", "1G", "1T" (binary multiples, case-insensitive,
 * optional trailing "B"/"iB"). Returns 0, or -1 on a malformed or
 * overflowing value.
 */
int parse_size(const char *s, uint64_t *out);
/* Parse a whole string as a number; -1 when anything but the number is there. */
int parse_double(const char *s, double *out);
int parse_long(const char *s, long *out);

/* A whole file (up to 256 MiB), NUL-terminated, malloc'ed; its length in
 * *len. NULL with errno set (EFBIG when larger; EINVAL/EISDIR when not a
 * regular file: a FIFO never blocks it, safe_file.h). */
char *read_whole_file(const char *path, size_t *len);
/* Read a whole (small) file; trailing newline stripped. -1 with errno set. */
int read_file_str(const char *path, char *buf, size_t len);
/* Write val to path, truncating (no O_CREAT: sysfs style; a plain file in a
 * fake tree must not keep a longer old value). Only open/write/close, so
 * signal handlers may use it. -1 with errno set. */
int write_file_str(const char *path, const char *val);
/* mkdir -p; 0 or -1 with errno set. */
int mkdir_p(const char *path, unsigned int mode);

/*
 * v in the fewest significant digits that read back as exactly v, into
 * buf: plain digits from 1e-5 to 1e17 (0.1, 1090, 1000000000000001), an
 * exponent beyond (1.5e+308); "" when v is NaN or infinite. No value is
 * rounded to a fixed number of digits.
 */
const char *fmt_shortest(double v, char *buf, size_t len);

/* Monotonic clock in microseconds. */
double now_usec(void);

/* Free n strings and the vector holding them. */
void free_strv(char **v, size_t n);

/* Trim leading/trailing white space in place; returns s. */
char *str_trim(char *s);

/* True when a sep-separated list has an empty or all-blank item ("a,,b",
 * ",a", "a,", "a, ,b", ""): strtok would skip them silently. */
bool str_list_has_empty(const char *s, char sep);

/*
 * Text from a hostile source (a host or case name, a workload's output)
 * made safe for a terminal: C0 controls but '\n' (escape codes, '\r'),
 * DEL and C1 controls (raw bytes 0x80-0x9f, UTF-8 U+0080-U+009F) become
 * '?'; other UTF-8 stays. str_printable writes into buf (cut at len) and
 * returns it; fputs_printable writes to f; str_printable_dup mallocs.
 */
const char *str_printable(const char *s, char *buf, size_t len);
void fputs_printable(const char *s, FILE *f);
char *str_printable_dup(const char *s);

#endif
