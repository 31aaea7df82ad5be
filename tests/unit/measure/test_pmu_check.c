// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu-check's decision on counts. No machine here has a PMU, so the
 * hardware is simulated (fixed seeds) from what pmu_check.h assumes of a
 * working one - about a walk per load with 4 KiB pages, almost none with
 * 2 MiB, walks in proportion to loads, noise, multiplexing - and from the
 * ways a counter goes wrong: counting nothing, something else (every
 * load, every cycle), saturating, a walk-cycle event that is not one.
 * Each good machine must pass and each broken one fail, over many draws.
 * The run recorded on this VM (tests/fixtures/pmu-check/vm-no-pmu.json:
 * no PMU) must be "cannot tell", saying there is no PMU.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/pmu_check.h"
#include "results/store.h"
#include "util/util.h"

static uint64_t rng = 88172645463325252ULL;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static double gauss(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* A machine: what its walk counter reads for a chase. */
struct machine {
	double rate4k, rate2m;		/* walks per load */
	double noise;			/* relative sd of a count */
	double counted;			/* percent of the time on the PMU */
	double cyc4k, cyc2m;		/* walk cycles, % of cycles; NAN none */
	double cap;			/* > 0: the counter saturates here */
	double constant;		/* > 0: reads this whatever the loads */
	bool no_huge;			/* the 2 MiB case got base pages */
	const char *unsupported;	/* the walks are not counted, why */
	size_t runs;
	bool one_size;
};

static const double sizes[] = { 16384, 65536 };
static const unsigned int backings[] = { 4, 2048 };

static double draw(double v, double noise)
{
	v *= 1 + noise * gauss();
	return v > 0 ? v : 0;
}

static void add_case(struct tb_results *r, const struct machine *m,
		     unsigned int page_kb, double pages)
{
	struct tb_case *c = results_add_case(r);
	char id[64];
	size_t i;

	snprintf(id, sizeof(id), "chase_%s_%.0f", page_kb == 4 ? "4k" : "2m", pages);
	c->id = xstrdup(id);
	c->workload = xstrdup("pchase");
	for (i = 0; i < m->runs; i++) {
		struct tb_run *run = case_add_run(c);
		double loads = 8 * pages, rate = page_kb == 4 ? m->rate4k : m->rate2m;
		double walks = draw(loads * rate, m->noise);

		if (m->cap > 0 && walks > m->cap)
			walks = draw(m->cap, m->noise);
		if (m->constant > 0)
			walks = draw(m->constant, m->noise);
		run->status = RUN_OK;
		run->huge = page_kb == 2048 && !m->no_huge;
		metric_set_put(&run->metrics, "pages", pages);
		metric_set_put(&run->metrics, "page_kb", page_kb);
		metric_set_put(&run->metrics, "accesses", loads);
		if (m->unsupported) {
			note_set_put(&run->unsupported, "tlb.dtlb_walks", m->unsupported);
			continue;
		}
		metric_set_put(&run->metrics, "tlb.dtlb_walks", walks);
		metric_set_put(&run->counted_pct, "tlb.dtlb_walks", m->counted);
		if (!isnan(m->cyc4k))
			metric_set_put(&run->metrics, "tlb.walk_cycles_pct",
				       draw(page_kb == 4 ? m->cyc4k : m->cyc2m, m->noise));
	}
}

static enum pmu_verdict judge(const struct machine *m, struct pmu_judgement *j,
			      bool print)
{
	struct tb_results r = { 0 };
	struct pmu_data d;
	char err[256];
	size_t i, k;

	r.env = json_pack("{s:b, s:{s:s, s:s}}", "pmu", !m->unsupported ||
			  strstr(m->unsupported, "<not counted>"), "tlb_profile",
			  "model", "Simulated", "notes", "walks are simulated");
	r.meta = json_object();
	for (i = 0; i < ARRAY_SIZE(sizes) - m->one_size; i++)
		for (k = 0; k < ARRAY_SIZE(backings); k++)
			add_case(&r, m, backings[k], sizes[i]);
	assert_int_equal(pmu_data_from_results(&r, &d, err, sizeof(err)), 0);
	assert_string_equal(d.notes, "walks are simulated");	/* printed with the model */
	pmu_judge(&d, j);
	if (print)
		pmu_print(stdout, &d, j);
	results_free(&r);
	return j->verdict;
}

/* A working PMU, as drawn: Intel-like with walk cycles or AMD-like without. */
static struct machine good(void)
{
	struct machine m = {
		.rate4k = 0.85 + 0.4 * uniform(), .rate2m = 0.004 * uniform(),
		.noise = 0.01 + 0.04 * uniform(), .counted = 100, .runs = 5,
		.cyc4k = NAN, .cyc2m = NAN,
	};

	if (uniform() < 0.5) {
		m.cyc4k = 20 + 40 * uniform();
		m.cyc2m = 0.5 * uniform();
	}
	return m;
}

static bool has(const struct pmu_judgement *j, enum pmu_state s, const char *text)
{
	size_t i;

	for (i = 0; i < j->nf; i++)
		if (j->f[i].state == s && strstr(j->f[i].text, text))
			return true;
	return false;
}

static void test_good_machines_behave(void **state)
{
	struct pmu_judgement j;
	struct machine m;
	int i;

	(void)state;
	m = good();
	m.cyc4k = 41.2;
	m.cyc2m = 0.3;
	assert_int_equal(judge(&m, &j, true), PMU_BEHAVES);
	assert_true(has(&j, PMU_OK, "4 KiB pages: walks per load"));
	assert_true(has(&j, PMU_OK, "more walks per load"));
	assert_true(has(&j, PMU_OK, "walks grew"));
	assert_true(has(&j, PMU_OK, "walk cycles at 65536 pages"));
	for (i = 0; i < 500; i++) {
		m = good();
		if (judge(&m, &j, false) != PMU_BEHAVES)
			fail_msg("draw %d: a working PMU judged %d: %s", i, j.verdict,
				 j.f[0].text);
	}
}

/* Multiplexed: scaled counts are noisier but still judged; the share is
 * noted, and warned about when small. */
static void test_multiplexed_still_judged(void **state)
{
	struct pmu_judgement j;
	struct machine m;
	int i;

	(void)state;
	for (i = 0; i < 300; i++) {
		m = good();
		m.counted = 30 + 40 * uniform();
		m.noise = 0.08;
		assert_int_equal(judge(&m, &j, false), PMU_BEHAVES);
		assert_true(has(&j, PMU_NOTE, "(multiplexed; scaled by enabled/running)"));
		assert_false(has(&j, PMU_NOTE, "warning"));
	}
	m = good();
	m.counted = 12;
	assert_int_equal(judge(&m, &j, false), PMU_BEHAVES);
	assert_true(has(&j, PMU_NOTE, "warning: the walks were counted 12.00%"));
}

/* The ways a counter lies, each over many draws of the rest. */
static void test_broken_counters_fail(void **state)
{
	static const char *const kinds[] = {
		"counts nothing", "counts every load", "counts cycles",
		"saturates", "reads a constant", "walk cycles inverted",
	};
	struct pmu_judgement j;
	struct machine m;
	size_t k;
	int i;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		for (i = 0; i < 200; i++) {
			m = good();
			switch (k) {
			case 0:
				m.rate4k = m.rate2m = 0;
				break;
			case 1:	/* a wrong umask: every L1 access, whatever the page */
				m.rate4k = m.rate2m = 1 + 0.2 * uniform();
				break;
			case 2:	/* a wrong event code: cycles, hundreds per load */
				m.rate4k = 150 + 300 * uniform();
				m.rate2m = 0.5 * m.rate4k;
				break;
			case 3:	/* a counter that stops (or wraps) early */
				m.cap = 8 * sizes[0] * m.rate4k * (1.1 + uniform());
				break;
			case 4:
				m.constant = 1e5 * (1 + uniform());
				break;
			case 5:
				m.cyc4k = 0.2;
				m.cyc2m = 30;
				break;
			}
			if (judge(&m, &j, false) != PMU_MISBEHAVES)
				fail_msg("%s, draw %d: judged %d (%s)", kinds[k], i,
					 j.verdict, j.nf ? j.f[0].text : "");
		}
}

static void test_cannot_tell(void **state)
{
	struct pmu_judgement j;
	struct machine m;

	(void)state;
	m = good();
	m.unsupported = "<not supported>: no hardware PMU: this CPU/VM exposes none for this event (ENOENT)";
	assert_int_equal(judge(&m, &j, false), PMU_CANNOT_TELL);
	assert_true(has(&j, PMU_UNKNOWN, "no PMU here"));

	/* arm64 in qemu: a PMU, without the TLB event (not in PMCEID). */
	m = good();
	m.unsupported = "<not supported>: PMU lacks event: the armv8_pmuv3 PMU does not count this one (arm64: not in PMCEID) (ENOENT)";
	assert_int_equal(judge(&m, &j, false), PMU_CANNOT_TELL);
	assert_true(has(&j, PMU_UNKNOWN, "a PMU, not this event: "));
	assert_false(has(&j, PMU_UNKNOWN, "no PMU here"));

	m = good();
	m.unsupported = "<not counted>: its group never got the hardware counters it needs at once";
	assert_int_equal(judge(&m, &j, false), PMU_CANNOT_TELL);
	assert_true(has(&j, PMU_UNKNOWN, "TLB walks not counted: <not counted>"));
	assert_false(has(&j, PMU_UNKNOWN, "no PMU here"));

	m = good();
	m.no_huge = true;
	assert_int_equal(judge(&m, &j, false), PMU_CANNOT_TELL);
	assert_true(has(&j, PMU_UNKNOWN, "2 MiB pages in 0 of 5 runs"));

	m = good();
	m.runs = 2;
	assert_int_equal(judge(&m, &j, false), PMU_CANNOT_TELL);
	assert_true(has(&j, PMU_UNKNOWN, "2 ok runs, fewer than 3"));

	m = good();
	m.one_size = true;
	assert_int_equal(judge(&m, &j, false), PMU_CANNOT_TELL);
	assert_true(has(&j, PMU_UNKNOWN, "scaling needs 2x"));
	assert_true(has(&j, PMU_OK, "more walks per load"));
}

/* Recorded on this VM (no PMU): the run's own results file. */
static void test_recorded_vm_without_pmu(void **state)
{
	struct pmu_judgement j;
	struct tb_results r;
	struct pmu_data d;
	char err[512];

	(void)state;
	if (store_load("tests/fixtures/pmu-check/vm-no-pmu.json", &r, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(pmu_data_from_results(&r, &d, err, sizeof(err)), 0);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.walk_metric, "tlb.dtlb_walks");
	assert_string_equal(d.model, "AMD Zen 3");
	assert_string_equal(d.notes, "");	/* recorded before profiles had notes */
	assert_false(d.pmu);
	pmu_judge(&d, &j);
	assert_int_equal(j.verdict, PMU_CANNOT_TELL);
	assert_true(has(&j, PMU_UNKNOWN, "no PMU here"));
	assert_true(has(&j, PMU_UNKNOWN, "no hardware PMU"));
	results_free(&r);

	/* a results file without the chase */
	assert_int_equal(store_load("tests/fixtures/compare/base.json", &r, err, sizeof(err)), 0);
	assert_int_equal(pmu_data_from_results(&r, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no pointer-chase cases"));
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_machines_behave),
		cmocka_unit_test(test_multiplexed_still_judged),
		cmocka_unit_test(test_broken_counters_fail),
		cmocka_unit_test(test_cannot_tell),
		cmocka_unit_test(test_recorded_vm_without_pmu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
