/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf_script - the one reader of `perf script -F comm,tid,ip,sym,dso`
 * output for a profile recorded with call graphs (-g), and what a
 * repetition keeps of it.
 *
 * Input, per sample: a header line that starts in column 0 (comm, tid),
 * then its call chain, leaf first, one frame a line, indented:
 *	"\t<hex ip> <symbol> (<dso>)"
 * and a blank line. The symbol may hold spaces (C++); the dso is the last
 * parenthesised word. A frame whose dso is "[kernel.kallsyms]" (or any
 * "[kernel..." / "[guest.kernel...") is a kernel function.
 *
 * Per function: self (samples whose leaf it is) and total (samples with
 * it anywhere in the chain, once per sample even when recursive). Per
 * distinct stack (root first, "a;b;c"): its count, for folded output
 * (Brendan Gregg's flame-graph input: "a;b;c N" a line; kernel frames
 * suffixed "_[k]" as his stackcollapse-perf does).
 *
 * Hostile input: a line longer than PERF_LINE_MAX, a frame line that is
 * not "<hex> <sym> (<dso>)", or a frame before any header is skipped and
 * counted in bad_lines, never trusted; a chain is cut at PROF_DEPTH_MAX
 * frames; past PROF_STACKS_MAX distinct stacks the rest are counted in
 * one "[other]" stack. Symbols become metric names through
 * prof_metric_name(): anything but [A-Za-z0-9_.$@] turned into '_', cut
 * at PROF_NAME_MAX.
 */
#ifndef THPBENCH_PERF_SCRIPT_H
#define THPBENCH_PERF_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/results.h"

#define PERF_LINE_MAX 4096
#define PROF_DEPTH_MAX 128
#define PROF_STACKS_MAX 20000
#define PROF_NAME_MAX 96

struct prof_fn {
	char *name;		/* the symbol as perf printed it */
	bool kernel;
	unsigned long self, total;
	unsigned long last_sample;	/* de-duplicates recursion in total */
};

struct prof_stack {
	char *folded;		/* root first, ';'-separated */
	unsigned long count;
};

struct prof_data {
	struct prof_fn *fn;
	size_t nfn, capfn;
	struct prof_stack *st;
	size_t nst, capst;
	unsigned long samples, bad_lines, other_stacks;
};

/* Read all of f into pd (zeroed by the caller). 0, or -1 on a read error. */
int perf_script_read(FILE *f, struct prof_data *pd);
void prof_data_free(struct prof_data *pd);

/* The folded stacks, "STACK COUNT\n" each. 0, or -1 on a write error. */
int prof_write_folded(const struct prof_data *pd, FILE *f);

/*
 * The metric name of a function's share: "prof.self.k:move_huge_pmd",
 * "prof.total.u:main" (kind "self" or "total"). Into buf (>= 128 bytes).
 */
void prof_metric_name(char *buf, size_t len, const char *kind, bool kernel,
		      const char *sym);

/*
 * Store the shares (percent of pd->samples) of the functions whose self
 * or total share reaches floor_pct, at most max_fns of them (largest
 * total first), and "prof.samples". Nothing but prof.samples = 0 when
 * there were no samples.
 */
void prof_to_metrics(const struct prof_data *pd, struct metric_set *ms,
		     double floor_pct, size_t max_fns);

/* True for the metric names prof_to_metrics() writes. */
bool prof_is_metric(const char *name);

#endif
