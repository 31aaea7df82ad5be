// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory cgroup this process is charged to, from /proc/self/cgroup:
 * cgroup v2 (the "0::" line, memory.current in its directory) first, else
 * the v1 memory controller's hierarchy. The root cgroup is never taken:
 * its "reclaim" would be the whole machine's. Only files of the
 * process's own cgroup are read or written.
 */
#include "wl.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int exists(const char *dir, const char *file)
{
	char p[WL_MEMCG_PATH + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	return access(p, F_OK) == 0;
}

/* "/sys/fs/cgroup" or "/sys/fs/cgroup/unified" + rel, if it is a memcg. */
static int try_v2(struct wl_memcg *cg, const char *rel)
{
	static const char *const roots[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	size_t i;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		if (snprintf(cg->dir, sizeof(cg->dir), "%s%s", roots[i], rel) >=
		    (int)sizeof(cg->dir))
			return -1;
		if (exists(cg->dir, "cgroup.controllers") &&
		    exists(cg->dir, "memory.current")) {
			cg->v2 = 1;
			return 0;
		}
	}
	return -1;
}

static int try_v1(struct wl_memcg *cg, const char *rel)
{
	if (snprintf(cg->dir, sizeof(cg->dir), "/sys/fs/cgroup/memory%s", rel) >=
	    (int)sizeof(cg->dir))
		return -1;
	cg->v2 = 0;
	return exists(cg->dir, "memory.usage_in_bytes") ? 0 : -1;
}

/* Does the comma-separated controller list ctl name memory? */
static int has_memory(char *ctl)
{
	char *w, *save = NULL;

	for (w = strtok_r(ctl, ",", &save); w; w = strtok_r(NULL, ",", &save))
		if (!strcmp(w, "memory"))
			return 1;
	return 0;
}

int wl_memcg_self(struct wl_memcg *cg)
{
	char line[WL_MEMCG_PATH], v1[WL_MEMCG_PATH] = "", v2[WL_MEMCG_PATH] = "";
	char *ctl, *rel;
	FILE *f = fopen("/proc/self/cgroup", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		ctl = strchr(line, ':');
		rel = ctl ? strchr(ctl + 1, ':') : NULL;
		if (!rel)
			continue;
		*rel++ = '\0';
		ctl++;
		/* A path with ".." or not absolute is no cgroup of ours. */
		if (rel[0] != '/' || strstr(rel, "/..") || !strcmp(rel, "/"))
			continue;
		if (!*ctl)
			snprintf(v2, sizeof(v2), "%s", rel);
		else if (has_memory(ctl))
			snprintf(v1, sizeof(v1), "%s", rel);
	}
	fclose(f);
	if (*v2 && !try_v2(cg, v2))
		return 0;
	if (*v1 && !try_v1(cg, v1))
		return 0;
	return -1;
}

static long long read_ll(const struct wl_memcg *cg, const char *file)
{
	char p[WL_MEMCG_PATH + 64], buf[64], *end;
	long long v;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", cg->dir, file);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (end == buf || errno || v < 0)
		return -1;
	return v;
}

long long wl_memcg_usage(const struct wl_memcg *cg)
{
	return read_ll(cg, cg->v2 ? "memory.current" : "memory.usage_in_bytes");
}

long long wl_memcg_limit(const struct wl_memcg *cg)
{
	long long v = read_ll(cg, cg->v2 ? "memory.max" : "memory.limit_in_bytes");

	/* v2 "max" does not parse; v1's unlimited is a page-rounded LLONG_MAX. */
	if (v < 0 || v >= (1LL << 60))
		return -1;
	return v;
}

static int write_str(const struct wl_memcg *cg, const char *file, const char *s)
{
	char p[WL_MEMCG_PATH + 64];
	ssize_t n;
	int fd, err;

	snprintf(p, sizeof(p), "%s/%s", cg->dir, file);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	err = errno;
	close(fd);
	errno = err;
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

int wl_memcg_can_reclaim(const struct wl_memcg *cg, int force_empty)
{
	char p[WL_MEMCG_PATH + 64];

	snprintf(p, sizeof(p), "%s/%s", cg->dir,
		 cg->v2 ? "memory.reclaim" : "memory.force_empty");
	if (!cg->v2 && !force_empty)
		return 0;
	return access(p, W_OK) == 0;
}

int wl_memcg_reclaim(const struct wl_memcg *cg, uint64_t bytes, int force_empty)
{
	char buf[64];

	if (!cg->v2) {
		if (!force_empty) {
			errno = EOPNOTSUPP;
			return -1;
		}
		return write_str(cg, "memory.force_empty", "0");
	}
	/* Anonymous memory stays: swappiness=0 (6.13+), else plain. */
	snprintf(buf, sizeof(buf), "%llu swappiness=0", (unsigned long long)bytes);
	if (!write_str(cg, "memory.reclaim", buf) || errno == EAGAIN)
		return 0;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bytes);
	if (!write_str(cg, "memory.reclaim", buf) || errno == EAGAIN)
		return 0;
	return -1;
}

long long wl_memory_stat_key(const char *dir, const char *key)
{
	char p[WL_MEMCG_PATH + 64], name[64];
	long long v, found = -1;
	FILE *f;

	if ((size_t)snprintf(p, sizeof(p), "%s/memory.stat", dir) >= sizeof(p))
		return -1;
	f = fopen(p, "re");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &v) == 2)
		if (!strcmp(name, key)) {
			found = v;
			break;
		}
	fclose(f);
	return found;
}

long long wl_memcg_kernel(const struct wl_memcg *cg)
{
	/* v1 counts it apart; v2 has it in memory.stat. */
	if (!cg->v2)
		return read_ll(cg, "memory.kmem.usage_in_bytes");
	return wl_memory_stat_key(cg->dir, "kernel");
}

int wl_memcg_write(const struct wl_memcg *cg, const char *file, const char *s)
{
	return write_str(cg, file, s);
}

/*
 * One descriptor kept open for the process's life: each open of a cgroup
 * file allocates a seq_file buffer charged as kernel memory, and its free
 * at close refills the per-CPU charge stock (obj_cgroup_uncharge_pages ->
 * refill_stock), which a large folio's charge would then come out of.
 */
long long wl_memcg_usage_held(const struct wl_memcg *cg)
{
	static int fd = -1;
	char p[WL_MEMCG_PATH + 64], buf[64];
	long long u = -1;
	ssize_t n;

	if (fd < 0) {
		snprintf(p, sizeof(p), "%s/%s", cg->dir,
			 cg->v2 ? "memory.current" : "memory.usage_in_bytes");
		fd = open(p, O_RDONLY | O_CLOEXEC);
	}
	n = fd < 0 ? -1 : pread(fd, buf, sizeof(buf) - 1, 0);
	if (n > 0) {
		buf[n] = '\0';
		u = strtoll(buf, NULL, 10);
	}
	return u > 0 ? u : -1;
}

void wl_pin_here(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		wl_warn("cannot pin to CPU %d: %s", cpu, strerror(errno));
}
