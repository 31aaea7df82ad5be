// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counters on real children, with software events (every Linux has them).
 * The child is this binary re-executed with --script: it touches pages as
 * told and asks the parent for region-of-interest begin/end over pipes, so
 * each phase's page-fault count is known. Anonymous memory is madvised
 * NOHUGEPAGE so every page is one fault whatever THP mode the host has.
 * Bounds are loose (libc start-up faults too); no timing is asserted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/counters.h"
#include "measure/event_list.h"
#include "measure/events.h"
#include "pmu.h"
#include "util/util.h"

/* Extra faults a child may take besides the pages it was told to touch. */
#define SLACK 600

/* --- the child side ---------------------------------------------------- */

static void touch_pages(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || madvise(p, n * pg, MADV_NOHUGEPAGE))
		_exit(20);
	for (long i = 0; i < n; i++)
		p[i * pg] = 1;
}

static void ask_parent(char what, int rfd, int wfd)
{
	char ack;

	if (write(wfd, &what, 1) != 1 || read(rfd, &ack, 1) != 1)
		_exit(21);
}

/*
 * Script items: tN touch N new pages; fN fork a child that touches N
 * pages and exits; b / e ask for ROI begin / end and wait for the ack.
 */
static int run_script(const char *script, int rfd, int wfd)
{
	char *copy = strdup(script), *save = NULL;

	for (char *it = strtok_r(copy, ",", &save); it;
	     it = strtok_r(NULL, ",", &save)) {
		long n = atol(it + 1);
		pid_t pid;

		switch (it[0]) {
		case 't':
			touch_pages(n);
			break;
		case 'f':
			pid = fork();
			if (pid == 0) {
				touch_pages(n);
				_exit(0);
			}
			if (pid < 0 || waitpid(pid, NULL, 0) != pid)
				return 22;
			break;
		case 'b':
		case 'e':
			ask_parent(it[0], rfd, wfd);
			break;
		default:
			return 23;
		}
	}
	free(copy);
	return 0;
}

/* --- the parent side --------------------------------------------------- */

struct run {
	struct event_spec *evs;
	size_t nev;
	struct counter_set cs;
	int opened;
	int status;
};

static void parse_events(struct run *r, const char *csv)
{
	char err[256];

	if (events_parse_list(csv, &r->evs, &r->nev, err, sizeof(err)))
		fail_msg("%s", err);
}

/*
 * Fork a child held on a pipe, open the counters on it, let it exec
 * (script: this binary; NULL: /bin/true), serve its ROI requests, reap it
 * and read the counters.
 */
