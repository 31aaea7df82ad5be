/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plan - a suite (or a bare command) expanded into what will run: one
 * item per case x mTHP choice x memory state x THP mode (axes.h), with
 * the knobs it needs, the resolved executable, its repetitions, and
 * whether it must be skipped here (not root and a mode other than the
 * current one, say). A case that needs what this host lacks (a hugetlb
 * pool of a size it does not have: 1 GiB pages on a CPU without pdpe1gb;
 * an mTHP size the kernel does not offer) is "not measurable here": never
 * run, the cause recorded in the case's extra.unsupported, not an error.
 *
 * Workload names without a '/' are looked up in $THPBENCH_WORKLOADS, then
 * ../workloads next to the thpbench binary, then ./workloads, then PATH.
 */
#ifndef THPBENCH_PLAN_H
#define THPBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "axes.h"
#include "results/results.h"
#include "suite.h"
#include "system/mthp.h"

struct plan_item {
	size_t case_idx;	/* index into tb_results.cases */
	const struct suite_case *sc;
	struct kv *knobs;	/* THP mode, mTHP sizes and the case's "set"s */
	size_t nknobs;
	char *path;		/* executable */
	char **argv;		/* NULL-terminated */
	int reps, warmup;
	double timeout_s;
	bool expect_huge;
	char *skip;		/* why it is skipped; NULL when it runs */
	bool unsupported;	/* skipped: this host lacks what it needs */
	bool has_mthp;		/* an mTHP choice is one of its dimensions */
	struct mthp_choice mthp;
	bool has_mem;		/* a memory state is one of its dimensions */
	enum mem_state mem;
	double fragment_share;	/* for MEM_FRAGMENTED */
};

struct plan {
	struct plan_item *items;
	size_t n, cap;
};

struct plan_opts {
	char **thp_override;	/* --thp; NULL: the suite's */
	size_t nthp_override;
	int reps, warmup;	/* -1: the suite's */
	double timeout_s;	/* <0: the suite's */
	const char *label;	/* --label; NULL: the case's */
	const char *current_thp;	/* THP enabled as found */
	bool can_write;		/* knobs can be changed here */
	const char *sysfs_root;	/* mm sysfs root: which hugetlb pools exist */
	const char *proc_root;	/* /proc (cpuinfo: why a pool is missing) */
	const struct axes *axes;	/* --mthp, --memory-state ...; NULL: none */
	bool stop_proactive;	/* fragmented cases set SYSCTL_PROACTIVENESS
				 * to 0 (it is writable here) */
	const struct mthp_size *mthp_sizes;	/* what this kernel offers */
	size_t nmthp_sizes;
};

/* Expand s into plan and the (still run-less) cases of r. */
void plan_build(const struct suite *s, const struct plan_opts *o,
		struct plan *plan, struct tb_results *r);
/* Resolve a workload name to an executable path (malloc'd). */
char *workload_path(const char *name);
void plan_free(struct plan *plan);

#endif
