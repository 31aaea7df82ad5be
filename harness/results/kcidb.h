/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kcidb - a KernelCI KCIDB report (I/O schema v5, kcidb-io's
 * kcidb_io/schema/v05_03.py) written with jansson: the one writer of the
 * format; `history check --format kcidb` and `compare --format kcidb`
 * fill it.
 *
 * What it guarantees, whatever the input:
 *   - `version` {major 5, minor 3}; `checkouts`, `builds`, `tests` lists;
 *   - every id is "ORIGIN:" and the SHA-256 (hex) of the stable inputs the
 *     caller names (kind, then each part NUL-terminated), so the same
 *     history or the same two results files give the same ids on every
 *     run, and a resubmission updates objects instead of adding copies;
 *   - a checkout or a build added twice (same key) is written once;
 *   - `origin` matches [a-z0-9_]+ (kcidb_origin_valid: callers refuse any
 *     other before they start);
 *   - test `path` matches ^[a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*$: each name
 *     given is cleaned (kcidb_path) and the names are joined by dots;
 *   - `status` is one of FAIL ERROR MISS PASS DONE SKIP;
 *   - `start_time` is RFC 3339 (kcidb_time) or absent;
 *   - no JSON null anywhere (the schema allows none), no non-finite
 *     number (left out), every string valid UTF-8 (bytes that are not
 *     replaced by U+FFFD), an empty `misc` left out;
 *   - `number` {value, unit}: unit from stats/metric_unit.h, left out for
 *     counts and metrics of no known unit (KCIDB: dimensionless);
 *   - reals with 15 significant digits (JSON_REAL_PRECISION(15)).
 */
#ifndef THPBENCH_KCIDB_H
#define THPBENCH_KCIDB_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3
#define KCIDB_ORIGIN_MAX 64
/* "ORIGIN:" + 64 hex digits + NUL */
#define KCIDB_ID_LEN (KCIDB_ORIGIN_MAX + 1 + 64 + 1)

/* KCIDB's origin rule: [a-z0-9_]+ (and at most KCIDB_ORIGIN_MAX). */
bool kcidb_origin_valid(const char *s);

/*
 * The names n[0..count) as a test path: in each name, '.', '/' and ':'
 * separate path parts, [A-Za-z0-9_-] is kept, anything else is dropped;
 * empty parts are dropped; "_" when nothing is left. malloc'ed.
 */
char *kcidb_path(const char *const *n, size_t count);

/*
 * s ("YYYY-MM-DD[T ]HH:MM:SS[.frac][Z|+HH:MM|-HH:MM]") as RFC 3339 in
 * out ('T', and 'Z' when s names no zone: the harness keeps UTC); false
 * when s is no such time.
 */
bool kcidb_time(const char *s, char *out, size_t len);

struct kcidb;

struct kcidb *kcidb_new(const char *origin);
void kcidb_free(struct kcidb *k);

/* ORIGIN:sha256(kind NUL part0 NUL part1 NUL ...) into id; a NULL part
 * counts as "". */
void kcidb_id(const struct kcidb *k, const char *kind,
	      const char *const *parts, size_t n, char id[KCIDB_ID_LEN]);

struct kcidb_checkout {
	const char *key;	/* what names the source: the kernel id */
	const char *comment;	/* or NULL */
	const char *start_time;	/* or NULL */
};

/* The checkout's id into id; added unless one with that key is there. */
void kcidb_add_checkout(struct kcidb *k, const struct kcidb_checkout *c,
			char id[KCIDB_ID_LEN]);

struct kcidb_build {
	const char *checkout_id;
	const char *key;	/* what names the build: the kernel release */
	const char *comment;	/* or NULL */
	const char *start_time;	/* or NULL */
};

void kcidb_add_build(struct kcidb *k, const struct kcidb_build *b,
		     char id[KCIDB_ID_LEN]);

struct kcidb_test {
	const char *build_id;
	const char *const *path;	/* names, cleaned into the path */
	size_t npath;
	const char *const *key;		/* stable inputs of the test's id */
	size_t nkey;
	const char *status;	/* one of the six */
	const char *metric;	/* names the unit of value */
	double value;		/* NAN: no number */
	const char *start_time;	/* or NULL */
	const char *host;	/* environment.comment, or NULL */
	const char *comment;	/* or NULL */
	json_t *misc;		/* taken over; NULL or empty: left out */
};

void kcidb_add_test(struct kcidb *k, const struct kcidb_test *t);

/* misc members that keep the document valid: a finite number, or
 * nothing; a string cleaned of invalid UTF-8, or nothing for NULL. */
void kcidb_misc_num(json_t *misc, const char *key, double v);
void kcidb_misc_str(json_t *misc, const char *key, const char *s);

/* The document to f with a trailing newline; 0, or -1 on a write error. */
int kcidb_write(const struct kcidb *k, FILE *f);

#endif
