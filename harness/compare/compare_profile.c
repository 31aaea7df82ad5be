// SPDX-License-Identifier: GPL-2.0-only
#include "compare_profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_email.h"
#include "compare_format.h"
#include "util/util.h"

#define SELF "prof.self."
#define FLOOR_PCT 0.5
#define MAX_RUNS 4096

static bool is_self(const char *name)
{
	return !strncmp(name, SELF, strlen(SELF)) && name[strlen(SELF)] &&
	       name[strlen(SELF) + 1] == ':';
}

/* "prof.self.k:move_huge_pmd" -> "[k] move_huge_pmd" (perf report's marks). */
static void display(const char *metric, char *buf, size_t len)
{
	char kind = metric[strlen(SELF)];

	snprintf(buf, len, "[%s] %s", kind == 'k' ? "k" : ".",
		 metric + strlen(SELF) + 2);
}

/*
 * d's event and rate from r's meta.profile; false when r has none. The
 * event is printed in reports: only perf's event-name characters.
 */
static bool event_of(const struct tb_results *r, struct profile_diff *d)
{
	const json_t *p = r && r->meta ? json_object_get(r->meta, "profile") : NULL;
	const char *e = json_string_value(json_object_get(p, "event"));
	json_int_t hz = json_integer_value(json_object_get(p, "freq"));

	if (!e)
		return false;
	if (!*e || strspn(e, "abcdefghijklmnopqrstuvwxyz0123456789-_:/=,") != strlen(e))
		e = "?";
	snprintf(d->event, sizeof(d->event), "%s", e);
	d->freq = hz > 0 ? (long)hz : 0;
	return true;
}

/* "cpu-clock samples" or "cpu-clock samples at 4000 Hz". */
static const char *samples_of(const struct profile_diff *d, char *buf, size_t len)
{
	if (d->freq)
		snprintf(buf, len, "%s samples at %ld Hz", d->event, d->freq);
	else
		snprintf(buf, len, "%s samples", d->event);
	return buf;
}

/* The summary and mean interval of a metric a case has on its own. */
static void side_of(const struct tb_case *c, const char *name, double conf,
		    struct summary *s, double *lo, double *hi)
{
	double *v = xcalloc(MAX_RUNS, sizeof(*v));
	size_t n = case_metric_values(c, name, v, MAX_RUNS);

	stats_summary(v, n, s);
	*lo = *hi = s->mean;
	if (n >= 2)
		stats_ci_mean(s, conf, lo, hi);
	free(v);
}

static double order_key(const struct profile_row *r)
{
	if (r->absent_a)
		return r->b.mean;
	if (r->absent_b)
		return r->a.mean;
	return fabs(r->diff);
}

/*
 * Put el at index at of arr (*n elements of size, cap at most, largest
 * first): those after it move down, the last falls out when full; an
 * index past cap keeps nothing. The rows and the "only in" lists both.
 */
static void ranked_insert(void *arr, size_t *n, size_t cap, size_t size,
			  size_t at, const void *el)
{
	char *a = arr;

	if (at >= cap)
		return;
	if (*n < cap)
		(*n)++;
	memmove(a + (at + 1) * size, a + at * size, (*n - 1 - at) * size);
	memcpy(a + at * size, el, size);
}

static void keep_row(struct profile_diff *d, const struct profile_row *r)
{
	size_t at = 0;

	if (r->absent_a ? r->b.mean < FLOOR_PCT :
	    r->absent_b ? r->a.mean < FLOOR_PCT :
	    (r->a.mean < FLOOR_PCT && r->b.mean < FLOOR_PCT))
		return;
	while (at < d->n && order_key(r) <= order_key(&d->rows[at]))
		at++;
	ranked_insert(d->rows, &d->n, PROFILE_ROWS, sizeof(*r), at, r);
}

static void both_row(const struct comparison *c, const struct compare_metric *m,
		     size_t k, struct profile_diff *d)
{
	double alpha = 1 - c->opts.confidence;
	struct profile_row r = { .a = m->a.s, .b = m->b.s };
	struct welch w;

	display(m->name, r.name, sizeof(r.name));
	r.a_lo = m->a.ci_lo, r.a_hi = m->a.ci_hi;
	r.b_lo = m->b.ci_lo, r.b_hi = m->b.ci_hi;
	r.diff = m->b.s.mean - m->a.s.mean;
	r.lo = r.hi = r.diff;
	r.p = NAN;
	if (!welch_test(&m->a.s, &m->b.s, 1 - alpha / (double)k, &w)) {
		r.lo = w.ci_lo;
		r.hi = w.ci_hi;
		r.p = fmin(1, w.p * (double)k);
		r.significant = r.p < alpha;
	}
	keep_row(d, &r);
}

