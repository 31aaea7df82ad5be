// SPDX-License-Identifier: GPL-2.0-only
#include "history_gate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"
#include "util/util.h"

static enum hcp_status status(const struct history_cp *cp, bool triage)
{
	if (cp->kind != HCP_REGRESSION)
		return HCP_STATUS_NONE;
	if (triage) {
		switch (cp->triage.state) {
		case TRIAGE_ACCEPTED:
			return HCP_STATUS_ACCEPTED;
		case TRIAGE_FALSE_ALARM:
			return HCP_STATUS_FALSE_ALARM;
		case TRIAGE_FIXED:
			return HCP_STATUS_FIX_LINKED;
		default:
			break;
		}
	}
	return cp->recovered ? HCP_STATUS_FIXED : HCP_STATUS_OPEN;
}

enum hcp_status history_cp_status(const struct history_cp *cp)
{
	return status(cp, true);
}

const char *hcp_status_name(enum hcp_status s)
{
	static const char *const names[] = {
		[HCP_STATUS_NONE] = "",
		[HCP_STATUS_OPEN] = "open",
		[HCP_STATUS_FIXED] = "fixed",
		[HCP_STATUS_ACCEPTED] = "accepted",
		[HCP_STATUS_FALSE_ALARM] = "false alarm",
		[HCP_STATUS_FIX_LINKED] = "fix linked",
	};

	return (size_t)s < ARRAY_SIZE(names) ? names[s] : "";
}

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/*
 * A decision's texts as shown: each cut to what `history triage` takes
 * (issue 36 small item: a 1 MB name from a hostile database overflowed
 * its report card), "…" where cut.
 */
struct shown {
	char *name, *decided, *fix, *reason;
};

static void shown_init(struct shown *w, const struct history_cp_triage *t)
{
	w->name = utf8_cut_dup(str_or(t->name, "?"), HISTORY_TRIAGE_NAME_MAX);
	w->decided = utf8_cut_dup(str_or(t->decided, "?"), 40);
	w->fix = utf8_cut_dup(t->fix, HISTORY_TRIAGE_TEXT_MAX);
	w->reason = utf8_cut_dup(t->reason, HISTORY_TRIAGE_TEXT_MAX);
}

static void shown_free(struct shown *w)
{
	free(w->name);
	free(w->decided);
	free(w->fix);
	free(w->reason);
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *out;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&out, fmt, ap);
	va_end(ap);
	if (rc < 0)
		tb_die("out of memory");
	return out;
}

char *history_cp_status_text(const struct history_result *r,
			     const struct history_cp *cp,
			     const struct history_check_opts *o)
{
	const struct history_series *s = r->s;
	const struct history_cp_triage *t = &cp->triage;
	enum hcp_status st = history_cp_status(cp);
	char buf[4096];

	switch (st) {
	case HCP_STATUS_OPEN:
		snprintf(buf, sizeof(buf),
			 "open: fails the gate until it comes back or is triaged: thpbench history triage %s --accept --reason WHY --by NAME (or --false-alarm, --fixed-by REF)",
			 cp->id);
		break;
	case HCP_STATUS_FIXED: {
		const struct history_cp *by = &r->cp[cp->recovered_by];

		snprintf(buf, sizeof(buf),
			 "fixed: back within %.3g%% of the level before it on night %s, after the change of night %s (kernel %s)",
			 o->confirm.threshold * 100,
			 str_or(s->nights[cp->recovered_at].started, "?"),
			 str_or(s->nights[by->night].started, "?"),
			 str_or(s->nights[by->night].kernel_id, "?"));
		break;
	}
	case HCP_STATUS_ACCEPTED:
	case HCP_STATUS_FALSE_ALARM:
	case HCP_STATUS_FIX_LINKED: {
		struct shown w;
		char *out;

		shown_init(&w, t);
		out = xasprintf("%s by %s on %s%s%s%s%s", hcp_status_name(st),
				w.name, w.decided, w.fix ? ": fix " : "",
				w.fix ? w.fix : "", w.reason ? ": " : "",
				w.reason ? w.reason : "");
		shown_free(&w);
		return out;
	}
	default:
		return NULL;
	}
	return xstrdup(buf);
}

static size_t count_open(const struct history_result *r, bool triage)
{
	size_t i, n = 0;

	for (i = 0; i < r->ncp; i++)
		n += status(&r->cp[i], triage) == HCP_STATUS_OPEN;
	return n;
}

size_t history_open_regressions(const struct history_result *r)
{
	return count_open(r, true);
}

static bool newest_new(const struct history_result *r, bool triage)
{
	size_t i;

	for (i = 0; i < r->ncp; i++)
		if (r->cp[i].confirmed_at == r->newest &&
		    status(&r->cp[i], triage) == HCP_STATUS_OPEN)
			return true;
	return false;
}

bool history_newest_new(const struct history_result *r)
{
	return newest_new(r, true);
}

/* The latest confirmed change that is not the host's is an open regression. */
static bool latest_regression(const struct history_result *r, bool triage)
{
	size_t i;

	for (i = r->ncp; i-- > 0;) {
		const struct history_cp *cp = &r->cp[i];

		if (cp->kind == HCP_REJECTED || cp->kind == HCP_ENVIRONMENT)
			continue;
		return status(cp, triage) == HCP_STATUS_OPEN;
	}
	return false;
}

