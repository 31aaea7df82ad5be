// SPDX-License-Identifier: GPL-2.0-only
#include "reap.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

#define MAX_ROUNDS 200		/* x 10 ms: give up after 2 s */

struct pstat {
	pid_t pid, ppid, pgrp;
	char state;
	unsigned long long start;
};

void reap_enable(void)
{
	static bool done;

	if (!done)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	done = true;
}

/* Fields after "(comm)": the name may hold spaces and parentheses. */
static int read_pstat(pid_t pid, struct pstat *ps)
{
	char path[64], buf[1024], *p;
	unsigned long long start;
	int ppid, pgrp, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_file_str(path, buf, sizeof(buf)))
		return -1;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %d %d", &ps->state, &ppid, &pgrp) != 3)
		return -1;
	/*
	 * Field 22 is starttime. p is at the ")" that ends field 2; each
	 * step moves it to the space before the next field: 20 steps.
	 */
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", &start) != 1)
		return -1;
	ps->pid = pid;
	ps->ppid = ppid;
	ps->pgrp = pgrp;
	ps->start = start;
	return 0;
}

unsigned long long proc_start_time(pid_t pid)
{
	struct pstat ps;

	return read_pstat(pid, &ps) ? 0 : ps.start;
}

unsigned long long boot_ticks(void)
{
	static unsigned long long ns_per_tick;
	struct timespec ts;
	long hz;

	if (!ns_per_tick) {
		hz = sysconf(_SC_CLK_TCK);
		/* USER_HZ divides a second on every architecture Linux has. */
		if (hz <= 0 || 1000000000L % hz)
			return 0;
		ns_per_tick = 1000000000ULL / (unsigned long long)hz;
	}
	if (clock_gettime(CLOCK_BOOTTIME, &ts))
		return 0;
	return ((unsigned long long)ts.tv_sec * 1000000000ULL +
		(unsigned long long)ts.tv_nsec) / ns_per_tick;
}

typedef bool (*match_fn)(const struct pstat *ps, pid_t pgid);

/* Signal every live process that matches; how many there were. */
static int kill_matching(match_fn match, pid_t pgid, pid_t *seen,
			 size_t *nseen, size_t maxseen)
{
	struct dirent *e;
	struct pstat ps;
	DIR *d = opendir("/proc");
	int n = 0;
	size_t i;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		long pid;

		if (parse_long(e->d_name, &pid) || pid <= 1 || pid == getpid() ||
		    read_pstat((pid_t)pid, &ps) || ps.state == 'Z' ||
		    !match(&ps, pgid))
			continue;
		kill((pid_t)pid, SIGKILL);
		n++;
		for (i = 0; i < *nseen && seen[i] != ps.pid; i++)
			;
		if (i == *nseen && *nseen < maxseen)
			seen[(*nseen)++] = ps.pid;
	}
	closedir(d);
	return n;
}

static pid_t spared;

void reap_spare(pid_t pid)
{
	spared = pid;
}

pid_t reap_spared(void)
{
	return spared;
}

static volatile pid_t kept[REAP_KEEP_MAX];

void reap_keep(pid_t pid)
{
	size_t i;

	for (i = 0; i < REAP_KEEP_MAX; i++)
		if (!kept[i]) {
			kept[i] = pid;
			return;
		}
}

void reap_unkeep(pid_t pid)
{
	size_t i;

	for (i = 0; i < REAP_KEEP_MAX; i++)
		if (kept[i] == pid)
			kept[i] = 0;
}

static bool is_kept(pid_t pid)
{
	size_t i;

	for (i = 0; i < REAP_KEEP_MAX; i++)
		if (pid && kept[i] == pid)
			return true;
	return false;
}

int proc_alive(pid_t pid, unsigned long long start)
{
	struct pstat ps;

	return pid > 1 && !read_pstat(pid, &ps) && ps.state != 'Z' &&
	       ps.start == start;
}

/* Our zombies; the spared child too when it died (it is then forgotten,
 * so that nobody signals its pid, which may be reused). */
static void reap_zombies(void)
{
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		if (pid == spared)
			spared = 0;
		else
			reap_unkeep(pid);
}

static bool ours_or_in_group(const struct pstat *ps, pid_t pgid)
{
	return ps->pid != spared && !is_kept(ps->pid) &&
	       (ps->pgrp == pgid || ps->ppid == getpid());
}

static void pause_10ms(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/*
 * The walk of /proc below costs a few hundred system calls; most
 * repetitions leave nothing to find. Every live descendant of a
 * repetition is in its group or, its parent having died, re-parented to
 * us (subreaper), so when the group has no member, zombie or not
 * (kill(-pgid, 0): ESRCH), and we have no child at all (waitid: ECHILD)
 * the walk would find nothing. The spared child is a child: with one,
 * walk.
 */
static bool nothing_left(pid_t pgid)
{
	siginfo_t si;

	if (spared || kill(-pgid, 0) == 0 || errno != ESRCH)
		return false;
	memset(&si, 0, sizeof(si));
	return waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 &&
	       errno == ECHILD;
}

int reap_leftovers(pid_t pgid)
{
	pid_t seen[1024];
	size_t nseen = 0;
	int round, live;

	if (pgid <= 1 || nothing_left(pgid))
		return 0;
	for (round = 0; round < MAX_ROUNDS; round++) {
		live = kill_matching(ours_or_in_group, pgid, seen, &nseen,
				     ARRAY_SIZE(seen));
		reap_zombies();
		if (!live)
			break;
		pause_10ms();
	}
	if (round == MAX_ROUNDS)
		tb_warn("processes left by the workload would not die (uninterruptible sleep?)");
	return (int)nseen;
}

static bool in_group(const struct pstat *ps, pid_t pgid)
{
	return ps->pgrp == pgid;
}

/*
 * A pid is not reused while a process group of that id has members, so
 * members of group pgid without a process pgid are the recorded group.
 * A live process pgid is its leader only if it started when recorded.
 */
static bool same_group(pid_t pgid, unsigned long long start)
{
	unsigned long long now = proc_start_time(pgid);

	return !now || (start && now == start);
}

int reap_group(pid_t pgid, unsigned long long start)
{
	pid_t seen[1024];
	size_t nseen = 0;
	int round;

	if (pgid <= 1 || pgid == getpgrp() || !same_group(pgid, start))
		return 0;
	for (round = 0; round < MAX_ROUNDS; round++) {
		if (!kill_matching(in_group, pgid, seen, &nseen,
				   ARRAY_SIZE(seen)))
			break;
		reap_zombies();
		pause_10ms();
	}
	return (int)nseen;
}