static void absent_rows(const struct comparison *c, const struct tb_case *has,
			char **names, size_t n, bool absent_b,
			struct profile_diff *d)
{
	struct profile_row r;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!is_self(names[i]))
			continue;
		memset(&r, 0, sizeof(r));
		display(names[i], r.name, sizeof(r.name));
		r.absent_a = !absent_b;
		r.absent_b = absent_b;
		r.p = NAN;
		if (absent_b)
			side_of(has, names[i], c->opts.confidence, &r.a, &r.a_lo, &r.a_hi);
		else
			side_of(has, names[i], c->opts.confidence, &r.b, &r.b_lo, &r.b_hi);
		keep_row(d, &r);
	}
}

/* The pair of c->prof that ran what p ran (the same title). */
static const struct compare_pair *prof_pair(const struct comparison *c,
					    const struct compare_pair *p)
{
	size_t i;

	for (i = 0; i < c->prof->npairs; i++)
		if (!strcmp(c->prof->pairs[i].title, p->title))
			return &c->prof->pairs[i];
	return NULL;
}

int compare_attach_profile(struct comparison *c, const struct tb_results *pa,
			   const struct tb_results *pb, char *err, size_t errlen)
{
	struct compare_opts o = c->opts;
	char why[900];

	o.metrics = NULL;	/* --metric selects the main tables' rows */
	o.nmetrics = 0;
	c->prof = xcalloc(1, sizeof(*c->prof));
	if (!compare_build(c->prof, pa, pb, &o, why, sizeof(why)))
		return 0;
	snprintf(err, errlen, "the profiles' files: %s", why);
	compare_free(c->prof);
	free(c->prof);
	c->prof = NULL;
	return -1;
}

static bool in_rows(const struct profile_diff *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->rows[i].name, name))
			return true;
	return false;
}

/* Keep o in the side's list (*n of them, by mean), if among the largest. */
static void keep_only(struct profile_only *list, size_t *n,
		      const struct profile_only *o)
{
	size_t at = 0;

	while (at < *n && o->mean <= list[at].mean)
		at++;
	ranked_insert(list, n, PROFILE_ONLY, sizeof(*o), at, o);
}

/* The functions of names (one side's only) the rows do not show. */
static void only_list(const struct tb_case *has, char **names, size_t n,
		      struct profile_only *list, size_t *nl,
		      const struct profile_diff *d)
{
	double *v = xcalloc(MAX_RUNS, sizeof(*v));
	struct profile_only o;
	struct summary s;
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (!is_self(names[i]))
			continue;
		memset(&o, 0, sizeof(o));
		display(names[i], o.name, sizeof(o.name));
		if (in_rows(d, o.name))
			continue;
		o.reps = case_metric_values(has, names[i], v, MAX_RUNS);
		for (k = 0; k < o.reps; k++)
			o.seen += v[k] > 0;
		stats_summary(v, o.reps, &s);
		o.mean = s.mean;
		if (o.seen)
			keep_only(list, nl, &o);
	}
	free(v);
}

bool compare_profile_build(const struct comparison *c,
			   const struct compare_pair *p, struct profile_diff *d)
{
	size_t i, k = 0;

	memset(d, 0, sizeof(*d));
	if (c->prof) {
		const struct compare_pair *q = prof_pair(c, p);

		return q && compare_profile_build(c->prof, q, d);
	}
	if (!event_of(c->ra, d))
		event_of(c->rb, d);
	for (i = 0; i < p->nm; i++)
		if (is_self(p->m[i].name))
			k++;
	for (i = 0; i < p->nonly_a; i++)
		if (is_self(p->only_a[i]))
			break;
	if (!k && i == p->nonly_a) {
		for (i = 0; i < p->nonly_b; i++)
			if (is_self(p->only_b[i]))
				break;
		if (i == p->nonly_b)
			return false;
	}
	d->family = k;
	for (i = 0; i < p->nm; i++)
		if (is_self(p->m[i].name))
			both_row(c, &p->m[i], k, d);
	absent_rows(c, p->a, p->only_a, p->nonly_a, true, d);
	absent_rows(c, p->b, p->only_b, p->nonly_b, false, d);
	only_list(p->a, p->only_a, p->nonly_a, d->only_a, &d->nonly_a, d);
	only_list(p->b, p->only_b, p->nonly_b, d->only_b, &d->nonly_b, d);
	if (!d->event[0])
		snprintf(d->event, sizeof(d->event), "?");
	return true;
}

