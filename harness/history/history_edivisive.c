// SPDX-License-Identifier: GPL-2.0-only
#include "history_edivisive.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void edv_opts_init(struct edv_opts *o)
{
	o->alpha = 0.05;
	o->permutations = 199;
	o->min_segment = 3;
	o->min_tail = 1;
	o->seed = 1;
}

/*
 * A value, its rank within its segment (ties broken by position) and its
 * row sum there: sum over the segment of |x - x_i|. A permutation of the
 * segment moves all three together; the row sums never change.
 */
struct item {
	double x;
	double row;
	size_t rank;
};

/* A Fenwick tree over ranks of (count, sum), and the scan's arrays. */
struct fen {
	double cnt, sum;
};

struct scratch {
	struct fen *t;
	double *wl, *later;
	size_t cap;
};

static void scratch_fit(struct scratch *w, size_t n)
{
	if (n + 1 <= w->cap)
		return;
	w->cap = n + 1;
	w->t = xrealloc(w->t, w->cap * sizeof(*w->t));
	w->wl = xrealloc(w->wl, w->cap * sizeof(double));
	w->later = xrealloc(w->later, w->cap * sizeof(double));
}

static void scratch_free(struct scratch *w)
{
	free(w->t);
	free(w->wl);
	free(w->later);
}

/*
 * sum of |x - x_i| over the k values added so far (their sum tot), then
 * add x: one walk down the tree for the values ranked below, one up to add.
 */
static double dist_add(struct fen *t, size_t n, const struct item *it,
		       double k, double tot)
{
	double c = 0, s = 0;
	size_t i;

	for (i = it->rank; i > 0; i -= i & -i) {
		c += t[i].cnt;
		s += t[i].sum;
	}
	for (i = it->rank + 1; i <= n; i += i & -i) {
		t[i].cnt += 1;
		t[i].sum += it->x;
	}
	return it->x * c - s + (tot - s) - it->x * (k - c);
}

/*
 * Best tau in [min_left, n - min_right] of the end-fixed scan of v[0..n).
 * Returns it (0: none) with its q. One pass: d = sum over earlier values
 * of |x_t - x_i| gives the within-left sums; row - d (the sum over later
 * values), summed from the end, the within-right sums; the between sum is
 * what the total leaves.
 */
static size_t scan(const struct item *v, size_t n, size_t min_left,
		   size_t min_right, struct scratch *w, double *qbest)
{
	double tot = 0, total, wr = 0, best = -INFINITY;
	size_t t, bt = 0;

	*qbest = -INFINITY;
	if (!min_left)
		min_left = 1;
	if (!min_right)
		min_right = 1;
	if (n < min_left + min_right)
		return 0;
	scratch_fit(w, n);
	memset(w->t, 0, (n + 1) * sizeof(*w->t));
	w->wl[0] = 0;
	for (t = 0; t < n; t++) {
		double d = dist_add(w->t, n, &v[t], (double)t, tot);

		w->wl[t + 1] = w->wl[t] + d;
		w->later[t] = v[t].row - d;
		tot += v[t].x;
	}
	total = w->wl[n];
	for (t = n; t-- > min_left;) {
		wr += w->later[t];
		if (t + min_right > n)
			continue;
		double a = (double)t, b = (double)(n - t);
		double e = 2 * (total - w->wl[t] - wr) / (a * b), q;

		if (t > 1)
			e -= w->wl[t] / (a * (a - 1) / 2);
		if (n - t > 1)
			e -= wr / (b * (b - 1) / 2);
		q = a * b / (a + b) * e;
		if (q >= best) {
			best = q;
			bt = t;
		}
	}
	*qbest = best;
	return bt;
}

static int cmp_item_ptr(const void *x, const void *y)
{
	const struct item *a = *(const struct item *const *)x;
	const struct item *b = *(const struct item *const *)y;

	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return (a > b) - (a < b);
}

/* Rank v[0..n) within itself and give each its row sum. */
static void rank_items(struct item *v, size_t n)
{
	struct item **p = xmalloc((n ? n : 1) * sizeof(*p));
	double below = 0, total = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		p[i] = &v[i];
		total += v[i].x;
	}
	qsort(p, n, sizeof(*p), cmp_item_ptr);
	for (i = 0; i < n; i++) {
		double x = p[i]->x, k = (double)i;

		p[i]->rank = i;
		p[i]->row = x * k - below + (total - below - x) -
			    x * ((double)n - k - 1);
		below += x;
	}
	free(p);
}

struct segment {
	size_t lo, hi;		/* [lo, hi) */
	size_t tau;		/* best split (absolute), 0: none */
	double q;
};

struct state {
	const struct edv_opts *o;
	size_t n;
	struct item *orig, *perm;
	struct segment *seg;
	size_t nseg;
	struct scratch w;
	gsl_rng *rng;
};

static size_t min_right(const struct state *st, const struct segment *s)
{
	return s->hi == st->n ? st->o->min_tail : st->o->min_segment;
}