static void run_child(struct run *r, const char *csv, const char *script)
{
	int go[2], ctl[2], rep[2];
	char c, rfd[16], wfd[16];
	pid_t pid;

	memset(r, 0, sizeof(*r));
	parse_events(r, csv);
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ctl), 0);
	assert_int_equal(pipe(rep), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		close(ctl[1]);
		close(rep[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(24);
		snprintf(rfd, sizeof(rfd), "%d", ctl[0]);
		snprintf(wfd, sizeof(wfd), "%d", rep[1]);
		if (script)
			execl("/proc/self/exe", "test_counters", "--script",
			      script, rfd, wfd, (char *)NULL);
		else
			execl("/bin/true", "true", (char *)NULL);
		_exit(25);
	}
	close(go[0]);
	close(ctl[0]);
	close(rep[1]);
	r->opened = counters_open(&r->cs, r->evs, r->nev, pid);
	assert_int_equal(write(go[1], "g", 1), 1);
	while (read(rep[0], &c, 1) == 1) {
		if (c == 'b')
			counters_roi_begin(&r->cs);
		else
			counters_roi_end(&r->cs);
		assert_int_equal(write(ctl[1], "a", 1), 1);
	}
	assert_int_equal(waitpid(pid, &r->status, 0), pid);
	close(go[1]);
	close(ctl[1]);
	close(rep[0]);
	if (!WIFEXITED(r->status) || WEXITSTATUS(r->status))
		fail_msg("child failed: status %#x", r->status);
	counters_read(&r->cs);
}

static void done(struct run *r)
{
	counters_close(&r->cs);
	free(r->evs);
}

static double value_of(struct run *r, size_t i)
{
	const char *why;
	double v;

	if (!counter_value(&r->cs.c[i], &v, NULL, &why))
		fail_msg("%s: no value: %s", r->evs[i].name, why);
	return v;
}

static void assert_between(double v, double lo, double hi, const char *what)
{
	if (!(v >= lo && v < hi))
		fail_msg("%s = %.0f, expected in [%.0f, %.0f)", what, v, lo, hi);
}

static void test_software_events_on_exec(void **state)
{
	struct run r;

	(void)state;
	run_child(&r, "page-faults,task-clock,minor-faults", NULL);
	assert_int_equal(r.opened, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_true(r.cs.c[i].fd >= 0);
		assert_int_equal(r.cs.c[i].open_errno, 0);
		assert_false(r.cs.c[i].user_only);	/* we are root */
		assert_true(value_of(&r, i) > 0);
	}
	done(&r);
}

/* Counting starts at exec: the pages touched in the script all count. */
static void test_counts_whole_exec(void **state)
{
	struct run r;

	(void)state;
	run_child(&r, "page-faults", "t3000");
	assert_between(value_of(&r, 0), 3000, 3000 + SLACK, "page-faults");
	assert_false(r.cs.roi_started);
	done(&r);
}

/* inherit: a forked grandchild's faults are folded into the count. */
static void test_inherit_counts_children(void **state)
{
	struct run r;

	(void)state;
	run_child(&r, "page-faults", "f3000");
	assert_between(value_of(&r, 0), 3000, 3000 + 2 * SLACK, "page-faults");
	done(&r);
}

static void test_roi_excludes_outside(void **state)
{
	struct run r;
	struct counter *c;

	(void)state;
	run_child(&r, "page-faults,task-clock", "t4000,b,t1000,e,t2000");
	assert_true(r.cs.roi_started);
	assert_between(value_of(&r, 0), 1000, 1000 + SLACK, "ROI page-faults");
	/* enable_on_exec had counted (and timed) the start-up already */
	c = &r.cs.c[0];
	assert_true(c->base_enabled > 0);
	assert_true(c->enabled > 0);
	assert_true(value_of(&r, 1) > 0);
	done(&r);
}

static void test_roi_pairs_accumulate(void **state)
{
	struct run r;

	(void)state;
	run_child(&r, "page-faults", "t500,b,t700,e,t3000,b,t900,e,t100");
	assert_between(value_of(&r, 0), 1600, 1600 + SLACK, "ROI page-faults");
	done(&r);
}

/*
 * An exited child's count survives PERF_EVENT_IOC_RESET in the parent
 * event (child_count); the first ROI begin must still discard it.
 */
static void test_roi_discards_exited_children(void **state)
{
	struct run r;

	(void)state;
	run_child(&r, "page-faults", "f3000,b,t800,e");
	assert_between(value_of(&r, 0), 800, 800 + SLACK, "ROI page-faults");
	done(&r);
}

/* An ROI that a grandchild faults in counts it (ioctls reach children). */
static void test_roi_counts_children_inside(void **state)
{
	struct run r;

	(void)state;
	run_child(&r, "page-faults", "t2000,b,f1500,e,f2500");
	assert_between(value_of(&r, 0), 1500, 1500 + 2 * SLACK,
		       "ROI page-faults");
	done(&r);
}

static void test_hardware_event_contract(void **state)
{
	struct run r;
	struct counter *c;
	const char *why = NULL;
	double v = -1;

	(void)state;
	run_child(&r, "cycles,page-faults", NULL);
	c = &r.cs.c[0];
	assert_true(value_of(&r, 1) > 0);	/* the other one still counts */
	if (c->fd >= 0) {
		assert_true(!no_cpu_pmu());
		assert_int_equal(r.opened, 2);
		assert_true(value_of(&r, 0) > 0);
		done(&r);
		return;
	}
	assert_int_equal(r.opened, 1);
	assert_int_not_equal(c->open_errno, 0);
	if (strncmp(c->reason, "<not supported>: ", 17) || strlen(c->reason) < 25)
		fail_msg("reason '%s'", c->reason);
	if (no_cpu_pmu() && !strstr(c->reason, "no hardware PMU"))
		fail_msg("no PMU here, yet reason '%s'", c->reason);
	assert_false(counter_value(c, &v, NULL, &why));
	assert_ptr_equal(why, c->reason);
	assert_true(v == -1);	/* untouched: never read as 0 */
	done(&r);
}

/* A group: opened on the leader, read at once, one enabled/running pair. */
static void test_group_reads_together(void **state)
{
	struct run r;

	(void)state;
	run_child(&r, "{task-clock,page-faults,minor-faults},context-switches",
		  "t2500");
	assert_int_equal(r.opened, 4);
	assert_int_equal(r.evs[0].group, 1);
	assert_int_equal(r.evs[2].group, 1);
	assert_int_equal(r.evs[3].group, 0);
	assert_int_equal(r.cs.c[1].leader, 0);
	assert_int_equal(r.cs.c[2].leader, 0);
	assert_int_equal(r.cs.c[3].leader, 3);
	assert_true(r.cs.c[0].read_format & PERF_FORMAT_GROUP);
	assert_false(r.cs.c[3].read_format & PERF_FORMAT_GROUP);
	/* members carry the leader's times */
	assert_true(r.cs.c[0].enabled > 0);
	assert_int_equal(r.cs.c[1].enabled, r.cs.c[0].enabled);
	assert_int_equal(r.cs.c[2].running, r.cs.c[0].running);
	assert_true(value_of(&r, 0) > 0);
	assert_between(value_of(&r, 1), 2500, 2500 + SLACK, "page-faults");
	assert_true(value_of(&r, 1) == value_of(&r, 2));
	done(&r);
}

/* ROI and inherited children: the group read folds children in too. */
static void test_group_roi_and_children(void **state)
{
	struct run r;

	(void)state;
	run_child(&r, "{page-faults,minor-faults}", "t3000,b,f1500,t500,e,t2000");
	assert_between(value_of(&r, 0), 2000, 2000 + 2 * SLACK, "ROI page-faults");
	assert_true(value_of(&r, 0) == value_of(&r, 1));
	done(&r);
}

/* A member whose leader cannot be opened is not opened alone: a ratio
 * needs both, counted over the same time. */
static void test_group_needs_its_leader(void **state)
{
	struct run r;
	const char *why = NULL;
	double v = -1;

	(void)state;
	run_child(&r, "{cycles,page-faults},minor-faults", "t100");
	if (r.cs.c[0].fd >= 0) {
		assert_false(no_cpu_pmu());
		assert_true(value_of(&r, 1) > 0);
		done(&r);
		return;
	}
	assert_int_equal(r.opened, 1);
	assert_int_equal(r.cs.c[1].fd, -1);
	assert_false(counter_value(&r.cs.c[1], &v, NULL, &why));
	assert_true(v == -1);
	if (!strstr(why, "<not supported>: its group's leader cycles was not opened"))
		fail_msg("member reason: %s", why);
	if (no_cpu_pmu() && !strstr(why, "no hardware PMU"))
		fail_msg("member reason lacks the leader's: %s", why);
	assert_true(value_of(&r, 2) > 0);	/* the lone event still counts */
	done(&r);
}

/* A pipe that read() will hand buf[0..n) to, as a perf fd would. */
static int fake_fd(const uint64_t *buf, size_t n)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], buf, n * sizeof(*buf)), (ssize_t)(n * sizeof(*buf)));
	close(p[1]);
	return p[0];
}