static const char *share(const struct summary *s, bool absent, char *buf,
			 size_t len)
{
	if (absent)
		return "absent";
	snprintf(buf, len, "%.1f", s->mean);
	return buf;
}

static void interval_of(const struct profile_row *r, char *buf, size_t len)
{
	if (r->absent_a)
		snprintf(buf, len, "[%.1f, %.1f]", r->b_lo, r->b_hi);
	else if (r->absent_b)
		snprintf(buf, len, "[%.1f, %.1f]", r->a_lo, r->a_hi);
	else if (isnan(r->p))
		snprintf(buf, len, "%+.1f", r->diff);
	else
		snprintf(buf, len, "%+.1f [%+.1f, %+.1f]", r->diff, r->lo, r->hi);
}

/* "only in A (no sample in B): [k] f 0.3% (1 of 15 reps), ..." */
static void print_only(FILE *out, const char *ind, const char *side,
		       const char *other, const struct profile_only *list,
		       size_t n)
{
	char buf[1400];
	size_t i, len;

	if (!n)
		return;
	len = (size_t)snprintf(buf, sizeof(buf), "only in %s (no sample in %s):",
			       side, other);
	for (i = 0; i < n && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"%s %.60s %.1f%% (%zu of %zu reps)",
					i ? "," : "", list[i].name, list[i].mean,
					list[i].seen, list[i].reps);
	compare_email_wrap(out, ind, "      ", buf);
}

void compare_profile_text(FILE *out, const struct comparison *c,
			  const struct compare_pair *p)
{
	struct profile_diff d;
	char a[32], b[32], iv[80], pb[32], ev[96];
	size_t i;

	if (!compare_profile_build(c, p, &d))
		return;
	fprintf(out, "  where the time went (%s, self %% of a repetition's samples;\n"
		"  B - A in points, CI and p Bonferroni over %zu functions; absent: no sample):\n",
		samples_of(&d, ev, sizeof(ev)), d.family);
	fprintf(out, "    %-40s %8s %8s  %-26s %s\n", "function", p->a_name,
		p->b_name, "change [CI] / present side's CI", "p");
	for (i = 0; i < d.n; i++) {
		const struct profile_row *r = &d.rows[i];

		interval_of(r, iv, sizeof(iv));
		snprintf(pb, sizeof(pb), "%s", isnan(r->p) ? "" :
			 r->p < 0.001 ? "<0.001" : "");
		if (!isnan(r->p) && r->p >= 0.001)
			snprintf(pb, sizeof(pb), "%.3f", r->p);
		fprintf(out, "  %s %-40.40s %8s %8s  %-26s %s\n",
			r->significant || r->absent_a || r->absent_b ? "*" : " ",
			r->name, share(&r->a, r->absent_a, a, sizeof(a)),
			share(&r->b, r->absent_b, b, sizeof(b)), iv, pb);
	}
	print_only(out, "    ", p->a_name, p->b_name, d.only_a, d.nonly_a);
	print_only(out, "    ", p->b_name, p->a_name, d.only_b, d.nonly_b);
}

