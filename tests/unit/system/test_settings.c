// SPDX-License-Identifier: GPL-2.0-only
/*
 * settings: snapshot, apply, restore, journal, lock and the signal path,
 * all against a fake mm sysfs tree in a temp directory (never /sys).
 *
 * What is simulated: plain files accept any write and read back what was
 * written. Where a test needs the kernel's own behaviour (a choice file
 * that moves its brackets, EINVAL for an out-of-range value, a hugetlb
 * pool that grants fewer pages than asked, a knob that will not change)
 * it installs fake_kernel_write through knob_set_write_hook. The
 * signal path never goes through the hook: it writes plain files.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "../fake_tree.h"

#include "lock_child.h"
#include "system/hugetlb_users.h"
#include "system/lock.h"
#include "system/settings.h"
#include "system/sysctl_knob.h"
#include "util/util.h"

#define THP "transparent_hugepage/"
#define POOL2M "hugepages/hugepages-2048kB/"
#define POOL1G "hugepages/hugepages-1048576kB/"

static char g_base[128];
static char g_root[160];
static char g_state[160];
static char g_journal[200];
static char g_record[200];
static char g_proc[160];

/* ---- the fake tree ------------------------------------------------- */

static void put(const char *rel, const char *text, mode_t mode)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", g_root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_p(dir, 0755), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

/* The shapes of a 6.18 /sys/kernel/mm, trimmed. */
static void build_tree(void)
{
	put(THP "enabled", "always [madvise] never", 0644);
	put(THP "defrag", "always defer defer+madvise [madvise] never", 0644);
	put(THP "use_zero_page", "1", 0644);
	put(THP "shmem_enabled", "always within_size advise [never] deny force",
	    0644);
	put(THP "shrink_underused", "1", 0644);
	put(THP "hpage_pmd_size", "2097152", 0444);
	put(THP "hugepages-64kB/enabled", "always inherit madvise [never]",
	    0644);
	put(THP "hugepages-64kB/stats/nr_anon", "0", 0444);
	put(THP "hugepages-2048kB/enabled", "always [inherit] madvise never",
	    0644);
	put(THP "khugepaged/defrag", "1", 0644);
	put(THP "khugepaged/max_ptes_none", "511", 0644);
	put(THP "khugepaged/pages_to_scan", "4096", 0644);
	put(THP "khugepaged/pages_collapsed", "0", 0444);
	put(THP "khugepaged/full_scans", "0", 0444);
	put(POOL2M "nr_hugepages", "0", 0644);
	put(POOL2M "nr_overcommit_hugepages", "0", 0644);
	put(POOL2M "free_hugepages", "0", 0444);
	put(POOL2M "surplus_hugepages", "0", 0444);
	put(POOL2M "demote", "0", 0200);
	put(POOL1G "nr_hugepages", "0", 0644);
	put(POOL1G "nr_overcommit_hugepages", "0", 0644);
}

