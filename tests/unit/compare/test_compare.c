// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verdict rules, metric directions and overrides, case pairing,
 * environment checks and the A/A property, on results built in memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_sf_gamma.h>

#include "cli/cmd_compare.h"
#include "compare/compare.h"
#include "compare/compare_format.h"
#include "compare/compare_print.h"
#include "compare/compare_profile.h"
#include "stats/stats.h"
#include "results/store.h"
#include "stats/metric_info.h"
#include "results/results.h"
#include "stats/verdict.h"

/* ---- verdict rules ---- */

static struct verdict_in vin(enum better b, double p, double rel, double lo,
			     double hi)
{
	struct verdict_in in = {
		.na = 5, .nb = 5, .better = b, .threshold = 0.02,
		.alpha = 0.05, .p = p, .diff = rel,
		.ch = { .rel = rel, .lo = lo, .hi = hi, .method = CHANGE_LOG },
	};

	return in;
}

static void test_verdict_rules(void **state)
{
	struct verdict_in in;

	(void)state;
	/* time up 10% [8, 12], p tiny: regression; the same for GB/s is an
	 * improvement; for a counter "changed" */
	in = vin(BETTER_LOWER, 0.001, 0.10, 0.08, 0.12);
	assert_int_equal(verdict_decide(&in), VERDICT_REGRESSION);
	in.better = BETTER_HIGHER;
	assert_int_equal(verdict_decide(&in), VERDICT_IMPROVEMENT);
	in.better = BETTER_NEUTRAL;
	assert_int_equal(verdict_decide(&in), VERDICT_CHANGED);
	/* time down 19% */
	in = vin(BETTER_LOWER, 0.001, -0.19, -0.21, -0.17);
	assert_int_equal(verdict_decide(&in), VERDICT_IMPROVEMENT);
	in.better = BETTER_HIGHER;
	assert_int_equal(verdict_decide(&in), VERDICT_REGRESSION);
	/* significant, but the interval reaches inside the threshold */
	in = vin(BETTER_LOWER, 0.001, 0.03, 0.01, 0.05);
	assert_int_equal(verdict_decide(&in), VERDICT_INCONCLUSIVE);
	/* whole interval beyond, but the (adjusted) test not significant */
	in = vin(BETTER_LOWER, 0.06, 0.10, 0.03, 0.17);
	assert_int_equal(verdict_decide(&in), VERDICT_INCONCLUSIVE);
	/* interval inside +-2%: no change, significant or not */
	in = vin(BETTER_LOWER, 0.5, 0.001, -0.015, 0.018);
	assert_int_equal(verdict_decide(&in), VERDICT_NO_CHANGE);
	in.p = 0.001;
	assert_int_equal(verdict_decide(&in), VERDICT_NO_CHANGE);
	/* wide interval around 0: inconclusive, not "no change" */
	in = vin(BETTER_LOWER, 0.5, 0.0, -0.05, 0.05);
	assert_int_equal(verdict_decide(&in), VERDICT_INCONCLUSIVE);
	/* a larger threshold turns it into no change */
	in.threshold = 0.06;
	assert_int_equal(verdict_decide(&in), VERDICT_NO_CHANGE);
	/* too few, whatever the numbers say */
	in = vin(BETTER_LOWER, 0.001, 0.10, 0.08, 0.12);
	in.na = 2;
	assert_int_equal(verdict_decide(&in), VERDICT_TOO_FEW);
	/* base mean 0: a significant test decides by the sign */
	in = vin(BETTER_NEUTRAL, 0.001, NAN, NAN, NAN);
	in.ch.method = CHANGE_NONE;
	in.diff = 2560;
	assert_int_equal(verdict_decide(&in), VERDICT_CHANGED);
	in.better = BETTER_LOWER;
	assert_int_equal(verdict_decide(&in), VERDICT_REGRESSION);
	in.p = 1;
	in.diff = 0;
	assert_int_equal(verdict_decide(&in), VERDICT_NO_CHANGE);
	in.p = 0.3;
	in.diff = 3;
	assert_int_equal(verdict_decide(&in), VERDICT_INCONCLUSIVE);
	assert_true(verdict_is_change(VERDICT_REGRESSION));
	assert_false(verdict_is_change(VERDICT_NO_CHANGE));
	assert_string_equal(verdict_name(VERDICT_NO_CHANGE), "no change");
}

/* ---- metric directions ---- */

