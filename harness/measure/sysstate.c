// SPDX-License-Identifier: GPL-2.0-only
#include "sysstate.h"

#include <string.h>

#include "system/mthp.h"

void sysstate_take(const struct sysstate_spec *spec, struct sysstate *s)
{
	memset(s, 0, sizeof(*s));
	if (spec->mm_root && spec->nmthp)
		mthp_stats_read(spec->mm_root, spec->mthp_kb, spec->nmthp, &s->mthp);
	s->buddy_ok = !buddyinfo_read(spec->buddyinfo, spec->debugfs, &s->buddy);
}

void sysstate_record(const struct sysstate_spec *spec,
		     const struct sysstate *before,
		     const struct sysstate *after, struct metric_set *out)
{
	int orders[MTHP_MAX_SIZES];
	size_t i, n = 0;

	mthp_stats_delta(&before->mthp, &after->mthp, out);
	for (i = 0; i < spec->nmthp && n < MTHP_MAX_SIZES; i++)
		orders[n++] = mthp_order(spec->mthp_kb[i]);
	if (before->buddy_ok)
		buddyinfo_record(&before->buddy, "before", orders, n, out);
	if (after->buddy_ok)
		buddyinfo_record(&after->buddy, "after", orders, n, out);
}

void sysstate_free(struct sysstate *s)
{
	mthp_stats_free(&s->mthp);
	buddyinfo_free(&s->buddy);
}
