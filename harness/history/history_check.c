// SPDX-License-Identifier: GPL-2.0-only
#include "history_check.h"

#include <ctype.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/hash.h"
#include "util/util.h"

void history_check_opts_init(struct history_check_opts *o)
{
	memset(o, 0, sizeof(*o));
	history_window_opts_init(&o->win);
	o->confirm.confidence = 0.95;
	o->confirm.threshold = 0.02;
	o->confirm.power = 0.8;
	o->confirm_nights = 30;
	o->fail_on = HISTORY_FAIL_OPEN;
}

static const char *const fail_on_names[] = {
	[HISTORY_FAIL_OPEN] = "open",
	[HISTORY_FAIL_NEWEST] = "newest",
	[HISTORY_FAIL_REGRESSION] = "regression",
	[HISTORY_FAIL_NONE] = "none",
};

int history_fail_on_parse(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fail_on_names); i++)
		if (!strcmp(s, fail_on_names[i]))
			return (int)i;
	return -1;
}

const char *history_fail_on_name(enum history_fail_on f)
{
	return (size_t)f < ARRAY_SIZE(fail_on_names) ? fail_on_names[f] : "none";
}

const char *hcp_kind_name(enum hcp_kind k)
{
	static const char *const names[] = {
		[HCP_REGRESSION] = "regression",
		[HCP_IMPROVEMENT] = "improvement",
		[HCP_CHANGED] = "changed",
		[HCP_ENVIRONMENT] = "environment change",
		[HCP_REJECTED] = "rejected",
	};

	return (size_t)k < ARRAY_SIZE(names) ? names[k] : "rejected";
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	return true;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* v6.8, v6.8.1, v6.8-rc1 */
static bool version_tag(const char *s)
{
	char *end;

	if (s[0] != 'v' || !isdigit((unsigned char)s[1]))
		return false;
	strtoul(s + 1, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return false;
	strtoul(end + 1, &end, 10);
	if (*end == '.' && isdigit((unsigned char)end[1]))
		strtoul(end + 1, &end, 10);
	if (!strncmp(end, "-rc", 3) && isdigit((unsigned char)end[3]))
		strtoul(end + 3, &end, 10);
	return !*end;
}

bool history_git_rev(const char *s)
{
	size_t n, i;
	const char *g;

	if (!s || !*s || s[0] == '-')
		return false;
	n = strlen(s);
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("._/-", s[i]))
			return false;
	if (n >= 7 && n <= 40 && all_hex(s, n))
		return true;
	g = strrchr(s, '-');
	if (g && g[1] == 'g' && strlen(g + 2) >= 7 && strlen(g + 2) <= 40 &&
	    all_hex(g + 2, strlen(g + 2)))
		return true;
	if (!strncmp(s, "next-", 5) && strlen(s) == 13 && all_digits(s + 5))
		return true;
	return version_tag(s);
}

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}


static char *bisect_line(const struct history_series *s, size_t good_night,
			 size_t bad_night, enum hcp_kind kind)
{
	const char *good = s->nights[good_night].kernel_id;
	const char *bad = s->nights[bad_night].kernel_id;
	char buf[256];

	if (!history_git_rev(good) || !history_git_rev(bad) ||
	    !strcmp(good, bad))
		return NULL;
	if (kind == HCP_REGRESSION)
		snprintf(buf, sizeof(buf), "git bisect start %s %s", bad, good);
	else if (kind == HCP_IMPROVEMENT)
		snprintf(buf, sizeof(buf),
			 "git bisect start --term-old=slow --term-new=fast %s %s",
			 bad, good);
	else
		return NULL;
	return xstrdup(buf);
}

void history_check_series(const struct history_series *s,
			  const struct history_check_opts *o,
			  struct history_result *r)
{
	size_t i, n = 0;

	memset(r, 0, sizeof(*r));
	r->s = s;
	r->better = history_series_better(s);
	r->used = xmalloc((s->n_nights ? s->n_nights : 1) * sizeof(*r->used));
	for (i = 0; i < s->n_nights; i++) {
		if (!isfinite(history_night_mean(&s->nights[i]))) {
			r->n_overflow += s->nights[i].n > 0;
			continue;
		}
		r->used[n++] = i;
	}
	r->n_used = n;
	r->newest = n ? r->used[n - 1] : SIZE_MAX;
	history_window_scan(o, r);
	for (i = 0; i < r->ncp; i++) {
		history_cp_id(s, r->cp[i].night, r->cp[i].id);
		r->cp[i].bisect = bisect_line(s, r->cp[i].good, r->cp[i].night,
					      r->cp[i].kind);
	}
	if (r->ndrift)
		history_drift_id(s, r->drift.from, r->drift.id);
	if (r->watch.present && n >= 2)
		r->watch.bisect = bisect_line(s, r->used[n - 2], r->watch.night,
					      r->watch.kind);
}

struct work {
	const struct history_series *v;
	const struct history_check_opts *o;
	struct history_result *r;
	size_t n;
	atomic_size_t next;
};

static void *worker(void *arg)
{
	struct work *w = arg;
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n)
		history_check_series(&w->v[i], w->o, &w->r[i]);
	return NULL;
}