static int setup(void **state)
{
	(void)state;
	snprintf(g_base, sizeof(g_base), "/tmp/thpbench-settings-XXXXXX");
	if (!mkdtemp(g_base))
		return -1;
	snprintf(g_root, sizeof(g_root), "%s/mm", g_base);
	snprintf(g_state, sizeof(g_state), "%s/state", g_base);
	snprintf(g_journal, sizeof(g_journal), "%s/journal.json", g_state);
	snprintf(g_record, sizeof(g_record), "%s/unrestored.json", g_state);
	snprintf(g_proc, sizeof(g_proc), "%s/proc", g_base);
	setenv("THPBENCH_PROC_ROOT", g_proc, 1);
	unsetenv("THPBENCH_PROC_SYS_ROOT");
	build_tree();
	knob_set_write_hook(NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	knob_set_write_hook(NULL);
	return fake_rm_tree(g_base);
}

static const char *val(const char *name)
{
	static char buf[256];

	if (knob_read(g_root, name, buf, sizeof(buf)))
		return "<unreadable>";
	return buf;
}

static void raw(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", g_root, name);
	assert_int_equal(read_file_str(path, buf, len), 0);
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void begin(struct settings_ctx *ctx)
{
	char err[512] = "";

	settings_init(ctx, g_root, g_state);
	if (settings_begin(ctx, err, sizeof(err)))
		fail_msg("settings_begin: %s", err);
}

static void apply(struct settings_ctx *ctx, const char *name,
		  const char *value)
{
	char err[512] = "";

	if (settings_apply(ctx, name, value, err, sizeof(err)))
		fail_msg("settings_apply(%s, %s): %s", name, value, err);
}

/* ---- a fake kernel ------------------------------------------------- */

/* sysfs-like: the file holds exactly the last write. */
static int store(const char *abspath, const char *text)
{
	FILE *f = fopen(abspath, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static long g_pool_limit = 1000;	/* pages the "kernel" can find */
static long g_inuse;			/* 2 MiB pages a neighbour holds */
static char g_pool_written[32];		/* last value written to POOL2M */
static const char *g_stuck;		/* knob whose writes do nothing */
static char g_wlog[64][128];		/* knobs written, in order */
static int g_nw;

static const char *rel_of(const char *abspath)
{
	return abspath + strlen(g_root) + 1;
}

static bool has_word(const char *list, const char *w)
{
	char copy[256], *save, *t;

	snprintf(copy, sizeof(copy), "%s", list);
	for (t = strtok_r(copy, " []", &save); t; t = strtok_r(NULL, " []", &save))
		if (!strcmp(t, w))
			return true;
	return false;
}

/* Rewrite "a [b] c" with the brackets around value, as the kernel shows it. */
static int write_choice(const char *abspath, const char *cur,
			const char *value)
{
	char out[256] = "", copy[256], *save, *t;

	if (!has_word(cur, value)) {
		errno = EINVAL;
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s", cur);
	for (t = strtok_r(copy, " []", &save); t;
	     t = strtok_r(NULL, " []", &save)) {
		if (*out)
			strcat(out, " ");
		if (!strcmp(t, value))
			snprintf(out + strlen(out), sizeof(out) - strlen(out),
				 "[%s]", t);
		else
			strcat(out, t);
	}
	return store(abspath, out);
}

/*
 * The 2 MiB pool as hugetlb's set_max_huge_pages() keeps it: the value
 * written is the persistent pool; pages in use beyond it stay, counted in
 * nr_hugepages and surplus_hugepages, until their user lets go.
 */
static int write_pool(const char *abspath, const char *value, long v)
{
	char num[32], surplus[PATH_MAX];
	long nr = v > g_pool_limit ? g_pool_limit : v, s = 0;

	snprintf(g_pool_written, sizeof(g_pool_written), "%s", value);
	if (g_inuse > nr) {
		s = g_inuse - nr;
		nr = g_inuse;
	}
	snprintf(surplus, sizeof(surplus), "%s/" POOL2M "surplus_hugepages",
		 g_root);
	snprintf(num, sizeof(num), "%ld", s);
	if (store(surplus, num))
		return -1;
	snprintf(num, sizeof(num), "%ld", nr);
	return store(abspath, num);
}

static int fake_kernel_write(const char *abspath, const char *value)
{
	const char *rel = rel_of(abspath);
	char cur[256], num[32];
	long v;

	if (g_nw < (int)ARRAY_SIZE(g_wlog))
		snprintf(g_wlog[g_nw++], sizeof(g_wlog[0]), "%s", rel);
	if (g_stuck && !strcmp(rel, g_stuck))
		return 0;	/* accepted, but nothing changes */
	if (read_file_str(abspath, cur, sizeof(cur)))
		return -1;
	if (strchr(cur, '['))
		return write_choice(abspath, cur, value);
	if (parse_long(value, &v)) {
		errno = EINVAL;
		return -1;
	}
	if (strstr(rel, "max_ptes_none") && (v < 0 || v > 511)) {
		errno = EINVAL;
		return -1;
	}
	if (!strcmp(rel, POOL2M "nr_hugepages"))
		return write_pool(abspath, value, v);
	if (strstr(rel, "/nr_hugepages") && v > g_pool_limit) {
		snprintf(num, sizeof(num), "%ld", g_pool_limit);
		return store(abspath, num);
	}
	return store(abspath, value);
}

static void use_fake_kernel(void)
{
	g_pool_limit = 1000;
	g_inuse = 0;
	g_pool_written[0] = '\0';
	g_stuck = NULL;
	g_nw = 0;
	knob_set_write_hook(fake_kernel_write);
}

static int wlog_index(const char *name)
{
	int i;

	for (i = 0; i < g_nw; i++)
		if (!strcmp(g_wlog[i], name))
			return i;
	return -1;
}

/* ---- stderr capture ------------------------------------------------ */

static int capture_start(void)
{
	char path[PATH_MAX];
	int saved, fd;

	snprintf(path, sizeof(path), "%s/stderr", g_base);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, STDERR_FILENO);
	close(fd);
	return saved;
}

static void capture_stop(int saved, char *buf, size_t len)
{
	char path[PATH_MAX];

	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	snprintf(path, sizeof(path), "%s/stderr", g_base);
	assert_int_equal(read_file_str(path, buf, len), 0);
}

/* ---- snapshot ------------------------------------------------------ */

static void test_snapshot_reads_knobs(void **state)
{
	struct snapshot s;
	char err[256];
	size_t i, last_thp = 0, first_tlb = SIZE_MAX;

	(void)state;
	assert_int_equal(snapshot_take(g_root, &s, err, sizeof(err)), 0);
	assert_string_equal(snapshot_get(&s, THP "enabled"), "madvise");
	assert_string_equal(snapshot_get(&s, THP "defrag"), "madvise");
	assert_string_equal(snapshot_get(&s, THP "shmem_enabled"), "never");
	assert_string_equal(snapshot_get(&s, THP "hugepages-2048kB/enabled"),
			    "inherit");
	assert_string_equal(snapshot_get(&s, THP "hugepages-64kB/enabled"),
			    "never");
	assert_string_equal(snapshot_get(&s, THP "khugepaged/max_ptes_none"),
			    "511");
	assert_string_equal(snapshot_get(&s, THP "shrink_underused"), "1");
	assert_string_equal(snapshot_get(&s, POOL2M "nr_hugepages"), "0");
	assert_string_equal(snapshot_get(&s, POOL1G "nr_overcommit_hugepages"),
			    "0");
	/* read-only, write-only and statistics files are not knobs */
	assert_null(snapshot_get(&s, THP "hpage_pmd_size"));
	assert_null(snapshot_get(&s, THP "hugepages-64kB/stats/nr_anon"));
	assert_null(snapshot_get(&s, THP "khugepaged/pages_collapsed"));
	assert_null(snapshot_get(&s, POOL2M "free_hugepages"));
	assert_null(snapshot_get(&s, POOL2M "demote"));
	assert_int_equal(s.n, 14);
	for (i = 0; i < s.n; i++) {
		char want[PATH_MAX];

		snprintf(want, sizeof(want), "%s/%s", g_root, s.v[i].name);
		assert_string_equal(s.v[i].abspath, want);
		if (!strncmp(s.v[i].name, THP, strlen(THP)))
			last_thp = i;
		else if (first_tlb == SIZE_MAX)
			first_tlb = i;
	}
	/* the restore order: THP knobs, then pools, nr_hugepages last */
	assert_true(last_thp < first_tlb);
	assert_non_null(strstr(s.v[s.n - 1].name, "/nr_hugepages"));
	assert_non_null(strstr(s.v[s.n - 2].name, "/nr_hugepages"));
	snapshot_free(&s);
	assert_int_equal(s.n, 0);
}

static void test_snapshot_wrong_root(void **state)
{
	struct snapshot s;
	char err[512], bogus[PATH_MAX];

	(void)state;
	snprintf(bogus, sizeof(bogus), "%s/nothing", g_base);
	assert_int_equal(snapshot_take(bogus, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, bogus));
	assert_non_null(strstr(err, "THPBENCH_SYSFS_ROOT"));
}

static void test_knob_read_and_modes(void **state)
{
	char buf[64], modes[8][16];

	(void)state;
	assert_int_equal(knob_read(g_root, THP "defrag", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "madvise");
	assert_int_equal(knob_read(g_root, THP "nope", buf, sizeof(buf)), -1);
	assert_int_equal(thp_modes_available(g_root, modes, 8), 3);
	assert_string_equal(modes[0], "always");
	assert_string_equal(modes[1], "madvise");
	assert_string_equal(modes[2], "never");
	assert_int_equal(thp_modes_available(g_root, modes, 2), 2);
	put(THP "enabled", "[always] never", 0644);
	assert_int_equal(thp_modes_available(g_root, modes, 8), 2);
	assert_string_equal(modes[1], "never");
}

static void test_init_from_env(void **state)
{
	struct settings_ctx ctx;

	(void)state;
	setenv("THPBENCH_SYSFS_ROOT", "/x/mm/", 1);
	setenv("THPBENCH_STATE_DIR", "/x/state", 1);
	settings_init(&ctx, NULL, NULL);
	assert_string_equal(ctx.root, "/x/mm");
	assert_string_equal(ctx.state_dir, "/x/state");
	assert_int_equal(ctx.lock_fd, -1);
	settings_free(&ctx);
	settings_init(&ctx, "/y", NULL);
	assert_string_equal(ctx.root, "/y");
	settings_free(&ctx);
	unsetenv("THPBENCH_SYSFS_ROOT");
	unsetenv("THPBENCH_STATE_DIR");
	settings_init(&ctx, NULL, NULL);
	assert_string_equal(ctx.root, "/sys/kernel/mm");
	assert_string_equal(ctx.state_dir, "/run/thpbench");
	settings_free(&ctx);
}

static void test_writable(void **state)
{
	struct settings_ctx ctx;
	char path[PATH_MAX];

	(void)state;
	settings_init(&ctx, g_root, g_state);
	assert_true(settings_writable(&ctx));
	snprintf(path, sizeof(path), "%s/" THP "enabled", g_root);
	assert_int_equal(chmod(path, 0444), 0);
	assert_false(settings_writable(&ctx));
	assert_int_equal(unlink(path), 0);
	assert_false(settings_writable(&ctx));
	settings_free(&ctx);
}

/* ---- apply --------------------------------------------------------- */

static void test_apply_reads_back(void **state)
{
	struct settings_ctx ctx;
	char buf[128];

	(void)state;
	use_fake_kernel();
	begin(&ctx);
	assert_true(exists(g_journal));
	apply(&ctx, THP "enabled", "always\n");
	raw(THP "enabled", buf, sizeof(buf));
	assert_string_equal(buf, "[always] madvise never");
	assert_string_equal(val(THP "enabled"), "always");
	apply(&ctx, THP "hugepages-64kB/enabled", "inherit");
	assert_string_equal(val(THP "hugepages-64kB/enabled"), "inherit");
	apply(&ctx, THP "khugepaged/max_ptes_none", "0");
	assert_string_equal(val(THP "khugepaged/max_ptes_none"), "0");
	apply(&ctx, POOL2M "nr_hugepages", "16");
	assert_string_equal(val(POOL2M "nr_hugepages"), "16");
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
}

static void expect_apply_error(struct settings_ctx *ctx, const char *name,
			       const char *value, const char *msg)
{
	char err[512] = "";

	assert_int_equal(settings_apply(ctx, name, value, err, sizeof(err)),
			 -1);
	if (!strstr(err, msg))
		fail_msg("error \"%s\" lacks \"%s\"", err, msg);
}

static void test_apply_rejects_names(void **state)
{
	struct settings_ctx ctx;
	char victim[PATH_MAX], buf[32];

	(void)state;
	put("victim", "keep", 0644);
	begin(&ctx);
	expect_apply_error(&ctx, "transparent_hugepage/../victim", "x",
			   "is not under transparent_hugepage/ or hugepages/");
	expect_apply_error(&ctx, "hugepages/../../etc/passwd", "x",
			   "is not under");
	expect_apply_error(&ctx, "victim", "x", "is not under");
	expect_apply_error(&ctx, "/etc/passwd", "x", "is not under");
	expect_apply_error(&ctx, THP, "x", "is not under");
	expect_apply_error(&ctx, THP "./enabled", "always", "is not under");
	expect_apply_error(&ctx, THP "hpage_pmd_size", "4096",
			   "not a writable file");
	expect_apply_error(&ctx, THP "no_such_knob", "1", "missing");
	snprintf(victim, sizeof(victim), "%s/victim", g_root);
	assert_int_equal(read_file_str(victim, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "keep");
	assert_int_equal(settings_end(&ctx), 0);
	/* outside begin/end a change could not be restored */
	expect_apply_error(&ctx, THP "enabled", "always", "settings_begin");
	assert_string_equal(val(THP "enabled"), "madvise");
	settings_free(&ctx);
}

/* Plain files, no fake kernel: the choices are checked before writing. */
static void test_apply_unlisted_choice(void **state)
{
	struct settings_ctx ctx;
	char buf[128];

	(void)state;
	begin(&ctx);
	expect_apply_error(&ctx, THP "enabled", "sometimes",
			   "value \"sometimes\" not accepted by transparent_hugepage/enabled (choices: always madvise never)");
	expect_apply_error(&ctx, THP "enabled", "always madvise",
			   "not accepted");
	expect_apply_error(&ctx, THP "enabled", "", "not accepted");
	raw(THP "enabled", buf, sizeof(buf));
	assert_string_equal(buf, "always [madvise] never");
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
}

/* The fake kernel answers EINVAL, as sysfs stores do for a bad value. */
static void test_apply_kernel_rejects(void **state)
{
	struct settings_ctx ctx;

	(void)state;
	use_fake_kernel();
	begin(&ctx);
	expect_apply_error(&ctx, THP "khugepaged/max_ptes_none", "9999",
			   "value 9999 not accepted by transparent_hugepage/khugepaged/max_ptes_none");
	assert_string_equal(val(THP "khugepaged/max_ptes_none"), "511");
	/* accepted without error, but the value did not take */
	g_stuck = THP "defrag";
	expect_apply_error(&ctx, THP "defrag", "never",
			   "value never not accepted by transparent_hugepage/defrag (choices: always defer defer+madvise madvise never)");
	g_stuck = NULL;
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
}

static void test_apply_pool_shortfall(void **state)
{
	struct settings_ctx ctx;

	(void)state;
	use_fake_kernel();
	g_pool_limit = 3;
	begin(&ctx);
	expect_apply_error(&ctx, POOL2M "nr_hugepages", "8",
			   "kernel provided only 3 of 8 huge pages (hugepages-2048kB); free memory or reserve at boot");
	apply(&ctx, POOL2M "nr_hugepages", "2");
	assert_int_equal(settings_end(&ctx), 0);
	assert_string_equal(val(POOL2M "nr_hugepages"), "0");
	settings_free(&ctx);
}

/* ---- end ----------------------------------------------------------- */

static void change_many(struct settings_ctx *ctx)
{
	apply(ctx, POOL2M "nr_hugepages", "4");
	apply(ctx, POOL1G "nr_hugepages", "1");
	apply(ctx, POOL2M "nr_overcommit_hugepages", "8");
	apply(ctx, THP "enabled", "always");
	apply(ctx, THP "defrag", "never");
	apply(ctx, THP "hugepages-64kB/enabled", "always");
	apply(ctx, THP "hugepages-2048kB/enabled", "never");
	apply(ctx, THP "khugepaged/max_ptes_none", "0");
	apply(ctx, THP "khugepaged/pages_to_scan", "100");
}

static void assert_original(void)
{
	assert_string_equal(val(THP "enabled"), "madvise");
	assert_string_equal(val(THP "defrag"), "madvise");
	assert_string_equal(val(THP "hugepages-64kB/enabled"), "never");
	assert_string_equal(val(THP "hugepages-2048kB/enabled"), "inherit");
	assert_string_equal(val(THP "khugepaged/max_ptes_none"), "511");
	assert_string_equal(val(THP "khugepaged/pages_to_scan"), "4096");
	assert_string_equal(val(POOL2M "nr_hugepages"), "0");
	assert_string_equal(val(POOL1G "nr_hugepages"), "0");
	assert_string_equal(val(POOL2M "nr_overcommit_hugepages"), "0");
}

static void test_end_restores_in_order(void **state)
{
	struct settings_ctx ctx;
	char lockpath[PATH_MAX], lerr[512];
	pid_t holder;
	int fd, i, thp_max = -1, pool_min = INT_MAX;

	(void)state;
	use_fake_kernel();
	begin(&ctx);
	change_many(&ctx);
	assert_string_equal(val(THP "enabled"), "always");
	g_nw = 0;
	assert_int_equal(settings_end(&ctx), 0);
	assert_original();
	/* nine knobs changed, nine written back, nothing else touched */
	assert_int_equal(g_nw, 9);
	for (i = 0; i < g_nw; i++) {
		if (!strncmp(g_wlog[i], THP, strlen(THP)))
			thp_max = i;
		else if (strstr(g_wlog[i], "/nr_hugepages") && i < pool_min)
			pool_min = i;
	}
	assert_true(thp_max < pool_min);
	assert_true(wlog_index(POOL2M "nr_overcommit_hugepages") < pool_min);
	assert_false(exists(g_journal));
	/* the lock is free again */
	assert_int_equal(settings_lock_path(g_root, lockpath, sizeof(lockpath),
					    lerr, sizeof(lerr)), 0);
	fd = lock_take(lockpath, &holder);
	assert_true(fd >= 0);
	lock_release(fd, lockpath);
	settings_free(&ctx);
}

/* The messages a sink got, one a line, "E: " or "W: " first. */
static void collect(void *arg, bool warning, const char *msg)
{
	char *buf = arg;
	size_t at = strlen(buf);

	snprintf(buf + at, 4096 - at, "%s: %s\n", warning ? "W" : "E", msg);
}

/*
 * With a sink (settings_say.h), what the settings code says goes there and
 * nothing to stderr: the cli prints it.
 */
static void test_sink_gets_messages(void **state)
{
	static char said[4096];
	struct settings_ctx ctx, next;
	char out[4096], err[4096];
	int saved, restored;

	(void)state;
	said[0] = '\0';
	use_fake_kernel();
	begin(&ctx);
	ctx.say = (struct settings_sink){ collect, said };
	change_many(&ctx);
	g_stuck = THP "khugepaged/pages_to_scan";
	saved = capture_start();
	assert_int_equal(settings_end(&ctx), -1);
	capture_stop(saved, out, sizeof(out));
	assert_string_equal(out, "");
	assert_non_null(strstr(said, "E: knob transparent_hugepage/khugepaged/pages_to_scan would not go back: was 4096, now 100"));
	assert_non_null(strstr(said, "E: 1 knob(s) would not go back (above): recorded in "));
	/* the next run's warning too */
	said[0] = '\0';
	settings_init(&next, g_root, g_state);
	next.say = (struct settings_sink){ collect, said };
	saved = capture_start();
	assert_int_equal(settings_begin(&next, err, sizeof(err)), 0);
	capture_stop(saved, out, sizeof(out));
	assert_string_equal(out, "");
	assert_non_null(strstr(said, "W: an earlier run could not put back 1 huge-page knob(s)"));
	assert_int_equal(settings_end(&next), 0);
	settings_free(&next);
	g_stuck = NULL;
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), 0);
	assert_original();
	assert_false(exists(g_record));
	settings_free(&ctx);
}

/*
 * A knob the kernel will not take back is reported and recorded in place
 * of the journal; the next run goes on with a warning; `thpbench restore`
 * tries again (and fails, naming it, while it is stuck); --forget drops it.
 */
static void test_end_records_stuck_knob(void **state)
{
	struct settings_ctx ctx, next;
	char out[4096], err[4096];
	size_t forgotten;
	int saved, restored;

	(void)state;
	use_fake_kernel();
	begin(&ctx);
	change_many(&ctx);
	g_stuck = THP "khugepaged/pages_to_scan";
	saved = capture_start();
	assert_int_equal(settings_end(&ctx), -1);
	capture_stop(saved, out, sizeof(out));
	assert_non_null(strstr(out, "transparent_hugepage/khugepaged/pages_to_scan would not go back: was 4096, now 100 (the kernel kept 100)"));
	assert_non_null(strstr(out, "unrestored.json"));
	assert_null(strstr(out, "transparent_hugepage/enabled"));
	assert_string_equal(val(THP "enabled"), "madvise");
	assert_string_equal(val(POOL2M "nr_hugepages"), "0");
	/* the record replaces the journal: the next run is not refused */
	assert_false(exists(g_journal));
	assert_true(exists(g_record));
	saved = capture_start();
	begin(&next);
	capture_stop(saved, out, sizeof(out));
	assert_non_null(strstr(out, "an earlier run could not put back 1 huge-page knob(s): transparent_hugepage/khugepaged/pages_to_scan (should be 4096, is 100: the kernel kept 100)"));
	assert_string_equal(snapshot_get(&next.orig, THP "khugepaged/pages_to_scan"), "100");
	assert_int_equal(settings_end(&next), 0);
	assert_true(exists(g_record));
	settings_free(&next);
	/* restore tries again: still stuck, named, the record stays */
	saved = capture_start();
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), -1);
	capture_stop(saved, out, sizeof(out));
	assert_non_null(strstr(err, "1 knob(s) would not go back: transparent_hugepage/khugepaged/pages_to_scan (should be 4096, is 100"));
	assert_true(exists(g_record));
	/* once the knob moves, restore puts it back and drops the record */
	g_stuck = NULL;
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), 0);
	assert_int_equal(restored, 1);
	assert_original();
	assert_false(exists(g_record));
	/* --forget: the current value stays, the record goes */
	begin(&next);
	apply(&next, THP "khugepaged/pages_to_scan", "100");
	g_stuck = THP "khugepaged/pages_to_scan";
	saved = capture_start();
	assert_int_equal(settings_end(&next), -1);
	capture_stop(saved, out, sizeof(out));
	settings_free(&next);
	assert_true(exists(g_record));
	assert_int_equal(settings_forget_unrestored(&ctx, &forgotten, err,
						    sizeof(err)), 0);
	assert_int_equal(forgotten, 1);
	assert_false(exists(g_record));
	assert_string_equal(val(THP "khugepaged/pages_to_scan"), "100");
	settings_free(&ctx);
}

