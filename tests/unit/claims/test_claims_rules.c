// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verdict rules that keep a claim table still and honest (claims.h):
 * an interval that overlaps the band is inconclusive, never superseded;
 * superseded needs the interval below the band and the named change shown
 * at work (a ratio of two cases, the kernel config); one verdict per
 * claim (detail rows, parts); rows true by construction are derived,
 * controls say "as expected"; factors in words are >= 1; a kernel range
 * need says the range. Samples are constructed, some with the spread the
 * PVM host showed (aligned 4 KiB mremap 2 to 85 ms).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#include "claims/claims.h"
#include "claims/claims_factor.h"
#include "claims/claims_supersede.h"
#include "util/util.h"
#include "claims_fx.h"

struct fx {
	struct tb_results r;
	struct suite_claim cl;
};

static void fx_init(struct fx *f, const char *kernel)
{
	memset(f, 0, sizeof(*f));
	f->r.env = json_object();
	json_object_set_new(f->r.env, "kernel", json_string(kernel));
	json_object_set_new(f->r.env, "numa_nodes", json_integer(1));
	json_object_set_new(f->r.env, "pmu", json_false());
	f->cl.id = "c";
	f->cl.fields = json_object();
}

static void field(struct fx *f, const char *k, const char *v)
{
	json_object_set_new(f->cl.fields, k, json_string(v));
}

static void add_case(struct fx *f, const char *id, const char *metric,
		     const double *v, size_t n)
{
	fx_add_case(&f->r, id, metric, v, n);
}

/* "new is VALUE times SENSE than base on METRIC", lower is better. */
static void claim_lower(struct fx *f, const char *metric, const char *base,
			const char *new, const char *sense, const char *value)
{
	field(f, "metric", metric);
	field(f, "base", base);
	field(f, "new", new);
	field(f, "better", "lower");
	field(f, "sense", sense);
	field(f, "claimed_value", value);
}

/* The claim "new is 17.3x faster than base on usec", as 000's. */
static void claim_000(struct fx *f)
{
	claim_lower(f, "usec", "never", "always", "faster", "17.3");
	field(f, "superseded_by", "5.0 2c91bd4a4e2e (HAVE_MOVE_PMD)");
	field(f, "superseded_check", "usec: misaligned >= 3x never");
	field(f, "superseded_config", "CONFIG_HAVE_MOVE_PMD");
}

static void kconfig(struct fx *f, const char *value)
{
	json_t *kc = json_object(), *opts = json_object();

	if (value) {
		json_object_set_new(opts, "CONFIG_HAVE_MOVE_PMD", json_string(value));
		json_object_set_new(kc, "source", json_string("/proc/config.gz"));
		json_object_set_new(kc, "options", opts);
	} else {
		json_decref(opts);
		json_object_set_new(kc, "source", json_null());
		json_object_set_new(kc, "unknown", json_string(
			"no /proc/config.gz and no /boot/config-RELEASE"));
	}
	json_object_set_new(f->r.env, "kconfig", kc);
}

static json_t *eval(struct fx *f)
{
	json_t *all = claims_evaluate(&f->cl, 1, &f->r), *o;

	o = json_incref(json_array_get(all, 0));
	json_decref(all);
	return o;
}

static void fx_free(struct fx *f)
{
	json_decref(f->cl.fields);
	results_free(&f->r);
}

/* Claim 000 judged on never/always (and misaligned, when given) with the
 * kernel config's CONFIG_HAVE_MOVE_PMD as kconf ("y", "n", NULL unknown). */
