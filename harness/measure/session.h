/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session - one `thpbench run`: a suite (or a bare command) measured
 * from the first knob changed to the last one put back.
 *
 * Contract, in this order (each step only after the one before it):
 *   session_load()   read the suite (or make a one-case suite of a bare
 *                    command, like perf stat), parse its events, resolve
 *                    the order and the seed. Changes nothing on the
 *                    machine; 0, or -1 with err set.
 *   session_catch_signals()  optional: SIGINT, SIGTERM and SIGHUP stop
 *                    the session (the repetition under way is aborted,
 *                    no new one starts, a wait for the lock gives up);
 *                    SIGPIPE is ignored.
 *   session_begin()  take the settings lock and snapshot the knobs (when
 *                    they can be written here: root and a writable
 *                    tree; else only the current THP mode runs, said on
 *                    stderr), collect the environment, build the plan
 *                    (skipped and not measurable cases said on stderr),
 *                    open the results directory and its results.jsonl.
 *                    0, or -1 with err set (the caller exits; the
 *                    settings guard puts back what was changed).
 *   session_run()    the warm-ups, then the rounds in the session's order
 *                    (interleave A B A B, shuffle within each round with
 *                    the recorded seed, or sequential); each repetition
 *                    brings every knob any case touches to what its item
 *                    wants, prepares the memory state, runs, checks the
 *                    knobs did not drift and appends to results.jsonl.
 *   session_end()    put the knobs back and release the lock; 0, or -1
 *                    when a knob would not go back (said on stderr).
 *   session_save()   when there is a results directory: write
 *                    results.json and remove results.jsonl (which it
 *                    holds all of); 0, or -1 with err set, results.jsonl
 *                    then kept with the repetitions completed.
 *   session_free()   always, last.
 *
 * The pool sizes and the per-item knob values: session_knobs.h.
 */
#ifndef THPBENCH_SESSION_H
#define THPBENCH_SESSION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "axes.h"
#include "events.h"
#include "plan.h"
#include "progress.h"
#include "profile.h"
#include "kgcov.h"
#include "results/results.h"
#include "results/store_log.h"
#include "suite.h"
#include "system/mthp.h"
#include "system/settings.h"

struct session_opts {
	const char *suite_path;	/* or cmd */
	char **cmd;		/* `run -- COMMAND ARGS...` */
	int ncmd;
	const char *outdir;	/* NULL: results/SUITE-STAMP, none for a cmd */
	const char *events;	/* NULL: the suite's */
	const char *thp;	/* --thp list; NULL: the suite's */
	const char *label;
	const char *machine;	/* meta.machine, for the history */
	const char *order;	/* NULL: the suite's */
	const char *sysfs_root;	/* NULL: settings_init's default */
	const char *kernel_id;	/* meta.kernel_id, for the history */
	int reps, warmup;	/* -1: the suite's */
	bool background;	/* idle intervals for coverage (background.h); or the suite's */
	const char *profile;	/* task|system|off (profile.h); NULL: the suite's */
	bool profile_keep;	/* keep each repetition's perf.data */
	long profile_freq;	/* samples a second (perf -F); 0: PROFILE_FREQ */
	const char *kernel_gcov;	/* gcov tree root (kgcov.h); NULL: off */
	double timeout_s;	/* < 0: the suite's */
	double wait_s;		/* for the settings lock: 0 no, < 0 for ever */
	unsigned long seed;
	bool seed_set;		/* else the suite's, else the time */
	enum progress_mode progress;
	struct axes axes;	/* --mthp, --mthp-shmem, --memory-state, --fragment-share */
	int argc;		/* meta.command: "thpbench" and these */
	char **argv;
	/* Called once the environment is collected, before the plan and
	 * before results.jsonl's header is written: may add to env. */
	void (*on_env)(const struct suite *s, json_t *env);
	/* Where the settings code's messages go (settings_say.h; fn NULL:
	 * stderr). */
	struct settings_sink say;
};

struct session {
	const struct session_opts *o;
	struct suite suite;
	const char *order;	/* interleave, shuffle or sequential */
	unsigned long seed;
	struct plan_opts po;
	struct plan plan;
	struct tb_results res;
	struct settings_ctx settings;
	struct event_spec *evs;
	size_t nevs;
	char **touched;		/* every knob any item sets */
	size_t ntouched;
	json_t *pool_got;	/* pool knob -> what the kernel gave, when short */
	struct mthp_size mthp_sizes[MTHP_MAX_SIZES];	/* what this kernel offers */
	char *outdir;		/* NULL: no results directory */
	char logdir[4096];	/* outdir/logs: each case's output */
	struct store_log log;	/* results.jsonl: each repetition as it ends */
	long seq;
	struct progress prog;
	struct profile_spec prof;	/* mode PROFILE_OFF: none */
	struct kgcov kg;	/* --kernel-gcov; root NULL: off */
};

int session_load(struct session *ss, const struct session_opts *o,
		 char *err, size_t errlen);
void session_catch_signals(void);
int session_begin(struct session *ss, char *err, size_t errlen);
void session_run(struct session *ss);
int session_end(struct session *ss);
int session_save(struct session *ss, char *err, size_t errlen);
void session_free(struct session *ss);

/* A stop signal arrived (session_catch_signals). */
bool session_stopped(void);
/* Repetitions measured OK, over all cases. */
size_t session_ok_runs(const struct session *ss);

#endif