/*
 * What a PMU with too few counters hands back, without one: reads laid
 * out as the kernel lays them out (perf_read.h), fed to counters_roi_begin()
 * and counters_read() through pipes, scaled by counter_value() as a run
 * does. Group 1 (two events) was on the PMU a quarter of the region, group
 * 2 never, the lone event throughout; group 3's read comes back short.
 */
static void test_synthetic_reads(void **state)
{
	const uint64_t fmt = PERF_FORMAT_TOTAL_TIME_ENABLED |
			     PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* at the ROI begin, then at the end: the region is the difference */
	const uint64_t g1[] = { 2, 1000, 500, 100, 20000,
				2, 5000, 1500, 500, 120000 };
	const uint64_t g2[] = { 1, 0, 0, 0, 1, 4000, 0, 0 };
	const uint64_t lone[] = { 10, 200, 200, 787, 3200, 3200 };
	const uint64_t g3[] = { 2, 10, 10, 1, 1, 2, 20 };
	struct event_spec evs[6] = { { .group = 1 }, { .group = 1 }, { .group = 2 },
				     { .group = 0 }, { .group = 3 }, { .group = 3 } };
	const size_t leader[6] = { 0, 0, 2, 3, 4, 4 };
	struct counter_set cs = { .n = 6 };
	const char *why;
	double v, share;
	size_t i;

	(void)state;
	cs.c = xcalloc(6, sizeof(*cs.c));
	for (i = 0; i < 6; i++) {
		cs.c[i].ev = &evs[i];
		cs.c[i].leader = leader[i];
		cs.c[i].read_format = fmt | (evs[i].group ? PERF_FORMAT_GROUP : 0);
	}
	cs.c[0].fd = fake_fd(g1, ARRAY_SIZE(g1));
	cs.c[1].fd = dup(cs.c[0].fd);
	cs.c[2].fd = fake_fd(g2, ARRAY_SIZE(g2));
	cs.c[3].fd = fake_fd(lone, ARRAY_SIZE(lone));
	cs.c[4].fd = fake_fd(g3, ARRAY_SIZE(g3));
	cs.c[5].fd = dup(cs.c[4].fd);
	counters_roi_begin(&cs);	/* reads the bases; ioctls on pipes fail */
	counters_roi_end(&cs);
	counters_read(&cs);

	/* scaled by 4000/1000, both by the same: the ratio survives */
	assert_true(counter_value(&cs.c[0], &v, &share, &why));
	assert_true(v == 1600 && share == 25);
	assert_true(counter_value(&cs.c[1], &v, &share, &why));
	assert_true(v == 400000 && share == 25);
	/* enabled, never running: not counted, no value, no share */
	v = share = -1;
	assert_false(counter_value(&cs.c[2], &v, &share, &why));
	assert_non_null(strstr(why, "<not counted>: its group never got"));
	assert_true(v == -1 && share == -1);
	/* alone and on the PMU throughout */
	assert_true(counter_value(&cs.c[3], &v, &share, &why));
	assert_true(v == 777 && share == 100);
	/* a read shorter than its layout: nothing is made up */
	assert_false(counter_value(&cs.c[4], &v, &share, &why));
	assert_false(counter_value(&cs.c[5], &v, &share, &why));
	assert_non_null(strstr(why, "<not counted>"));
	counters_close(&cs);
}