/* A process in the fake /proc holding kb of hugetlb pages. */
static void fake_proc(int pid, const char *name, long kb)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", g_proc, pid);
	assert_int_equal(mkdir_p(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%d/status", g_proc, pid);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "Name:\t%s\nUmask:\t0077\nVmRSS:\t   1000 kB\nHugetlbPages:\t%8ld kB\n",
		name, kb);
	fclose(f);
}

/*
 * A neighbour (a PostgreSQL with huge_pages=try) takes pool pages while a
 * run has the pool raised. Writing 0 back leaves them as surplus pages:
 * the persistent pool is 0 again, so the pool is restored, the journal
 * goes, the next run starts, and the pages in use are named with their
 * holder. (Before: "would not go back: was 0, now 72" and every later run
 * refused.)
 */
static void test_neighbour_surplus_is_restored(void **state)
{
	struct settings_ctx ctx;
	char out[4096];
	int saved;

	(void)state;
	use_fake_kernel();
	fake_proc(4242, "postgres", 72 * 2048);
	fake_proc(4243, "bash", 0);
	begin(&ctx);
	apply(&ctx, POOL2M "nr_hugepages", "512");
	g_inuse = 72;
	saved = capture_start();
	assert_int_equal(settings_end(&ctx), 0);
	capture_stop(saved, out, sizeof(out));
	assert_string_equal(g_pool_written, "0");
	assert_string_equal(val(POOL2M "nr_hugepages"), "72");
	assert_string_equal(val(POOL2M "surplus_hugepages"), "72");
	assert_null(strstr(out, "would not go back"));
	assert_non_null(strstr(out, "hugepages-2048kB is back to its size, but 72 surplus huge page(s) are still in use by pid 4242 (postgres, 147456 kB)"));
	assert_false(exists(g_journal));
	assert_false(exists(g_record));
	settings_free(&ctx);
	/* the next run starts, and keeps the persistent pool (0), never the
	 * 72 in use: writing those back would pin them for good */
	g_pool_written[0] = '\0';
	begin(&ctx);
	assert_string_equal(snapshot_get(&ctx.orig, POOL2M "nr_hugepages"), "0");
	apply(&ctx, POOL2M "nr_hugepages", "100");
	saved = capture_start();
	assert_int_equal(settings_end(&ctx), 0);
	capture_stop(saved, out, sizeof(out));
	assert_string_equal(g_pool_written, "0");
	settings_free(&ctx);
	/* the neighbour lets go: the kernel frees its surplus pages */
	g_inuse = 0;
	begin(&ctx);
	apply(&ctx, POOL2M "nr_hugepages", "4");
	assert_int_equal(settings_end(&ctx), 0);
	assert_string_equal(val(POOL2M "nr_hugepages"), "0");
	assert_string_equal(val(POOL2M "surplus_hugepages"), "0");
	settings_free(&ctx);
}