static void test_metric_direction(void **state)
{
	static const struct { const char *name; enum better b; } t[] = {
		{ "roi_usec", BETTER_LOWER }, { "split_usec", BETTER_LOWER },
		{ "wall_usec", BETTER_LOWER }, { "elapsed_ms", BETTER_LOWER },
		{ "sys_time", BETTER_LOWER }, { "dTLB-load-misses", BETTER_LOWER },
		{ "page-faults", BETTER_LOWER }, { "major-faults", BETTER_LOWER },
		{ "tlb:tlb_flush", BETTER_LOWER }, { "gbps", BETTER_HIGHER },
		{ "GB/s", BETTER_HIGHER }, { "throughput", BETTER_HIGHER },
		{ "ops", BETTER_HIGHER }, { "vmstat.pgfault", BETTER_NEUTRAL },
		{ "vmstat.thp_fault_alloc", BETTER_NEUTRAL },
		{ "max_rss_kb", BETTER_NEUTRAL }, { "instructions", BETTER_NEUTRAL },
		/* the TLB profile: fewer walks, walk cycles and STLB trips */
		{ "tlb.dtlb_walks", BETTER_LOWER }, { "tlb.walks_pki", BETTER_LOWER },
		{ "tlb.walk_cycles_pct", BETTER_LOWER },
		{ "tlb.stlb_load_hits", BETTER_LOWER }, { "tlb.cycles", BETTER_LOWER },
		{ "tlb.instructions", BETTER_NEUTRAL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (metric_default_better(t[i].name) != t[i].b)
			fail_msg("%s: %s, expected %s", t[i].name,
				 better_name(metric_default_better(t[i].name)),
				 better_name(t[i].b));
}

/*
 * getrusage's fault counts (minflt, majflt; a workload's roi_minflt) are
 * fewer-is-better counts, the same whichever case declares them: ./run.sh's
 * own comparison called one case's minflt "worse" and another's
 * "changed" (issue 29). Counts, not timings: an emulated machine does
 * not change them.
 */
static void test_fault_counts_direction(void **state)
{
	static const char *const names[] = {
		"minflt", "majflt", "roi_minflt", "roi_majflt", "MINFLT",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (metric_default_better(names[i]) != BETTER_LOWER)
			fail_msg("%s: %s, expected lower", names[i],
				 better_name(metric_default_better(names[i])));
		if (metric_is_timing(names[i]))
			fail_msg("%s: taken for a timing, it is a count", names[i]);
	}
	/* The kernel's own counters stay neutral. */
	assert_int_equal(metric_default_better("vmstat.pgmajfault"), BETTER_NEUTRAL);
}

static void test_metric_overrides(void **state)
{
	json_t *extra = json_loads("{\"metric\": {\"gbps\": {\"threshold\": 0.05},"
				   " \"vmstat.thp_fault_alloc\": {\"better\": \"higher\"},"
				   " \"bad\": {\"better\": \"up\"}}}", 0, NULL);
	const json_t *ex[2] = { NULL, extra };
	struct metric_override ov = { "wall_*", 0.1, BETTER_HIGHER };
	struct metric_info mi;
	char err[256];

	(void)state;
	assert_non_null(extra);
	assert_int_equal(metric_info_get("gbps", ex, 2, NULL, 0, 0.02, &mi,
					 err, sizeof(err)), 0);
	assert_int_equal(mi.better, BETTER_HIGHER);
	assert_true(fabs(mi.threshold - 0.05) < 1e-12);
	metric_info_get("vmstat.thp_fault_alloc", ex, 2, NULL, 0, 0.02, &mi,
			err, sizeof(err));
	assert_int_equal(mi.better, BETTER_HIGHER);
	assert_true(fabs(mi.threshold - 0.02) < 1e-12);
	/* command line beats the table */
	metric_info_get("wall_usec", ex, 2, &ov, 1, 0.02, &mi, err, sizeof(err));
	assert_int_equal(mi.better, BETTER_HIGHER);
	assert_true(fabs(mi.threshold - 0.1) < 1e-12);
	assert_int_equal(metric_info_get("bad", ex, 2, NULL, 0, 0.02, &mi, err,
					 sizeof(err)), -1);
	assert_non_null(strstr(err, "extra.metric.bad.better"));
	json_decref(extra);
}

/* ---- in-memory results ---- */

static void put_env(struct tb_results *r, const char *host, const char *defrag,
		    const char *kernel)
{
	r->env = json_pack("{ss ss ss si s{ssss}}", "kernel", kernel,
			   "hostname", host, "cpu", "cpu0", "nr_cpus", 2, "thp",
			   "enabled", "madvise", "defrag", defrag);
	r->meta = json_object();
}

/* A case whose metric m has values base * (1 + noise[i]) . */
static struct tb_case *add_case(struct tb_results *r, const char *id,
				const char *wl, const char *thp,
				const char *label, const char *env0)
{
	struct tb_case *c = results_add_case(r);

	c->id = strdup(id);
	c->name = strdup(wl);
	c->workload = strdup(wl);
	c->thp = strdup(thp);
	c->label = strdup(label);
	c->settings = json_object();
	if (env0) {
		c->env = calloc(1, sizeof(char *));
		c->env[0] = strdup(env0);
		c->nenv = 1;
	}
	return c;
}

static void add_runs(struct tb_case *c, const char *metric, double base,
		     const double *noise, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct tb_run *run = case_add_run(c);

		run->status = RUN_OK;
		metric_set_put(&run->metrics, metric, base * (1 + noise[i]));
	}
}

static const double noise5[] = { 0.004, -0.006, 0.001, 0.008, -0.005 };
static const double noise5b[] = { -0.003, 0.007, -0.008, 0.002, 0.004 };

static const struct compare_metric *
find_metric(const struct comparison *c, const char *case_id, const char *metric)
{
	size_t i, j;

	for (i = 0; i < c->npairs; i++)
		if (!strcmp(c->pairs[i].a->id, case_id))
			for (j = 0; j < c->pairs[i].nm; j++)
				if (!strcmp(c->pairs[i].m[j].name, metric))
					return &c->pairs[i].m[j];
	fail_msg("no metric %s in pair of %s", metric, case_id);
	return NULL;
}

static void test_pair_files(void **state)
{
	struct tb_results a = { 0 }, b = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];

	(void)state;
	put_env(&a, "box", "madvise", "6.1");
	put_env(&b, "box", "madvise", "6.2");
	/* same workload/args/thp, labels differ: paired */
	add_runs(add_case(&a, "t/always", "t", "always", "base", NULL),
		 "roi_usec", 1000, noise5, 5);
	add_runs(add_case(&b, "t/always", "t", "always", "patched", NULL),
		 "roi_usec", 1200, noise5b, 5);
	/* a different THP mode does not pair */
	add_runs(add_case(&a, "t/never", "t", "never", "base", NULL),
		 "roi_usec", 1000, noise5, 5);
	add_runs(add_case(&b, "t/madvise", "t", "madvise", "patched", NULL),
		 "roi_usec", 1000, noise5, 5);
	/* same everything, gbps up 0.1%: no change */
	add_runs(add_case(&a, "g", "g", "always", "base", NULL), "gbps", 11.7,
		 noise5, 5);
	add_runs(add_case(&b, "g", "g", "always", "patched", NULL), "gbps",
		 11.7 * 1.001, noise5b, 5);
	compare_opts_init(&o);
	o.base_path = "a.json";
	o.new_path = "b.json";
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), 0);
	assert_int_equal(c.npairs, 2);
	assert_int_equal(c.nun, 2);
	assert_string_equal(c.un[0].c->id, "t/never");
	assert_string_equal(c.un[0].side, "base");
	assert_string_equal(c.un[1].c->id, "t/madvise");
	assert_string_equal(c.un[1].side, "new");
	assert_int_equal(find_metric(&c, "t/always", "roi_usec")->verdict,
			 VERDICT_REGRESSION);
	assert_int_equal(find_metric(&c, "g", "gbps")->verdict,
			 VERDICT_NO_CHANGE);
	assert_string_equal(c.pairs[0].b_name, "patched");
	/* only the kernel differs: reported, not blocking */
	assert_int_equal(c.ndiffs, 1);
	assert_string_equal(c.diffs[0].what, "kernel");
	assert_false(c.blocking);
	compare_free(&c);
	/* the same data, lower is declared better for gbps: no change stays */
	results_free(&a);
	results_free(&b);
}

/* ---- profiles from other files (compare_attach_profile) ---- */

/* A case whose runs have roi_usec and, when fn1, self shares of fn1 and
 * "common" (percent), like a profiled run's prof.* metrics. */
static void add_prof_case(struct tb_results *r, const char *wl, const char *label,
			  const char *fn1, double share1, double common)
{
	struct tb_case *c = add_case(r, wl, wl, "always", label, NULL);
	size_t i;

	for (i = 0; i < 5; i++) {
		struct tb_run *run = case_add_run(c);

		run->status = RUN_OK;
		metric_set_put(&run->metrics, "roi_usec", 1000 * (1 + noise5[i]));
		if (!fn1)
			continue;
		metric_set_put(&run->metrics, "prof.samples", 100);
		metric_set_put(&run->metrics, fn1, share1 * (1 + noise5b[i]));
		metric_set_put(&run->metrics, "prof.self.k:common", common * (1 + noise5[i]));
	}
}

static const struct profile_row *prof_row(const struct profile_diff *d,
					  const char *name)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->rows[i].name, name))
			return &d->rows[i];
	return NULL;
}

