// SPDX-License-Identifier: GPL-2.0-only
#include "settings_guard.h"
#include "hugetlb_pool.h"
#include "knob.h"
#include "reap.h"
#include "trust.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define HELPER_FILE "helper"	/* the fragmenter of a run, settings_set_helper */

/*
 * What the signal handler and the atexit hook need. Everything the handler
 * touches is built before g_armed is set and freed only after it is
 * cleared with the signals blocked, so the handler never sees it change.
 */
static const struct snapshot *g_snap;
static struct res_set *g_res;
static const char *g_state_dir;
static void (*g_at_exit)(void *);
static void *g_at_exit_arg;
static volatile sig_atomic_t g_armed;
static volatile sig_atomic_t g_child;
static volatile sig_atomic_t g_helper;
static volatile sig_atomic_t g_graceful_sent;
static pid_t g_owner;
static char g_journal[PATH_MAX];
static const int g_signals[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction g_old_act[ARRAY_SIZE(g_signals)];
static int g_child_fd = -1;
static int g_child_len;	/* the length of the line in it */

static void sig_say(const char *what, const char *name)
{
	ssize_t r;

	r = write(STDERR_FILENO, "thpbench: ", 10);
	r = write(STDERR_FILENO, what, strlen(what));
	r = write(STDERR_FILENO, name, strlen(name));
	r = write(STDERR_FILENO, "\n", 1);
	(void)r;
}

/* A pool size's persistent pool is its snapshot value (hugetlb_pool.h). */
static int sig_pool_matches(const struct knob *k)
{
	long have, want = 0;
	const char *p;

	if (hugetlb_persistent(k->abspath, k->surplus, &have))
		return 0;
	for (p = k->value; *p >= '0' && *p <= '9' && want < LONG_MAX / 16; p++)
		want = want * 10 + (*p - '0');
	return !*p && p != k->value && have == want;
}

/* 1 when the knob now reads its snapshot value. */
static int sig_matches(const struct knob *k)
{
	char buf[KNOB_MAX];
	size_t off, len;
	ssize_t n;
	int fd;

	if (k->surplus)
		return sig_pool_matches(k);
	fd = open(k->abspath, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return 0;
	knob_value_span(buf, (size_t)n, &off, &len);
	return len == strlen(k->value) && !memcmp(buf + off, k->value, len);
}

static int sig_restore(const struct snapshot *snap)
{
	const struct knob *k;
	int failed = 0;
	size_t i;

	for (i = 0; i < snap->n; i++) {
		k = &snap->v[i];
		if (sig_matches(k))
			continue;
		/* write_file_str() is open/write/close only: signal-safe. */
		if (write_file_str(k->abspath, k->value) && errno != ENOENT)
			sig_say("cannot write back ", k->name);
	}
	for (i = 0; i < snap->n; i++) {
		if (!sig_matches(&snap->v[i])) {
			sig_say("would not go back: ", snap->v[i].name);
			failed++;
		}
	}
	return failed;
}

static void sig_kill_group(pid_t pg)
{
	/* pg <= 1 would make kill(-pg) hit every process we may signal. */
	if (pg <= 1 || pg == getpgrp())
		return;
	kill(-pg, SIGKILL);
	/* Its huge pages are free only once it is gone. */
	while (waitpid(pg, NULL, 0) < 0 && errno == EINTR)
		;
}

/* The workload, and the helper unless it was reaped (its pid may be reused
 * then; reap_spared() is 0 once it is). */
static void sig_kill_child(void)
{
	pid_t helper = g_helper;

	sig_kill_group(g_child);
	if (helper > 1 && reap_spared() == helper)
		sig_kill_group(helper);
}

static bool has_handler(const struct sigaction *sa)
{
	if (sa->sa_flags & SA_SIGINFO)
		return sa->sa_sigaction != NULL;
	return sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN;
}

/*
 * A caller that installed its own handler before arming (to stop
 * gracefully: kill the workload, keep the runs done so far, then
 * settings_end) gets the first signal. Any further one, or the first when
 * there was no handler, takes the hard path: kill the child, restore, die
 * by the same signal so the parent sees how we ended.
 */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *old = NULL;
	struct sigaction dfl;
	int saved = errno;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(g_signals); i++)
		if (g_signals[i] == sig)
			old = &g_old_act[i];
	/* A forked child that has not exec'ed yet must not restore. */
	if (g_armed && getpid() == g_owner) {
		if (!g_graceful_sent && old && has_handler(old)) {
			g_graceful_sent = 1;
			if (old->sa_flags & SA_SIGINFO)
				old->sa_sigaction(sig, si, uc);
			else
				old->sa_handler(sig);
			errno = saved;
			return;
		}
		g_armed = 0;
		sig_kill_child();
		/* Resources before knobs, newest first; what stays keeps its
		 * journal for `thpbench restore`. */
		if (g_res && !res_set_undo(g_res))
			unlink(g_res->journal);
		else if (g_res)
			sig_say("resource journal kept: run `thpbench restore`", "");
		/* A failed knob keeps the journal for `thpbench restore`. */
		if (!sig_restore(g_snap))
			unlink(g_journal);
		else
			sig_say("settings journal kept: run `thpbench restore`",
				"");
	}
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
	errno = saved;
}

void settings_guard_resources(struct res_set *set)
{
	g_res = set;
}