struct history_result *history_check_all(const struct history_series *v,
					 size_t n,
					 const struct history_check_opts *o)
{
	struct work w = { v, o, xcalloc(n ? n : 1, sizeof(*w.r)), n, 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned t, nt = o->threads ? o->threads : cpus > 0 ? (unsigned)cpus : 1;
	pthread_t *th;

	if (nt > n)
		nt = n ? (unsigned)n : 1;
	th = xcalloc(nt, sizeof(*th));
	for (t = 1; t < nt; t++)
		if (pthread_create(&th[t], NULL, worker, &w)) {
			nt = t;
			break;
		}
	worker(&w);
	for (t = 1; t < nt; t++)
		pthread_join(th[t], NULL);
	free(th);
	return w.r;
}

static void triage_release(struct history_cp_triage *t)
{
	free(t->reason);
	free(t->name);
	free(t->fix);
	free(t->decided);
	memset(t, 0, sizeof(*t));
}

void history_result_release(struct history_result *r)
{
	size_t j;

	for (j = 0; j < r->ncp; j++) {
		free(r->cp[j].bisect);
		triage_release(&r->cp[j].triage);
	}
	triage_release(&r->drift.triage);
	r->ndrift = 0;
	free(r->watch.bisect);
	free(r->watch.conf.text);
	r->watch.conf.text = NULL;
	free(r->cp);
	free(r->used);
	r->cp = NULL;
	r->used = NULL;
	r->watch.bisect = NULL;
	r->ncp = r->n_used = 0;
}

void history_results_free(struct history_result *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++)
		history_result_release(&r[i]);
	free(r);
}

static void pct(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%+.1f%%", v * 100);
	else
		snprintf(buf, len, "n/a");
}

static void night_str(const struct history_series *s, size_t i, char *buf,
		      size_t len)
{
	snprintf(buf, len, "%s", i < s->n_nights ? str_or(s->nights[i].started, "?") : "?");
}

/* What the night values say: "night values +5.0% (p 2e-05 < 0.001, ...)". */
static void night_part(const struct history_night_test *nt, char *buf,
		       size_t len)
{
	char rel[32];

	pct(rel, sizeof(rel), nt->change);
	snprintf(buf, len,
		 "night values %s (p %.2g %s %.2g, %zu vs %zu nights, spread of a night %.3g%s)",
		 rel, nt->p, nt->p < nt->level ? "<" : ">=", nt->level,
		 nt->nights_a, nt->nights_b,
		 nt->log_scale ? nt->sd * 100 : nt->sd, nt->log_scale ? "%" : "");
}

char *history_cp_text(const struct history_result *r,
		      const struct history_cp *cp)
{
	const struct history_series *s = r->s;
	const struct history_night *bad = &s->nights[cp->night];
	const struct history_night *good = &s->nights[cp->good];
	const struct history_confirm *c = &cp->c;
	char rel[32], lo[32], hi[32], mde[128], extra[400] = "", drop[80] = "";
	char nights[200], when[80];
	char *out;
	size_t len;

	pct(rel, sizeof(rel), c->ch.rel);
	pct(lo, sizeof(lo), c->ch.lo);
	pct(hi, sizeof(hi), c->ch.hi);
	if (isfinite(c->mde) && isfinite(c->ch.rel) && fabs(c->ch.rel) < c->mde)
		/* Never "+120.5%" beside "smallest detectable 130.2%" unexplained. */
		snprintf(mde, sizeof(mde),
			 "%.1f%% (this change is smaller: significant all the same, its size uncertain)",
			 c->mde * 100);
	else if (isfinite(c->mde))
		snprintf(mde, sizeof(mde), "%.1f%%", c->mde * 100);
	else
		snprintf(mde, sizeof(mde), "n/a");
	if (cp->kind == HCP_ENVIRONMENT)
		snprintf(extra, sizeof(extra),
			 "; host fingerprint changed (%.12s -> %.12s) and the kernel did not: not blamed on the kernel",
			 str_or(s->nights[cp->host_from].host_fingerprint, "?"),
			 str_or(s->nights[cp->host_to].host_fingerprint, "?"));
	else if (cp->ambiguous)
		snprintf(extra, sizeof(extra),
			 "; kernel and host changed together (fingerprint %.12s -> %.12s within a night of it): ambiguous, the kernel is not cleared",
			 str_or(s->nights[cp->host_from].host_fingerprint, "?"),
			 str_or(s->nights[cp->host_to].host_fingerprint, "?"));
	else if (!cp->kernel_changed)
		snprintf(extra, sizeof(extra),
			 "; kernel unchanged across it (%s)",
			 str_or(bad->kernel_id, "?"));
	if (c->outliers_a + c->outliers_b)
		snprintf(drop, sizeof(drop), ", %zu outlier night%s left out",
			 c->outliers_a + c->outliers_b,
			 c->outliers_a + c->outliers_b == 1 ? "" : "s");
	night_part(&cp->nt, nights, sizeof(nights));
	night_str(s, cp->confirmed_at, when, sizeof(when));
	len = 2048 + strlen(str_or(bad->started, "?")) +
	      2 * strlen(str_or(bad->kernel_id, "?")) +
	      strlen(str_or(good->kernel_id, "?")) + strlen(when);
	out = xmalloc(len);
	snprintf(out, len,
		 "%s at night %s (kernel %s): %s [%s, %s], mean %.6g -> %.6g over %zu vs %zu nights (%zu vs %zu repetitions%s, p %.2g), %s; confirmed on night %s; smallest detectable %s; last good %s, first bad %s%s",
		 hcp_kind_name(cp->kind), str_or(bad->started, "?"),
		 str_or(bad->kernel_id, "?"), rel, lo, hi, c->a.mean, c->b.mean,
		 c->nights_a, c->nights_b, c->na, c->nb, drop, c->p, nights,
		 when, mde, str_or(good->kernel_id, "?"),
		 str_or(bad->kernel_id, "?"), extra);
	return out;
}

