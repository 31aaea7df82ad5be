// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event names -> perf_event_attr. Expected encodings are the kernel ABI's
 * (linux/perf_event.h), i.e. what perf itself puts in attr for the name.
 * Tracepoints come from tests/fixtures/tracefs, whose ids differ from any
 * real kernel's, so a pass proves the fixture (not /sys) was read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/event_list.h"
#include "measure/events.h"
#include "measure/tlb_profile.h"
#include "pmu.h"
#include "util/util.h"

#define FIXTURE "tests/fixtures/tracefs"

#define CACHE(c, op, res) (PERF_COUNT_HW_CACHE_##c | \
			   PERF_COUNT_HW_CACHE_OP_##op << 8 | \
			   PERF_COUNT_HW_CACHE_RESULT_##res << 16)

static int use_fixture(void **state)
{
	(void)state;
	return setenv("THPBENCH_TRACEFS", FIXTURE, 1);
}

static struct event_spec encode_ok(const char *name)
{
	struct event_spec ev;

	if (event_encode(name, &ev))
		fail_msg("'%s' did not encode: %s", name, ev.error);
	assert_string_equal(ev.name, name);
	assert_string_equal(ev.error, "");
	assert_int_equal(ev.attr.size, sizeof(ev.attr));
	return ev;
}

static void expect(const char *name, enum event_source src, uint32_t type,
		   uint64_t config, bool hardware)
{
	struct event_spec ev = encode_ok(name);

	if (ev.source != src || ev.attr.type != type ||
	    ev.attr.config != config || ev.hardware != hardware)
		fail_msg("'%s': source %d type %u config %#llx hw %d, expected %d %u %#llx %d",
			 name, ev.source, ev.attr.type,
			 (unsigned long long)ev.attr.config, ev.hardware, src,
			 type, (unsigned long long)config, hardware);
	/* plain names count user and kernel, like perf stat */
	assert_false(ev.attr.exclude_user);
	if (src == EVSRC_PERF_NAME)
		assert_false(ev.attr.exclude_kernel);
}

static void expect_unknown(const char *name)
{
	struct event_spec ev;

	if (event_encode(name, &ev) != -1)
		fail_msg("'%s' encoded (type %u config %#llx), expected an error",
			 name, ev.attr.type, (unsigned long long)ev.attr.config);
	if (!strstr(ev.error, name) || !strstr(ev.error, "thpbench list"))
		fail_msg("error for '%s' does not name it or `thpbench list`: %s",
			 name, ev.error);
}

static void test_generic_hardware(void **state)
{
	(void)state;
	expect("cycles", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_CPU_CYCLES, true);
	expect("cpu-cycles", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_CPU_CYCLES, true);
	expect("instructions", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_INSTRUCTIONS, true);
	expect("cache-references", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_CACHE_REFERENCES, true);
	expect("cache-misses", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_CACHE_MISSES, true);
	expect("branches", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_BRANCH_INSTRUCTIONS, true);
	expect("branch-instructions", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_BRANCH_INSTRUCTIONS, true);
	expect("branch-misses", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_BRANCH_MISSES, true);
	expect("bus-cycles", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_BUS_CYCLES, true);
	expect("stalled-cycles-frontend", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, true);
	expect("stalled-cycles-backend", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_STALLED_CYCLES_BACKEND, true);
	expect("ref-cycles", EVSRC_PERF_NAME, PERF_TYPE_HARDWARE,
	       PERF_COUNT_HW_REF_CPU_CYCLES, true);
}

static void test_generic_software(void **state)
{
	(void)state;
	expect("page-faults", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_PAGE_FAULTS, false);
	expect("faults", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_PAGE_FAULTS, false);
	expect("minor-faults", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_PAGE_FAULTS_MIN, false);
	expect("major-faults", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_PAGE_FAULTS_MAJ, false);
	expect("cpu-clock", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_CPU_CLOCK, false);
	expect("task-clock", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_TASK_CLOCK, false);
	expect("context-switches", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_CONTEXT_SWITCHES, false);
	expect("cs", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_CONTEXT_SWITCHES, false);
	expect("cpu-migrations", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_CPU_MIGRATIONS, false);
	expect("migrations", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_CPU_MIGRATIONS, false);
	expect("alignment-faults", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_ALIGNMENT_FAULTS, false);
	expect("emulation-faults", EVSRC_PERF_NAME, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_EMULATION_FAULTS, false);
}