void compare_profile_cover(FILE *out, const struct comparison *c,
			   const struct compare_pair *p, bool ab)
{
	struct profile_diff d;
	char a[32], b[32], iv[80], line[200], head[240], ev[96];
	size_t i;

	if (!compare_profile_build(c, p, &d))
		return;
	fputc('\n', out);
	snprintf(head, sizeof(head), "where the time went (%s, self %%, %s -> %s, %g%% CI):",
		 samples_of(&d, ev, sizeof(ev)), ab ? "A" : "base", ab ? "B" : "new",
		 c->opts.confidence * 100);
	compare_email_wrap(out, "  ", "  ", head);
	for (i = 0; i < d.n; i++) {
		const struct profile_row *r = &d.rows[i];

		interval_of(r, iv, sizeof(iv));
		/* 4 + 24 + 18 + at most 23: inside 72 columns. */
		snprintf(line, sizeof(line), "    %-24.24s %6s -> %-6s %s", r->name,
			 share(&r->a, r->absent_a, a, sizeof(a)),
			 share(&r->b, r->absent_b, b, sizeof(b)), iv);
		fprintf(out, "%.72s\n", line);
	}
	print_only(out, "    ", ab ? "A" : "base", ab ? "B" : "new", d.only_a, d.nonly_a);
	print_only(out, "    ", ab ? "B" : "new", ab ? "A" : "base", d.only_b, d.nonly_b);
}

static json_t *only_json(const struct profile_only *list, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:I, s:I}",
			"function", list[i].name, "mean", list[i].mean,
			"seen", (json_int_t)list[i].seen, "reps", (json_int_t)list[i].reps));
	return a;
}

json_t *compare_profile_json(const struct comparison *c,
			     const struct compare_pair *p)
{
	struct profile_diff d;
	json_t *o, *rows;
	size_t i;

	if (!compare_profile_build(c, p, &d))
		return NULL;
	rows = json_array();
	for (i = 0; i < d.n; i++) {
		const struct profile_row *r = &d.rows[i];
		json_t *row = json_pack("{s:s}", "function", r->name);

		json_object_set_new(row, "a", r->absent_a ? json_null() : json_real(r->a.mean));
		json_object_set_new(row, "b", r->absent_b ? json_null() : json_real(r->b.mean));
		if (!r->absent_a && !r->absent_b && !isnan(r->p))
			json_object_set_new(row, "change", json_pack("{s:f, s:f, s:f, s:f}",
				"diff", r->diff, "lo", r->lo, "hi", r->hi, "p", r->p));
		json_object_set_new(row, "absent", json_string(r->absent_a ? "a" :
						r->absent_b ? "b" : "none"));
		json_array_append_new(rows, row);
	}
	o = json_pack("{s:s, s:I, s:I, s:o, s:o, s:o}", "event", d.event, "freq",
		      (json_int_t)d.freq, "family", (json_int_t)d.family,
		      "functions", rows, "only_a", only_json(d.only_a, d.nonly_a),
		      "only_b", only_json(d.only_b, d.nonly_b));
	return o;
}

struct top_fn {
	const char *metric;
	struct summary s;
};

static int by_mean(const void *x, const void *y)
{
	const struct top_fn *a = x, *b = y;

	return a->s.mean < b->s.mean ? 1 : a->s.mean > b->s.mean ? -1 : 0;
}

static void top_case(FILE *out, const struct tb_case *c, size_t n)
{
	char **names = NULL, disp[160];
	size_t i, nn, k = 0;
	struct top_fn *t;
	double *v = xcalloc(MAX_RUNS, sizeof(*v));

	nn = case_metric_names(c, &names);
	t = xcalloc(nn + 1, sizeof(*t));
	for (i = 0; i < nn; i++) {
		size_t nv;

		if (!is_self(names[i]))
			continue;
		nv = case_metric_values(c, names[i], v, MAX_RUNS);
		if (!nv)
			continue;
		t[k].metric = names[i];
		stats_summary(v, nv, &t[k].s);
		k++;
	}
	if (k) {
		qsort(t, k, sizeof(*t), by_mean);
		fprintf(out, "\n %s: top functions (self %% of samples, mean +- sd over %zu reps):\n",
			c->id, t[0].s.n);
		for (i = 0; i < k && i < n && t[i].s.mean >= 0.05; i++) {
			display(t[i].metric, disp, sizeof(disp));
			fprintf(out, "   %6.1f +- %-5.1f %s\n", t[i].s.mean,
				t[i].s.stddev, disp);
		}
	}
	free(t);
	free(names);
	free(v);
}

void compare_profile_top(FILE *out, const struct tb_results *r, size_t n)
{
	size_t i;

	if (!json_object_get(r->meta, "profile"))
		return;
	for (i = 0; i < r->ncases; i++)
		top_case(out, &r->cases[i], n);
}
