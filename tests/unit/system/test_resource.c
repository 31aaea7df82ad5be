// SPDX-License-Identifier: GPL-2.0-only
/*
 * resource: the journal of what a run made (swap, loop, mount, cgroup
 * on v2 or on v1's memory hierarchy),
 * its markers against a hostile or stale journal, and the undo of
 * recovery, against a fake /sys, /proc and /dev in a temp directory.
 * swapon, mount and LOOP_* need the real kernel: those are
 * tests/integration/resources_kill.sh.
 */
#include <errno.h>
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

#include "system/resource.h"
#include "system/settings_say.h"
#include "util/util.h"

static char root[64], state[80];
static char said[8192];

static void say_fn(void *arg, bool warn, const char *msg)
{
	(void)arg;
	(void)warn;
	strncat(said, msg, sizeof(said) - strlen(said) - 2);
	strcat(said, "\n");
}

static const struct settings_sink sink = { .fn = say_fn };

static int setup(void **st)
{
	char p[PATH_MAX + 32];

	(void)st;
	snprintf(root, sizeof(root), "/tmp/tb-res-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(state, sizeof(state), "%s/state", root);
	mkdir(state, 0755);
	snprintf(p, sizeof(p), "%s/sys", root);
	setenv("THPBENCH_RES_SYS_ROOT", p, 1);
	snprintf(p, sizeof(p), "%s/proc", root);
	setenv("THPBENCH_RES_PROC_ROOT", p, 1);
	snprintf(p, sizeof(p), "%s/dev", root);
	setenv("THPBENCH_RES_DEV_ROOT", p, 1);
	snprintf(p, sizeof(p), "%s/cg", root);
	setenv("THPBENCH_CGROUP_ROOT", p, 1);
	fake_put(root, "proc/sys/kernel/random/boot_id", "boot-A\n");
	fake_put(root, "proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n/dev/vdb  partition 100 0 -2\n");
	fake_put(root, "proc/self/mountinfo", "22 1 0:21 / /proc rw - proc proc rw\n");
	said[0] = '\0';
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	fake_rm_tree(root);
	return 0;
}

static void test_under(void **st)
{
	(void)st;
	assert_true(res_under("/s/mnt-1-2", "/s", "mnt-"));
	assert_false(res_under("/s/mnt-", "/s", "mnt-"));
	assert_false(res_under("/s/mnt-1/../../etc", "/s", "mnt-"));
	assert_false(res_under("/s/mntx", "/s", "mnt-"));
	assert_false(res_under("/t/mnt-1", "/s", "mnt-"));
	assert_false(res_under("/sx/mnt-1", "/s", "mnt-"));
	assert_false(res_under("/s/img-1", "/s", "mnt-"));
}

static struct res zram_res(int num, long long size, bool added)
{
	struct res r = { .kind = &res_kind_zram, .num = num, .size = size,
			 .added = added };

	snprintf(r.dev, sizeof(r.dev), "%s/dev/zram%d", root, num);
	snprintf(r.boot_id, sizeof(r.boot_id), "boot-A");
	return r;
}

static void test_journal_round_trip(void **st)
{
	struct res_set a, b;
	char err[512];

	(void)st;
	res_set_init(&a, state);
	a.v[a.n++] = zram_res(1, 64 << 20, true);
	a.v[a.n] = (struct res){ .kind = &res_kind_loop, .num = 3,
				 .size = 300 << 20 };
	snprintf(a.v[a.n].path, RES_PATH, "%s/img-1-1", state);
	snprintf(a.v[a.n++].opt, RES_PATH, "xfs");
	a.v[a.n] = (struct res){ .kind = &res_kind_mount, .num = -1 };
	snprintf(a.v[a.n].path, RES_PATH, "%s/mnt-1-1", state);
	snprintf(a.v[a.n++].opt, RES_PATH, "tmpfs:huge=within_size");
	assert_int_equal(res_journal_write(&a, err, sizeof(err)), 0);
	res_set_init(&b, state);
	assert_int_equal(res_journal_read(state, &b, err, sizeof(err)), 1);
	assert_int_equal(b.n, 3);
	assert_ptr_equal(b.v[0].kind, &res_kind_zram);
	assert_int_equal(b.v[0].num, 1);
	assert_true(b.v[0].added);
	assert_int_equal(b.v[0].size, 64 << 20);
	assert_string_equal(b.v[0].boot_id, "boot-A");
	assert_ptr_equal(b.v[1].kind, &res_kind_loop);
	assert_string_equal(b.v[1].path, a.v[1].path);
	assert_string_equal(b.v[2].opt, "tmpfs:huge=within_size");
}

static void put_journal(const char *entries)
{
	char text[4096];

	snprintf(text, sizeof(text),
		 "{\"version\": 1, \"root\": \"%s\", \"pid\": 1, \"time\": 1, \"knobs\": [%s]}\n",
		 state, entries);
	fake_put(state, RES_FILE, text);
}

static void test_hostile_journal(void **st)
{
	static const char *const bad[] = {
		"{\"kind\": \"nuke\"}",
		"{\"kind\": \"mount\", \"path\": 5}",
		"{\"kind\": \"mount\", \"shell\": \"rm -rf /\"}",
		"{\"kind\": \"zram\", \"num\": -7}",
		"{\"kind\": \"loop\", \"size\": -1}",
	};
	struct res_set s;
	char err[512];
	size_t i;
	int undone;

	(void)st;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		put_journal(bad[i]);
		res_set_init(&s, state);
		assert_int_equal(res_journal_read(state, &s, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "knobs[0]"));
		assert_int_equal(res_recover(state, &sink, &undone, err, sizeof(err)), -1);
	}
	/* Another state dir's journal is refused whole. */
	fake_put(state, RES_FILE, "{\"version\": 1, \"root\": \"/\", \"pid\": 1, \"time\": 1, \"knobs\": []}");
	res_set_init(&s, state);
	assert_int_equal(res_journal_read(state, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "state dir /"));
}

