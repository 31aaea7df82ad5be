/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_check - the verdicts of a nightly history: the change points of
 * each series (history_window.h: found night by night, confirmed on the
 * night values and on the repetitions, never moved afterwards), with the
 * kernels on either side, what became of them (recovered, triaged:
 * history_gate.h) and the CI gate.
 *
 * Kinds:
 *   regression / improvement   confirmed, by the metric's direction
 *   changed                    confirmed, a neutral metric (a counter)
 *   environment                confirmed, but the host fingerprint changed
 *                              within one night of it and the kernel did
 *                              not: new microcode, a BIOS setting; not
 *                              blamed on the kernel, never gated
 *   rejected                   only for the newest-night watch: its
 *                              repetitions do not show it
 * A confirmed change across which both the kernel and the host changed is
 * `ambiguous`: it keeps the kernel's kind (a regression gates) and says so.
 *
 * Kernels: the last good is the kernel of the last night before the
 * change, the first bad that of its first night; when both look like git
 * revisions (a hex id of 7-40 digits, `git describe` output ending in
 * -g<hex>, a tag like v6.8-rc1 or next-20260101) and differ, a
 * `git bisect start BAD GOOD` line is ready (for an improvement, with
 * --term-old=slow --term-new=fast).
 *
 * Gate (--fail-on, history_gate.h):
 *   open (default)  fails while any confirmed regression is open: not
 *                   recovered to its old level and not triaged; and on a
 *                   newest night that alone is a regression at a tenth
 *                   of the night test's level (a strong watch: a 5x
 *                   slowdown fails tonight, the next night confirms it
 *                   or clears it)
 *   newest          the early warning: tonight's check confirmed a new
 *                   regression, or the newest night alone looks like one
 *                   (the watch) and its repetitions agree
 *   regression      the latest confirmed change is an untriaged regression
 *   none            never fails
 *
 * Nothing is random: the same nights give the same answer, whatever the
 * threads or the other series.
 */
#ifndef THPBENCH_HISTORY_CHECK_H
#define THPBENCH_HISTORY_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "history_confirm.h"
#include "history_series.h"
#include "history_triage.h"
#include "history_window.h"

enum history_fail_on {
	HISTORY_FAIL_OPEN,
	HISTORY_FAIL_NEWEST,
	HISTORY_FAIL_REGRESSION,
	HISTORY_FAIL_NONE,
};

struct history_check_opts {
	struct history_window_opts win;
	struct history_confirm_opts confirm;
	size_t confirm_nights;	/* nights before a change and after it, at most: 30 */
	enum history_fail_on fail_on;
	unsigned threads;	/* 0: one per online CPU */
	const char *origin;	/* --origin of the kcidb format; NULL: "thpbench" */
};

enum hcp_kind {
	HCP_REGRESSION,
	HCP_IMPROVEMENT,
	HCP_CHANGED,
	HCP_ENVIRONMENT,
	HCP_REJECTED,
};

/* A triage decision as it applies to one change point (history_triage.h). */
struct history_cp_triage {
	enum triage_state state;	/* NONE: not triaged (or reopened) */
	char *reason, *name, *fix, *decided;
};

struct history_cp {
	char id[HISTORY_CP_ID_LEN];	/* `history triage ID` */
	size_t night;		/* index of the first night after the change */
	size_t good;		/* index of the last night before it */
	size_t a_from, b_to;	/* nights used: [a_from, night), [night, b_to) */
	size_t confirmed_at;	/* index of the night it was confirmed on */
	struct history_night_test nt;	/* the night values */
	struct history_confirm c;	/* the repetitions */
	enum hcp_kind kind;
	bool kernel_changed;	/* kernel_id differs across the change */
	bool host_changed;	/* fingerprint changed within one night */
	size_t host_from, host_to;	/* ... from night host_from to host_to */
	bool ambiguous;		/* both: kernel or host? */
	char *bisect;		/* "git bisect start ..." or NULL */
	/* What became of it (history_gate.h). */
	bool recovered;		/* a regression whose level came back */
	size_t recovered_at;	/* index of the night that showed it */
	size_t recovered_by;	/* index into the result's cp of the change that did */
	struct history_cp_triage triage;
};

