// SPDX-License-Identifier: GPL-2.0-only
/*
 * session: the load / begin / run / end / save contract (session.h),
 * against a fake mm sysfs tree in a temp directory (never /sys), with a
 * shell script as the workload that writes down the knobs it ran under.
 *
 * What is asserted is what the session guarantees: load changes nothing;
 * begin journals the knobs; each repetition runs under its item's knobs
 * (a hugetlb pool at the largest size any item asks, session_knobs.h); a
 * knob the workload changes is put back and the run marked; end puts
 * every knob back and removes the journal; save leaves results.json in
 * place of results.jsonl. A tree that cannot be written runs only the
 * current THP mode and changes nothing.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../fake_tree.h"

#include "measure/session.h"
#include "system/sysctl_knob.h"
#include "system/knob.h"
#include "util/util.h"

#define THP "transparent_hugepage/"
#define POOL2M "hugepages/hugepages-2048kB/"

static char g_base[128];
static char g_root[160];
static char g_state[160];
static char g_journal[200];
static char g_saw[200];		/* what the workload saw, a line a run */
static char g_script[200];
static char g_out[200];
/* The session under test: freed by teardown when a test fails midway
 * (which would otherwise keep the lock and the next test's tree's). */
static struct session g_ss;
static struct session_opts g_o;
static bool g_live;

static void put(const char *path, const char *text, mode_t mode)
{
	char dir[PATH_MAX];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void put_knob(const char *rel, const char *text, mode_t mode)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", g_root, rel);
	put(path, text, mode);
}

static void build_tree(mode_t enabled_mode)
{
	put_knob(THP "enabled", "always [madvise] never", enabled_mode);
	put_knob(THP "defrag", "always defer defer+madvise [madvise] never", 0644);
	put_knob(THP "hpage_pmd_size", "2097152", 0444);
	put_knob(POOL2M "nr_hugepages", "0", 0644);
	put_knob(POOL2M "nr_overcommit_hugepages", "0", 0644);
	put_knob(POOL2M "free_hugepages", "0", 0444);
	put_knob(POOL2M "surplus_hugepages", "0", 0444);
}

/* The workload: appends "ENABLED POOL" and, when asked, changes a knob. */
static void write_script(const char *extra)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "#!/bin/sh\n"
		 "echo \"$(cat %s/" THP "enabled) $(cat %s/" POOL2M "nr_hugepages)\" >> %s\n"
		 "%s",
		 g_root, g_root, g_saw, extra);
	put(g_script, text, 0755);
}