static void seg_scan(struct state *st, struct segment *s)
{
	size_t t;

	rank_items(st->orig + s->lo, s->hi - s->lo);
	t = scan(st->orig + s->lo, s->hi - s->lo, st->o->min_segment,
		 min_right(st, s), &st->w, &s->q);
	s->tau = t ? s->lo + t : 0;
}

/*
 * Fisher-Yates with GSL's generator: the same draws as gsl_ran_shuffle()
 * (gsl_rng_uniform_int(r, i + 1) for i = n-1 .. 1), but swapping whole
 * items rather than bytes: a fifth of the check's time was in the byte
 * loop of the generic one.
 */
static void shuffle(gsl_rng *r, struct item *v, size_t n)
{
	size_t i;

	if (n < 2)
		return;
	for (i = n - 1; i > 0; i--) {
		size_t j = gsl_rng_uniform_int(r, i + 1);
		struct item t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

/* Does a permutation of every segment reach q? */
static bool perm_reaches(struct state *st, double q)
{
	size_t i;
	double pq;

	memcpy(st->perm, st->orig, st->n * sizeof(*st->perm));
	for (i = 0; i < st->nseg; i++) {
		struct segment *s = &st->seg[i];
		size_t len = s->hi - s->lo;

		shuffle(st->rng, st->perm + s->lo, len);
		if (scan(st->perm + s->lo, len, st->o->min_segment,
			 min_right(st, s), &st->w, &pq) && pq >= q)
			return true;
	}
	return false;
}

/* Permutation p-value of the split with statistic q, or 1 once it is
 * certain to exceed alpha. */
static double perm_test(struct state *st, double q)
{
	unsigned r, R = st->o->permutations, hits = 0;
	double limit = st->o->alpha * (R + 1);

	for (r = 0; r < R; r++) {
		if (perm_reaches(st, q))
			hits++;
		if (hits + 1 > limit)
			return 1;
	}
	return (hits + 1.0) / (R + 1.0);
}

static struct segment *best_segment(struct state *st)
{
	struct segment *b = NULL;
	size_t i;

	for (i = 0; i < st->nseg; i++)
		if (st->seg[i].tau && (!b || st->seg[i].q > b->q))
			b = &st->seg[i];
	return b;
}

static int cmp_cp(const void *x, const void *y)
{
	const struct edv_cp *a = x, *b = y;

	return (a->index > b->index) - (a->index < b->index);
}

static void split(struct state *st, struct segment *s)
{
	size_t i = (size_t)(s - st->seg);
	struct segment right = { s->tau, s->hi, 0, 0 };

	s->hi = s->tau;
	st->seg = xrealloc(st->seg, (st->nseg + 1) * sizeof(*st->seg));
	memmove(&st->seg[i + 2], &st->seg[i + 1],
		(st->nseg - i - 1) * sizeof(*st->seg));
	st->seg[i + 1] = right;
	st->nseg++;
	seg_scan(st, &st->seg[i]);
	seg_scan(st, &st->seg[i + 1]);
}

void edivisive(const double *x, size_t n, const struct edv_opts *o,
	       struct edv_cp **out, size_t *nout)
{
	struct state st = { .o = o, .n = n };
	struct edv_cp *cp = NULL;
	size_t ncp = 0, i;

	*out = NULL;
	*nout = 0;
	if (n < 2)
		return;
	st.orig = xmalloc(n * sizeof(*st.orig));
	st.perm = xmalloc(n * sizeof(*st.perm));
	for (i = 0; i < n; i++)
		st.orig[i].x = x[i];
	st.seg = xmalloc(sizeof(*st.seg));
	st.seg[0] = (struct segment){ 0, n, 0, 0 };
	st.nseg = 1;
	st.rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(st.rng, (unsigned long)o->seed);
	seg_scan(&st, &st.seg[0]);
	for (;;) {
		struct segment *s = best_segment(&st);
		double p;

		if (!s || !(s->q > 0))
			break;
		p = perm_test(&st, s->q);
		if (p > o->alpha)
			break;
		cp = xrealloc(cp, (ncp + 1) * sizeof(*cp));
		cp[ncp++] = (struct edv_cp){ s->tau, s->q, p };
		split(&st, s);
	}
	if (ncp)
		qsort(cp, ncp, sizeof(*cp), cmp_cp);
	*out = cp;
	*nout = ncp;
	gsl_rng_free(st.rng);
	scratch_free(&st.w);
	free(st.seg);
	free(st.orig);
	free(st.perm);
}

size_t edv_best_split(const double *x, size_t n, size_t min_left,
		      size_t min_right, double *q)
{
	struct item *v = xmalloc((n ? n : 1) * sizeof(*v));
	struct scratch w = { 0 };
	size_t i, t;

	for (i = 0; i < n; i++)
		v[i].x = x[i];
	rank_items(v, n);
	t = scan(v, n, min_left, min_right, &w, q);
	scratch_free(&w);
	free(v);
	return t;
}