/* Entries without our marker are left alone, said, and dropped. */
static void test_recover_leaves_foreign(void **st)
{
	char entries[2048], err[512], p[PATH_MAX + 64];
	struct stat sb;
	int undone;

	(void)st;
	fake_put(root, "sys/block/zram0/disksize", "999\n");
	fake_put(root, "sys/block/zram0/reset", "");
	fake_put(root, "sys/block/zram2/disksize", "67108864\n");
	fake_put(root, "sys/block/zram2/reset", "");
	fake_put(root, "etc/img-1", "precious");
	snprintf(p, sizeof(p), "%s/cg/other", root);
	mkdir_p(p, 0755);
	snprintf(entries, sizeof(entries),
		 "{\"kind\": \"zram\", \"dev\": \"%s/dev/zram0\", \"num\": 0, \"size\": 67108864, \"boot_id\": \"boot-A\"},"
		 "{\"kind\": \"zram\", \"dev\": \"%s/dev/zram2\", \"num\": 2, \"size\": 67108864, \"boot_id\": \"boot-B\"},"
		 "{\"kind\": \"loop\", \"path\": \"%s/etc/img-1\", \"num\": -1},"
		 "{\"kind\": \"mount\", \"path\": \"/etc\"},"
		 "{\"kind\": \"mount\", \"path\": \"%s/mnt-1/..\"},"
		 "{\"kind\": \"cgroup\", \"path\": \"%s/cg/other\"}",
		 root, root, root, state, root);
	put_journal(entries);
	assert_int_equal(res_recover(state, &sink, &undone, err, sizeof(err)), 0);
	assert_int_equal(undone, 0);
	assert_non_null(strstr(said, "disksize 999 is not the 67108864"));
	assert_non_null(strstr(said, "another boot"));
	assert_non_null(strstr(said, "is not " ));
	snprintf(p, sizeof(p), "%s/sys/block/zram0/reset", root);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_size, 0);	/* not reset */
	snprintf(p, sizeof(p), "%s/sys/block/zram2/reset", root);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_size, 0);
	snprintf(p, sizeof(p), "%s/etc/img-1", root);
	assert_int_equal(access(p, F_OK), 0);	/* not deleted */
	snprintf(p, sizeof(p), "%s/cg/other", root);
	assert_int_equal(access(p, F_OK), 0);
	snprintf(p, sizeof(p), "%s/" RES_FILE, state);
	assert_int_equal(access(p, F_OK), -1);	/* nothing of ours stays */
}

