// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bisection's statistical rule (bisect_rule.h) on simulated data with
 * fixed seeds, under its stated assumptions: log-normal timings (normal
 * on the log scale) with a boot effect, and exact counters. Error rates
 * are counted over thousands of simulated steps, each against freshly
 * drawn references, with the sequential looks the driver takes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bisect/bisect_rule.h"

#define MAXV 512
#define MAXB 16

struct buf {
	double v[MAXV];
	size_t bn[MAXB];
	size_t n, nb;
};

static struct bisect_sample sample_of(const struct buf *b)
{
	struct bisect_sample s = { b->v, b->n, b->bn, b->nb };

	return s;
}

/* A kernel: log level mu, noise sd sw, boot effect sd sb (log scale). */
struct kernel {
	double mu, sw, sb;
	bool counter;		/* exact: the value is mu itself */
};

static void add_boot(gsl_rng *rng, const struct kernel *k, size_t r,
		     struct buf *b)
{
	double be = k->sb > 0 ? gsl_ran_gaussian(rng, k->sb) : 0;
	size_t i;

	for (i = 0; i < r && b->n < MAXV; i++)
		b->v[b->n++] = k->counter ? k->mu :
			       exp(k->mu + be + gsl_ran_gaussian(rng, k->sw));
	b->bn[b->nb++] = i;
}

/* References measured as the driver does: ref_boots each, then one more
 * each while the rule asks. The final state. */
static enum bisect_refs_state refs_draw(gsl_rng *rng, const struct kernel *g,
					const struct kernel *bad, size_t reps,
					const struct bisect_opts *o,
					struct buf *bg, struct buf *bb,
					struct bisect_refs *r)
{
	size_t i;
	struct bisect_sample sg, sb;

	memset(bg, 0, sizeof(*bg));
	memset(bb, 0, sizeof(*bb));
	for (i = 0; i < o->ref_boots; i++) {
		add_boot(rng, g, reps, bg);
		add_boot(rng, bad, reps, bb);
	}
	for (;;) {
		sg = sample_of(bg);
		sb = sample_of(bb);
		assert_int_equal(bisect_refs(&sg, &sb, o, r), 0);
		if (r->state != REFS_MORE)
			return r->state;
		add_boot(rng, g, reps, bg);
		add_boot(rng, bad, reps, bb);
	}
}

/* One commit decided as the driver does: first_reps, then next_reps. */
static enum bisect_verdict step_draw(gsl_rng *rng, const struct buf *bg,
				     const struct buf *bb,
				     const struct kernel *x, size_t first,
				     const struct bisect_opts *o, size_t *reps,
				     size_t *boots)
{
	struct buf bx;
	struct bisect_sample sg = sample_of(bg), sb = sample_of(bb), sx;
	struct bisect_step s;
	size_t r = first;

	memset(&bx, 0, sizeof(bx));
	for (;;) {
		add_boot(rng, x, r, &bx);
		sx = sample_of(&bx);
		assert_int_equal(bisect_step(&sg, &sb, &sx, o, &s), 0);
		if (s.verdict != BV_MORE)
			break;
		assert_true(s.next_reps >= 1);
		r = s.next_reps;
	}
	*reps = bx.n;
	*boots = bx.nb;
	return s.verdict;
}

struct tally {
	size_t n, good, bad, partial, inconclusive, reps, boots, refs_failed;
};

/* Simulate `runs` bisection steps of a commit at level x against fresh
 * references of GOOD g and BAD b measured with reps per boot. */
static void simulate(unsigned long seed, const struct kernel *g,
		     const struct kernel *b, const struct kernel *x,
		     size_t reps, const struct bisect_opts *o, size_t runs,
		     struct tally *t)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	static struct buf bg, bb;
	struct bisect_refs r;
	size_t i, nr, nbt;

	gsl_rng_set(rng, seed);
	memset(t, 0, sizeof(*t));
	for (i = 0; i < runs; i++) {
		if (refs_draw(rng, g, b, reps, o, &bg, &bb, &r) != REFS_CHANGE) {
			t->refs_failed++;
			continue;
		}
		t->n++;
		switch (step_draw(rng, &bg, &bb, x, r.first_reps, o, &nr, &nbt)) {
		case BV_GOOD: t->good++; break;
		case BV_BAD: t->bad++; break;
		case BV_PARTIAL: t->partial++; break;
		default: t->inconclusive++; break;
		}
		t->reps += nr;
		t->boots += nbt;
	}
	gsl_rng_free(rng);
}

static void print_tally(const char *what, const struct tally *t)
{
	print_message("%-44s n %zu: good %zu bad %zu partial %zu inconclusive %zu; "
		      "mean reps %.1f, boots %.2f\n", what, t->n, t->good, t->bad,
		      t->partial, t->inconclusive,
		      t->n ? (double)t->reps / (double)t->n : 0,
		      t->n ? (double)t->boots / (double)t->n : 0);
}