static void test_profile_attached(void **state)
{
	struct tb_results a = { 0 }, b = { 0 }, pa = { 0 }, pb = { 0 }, px = { 0 };
	struct comparison c;
	struct compare_opts o;
	struct profile_diff d;
	const struct profile_row *r;
	char err[512];

	(void)state;
	put_env(&a, "box", "madvise", "6.1");
	put_env(&b, "box", "madvise", "6.2");
	put_env(&pa, "box", "madvise", "6.1");
	put_env(&pb, "box", "madvise", "6.2");
	put_env(&px, "box", "madvise", "6.2");
	/* the measured boots: no profile */
	add_prof_case(&a, "mremap", "A", NULL, 0, 0);
	add_prof_case(&b, "mremap", "B", NULL, 0, 0);
	/* the profile boots: A moves PMDs, B moves PTEs; both in "common" */
	add_prof_case(&pa, "mremap", "A", "prof.self.k:move_huge_pmd", 60, 20);
	add_prof_case(&pb, "mremap", "B", "prof.self.k:move_ptes", 40, 30);
	json_object_set_new(pa.meta, "profile",
			    json_pack("{ss sI}", "event", "cpu-clock", "freq", (json_int_t)100000));
	/* seen in one repetition of A, under the rows' floor: listed "only in A" */
	for (size_t i = 0; i < pa.cases[0].nruns; i++)
		metric_set_put(&pa.cases[0].runs[i].metrics, "prof.self.k:rare", i ? 0 : 1.5);
	compare_opts_init(&o);
	o.base_path = "a.json";
	o.new_path = "b.json";
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), 0);
	/* not attached: the measured files have no profile */
	assert_false(compare_profile_build(&c, &c.pairs[0], &d));
	assert_int_equal(compare_attach_profile(&c, &pa, &pb, err, sizeof(err)), 0);
	assert_true(compare_profile_build(&c, &c.pairs[0], &d));
	assert_string_equal(d.event, "cpu-clock");
	assert_int_equal(d.freq, 100000);
	r = prof_row(&d, "[k] move_huge_pmd");
	assert_non_null(r);
	assert_true(r->absent_b && !r->absent_a);
	assert_true(fabs(r->a.mean - 60) < 1);
	r = prof_row(&d, "[k] move_ptes");
	assert_non_null(r);
	assert_true(r->absent_a && !r->absent_b);
	r = prof_row(&d, "[k] common");
	assert_non_null(r);
	assert_false(r->absent_a || r->absent_b);
	assert_true(fabs(r->diff - 10) < 0.5);
	assert_true(r->lo > 0 && r->significant);
	assert_null(prof_row(&d, "[k] rare"));
	assert_int_equal(d.nonly_a, 1);
	assert_int_equal(d.nonly_b, 0);
	assert_string_equal(d.only_a[0].name, "[k] rare");
	assert_int_equal(d.only_a[0].seen, 1);
	assert_int_equal(d.only_a[0].reps, 5);
	assert_true(fabs(d.only_a[0].mean - 0.3) < 1e-9);
	/* the measured tables are the measured files': roi_usec of a and b */
	assert_int_equal(find_metric(&c, "mremap", "roi_usec")->a.n, 5);
	compare_free(&c);

	/* profile files whose cases do not pair: refused, c unchanged */
	add_prof_case(&px, "other", "B", "prof.self.k:move_ptes", 40, 30);
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), 0);
	assert_int_equal(compare_attach_profile(&c, &pa, &px, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "profiles"));
	assert_null(c.prof);
	/* profiles of another case only: attached, but no block for mremap */
	assert_int_equal(compare_attach_profile(&c, &px, &px, err, sizeof(err)), 0);
	assert_false(compare_profile_build(&c, &c.pairs[0], &d));
	compare_free(&c);

	/* a hostile event name is not printed */
	json_object_set_new(pa.meta, "profile",
			    json_pack("{ss}", "event", "cpu-clock;$(reboot)"));
	assert_int_equal(compare_build(&c, &pa, &pb, &o, err, sizeof(err)), 0);
	assert_true(compare_profile_build(&c, &c.pairs[0], &d));
	assert_string_equal(d.event, "?");
	assert_int_equal(d.freq, 0);
	compare_free(&c);
	results_free(&a);
	results_free(&b);
	results_free(&pa);
	results_free(&pb);
	results_free(&px);
}

static void test_env_refusal(void **state)
{
	struct tb_results a = { 0 }, b = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];
	size_t i;
	bool host = false, defrag = false;

	(void)state;
	put_env(&a, "box", "madvise", "6.1");
	put_env(&b, "other", "always", "6.1");
	add_runs(add_case(&a, "t", "t", "always", "", NULL), "roi_usec", 1000,
		 noise5, 5);
	add_runs(add_case(&b, "t", "t", "always", "", NULL), "roi_usec", 1000,
		 noise5b, 5);
	compare_opts_init(&o);
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--force"));
	assert_true(c.blocking);
	/* The THP knob blocks; another hostname is only reported. */
	for (i = 0; i < c.ndiffs; i++) {
		host |= !strcmp(c.diffs[i].what, "hostname") && !c.diffs[i].blocking;
		defrag |= !strcmp(c.diffs[i].what, "thp.defrag") &&
			  c.diffs[i].blocking;
	}
	assert_true(host && defrag);
	compare_free(&c);
	o.force = true;
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), 0);
	assert_int_equal(c.npairs, 1);
	compare_free(&c);
	results_free(&a);
	results_free(&b);
}

/* env.thp.enabled may differ when each case set its own mode. */
static void test_env_mode_exempt(void **state)
{
	struct tb_results a = { 0 }, b = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];

	(void)state;
	put_env(&a, "box", "madvise", "6.1");
	put_env(&b, "box", "madvise", "6.1");
	json_object_set_new(json_object_get(b.env, "thp"), "enabled",
			    json_string("always"));
	add_runs(add_case(&a, "t", "t", "always", "", NULL), "roi_usec", 1000,
		 noise5, 5);
	add_runs(add_case(&b, "t", "t", "always", "", NULL), "roi_usec", 1000,
		 noise5b, 5);
	compare_opts_init(&o);
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), 0);
	assert_false(c.blocking);
	compare_free(&c);
	/* a case left in the mode as found: now enabled matters */
	free(b.cases[0].thp);
	b.cases[0].thp = strdup("");
	free(a.cases[0].thp);
	a.cases[0].thp = strdup("");
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), -1);
	assert_true(c.blocking);
	compare_free(&c);
	results_free(&a);
	results_free(&b);
}

/* A case of the mTHP axis: its dimension and the per-size knobs it set. */
static struct tb_case *add_mthp_case(struct tb_results *r, const char *size,
				     const char *thp)
{
	char id[64];
	struct tb_case *c;
	bool on16 = !strcmp(size, "16K");

	snprintf(id, sizeof(id), "a/mthp=%s/thp=%s", size, thp);
	c = add_case(r, id, "a", thp, "", NULL);
	c->dims = json_pack("{ss}", "mthp", size);
	json_object_set_new(c->settings, "transparent_hugepage/enabled", json_string(thp));
	json_object_set_new(c->settings, "transparent_hugepage/hugepages-16kB/enabled",
			    json_string(on16 ? thp : "never"));
	json_object_set_new(c->settings, "transparent_hugepage/hugepages-64kB/enabled",
			    json_string(on16 ? "never" : thp));
	return c;
}

/* The mTHP size as a case dimension: --by mthp compares sizes within a
 * THP mode, --by thp modes within a size, two files only equal sizes;
 * the per-size knobs the axis set are no environment difference. */
static void test_by_mthp(void **state)
{
	struct tb_results r = { 0 }, b = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];

	(void)state;
	put_env(&r, "box", "madvise", "6.18");
	put_env(&b, "box", "madvise", "6.18");
	add_runs(add_mthp_case(&r, "16K", "always"), "roi_usec", 1000, noise5, 5);
	add_runs(add_mthp_case(&r, "64K", "always"), "roi_usec", 800, noise5b, 5);
	add_runs(add_mthp_case(&r, "16K", "never"), "roi_usec", 1500, noise5, 5);
	add_runs(add_mthp_case(&r, "64K", "never"), "roi_usec", 1500, noise5b, 5);
	compare_opts_init(&o);
	o.by = COMPARE_BY_MTHP;
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_false(c.blocking);
	assert_int_equal(c.npairs, 2);
	assert_int_equal(c.nun, 0);
	assert_string_equal(c.pairs[0].a_name, "mthp=16K");
	assert_string_equal(c.pairs[0].b_name, "mthp=64K");
	assert_string_equal(c.pairs[0].a->thp, c.pairs[0].b->thp);
	assert_non_null(strstr(c.pairs[0].title, "thp=always"));
	assert_null(strstr(c.pairs[0].title, "mthp="));
	assert_int_equal(c.pairs[0].m[0].verdict, VERDICT_IMPROVEMENT);
	compare_free(&c);
	o.by = COMPARE_BY_THP;
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_false(c.blocking);
	assert_int_equal(c.npairs, 2);
	assert_string_equal(c.pairs[0].a->id, "a/mthp=16K/thp=always");
	assert_string_equal(c.pairs[0].b->id, "a/mthp=16K/thp=never");
	assert_non_null(strstr(c.pairs[0].title, "mthp=16K"));
	compare_free(&c);
	/* Two files: a case pairs only with the same size. */
	add_runs(add_mthp_case(&b, "64K", "always"), "roi_usec", 800, noise5, 5);
	o.by = COMPARE_FILES;
	assert_int_equal(compare_build(&c, &r, &b, &o, err, sizeof(err)), 0);
	assert_int_equal(c.npairs, 1);
	assert_string_equal(c.pairs[0].a->id, "a/mthp=64K/thp=always");
	assert_int_equal(c.nun, 3);
	compare_free(&c);
	/* ...and blocks when the knobs of one size differ between them. */
	json_object_set_new(b.cases[0].settings,
			    "transparent_hugepage/hugepages-64kB/enabled",
			    json_string("madvise"));
	assert_int_equal(compare_build(&c, &r, &b, &o, err, sizeof(err)), -1);
	assert_true(c.blocking);
	compare_free(&c);
	assert_int_equal(compare_by_parse("mem"), COMPARE_BY_MEM);
	assert_int_equal(compare_by_parse("files"), -1);
	assert_string_equal(compare_by_what(COMPARE_BY_MTHP), "mTHP size");
	results_free(&r);
	results_free(&b);
}