/* Ours: a hot-added zram reset and removed, our image deleted, our
 * cgroup (with the sub-cgroups a workload made in it, deepest first)
 * and mount point removed. */
static void test_recover_undoes_ours(void **st)
{
	char entries[2048], err[512], p[PATH_MAX + 64], buf[64];
	int undone;

	(void)st;
	fake_put(root, "sys/block/zram1/disksize", "67108864\n");
	fake_put(root, "sys/block/zram1/reset", "");
	fake_put(root, "sys/class/zram-control/hot_remove", "");
	fake_put(state, "img-9-1", "");
	snprintf(p, sizeof(p), "%s/mnt-9-2", state);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/cg/thpbench-9-3/build-1/inner", root);
	mkdir_p(p, 0755);
	snprintf(p, sizeof(p), "%s/cg/thpbench-9-3/build-2", root);
	mkdir_p(p, 0755);
	snprintf(entries, sizeof(entries),
		 "{\"kind\": \"zram\", \"dev\": \"%s/dev/zram1\", \"num\": 1, \"size\": 67108864, \"added\": true, \"boot_id\": \"boot-A\"},"
		 "{\"kind\": \"loop\", \"path\": \"%s/img-9-1\", \"num\": -1, \"opt\": \"xfs\"},"
		 "{\"kind\": \"mount\", \"path\": \"%s/mnt-9-2\", \"dev\": \"tmpfs\"},"
		 "{\"kind\": \"cgroup\", \"path\": \"%s/cg/thpbench-9-3\"}",
		 root, state, state, root);
	put_journal(entries);
	assert_int_equal(res_recover(state, &sink, &undone, err, sizeof(err)), 0);
	assert_int_equal(undone, 4);
	snprintf(p, sizeof(p), "%s/sys/block/zram1/reset", root);
	assert_int_equal(read_file_str(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	snprintf(p, sizeof(p), "%s/sys/class/zram-control/hot_remove", root);
	assert_int_equal(read_file_str(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	snprintf(p, sizeof(p), "%s/img-9-1", state);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof(p), "%s/mnt-9-2", state);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof(p), "%s/cg/thpbench-9-3", root);
	assert_int_equal(access(p, F_OK), -1);
	snprintf(p, sizeof(p), "%s/" RES_FILE, state);
	assert_int_equal(access(p, F_OK), -1);
}

/* A hot_add on the fake tree: the device number is journalled, and a
 * failed make (no /dev node to write the header) is undone. */
static void test_make_failure_undone(void **st)
{
	struct res proto = { .kind = &res_kind_zram, .num = -1,
			     .size = 64 << 20 };
	const struct res *made;
	struct res_set s;
	char err[512], p[PATH_MAX + 64], buf[64];

	(void)st;
	fake_put(root, "sys/block/zram0/disksize", "4096\n");	/* in use */
	fake_put(root, "sys/class/zram-control/hot_add", "5\n");
	fake_put(root, "sys/class/zram-control/hot_remove", "");
	fake_put(root, "sys/block/zram5/disksize", "0\n");
	fake_put(root, "sys/block/zram5/reset", "");
	res_set_init(&s, state);
	assert_int_equal(res_set_make(&s, &proto, &made, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "zram5"));
	assert_int_equal(s.n, 0);
	snprintf(p, sizeof(p), "%s/sys/block/zram5/disksize", root);
	assert_int_equal(read_file_str(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "67108864");
	snprintf(p, sizeof(p), "%s/sys/block/zram5/reset", root);
	assert_int_equal(read_file_str(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "1");
	snprintf(p, sizeof(p), "%s/sys/class/zram-control/hot_remove", root);
	assert_int_equal(read_file_str(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "5");
}

/* zswap: the value found journalled and put back; a journal whose value
 * to put back is not Y or N, or that names another file, is left alone. */
static void test_zswap(void **st)
{
	struct res proto = { .kind = &res_kind_zswap, .num = -1, .dev = "Y" };
	const struct res *made;
	struct res_set s, back;
	char err[512], p[128], buf[16], entries[1024];
	int undone;

	(void)st;
	fake_put(root, "sys/module/zswap/parameters/enabled", "N\n");
	snprintf(p, sizeof(p), "%s/sys/module/zswap/parameters/enabled", root);
	res_set_init(&s, state);
	assert_int_equal(res_set_make(&s, &proto, &made, err, sizeof(err)), 0);
	assert_string_equal(made->opt, "N");
	assert_int_equal(read_file_str(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Y");
	res_set_init(&back, state);
	assert_int_equal(res_journal_read(state, &back, err, sizeof(err)), 1);
	assert_string_equal(back.v[0].opt, "N");
	assert_int_equal(res_recover(state, &sink, &undone, err, sizeof(err)), 0);
	assert_int_equal(undone, 1);
	assert_int_equal(read_file_str(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "N");
	fake_put(root, "sys/module/zswap/parameters/enabled", "Y\n");
	snprintf(entries, sizeof(entries),
		 "{\"kind\": \"zswap\", \"path\": \"%s\", \"dev\": \"Y\", \"opt\": \"1; reboot\"},"
		 "{\"kind\": \"zswap\", \"path\": \"%s/etc/shadow\", \"dev\": \"Y\", \"opt\": \"N\"}",
		 p, root);
	put_journal(entries);
	assert_int_equal(res_recover(state, &sink, &undone, err, sizeof(err)), 0);
	assert_int_equal(undone, 0);
	assert_int_equal(read_file_str(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Y");
	assert_non_null(strstr(said, "not Y or N"));
}

static void test_swaps_match(void **st)
{
	struct res_env e;

	(void)st;
	res_env_init(&e, state);
	assert_string_equal(e.boot_id, "boot-A");
	assert_true(res_in_swaps(&e, "/dev/vdb"));
	assert_false(res_in_swaps(&e, "/dev/vd"));
	assert_false(res_in_swaps(&e, "partition"));
	assert_true(res_is_mount(&e, "/proc"));
	assert_false(res_is_mount(&e, "/"));
}

/*
 * A fake hybrid host: cgroup v2 at cg without the memory controller, the
 * v1 memory hierarchy at cgv1 in mountinfo (beside v1 hierarchies of
 * other controllers, which are not taken). memory is in v2's
 * subtree_control only when v2 is wanted.
 */
static void fake_cgroups(bool v2_memory, bool v1_memory)
{
	char mi[2048];
	int n;

	fake_put(root, "cg/cgroup.subtree_control",
		 v2_memory ? "cpu io memory pids\n" : "cpu io pids\n");
	n = snprintf(mi, sizeof(mi),
		     "22 1 0:21 / /proc rw - proc proc rw\n"
		     "30 25 0:26 / %s/cg rw - cgroup2 cgroup2 rw,memory_recursiveprot\n"
		     "31 25 0:27 / %s/cgcpu rw - cgroup cgroup rw,cpu,cpuacct\n"
		     "32 25 0:28 / %s/cgmem\\040x rw - cgroup cgroup rw,memory\n",
		     root, root, root);
	if (v1_memory)
		snprintf(mi + n, sizeof(mi) - (size_t)n,
			 "33 25 0:29 / %s/cgv1 rw,nosuid - cgroup cgroup rw,memory\n",
			 root);
	fake_put(root, "proc/self/mountinfo", mi);
	fake_put(root, "cgv1/cgroup.procs", "");
}

/* Make a memcg on the fake tree. Its limit file is not there (mkdir on a
 * plain directory makes none): the write fails, and the error names the
 * hierarchy chosen and its limit file; the directory is undone. */
static void make_memcg_fails(const char *want_dir, const char *want_file)
{
	struct res proto = { .kind = &res_kind_cgroup, .num = -1 };
	char err[512], p[PATH_MAX + 64], q[PATH_MAX + 64], *m;
	const struct res *made;
	const char *at;
	struct res_set s;

	snprintf(proto.opt, sizeof(proto.opt), "67108864");
	res_set_init(&s, state);
	assert_int_equal(res_set_make(&s, &proto, &made, err, sizeof(err)), -1);
	snprintf(p, sizeof(p), "%s/%s/thpbench-%d-", root, want_dir,
		 (int)getpid());
	at = strstr(err, p);
	assert_non_null(at);
	assert_non_null(strstr(err, want_file));
	assert_int_equal(s.n, 0);
	/* The directory it made is gone again. */
	snprintf(q, sizeof(q), "%s", at);
	m = strstr(q, "/memory.");
	assert_non_null(m);
	*m = '\0';
	assert_int_equal(access(q, F_OK), -1);
}

static void test_memcg_v1_chosen(void **st)
{
	struct res_env e;

	(void)st;
	fake_cgroups(false, true);
	res_env_init(&e, state);
	snprintf(said, sizeof(said), "%s/cgv1", root);
	assert_string_equal(e.memcg_v1_root, said);
	said[0] = '\0';
	make_memcg_fails("cgv1", "memory.limit_in_bytes");
}

static void test_memcg_v2_first(void **st)
{
	(void)st;
	fake_cgroups(true, true);
	make_memcg_fails("cg", "memory.max");
}

static void test_memcg_none(void **st)
{
	struct res proto = { .kind = &res_kind_cgroup, .num = -1 };
	const struct res *made;
	struct res_env e;
	struct res_set s;
	char err[512];

	(void)st;
	fake_cgroups(false, false);
	res_env_init(&e, state);
	assert_string_equal(e.memcg_v1_root, "");	/* not cgcpu, not "cgmem x" */
	res_set_init(&s, state);
	assert_int_equal(res_set_make(&s, &proto, &made, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "neither"));
}

/* Recovery undoes each on the hierarchy its num names, and only there. */
static void test_memcg_recover_versions(void **st)
{
	static const char *const dirs[] = {
		"cgv1/thpbench-9-1", "cg/thpbench-9-2", "cg/thpbench-9-3",
		"cgv1/thpbench-9-4", "cgv1/thpbench-9-5", "cgv1/other",
	};
	char entries[2048], err[512], p[PATH_MAX + 64];
	size_t i;
	int undone;

	(void)st;
	fake_cgroups(false, true);
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		mkdir_p(p, 0755);
	}
	snprintf(entries, sizeof(entries),
		 "{\"kind\": \"cgroup\", \"path\": \"%s/cgv1/thpbench-9-1\", \"num\": 1},"
		 "{\"kind\": \"cgroup\", \"path\": \"%s/cg/thpbench-9-2\", \"num\": 2},"
		 "{\"kind\": \"cgroup\", \"path\": \"%s/cg/thpbench-9-3\", \"num\": 1},"
		 "{\"kind\": \"cgroup\", \"path\": \"%s/cgv1/thpbench-9-4\", \"num\": 2},"
		 "{\"kind\": \"cgroup\", \"path\": \"%s/cgv1/thpbench-9-5\", \"num\": 7},"
		 "{\"kind\": \"cgroup\", \"path\": \"%s/cgv1/other\", \"num\": 1}",
		 root, root, root, root, root, root);
	put_journal(entries);
	assert_int_equal(res_recover(state, &sink, &undone, err, sizeof(err)), 0);
	assert_int_equal(undone, 2);
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		/* Only the first two are ours: v1 under cgv1, v2 under cg. */
		assert_int_equal(access(p, F_OK), i < 2 ? -1 : 0);
	}
	assert_non_null(strstr(said, "(cgroup v1)"));
	assert_non_null(strstr(said, "(cgroup v2)"));
	assert_non_null(strstr(said, "num 7 is no cgroup version"));
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_under),
		T(test_journal_round_trip),
		T(test_hostile_journal),
		T(test_recover_leaves_foreign),
		T(test_recover_undoes_ours),
		T(test_make_failure_undone),
		T(test_zswap),
		T(test_swaps_match),
		T(test_memcg_v1_chosen),
		T(test_memcg_v2_first),
		T(test_memcg_none),
		T(test_memcg_recover_versions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
