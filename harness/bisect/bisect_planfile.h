/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect_planfile - DIR/plan.json of a bisection, written (the one
 * writer: `thpbench bisect plan`) and its driver part read back for the
 * script (`thpbench bisect driver`); bisect_state reads the rest. The
 * schema is thpbench-bisect-plan/1:
 *
 *   schema, tree, good, bad, good_ref, bad_ref, case, metric,
 *   suite ("suite.conf", beside it), options {ref_reps, ...},
 *   driver {config, boot, accel, mem, smp, timeout, jobs, initrd,
 *           orig_release}, thpbench_version, command, created,
 *   commits [{sha, date, author, subject, patch_id}], GOOD first
 *
 * The options' ranges live here once (bisect_plan_option), for the
 * writer and for bisect_state's reader. The commits come as git prints
 * them (bisect.sh runs git): one "SHA\x1fDATE\x1fAUTHOR\x1fSUBJECT" line
 * a commit, GOOD then GOOD..BAD first parent in order, and `git patch-id
 * --stable` lines "PATCHID SHA". Everything is checked: a sha not 40 hex
 * digits, a list that does not run from GOOD to BAD, a case the suite
 * does not have, an option out of range, a driver value no boot takes.
 */
#ifndef THPBENCH_BISECT_PLANFILE_H
#define THPBENCH_BISECT_PLANFILE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "bisect_rule.h"

struct bisect_driver {
	const char *config, *boot, *accel, *mem, *initrd, *orig_release;
	long smp, timeout, jobs;
};

struct bisect_plan_input {
	const char *tree, *good, *bad, *good_ref, *bad_ref;
	const char *suite;		/* the suite file, for the case check */
	const char *case_metric;	/* CASE:METRIC */
	long reps;			/* ref_reps; <= 0: the suite's */
	const char *version, *command;
	struct bisect_driver driver;
	FILE *commits, *patch_ids;	/* as git prints them */
	const char **opt_keys, **opt_values;	/* --opt KEY=VALUE */
	size_t nopts;
};

/*
 * Option KEY = X, range-checked, into bo (ref_reps into *ref_reps).
 * -1 with err ("KEY must be ...") when unknown or out of range.
 */
int bisect_plan_option(struct bisect_opts *bo, size_t *ref_reps,
		       const char *key, double x, char *err, size_t errlen);

/* Write DIR/plan.json (atomically) from in; -1 with err on any bad input. */
int bisect_planfile_create(const char *dir, const struct bisect_plan_input *in,
			   char *err, size_t errlen);

/* The fields `bisect driver` prints, in order (for bisect.sh's resume). */
struct bisect_driver_fields {
	json_t *plan;		/* owns the strings */
	const char *tree, *good, *bad;
	struct bisect_driver d;
};

/*
 * plan.json at path parsed (a new reference): never through a symlink,
 * only a regular file (a FIFO is refused, not waited on), duplicate keys
 * refused; a parse error names file, line and column, never the file's
 * text. NULL with err.
 */
json_t *bisect_plan_read(const char *path, char *err, size_t errlen);

/*
 * Read and check DIR/plan.json's driver part, after bisect_dir_check()
 * on DIR; -1 with err. boot: the boot driver the command line gave
 * (`bisect driver DIR --boot qemu|kexec`), or NULL. The boot driver is
 * not to be taken from the file for something the command line did not
 * say (a planted "kexec" would reboot the machine): a plan whose
 * driver.boot differs from boot is refused. bisect.sh is to pass --boot
 * on every resume (its kexec unit too); NULL keeps the plan's, for
 * callers that do not yet. config and initrd
 * must be plain paths or names (no control characters, not starting
 * with '-'); initrd, when set, absolute: kexec loads it as given at
 * plan time, the machine's own (it cannot lie in DIR).
 */
int bisect_driver_load(const char *dir, const char *boot,
		       struct bisect_driver_fields *f, char *err,
		       size_t errlen);
void bisect_driver_free(struct bisect_driver_fields *f);

#endif