/* Who holds huge pages: by size, at most three named, names made safe. */
static void test_hugetlb_users(void **state)
{
	char buf[512];

	(void)state;
	assert_int_equal(hugetlb_users(g_proc, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	fake_proc(10, "small", 2048);
	fake_proc(11, "postgres", 147456);
	fake_proc(12, "evil\033[31m", 4096);
	fake_proc(13, "none", 0);
	fake_proc(14, "tiny", 2048);
	assert_int_equal(hugetlb_users(g_proc, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "pid 11 (postgres, 147456 kB), pid 12 (evil?[31m, 4096 kB), pid 10 (small, 2048 kB) and 1 more");
}

/* ---- crashes ------------------------------------------------------- */

/* A run that changes knobs and dies without settings_end. */
static pid_t crashing_run(int how)
{
	struct settings_ctx ctx;
	char err[512];
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid)
		return pid;
	settings_init(&ctx, g_root, g_state);
	if (settings_begin(&ctx, err, sizeof(err)) ||
	    settings_apply(&ctx, THP "enabled", "always", err, sizeof(err)) ||
	    settings_apply(&ctx, THP "hugepages-64kB/enabled", "always", err,
			   sizeof(err)) ||
	    settings_apply(&ctx, THP "khugepaged/max_ptes_none", "0", err,
			   sizeof(err)) ||
	    settings_apply(&ctx, POOL2M "nr_hugepages", "4", err,
			   sizeof(err)) ||
	    (getenv("THPBENCH_PROC_SYS_ROOT") &&
	     settings_apply(&ctx, SYSCTL_PROACTIVENESS, "0", err,
			    sizeof(err)))) {
		fprintf(stderr, "child: %s\n", err);
		_exit(3);
	}
	if (how)
		raise(how);
	_exit(0);
}

static void assert_crashed_state(pid_t pid)
{
	json_error_t jerr;
	json_t *j;

	assert_true(exists(g_journal));
	assert_string_equal(val(THP "enabled"), "always");
	assert_string_equal(val(THP "khugepaged/max_ptes_none"), "0");
	assert_string_equal(val(POOL2M "nr_hugepages"), "4");
	j = json_load_file(g_journal, 0, &jerr);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "pid")), pid);
	assert_string_equal(json_string_value(json_object_get(j, "root")),
			    g_root);
	assert_true(json_array_size(json_object_get(j, "knobs")) == 14);
	json_decref(j);
}

static void test_crash_then_restore(void **state)
{
	struct settings_ctx ctx;
	char err[512] = "";
	int status, restored;
	pid_t pid;

	(void)state;
	pid = crashing_run(0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_crashed_state(pid);
	settings_init(&ctx, g_root, g_state);
	if (settings_restore_journal(&ctx, &restored, err, sizeof(err)))
		fail_msg("restore: %s", err);
	assert_int_equal(restored, 4);
	assert_original();
	assert_false(exists(g_journal));
	/* nothing left to do */
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), 0);
	assert_int_equal(restored, 0);
	assert_int_equal(ctx.lock_fd, -1);
	settings_free(&ctx);
}

/*
 * A crashed run's journal whose pool the kernel can no longer fill (it
 * was 100 pages; memory got fragmented while the run had it at 0): the
 * next run restores the rest, records the pool with the reason, warns
 * and goes on, instead of exiting 2 on every later run.
 */
static void test_crashed_short_pool_does_not_block(void **state)
{
	struct settings_ctx ctx;
	char out[4096], err[512];
	json_t *rec, *k;
	int saved, status;
	pid_t pid;

	(void)state;
	put(POOL2M "nr_hugepages", "100", 0644);
	use_fake_kernel();
	pid = crashing_run(SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_string_equal(val(POOL2M "nr_hugepages"), "4");
	g_pool_limit = 60;
	saved = capture_start();
	settings_init(&ctx, g_root, g_state);
	if (settings_begin(&ctx, err, sizeof(err))) {
		capture_stop(saved, out, sizeof(out));
		fail_msg("settings_begin refused: %s", err);
	}
	capture_stop(saved, out, sizeof(out));
	assert_non_null(strstr(out, "hugepages/hugepages-2048kB/nr_hugepages would not go back: was 100, now 60 (the kernel found only 60 of 100 huge pages for hugepages-2048kB"));
	assert_string_equal(val(THP "enabled"), "madvise");
	rec = json_load_file(g_record, 0, NULL);
	assert_non_null(rec);
	assert_int_equal(json_integer_value(json_object_get(rec, "pid")), pid);
	k = json_array_get(json_object_get(rec, "knobs"), 0);
	assert_string_equal(json_string_value(json_object_get(k, "name")),
			    POOL2M "nr_hugepages");
	assert_string_equal(json_string_value(json_object_get(k, "want")), "100");
	assert_string_equal(json_string_value(json_object_get(k, "got")), "60");
	json_decref(rec);
	assert_string_equal(snapshot_get(&ctx.orig, POOL2M "nr_hugepages"), "60");
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
}

static void test_sigkill_then_begin_recovers(void **state)
{
	struct settings_ctx ctx;
	char out[4096], pidstr[32];
	int status, saved;
	pid_t pid;
	json_t *j;

	(void)state;
	pid = crashing_run(SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_crashed_state(pid);
	saved = capture_start();
	begin(&ctx);
	capture_stop(saved, out, sizeof(out));
	snprintf(pidstr, sizeof(pidstr), "pid %d", (int)pid);
	assert_non_null(strstr(out, "warning"));
	assert_non_null(strstr(out, pidstr));
	assert_non_null(strstr(out, "restored 4"));
	/* the new snapshot holds the values from before the crash */
	assert_original();
	assert_string_equal(snapshot_get(&ctx.orig, THP "enabled"), "madvise");
	j = json_load_file(g_journal, 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "pid")),
			 getpid());
	json_decref(j);
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
}