/* A regression drift of the current segment, untriaged (history_trend.h). */
static bool drift_open(const struct history_result *r, bool triage)
{
	if (triage)
		return history_drift_open(r);
	return r->ndrift && r->drift.kind == HCP_REGRESSION;
}

/*
 * The watch: once confirmed by a paired A/B run (history_confirmation.h),
 * its verdict decides: a regression, or a change of a neutral metric (a
 * counter the kernel moved, in the same session), fails; anything else
 * clears it. Unconfirmed, a regression fails under open only when strong.
 */
static bool watch_fails(const struct history_result *r, bool need_strong)
{
	const struct history_watch *w = &r->watch;

	if (!w->present)
		return false;
	if (w->conf.done)
		return w->conf.verdict == VERDICT_REGRESSION ||
		       (w->conf.verdict == VERDICT_CHANGED &&
			r->better == BETTER_NEUTRAL);
	return (!need_strong || w->strong) && w->kind == HCP_REGRESSION;
}

static bool fails(const struct history_result *r, enum history_fail_on f,
		  bool triage)
{
	switch (f) {
	case HISTORY_FAIL_OPEN:
		return count_open(r, triage) > 0 || drift_open(r, triage) ||
		       watch_fails(r, true);
	case HISTORY_FAIL_NEWEST:
		return newest_new(r, triage) || watch_fails(r, false);
	case HISTORY_FAIL_REGRESSION:
		return latest_regression(r, triage) || drift_open(r, triage);
	default:
		return false;
	}
}

bool history_result_fails(const struct history_result *r,
			  enum history_fail_on f)
{
	return fails(r, f, true);
}

bool history_result_skipped(const struct history_result *r,
			    enum history_fail_on f, char **why)
{
	size_t i, len = 0;
	char *out = NULL;

	*why = NULL;
	if (fails(r, f, true) || !fails(r, f, false))
		return false;
	for (i = 0; i < r->ncp; i++) {
		const struct history_cp *cp = &r->cp[i];
		const struct history_cp_triage *t = &cp->triage;
		enum hcp_status st = history_cp_status(cp);
		struct shown w;
		char *one;
		size_t l;

		if (st != HCP_STATUS_ACCEPTED && st != HCP_STATUS_FALSE_ALARM &&
		    st != HCP_STATUS_FIX_LINKED)
			continue;
		shown_init(&w, t);
		one = xasprintf("%s%s %s by %s%s%s%s%s", out ? "; " : "", cp->id,
				hcp_status_name(st), w.name, w.fix ? ", fix " : "",
				w.fix ? w.fix : "", w.reason ? ": " : "",
				w.reason ? w.reason : "");
		shown_free(&w);
		l = strlen(one);
		out = xrealloc(out, len + l + 1);
		memcpy(out + len, one, l + 1);
		len += l;
		free(one);
	}
	*why = out ? out : xstrdup("triaged");
	return true;
}

static int cmp_triage(const void *a, const void *b)
{
	return strcmp(((const struct history_triage *)a)->cp_id,
		      ((const struct history_triage *)b)->cp_id);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void history_triage_apply(struct history_result *r, size_t n,
			  const struct history_triage *t, size_t nt)
{
	struct history_triage *v, key;
	size_t i, j;

	if (!nt)
		return;
	/* Sorted copies of the pointers' targets: bsearch by id. */
	v = xmalloc(nt * sizeof(*v));
	memcpy(v, t, nt * sizeof(*v));
	qsort(v, nt, sizeof(*v), cmp_triage);
	memset(&key, 0, sizeof(key));
	for (i = 0; i < n; i++)
		for (j = 0; j < r[i].ncp; j++) {
			struct history_cp *cp = &r[i].cp[j];
			const struct history_triage *hit;

			key.cp_id = cp->id;
			hit = bsearch(&key, v, nt, sizeof(*v), cmp_triage);
			if (!hit || hit->state == TRIAGE_REOPENED ||
			    hit->state == TRIAGE_NONE)
				continue;
			cp->triage.state = hit->state;
			cp->triage.reason = dup_or_null(hit->reason);
			cp->triage.name = dup_or_null(hit->name);
			cp->triage.fix = dup_or_null(hit->fix);
			cp->triage.decided = dup_or_null(hit->decided);
		}
	for (i = 0; i < n; i++) {
		struct history_cp_triage *dt = &r[i].drift.triage;
		const struct history_triage *hit;

		if (!r[i].ndrift)
			continue;
		key.cp_id = r[i].drift.id;
		hit = bsearch(&key, v, nt, sizeof(*v), cmp_triage);
		if (!hit || hit->state == TRIAGE_REOPENED ||
		    hit->state == TRIAGE_NONE)
			continue;
		dt->state = hit->state;
		dt->reason = dup_or_null(hit->reason);
		dt->name = dup_or_null(hit->name);
		dt->fix = dup_or_null(hit->fix);
		dt->decided = dup_or_null(hit->decided);
	}
	free(v);
}

bool history_drift_open(const struct history_result *r)
{
	if (!r->ndrift || r->drift.kind != HCP_REGRESSION)
		return false;
	switch (r->drift.triage.state) {
	case TRIAGE_ACCEPTED:
	case TRIAGE_FALSE_ALARM:
	case TRIAGE_FIXED:
		return false;
	default:
		return true;
	}
}
