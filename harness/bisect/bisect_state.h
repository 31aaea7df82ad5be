/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect_state - a bisection's results directory, read back: what to
 * bisect, everything measured so far, every verdict, and what to do
 * next. The directory is the whole state: nothing is decided that the
 * files do not say again, so a run killed at any point goes on from
 * where it stopped (the driver removes a boot that did not finish).
 *
 *   DIR/plan.json        written once by bisect_planfile (schema
 *                        thpbench-bisect-plan/1): tree, good, bad, case,
 *                        metric, options, and the commits from GOOD to
 *                        BAD in history order (first parent), each with
 *                        sha, subject, author, date and patch_id
 *   DIR/runs/NNNN/       one per boot or skip, numbered in order:
 *     commit             the commit's sha
 *     results.json       the boot's results (a measured boot)
 *     skip               why it was skipped ("build: ...", "boot: ...")
 *
 * Every file is checked as hostile input: a sha the plan does not list,
 * a run with neither results nor skip, a malformed plan or option is an
 * error naming the file. Values are the case's metric over its ok
 * repetitions; the case is named by id ("mremap/thp=always") or, when
 * one case has it, by name ("mremap").
 *
 * The references come first: GOOD and BAD interleaved, ref_reps
 * repetitions a boot, ref_boots boots each, then one more each while
 * bisect_refs() asks. Then each step: bisect_plan_next() picks the
 * commit, bisect_step() decides it (first_reps, then next_reps).
 */
#ifndef THPBENCH_BISECT_STATE_H
#define THPBENCH_BISECT_STATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "bisect_plan.h"
#include "bisect_rule.h"

#define BISECT_PLAN_SCHEMA "thpbench-bisect-plan/1"

struct bisect_commit {
	char *sha, *subject, *author, *date, *patch_id;
	double *v;		/* values of every boot, in order */
	size_t n, vcap;
	size_t *bn;		/* values per boot */
	size_t nb, bcap;
	size_t boots;		/* measured boots, also those without a value */
	size_t first_run;	/* run number first measured; 0: never */
	size_t last_run;
	char *skip;		/* why skipped, or NULL */
	enum bisect_class cls;
	struct bisect_step step;	/* steps: the last decision */
	bool decided_step;		/* step holds a decision */
};

struct bisect_state {
	char *dir;
	json_t *plan;		/* owned */
	const char *tree, *case_name, *metric, *good_ref, *bad_ref;
	struct bisect_opts opts;
	size_t ref_reps;
	struct bisect_commit *c;	/* c[0] GOOD, c[n-1] BAD */
	size_t n;
	size_t runs;		/* runs read */
	char *unit_note;	/* e.g. "emulated (qemu TCG) ..." from meta.timings */
	/* after bisect_state_eval(): */
	bool refs_done;		/* references decided (not REFS_MORE) */
	struct bisect_refs refs;
};

/* Read DIR. -1 with err set (naming the file) on anything malformed. */
int bisect_state_load(const char *dir, struct bisect_state *s, char *err,
		      size_t errlen);
void bisect_state_free(struct bisect_state *s);

enum bisect_action_kind {
	BA_MEASURE,	/* measure commit with reps repetitions, one boot */
	BA_DONE,	/* the search is over: report */
	BA_NOTHING,	/* GOOD vs BAD is no change worth bisecting: report */
	BA_ERROR,	/* cannot go on (GOOD or BAD skipped...): why */
};

struct bisect_action {
	enum bisect_action_kind kind;
	size_t commit;
	size_t reps;
	char why[256];
};

/*
 * Decide everything the data allows (references, each commit's class)
 * and say what comes next.
 */
void bisect_state_eval(struct bisect_state *s, struct bisect_action *a);

/*
 * Up to k actions at once (k devices): when the search is over, the one
 * bisect_state_eval() gives; while the references are measured, GOOD and
 * BAD together when they have had as many boots (else the one behind);
 * else the step commits bisect_plan_next_n() picks, each with its
 * repetitions.
 * a[] holds k; returns how many it filled (>= 1).
 */
size_t bisect_state_eval_n(struct bisect_state *s, struct bisect_action *a, size_t k);

/* Classes of every commit, for bisect_plan (a malloc'ed copy). */
enum bisect_class *bisect_state_classes(const struct bisect_state *s);

/* Short form of a sha (12 digits), into buf. */
const char *bisect_short(const char *sha, char *buf, size_t len);

#endif
