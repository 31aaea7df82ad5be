// SPDX-License-Identifier: GPL-2.0-only
/*
 * lock: the settings lock's file exists only while held, exclusion holds
 * although its name is unlinked on every release, and a sweep removes
 * what killed holders left, never a held file. All in a temp directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "lock_child.h"
#include "system/lock.h"
#include "util/util.h"

static char g_dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(g_dir, sizeof(g_dir), "/tmp/thpbench-lock-XXXXXX");
	return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_dir);
	return system(cmd) ? -1 : 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static void lock_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", g_dir, name);
}

/* Held, the file names its holder; released, it is gone. */
static void test_file_lives_while_held(void **state)
{
	char path[PATH_MAX], buf[32];
	pid_t holder = -1;
	int fd, fd2;
	FILE *f;

	(void)state;
	lock_path("lock-1-2", path, sizeof(path));
	fd = lock_take(path, &holder);
	assert_true(fd >= 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_int_equal(atol(buf), getpid());
	/* a second open file description is kept out, told who holds it */
	fd2 = lock_take(path, &holder);
	assert_int_equal(fd2, -1);
	assert_int_equal(errno, EWOULDBLOCK);
	assert_int_equal(holder, getpid());
	lock_release(fd, path);
	assert_false(exists(path));
	/* and taken again, it is made afresh */
	fd = lock_take(path, &holder);
	assert_true(fd >= 0);
	lock_release(fd, path);
	assert_false(exists(path));
}

struct churn {
	int inside;	/* holders at this moment */
	int overlaps;	/* entries that found another holder inside */
	int taken;
	int errors;
	int stop;
};

#define WORKERS 4
#define ROUNDS 100

static void churn_worker(struct churn *c, const char *path)
{
	const struct timespec hold = { 0, 50 * 1000 };
	pid_t holder;
	int i, fd;

	for (i = 0; i < ROUNDS; i++) {
		while ((fd = lock_take(path, &holder)) < 0)
			if (errno != EWOULDBLOCK) {
				__atomic_add_fetch(&c->errors, 1, __ATOMIC_SEQ_CST);
				_exit(1);
			}
		if (__atomic_add_fetch(&c->inside, 1, __ATOMIC_SEQ_CST) != 1)
			__atomic_add_fetch(&c->overlaps, 1, __ATOMIC_SEQ_CST);
		__atomic_add_fetch(&c->taken, 1, __ATOMIC_SEQ_CST);
		nanosleep(&hold, NULL);	/* room for a second holder to show */
		__atomic_sub_fetch(&c->inside, 1, __ATOMIC_SEQ_CST);
		lock_release(fd, path);
	}
	_exit(0);
}

/*
 * Takers, releasers (each release unlinks) and a sweeper at once: never
 * two holders. Locking a file its holder had just unlinked, without the
 * check that the path still names it, lets two in (seen here within a
 * few hundred rounds when the check is taken out).
 */
static void test_exclusive_under_churn(void **state)
{
	struct churn *c;
	char path[PATH_MAX];
	pid_t pid[WORKERS + 1];
	int i, status;

	(void)state;
	lock_path("lock-churn", path, sizeof(path));
	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(c != MAP_FAILED);
	memset(c, 0, sizeof(*c));
	fflush(NULL);
	for (i = 0; i < WORKERS; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (!pid[i])
			churn_worker(c, path);
	}
	pid[WORKERS] = fork();
	assert_true(pid[WORKERS] >= 0);
	if (!pid[WORKERS]) {
		while (!__atomic_load_n(&c->stop, __ATOMIC_SEQ_CST))
			lock_sweep(g_dir, "lock-");
		_exit(0);
	}
	for (i = 0; i < WORKERS; i++) {
		assert_int_equal(waitpid(pid[i], &status, 0), pid[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	__atomic_store_n(&c->stop, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(waitpid(pid[WORKERS], &status, 0), pid[WORKERS]);
	assert_int_equal(c->errors, 0);
	assert_int_equal(c->taken, WORKERS * ROUNDS);
	assert_int_equal(c->overlaps, 0);
	assert_false(exists(path));
	munmap(c, sizeof(*c));
}

/*
 * What holders killed before their release left goes; a held file, a file
 * without the prefix, a symlink and a file of another mode stay.
 */
static void test_sweep_spares_what_is_held(void **state)
{
	char dead[PATH_MAX], held[PATH_MAX], other[PATH_MAX], link[PATH_MAX];
	char wide[PATH_MAX], victim[PATH_MAX];
	int release, status, fd;
	pid_t pid;

	(void)state;
	lock_path("lock-dead", dead, sizeof(dead));
	lock_path("lock-held", held, sizeof(held));
	lock_path("journal.json", other, sizeof(other));
	lock_path("lock-link", link, sizeof(link));
	lock_path("lock-wide", wide, sizeof(wide));
	lock_path("victim", victim, sizeof(victim));
	pid = child_takes_lock(dead, false, &release);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(exists(dead));
	fd = open(other, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	fd = open(victim, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlink(victim, link), 0);
	fd = open(wide, O_WRONLY | O_CREAT, 0666);
	assert_true(fd >= 0);
	assert_int_equal(fchmod(fd, 0666), 0);
	close(fd);
	pid = child_takes_lock(held, true, &release);

	assert_int_equal(lock_sweep(g_dir, "lock-"), 1);
	assert_false(exists(dead));
	assert_true(exists(held));
	assert_true(exists(other));
	assert_true(exists(link));
	assert_true(exists(victim));
	assert_true(exists(wide));
	/* the holder is still alone: a second taker is kept out */
	assert_int_equal(lock_take(held, &(pid_t){ 0 }), -1);
	assert_int_equal(errno, EWOULDBLOCK);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* its holder gone, the next sweep takes it too */
	assert_int_equal(lock_sweep(g_dir, "lock-"), 1);
	assert_false(exists(held));
	assert_int_equal(lock_sweep(g_dir, "lock-"), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_file_lives_while_held),
		T(test_exclusive_under_churn),
		T(test_sweep_spares_what_is_held),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
