/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session_knobs - what each knob reads while an item of a session runs,
 * and the check that the workload left them so.
 *
 * Every knob any item sets is brought, before each repetition, to what
 * that item wants: its own value, else the snapshot's (so one item's
 * settings never leak into the next). A hugetlb pool size is the
 * exception: it is reserved once at the largest size any runnable item
 * asks and kept for the whole session, since shrinking it between items
 * hands the pages back to the buddy allocator, and memory fresh from
 * there costs far more on first touch (free page reporting in a VM;
 * zeroing on bare metal), which would be measured as clearing. A pool
 * the kernel fills only in part is the error of the items that name it;
 * the others go on with what it gave, and it is raised again only for
 * its own items (shrinking it would lose pages for good).
 */
#ifndef THPBENCH_SESSION_KNOBS_H
#define THPBENCH_SESSION_KNOBS_H

#include <stddef.h>

#include "plan.h"
#include "results/results.h"
#include "session.h"

/* ss->touched: every knob any item of ss->plan sets, once each. */
void session_knobs_collect(struct session *ss);

/*
 * Bring every touched knob to what it wants (nothing when the settings
 * are not active). 0, or -1 with err set when a knob of its own would
 * not take; a shared pool that came up short is warned about, noted in
 * ss->pool_got, and not an error here.
 */
int session_knobs_apply(struct session *ss, const struct plan_item *it,
			char *err, size_t errlen);

/*
 * After a repetition: a workload that changed a knob measured something
 * else. Each such knob is put back, warned about, run->settings_changed
 * set, and an OK or invalid run marked invalid with the knobs named.
 */
void session_knobs_check_drift(struct session *ss, const struct plan_item *it,
			       struct tb_run *run);

#endif
