// SPDX-License-Identifier: GPL-2.0-only
/*
 * knob_watch on a fake tree: no write, no change; any write to a watched
 * file, a change; a file replaced or one that cannot be watched, always
 * a change from then on. And settings_drift: a workload's write is seen
 * at once, within the period in which nothing is read.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../fake_tree.h"
#include "system/knob_watch.h"
#include "system/settings.h"

static char g_base[64];

static void path_of(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", g_base, rel);
}

static void test_watch_sees_writes(void **state)
{
	struct knob_watch w;
	char a[128], b[128], tmp[128];

	(void)state;
	assert_int_equal(fake_put(g_base, "w/a", "1\n"), 0);
	assert_int_equal(fake_put(g_base, "w/b", "2\n"), 0);
	path_of(a, sizeof(a), "w/a");
	path_of(b, sizeof(b), "w/b");
	knob_watch_open(&w);
	if (w.fd < 0 && errno == ENOSYS) {
		/* A kernel without CONFIG_INOTIFY_USER (the tinyconfig guest):
		 * test_unwatchable_path_always_changed covers what then holds. */
		print_message("skipped: no inotify in this kernel (ENOSYS)\n");
		skip();
	}
	assert_true(w.fd >= 0);
	knob_watch_add(&w, a);
	knob_watch_add(&w, b);
	assert_false(knob_watch_changed(&w));
	assert_int_equal(write_file_str(b, "3"), 0);
	assert_true(knob_watch_changed(&w));
	assert_false(knob_watch_changed(&w));	/* the queue was emptied */
	/* Replaced: writes to the new file are not watched, so always. */
	path_of(tmp, sizeof(tmp), "w/a.new");
	assert_int_equal(fake_put(g_base, "w/a.new", "4\n"), 0);
	assert_int_equal(rename(tmp, a), 0);
	assert_true(knob_watch_changed(&w));
	assert_true(knob_watch_changed(&w));
	knob_watch_close(&w);
	assert_int_equal(w.fd, -1);
	assert_true(knob_watch_changed(&w));
}

static void test_unwatchable_path_always_changed(void **state)
{
	struct knob_watch w;
	char missing[128];

	(void)state;
	path_of(missing, sizeof(missing), "w/missing");
	knob_watch_open(&w);
	knob_watch_add(&w, missing);
	assert_true(knob_watch_changed(&w));
	assert_true(knob_watch_changed(&w));
	knob_watch_close(&w);
}

static const char *want_madvise(const char *name, void *arg)
{
	(void)arg;
	return strcmp(name, "transparent_hugepage/enabled") ? NULL : "madvise";
}

static void test_drift_seen_at_once(void **state)
{
	struct settings_ctx ctx;
	char root[128], st[128], en[160], what[256], err[512];

	(void)state;
	if (geteuid()) {
		skip();
		return;
	}
	path_of(root, sizeof(root), "mm");
	path_of(st, sizeof(st), "state");
	assert_int_equal(fake_put(root, "transparent_hugepage/enabled",
				  "always [madvise] never\n"), 0);
	assert_int_equal(fake_put(root, "transparent_hugepage/defrag",
				  "always defer [madvise] never\n"), 0);
	setenv("THPBENCH_PROC_ROOT", g_base, 1);
	unsetenv("THPBENCH_PROC_SYS_ROOT");
	settings_init(&ctx, root, st);
	assert_int_equal(settings_begin(&ctx, err, sizeof(err)), 0);
	assert_int_equal(settings_drift(&ctx, want_madvise, NULL, what, sizeof(what)), 0);
	/* Read all just now: the next look reads nothing unless written. */
	assert_int_equal(settings_drift(&ctx, want_madvise, NULL, what, sizeof(what)), 0);
	path_of(en, sizeof(en), "mm/transparent_hugepage/enabled");
	assert_int_equal(write_file_str(en, "always madvise [never]"), 0);
	assert_int_equal(settings_drift(&ctx, want_madvise, NULL, what, sizeof(what)), 1);
	assert_non_null(strstr(what, "transparent_hugepage/enabled"));
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
}

static int setup(void **state)
{
	(void)state;
	snprintf(g_base, sizeof(g_base), "/tmp/thpbench-watch-XXXXXX");
	return mkdtemp(g_base) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fake_rm_tree(g_base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_watch_sees_writes),
		cmocka_unit_test(test_unwatchable_path_always_changed),
		cmocka_unit_test(test_drift_seen_at_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