/* The confirmation of a watch: a paired A B A B run of both kernels. */
struct history_watch_conf {
	bool done;		/* one was recorded for this night */
	enum verdict verdict;	/* compare's, B against A */
	double change, lo, hi, p;
	long long na, nb;	/* runs on each side */
	char *text;		/* "qemu KERNEL_A vs KERNEL_B", malloc'ed */
};

/* The newest night alone against its segment: the early warning. */
struct history_watch {
	bool present;		/* tonight lies beyond its segment's nights */
	bool strong;		/* ... at a tenth of the night test's level */
	size_t night, a_from;	/* tonight; its baseline [a_from, night) */
	struct history_night_test nt;
	struct history_confirm c;
	enum hcp_kind kind;	/* what it would be; rejected: repetitions disagree */
	bool kernel_changed, host_changed, ambiguous;	/* as for a change point */
	char *bisect;		/* tonight against the night before, or NULL */
	struct history_watch_conf conf;	/* its paired A/B run (history_confirmation.h) */
};

/*
 * A slow drift of the current segment (history_trend.h): reported once,
 * with where it starts, how far it went and how fast, in place of the
 * staircase of steps a step detector would cut it into.
 */
struct history_drift {
	char id[HISTORY_CP_ID_LEN];	/* `history triage ID`, as a change point's */
	size_t from;		/* index of the night the drift starts at */
	size_t to;		/* index of the newest night it covers */
	size_t nights;		/* nights with values in [from, to] */
	double change;		/* relative, level at `to` against at `from` */
	double slope;		/* relative change a night */
	double p;		/* of the slope (t test, one-sided) */
	double level_from, level_to;	/* the fitted levels (metric's units) */
	enum hcp_kind kind;	/* regression, improvement or changed */
	struct history_cp_triage triage;
};

struct history_result {
	const struct history_series *s;
	enum better better;
	size_t n_used;		/* nights with values */
	size_t n_overflow;	/* nights with values whose mean overflows:
				 * left out, and said (history import refuses
				 * such values now; an older database may
				 * hold them) */
	size_t *used;		/* their indices, oldest first */
	size_t newest;		/* index of the newest night with values */
	struct history_cp *cp;	/* confirmed change points, oldest first */
	size_t ncp;
	struct history_watch watch;
	struct history_drift drift;	/* when ndrift is 1 */
	size_t ndrift;
};

void history_check_opts_init(struct history_check_opts *o);
/* -1 when s names no gate. */
int history_fail_on_parse(const char *s);
const char *history_fail_on_name(enum history_fail_on f);
const char *hcp_kind_name(enum hcp_kind k);

/* Check one series. */
void history_check_series(const struct history_series *s,
			  const struct history_check_opts *o,
			  struct history_result *r);
/* Check v[0..n) (threads per o->threads) into a malloc'ed array. */
struct history_result *history_check_all(const struct history_series *v,
					 size_t n,
					 const struct history_check_opts *o);
void history_result_release(struct history_result *r);	/* members only */
void history_results_free(struct history_result *r, size_t n);

/* Does r fail the gate? (history_gate.c) */
bool history_result_fails(const struct history_result *r,
			  enum history_fail_on f);

/* Whether s looks like a git revision (see above). */
bool history_git_rev(const char *s);

/*
 * One line describing a change point (no newline), e.g.
 * "regression at night 2026-11-20 (kernel abc1234): +5.1% [+4.0%, +6.2%],
 * mean 100 -> 105.1 over 10 vs 8 nights (50 vs 40 repetitions), p 1e-09,
 * smallest detectable 1.2%; last good abc1233, first bad abc1234"
 * malloc'ed.
 */
char *history_cp_text(const struct history_result *r,
		      const struct history_cp *cp);

/* The drift's id: of its first night, in a space apart from change points'. */
void history_drift_id(const struct history_series *s, size_t night,
		      char out[HISTORY_CP_ID_LEN]);

/*
 * r's drift as one line (no newline), malloc'ed, NULL when there is none:
 * "drift (regression) from night 2023-02-10T02:00:00Z (kernel abc): +9.8%
 * over 40 nights (+0.24% a night), 1000 -> 1098, p 1e-12; ..."
 */
char *history_drift_text(const struct history_result *r);

/* The watch as one line (no newline), malloc'ed; NULL when there is none. */
char *history_watch_text(const struct history_result *r);

#endif