static void test_counter_value_logic(void **state)
{
	struct event_spec ev = { .name = "x" };
	struct counter c = { .ev = &ev, .fd = -1, .open_errno = ENOENT,
			     .reason = "<not supported>: test" };
	const char *why;
	double v = -1, share;

	(void)state;
	assert_false(counter_value(&c, &v, NULL, &why));
	assert_string_equal(why, "<not supported>: test");
	assert_false(counter_value(&c, &v, NULL, NULL));

	/* open but never enabled: neither the workload nor an ROI ran */
	c.fd = 0;
	c.raw = 0;
	assert_false(counter_value(&c, &v, NULL, &why));
	assert_non_null(strstr(why, "<not counted>"));

	/* enabled but multiplexed out the whole time */
	c.enabled = 1000;
	assert_false(counter_value(&c, &v, NULL, &why));
	assert_non_null(strstr(why, "<not counted>"));
	assert_true(v == -1);

	/* ran a quarter of the time: scaled by enabled/running */
	c.raw = 100;
	c.running = 250;
	assert_true(counter_value(&c, &v, NULL, &why));
	assert_true(v == 400.0);
	assert_null(why);

	c.running = 1000;
	assert_true(counter_value(&c, &v, NULL, NULL));
	assert_true(v == 100.0);

	/* the share comes back; a grouped event that never ran says why */
	c.running = 500;
	share = -1;
	assert_true(counter_value(&c, &v, &share, &why));
	assert_true(v == 200.0 && share == 50.0);
	ev.group = 2;
	c.running = 0;
	assert_false(counter_value(&c, &v, &share, &why));
	assert_non_null(strstr(why, "<not counted>: its group never got"));
	assert_true(share == 50.0);
}

static void test_gone_process(void **state)
{
	struct event_spec *evs;
	struct counter_set cs;
	const char *why;
	char err[256];
	size_t n;
	double v;
	pid_t pid = fork();

	(void)state;
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_int_equal(events_parse_list("page-faults", &evs, &n, err,
					   sizeof(err)), 0);
	assert_int_equal(counters_open(&cs, evs, n, pid), 0);
	assert_int_equal(cs.c[0].open_errno, ESRCH);
	assert_non_null(strstr(cs.c[0].reason, "(ESRCH)"));
	counters_roi_begin(&cs);	/* harmless on unopened counters */
	counters_roi_end(&cs);
	counters_read(&cs);
	assert_false(counter_value(&cs.c[0], &v, NULL, &why));
	counters_close(&cs);
	assert_null(cs.c);
	free(evs);
}

static void test_probe(void **state)
{
	struct event_spec ev;
	char reason[160] = "stale";

	(void)state;
	assert_int_equal(event_encode("page-faults", &ev), 0);
	assert_true(counter_probe(&ev, 0, reason, sizeof(reason)));
	assert_string_equal(reason, "");
	assert_int_equal(event_encode("dTLB-load-misses", &ev), 0);
	if (counter_probe(&ev, 0, reason, sizeof(reason))) {
		assert_false(no_cpu_pmu());
	} else {
		assert_non_null(strstr(reason, "<not supported>"));
		if (no_cpu_pmu())
			assert_non_null(strstr(reason, "no hardware PMU"));
	}
}