static void test_hw_cache(void **state)
{
	(void)state;
	expect("dTLB-load-misses", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(DTLB, READ, MISS), true);
	expect("dTLB-loads", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(DTLB, READ, ACCESS), true);
	expect("dTLB-stores", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(DTLB, WRITE, ACCESS), true);
	expect("dTLB-store-misses", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(DTLB, WRITE, MISS), true);
	expect("iTLB-loads", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(ITLB, READ, ACCESS), true);
	expect("iTLB-load-misses", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(ITLB, READ, MISS), true);
	expect("L1-dcache-loads", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(L1D, READ, ACCESS), true);
	expect("L1-dcache-store-misses", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(L1D, WRITE, MISS), true);
	expect("L1-icache-load-misses", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(L1I, READ, MISS), true);
	expect("LLC-loads", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(LL, READ, ACCESS), true);
	expect("LLC-prefetches", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(LL, PREFETCH, ACCESS), true);
	expect("LLC-prefetch-misses", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(LL, PREFETCH, MISS), true);
	expect("branch-loads", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(BPU, READ, ACCESS), true);
	expect("branch-load-misses", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(BPU, READ, MISS), true);
	expect("node-loads", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(NODE, READ, ACCESS), true);
	expect("node-store-misses", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(NODE, WRITE, MISS), true);
	/* perf matches cache names case-insensitively */
	expect("dtlb-LOAD-misses", EVSRC_PERF_NAME, PERF_TYPE_HW_CACHE,
	       CACHE(DTLB, READ, MISS), true);
}

/* Pairs perf rejects (evsel__hw_cache_stat) and near misses. */
static void test_hw_cache_invalid(void **state)
{
	(void)state;
	expect_unknown("iTLB-stores");
	expect_unknown("L1-icache-store-misses");
	expect_unknown("branch-prefetches");
	expect_unknown("dTLB-loadss");
	expect_unknown("dTLB-load-miss");
	expect_unknown("dTLB-");
}