static void test_by_thp(void **state)
{
	struct tb_results r = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];

	(void)state;
	put_env(&r, "box", "madvise", "6.1");
	add_runs(add_case(&r, "m/never", "m", "never", "x", NULL), "roi_usec",
		 256000, noise5, 5);
	add_runs(add_case(&r, "m/always", "m", "always", "x", NULL), "roi_usec",
		 14800, noise5b, 5);
	add_runs(add_case(&r, "m/madvise", "m", "madvise", "x", NULL),
		 "roi_usec", 256000, noise5b, 5);
	/* other label: its own group, alone */
	add_runs(add_case(&r, "m/always/y", "m", "always", "y", NULL),
		 "roi_usec", 14800, noise5b, 5);
	compare_opts_init(&o);
	o.by = COMPARE_BY_THP;
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_int_equal(c.npairs, 2);
	assert_string_equal(c.pairs[0].a_name, "thp=never");
	assert_string_equal(c.pairs[0].b_name, "thp=always");
	assert_int_equal(c.pairs[0].m[0].verdict, VERDICT_IMPROVEMENT);
	assert_string_equal(c.pairs[1].b_name, "thp=madvise");
	assert_int_equal(c.nun, 1);
	assert_string_equal(c.un[0].c->id, "m/always/y");
	compare_free(&c);
	/* --base always: always is the base, never becomes the regression */
	o.base_value = "always";
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_string_equal(c.pairs[0].a_name, "thp=always");
	assert_string_equal(c.pairs[0].b_name, "thp=never");
	assert_int_equal(c.pairs[0].m[0].verdict, VERDICT_REGRESSION);
	compare_free(&c);
	/* --base that no case has: nothing pairs, all listed */
	o.base_value = "sometimes";
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), -1);
	assert_int_equal(c.nun, 4);
	compare_free(&c);
	results_free(&r);
}

/* Each case of a run gets its own memcg / mount / zram (the paths differ
 * between always and never): they still pair, and the title shows none;
 * an env that means something (THPBENCH_ZSWAP) still keeps cases apart. */
static void test_by_thp_resource_env(void **state)
{
	struct tb_results r = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];

	(void)state;
	put_env(&r, "box", "madvise", "6.1");
	add_runs(add_case(&r, "k/never", "k", "never", "x",
			  "THPBENCH_CGROUP=/sys/fs/cgroup/thpbench-7-1"),
		 "roi_usec", 1000, noise5, 5);
	add_runs(add_case(&r, "k/always", "k", "always", "x",
			  "THPBENCH_CGROUP=/sys/fs/cgroup/thpbench-7-2"),
		 "roi_usec", 900, noise5b, 5);
	add_runs(add_case(&r, "z/never", "z", "never", "x", "THPBENCH_ZSWAP=Y"),
		 "roi_usec", 1000, noise5, 5);
	add_runs(add_case(&r, "z/always", "z", "always", "x", "THPBENCH_ZSWAP=N"),
		 "roi_usec", 1000, noise5, 5);
	compare_opts_init(&o);
	o.by = COMPARE_BY_THP;
	o.base_value = "never";
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_int_equal(c.npairs, 1);
	assert_string_equal(c.pairs[0].a->id, "k/never");
	assert_string_equal(c.pairs[0].b->id, "k/always");
	assert_null(strstr(c.pairs[0].title, "thpbench-7"));
	assert_int_equal(c.nun, 2);
	compare_free(&c);
	results_free(&r);
}

static void test_by_label(void **state)
{
	struct tb_results r = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];

	(void)state;
	put_env(&r, "box", "madvise", "6.1");
	add_runs(add_case(&r, "h/0", "h", "madvise", "tunable=0",
			  "GLIBC_TUNABLES=glibc.malloc.hugetlb=0"),
		 "page-faults", 98874, noise5, 5);
	add_runs(add_case(&r, "h/1", "h", "madvise", "tunable=1",
			  "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"),
		 "page-faults", 1871, noise5b, 5);
	/* a second tunable=1 case: ambiguous, listed */
	add_runs(add_case(&r, "h/1b", "h", "madvise", "tunable=1", NULL),
		 "page-faults", 1871, noise5b, 5);
	compare_opts_init(&o);
	o.by = COMPARE_BY_LABEL;
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_int_equal(c.npairs, 1);
	assert_string_equal(c.pairs[0].a_name, "tunable=0");
	assert_int_equal(c.pairs[0].m[0].verdict, VERDICT_IMPROVEMENT);
	assert_int_equal(c.nun, 1);
	assert_string_equal(c.un[0].c->id, "h/1b");
	assert_non_null(strstr(c.un[0].why, "ambiguous"));
	compare_free(&c);
	results_free(&r);
}

/* --by mem: the knob a fragmented case sets with its state (proactive
 * compaction off) is part of what is compared, not an environment
 * difference; any other setting that differs still blocks. */
static void test_by_mem_proactiveness(void **state)
{
	struct tb_results r = { 0 };
	struct tb_case *x, *y;
	struct comparison c;
	struct compare_opts o;
	char err[512];

	(void)state;
	put_env(&r, "box", "always", "6.18");
	x = add_case(&r, "a/mem=compacted/thp=always", "a", "always", "", NULL);
	y = add_case(&r, "a/mem=fragmented/thp=always", "a", "always", "", NULL);
	x->dims = json_pack("{ss}", "mem", "compacted");
	y->dims = json_pack("{ss}", "mem", "fragmented");
	add_runs(x, "roi_usec", 1000, noise5, 5);
	add_runs(y, "roi_usec", 1000, noise5b, 5);
	json_object_set_new(y->settings, "vm/compaction_proactiveness",
			    json_string("0"));
	compare_opts_init(&o);
	o.by = COMPARE_BY_MEM;
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_false(c.blocking);
	assert_int_equal(c.npairs, 1);
	compare_free(&c);
	json_object_set_new(y->settings, "transparent_hugepage/defrag",
			    json_string("never"));
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), -1);
	assert_int_equal(c.ndiffs, 1);
	assert_non_null(strstr(c.diffs[0].what, "transparent_hugepage/defrag"));
	compare_free(&c);
	results_free(&r);
}

/* Per-case settings that differ (other than the mode) invalidate. */
static void test_settings_differ(void **state)
{
	struct tb_results r = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];
	struct tb_case *x, *y;

	(void)state;
	put_env(&r, "box", "madvise", "6.1");
	x = add_case(&r, "m/never", "m", "never", "", NULL);
	y = add_case(&r, "m/always", "m", "always", "", NULL);
	add_runs(x, "roi_usec", 1000, noise5, 5);
	add_runs(y, "roi_usec", 1000, noise5b, 5);
	json_object_set_new(x->settings, "transparent_hugepage/enabled",
			    json_string("never"));
	json_object_set_new(y->settings, "transparent_hugepage/enabled",
			    json_string("always"));
	compare_opts_init(&o);
	o.by = COMPARE_BY_THP;
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_int_equal(c.ndiffs, 0);
	compare_free(&c);
	json_object_set_new(y->settings, "transparent_hugepage/defrag",
			    json_string("always"));
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), -1);
	assert_int_equal(c.ndiffs, 1);
	assert_non_null(strstr(c.diffs[0].what, "transparent_hugepage/defrag"));
	compare_free(&c);
	results_free(&r);
}

