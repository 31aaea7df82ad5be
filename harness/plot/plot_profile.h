/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_profile - the profile chart of one compared pair (STEM-profile):
 * the functions whose self share of the samples moved most between the
 * two sides (compare/compare_profile.h, the rows of "where the time
 * went"), one group per function, A (outlined) and B (filled) side by
 * side, each a bar at its mean share in % with its interval as a whisker;
 * a side on which the function has no sample is no bar and is labelled
 * "absent", never drawn as 0 +- 0. Each function's label gives B - A in
 * points and the adjusted p, as the table does. Nothing when neither side
 * was profiled. STEM.dat: one row per function.
 */
#ifndef THPBENCH_PLOT_PROFILE_H
#define THPBENCH_PLOT_PROFILE_H

#include <stddef.h>

#include "compare/compare.h"
#include "plot_set.h"

/* DIR/STEM.gp, .dat (and images) for pair p; 0 also when nothing is
 * charted; -1 with err set. */
int plot_profile_chart(const struct comparison *c, const struct compare_pair *p,
		       const char *dir, const char *stem, struct plot_set *ps,
		       char *err, size_t errlen);

#endif