static void test_modifiers(void **state)
{
	struct event_spec ev;

	(void)state;
	ev = encode_ok("cycles:u");
	assert_int_equal(ev.source, EVSRC_PERF_NAME);
	assert_int_equal(ev.attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_false(ev.attr.exclude_user);
	assert_true(ev.attr.exclude_kernel);
	assert_true(ev.attr.exclude_hv);

	ev = encode_ok("page-faults:k");
	assert_int_equal(ev.attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_true(ev.attr.exclude_user);
	assert_false(ev.attr.exclude_kernel);

	ev = encode_ok("dTLB-load-misses:uk");
	assert_int_equal(ev.attr.config, CACHE(DTLB, READ, MISS));
	assert_false(ev.attr.exclude_user);
	assert_false(ev.attr.exclude_kernel);
	assert_true(ev.attr.exclude_hv);

	expect_unknown("task-clock:q");
}

static void test_tracepoint_fixture(void **state)
{
	(void)state;
	assert_string_equal(tracefs_root(), FIXTURE);
	expect("tlb:tlb_flush", EVSRC_TRACEPOINT, PERF_TYPE_TRACEPOINT, 4242,
	       false);
	expect("huge_memory:mm_khugepaged_scan_pmd", EVSRC_TRACEPOINT,
	       PERF_TYPE_TRACEPOINT, 4243, false);
	expect("exceptions:page_fault_user", EVSRC_TRACEPOINT,
	       PERF_TYPE_TRACEPOINT, 4245, false);
	/* a subsystem or event the tree lacks is not a tracepoint */
	expect_unknown("tlb:no_such_event");
	expect_unknown("no_such_subsys:tlb_flush");
}

static void test_tracepoint_bad_id(void **state)
{
	struct event_spec ev;

	(void)state;
	assert_int_equal(event_encode("broken:bad_id", &ev), -1);
	if (!strstr(ev.error, FIXTURE "/events/broken/bad_id/id") ||
	    !strstr(ev.error, "not-a-number"))
		fail_msg("error does not name the id file and its text: %s",
			 ev.error);
}

static void test_tracefs_env_is_exclusive(void **state)
{
	struct event_spec ev;

	(void)state;
	setenv("THPBENCH_TRACEFS", "tests/fixtures/no-such-tracefs", 1);
	assert_null(tracefs_root());
	assert_int_equal(event_encode("tlb:tlb_flush", &ev), -1);
	assert_non_null(strstr(ev.error, "no tracefs"));
	setenv("THPBENCH_TRACEFS", FIXTURE, 1);
	assert_string_equal(tracefs_root(), FIXTURE);
}

static void test_libpfm(void **state)
{
	struct event_spec ev;

	(void)state;
	assert_int_equal(events_init(), 0);
	assert_int_equal(events_init(), 0);
	expect("perf::PAGE-FAULTS", EVSRC_LIBPFM, PERF_TYPE_SOFTWARE,
	       PERF_COUNT_SW_PAGE_FAULTS, false);
	expect("perf::DTLB-LOAD-MISSES", EVSRC_LIBPFM, PERF_TYPE_HW_CACHE,
	       CACHE(DTLB, READ, MISS), true);
	/* libpfm4 modifier syntax */
	ev = encode_ok("perf::PAGE-FAULTS:u");
	assert_int_equal(ev.source, EVSRC_LIBPFM);
	assert_true(ev.attr.exclude_kernel);
	assert_false(ev.attr.exclude_user);
}

/* One ':' but no such tracepoint: libpfm4's EVENT:MODIFIER gets it. */
static void test_one_colon_falls_back_to_libpfm(void **state)
{
	struct event_spec ev;

	(void)state;
	ev = encode_ok("PAGE-FAULTS:u");
	assert_int_equal(ev.source, EVSRC_LIBPFM);
	assert_int_equal(ev.attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(ev.attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_true(ev.attr.exclude_kernel);
}

static void test_unknown(void **state)
{
	struct event_spec ev;
	char longname[300];

	(void)state;
	expect_unknown("no-such-event");
	expect_unknown("NO_SUCH_PMU::FOO");
	assert_int_equal(event_encode("", &ev), -1);
	assert_string_not_equal(ev.error, "");
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(event_encode(longname, &ev), -1);
	assert_non_null(strstr(ev.error, "longer than"));
}

static void test_parse_list(void **state)
{
	struct event_spec *evs = (void *)1;
	char err[256] = "";
	size_t n = 99;

	(void)state;
	assert_int_equal(events_parse_list(" page-faults, tlb:tlb_flush ,perf::DTLB-LOAD-MISSES,cycles:u,huge_memory:mm_collapse_huge_page",
					   &evs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 5);
	assert_string_equal(evs[0].name, "page-faults");
	assert_int_equal(evs[0].source, EVSRC_PERF_NAME);
	assert_string_equal(evs[1].name, "tlb:tlb_flush");
	assert_int_equal(evs[1].source, EVSRC_TRACEPOINT);
	assert_int_equal(evs[1].attr.config, 4242);
	assert_int_equal(evs[2].source, EVSRC_LIBPFM);
	assert_int_equal(evs[2].attr.config, CACHE(DTLB, READ, MISS));
	assert_string_equal(evs[3].name, "cycles:u");
	assert_true(evs[3].attr.exclude_kernel);
	assert_int_equal(evs[4].attr.config, 4244);
	free(evs);

	assert_int_equal(events_parse_list("  ", &evs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_null(evs);
}

static void test_parse_list_errors(void **state)
{
	struct event_spec *evs = (void *)1;
	char err[256] = "";
	size_t n = 99;

	(void)state;
	assert_int_equal(events_parse_list("page-faults,bogus-event,cycles",
					   &evs, &n, err, sizeof(err)), -1);
	assert_null(evs);
	assert_int_equal(n, 0);
	if (!strstr(err, "bogus-event") || !strstr(err, "thpbench list"))
		fail_msg("error: %s", err);

	assert_int_equal(events_parse_list("page-faults,,cycles", &evs, &n,
					   err, sizeof(err)), -1);
	assert_non_null(strstr(err, "item 2 is empty"));
	assert_int_equal(events_parse_list("page-faults,", &evs, &n, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "item 2 is empty"));
	assert_int_equal(events_parse_list("broken:bad_id", &evs, &n, err,
					   sizeof(err)), -1);
	assert_non_null(strstr(err, "bad_id"));
}

/* perf's braces: the items inside are one group, numbered in order. */
static void test_parse_groups(void **state)
{
	struct event_spec *evs;
	char err[256] = "";
	size_t n;

	(void)state;
	assert_int_equal(events_parse_list("{page-faults,minor-faults},task-clock, { cs , migrations },{faults}",
					   &evs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 6);
	assert_string_equal(evs[0].name, "page-faults");
	assert_int_equal(evs[0].group, 1);
	assert_int_equal(evs[1].group, 1);
	assert_int_equal(evs[2].group, 0);
	assert_string_equal(evs[3].name, "cs");
	assert_int_equal(evs[3].group, 2);
	assert_string_equal(evs[4].name, "migrations");
	assert_int_equal(evs[4].group, 2);
	assert_int_equal(evs[5].group, 3);
	assert_string_equal(evs[0].stands_for, "");
	free(evs);
}

static void expect_list_error(const char *csv, const char *what)
{
	struct event_spec *evs = (void *)1;
	char err[512] = "";
	size_t n = 99;

	if (events_parse_list(csv, &evs, &n, err, sizeof(err)) != -1)
		fail_msg("'%s' parsed", csv);
	assert_null(evs);
	assert_int_equal(n, 0);
	if (!strstr(err, what))
		fail_msg("'%s': error '%s' lacks '%s'", csv, err, what);
}

/* "{cs,cs,...}" of n members: error containing what, or (NULL) fine. */
static void expect_group_of(int n, const char *what)
{
	struct event_spec *evs;
	char big[1024] = "{", err[512];
	size_t cnt;

	for (int i = 0; i < n; i++)
		strcat(big, i ? ",cs" : "cs");
	strcat(big, "}");
	if (what) {
		expect_list_error(big, what);
		return;
	}
	assert_int_equal(events_parse_list(big, &evs, &cnt, err, sizeof(err)), 0);
	assert_int_equal(cnt, n);
	free(evs);
}

static void test_parse_group_errors(void **state)
{
	(void)state;
	expect_list_error("{page-faults,{minor-faults}}", "do not nest");
	expect_list_error("{page-faults,minor-faults", "never closed");
	expect_list_error("page-faults}", "'}' without '{'");
	expect_list_error("{page-faults,minor-faults}:u", "no modifiers after a group");
	expect_list_error("{page-faults,,minor-faults}", "item 2 is empty");
	expect_list_error("{}", "item 1 is empty");
	expect_list_error("{tlb}", "list it outside braces");
	expect_list_error("{page-faults,tlb}", "list it outside braces");
	expect_list_error("tlb,page-faults,tlb", "listed twice");
	expect_list_error("{page-faults,bogus}", "unknown event 'bogus'");
	expect_group_of(EVENT_GROUP_MAX + 1, "a group of more than 64 events");
	expect_group_of(EVENT_GROUP_MAX, NULL);
}

/* `tlb` is this CPU's profile, its groups numbered after the list's. */
static void test_parse_tlb(void **state)
{
	const struct tlb_profile *p;
	struct event_spec *evs;
	struct tlb_host h;
	char err[256] = "";
	size_t n, i;

	(void)state;
	tlb_host_detect(&h);
	p = h.profile;
	assert_int_equal(events_parse_list("{page-faults,minor-faults}, tlb ,task-clock",
					   &evs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3 + p->nev);
	for (i = 0; i < p->nev; i++) {
		const struct event_spec *ev = &evs[2 + i];

		assert_string_equal(ev->name, tlb_role_metric(p->ev[i].role));
		assert_string_equal(ev->stands_for, p->ev[i].event);
		assert_int_equal(ev->group, 1 + p->ev[i].group);
		assert_true(ev->hardware);
	}
	assert_string_equal(evs[n - 1].name, "task-clock");
	assert_int_equal(evs[n - 1].group, 0);
	free(evs);
}

static char *capture_print_usable(void)
{
	char path[] = "/tmp/thpbench-test-events-XXXXXX";
	int fd = mkstemp(path), saved = dup(STDOUT_FILENO);
	char *buf = xcalloc(1, 1 << 20);
	ssize_t len;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	events_print_usable();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	len = pread(fd, buf, (1 << 20) - 1, 0);
	assert_true(len > 0);
	close(fd);
	unlink(path);
	return buf;
}

/* The line for name, up to its newline, or fails. */
static char *line_of(char *out, const char *name)
{
	static char line[512];
	char key[160], *p, *nl;

	snprintf(key, sizeof(key), "\n  %s ", name);
	p = strstr(out, key);
	if (!p)
		fail_msg("`thpbench list` output lacks '%s'", name);
	p += 3;
	nl = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s", (int)(nl ? nl - p : 500), p);
	return line;
}

static void test_print_usable(void **state)
{
	char *out = capture_print_usable(), *l;

	(void)state;
	l = line_of(out, "page-faults");
	if (!strstr(l, " ok"))
		fail_msg("page-faults should open on any Linux: %s", l);
	l = line_of(out, "dTLB-load-misses");
	if (no_cpu_pmu() && !strstr(l, "<not supported>: no hardware PMU"))
		fail_msg("no cpu PMU here, yet: %s", l);
	line_of(out, "LLC-prefetches");
	/* from the fixture: listed singly and as a whole subsystem */
	line_of(out, "tlb:tlb_flush");
	line_of(out, "huge_memory:mm_khugepaged_scan_pmd");
	line_of(out, "huge_memory:mm_collapse_huge_page");
	assert_non_null(strstr(out, "tracefs at " FIXTURE));
	/* libpfm4's perf_events PMU is present on every Linux */
	assert_non_null(strstr(out, "perf_events generic PMU"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generic_hardware),
		cmocka_unit_test(test_generic_software),
		cmocka_unit_test(test_hw_cache),
		cmocka_unit_test(test_hw_cache_invalid),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_tracepoint_fixture),
		cmocka_unit_test(test_tracepoint_bad_id),
		cmocka_unit_test(test_tracefs_env_is_exclusive),
		cmocka_unit_test(test_libpfm),
		cmocka_unit_test(test_one_colon_falls_back_to_libpfm),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_parse_list_errors),
		cmocka_unit_test(test_parse_groups),
		cmocka_unit_test(test_parse_group_errors),
		cmocka_unit_test(test_parse_tlb),
		cmocka_unit_test(test_print_usable),
	};

	return cmocka_run_group_tests(tests, use_fixture, NULL);
}