/* --by label: a knob the labelled case sets itself is what the label
 * compares; listed, not blocking. --by thp: the same difference blocks. */
static void test_by_label_settings(void **state)
{
	struct tb_results r = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];
	struct tb_case *x, *y;

	(void)state;
	put_env(&r, "box", "madvise", "6.1");
	x = add_case(&r, "p/off", "p", "always", "off", NULL);
	y = add_case(&r, "p/on", "p", "always", "on", NULL);
	add_runs(x, "roi_usec", 1000, noise5, 5);
	add_runs(y, "roi_usec", 1000, noise5b, 5);
	json_object_set_new(x->settings, "vm/hugetlb_optimize_vmemmap",
			    json_string("0"));
	json_object_set_new(y->settings, "vm/hugetlb_optimize_vmemmap",
			    json_string("1"));
	compare_opts_init(&o);
	o.by = COMPARE_BY_LABEL;
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_false(c.blocking);
	assert_int_equal(c.npairs, 1);
	assert_int_equal(c.ndiffs, 1);
	assert_non_null(strstr(c.diffs[0].what, "hugetlb_optimize_vmemmap"));
	compare_free(&c);
	results_free(&r);
}

static void test_too_few_refused(void **state)
{
	struct tb_results a = { 0 }, b = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512];

	(void)state;
	put_env(&a, "box", "madvise", "6.1");
	put_env(&b, "box", "madvise", "6.1");
	add_runs(add_case(&a, "t", "t", "always", "", NULL), "roi_usec", 1000,
		 noise5, 2);
	add_runs(add_case(&b, "t", "t", "always", "", NULL), "roi_usec", 2000,
		 noise5b, 5);
	compare_opts_init(&o);
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "fewer than 3"));
	assert_int_equal(c.pairs[0].m[0].verdict, VERDICT_TOO_FEW);
	compare_free(&c);
	results_free(&a);
	results_free(&b);
}

/* Adjustment is per family: many neutral counters do not dilute a timing. */
static void test_holm_families(void **state)
{
	struct tb_results a = { 0 }, b = { 0 };
	struct tb_case *ca, *cb;
	struct comparison c;
	struct compare_opts o;
	char err[512], name[32];
	const struct compare_metric *m;
	int i;

	(void)state;
	put_env(&a, "box", "madvise", "6.1");
	put_env(&b, "box", "madvise", "6.1");
	ca = add_case(&a, "t", "t", "always", "", NULL);
	cb = add_case(&b, "t", "t", "always", "", NULL);
	add_runs(ca, "roi_usec", 1000, noise5, 5);
	add_runs(cb, "roi_usec", 1080, noise5b, 5);
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "vmstat.c%02d", i);
		for (size_t k = 0; k < 5; k++) {
			metric_set_put(&ca->runs[k].metrics, name, 100 + noise5[k] * 1000);
			metric_set_put(&cb->runs[k].metrics, name, 100 + noise5b[k] * 1000);
		}
	}
	compare_opts_init(&o);
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), 0);
	m = find_metric(&c, "t", "roi_usec");
	/* alone in its family: adjusted p is its own p, interval at 95% */
	assert_int_equal(m->family, 1);
	assert_true(fabs(m->p_welch_adj - m->ch.w.p) < 1e-15);
	assert_true(fabs(m->ch.level - 0.95) < 1e-15);
	assert_int_equal(m->verdict, VERDICT_REGRESSION);
	m = find_metric(&c, "t", "vmstat.c00");
	assert_int_equal(m->family, 20);
	assert_true(fabs(m->p_welch_adj - fmin(1, 20 * m->ch.w.p)) < 1e-15);
	assert_true(fabs(m->ch.level - (1 - 0.05 / 20)) < 1e-15);
	compare_free(&c);
	results_free(&a);
	results_free(&b);
}


/* ---- the edges (issue 12) ---- */

/* A fixed pseudo-random sequence: every simulation is reproducible. */
static unsigned long lcg_state = 12345;

static double uniform(void)
{
	lcg_state = lcg_state * 6364136223846793005UL + 1442695040888963407UL;
	return ((lcg_state >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}


/* Values v of one metric into the runs of c, adding ok runs as needed. */
static void put_values(struct tb_case *c, const char *metric, const double *v,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i == c->nruns)
			case_add_run(c)->status = RUN_OK;
		metric_set_put(&c->runs[i].metrics, metric, v[i]);
	}
}

/* One case pair "t": the results, their cases, options, the comparison. */
struct fixture {
	struct tb_results a, b;
	struct tb_case *ca, *cb;
	struct compare_opts o;
	struct comparison c;
	char err[1024];
};

static void fx_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	put_env(&f->a, "box", "madvise", "6.1");
	put_env(&f->b, "box", "madvise", "6.1");
	f->ca = add_case(&f->a, "t", "t", "always", "", NULL);
	f->cb = add_case(&f->b, "t", "t", "always", "", NULL);
	compare_opts_init(&f->o);
}

static void fx_put(struct fixture *f, const char *metric, const double *x,
		   const double *y, size_t n)
{
	put_values(f->ca, metric, x, n);
	put_values(f->cb, metric, y, n);
}

static int fx_build(struct fixture *f)
{
	return compare_build(&f->c, &f->a, &f->b, &f->o, f->err, sizeof(f->err));
}

static void fx_free(struct fixture *f)
{
	compare_free(&f->c);
	results_free(&f->a);
	results_free(&f->b);
}

/* Not inlined: gcc took the memstream's buffer for a dangling local. */
__attribute__((noinline))
static char *print_to_string(const struct comparison *c, enum compare_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	compare_print(c, f, out);
	fclose(out);
	return buf;
}

/* The line that comes skip lines after the one that ends with head
 * (malloc'ed). */
static char *row_after(const char *text, const char *head, int skip)
{
	const char *p = strstr(text, head);

	assert_non_null(p);
	p += strlen(head);
	while (skip-- > 0 && strchr(p, '\n'))
		p = strchr(p, '\n') + 1;
	return strndup(p, strcspn(p, "\n"));
}

/*
 * A side with no ok run: never shown or stored as 0. Its statistics are
 * "-" in the text, empty in CSV, null in JSON, and the reason is given;
 * no made-up 0 for the difference or the p either.
 */
static void test_empty_side(void **state)
{
	struct fixture f;
	struct tb_case *da, *db;
	char *text, *csv, *js, *line;
	json_t *doc, *side;
	size_t i;

	(void)state;
	fx_init(&f);
	add_runs(f.ca, "roi_usec", 1000, noise5, 5);
	add_runs(f.cb, "roi_usec", 1010, noise5b, 5);
	da = add_case(&f.a, "dead", "dead", "always", "", NULL);
	db = add_case(&f.b, "dead", "dead", "always", "", NULL);
	add_runs(da, "roi_usec", 500, noise5, 5);
	for (i = 0; i < 5; i++) {
		struct tb_run *run = case_add_run(db);

		/* measured, then failed: its values are not used */
		run->status = RUN_FAILED;
		run->reason = strdup("exited with status 1");
		metric_set_put(&run->metrics, "roi_usec", 505);
	}
	assert_int_equal(fx_build(&f), 0);
	text = print_to_string(&f.c, COMPARE_FMT_TEXT);
	line = row_after(text, "dead thp=always: base (n=5) vs new (n=0)\n", 1);
	if (!strstr(line, "-  too few"))
		fail_msg("text row: %s", line);
	assert_null(strstr(line, " 0 "));
	free(line);
	assert_non_null(strstr(text, "5 of 5 runs not ok"));
	csv = print_to_string(&f.c, COMPARE_FMT_CSV);
	/* new_n 0, then ten empty side cells, and no diff, p or n_needed */
	line = row_after(csv, "\ndead thp=always,", 0);
	if (!strstr(line, ",0,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,too few"))
		fail_msg("csv row: %s", line);
	free(line);
	js = print_to_string(&f.c, COMPARE_FMT_JSON);
	doc = json_loads(js, 0, NULL);
	assert_non_null(doc);
	side = json_object_get(json_array_get(json_object_get(
		json_array_get(json_object_get(doc, "pairs"), 1), "metrics"), 0), "new");
	assert_int_equal(json_integer_value(json_object_get(side, "n")), 0);
	assert_true(json_is_null(json_object_get(side, "mean")));
	assert_true(json_is_null(json_object_get(side, "min")));
	json_decref(doc);
	free(text);
	free(csv);
	free(js);
	fx_free(&f);
}