static int setup(void **state)
{
	(void)state;
	snprintf(g_base, sizeof(g_base), "/tmp/thpbench-session-XXXXXX");
	if (!mkdtemp(g_base))
		return -1;
	snprintf(g_root, sizeof(g_root), "%s/mm", g_base);
	snprintf(g_state, sizeof(g_state), "%s/state", g_base);
	snprintf(g_journal, sizeof(g_journal), "%s/journal.json", g_state);
	snprintf(g_saw, sizeof(g_saw), "%s/saw", g_base);
	snprintf(g_script, sizeof(g_script), "%s/bin/look", g_base);
	snprintf(g_out, sizeof(g_out), "%s/out", g_base);
	setenv("THPBENCH_STATE_DIR", g_state, 1);
	setenv("THPBENCH_PROC_ROOT", g_base, 1);
	unsetenv("THPBENCH_PROC_SYS_ROOT");
	unsetenv("THPBENCH_SYSFS_ROOT");
	knob_set_write_hook(NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (g_live) {
		session_free(&g_ss);
		axes_free(&g_o.axes);
		g_live = false;
	}
	return fake_rm_tree(g_base);
}

static const char *val(const char *name)
{
	static char buf[256];

	if (knob_read(g_root, name, buf, sizeof(buf)))
		return "<unreadable>";
	return buf;
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void saw(char *buf, size_t len)
{
	if (read_file_str(g_saw, buf, len))
		buf[0] = '\0';
}

static void opts_for(struct session_opts *o, const char *suite_path,
		     char **cmd, int ncmd)
{
	static char *argv[] = { "run" };

	memset(o, 0, sizeof(*o));
	axes_init(&o->axes);
	o->suite_path = suite_path;
	o->cmd = cmd;
	o->ncmd = ncmd;
	o->sysfs_root = g_root;
	o->outdir = g_out;
	o->events = "";		/* no perf counters: not what is tested */
	o->reps = o->warmup = -1;
	o->timeout_s = -1;
	o->progress = PROGRESS_NONE;
	o->argc = 1;
	o->argv = argv;
}

static void load_begin(struct session *ss, const struct session_opts *o)
{
	char err[1024] = "";

	g_live = true;
	if (session_load(ss, o, err, sizeof(err)))
		fail_msg("session_load: %s", err);
	if (session_begin(ss, err, sizeof(err)))
		fail_msg("session_begin: %s", err);
}

static void end_save(struct session *ss, struct session_opts *o)
{
	char err[1024] = "";

	assert_int_equal(session_end(ss), 0);
	if (session_save(ss, err, sizeof(err)))
		fail_msg("session_save: %s", err);
	session_free(ss);
	axes_free(&o->axes);
	g_live = false;
}

static void skip_unless_root(void)
{
	if (geteuid() != 0)
		skip();	/* the session changes knobs only as root */
}

/* One command under --thp always: begin journals, the run sees always,
 * end puts madvise back. */
static void test_begin_run_end(void **state)
{
	char *cmd[] = { g_script };
	struct session_opts *o = &g_o;
	struct session *ss = &g_ss;
	char buf[256], path[PATH_MAX], err[1024] = "";

	(void)state;
	skip_unless_root();
	build_tree(0644);
	write_script("");
	opts_for(o, NULL, cmd, 1);
	o->thp = "always";

	g_live = true;
	if (session_load(ss, o, err, sizeof(err)))
		fail_msg("session_load: %s", err);
	assert_false(exists(g_journal));	/* load changes nothing */
	if (session_begin(ss, err, sizeof(err)))
		fail_msg("session_begin: %s", err);
	assert_true(ss->settings.active);
	assert_true(exists(g_journal));
	assert_int_equal(ss->plan.n, 1);
	assert_null(ss->plan.items[0].skip);
	assert_string_equal(val(THP "enabled"), "madvise");	/* not yet */

	session_run(ss);
	saw(buf, sizeof(buf));
	assert_string_equal(buf, "always 0");
	assert_int_equal(ss->res.cases[0].nruns, 1);

	assert_int_equal(session_end(ss), 0);
	assert_false(ss->settings.active);
	assert_string_equal(val(THP "enabled"), "madvise");
	assert_false(exists(g_journal));
	if (session_save(ss, err, sizeof(err)))
		fail_msg("session_save: %s", err);
	snprintf(path, sizeof(path), "%s/results.json", g_out);
	assert_true(exists(path));
	snprintf(path, sizeof(path), "%s/results.jsonl", g_out);
	assert_false(exists(path));
	session_free(ss);
	axes_free(&o->axes);
	g_live = false;
}

/* A workload that changes a knob: put back, the run marked. */
static void test_drift_put_back(void **state)
{
	char *cmd[] = { g_script };
	char extra[512], buf[256];
	struct session_opts *o = &g_o;
	struct session *ss = &g_ss;
	const struct tb_run *run;

	(void)state;
	skip_unless_root();
	build_tree(0644);
	snprintf(extra, sizeof(extra), "echo never > %s/" THP "enabled\n",
		 g_root);
	write_script(extra);
	opts_for(o, NULL, cmd, 1);
	o->thp = "always";
	o->reps = 2;
	load_begin(ss, o);
	session_run(ss);

	saw(buf, sizeof(buf));
	/* The second repetition ran under always again. */
	assert_string_equal(buf, "always 0\nalways 0");
	assert_int_equal(ss->res.cases[0].nruns, 2);
	run = &ss->res.cases[0].runs[0];
	assert_true(run->settings_changed);
	assert_int_not_equal(run->status, RUN_OK);
	assert_non_null(strstr(run->reason, "changed huge-page settings"));
	assert_int_equal(session_ok_runs(ss), 0);
	end_save(ss, o);
	assert_string_equal(val(THP "enabled"), "madvise");
}

/* Two cases asking 4 and 8 pages of one pool: both run with 8. */
static void test_pool_kept_at_largest(void **state)
{
	char suite[4096], path[PATH_MAX], buf[256];
	struct session_opts *o = &g_o;
	struct session *ss = &g_ss;

	(void)state;
	skip_unless_root();
	build_tree(0644);
	write_script("");
	snprintf(suite, sizeof(suite),
		 "[suite]\nname = pools\nrepetitions = 1\nwarmup = 0\n"
		 "thp = madvise\norder = sequential\n\n"
		 "[case small]\nworkload = %s\nhugetlb.2048kB = 4\nexpect_huge = no\n\n"
		 "[case large]\nworkload = %s\nhugetlb.2048kB = 8\nexpect_huge = no\n",
		 g_script, g_script);
	snprintf(path, sizeof(path), "%s/pools.conf", g_base);
	put(path, suite, 0644);
	opts_for(o, path, NULL, 0);
	load_begin(ss, o);
	assert_int_equal(ss->plan.n, 2);
	session_run(ss);

	saw(buf, sizeof(buf));
	assert_string_equal(buf, "always [madvise] never 8\nalways [madvise] never 8");
	end_save(ss, o);
	assert_string_equal(val(POOL2M "nr_hugepages"), "0");
	assert_false(exists(g_journal));
}

/*
 * drop_slab = yes: "2" is in vm/drop_caches of the fake sysctl root when
 * each repetition (warm-up too) starts; the workload resets it to 0, so
 * each must have written it again. The case without the key sees 0, and
 * only the drop_slab runs carry the drop_slab.usec metric.
 */
static void test_drop_slab(void **state)
{
	char suite[4096], path[PATH_MAX], sys[256], dc[300], extra[1100];
	char script[1200], buf[256];
	struct session_opts *o = &g_o;
	struct session *ss = &g_ss;
	const struct tb_case *c;
	size_t i;

	(void)state;
	skip_unless_root();
	build_tree(0644);
	snprintf(sys, sizeof(sys), "%s/sys", g_base);
	snprintf(dc, sizeof(dc), "%s/vm/drop_caches", sys);
	put(dc, "0", 0644);
	setenv("THPBENCH_PROC_SYS_ROOT", sys, 1);
	/* The line the workload appends: what drop_caches held, byte for
	 * byte (a newline would show as N), then reset to 0. */
	snprintf(extra, sizeof(extra), "tr '\\n' N < %s >> %s; echo >> %s; printf 0 > %s\n",
		 dc, g_saw, g_saw, dc);
	snprintf(script, sizeof(script), "#!/bin/sh\n%s", extra);
	put(g_script, script, 0755);
	snprintf(suite, sizeof(suite),
		 "[suite]\nname = drop\nrepetitions = 2\nwarmup = 1\n"
		 "thp = madvise\norder = sequential\n\n"
		 "[case drop]\nworkload = %s\ndrop_slab = yes\nexpect_huge = no\n\n"
		 "[case keep]\nworkload = %s\ndrop_slab = no\nexpect_huge = no\n",
		 g_script, g_script);
	snprintf(path, sizeof(path), "%s/drop.conf", g_base);
	put(path, suite, 0644);
	opts_for(o, path, NULL, 0);
	load_begin(ss, o);
	assert_int_equal(ss->plan.n, 2);
	session_run(ss);

	saw(buf, sizeof(buf));
	/* Warm-ups first (drop, keep), then the repetitions in order. */
	assert_string_equal(buf, "2\n0\n2\n2\n0\n0");
	c = &ss->res.cases[0];
	assert_int_equal(c->nruns, 2);
	for (i = 0; i < c->nruns; i++)
		assert_non_null(metric_set_find(&c->runs[i].metrics, "drop_slab.usec"));
	c = &ss->res.cases[1];
	for (i = 0; i < c->nruns; i++)
		assert_null(metric_set_find(&c->runs[i].metrics, "drop_slab.usec"));
	end_save(ss, o);
}

/* drop_slab = yes with no sysctl root (a fake mm root): an error, no write. */
static void test_drop_slab_no_root(void **state)
{
	char suite[4096], path[PATH_MAX];
	struct session_opts *o = &g_o;
	struct session *ss = &g_ss;
	const struct tb_run *r;

	(void)state;
	skip_unless_root();
	build_tree(0644);
	write_script("");
	snprintf(suite, sizeof(suite),
		 "[suite]\nname = drop\nrepetitions = 1\nwarmup = 0\nthp = madvise\n\n"
		 "[case drop]\nworkload = %s\ndrop_slab = yes\nexpect_huge = no\n",
		 g_script);
	snprintf(path, sizeof(path), "%s/drop.conf", g_base);
	put(path, suite, 0644);
	opts_for(o, path, NULL, 0);
	load_begin(ss, o);
	session_run(ss);
	assert_false(exists(g_saw));	/* the workload did not run */
	assert_int_equal(ss->res.cases[0].nruns, 1);
	r = &ss->res.cases[0].runs[0];
	assert_int_equal(r->status, RUN_ERROR);
	assert_non_null(strstr(r->reason, "THPBENCH_PROC_SYS_ROOT"));
	end_save(ss, o);
}

/* A tree that cannot be written: no journal, only the current mode. */
static void test_read_only_tree(void **state)
{
	char *cmd[] = { g_script };
	struct session_opts *o = &g_o;
	struct session *ss = &g_ss;
	char buf[256];

	(void)state;
	build_tree(0444);
	write_script("");
	opts_for(o, NULL, cmd, 1);
	o->thp = "always,madvise";
	load_begin(ss, o);
	assert_false(ss->settings.active);
	assert_false(exists(g_journal));
	assert_int_equal(ss->plan.n, 2);
	session_run(ss);

	saw(buf, sizeof(buf));
	assert_string_equal(buf, "always [madvise] never 0");
	assert_int_equal(session_ok_runs(ss), 1);
	end_save(ss, o);
	assert_string_equal(val(THP "enabled"), "madvise");
}

/*
 * --memory-state compacted writes compact_memory under the fake sysctl
 * root, and with a fake mm root alone refuses instead of writing the real
 * /proc/sys/vm/compact_memory (issue 36's small items).
 */
static void test_compacted_under_fake_roots(void **state)
{
	char *cmd[] = { g_script };
	struct session_opts *o = &g_o;
	struct session *ss = &g_ss;
	char sys[256], path[PATH_MAX], buf[64], err[256];
	int round;

	(void)state;
	skip_unless_root();
	build_tree(0644);
	write_script("");
	snprintf(sys, sizeof(sys), "%s/sys", g_base);
	snprintf(path, sizeof(path), "%s/vm/compact_memory", sys);
	put(path, "", 0644);
	for (round = 0; round < 2; round++) {
		if (round == 0)
			setenv("THPBENCH_PROC_SYS_ROOT", sys, 1);
		else
			unsetenv("THPBENCH_PROC_SYS_ROOT");
		opts_for(o, NULL, cmd, 1);
		o->reps = 1;
		o->warmup = 0;
		assert_int_equal(axes_key(&o->axes, "memory-state", "compacted",
					  err, sizeof(err)), 1);
		load_begin(ss, o);
		session_run(ss);
		assert_int_equal(ss->res.cases[0].nruns, 1);
		if (round == 0) {
			assert_int_equal(ss->res.cases[0].runs[0].status, RUN_OK);
			assert_int_equal(read_file_str(path, buf, sizeof(buf)), 0);
			assert_string_equal(buf, "1");
		} else {
			assert_int_equal(ss->res.cases[0].runs[0].status, RUN_ERROR);
			assert_non_null(strstr(ss->res.cases[0].runs[0].reason,
					       "no sysctl root in use"));
		}
		end_save(ss, o);
	}
	unsetenv("THPBENCH_PROC_SYS_ROOT");
}

/*
 * A fragmented case that cannot stop proactive compaction says so in its
 * results (and warns); "/sys//kernel/mm" is the real mm root, whose
 * sysctl root is /proc/sys (issue 36's small items).
 */
static void test_fragmented_proactive_left_on(void **state)
{
	char *cmd[] = { g_script };
	struct session_opts *o = &g_o;
	struct session *ss = &g_ss;
	const char *note;
	char err[256], *root;

	(void)state;
	root = sysctl_root_for("/sys//kernel/mm/");
	assert_non_null(root);
	assert_string_equal(root, "/proc/sys");
	free(root);
	skip_unless_root();
	build_tree(0644);
	write_script("");
	opts_for(o, NULL, cmd, 1);
	assert_int_equal(axes_key(&o->axes, "memory-state", "fragmented", err,
				  sizeof(err)), 1);
	load_begin(ss, o);
	note = json_string_value(json_object_get(ss->res.cases[0].extra,
						 "proactive_compaction"));
	assert_non_null(note);
	assert_non_null(strstr(note, "left on: no sysctl root in use"));
	end_save(ss, o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_begin_run_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drift_put_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pool_kept_at_largest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_only_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drop_slab, setup, teardown),
		cmocka_unit_test_setup_teardown(test_drop_slab_no_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compacted_under_fake_roots, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fragmented_proactive_left_on, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
