/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results - the in-memory model of a results file (DESIGN.md "Results
 * file"): the environment, the cases, every raw repetition.
 *
 * The runner fills it, store.c writes and loads it, compare/plot/report
 * read it. Summaries are never stored here: they are derived (stats.h).
 * A metric that could not be measured is not in `metrics` but in
 * `unsupported` with its reason; it is never a 0.
 */
#ifndef THPBENCH_RESULTS_H
#define THPBENCH_RESULTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define RESULTS_SCHEMA "thpbench-results/1"

struct metric {
	char *name;
	double value;
};

/*
 * A run's metrics in the order they were put. A run holds some hundreds
 * (vmstat, buddyinfo, mTHP stats), each put once per repetition: a name
 * is found through an open-addressing index (slot[] holds 1 + its position
 * in v), built once a set has METRIC_INDEX_MIN names, so that a
 * repetition's puts are not a quadratic series of strcmp (8% of the
 * harness's time on /bin/true). Change a set through these functions only.
 */
#define METRIC_INDEX_MIN 16
struct metric_set {
	struct metric *v;
	size_t n, cap;
	size_t *slot;		/* NULL below METRIC_INDEX_MIN */
	size_t nslot;		/* a power of two, > 2 * n */
};

/* Add, or replace the value of, the metric called name. */
void metric_set_put(struct metric_set *ms, const char *name, double value);
/* Add value to the metric (creating it at 0). */
void metric_set_add(struct metric_set *ms, const char *name, double value);
const struct metric *metric_set_find(const struct metric_set *ms,
				     const char *name);
void metric_set_free(struct metric_set *ms);

/* A (name, reason) pair: an event that could not be counted, and why. */
struct note {
	char *name;
	char *reason;
};

struct note_set {
	struct note *v;
	size_t n, cap;
};

/* Add (name, reason) unless name is already there. */
void note_set_put(struct note_set *ns, const char *name, const char *reason);
const struct note *note_set_find(const struct note_set *ns, const char *name);
void note_set_free(struct note_set *ns);

enum run_status {
	RUN_OK,
	RUN_FAILED,	/* exited non-zero */
	RUN_SIGNALED,	/* killed by a signal it did not expect */
	RUN_TIMEOUT,	/* killed by the harness after the case's timeout */
	RUN_INVALID,	/* ran, but the measurement is not what was asked (no THP) */
	RUN_ERROR,	/* could not be started */
};

/* A share at or above this is "not multiplexed" (time readings differ
 * by a hair even then). */
#define COUNTED_FULL_PCT 99.5
/* Below this share a scaled value extrapolates from a small part of the
 * run: the summary and compare warn (perf prints the share only). */
#define COUNTED_WARN_PCT 25.0

const char *run_status_name(enum run_status st);
/* -1 when s names no status. */
int run_status_parse(const char *s);

struct tb_run {
	enum run_status status;
	char *reason;		/* why not ok; NULL when ok */
	int exit_code;		/* -1 when signalled or never started */
	int signal;		/* 0 unless signalled */
	bool roi;		/* the workload marked a region of interest */
	int huge;		/* 1 huge-page backed, 0 none seen, -1 unknown */
	long seq;		/* order of execution within the whole run */
	int leftover;		/* processes it left running, killed (leftover_processes) */
	bool settings_changed;	/* the workload changed a THP/hugetlb knob */
	struct metric_set metrics;
	/* Per event, the share of its enabled time it was counting (100 unless
	 * the PMU multiplexed it; the value was scaled up by enabled/running,
	 * as perf stat does). An event that never ran has no value and no
	 * share: it is in `unsupported` as "<not counted>: ...". */
	struct metric_set counted_pct;
	struct note_set unsupported;
};

struct tb_case {
	char *id;		/* "mremap/thp=always", unique in a file */
	char *name;		/* the suite's case name ("mremap") */
	char *workload;		/* program name or path */
	char **args;
	size_t nargs;
	char **env;		/* "KEY=VALUE" added to the workload's environment */
	size_t nenv;
	char *thp;		/* THP enabled mode asked for; "" = left as found */
	/* The case's other dimensions (measure/axes.h), name -> value strings:
	 * {"mthp": "64K", "mem": "fragmented"}; NULL when it has none. */
	json_t *dims;
	char *label;		/* "base", a kernel name, a tunable value... */
	bool expect_huge;	/* the case is meant to be huge-page backed */
	json_t *settings;	/* knob -> value applied for this case (object) */
	json_t *extra;		/* anything else the suite attached (object or NULL) */
	struct tb_run *runs;
	size_t nruns, cap;
};

struct tb_results {
	json_t *env;		/* environment object (env.h), owned */
	json_t *meta;		/* suite name, command line, seed, order..., owned */
	struct tb_case *cases;
	size_t ncases, cap;
};

struct tb_case *results_add_case(struct tb_results *r);
struct tb_run *case_add_run(struct tb_case *c);
struct tb_case *results_find_case(const struct tb_results *r, const char *id);
/* Values of metric `name` over the case's runs with status RUN_OK. */
size_t case_metric_values(const struct tb_case *c, const char *name,
			  double *out, size_t max);
/*
 * Sorted, de-duplicated union of the metric names of the case's runs.
 * The strings belong to the runs: free(*names) only.
 */
size_t case_metric_names(const struct tb_case *c, char ***names);
size_t case_ok_runs(const struct tb_case *c);
void results_free(struct tb_results *r);

/* n strings as a JSON array of strings (args, env, notes). */
json_t *strv_to_json(char **v, size_t n);

#endif