/* "confirmation (qemu A vs B, 16 vs 16 runs): regression +x% [lo, hi], p P; ..." */
static char *confirmation_text(const struct history_watch *w)
{
	const struct history_watch_conf *c = &w->conf;
	char rel[32], lo[32], hi[32], buf[2048];
	bool bad = c->verdict == VERDICT_REGRESSION ||
		   c->verdict == VERDICT_CHANGED;

	pct(rel, sizeof(rel), c->change);
	pct(lo, sizeof(lo), c->lo);
	pct(hi, sizeof(hi), c->hi);
	snprintf(buf, sizeof(buf), "confirmation (A B A B, %s, %lld vs %lld runs): %s %s [%s, %s], p %.3g: %s",
		 str_or(c->text, "?"), c->na, c->nb, verdict_name(c->verdict),
		 rel, lo, hi, c->p,
		 bad ? "confirmed: the gate decides on it" :
		       "not confirmed: the watch is cleared");
	return xstrdup(buf);
}

char *history_watch_text(const struct history_result *r)
{
	const struct history_watch *w = &r->watch;
	const struct history_series *s = r->s;
	char nights[200], rel[32], *out;
	const char *k;
	size_t len;

	if (!w->present)
		return NULL;
	pct(rel, sizeof(rel), w->c.ch.rel);
	night_part(&w->nt, nights, sizeof(nights));
	k = w->kind == HCP_REJECTED ? NULL : hcp_kind_name(w->kind);
	len = 1024 + strlen(str_or(s->nights[w->night].started, "?")) +
	      strlen(str_or(s->nights[w->night].kernel_id, "?"));
	out = xmalloc(len);
	snprintf(out, len,
		 "watch: the newest night %s (kernel %s) lies %soutside its segment: %s; its repetitions %s %s (%s): %s",
		 str_or(s->nights[w->night].started, "?"),
		 str_or(s->nights[w->night].kernel_id, "?"),
		 w->strong ? "far " : "", nights,
		 k ? "show" : "do not confirm it:", k ? k : verdict_name(w->c.verdict),
		 rel,
		 w->conf.done ? "the paired run decides" :
		 !k ? "not a change unless the next nights agree" :
		 w->strong && w->kind == HCP_REGRESSION ?
			"fails the gate tonight; the next night confirms it or clears it (one night cannot be told from a wild one)" :
			"confirmed or not by the next night (one night cannot be told from a wild one)");
	if (w->conf.done) {
		char *more = confirmation_text(w);
		size_t l = strlen(out) + strlen(more) + 3;
		char *all = xmalloc(l);

		snprintf(all, l, "%s; %s", out, more);

		free(out);
		free(more);
		out = all;
	}
	return out;
}

void history_drift_id(const struct history_series *s, size_t night,
		      char out[HISTORY_CP_ID_LEN])
{
	char cp[HISTORY_CP_ID_LEN], buf[HISTORY_CP_ID_LEN + 8], hex[HASH_SHA256_HEX];
	int len;

	history_cp_id(s, night, cp);
	len = snprintf(buf, sizeof(buf), "drift:%s", cp);
	if (len < 0 || hash_sha256(buf, (size_t)len, hex))
		tb_die("cannot hash a drift (out of memory?)");
	memcpy(out, hex, HISTORY_CP_ID_LEN - 1);
	out[HISTORY_CP_ID_LEN - 1] = 0;
}

char *history_drift_text(const struct history_result *r)
{
	const struct history_drift *d = &r->drift;
	const struct history_night *n;
	char buf[1024];

	if (!r->ndrift)
		return NULL;
	n = &r->s->nights[d->from];
	/* started and kernel ids are at most 255 bytes each (import) */
	snprintf(buf, sizeof(buf), "drift (%s) from night %s (kernel %s): %+.1f%% over %zu nights (%+.2f%% a night), %.6g -> %.6g, p %.2g; not a step: a slope fits these nights better than any one change",
			hcp_kind_name(d->kind), n->started ? n->started : "?",
			n->kernel_id ? n->kernel_id : "?", d->change * 100,
			d->nights, d->slope * 100, d->level_from, d->level_to,
			d->p);
	return xstrdup(buf);
}