static json_t *judge_000(const double *never, const double *always,
			 const double *misaligned, const char *kconf)
{
	struct fx f;
	json_t *o;

	fx_init(&f, "6.18.44");
	claim_000(&f);
	kconfig(&f, kconf);
	add_case(&f, "never", "usec", never, 5);
	add_case(&f, "always", "usec", always, 5);
	if (misaligned)
		add_case(&f, "misaligned", "usec", misaligned, 5);
	o = eval(&f);
	fx_free(&f);
	return o;
}

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static double num(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* Aligned 4 KiB moves as fast as THP (since v5.0); a misaligned one is
 * an order of magnitude slower: the change at work. */
static const double never_us[] = { 204, 190, 215, 199, 226 };
static const double always_us[] = { 240, 221, 233, 275, 230 };
static const double misaligned_us[] = { 2492, 2146, 2574, 2898, 2350 };

static void test_superseded_when_shown(void **state)
{
	json_t *o;

	(void)state;
	o = judge_000(never_us, always_us, misaligned_us, "y");
	assert_string_equal(str(o, "verdict"), "superseded");
	assert_true(num(o, "ci_hi") < num(o, "band_lo"));
	assert_non_null(strstr(str(o, "reason"), "never's usec is"));
	assert_non_null(strstr(str(o, "reason"), "below misaligned's"));
	assert_non_null(strstr(str(o, "reason"), "CONFIG_HAVE_MOVE_PMD=y"));
	/* Said the way it is: THP is slower here, never "0.85x faster". */
	assert_non_null(strstr(str(o, "measured"), "slower"));
	assert_null(strstr(str(o, "measured"), "faster"));
	json_decref(o);

	/* The config cannot be read: said, not taken as proof either way. */
	o = judge_000(never_us, always_us, misaligned_us, NULL);
	assert_string_equal(str(o, "verdict"), "superseded");
	assert_non_null(strstr(str(o, "reason"), "CONFIG_HAVE_MOVE_PMD not known"));
	json_decref(o);

	/* The kernel's config lacks it: the change is not at work. */
	o = judge_000(never_us, always_us, misaligned_us, "n");
	assert_string_equal(str(o, "verdict"), "not reproduced");
	assert_non_null(strstr(str(o, "reason"), "is not set"));
	json_decref(o);

	/* No misaligned case to hold the aligned one against: unconfirmed. */
	o = judge_000(never_us, always_us, NULL, "y");
	assert_string_equal(str(o, "verdict"), "not reproduced");
	assert_non_null(strstr(str(o, "reason"), "too few to check"));
	json_decref(o);
}

/* Before v5.0 aligned and misaligned 4 KiB moves are alike: a kernel that
 * claims to be later but shows no such gap is not superseded. */
static void test_not_superseded_without_the_mechanism(void **state)
{
	static const double slow_aligned[] = { 2300, 2410, 2500, 2205, 2602 };
	json_t *o;

	(void)state;
	o = judge_000(slow_aligned, slow_aligned, misaligned_us, "y");
	assert_string_equal(str(o, "verdict"), "not reproduced");
	assert_non_null(strstr(str(o, "reason"), "not shown to be"));
	assert_non_null(strstr(str(o, "reason"), "only"));
	json_decref(o);
}

/*
 * A ./run.sh of configs/quick.conf here (2026-12-01 16:08, load 3.2):
 * one aligned 4 KiB repetition took 1968 us against 167-218, as another
 * job took the CPU. The mean ratio to the misaligned case was 11.19x
 * [2.92, 42.86], its lower end under 3: 000 said "not reproduced" where
 * four runs before it had said "superseded". The fastest runs: 11.2x.
 */
static void test_one_slow_repetition(void **state)
{
	static const double never[] = { 218.6, 176.4, 1968.2, 171.5, 167.0 };
	static const double always[] = { 270.9, 250.1, 195.4, 227.7, 260.2 };
	static const double misaligned[] = { 2244.9, 1989.3, 6711.5, 6851.0,
					     1875.2 };
	json_t *o;

	(void)state;
	o = judge_000(never, always, misaligned, "y");
	assert_string_equal(str(o, "verdict"), "superseded");
	assert_non_null(strstr(str(o, "reason"), "never's usec is 11.23x below "
			       "misaligned's, fastest run against fastest"));
	assert_non_null(strstr(str(o, "reason"), "means: "));
	json_decref(o);
}

/* Log-normal around med, and with probability slow_p slowed 2-40x
 * (log-uniform): preempted, or waiting on the hypervisor. */
static double draw_run(gsl_rng *g, double med, double sigma, double slow_p)
{
	double v = med * exp(gsl_ran_gaussian(g, sigma));

	if (gsl_rng_uniform(g) < slow_p)
		v *= exp(log(2) + gsl_rng_uniform(g) * (log(40) - log(2)));
	return v;
}

/* Superseded by the check alone: the claim's interval set below its band. */
static bool check_confirms(const double *aligned, const double *misaligned,
			   size_t n)
{
	struct fx f;
	json_t *o = json_object();
	bool yes;

	fx_init(&f, "6.18.44");
	claim_000(&f);
	kconfig(&f, "y");
	add_case(&f, "never", "usec", aligned, n);
	add_case(&f, "misaligned", "usec", misaligned, n);
	json_object_set_new(o, "ci_hi", json_real(1.5));
	json_object_set_new(o, "band_lo", json_real(8.65));
	claims_supersede(o, &f.cl, &f.r);
	yes = !strcmp(str(o, "verdict"), "superseded");
	json_decref(o);
	fx_free(&f);
	return yes;
}

/*
 * The check tells v5.0+ (aligned 0.2 ms, misaligned 2.5 ms: 12.5x) from
 * before (both 2.5 ms) on a shared machine: 1000 runs of 5 repetitions
 * per regime, each repetition slowed 2-40x with probability 1/5 (fixed
 * seeds). The fastest runs confirm every 10x run, next to no 1x run
 * (all five misaligned repetitions slowed), and few of a 2x regime (a
 * change half at work); the mean ratio's interval, asked to reach 3,
 * reached it in little more than half of the 10x runs.
 */
static void test_mechanism_check_simulated(void **state)
{
	static const double regimes[] = { 200, 2500, 1250 };
	size_t confirmed[3] = { 0 }, interval_reached = 0, k, i;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	double al[5], mis[5];
	struct claim_factor cf;
	unsigned long seed;

	(void)state;
	for (k = 0; k < 3; k++)
		for (seed = 1; seed <= 1000; seed++) {
			gsl_rng_set(g, seed * 3 + k);
			for (i = 0; i < 5; i++) {
				al[i] = draw_run(g, regimes[k], 0.12, 0.2);
				mis[i] = draw_run(g, 2500, 0.25, 0.2);
			}
			confirmed[k] += check_confirms(al, mis, 5);
			if (k == 0 && !claim_factor(mis, 5, al, 5, false, &cf))
				interval_reached += cf.lo >= 3;
		}
	gsl_rng_free(g);
	/* Seen: 1000, 1 (all five misaligned runs slowed), 6; 558. */
	assert_true(confirmed[0] >= 995);
	assert_true(confirmed[1] <= 2);
	assert_true(confirmed[2] <= 20);
	assert_true(interval_reached <= 700);
}

/*
 * A metric and case names of 100-120 characters make the check's reason longer than its
 * buffer: the cut shows ("...") and the verdict stands.
 */
static void test_long_case_names_cut(void **state)
{
	static const double aligned[] = { 200, 210, 190, 205, 198 };
	static const double misaligned[] = { 2500, 2400, 2600, 2550, 2450 };
	char a[121], b[121], m[101], check[400];
	json_t *o = json_object();
	const char *why;
	struct fx f;

	(void)state;
	memset(a, 'a', 120);
	a[120] = 0;
	memset(b, 'b', 120);
	b[120] = 0;
	memset(m, 'm', 100);
	m[100] = 0;
	snprintf(check, sizeof(check), "%s: %s >= 3x %s", m, a, b);
	fx_init(&f, "6.18.44");
	claim_lower(&f, "usec", b, "always", "faster", "17.3");
	field(&f, "superseded_by", "5.0 2c91bd4a4e2e (HAVE_MOVE_PMD)");
	field(&f, "superseded_check", check);
	field(&f, "superseded_config", "CONFIG_HAVE_MOVE_PMD");
	kconfig(&f, "y");
	add_case(&f, b, m, aligned, 5);
	add_case(&f, a, m, misaligned, 5);
	json_object_set_new(o, "ci_hi", json_real(1.5));
	json_object_set_new(o, "band_lo", json_real(8.65));
	claims_supersede(o, &f.cl, &f.r);
	assert_string_equal(str(o, "verdict"), "superseded");
	why = str(o, "reason");
	assert_non_null(strstr(why, "..."));
	assert_null(strstr(why, "means: "));
	json_decref(o);
	fx_free(&f);
}

/*
 * The PVM host's first run: 1.90x [0.29, 12.52] against the band
 * [8.65, 34.6]. The interval reaches into the band: the data cannot rule
 * the claim out, so "inconclusive", whatever the superseding checks say.
 */
static void test_overlap_is_inconclusive(void **state)
{
	static const double never_pvm[] = { 2100, 85000, 40000, 3200, 61000 };
	static const double always_pvm[] = { 5200, 1100, 31000, 2300, 8800 };
	json_t *o;

	(void)state;
	o = judge_000(never_pvm, always_pvm, misaligned_us, "y");
	/* The precondition the case is about. */
	assert_true(num(o, "ci_hi") >= num(o, "band_lo"));
	assert_true(num(o, "ci_lo") < 1);
	assert_string_equal(str(o, "verdict"), "inconclusive");
	assert_non_null(strstr(str(o, "reason"), "overlaps the band"));
	json_decref(o);
}

/* In the band with an interval above 1: reproduced; above 1 but wholly
 * outside: direction only; point outside but interval reaching in:
 * inconclusive (the PVM host's 49.99x [32.82, 76.15] against 8.65-34.6). */
static void test_band_edges(void **state)
{
	static const double base[] = { 1000, 1010, 990, 1005, 995 };
	static const double in_band[] = { 60, 61, 59, 60.5, 59.5 };
	static const double far[] = { 10, 10.1, 9.9, 10.05, 9.95 };
	static const double wide[] = { 14, 30, 20, 25, 17 };
	json_t *o;

	(void)state;
	o = judge_000(base, in_band, NULL, "y");
	assert_string_equal(str(o, "verdict"), "reproduced");
	json_decref(o);
	o = judge_000(base, far, NULL, "y");
	assert_true(num(o, "ci_lo") > num(o, "band_hi"));
	assert_string_equal(str(o, "verdict"), "direction only");
	json_decref(o);
	o = judge_000(base, wide, NULL, "y");
	assert_true(num(o, "factor") > num(o, "band_hi"));
	assert_true(num(o, "ci_lo") <= num(o, "band_hi"));
	assert_string_equal(str(o, "verdict"), "inconclusive");
	json_decref(o);
}

/*
 * One verdict per claim: the posting's program details claim 000. Its
 * timed call splits into unmap and move; the row carries both shares and
 * factors, and says "see 000" instead of a verdict of its own.
 */
static void test_detail_with_parts(void **state)
{
	static const double n_roi[] = { 45000, 52000, 38000, 61000, 49000 };
	static const double n_unmap[] = { 40000, 46000, 33000, 55000, 44000 };
	static const double n_move[] = { 5000, 6000, 5000, 6000, 5000 };
	static const double a_roi[] = { 2700, 2600, 2800, 2500, 2650 };
	static const double a_unmap[] = { 2500, 2400, 2600, 2350, 2450 };
	static const double a_move[] = { 200, 200, 200, 150, 200 };
	const json_t *p;
	struct fx f;
	json_t *o;

	(void)state;
	fx_init(&f, "6.18.44");
	claim_lower(&f, "roi_usec", "never", "always", "faster", "17.3");
	field(&f, "detail_of", "000");
	field(&f, "parts", "unmap_usec move_usec");
	add_case(&f, "never", "roi_usec", n_roi, 5);
	add_case(&f, "never", "unmap_usec", n_unmap, 5);
	add_case(&f, "never", "move_usec", n_move, 5);
	add_case(&f, "always", "roi_usec", a_roi, 5);
	add_case(&f, "always", "unmap_usec", a_unmap, 5);
	add_case(&f, "always", "move_usec", a_move, 5);
	o = eval(&f);
	assert_string_equal(str(o, "verdict"), "see 000");
	assert_string_equal(str(o, "detail_of"), "000");
	assert_int_equal(json_array_size(json_object_get(o, "parts")), 2);
	p = json_array_get(json_object_get(o, "parts"), 0);
	assert_string_equal(str(p, "metric"), "unmap_usec");
	assert_true(num(p, "share_base") > 0.85 && num(p, "share_base") < 0.92);
	assert_non_null(strstr(str(p, "measured"), "faster"));
	p = json_array_get(json_object_get(o, "parts"), 1);
	assert_true(num(p, "share_base") < 0.15);
	json_decref(o);
	fx_free(&f);
}

/* 000-faults as a claim on minflt, with its `derived` text. */
static json_t *judge_faults(const double *never, const double *always)
{
	struct fx f;
	json_t *o;

	fx_init(&f, "6.18.44");
	claim_lower(&f, "minflt", "never", "always", "fewer", "512");
	field(&f, "derived", "a THP is faulted once for its 512 4 KiB pages");
	add_case(&f, "never", "minflt", never, 5);
	add_case(&f, "always", "minflt", always, 5);
	o = eval(&f);
	fx_free(&f);
	return o;
}

/* True by construction: derived where it would be "reproduced"; a broken
 * construction still shows as what it is. */
static void test_derived(void **state)
{
	static const double four_k[] = { 262206, 262207, 262205, 262208, 262206 };
	static const double thp[] = { 575, 574, 576, 575, 574 };
	json_t *o;

	(void)state;
	o = judge_faults(four_k, thp);
	assert_string_equal(str(o, "verdict"), "derived");
	assert_non_null(strstr(str(o, "reason"), "512 4 KiB pages"));
	json_decref(o);
	o = judge_faults(four_k, four_k);	/* no THP at all */
	assert_string_equal(str(o, "verdict"), "not reproduced");
	json_decref(o);
}

/* A control checks a setup: its words are not the posting's. */
static void test_control(void **state)
{
	static const double a[] = { 1000, 1002, 998, 1001, 999 };
	static const double b[] = { 1001, 999, 1000, 1002, 998 };
	static const double c[] = { 200, 201, 199, 200, 202 };
	struct fx f;
	json_t *o;

	(void)state;
	fx_init(&f, "6.18.44");
	claim_lower(&f, "minflt", "t0", "t1", "fewer", "1");
	field(&f, "control", "merged glibc's behaviour under always");
	add_case(&f, "t0", "minflt", a, 5);
	add_case(&f, "t1", "minflt", b, 5);
	add_case(&f, "t2", "minflt", c, 5);
	o = eval(&f);
	assert_string_equal(str(o, "verdict"), "as expected");
	json_decref(o);
	field(&f, "new", "t2");
	o = eval(&f);
	assert_string_equal(str(o, "verdict"), "not as expected");
	assert_non_null(strstr(str(o, "reason"), "significant difference"));
	json_decref(o);
	fx_free(&f);
}

/* 003: the code it sped up exists only in 3.17-4.4. */
static void test_kernel_range(void **state)
{
	static const double v[] = { 38000, 38200, 37900, 38100, 38050 };
	static const char *const inside[] = { "3.17.0", "4.4.302", "4.4" };
	static const char *const outside[] = { "6.18.44", "4.5.0", "3.16.7" };
	struct fx f;
	json_t *o;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		fx_init(&f, outside[i]);
		field(&f, "metric", "roi_usec");
		field(&f, "base", "split");
		field(&f, "needs", "kernel 3.17-4.4 the split code was removed in v4.5");
		add_case(&f, "split", "roi_usec", v, 5);
		o = eval(&f);
		assert_string_equal(str(o, "verdict"), "not measurable");
		assert_non_null(strstr(str(o, "reason"), "needs a 3.17-4.4 kernel "
				       "(the split code was removed in v4.5)"));
		assert_non_null(strstr(str(o, "reason"), outside[i]));
		json_decref(o);
		fx_free(&f);
	}
	for (i = 0; i < 3; i++) {
		fx_init(&f, inside[i]);
		field(&f, "metric", "roi_usec");
		field(&f, "base", "split");
		field(&f, "needs", "kernel 3.17-4.4 the split code was removed in v4.5");
		add_case(&f, "split", "roi_usec", v, 5);
		o = eval(&f);
		assert_string_equal(str(o, "verdict"), "reported");
		json_decref(o);
		fx_free(&f);
	}
}