static void test_tampered_journal(void **state)
{
	struct settings_ctx ctx;
	char err[512] = "", buf[32], victim[PATH_MAX];
	FILE *f;
	int restored;

	(void)state;
	put("victim", "keep", 0644);
	assert_int_equal(mkdir_p(g_state, 0755), 0);
	f = fopen(g_journal, "w");
	assert_non_null(f);
	fprintf(f, "{\"version\": 1, \"root\": \"%s\", \"pid\": 1, "
		   "\"start_time\": 0, \"knobs\": [{\"name\": "
		   "\"transparent_hugepage/../victim\", \"value\": \"x\"}]}",
		g_root);
	fclose(f);
	settings_init(&ctx, g_root, g_state);
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), -1);
	assert_non_null(strstr(err, "transparent_hugepage/../victim"));
	snprintf(victim, sizeof(victim), "%s/victim", g_root);
	assert_int_equal(read_file_str(victim, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "keep");
	/* a torn journal is an error naming the file, not a silent skip */
	f = fopen(g_journal, "w");
	fputs("{\"version\": 1, \"ro", f);
	fclose(f);
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), -1);
	assert_non_null(strstr(err, g_journal));
	/* and settings_begin will not run over it */
	assert_int_equal(settings_begin(&ctx, err, sizeof(err)), -1);
	assert_false(ctx.active);
	assert_int_equal(ctx.lock_fd, -1);
	settings_free(&ctx);
}

/* ---- trust in the state directory, SIGKILL's leftovers ------------- */

static pid_t start_workload(void);

/* Dead, or a zombie waiting for init. */
static bool gone(pid_t pid)
{
	char path[64], buf[512], *p;

	if (kill(pid, 0))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_file_str(path, buf, sizeof(buf)))
		return true;
	p = strrchr(buf, ')');
	return p && p[1] && p[2] == 'Z';
}

static void write_journal_text(const char *path, const char *root)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "{\"version\": 1, \"root\": \"%s\", \"pid\": 1, "
		   "\"start_time\": 0, \"knobs\": [{\"name\": "
		   "\"" THP "enabled\", \"value\": \"never\"}]}", root);
	fclose(f);
}