/* JSON and CSV numbers in their shortest round-trip form: values near
 * 1e15 + k were printed as 1e15 (ten digits). */
static void test_numbers_round_trip(void **state)
{
	const double x[] = { 1e15 + 1, 1e15 + 2, 1e15 + 3, 1e15 + 4, 1e15 + 5 };
	const double y[] = { 1e15 + 11, 1e15 + 12, 1e15 + 13, 1e15 + 14, 1e15 + 15 };
	struct fixture f;
	char *csv, *js;
	json_t *doc, *m;

	(void)state;
	fx_init(&f);
	fx_put(&f, "vmstat.pgfault", x, y, 5);
	assert_int_equal(fx_build(&f), 0);
	csv = print_to_string(&f.c, COMPARE_FMT_CSV);
	assert_non_null(strstr(csv, ",5,1000000000000003,1.5811388300841898,"));
	assert_non_null(strstr(csv, ",1000000000000001,1000000000000005,"));
	js = print_to_string(&f.c, COMPARE_FMT_JSON);
	assert_non_null(strstr(js, "\"mean\": 1000000000000003.0,"));
	doc = json_loads(js, 0, NULL);
	assert_non_null(doc);
	m = json_array_get(json_object_get(json_array_get(json_object_get(doc, "pairs"), 0),
					   "metrics"), 0);
	assert_true(json_real_value(json_object_get(json_object_get(m, "new"), "mean")) ==
		    1e15 + 13);
	assert_true(json_real_value(json_object_get(json_object_get(m, "base"), "stddev")) ==
		    f.c.pairs[0].m[0].a.s.stddev);
	json_decref(doc);
	free(csv);
	free(js);
	fx_free(&f);
}

/* 1: 1e80 is compared; 1e200 is refused with a message (exit 2), and a
 * GSL error is recorded instead of aborting the program. */
static void test_huge_values(void **state)
{
	const double big[] = { 1.0e80, 1.1e80, 0.9e80, 1.05e80, 0.95e80 };
	const double big2[] = { 2.0e80, 2.1e80, 1.9e80, 2.05e80, 1.95e80 };
	const double huge[] = { 1e200, 1e200, 1e200 };
	char path_a[] = "/tmp/tb-huge-a-XXXXXX", path_b[] = "/tmp/tb-huge-b-XXXXXX";
	char *argv[] = { "compare", path_a, path_b, NULL };
	struct fixture f;
	const struct compare_metric *m;

	(void)state;
	stats_gsl_trap();
	stats_gsl_clear();
	assert_true(isnan(gsl_sf_gamma(-1)));
	assert_non_null(stats_gsl_error());
	fx_init(&f);
	fx_put(&f, "roi_usec", big, big2, 5);
	assert_int_equal(fx_build(&f), 0);
	m = find_metric(&f.c, "t", "roi_usec");
	assert_true(isfinite(m->w.df) && m->w.p < 1e-6);
	assert_int_equal(m->verdict, VERDICT_REGRESSION);
	compare_free(&f.c);
	fx_put(&f, "gbps", huge, huge, 3);
	assert_int_equal(fx_build(&f), -1);
	assert_non_null(strstr(f.err, "metric gbps has the value 1e+200"));
	close(mkstemp(path_a));
	close(mkstemp(path_b));
	assert_int_equal(store_write(&f.a, path_a, f.err, sizeof(f.err)), 0);
	assert_int_equal(store_write(&f.b, path_b, f.err, sizeof(f.err)), 0);
	assert_int_equal(compare_main(3, argv, stdout), 2);
	unlink(path_a);
	unlink(path_b);
	fx_free(&f);
}

/* 4: a lower-is-better metric from -10 to -5 went up: a regression, and
 * the output says the interval is of the difference. */
static void test_negative_direction(void **state)
{
	const double x[] = { -10.1, -9.9, -10.0, -10.2, -9.8 };
	const double y[] = { -5.1, -4.9, -5.0, -5.2, -4.8 };
	struct fixture f;
	const struct compare_metric *m;
	char *out;

	(void)state;
	fx_init(&f);
	fx_put(&f, "offset_usec", x, y, 5);
	assert_int_equal(fx_build(&f), 0);
	m = find_metric(&f.c, "t", "offset_usec");
	assert_int_equal(m->ch.method, CHANGE_DIFF);
	assert_true(fabs(m->ch.rel - 0.5) < 1e-12);
	assert_int_equal(m->verdict, VERDICT_REGRESSION);
	out = print_to_string(&f.c, COMPARE_FMT_TEXT);
	assert_non_null(strstr(out, "Δ[4."));
	free(out);
	fx_free(&f);
}

/* 5: a counter from [0,0,0,0,1] to 30000 changed, as one from all zero
 * does; no interval of a non-negative counter goes below -100%. */
static void test_near_zero(void **state)
{
	const double z1[] = { 0, 0, 0, 0, 1 }, z0[] = { 0, 0, 0, 0, 0 };
	const double big[] = { 30000, 30010, 29990, 30005, 29995 };
	const double pg[] = { 10, 12, 9, 11, 30 }, pg2[] = { 1, 0, 2, 0, 1 };
	struct fixture f;
	const struct compare_metric *m;

	(void)state;
	fx_init(&f);
	fx_put(&f, "vmstat.one", z1, big, 5);
	fx_put(&f, "vmstat.zero", z0, big, 5);
	fx_put(&f, "vmstat.pgmajfault", pg, pg2, 5);
	assert_int_equal(fx_build(&f), 0);
	assert_int_equal(find_metric(&f.c, "t", "vmstat.one")->verdict, VERDICT_CHANGED);
	assert_int_equal(find_metric(&f.c, "t", "vmstat.zero")->verdict, VERDICT_CHANGED);
	m = find_metric(&f.c, "t", "vmstat.pgmajfault");
	assert_true(m->ch.lo >= -1 && m->ch.hi >= -1);
	assert_true(m->ch.w.ci_lo < -m->ch.base);	/* the raw bound is below */
	fx_free(&f);
}

/* Four metrics of n values: a lognormal timing, a signed delta, a counter
 * with zeros and GB/s; new shifted by `shift` (0: A/A). */
static void fx_four(struct fixture *f, size_t n, double shift)
{
	static const char *const names[] = { "lat_usec", "delta_usec",
					     "vmstat.thp_x", "gbps" };
	double va[16], vb[16];
	size_t i, k;

	for (k = 0; k < 4; k++) {
		for (i = 0; i < n; i++) {
			double ga = gauss(), gb = gauss();

			va[i] = k == 0 ? 1000 * exp(0.03 * ga) :
				k == 1 ? 0.5 + ga : k == 2 ? floor(fabs(2 * ga)) :
				10 * (1 + 0.02 * ga);
			vb[i] = k == 0 ? 1000 * exp(shift + 0.03 * gb) :
				k == 1 ? 0.5 + shift * 10 + gb :
				k == 2 ? floor(fabs(2 * gb) + shift * 30) :
				10 * (1 + shift + 0.02 * gb);
		}
		fx_put(f, names[k], va, vb, n);
	}
}