/* Words: a factor >= 1 and the direction that makes it so. */
static void test_factor_words(void **state)
{
	struct claim_factor below = { 0.04, 0.02, 0.08 }, above = { 17.3, 12, 25 };
	char buf[128], other[64];

	(void)state;
	assert_string_equal(claim_factor_words(&below, "faster", buf, sizeof(buf)),
			    "25.00x [12.50, 50.00] slower");
	assert_string_equal(claim_factor_words(&above, "faster", buf, sizeof(buf)),
			    "17.30x [12.00, 25.00] faster");
	assert_string_equal(claim_factor_words(&below, "fewer", buf, sizeof(buf)),
			    "25.00x [12.50, 50.00] more");
	assert_string_equal(sense_opposite("slower", other, sizeof(other)), "faster");
	assert_string_equal(sense_opposite("snappier", other, sizeof(other)),
			    "the other way than snappier");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_superseded_when_shown),
		cmocka_unit_test(test_not_superseded_without_the_mechanism),
		cmocka_unit_test(test_one_slow_repetition),
		cmocka_unit_test(test_long_case_names_cut),
		cmocka_unit_test(test_mechanism_check_simulated),
		cmocka_unit_test(test_overlap_is_inconclusive),
		cmocka_unit_test(test_band_edges),
		cmocka_unit_test(test_detail_with_parts),
		cmocka_unit_test(test_derived),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_kernel_range),
		cmocka_unit_test(test_factor_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