static void test_state_dir_trust(void **state)
{
	struct settings_ctx ctx;
	char err[512] = "", other[PATH_MAX], tmp[PATH_MAX], victim[PATH_MAX];
	char buf[64];
	int restored;

	(void)state;
	assert_int_equal(mkdir_p(g_state, 0755), 0);
	settings_init(&ctx, g_root, g_state);
	/* a state directory others may write: refused, nothing written */
	assert_int_equal(chmod(g_state, 0777), 0);
	write_journal_text(g_journal, g_root);
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), -1);
	assert_non_null(strstr(err, g_state));
	assert_int_equal(settings_begin(&ctx, err, sizeof(err)), -1);
	assert_string_equal(val(THP "enabled"), "madvise");
	assert_int_equal(chmod(g_state, 0755), 0);
	/* a journal for another root: its knobs are never written */
	snprintf(other, sizeof(other), "%s/elsewhere", g_base);
	write_journal_text(g_journal, other);
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), -1);
	assert_non_null(strstr(err, "refusing"));
	assert_string_equal(val(THP "enabled"), "madvise");
	/* a journal that is a symlink is not followed */
	snprintf(other, sizeof(other), "%s/planted.json", g_base);
	write_journal_text(other, g_root);
	assert_int_equal(unlink(g_journal), 0);
	assert_int_equal(symlink(other, g_journal), 0);
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), -1);
	assert_string_equal(val(THP "enabled"), "madvise");
	assert_int_equal(unlink(g_journal), 0);
	/* a planted journal.json.tmp symlink is replaced, not written through */
	snprintf(victim, sizeof(victim), "%s/victim", g_base);
	assert_int_equal(write_file_str(victim, "keep"), -1);
	assert_int_equal(creat(victim, 0644) >= 0, 1);
	assert_int_equal(write_file_str(victim, "keep"), 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", g_journal);
	assert_int_equal(symlink(victim, tmp), 0);
	if (settings_begin(&ctx, err, sizeof(err)))
		fail_msg("settings_begin: %s", err);
	assert_int_equal(settings_end(&ctx), 0);
	assert_int_equal(read_file_str(victim, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "keep");
	settings_free(&ctx);
}

/* The harness is SIGKILLed while its workload runs: restore ends it first. */
static void test_sigkill_ends_workload(void **state)
{
	struct settings_ctx ctx;
	char err[512];
	int p[2], status, restored, i;
	pid_t pid, wl = 0;

	(void)state;
	assert_int_equal(pipe(p), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		settings_init(&ctx, g_root, g_state);
		if (settings_begin(&ctx, err, sizeof(err)) ||
		    settings_apply(&ctx, THP "enabled", "always", err, sizeof(err)))
			_exit(3);
		wl = start_workload();
		settings_set_child(wl, 0);
		if (write(p[1], &wl, sizeof(wl)) != sizeof(wl))
			_exit(4);
		raise(SIGKILL);
	}
	close(p[1]);
	assert_int_equal(read(p[0], &wl, sizeof(wl)), sizeof(wl));
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_false(gone(wl));
	assert_string_equal(val(THP "enabled"), "always");
	settings_init(&ctx, g_root, g_state);
	/* until it has exec'ed, the fork holds the dead run's lock fd */
	for (i = 0; settings_restore_journal(&ctx, &restored, err, sizeof(err)); i++) {
		if (i == 300 || !strstr(err, "another thpbench"))
			fail_msg("restore: %s", err);
		usleep(10000);
	}
	assert_true(gone(wl));
	assert_string_equal(val(THP "enabled"), "madvise");
	settings_free(&ctx);
}

static const char *want_always(const char *name, void *arg)
{
	(void)arg;
	if (!strcmp(name, THP "defrag"))
		return NULL;	/* any value will do */
	return !strcmp(name, THP "enabled") ? "always" : snapshot_get(arg, name);
}

/* A workload that writes knobs itself is caught after its repetition. */
static void test_drift_detected_and_undone(void **state)
{
	struct settings_ctx ctx;
	char err[512], what[512], path[PATH_MAX];

	(void)state;
	begin(&ctx);
	assert_int_equal(settings_apply(&ctx, THP "enabled", "always", err,
					sizeof(err)), 0);
	assert_int_equal(settings_drift(&ctx, want_always, &ctx.orig, what,
					sizeof(what)), 0);
	/* the "workload" */
	snprintf(path, sizeof(path), "%s/" THP "enabled", g_root);
	assert_int_equal(write_file_str(path, "always madvise [never]"), 0);
	snprintf(path, sizeof(path), "%s/" THP "khugepaged/max_ptes_none", g_root);
	assert_int_equal(write_file_str(path, "7"), 0);
	snprintf(path, sizeof(path), "%s/" THP "defrag", g_root);
	assert_int_equal(write_file_str(path, "always defer madvise [never]"), 0);
	assert_int_equal(settings_drift(&ctx, want_always, &ctx.orig, what,
					sizeof(what)), 2);
	assert_non_null(strstr(what, THP "enabled always -> never"));
	assert_non_null(strstr(what, THP "khugepaged/max_ptes_none 511 -> 7"));
	assert_string_equal(val(THP "enabled"), "always");
	assert_string_equal(val(THP "khugepaged/max_ptes_none"), "511");
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
}

/* ---- the lock ------------------------------------------------------ */

static void test_lock_names_holder(void **state)
{
	struct settings_ctx ctx, other;
	char err[512] = "", pidstr[32], state2[PATH_MAX], c;
	int ready[2], go[2], status, restored;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		settings_init(&other, g_root, g_state);
		if (settings_begin(&other, err, sizeof(err)) ||
		    settings_apply(&other, THP "enabled", "never", err,
				   sizeof(err)))
			_exit(3);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(4);
		_exit(settings_end(&other) ? 5 : 0);
	}
	close(ready[1]);
	close(go[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	snprintf(pidstr, sizeof(pidstr), "pid %d", (int)pid);
	settings_init(&ctx, g_root, g_state);
	assert_int_equal(settings_begin(&ctx, err, sizeof(err)), -1);
	assert_non_null(strstr(err, pidstr));
	assert_false(ctx.active);
	settings_free(&ctx);
	/* another state directory: still the same knobs, still locked out */
	snprintf(state2, sizeof(state2), "%s/state2", g_base);
	settings_init(&ctx, g_root, state2);
	err[0] = '\0';
	assert_int_equal(settings_begin(&ctx, err, sizeof(err)), -1);
	assert_non_null(strstr(err, pidstr));
	settings_free(&ctx);
	settings_init(&ctx, g_root, g_state);
	/* `thpbench restore` must not undo a live run's settings */
	err[0] = '\0';
	assert_int_equal(settings_restore_journal(&ctx, &restored, err,
						  sizeof(err)), -1);
	assert_non_null(strstr(err, pidstr));
	assert_string_equal(val(THP "enabled"), "never");
	assert_true(exists(g_journal));
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_string_equal(val(THP "enabled"), "madvise");
	if (settings_begin(&ctx, err, sizeof(err)))
		fail_msg("begin after the holder left: %s", err);
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
	close(ready[0]);
	close(go[1]);
}

/* A child takes the lock of a fake tree made at root (lock_child.h). */
static pid_t child_holds_lock(const char *root, bool hold, int *release)
{
	char path[PATH_MAX], err[512];

	assert_int_equal(mkdir(root, 0755), 0);
	assert_int_equal(settings_lock_path(root, path, sizeof(path), err,
					    sizeof(err)), 0);
	return child_takes_lock(path, hold, release);
}

/*
 * The lock file lives while it is held: /run/thpbench held one empty
 * lock-DEV-INO per fake tree the tests ever used (~720 here), for good.
 * A run killed while holding its lock leaves its file; the next lock
 * taken removes it, but never one that is held.
 */
static void test_lock_file_lives_while_held(void **state)
{
	char path[PATH_MAX], dead[PATH_MAX], held[PATH_MAX], err[512];
	char dead_root[PATH_MAX], held_root[PATH_MAX];
	struct settings_ctx ctx;
	int release, status;
	pid_t pid, holder;

	(void)state;
	assert_int_equal(settings_lock_path(g_root, path, sizeof(path), err,
					    sizeof(err)), 0);
	settings_init(&ctx, g_root, g_state);
	if (settings_begin(&ctx, err, sizeof(err)))
		fail_msg("begin: %s", err);
	assert_true(exists(path));
	assert_int_equal(lock_holder(path), getpid());
	assert_int_equal(settings_end(&ctx), 0);
	assert_false(exists(path));
	settings_free(&ctx);
	/* `thpbench restore` takes and drops it too */
	settings_init(&ctx, g_root, g_state);
	assert_int_equal(settings_restore_journal(&ctx, &status, err,
						  sizeof(err)), 0);
	settings_free(&ctx);
	assert_false(exists(path));

	snprintf(dead_root, sizeof(dead_root), "%s/dead-mm", g_base);
	snprintf(held_root, sizeof(held_root), "%s/held-mm", g_base);
	pid = child_holds_lock(dead_root, false, &release);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(settings_lock_path(dead_root, dead, sizeof(dead), err,
					    sizeof(err)), 0);
	assert_true(exists(dead));
	pid = child_holds_lock(held_root, true, &release);
	assert_int_equal(settings_lock_path(held_root, held, sizeof(held), err,
					    sizeof(err)), 0);
	settings_init(&ctx, g_root, g_state);
	if (settings_begin(&ctx, err, sizeof(err)))
		fail_msg("begin: %s", err);
	assert_false(exists(dead));
	assert_true(exists(held));
	assert_int_equal(lock_holder(held), pid);
	assert_int_equal(lock_take(held, &holder), -1);
	assert_int_equal(holder, pid);
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* the holder died holding it: the next lock taken removes it */
	settings_init(&ctx, g_root, g_state);
	assert_int_equal(settings_restore_journal(&ctx, &status, err,
						  sizeof(err)), 0);
	settings_free(&ctx);
	assert_false(exists(held));
	assert_false(exists(path));
}

static volatile sig_atomic_t g_cancel;

static void set_cancel(int sig)
{
	(void)sig;
	g_cancel = 1;
}

/* The lock holder's cue: the waiter has said so in the captured stderr
 * (a minute at most: a test gone wrong). */
static void wait_for_waiter(void)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	char path[PATH_MAX], buf[4096];
	int i;

	snprintf(path, sizeof(path), "%s/stderr", g_base);
	for (i = 0; i < 3000; i++) {
		if (!read_file_str(path, buf, sizeof(buf)) &&
		    strstr(buf, "waiting for another thpbench"))
			return;
		nanosleep(&tick, NULL);
	}
}

/*
 * --wait: a second run queues behind the first, saying who holds the
 * lock; it gives up after wait_s, stops when cancelled (Ctrl-C), and gets
 * the lock once the holder is done.
 */
static void test_lock_wait(void **state)
{
	struct itimerval it = { .it_value = { 0, 300 * 1000 } };
	struct settings_ctx ctx, other;
	char err[1024] = "", out[4096], who[64], c;
	int ready[2], go[2], status, saved;
	double t0;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		settings_init(&other, g_root, g_state);
		if (settings_begin(&other, err, sizeof(err)))
			_exit(3);
		if (write(ready[1], "r", 1) != 1)
			_exit(4);
		/* Held until the parent says go and is waiting (its message in
		 * the captured stderr), not for some seconds that a loaded
		 * machine may spend before its waits. */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(6);
		wait_for_waiter();
		_exit(settings_end(&other) ? 5 : 0);
	}
	close(ready[1]);
	close(go[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	snprintf(who, sizeof(who), "(pid %d: ", (int)pid);
	/* gives up after wait_s, naming the holder and its command (the
	 * real /proc: the holder is our child) */
	unsetenv("THPBENCH_PROC_ROOT");
	settings_init(&ctx, g_root, g_state);
	ctx.wait_s = 0.3;
	t0 = now_usec();
	saved = capture_start();
	assert_int_equal(settings_begin(&ctx, err, sizeof(err)), -1);
	capture_stop(saved, out, sizeof(out));
	assert_true(now_usec() - t0 >= 0.3e6);
	assert_non_null(strstr(out, "waiting for another thpbench "));
	assert_non_null(strstr(out, who));
	assert_non_null(strstr(out, "test_settings"));
	assert_non_null(strstr(err, who));
	assert_non_null(strstr(err, "still, after waiting"));
	/* a signal stops the wait */
	ctx.wait_s = -1;
	ctx.cancel = &g_cancel;
	g_cancel = 0;
	signal(SIGALRM, set_cancel);
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	saved = capture_start();
	assert_int_equal(settings_begin(&ctx, err, sizeof(err)), -1);
	capture_stop(saved, out, sizeof(out));
	signal(SIGALRM, SIG_DFL);
	assert_non_null(strstr(err, "interrupted while waiting"));
	assert_false(ctx.active);
	/* and it gets the lock once the holder is done */
	g_cancel = 0;
	ctx.wait_s = 60;
	saved = capture_start();
	assert_int_equal(write(go[1], "g", 1), 1);
	close(go[1]);
	if (settings_begin(&ctx, err, sizeof(err))) {
		capture_stop(saved, out, sizeof(out));
		fail_msg("waiting for the lock: %s", err);
	}
	capture_stop(saved, out, sizeof(out));
	assert_non_null(strstr(out, "got the settings lock after"));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);
	close(ready[0]);
}

/* ---- the signal path ----------------------------------------------- */

/* A workload stand-in in its own process group, as `thpbench run` starts it. */
static pid_t start_workload(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* exec, as a real workload does: the lock fd is close-on-exec */
		setpgid(0, 0);
		execlp("sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

static void signalled_run(int sig, int report_fd)
{
	struct settings_ctx ctx;
	char err[512];
	pid_t wl;

	/* A shell starts background jobs with SIGINT ignored, and settings
	 * keeps an ignored signal ignored: the test needs the default. */
	signal(sig, SIG_DFL);
	settings_init(&ctx, g_root, g_state);
	if (settings_begin(&ctx, err, sizeof(err)) ||
	    settings_apply(&ctx, THP "enabled", "always", err, sizeof(err)) ||
	    settings_apply(&ctx, THP "hugepages-64kB/enabled", "always", err,
			   sizeof(err)) ||
	    settings_apply(&ctx, THP "khugepaged/max_ptes_none", "0", err,
			   sizeof(err)) ||
	    settings_apply(&ctx, POOL2M "nr_hugepages", "4", err,
			   sizeof(err)))
		_exit(3);
	wl = start_workload();
	if (wl < 0)
		_exit(4);
	settings_set_child(wl, 0);
	if (write(report_fd, &wl, sizeof(wl)) != sizeof(wl))
		_exit(5);
	raise(sig);
	_exit(6);	/* not reached: the handler re-raises */
}

static void run_signal_case(int sig)
{
	struct timespec old[2] = { { 1000000, 0 }, { 1000000, 0 } };
	char path[PATH_MAX], lockpath[PATH_MAX], lerr[512];
	struct stat st;
	int p[2], status, fd;
	pid_t pid, wl = 0, holder;

	snprintf(path, sizeof(path), "%s/" THP "defrag", g_root);
	assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
	assert_int_equal(pipe(p), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		signalled_run(sig, p[1]);
	close(p[1]);
	assert_int_equal(read(p[0], &wl, sizeof(wl)), sizeof(wl));
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != sig)
		fail_msg("signal %d: child status %#x", sig, status);
	assert_original();
	assert_string_equal(val(THP "hugepages-64kB/enabled"), "never");
	assert_false(exists(g_journal));
	/* the workload was killed and reaped before the pools shrank */
	assert_int_equal(kill(wl, 0), -1);
	assert_int_equal(errno, ESRCH);
	/* an unchanged knob was only read, not written */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mtim.tv_sec, 1000000);
	assert_int_equal(settings_lock_path(g_root, lockpath, sizeof(lockpath),
					    lerr, sizeof(lerr)), 0);
	fd = lock_take(lockpath, &holder);
	assert_true(fd >= 0);
	lock_release(fd, lockpath);
}

static void test_signal_restores(void **state)
{
	(void)state;
	run_signal_case(SIGTERM);
	run_signal_case(SIGINT);
	run_signal_case(SIGHUP);
}

static volatile sig_atomic_t g_stop_seen;

static void caller_stop_handler(int sig)
{
	(void)sig;
	g_stop_seen = 1;
}

/*
 * `thpbench run` installs its own stop handler first: the first SIGTERM
 * is its graceful stop (nothing restored yet), a second one restores and
 * kills the process by SIGTERM.
 */
static void test_signal_after_caller_handler(void **state)
{
	struct sigaction sa;
	struct settings_ctx ctx;
	char err[512];
	int status;
	int p[2];
	char c = 0;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(p[0]);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = caller_stop_handler;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGTERM, &sa, NULL);
		settings_init(&ctx, g_root, g_state);
		if (settings_begin(&ctx, err, sizeof(err)) ||
		    settings_apply(&ctx, THP "enabled", "always", err,
				   sizeof(err)))
			_exit(3);
		raise(SIGTERM);
		if (!g_stop_seen || strcmp(val(THP "enabled"), "always") ||
		    !exists(g_journal))
			_exit(4);
		if (write(p[1], "g", 1) != 1)
			_exit(6);
		raise(SIGTERM);
		_exit(5);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGTERM)
		fail_msg("child status %#x", status);
	close(p[1]);
	/* the child got past the first signal with its knobs still set */
	assert_int_equal(read(p[0], &c, 1), 1);
	assert_int_equal(c, 'g');
	close(p[0]);
	assert_string_equal(val(THP "enabled"), "madvise");
	assert_false(exists(g_journal));
}

