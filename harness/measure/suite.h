/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * suite - a suite file (INI, parsed with inih) -> struct suite.
 *
 *   [suite]            name, description, repetitions (5), warmup (1),
 *                      timeout (seconds, 300), events (comma list),
 *                      thp (comma list of always/madvise/never, or
 *                      "current"), order (interleave | shuffle |
 *                      sequential), seed, background (yes | no: idle
 *                      intervals for `thpbench coverage`, background.h),
 *                      profile (task | system | off: a perf profile of
 *                      each repetition's region of interest, profile.h)
 *                      and the axes of axes.h: mthp, mthp_shmem,
 *                      memory_state, fragment_share
 *   [case NAME]        workload (required), args, thp, label, env
 *                      (repeatable KEY=VALUE), set (repeatable
 *                      knob=value, knob relative to /sys/kernel/mm),
 *                      hugetlb.2048kB / hugetlb.1048576kB (pool size
 *                      the case needs), expect_huge (auto|yes|no),
 *                      repetitions, warmup, timeout, better.METRIC
 *                      (lower|higher), threshold.METRIC (percent),
 *                      description
 *                      swap, mount, memcg, zswap (case_res.h: a zram
 *                      swap device, a tmpfs or loop xfs/ext4 mount, a
 *                      memcg the harness makes for the case; zswap on
 *                      or off), service (redis | postgres[:OPT],
 *                      system/service_recipe.h: a throwaway server)
 *                      drop_slab (yes | no: "2" written to
 *                      vm/drop_caches before each repetition,
 *                      drop_slab.h)
 *                      and the axes of axes.h, for this case
 *   [claim ID]         a posting's claim checked after the run
 *                      (claims.h): posting, comparison, metric, base,
 *                      new, claimed, claimed_value, better, sense, needs,
 *                      tolerance, superseded_by, superseded_check,
 *                      superseded_config, depends, not_comparable_on,
 *                      derived, control, detail_of, parts, note
 * Anything else - an unknown section or key, a bad number, a key before
 * any section, a section given twice, "repetitions = 0", a THP mode or an
 * empty event listed twice, a hugetlb size that is not one, "value # x"
 * (comments start lines), a NUL byte, a line over 199 characters or a
 * name over 49 (inih's limits) - is an error "FILE:LINE: ..." (exit 2).
 */
#ifndef THPBENCH_SUITE_H
#define THPBENCH_SUITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "axes.h"

enum expect_huge { EXPECT_AUTO, EXPECT_YES, EXPECT_NO };

struct kv {
	char *key;
	char *value;
};

struct suite_case {
	char *name;
	char *workload;
	char **args;
	size_t nargs;
	char **env;
	size_t nenv;
	char **thp;		/* NULL: the suite's list */
	size_t nthp;
	char *label;
	struct kv *set;		/* sysfs knobs, hugetlb pools included */
	size_t nset;
	enum expect_huge expect_huge;
	int repetitions, warmup;	/* -1: the suite's */
	double timeout_s;		/* <0: the suite's */
	json_t *extra;		/* {"metric":{NAME:{"better":..,"threshold":..}}} */
	struct axes axes;	/* what this case sets of them */
	int line;
	/* Resources the case needs (case_res.h), as written; NULL: none. */
	char *swap, *mount, *memcg, *zswap, *service;
	bool drop_slab;		/* drop_slab.h: before each repetition */
};

struct suite_claim {
	char *id;
	json_t *fields;		/* key -> string, as written */
	int line;
};

struct suite {
	char *path;
	char *name;
	char *description;
	int repetitions, warmup;
	double timeout_s;
	char *events;
	char **thp;
	size_t nthp;
	char *order;
	unsigned long seed;
	bool seed_set;
	bool background;	/* background = yes: idle intervals (background.h) */
	char *profile;		/* profile = task|system|off (profile.h); NULL: off */
	struct axes axes;	/* every case's, unless the case sets its own */
	struct suite_case *cases;
	size_t ncases, cap;
	struct suite_claim *claims;
	size_t nclaims, claims_cap;
};

/* A claim's field as written, "" when absent. */
const char *claim_field(const struct suite_claim *cl, const char *key);

int suite_load(const char *path, struct suite *s, char *err, size_t errlen);
/* The same from memory: text[len] must be '\0'; path names it in errors. */
int suite_parse(const char *path, const char *text, size_t len,
		struct suite *s, char *err, size_t errlen);
void suite_free(struct suite *s);

/* Split "always,never" into a vector; -1 with err when a mode is unknown. */
int parse_thp_list(const char *list, char ***out, size_t *n, char *err,
		   size_t errlen);
/*
 * The first knob a case sets that an mTHP axis writes too (a size's
 * enabled; its shmem_enabled when shmem), or NULL. Such a case with an
 * mTHP axis is refused: at parse time, and by the run for --mthp.
 */
const char *suite_case_mthp_conflict(const struct suite_case *c, bool shmem);
/* Split a command line on white space with '...' and "..." grouping. */
int split_args(const char *s, char ***out, size_t *n);

#endif