/* The heading of each "confidence (Welch)" block agrees with its d +- e. */
static void welch_headings_agree(const char *out)
{
	const char *s = out, *ls;
	double d, e;

	while ((s = strstr(s, "confidence (Welch)\n\t"))) {
		for (ls = s; ls > out && ls[-1] != '\n'; ls--)
			;
		assert_int_equal(sscanf(s, "confidence (Welch)\n\t%lf +/- %lf", &d, &e), 2);
		assert_true(!strncmp(ls, "No ", 3) ? fabs(d) <= e * (1 + 1e-5) :
			    fabs(d) >= e * (1 - 1e-5));
		s++;
	}
}

/*
 * 6: verdict, p and interval agree on 300 random pairs of four metrics:
 * the interval excludes 0 exactly when the adjusted Welch p is below
 * alpha, a claimed change has p < alpha, and the ministat and welch
 * formats never print "No difference proven" above a d +- e that
 * excludes 0.
 */
static void test_consistency(void **state)
{
	int trial, checked = 0;

	(void)state;
	for (trial = 0; trial < 300; trial++) {
		struct fixture f;
		char *out;
		size_t k;

		fx_init(&f);
		fx_four(&f, 3 + (size_t)trial % 6, 0.03 * (trial % 5));
		assert_int_equal(fx_build(&f), 0);
		for (k = 0; k < f.c.pairs[0].nm; k++) {
			const struct compare_metric *m = &f.c.pairs[0].m[k];
			bool excl = m->ch.w.ci_lo > 0 || m->ch.w.ci_hi < 0;

			if (!m->judged)
				continue;
			checked++;
			if (fabs(m->p_welch_adj - 0.05) > 1e-9 && m->ch.w.se > 0)
				assert_int_equal(excl, m->p_welch_adj < 0.05);
			if (verdict_is_change(m->verdict))
				assert_true(m->p < 0.05);
		}
		out = print_to_string(&f.c, COMPARE_FMT_MINISTAT);
		assert_null(strstr(out, "No difference proven at 95.0% confidence\n\t"));
		free(out);
		out = print_to_string(&f.c, COMPARE_FMT_WELCH);
		welch_headings_agree(out);
		free(out);
		fx_free(&f);
	}
	print_message("consistency: %d judged metrics of 300 pairs, verdict, p and interval agree in all\n",
		      checked);
	assert_true(checked > 900);
}

/* 9: %stddev and %change never run together, however wide. */
/* Shares of the enabled time each side's runs were counting. */
static void put_shares(struct tb_case *c, const char *metric, const double *pct,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		metric_set_put(&c->runs[i].counted_pct, metric, pct[i]);
}

/*
 * Multiplexed counters in a comparison: the least share per side is kept
 * (JSON), and the printed formats say the values were scaled, warning
 * where a side counted less than COUNTED_WARN_PCT of the time. A counter
 * counted throughout, and a metric that is no counter, say nothing; an
 * event that was never on the PMU is "not measured" with its reason.
 */
static void test_multiplexed(void **state)
{
	const double x[] = { 100, 102, 98, 101, 99 }, y[] = { 50, 51, 49, 50, 50 };
	const double full[] = { 100, 100, 100, 100, 100 };
	const double half[] = { 50, 49.5, 50, 50.5, 50 };
	const double low[] = { 40, 12, 38, 41, 39 };
	const struct compare_metric *m;
	struct fixture f;
	json_t *j, *jm;
	json_error_t jerr;
	char *out;
	size_t i;

	(void)state;
	fx_init(&f);
	fx_put(&f, "tlb.dtlb_walks", x, y, 5);
	fx_put(&f, "tlb.stlb_hits", x, y, 5);
	fx_put(&f, "tlb.cycles", x, x, 5);
	fx_put(&f, "roi_usec", x, x, 5);
	put_shares(f.ca, "tlb.dtlb_walks", half, 5);
	put_shares(f.cb, "tlb.dtlb_walks", full, 5);
	put_shares(f.ca, "tlb.stlb_hits", half, 5);
	put_shares(f.cb, "tlb.stlb_hits", low, 5);
	put_shares(f.ca, "tlb.cycles", full, 5);
	put_shares(f.cb, "tlb.cycles", full, 5);
	for (i = 0; i < 5; i++)
		note_set_put(&f.cb->runs[i].unsupported, "tlb.load_walk_cycles",
			     "<not counted>: its group never got the hardware counters it needs at once");
	f.o.base_path = "a.json";
	f.o.new_path = "b.json";
	assert_int_equal(fx_build(&f), 0);
	m = find_metric(&f.c, "t", "tlb.dtlb_walks");
	assert_true(m->a.counted_min == 49.5 && m->b.counted_min == 100);
	m = find_metric(&f.c, "t", "tlb.stlb_hits");
	assert_true(m->b.counted_min == 12);
	assert_true(isnan(find_metric(&f.c, "t", "roi_usec")->a.counted_min));
	/* scaling does not stop the statistics: half the walks is better */
	assert_int_equal(find_metric(&f.c, "t", "tlb.dtlb_walks")->verdict,
			 VERDICT_IMPROVEMENT);

	out = print_to_string(&f.c, COMPARE_FMT_TEXT);
	assert_non_null(strstr(out, "note: tlb.dtlb_walks: counted 49.50% of the time at worst in base, 100.00% in new (multiplexed; values scaled by enabled/running)"));
	assert_non_null(strstr(out, "note: warning: tlb.stlb_hits: counted 49.50% of the time at worst in base, 12.00% in new"));
	assert_non_null(strstr(out, "extrapolates from a small part of the run"));
	assert_null(strstr(out, "tlb.cycles: counted"));
	assert_null(strstr(out, "roi_usec: counted"));
	assert_non_null(strstr(out, "tlb.load_walk_cycles not measured (<not counted>:"));
	free(out);

	out = print_to_string(&f.c, COMPARE_FMT_MD);
	assert_non_null(strstr(out, "tlb.dtlb_walks: counted 49.50%"));
	free(out);

	out = print_to_string(&f.c, COMPARE_FMT_JSON);
	j = json_loads(out, 0, &jerr);
	assert_non_null(j);
	jm = NULL;
	json_array_foreach(json_object_get(json_array_get(json_object_get(j, "pairs"), 0),
					   "metrics"), i, jm)
		if (!strcmp(json_string_value(json_object_get(jm, "name")), "tlb.stlb_hits"))
			break;
	assert_non_null(jm);
	assert_true(json_number_value(json_object_get(json_object_get(jm, "base"),
						      "counted_pct_min")) == 49.5);
	assert_true(json_number_value(json_object_get(json_object_get(jm, "new"),
						      "counted_pct_min")) == 12);
	json_decref(j);
	free(out);
	fx_free(&f);
}

static void test_text_columns(void **state)
{
	const double x[] = { 1, 1, 1, 1, 40 };
	const double y[] = { 150000, 150010, 149990, 150005, 149995 };
	struct fixture f;
	char *out;

	(void)state;
	fx_init(&f);
	fx_put(&f, "vmstat.thp_fault_alloc", x, y, 5);
	assert_int_equal(fx_build(&f), 0);
	out = print_to_string(&f.c, COMPARE_FMT_TEXT);
	assert_non_null(strstr(out, "±198%"));
	assert_null(strstr(out, "%+"));
	assert_null(strstr(out, "%-"));
	assert_null(strstr(out, "%["));
	free(out);
	fx_free(&f);
}

/* 10, 11: a level is not judged unless asked; all-zero metrics and levels
 * stay out of the tally. */