/* Under nohup SIGHUP is ignored, and settings_begin must keep it so. */
static void test_ignored_signal_stays_ignored(void **state)
{
	struct settings_ctx ctx;
	struct sigaction now;
	char err[512];
	int status;
	pid_t pid;

	(void)state;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		signal(SIGHUP, SIG_IGN);
		settings_init(&ctx, g_root, g_state);
		if (settings_begin(&ctx, err, sizeof(err)) ||
		    settings_apply(&ctx, THP "enabled", "never", err,
				   sizeof(err)))
			_exit(3);
		raise(SIGHUP);
		if (strcmp(val(THP "enabled"), "never"))
			_exit(4);
		if (settings_end(&ctx))
			_exit(5);
		sigaction(SIGHUP, NULL, &now);
		_exit(now.sa_handler == SIG_IGN ? 0 : 6);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail_msg("child status %#x", status);
	assert_string_equal(val(THP "enabled"), "madvise");
}

/* A forked child (the workload before exec) must not restore. */
static void test_forked_child_does_not_restore(void **state)
{
	struct settings_ctx ctx;
	int status;
	pid_t pid;

	(void)state;
	begin(&ctx);
	apply(&ctx, THP "enabled", "always");
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		exit(0);	/* runs atexit hooks, including ours */
	assert_int_equal(waitpid(pid, &status, 0), pid);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		raise(SIGTERM);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	assert_string_equal(val(THP "enabled"), "always");
	assert_true(exists(g_journal));
	assert_int_equal(settings_end(&ctx), 0);
	assert_string_equal(val(THP "enabled"), "madvise");
	settings_free(&ctx);
}

/* tb_die() between begin and end still restores (atexit). */
static void test_exit_restores(void **state)
{
	struct settings_ctx ctx;
	int status;
	pid_t pid;

	(void)state;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		begin(&ctx);
		apply(&ctx, THP "defrag", "never");
		tb_die("simulated failure mid-run");
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == TB_EXIT_ERROR);
	assert_string_equal(val(THP "defrag"), "madvise");
	assert_false(exists(g_journal));
}

/* ---- sysctl knobs (sysctl_knob.h) ------------------------------- */

static char g_sys[160];