/* Exact counters (thp_split_pmd 0 vs 256): one batch of the minimum. */
static void test_counter_decides_at_once(void **state)
{
	struct kernel g = { 0, 0, 0, true }, b = { 256, 0, 0, true };
	struct kernel half = { 128, 0, 0, true }, near = { 3, 0, 0, true };
	struct bisect_opts o;
	struct tally t;

	(void)state;
	bisect_opts_init(&o);
	simulate(1, &g, &b, &g, 15, &o, 20, &t);
	assert_int_equal(t.good, 20);
	assert_int_equal(t.reps, 20 * o.min_batch);
	simulate(2, &g, &b, &b, 15, &o, 20, &t);
	assert_int_equal(t.bad, 20);
	assert_int_equal(t.boots, 20);
	simulate(3, &g, &b, &half, 15, &o, 5, &t);
	assert_int_equal(t.partial, 5);
	simulate(4, &g, &b, &near, 15, &o, 5, &t);
	assert_int_equal(t.good, 5);
}

static void test_refs_states(void **state)
{
	const double zero[] = { 0, 0, 0, 0 }, k256[] = { 256, 256, 256, 256 };
	const double noisy_a[] = { 100, 120, 90, 110 }, noisy_b[] = { 105, 95, 125, 100 };
	const size_t bn[] = { 2, 2 };
	struct bisect_sample z = { zero, 4, bn, 2 }, k = { k256, 4, bn, 2 };
	struct bisect_sample na = { noisy_a, 4, bn, 2 }, nb = { noisy_b, 4, bn, 2 };
	struct bisect_opts o;
	struct bisect_refs r;

	(void)state;
	bisect_opts_init(&o);
	assert_int_equal(bisect_refs(&z, &k, &o, &r), 0);
	assert_int_equal(r.state, REFS_CHANGE);
	assert_int_equal(r.noise.scale, BISECT_RAW);
	assert_float_equal(r.diff, 256, 1e-9);
	assert_true(isnan(r.rel));	/* 0 -> 256 has no relative change */
	assert_int_equal(r.first_reps, o.min_batch);
	assert_int_equal(bisect_refs(&z, &z, &o, &r), 0);
	assert_int_equal(r.state, REFS_NO_CHANGE);
	assert_int_equal(bisect_refs(&k, &k, &o, &r), 0);
	assert_int_equal(r.state, REFS_NO_CHANGE);
	/* Noisy and alike at 2 boots: more; at the cap: not significant. */
	assert_int_equal(bisect_refs(&na, &nb, &o, &r), 0);
	assert_int_equal(r.state, REFS_MORE);
	o.ref_max_boots = 2;
	assert_int_equal(bisect_refs(&na, &nb, &o, &r), 0);
	assert_int_equal(r.state, REFS_NOT_SIGNIFICANT);
	assert_int_equal(r.noise.scale, BISECT_LOG);
	assert_true(r.rel_lo < 0 && r.rel_hi > 0);
}

/* A/A references of a timing: "change" at most at the stated rate. */
static void test_refs_false_change_rate(void **state)
{
	struct kernel a = { log(1e5), 0.08, 0.03, false };
	struct bisect_opts o;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	static struct buf bg, bb;
	struct bisect_refs r;
	size_t i, changes = 0, runs = 2000;

	(void)state;
	bisect_opts_init(&o);
	gsl_rng_set(rng, 11);
	for (i = 0; i < runs; i++)
		changes += refs_draw(rng, &a, &a, 10, &o, &bg, &bb, &r) == REFS_CHANGE;
	gsl_rng_free(rng);
	print_message("A/A references: %zu of %zu called a change\n", changes, runs);
	/* 1 - ref_confidence = 1%; allow binomial noise (sd 0.22%). */
	assert_true(changes <= runs / 100 + 10);
}

/*
 * Timings as under TCG here: 8% noise, 3% boot effect, 15 repetitions
 * per reference boot; a 1.5x change. Commits at either level are
 * called wrong at most at 1 - confidence (1%); most decide on one boot
 * (the references get 4 boots: their boot effect shows).
 */
static void test_timing_error_rates(void **state)
{
	struct kernel g = { log(1e5), 0.08, 0.03, false };
	struct kernel b = { log(1.5e5), 0.08, 0.03, false };
	struct bisect_opts o;
	struct tally t;
	size_t runs = 3000;

	(void)state;
	bisect_opts_init(&o);
	simulate(21, &g, &b, &g, 15, &o, runs, &t);
	print_tally("timing 1.5x, commit at GOOD:", &t);
	assert_true(t.n > runs * 99 / 100);
	assert_true(t.bad + t.partial <= t.n / 100);
	assert_true(t.good >= t.n * 97 / 100);
	assert_true((double)t.boots / (double)t.n < 1.5);
	simulate(22, &g, &b, &b, 15, &o, runs, &t);
	print_tally("timing 1.5x, commit at BAD:", &t);
	assert_true(t.good + t.partial <= t.n / 100);
	assert_true(t.bad >= t.n * 97 / 100);
}