static void test_gauges_and_tally(void **state)
{
	const double l1[] = { 100, 90, 120, 80, 110 }, l2[] = { 200, 190, 210, 205, 195 };
	const double z[] = { 0, 0, 0, 0, 0 };
	const char *level = "vmstat.nr_anon_transparent_hugepages.after";
	struct fixture f;
	char tally[400];

	(void)state;
	fx_init(&f);
	fx_put(&f, level, l1, l2, 5);
	fx_put(&f, "vmstat.thp_split_pmd", z, z, 5);
	assert_int_equal(fx_build(&f), 0);
	assert_int_equal(find_metric(&f.c, "t", level)->verdict, VERDICT_LEVEL);
	assert_int_equal(compare_count(&f.c, VERDICT_NO_CHANGE), 0);
	assert_int_equal(compare_count(&f.c, VERDICT_CHANGED), 0);
	compare_fmt_tally(&f.c, tally, sizeof(tally));
	assert_non_null(strstr(tally, "0 no change"));
	assert_non_null(strstr(tally, "1 level not judged"));
	assert_non_null(strstr(tally, "1 metric 0 in every run, not counted"));
	compare_free(&f.c);
	f.o.judge_gauges = true;
	assert_int_equal(fx_build(&f), 0);
	assert_int_equal(find_metric(&f.c, "t", level)->verdict, VERDICT_CHANGED);
	fx_free(&f);
}

/* 13: five runs a side but of different metrics: say that, not "-r 5". */
static void test_error_advice(void **state)
{
	const double v[] = { 1, 2, 3, 4, 5 };
	struct fixture f;

	(void)state;
	fx_init(&f);
	put_values(f.ca, "roi_usec", v, 5);
	put_values(f.cb, "wall_usec", v, 5);
	assert_int_equal(fx_build(&f), -1);
	assert_non_null(strstr(f.err, "no metric was measured on both sides"));
	assert_non_null(strstr(f.err, "roi_usec"));
	assert_non_null(strstr(f.err, "wall_usec"));
	assert_null(strstr(f.err, "-r 5"));
	fx_free(&f);
}

/*
 * A/A calibration: 400 simulated comparisons of two samples from the
 * same normal distribution (cv 3%, n = 5, fixed pseudo-random sequence)
 * must claim a change in at most alpha of them; the threshold rule
 * makes it far rarer than that.
 */
static void test_aa_calibration(void **state)
{
	int trial, claims = 0;

	(void)state;
	for (trial = 0; trial < 400; trial++) {
		struct tb_results a = { 0 }, b = { 0 };
		double na[5], nb[5];
		struct comparison c;
		struct compare_opts o;
		char err[256];
		int i;

		for (i = 0; i < 5; i++) {
			na[i] = 0.03 * gauss();
			nb[i] = 0.03 * gauss();
		}
		put_env(&a, "box", "madvise", "6.1");
		put_env(&b, "box", "madvise", "6.1");
		add_runs(add_case(&a, "t", "t", "always", "", NULL), "roi_usec",
			 1000, na, 5);
		add_runs(add_case(&b, "t", "t", "always", "", NULL), "roi_usec",
			 1000, nb, 5);
		compare_opts_init(&o);
		assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), 0);
		claims += verdict_is_change(c.pairs[0].m[0].verdict);
		compare_free(&c);
		results_free(&a);
		results_free(&b);
	}
	print_message("A/A: %d of 400 comparisons claimed a change\n", claims);
	assert_true(claims <= 400 * 0.05);
}


/*
 * 7: "runs needed" holds for the rule applied. At cv 3% and threshold 2%,
 * n per side for a true change of 4% (twice the threshold), then 400
 * simulated comparisons of lognormal samples with that true change: the
 * rule must call a regression in 80% of them (power 0.8; +-0.07 is over
 * 3 binomial standard deviations). A base of 0 gives no spread to scale
 * a number of runs from: never "about 0 runs per side".
 */
static void test_power_simulation(void **state)
{
	struct change model = { .method = CHANGE_LOG, .sd = 0.03 };
	const double z[] = { 0, 0, 0, 0, 0 }, v[] = { 3, 5, 4, 6, 2 };
	size_t n = rule_n_needed(&model, 0.02, 0.04, 0.05, 0.8), i;
	int trial, called = 0;
	struct fixture f;
	char why[600];
	double va[200], vb[200];

	(void)state;
	assert_true(n > 10 && n < 200);
	for (trial = 0; trial < 400; trial++) {
		for (i = 0; i < n; i++) {
			va[i] = 1000 * exp(0.03 * gauss());
			vb[i] = 1040 * exp(0.03 * gauss());
		}
		fx_init(&f);
		fx_put(&f, "roi_usec", va, vb, n);
		assert_int_equal(fx_build(&f), 0);
		called += f.c.pairs[0].m[0].verdict == VERDICT_REGRESSION;
		fx_free(&f);
	}
	print_message("power: n = %zu per side, %d of 400 called (want 320)\n",
		      n, called);
	assert_true(called >= 400 * 0.73 && called <= 400 * 0.87);
	fx_init(&f);
	fx_put(&f, "vmstat.x", z, v, 5);
	f.o.threshold = 0.5;
	assert_int_equal(fx_build(&f), 0);
	compare_fmt_why(&f.c.pairs[0].m[0], &f.o, why, sizeof(why));
	assert_null(strstr(why, "about 0 runs"));
	fx_free(&f);
}

/*
 * A/A false positives: 1000 comparisons of two samples from the same
 * distributions (n 3..10, the four metrics of fx_four()): within each
 * family the rate of a significant adjusted p must stay at most alpha
 * (+ 3 binomial standard deviations: 0.0707).
 */
static void test_aa_false_positives(void **state)
{
	int trial, sig_dir = 0, sig_neu = 0, claims = 0;

	(void)state;
	for (trial = 0; trial < 1000; trial++) {
		bool dir = false, neu = false, claim = false;
		struct fixture f;
		size_t k;

		fx_init(&f);
		fx_four(&f, 3 + (size_t)trial % 8, 0);
		assert_int_equal(fx_build(&f), 0);
		for (k = 0; k < f.c.pairs[0].nm; k++) {
			const struct compare_metric *m = &f.c.pairs[0].m[k];

			if (m->info.better == BETTER_NEUTRAL)
				neu |= m->p < 0.05;
			else
				dir |= m->p < 0.05;
			claim |= verdict_is_change(m->verdict);
		}
		sig_dir += dir;
		sig_neu += neu;
		claims += claim;
		fx_free(&f);
	}
	print_message("A/A: 1000 pairs: significant in %d (directional family), %d (neutral), a change claimed in %d\n",
		      sig_dir, sig_neu, claims);
	assert_true(sig_dir <= 70 && sig_neu <= 70);
	assert_true(claims <= sig_dir + sig_neu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_rules),
		cmocka_unit_test(test_metric_direction),
		cmocka_unit_test(test_fault_counts_direction),
		cmocka_unit_test(test_metric_overrides),
		cmocka_unit_test(test_pair_files),
		cmocka_unit_test(test_profile_attached),
		cmocka_unit_test(test_empty_side),
		cmocka_unit_test(test_numbers_round_trip),
		cmocka_unit_test(test_env_refusal),
		cmocka_unit_test(test_env_mode_exempt),
		cmocka_unit_test(test_by_thp),
		cmocka_unit_test(test_by_thp_resource_env),
		cmocka_unit_test(test_by_mthp),
		cmocka_unit_test(test_by_label),
		cmocka_unit_test(test_by_label_settings),
		cmocka_unit_test(test_settings_differ),
		cmocka_unit_test(test_by_mem_proactiveness),
		cmocka_unit_test(test_too_few_refused),
		cmocka_unit_test(test_holm_families),
		cmocka_unit_test(test_aa_calibration),
		cmocka_unit_test(test_huge_values),
		cmocka_unit_test(test_negative_direction),
		cmocka_unit_test(test_near_zero),
		cmocka_unit_test(test_consistency),
		cmocka_unit_test(test_multiplexed),
		cmocka_unit_test(test_text_columns),
		cmocka_unit_test(test_gauges_and_tally),
		cmocka_unit_test(test_error_advice),
		cmocka_unit_test(test_power_simulation),
		cmocka_unit_test(test_aa_false_positives),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