/* A fake /proc/sys with compaction_proactiveness at its default. */
static void use_fake_sysctl(void)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(g_sys, sizeof(g_sys), "%s/sys", g_base);
	snprintf(path, sizeof(path), "%s/vm", g_sys);
	assert_int_equal(mkdir_p(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/" SYSCTL_PROACTIVENESS, g_sys);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("20\n", f);
	fclose(f);
	setenv("THPBENCH_PROC_SYS_ROOT", g_sys, 1);
}

static const char *sysctl_val(void)
{
	static char buf[64];
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/" SYSCTL_PROACTIVENESS, g_sys);
	if (knob_read_path(path, buf, sizeof(buf)))
		return "<unreadable>";
	return buf;
}

/* The journal's entry for name: its value and its own root (or NULL). */
static void journal_entry(const char *name, char *value, char *root,
			  size_t len)
{
	json_t *j = json_load_file(g_journal, 0, NULL), *k;
	size_t i;

	assert_non_null(j);
	value[0] = root[0] = '\0';
	json_array_foreach(json_object_get(j, "knobs"), i, k) {
		const char *r = json_string_value(json_object_get(k, "root"));

		if (strcmp(json_string_value(json_object_get(k, "name")), name))
			continue;
		snprintf(value, len, "%s",
			 json_string_value(json_object_get(k, "value")));
		snprintf(root, len, "%s", r ? r : "");
	}
	json_decref(j);
}

static void test_sysctl_set_and_restored(void **state)
{
	char value[PATH_MAX], root[PATH_MAX], cur[64], err[512];
	struct settings_ctx ctx;

	(void)state;
	/* A fake mm tree alone never reaches the real /proc/sys. */
	begin(&ctx);
	assert_null(ctx.sysctl_root);
	assert_null(snapshot_get(&ctx.orig, SYSCTL_PROACTIVENESS));
	assert_int_equal(settings_apply(&ctx, SYSCTL_PROACTIVENESS, "0", err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "THPBENCH_PROC_SYS_ROOT"));
	assert_int_equal(settings_end(&ctx), 0);
	settings_free(&ctx);

	use_fake_sysctl();
	begin(&ctx);
	assert_string_equal(ctx.sysctl_root, g_sys);
	assert_string_equal(snapshot_get(&ctx.orig, SYSCTL_PROACTIVENESS), "20");
	journal_entry(SYSCTL_PROACTIVENESS, value, root, sizeof(value));
	assert_string_equal(value, "20");
	assert_string_equal(root, g_sys);
	/* an mm knob names no root of its own: the journal's */
	journal_entry(THP "enabled", value, root, sizeof(value));
	assert_string_equal(value, "madvise");
	assert_string_equal(root, "");
	apply(&ctx, SYSCTL_PROACTIVENESS, "0");
	assert_string_equal(sysctl_val(), "0");
	assert_int_equal(settings_read(&ctx, SYSCTL_PROACTIVENESS, cur,
				       sizeof(cur)), 0);
	assert_string_equal(cur, "0");
	/* names outside the allowed ones are refused, also under /proc/sys */
	assert_int_equal(settings_apply(&ctx, "vm/drop_caches", "3", err,
					sizeof(err)), -1);
	assert_int_equal(settings_end(&ctx), 0);
	assert_string_equal(sysctl_val(), "20");
	assert_false(exists(g_journal));
	settings_free(&ctx);
}

/* vm/hugetlb_optimize_vmemmap: snapshotted where it exists, set, journalled
 * with the sysctl root, and put back at the end. */
static void test_sysctl_vmemmap_restored(void **state)
{
	char path[PATH_MAX], value[PATH_MAX], root[PATH_MAX], cur[64];
	struct settings_ctx ctx;
	FILE *f;

	(void)state;
	use_fake_sysctl();
	snprintf(path, sizeof(path), "%s/" SYSCTL_HUGETLB_VMEMMAP, g_sys);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("0\n", f);
	fclose(f);
	begin(&ctx);
	assert_string_equal(snapshot_get(&ctx.orig, SYSCTL_HUGETLB_VMEMMAP), "0");
	journal_entry(SYSCTL_HUGETLB_VMEMMAP, value, root, sizeof(value));
	assert_string_equal(value, "0");
	assert_string_equal(root, g_sys);
	apply(&ctx, SYSCTL_HUGETLB_VMEMMAP, "1");
	assert_int_equal(knob_read_path(path, cur, sizeof(cur)), 0);
	assert_string_equal(cur, "1");
	assert_int_equal(settings_end(&ctx), 0);
	assert_int_equal(knob_read_path(path, cur, sizeof(cur)), 0);
	assert_string_equal(cur, "0");
	settings_free(&ctx);
	unlink(path);
}

/* kernel/numa_balancing: outside vm/, snapshotted, set, journalled with the
 * sysctl root, and put back at the end. */
static void test_sysctl_numa_balancing_restored(void **state)
{
	char path[PATH_MAX], value[PATH_MAX], root[PATH_MAX], cur[64];
	struct settings_ctx ctx;
	FILE *f;

	(void)state;
	use_fake_sysctl();
	snprintf(path, sizeof(path), "%s/kernel", g_sys);
	assert_int_equal(mkdir_p(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/" SYSCTL_NUMA_BALANCING, g_sys);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("0\n", f);
	fclose(f);
	begin(&ctx);
	assert_string_equal(snapshot_get(&ctx.orig, SYSCTL_NUMA_BALANCING), "0");
	journal_entry(SYSCTL_NUMA_BALANCING, value, root, sizeof(value));
	assert_string_equal(value, "0");
	assert_string_equal(root, g_sys);
	apply(&ctx, SYSCTL_NUMA_BALANCING, "1");
	assert_int_equal(knob_read_path(path, cur, sizeof(cur)), 0);
	assert_string_equal(cur, "1");
	assert_int_equal(settings_end(&ctx), 0);
	assert_int_equal(knob_read_path(path, cur, sizeof(cur)), 0);
	assert_string_equal(cur, "0");
	settings_free(&ctx);
	unlink(path);
}

/* vm/compact_unevictable_allowed (the "pinned" memory state's knob):
 * snapshotted, set to 0, journalled with the sysctl root, put back. */
static void test_sysctl_compact_unevictable_restored(void **state)
{
	char path[PATH_MAX], value[PATH_MAX], root[PATH_MAX], cur[64];
	struct settings_ctx ctx;
	FILE *f;

	(void)state;
	use_fake_sysctl();
	snprintf(path, sizeof(path), "%s/vm", g_sys);
	assert_int_equal(mkdir_p(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/" SYSCTL_COMPACT_UNEVICTABLE, g_sys);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("1\n", f);
	fclose(f);
	begin(&ctx);
	assert_string_equal(snapshot_get(&ctx.orig, SYSCTL_COMPACT_UNEVICTABLE), "1");
	journal_entry(SYSCTL_COMPACT_UNEVICTABLE, value, root, sizeof(value));
	assert_string_equal(value, "1");
	assert_string_equal(root, g_sys);
	apply(&ctx, SYSCTL_COMPACT_UNEVICTABLE, "0");
	assert_int_equal(knob_read_path(path, cur, sizeof(cur)), 0);
	assert_string_equal(cur, "0");
	assert_int_equal(settings_end(&ctx), 0);
	assert_int_equal(knob_read_path(path, cur, sizeof(cur)), 0);
	assert_string_equal(cur, "1");
	settings_free(&ctx);
	unlink(path);
}

/* kill -9 mid-run; then `thpbench restore`, or the next run. */
static void test_sysctl_crash_restore(void **state)
{
	struct settings_ctx ctx;
	char err[512] = "", out[4096];
	int status, restored, saved, round;
	pid_t pid;

	(void)state;
	use_fake_sysctl();
	for (round = 0; round < 2; round++) {
		pid = crashing_run(SIGKILL);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		assert_string_equal(sysctl_val(), "0");
		assert_true(exists(g_journal));
		settings_init(&ctx, g_root, g_state);
		if (round == 0) {
			if (settings_restore_journal(&ctx, &restored, err,
						     sizeof(err)))
				fail_msg("restore: %s", err);
			assert_int_equal(restored, 5);
		} else {
			saved = capture_start();
			status = settings_begin(&ctx, err, sizeof(err));
			capture_stop(saved, out, sizeof(out));
			assert_int_equal(status, 0);
			assert_non_null(strstr(out, "restored 5"));
			assert_string_equal(snapshot_get(&ctx.orig,
							 SYSCTL_PROACTIVENESS),
					    "20");
			assert_int_equal(settings_end(&ctx), 0);
		}
		assert_string_equal(sysctl_val(), "20");
		assert_original();
		assert_false(exists(g_journal));
		settings_free(&ctx);
	}
}

static void put_journal(const char *knobs)
{
	FILE *f;

	assert_int_equal(mkdir_p(g_state, 0755), 0);
	f = fopen(g_journal, "w");
	assert_non_null(f);
	fprintf(f, "{\"version\": 1, \"root\": \"%s\", \"pid\": 1, "
		   "\"start_time\": 0, \"knobs\": [%s]}", g_root, knobs);
	fclose(f);
}

/* A journal holding one knob, under its own root; restore it. */
static int restore_one(struct settings_ctx *ctx, const char *name,
		       const char *value, const char *root, char *err,
		       size_t errlen)
{
	char knobs[1024];
	int restored;

	snprintf(knobs, sizeof(knobs),
		 "{\"name\": \"%s\", \"value\": \"%s\", \"root\": \"%s\"}",
		 name, value, root);
	put_journal(knobs);
	return settings_restore_journal(ctx, &restored, err, errlen);
}

/*
 * A journal from before knobs had roots still restores; a sysctl entry
 * is written only under this thpbench's sysctl root, and only for the
 * allowed names.
 */
static void test_sysctl_journal_roots_checked(void **state)
{
	char err[512] = "", other[200];
	struct settings_ctx ctx;
	int restored;

	(void)state;
	use_fake_sysctl();
	settings_init(&ctx, g_root, g_state);
	put_journal("{\"name\": \"" THP "enabled\", \"value\": \"never\"}");
	if (settings_restore_journal(&ctx, &restored, err, sizeof(err)))
		fail_msg("old journal: %s", err);
	assert_int_equal(restored, 1);
	assert_string_equal(val(THP "enabled"), "never");

	snprintf(other, sizeof(other), "%s/elsewhere", g_base);
	assert_int_equal(restore_one(&ctx, SYSCTL_PROACTIVENESS, "7", other,
				     err, sizeof(err)), -1);
	assert_non_null(strstr(err, other));
	assert_string_equal(sysctl_val(), "20");
	assert_int_equal(restore_one(&ctx, "vm/drop_caches", "3", g_sys, err,
				     sizeof(err)), -1);
	assert_non_null(strstr(err, "vm/drop_caches"));
	/* an mm name moved under the sysctl root is refused too */
	assert_int_equal(restore_one(&ctx, THP "enabled", "x", g_sys, err,
				     sizeof(err)), -1);
	assert_string_equal(val(THP "enabled"), "never");
	if (restore_one(&ctx, SYSCTL_PROACTIVENESS, "7", g_sys, err,
			sizeof(err)))
		fail_msg("sysctl journal: %s", err);
	assert_string_equal(sysctl_val(), "7");
	settings_free(&ctx);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_snapshot_reads_knobs),
		T(test_snapshot_wrong_root),
		T(test_knob_read_and_modes),
		T(test_init_from_env),
		T(test_writable),
		T(test_apply_reads_back),
		T(test_apply_rejects_names),
		T(test_apply_unlisted_choice),
		T(test_apply_kernel_rejects),
		T(test_apply_pool_shortfall),
		T(test_end_restores_in_order),
		T(test_end_records_stuck_knob),
		T(test_sink_gets_messages),
		T(test_neighbour_surplus_is_restored),
		T(test_crashed_short_pool_does_not_block),
		T(test_hugetlb_users),
		T(test_crash_then_restore),
		T(test_sigkill_then_begin_recovers),
		T(test_tampered_journal),
		T(test_drift_detected_and_undone),
		T(test_state_dir_trust),
		T(test_sigkill_ends_workload),
		T(test_lock_names_holder),
		T(test_lock_wait),
		T(test_lock_file_lives_while_held),
		T(test_signal_restores),
		T(test_signal_after_caller_handler),
		T(test_ignored_signal_stays_ignored),
		T(test_forked_child_does_not_restore),
		T(test_exit_restores),
		T(test_sysctl_set_and_restored),
		T(test_sysctl_vmemmap_restored),
		T(test_sysctl_numa_balancing_restored),
		T(test_sysctl_compact_unevictable_restored),
		T(test_sysctl_crash_restore),
		T(test_sysctl_journal_roots_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