/* A small change in heavy noise needs more repetitions, still few errors. */
static void test_small_change_more_reps(void **state)
{
	struct kernel g = { log(1e5), 0.10, 0.0, false };
	struct kernel b = { log(1.15e5), 0.10, 0.0, false };
	struct kernel big_b = { log(3e5), 0.10, 0.0, false };
	struct bisect_opts o;
	struct tally small, big;

	(void)state;
	bisect_opts_init(&o);
	simulate(31, &g, &b, &g, 15, &o, 1000, &small);
	print_tally("timing 1.15x, commit at GOOD:", &small);
	simulate(32, &g, &big_b, &g, 15, &o, 1000, &big);
	print_tally("timing 3x, commit at GOOD:", &big);
	assert_true(small.bad + small.partial <= small.n / 100 + 3);
	assert_true(small.reps * big.n > 2 * big.reps * small.n);
}

/* Boot effects larger than the noise (the references see them): the
 * between-boot spread widens the interval; errors stay near the rate. */
static void test_boot_effect(void **state)
{
	struct kernel g = { log(1e5), 0.02, 0.08, false };
	struct kernel b = { log(1.6e5), 0.02, 0.08, false };
	struct bisect_opts o;
	struct tally t;

	(void)state;
	bisect_opts_init(&o);
	o.ref_boots = 3;
	o.ref_max_boots = 6;
	simulate(41, &g, &b, &g, 10, &o, 2000, &t);
	print_tally("boot effect 8%, noise 2%, commit at GOOD:", &t);
	assert_true(t.bad + t.partial <= t.n * 2 / 100);
	simulate(42, &g, &b, &b, 10, &o, 2000, &t);
	print_tally("boot effect 8%, noise 2%, commit at BAD:", &t);
	assert_true(t.good + t.partial <= t.n * 2 / 100);
}

/* Half the change: partial most of the time, never forced to a side
 * beyond the rate. */
static void test_partial(void **state)
{
	struct kernel g = { log(1e5), 0.05, 0.0, false };
	struct kernel b = { log(2e5), 0.05, 0.0, false };
	struct kernel half = { log(sqrt(2) * 1e5), 0.05, 0.0, false };
	struct bisect_opts o;
	struct tally t;

	(void)state;
	bisect_opts_init(&o);
	simulate(51, &g, &b, &half, 15, &o, 1000, &t);
	print_tally("timing 2x, commit half way (log):", &t);
	assert_true(t.good + t.bad <= t.n / 100);
	assert_true(t.partial >= t.n * 9 / 10);
}

/* The caps: a commit at the midpoint with only a few looks allowed ends
 * inconclusive, never good or bad. */
static void test_inconclusive_at_cap(void **state)
{
	struct kernel g = { log(1e5), 0.3, 0.0, false };
	struct kernel b = { log(1.6e5), 0.3, 0.0, false };
	struct kernel mid = { log(1.25e5), 0.3, 0.0, false };
	struct bisect_opts o;
	struct tally t;

	(void)state;
	bisect_opts_init(&o);
	o.max_looks = 2;
	o.max_reps = 8;
	o.max_batch = 4;
	simulate(61, &g, &b, &mid, 30, &o, 200, &t);
	print_tally("noisy, midpoint, capped at 8 reps:", &t);
	assert_true(t.inconclusive >= t.n * 9 / 10);
	assert_true(t.reps <= t.n * 8);
}

static void test_bad_input(void **state)
{
	const double v[] = { 1, 2, 3 }, nanv[] = { 1, NAN, 3 };
	const size_t bn[] = { 3 }, bad_bn[] = { 2 };
	struct bisect_sample ok = { v, 3, bn, 1 }, nan_s = { nanv, 3, bn, 1 };
	struct bisect_sample short_bn = { v, 3, bad_bn, 1 }, empty = { v, 0, bn, 0 };
	struct bisect_opts o;
	struct bisect_refs r;
	struct bisect_step s;

	(void)state;
	bisect_opts_init(&o);
	assert_null(bisect_opts_check(&o));
	assert_int_equal(bisect_refs(&ok, &nan_s, &o, &r), -1);
	assert_int_equal(bisect_refs(&ok, &short_bn, &o, &r), -1);
	assert_int_equal(bisect_step(&ok, &ok, &empty, &o, &s), -1);
	/* GOOD and BAD at one level: no position exists. */
	assert_int_equal(bisect_step(&ok, &ok, &ok, &o, &s), -1);
	o.max_batch = 1;
	assert_non_null(bisect_opts_check(&o));
	bisect_opts_init(&o);
	o.confidence = 1;
	assert_non_null(bisect_opts_check(&o));
	bisect_opts_init(&o);
	o.margin = 0.5;
	assert_non_null(bisect_opts_check(&o));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_decides_at_once),
		cmocka_unit_test(test_refs_states),
		cmocka_unit_test(test_refs_false_change_rate),
		cmocka_unit_test(test_timing_error_rates),
		cmocka_unit_test(test_small_change_more_reps),
		cmocka_unit_test(test_boot_effect),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_inconclusive_at_cap),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