/*
 * Unprivileged under perf_event_paranoid >= 2: kernel-mode counting is
 * refused, the open falls back to user mode and says so; a kernel-only
 * request cannot fall back and reports the refusal. Runs in a child that
 * drops root; exit codes say which check failed.
 */
static int fallback_child(void)
{
	struct event_spec *evs;
	struct counter_set cs;
	char err[256];
	size_t n;

	if (setgid(65534) || setuid(65534))
		return 10;
	if (events_parse_list("page-faults,page-faults:k", &evs, &n, err,
			      sizeof(err)))
		return 11;
	if (counters_open(&cs, evs, n, getpid()) != 1)
		return 12;
	if (cs.c[0].fd < 0 || !cs.c[0].user_only)
		return 13;
	if (cs.c[1].fd >= 0 || cs.c[1].user_only ||
	    (cs.c[1].open_errno != EACCES && cs.c[1].open_errno != EPERM) ||
	    !strstr(cs.c[1].reason, "perf_event_paranoid"))
		return 14;
	counters_close(&cs);
	return 0;
}

static void test_paranoid_fallback(void **state)
{
	char buf[32];
	long paranoid;
	int status;
	pid_t pid;

	(void)state;
	if (geteuid() != 0 ||
	    read_file_str("/proc/sys/kernel/perf_event_paranoid", buf,
			  sizeof(buf)) ||
	    parse_long(str_trim(buf), &paranoid) || paranoid < 2)
		skip();
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fallback_child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/*
 * Real tracepoints. Where tracefs is not mounted, tracefs_root() mounts it
 * (as `thpbench run` would); the test then unmounts it again.
 * The event: exceptions:page_fault_user (x86), one per user fault; where
 * the kernel has no such tracepoint (arm64), kmem:mm_page_alloc, one per
 * new anonymous page written (order 0: MADV_NOHUGEPAGE), plus the page
 * tables and the kernel's own allocations in the task, within SLACK.
 */
static void test_tracepoint_counts(void **state)
{
	const char *root;
	const char *tp;
	char path[PATH_MAX], evlist[96];
	bool mounted_here;
	struct stat st;
	struct run r;

	(void)state;
	unsetenv("THPBENCH_TRACEFS");
	mounted_here = stat("/sys/kernel/tracing/events", &st) &&
		       stat("/sys/kernel/debug/tracing/events", &st);
	root = tracefs_root();
	if (!root) {
		if (geteuid() == 0)
			fail_msg("root, yet tracefs not found nor mountable");
		skip();
	}
	snprintf(path, sizeof(path), "%s/events/exceptions/page_fault_user", root);
	tp = stat(path, &st) ? "kmem:mm_page_alloc" : "exceptions:page_fault_user";
	snprintf(evlist, sizeof(evlist), "%s,page-faults", tp);
	run_child(&r, evlist, "t3000,b,t1200,e");
	assert_int_equal(r.evs[0].source, EVSRC_TRACEPOINT);
	assert_between(value_of(&r, 0), 1200, 1200 + SLACK, tp);
	done(&r);
	if (mounted_here && umount2(root, MNT_DETACH))
		fail_msg("could not unmount %s: %s", root, strerror(errno));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_software_events_on_exec),
		cmocka_unit_test(test_counts_whole_exec),
		cmocka_unit_test(test_inherit_counts_children),
		cmocka_unit_test(test_roi_excludes_outside),
		cmocka_unit_test(test_roi_pairs_accumulate),
		cmocka_unit_test(test_roi_discards_exited_children),
		cmocka_unit_test(test_roi_counts_children_inside),
		cmocka_unit_test(test_hardware_event_contract),
		cmocka_unit_test(test_group_reads_together),
		cmocka_unit_test(test_group_roi_and_children),
		cmocka_unit_test(test_group_needs_its_leader),
		cmocka_unit_test(test_synthetic_reads),
		cmocka_unit_test(test_counter_value_logic),
		cmocka_unit_test(test_gone_process),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_paranoid_fallback),
		cmocka_unit_test(test_tracepoint_counts),
	};

	if (argc == 5 && !strcmp(argv[1], "--script"))
		return run_script(argv[2], atoi(argv[3]), atoi(argv[4]));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
