// SPDX-License-Identifier: GPL-2.0-only
/*
 * session_knobs - the knob values of a session's items (session_knobs.h).
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_knobs.h"
#include "util/util.h"

void session_knobs_collect(struct session *ss)
{
	size_t i, j, k;

	for (i = 0; i < ss->plan.n; i++) {
		const struct plan_item *it = &ss->plan.items[i];

		for (j = 0; j < it->nknobs; j++) {
			for (k = 0; k < ss->ntouched; k++)
				if (!strcmp(ss->touched[k], it->knobs[j].key))
					break;
			if (k < ss->ntouched)
				continue;
			ss->touched = xrealloc(ss->touched,
					       (ss->ntouched + 1) * sizeof(char *));
			ss->touched[ss->ntouched++] = it->knobs[j].key;
		}
	}
}

static bool is_pool_knob(const char *knob)
{
	return strstr(knob, "/nr_hugepages") != NULL;
}

/*
 * The largest size any runnable item asks of a hugetlb pool. A pool is
 * reserved once at that size and kept for the whole session: shrinking it
 * between items hands the pages back to the buddy allocator, and memory
 * fresh from there costs far more on first touch (free page reporting in
 * a VM; zeroing on bare metal), which would be measured as clearing.
 */
static const char *pool_size(const struct session *ss, const char *knob)
{
	const char *best = NULL;
	long v, max = -1;
	size_t i, j;

	for (i = 0; i < ss->plan.n; i++) {
		const struct plan_item *it = &ss->plan.items[i];

		for (j = 0; j < it->nknobs && !it->skip; j++)
			if (!strcmp(it->knobs[j].key, knob) &&
			    !parse_long(it->knobs[j].value, &v) && v > max) {
				max = v;
				best = it->knobs[j].value;
			}
	}
	return best;
}

static bool item_names(const struct plan_item *it, const char *knob)
{
	size_t i;

	for (i = 0; i < it->nknobs; i++)
		if (!strcmp(it->knobs[i].key, knob))
			return true;
	return false;
}

/*
 * A pool kept for another item came up short: that is that item's error,
 * reported when it runs; this one goes on with what the kernel gave.
 */
static void note_short_pool(struct session *ss, const char *knob,
			    const char *err)
{
	char cur[64];

	if (settings_read(&ss->settings, knob, cur, sizeof(cur)))
		return;
	if (!ss->pool_got)
		ss->pool_got = json_object();
	json_object_set_new(ss->pool_got, knob, json_string(cur));
	tb_warn("%s; keeping %s at %s for the cases that do not need it", err,
		knob, cur);
}

static const char *wanted_value(const struct session *ss,
				const struct plan_item *it, const char *knob)
{
	const char *pool;
	size_t i;

	if (is_pool_knob(knob) && (pool = pool_size(ss, knob))) {
		const char *got = json_string_value(json_object_get(ss->pool_got,
								    knob));

		/* Once short, a pool is only raised again by its own cases:
		 * shrinking it for the others would lose pages for good. */
		if (got && !item_names(it, knob))
			return NULL;
		return pool;
	}
	for (i = 0; i < it->nknobs; i++)
		if (!strcmp(it->knobs[i].key, knob))
			return it->knobs[i].value;
	return snapshot_get(&ss->settings.orig, knob);
}

/* Bring every knob any case touches to what this item wants. */
int session_knobs_apply(struct session *ss, const struct plan_item *it,
			char *err, size_t errlen)
{
	char cur[256];
	size_t i;

	if (!ss->settings.active)
		return 0;
	for (i = 0; i < ss->ntouched; i++) {
		const char *want = wanted_value(ss, it, ss->touched[i]);

		if (!want)
			continue;
		if (!settings_read(&ss->settings, ss->touched[i], cur,
				   sizeof(cur)) &&
		    !strcmp(cur, want))
			continue;
		if (!settings_apply(&ss->settings, ss->touched[i], want, err, errlen))
			continue;
		if (!is_pool_knob(ss->touched[i]) || item_names(it, ss->touched[i]))
			return -1;
		note_short_pool(ss, ss->touched[i], err);
	}
	return 0;
}

struct want_arg {
	const struct session *ss;
	const struct plan_item *it;
};

static const char *want_for_item(const char *name, void *arg)
{
	const struct want_arg *w = arg;

	return wanted_value(w->ss, w->it, name);
}

/* A workload that changed a knob measured something else: mark the run. */
void session_knobs_check_drift(struct session *ss, const struct plan_item *it,
			       struct tb_run *run)
{
	struct want_arg w = { ss, it };
	char what[1024], why[1200];
	int n = settings_drift(&ss->settings, want_for_item, &w, what,
			       sizeof(what));

	if (!n)
		return;
	snprintf(why, sizeof(why),
		 "the workload changed huge-page settings (%s); put back", what);
	tb_warn("%s: %s", ss->res.cases[it->case_idx].id, why);
	run->settings_changed = true;
	if (run->status == RUN_OK || run->status == RUN_INVALID) {
		run->status = RUN_INVALID;
		free(run->reason);
		run->reason = xstrdup(why);
	}
}
