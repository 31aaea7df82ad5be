// SPDX-License-Identifier: GPL-2.0-only
/*
 * A memory cgroup per repetition below a parent memcg the caller names
 * (the harness's THPBENCH_CGROUP, a thpbench-* memcg, or --cgroup), so a
 * program's children (a kernel build's compilers) are counted apart from
 * everything else: memory.stat, memory.peak (v1 max_usage_in_bytes).
 *
 * cgroup v2 lets a cgroup with tasks have no memory children ("no
 * internal processes"), and the caller is in the parent: it moves itself
 * to PARENT/self-PID first, then enables +memory in the parent's
 * cgroup.subtree_control; wl_subcg_close() puts both back. v1 has no
 * such rule. Each child is PARENT/TAG-PID-N; wl_subcg_remove() kills
 * what is left in it (v2 cgroup.kill, v1 SIGKILL of each task) and
 * removes it. Whatever a kill -9 leaves below a thpbench-* parent, the
 * harness's undo removes (system/res_cgroup.c).
 */
#include "wl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int path_of(char *p, size_t len, const char *dir, const char *file)
{
	return snprintf(p, len, "%s/%s", dir, file) >= (int)len ? -1 : 0;
}

static int has(const char *dir, const char *file)
{
	char p[WL_MEMCG_PATH + 64];

	return !path_of(p, sizeof(p), dir, file) && access(p, F_OK) == 0;
}

static int put(const char *dir, const char *file, const char *s)
{
	char p[WL_MEMCG_PATH + 64];
	ssize_t n;
	int fd, err;

	if (path_of(p, sizeof(p), dir, file))
		return -1;
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	err = errno;
	close(fd);
	errno = err;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

int wl_subcg_open(struct wl_subcg *s, const char *parent)
{
	memset(s, 0, sizeof(*s));
	if (!parent || !*parent || parent[0] != '/' || strstr(parent, "/..") ||
	    snprintf(s->parent, sizeof(s->parent), "%s", parent) >=
		    (int)sizeof(s->parent)) {
		errno = EINVAL;
		return -1;
	}
	if (has(parent, "memory.usage_in_bytes"))
		return 0;	/* v1 */
	if (!has(parent, "cgroup.controllers") || !has(parent, "memory.current")) {
		errno = ENOENT;
		return -1;
	}
	s->v2 = 1;
	snprintf(s->self, sizeof(s->self), "%.*s/self-%d",
		 (int)(sizeof(s->self) - 20), parent, (int)getpid());
	if (mkdir(s->self, 0755) && errno != EEXIST)
		return -1;
	if (put(s->self, "cgroup.procs", "0"))
		return -1;
	if (put(parent, "cgroup.subtree_control", "+memory"))
		return -1;
	s->enabled = 1;
	return 0;
}

int wl_subcg_make(struct wl_subcg *s, const char *tag)
{
	if (snprintf(s->dir, sizeof(s->dir), "%s/%s-%d-%u", s->parent, tag,
		     (int)getpid(), ++s->seq) >= (int)sizeof(s->dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (mkdir(s->dir, 0755)) {
		s->dir[0] = '\0';
		return -1;
	}
	return 0;
}

int wl_subcg_enter(const struct wl_subcg *s)
{
	return put(s->dir, "cgroup.procs", "0");
}

long long wl_subcg_stat(const struct wl_subcg *s, const char *key)
{
	return wl_memory_stat_key(s->dir, key);
}

long long wl_subcg_peak(const struct wl_subcg *s)
{
	char p[WL_MEMCG_PATH + 64], buf[64], *end;
	long long v;
	FILE *f;

	if (path_of(p, sizeof(p), s->dir,
		    s->v2 ? "memory.peak" : "memory.max_usage_in_bytes"))
		return -1;
	f = fopen(p, "re");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	errno = 0;
	v = strtoll(buf, &end, 10);
	return end == buf || errno || v < 0 ? -1 : v;
}

static void nap(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Kill each task listed in dir (v1); how many were. */
static int kill_listed(const char *dir)
{
	char p[WL_MEMCG_PATH + 64], line[32], *end;
	long pid;
	int n = 0;
	FILE *f;

	if (path_of(p, sizeof(p), dir, "cgroup.procs"))
		return 0;
	f = fopen(p, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		pid = strtol(line, &end, 10);
		if (end == line || pid <= 1 || pid == (long)getpid())
			continue;
		kill((pid_t)pid, SIGKILL);
		n++;
	}
	fclose(f);
	return n;
}

int wl_subcg_remove(struct wl_subcg *s)
{
	int i;

	if (!s->dir[0])
		return 0;
	if (s->v2)
		put(s->dir, "cgroup.kill", "1");
	for (i = 0; i < 100; i++) {
		if (!rmdir(s->dir) || errno == ENOENT) {
			s->dir[0] = '\0';
			return 0;
		}
		if (errno != EBUSY)
			return -1;
		if (!s->v2)
			kill_listed(s->dir);
		nap();
	}
	return -1;
}

void wl_subcg_close(struct wl_subcg *s)
{
	wl_subcg_remove(s);
	if (!s->v2 || !s->self[0])
		return;
	if (s->enabled)
		put(s->parent, "cgroup.subtree_control", "-memory");
	put(s->parent, "cgroup.procs", "0");
	rmdir(s->self);
	s->self[0] = '\0';
}