void settings_set_child(pid_t pgid, unsigned long long start)
{
	char buf[64];
	int n;

	g_child = pgid;
	if (g_child_fd < 0 || pgid <= 0)
		return;
	n = snprintf(buf, sizeof(buf), "%d %llu\n", (int)pgid,
		     start ? start : proc_start_time(pgid));
	/* Written over, then cut to length when the line got shorter:
	 * truncating to 0 first freed and allocated the file's page at every
	 * repetition. A crash in between leaves the new line first, which is
	 * all the reader takes. */
	if (pwrite(g_child_fd, buf, (size_t)n, 0) != n ||
	    (n < g_child_len && ftruncate(g_child_fd, n)))
		tb_warn("cannot record the workload's pid in %s/child: %s",
			g_state_dir ? g_state_dir : "?", strerror(errno));
	else
		g_child_len = n;
}


/*
 * The helper (the fragmenter): a process of the run that is no
 * repetition's, in a group of its own, recorded in state_dir/helper
 * ("PID STARTTIME") while it lives. Written once per start, so plainly.
 */
void settings_set_helper(pid_t pid, unsigned long long start)
{
	char path[PATH_MAX], err[512], buf[64];
	int fd, n;

	g_helper = pid > 1 ? pid : 0;
	if (!g_state_dir)
		return;
	snprintf(path, sizeof(path), "%s/" HELPER_FILE, g_state_dir);
	if (pid <= 1) {
		unlink(path);
		return;
	}
	n = snprintf(buf, sizeof(buf), "%d %llu\n", (int)pid,
		     start ? start : proc_start_time(pid));
	fd = trust_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644, err,
			sizeof(err));
	if (fd < 0 || write(fd, buf, (size_t)n) != n)
		tb_warn("%s; the fragmenter (pid %d) of a killed run will not be found by `thpbench restore`",
			fd < 0 ? err : "cannot record it", (int)pid);
	if (fd >= 0)
		close(fd);
}

static void child_file_open(const char *state_dir)
{
	char path[PATH_MAX], err[512];

	snprintf(path, sizeof(path), "%s/child", state_dir);
	g_child_len = 0;
	g_child_fd = trust_open(path, O_RDWR | O_CREAT | O_TRUNC, 0644, err,
				sizeof(err));
	if (g_child_fd < 0)
		tb_warn("%s; a workload left by a killed run will not be found", err);
}

static void child_file_close(const char *state_dir)
{
	char path[PATH_MAX];

	if (g_child_fd < 0)
		return;
	close(g_child_fd);
	g_child_fd = -1;
	snprintf(path, sizeof(path), "%s/child", state_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/" HELPER_FILE, state_dir);
	unlink(path);
}

/* End the process group recorded in state_dir/name ("PGID STARTTIME"),
 * saying so as what; the record is deleted. */
static void end_recorded(const char *state_dir, const char *name,
			 const char *what, const struct settings_sink *say)
{
	char path[PATH_MAX], err[512], buf[64];
	unsigned long long start;
	ssize_t n;
	int fd, pgid, killed;

	snprintf(path, sizeof(path), "%s/%s", state_dir, name);
	fd = trust_open(path, O_RDONLY, 0, err, sizeof(err));
	if (fd < 0) {
		if (errno != ENOENT)
			settings_say(say, true, "%s", err);
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	if (sscanf(buf, "%d %llu", &pgid, &start) == 2 && pgid > 1) {
		killed = reap_group(pgid, start);
		if (killed)
			settings_say(say, true, "ended the %s left by the killed run (process group %d, %d process(es))",
				     what, pgid, killed);
	}
	unlink(path);
}

void settings_guard_end_recorded_child(const char *state_dir,
				       const struct settings_sink *say)
{
	end_recorded(state_dir, "child", "workload", say);
	end_recorded(state_dir, HELPER_FILE, "fragmenter", say);
}

void settings_guard_block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(g_signals); i++)
		sigaddset(&set, g_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void guard_atexit(void)
{
	if (g_at_exit && getpid() == g_owner)
		g_at_exit(g_at_exit_arg);
}

void settings_guard_arm(const struct snapshot *snap, const char *state_dir,
			void (*at_exit)(void *), void *arg)
{
	static bool atexit_done;
	struct sigaction sa;
	size_t i;

	g_snap = snap;
	g_state_dir = state_dir;
	g_at_exit = at_exit;
	g_at_exit_arg = arg;
	g_owner = getpid();
	g_child = 0;
	g_helper = 0;
	g_graceful_sent = 0;
	snprintf(g_journal, sizeof(g_journal), "%s/journal.json", state_dir);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	/* No second signal may interrupt a half-done restore. */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(g_signals); i++)
		sigaddset(&sa.sa_mask, g_signals[i]);
	g_armed = 1;
	for (i = 0; i < ARRAY_SIZE(g_signals); i++) {
		sigaction(g_signals[i], NULL, &g_old_act[i]);
		/* Ignored stays ignored: `nohup thpbench run` must survive SIGHUP. */
		if (g_old_act[i].sa_handler != SIG_IGN ||
		    (g_old_act[i].sa_flags & SA_SIGINFO))
			sigaction(g_signals[i], &sa, NULL);
	}
	if (!atexit_done && !atexit(guard_atexit))
		atexit_done = true;
	child_file_open(state_dir);
}

void settings_guard_disarm(const struct snapshot *snap, const char *state_dir)
{
	size_t i;

	if (g_snap == snap) {
		g_armed = 0;
		for (i = 0; i < ARRAY_SIZE(g_signals); i++)
			sigaction(g_signals[i], &g_old_act[i], NULL);
		g_snap = NULL;
		g_res = NULL;
		g_state_dir = NULL;
		g_at_exit = NULL;
		g_at_exit_arg = NULL;
		g_child = 0;
		g_helper = 0;
	}
	child_file_close(state_dir);
}
