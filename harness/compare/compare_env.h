/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_env - the environment checks of compare.h, kept apart from the
 * pairing: which differences between two results files (or two paired
 * cases) invalidate an A/B comparison and which are only worth saying.
 */
#ifndef THPBENCH_COMPARE_ENV_H
#define THPBENCH_COMPARE_ENV_H

#include <stdbool.h>

#include "compare.h"

void compare_add_diff(struct comparison *c, const char *what, const char *a,
		      const char *b, bool blocking);
/*
 * Files mode. Blocking (refused without --force): another CPU model, CPU
 * count or architecture, or a THP knob both files have set differently.
 * Reported only: hostname, kernel, kernel config, glibc, memory, NUMA
 * nodes, PMU, root, hugetlb pools at start, and a THP knob only one side
 * has (a patch adding a sysfs knob). modes_set: every paired case set its
 * own THP mode, so the env.thp.enabled found at start does not matter.
 */
void compare_env_check(struct comparison *c, bool modes_set);
/* Per pair: the knobs each case applied must agree (bar the THP mode
 * knob under --by thp). */
void compare_settings_check(struct comparison *c, const struct compare_pair *p);
/* The knob that sets the THP mode, in env.thp or case settings. */
bool compare_is_mode_knob(const char *name);

#endif
