// SPDX-License-Identifier: GPL-2.0-only
/*
 * res_cgroup - a memcg for a case (resource.h, kind "cgroup"), on the
 * hierarchy that holds the memory controller:
 *   cgroup v2: CGROUP_ROOT/thpbench-PID-SEQ with memory.max = opt, when
 *     the memory controller is in the root's cgroup.subtree_control;
 *   cgroup v1: MEMCG_V1_ROOT/thpbench-PID-SEQ with memory.limit_in_bytes
 *     = opt ("max": -1), when v2 lacks it and a v1 hierarchy mounted with
 *     the memory controller is in /proc/self/mountinfo (hybrid hosts).
 * The version is journalled in num (2 or 1; an entry without it is v2,
 * as journals written before v1 was supported are), so recovery undoes
 * it on the hierarchy it was made on. The workload is moved in by the
 * runner (cgroup.procs, on both) before it execs.
 *
 * Undo: what the workload made under it (kbuild's sub-cgroup per
 * repetition: workloads/lib/subcg.c) goes first, deepest first; every
 * task left in it or below it is killed (v2: cgroup.kill; v1: SIGKILL
 * of each task in cgroup.procs, until none is left: a make orphaned by a
 * kill -9 of the workload keeps forking compilers), then rmdir. On a
 * tree that is no cgroup file system (the unit tests' fake roots) tasks
 * are moved to the root instead, never killed. A journalled cgroup is
 * ours only when it is ROOT/thpbench-* of the root its version names.
 */
#include "resource.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0ebUL
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270UL
#endif
/* Sub-cgroups below ours undone; deeper ones are not ours to walk. */
#define SUB_DEPTH 4

static int seq;

static bool has_memory(const struct res_env *e)
{
	char p[RES_PATH + 32], buf[512], *w, *save = NULL;

	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", e->cgroup_root);
	if (read_file_str(p, buf, sizeof(buf)))
		return false;
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (!strcmp(w, "memory"))
			return true;
	return false;
}

/* The root a journalled entry's version names; "" when none here. */
static const char *root_of(const struct res *r, const struct res_env *e)
{
	return r->num == 1 ? e->memcg_v1_root : e->cgroup_root;
}

/* Which hierarchy to make it on: 2, 1, or 0 with err set. */
static int pick_version(const struct res_env *e, char *err, size_t errlen)
{
	if (*e->cgroup_root && has_memory(e))
		return 2;
	if (*e->memcg_v1_root)
		return 1;
	snprintf(err, errlen, "memcg: %s", !*e->cgroup_root ?
		 "no cgroup v2 hierarchy at /sys/fs/cgroup and no cgroup v1 memory hierarchy in /proc/self/mountinfo" :
		 "the memory controller is neither in the cgroup v2 root's cgroup.subtree_control nor mounted as a cgroup v1 hierarchy (/proc/self/mountinfo)");
	return 0;
}

static int cgroup_make(struct res *r, const struct res_env *e,
		       int (*sync)(void *), void *arg, char *err, size_t errlen)
{
	char p[RES_PATH + 32];
	const char *limit = r->opt;

	r->num = pick_version(e, err, errlen);
	if (!r->num)
		return -1;
	snprintf(r->path, sizeof(r->path), "%s/thpbench-%d-%d",
		 root_of(r, e), (int)getpid(), ++seq);
	if (sync(arg)) {
		snprintf(err, errlen, "memcg: cannot journal %s", r->path);
		return -1;
	}
	if (mkdir(r->path, 0755)) {
		snprintf(err, errlen, "memcg: mkdir %s: %s", r->path,
			 strerror(errno));
		return -1;
	}
	snprintf(p, sizeof(p), "%s/%s", r->path,
		 r->num == 2 ? "memory.max" : "memory.limit_in_bytes");
	if (r->num == 1 && !strcmp(limit, "max"))
		limit = "-1";	/* v1's unlimited */
	if (write_file_str(p, limit)) {
		snprintf(err, errlen, "memcg: cannot write %s to %s: %s",
			 limit, p, strerror(errno));
		return -1;
	}
	return 0;
}

/* Is dir on a cgroup file system (v1 or v2)? statfs only. */
static bool on_cgroupfs(const char *dir)
{
	struct statfs sf;

	if (statfs(dir, &sf))
		return false;
	return (unsigned long)sf.f_type == CGROUP_SUPER_MAGIC ||
	       (unsigned long)sf.f_type == CGROUP2_SUPER_MAGIC;
}

/*
 * Each task in dir/cgroup.procs killed (kill) or moved to root (!kill).
 * How many were listed; system calls only. Never this process.
 */
static int sweep(const char *dir, const char *root, bool kill_them)
{
	char p[RES_PATH + 32], to[RES_PATH + 32], buf[4096], *s, *nl, *end;
	int fd, found = 0;
	long pid;
	ssize_t n;

	snprintf(p, sizeof(p), "%s/cgroup.procs", dir);
	snprintf(to, sizeof(to), "%s/cgroup.procs", root);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (s = buf; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			break;
		*nl = '\0';
		pid = strtol(s, &end, 10);
		if (end == s || *end || pid <= 1 || pid == (long)getpid())
			continue;
		found++;
		if (kill_them)
			kill((pid_t)pid, SIGKILL);
		else
			write_file_str(to, s);
	}
	return found;
}

/* v2: every task of dir and below killed at once (5.14+). */
static bool v2_kill(const struct res *r, const char *dir)
{
	char p[RES_PATH + 32];

	snprintf(p, sizeof(p), "%s/cgroup.kill", dir);
	return r->num != 1 && !write_file_str(p, "1");
}

/* Is any task listed in dir/cgroup.procs? */
static bool has_tasks(const char *dir)
{
	char p[RES_PATH + 32], c[16];

	snprintf(p, sizeof(p), "%s/cgroup.procs", dir);
	return !read_file_str(p, c, sizeof(c)) && *c;
}

/* No task left in dir, waiting a second at most for killed ones to exit
 * (a make forks compilers until it is killed itself: swept again). */
static void empty_out(const struct res *r, const char *dir, const char *root)
{
	bool cgfs = on_cgroupfs(dir), killed = cgfs && v2_kill(r, dir);
	int pass;

	for (pass = 0; pass < 50; pass++) {
		if (killed ? !has_tasks(dir) : !sweep(dir, root, cgfs))
			return;
		res_nap();
	}
}

/* rmdir, waiting out EBUSY (the last task's exit completing). */
static int rmdir_wait(const char *dir)
{
	int i;

	for (i = 0; i < 50; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -1;
		res_nap();
	}
	return -1;
}

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Sub-cgroups of dir (directories, d_type) undone, deepest first, then
 * dir's tasks, then dir. getdents64, not readdir: system calls only.
 */
static int undo_tree(const struct res *r, const char *dir, const char *root,
		     int depth)
{
	char buf[2048], sub[RES_PATH + 64];
	struct linux_dirent64 *d;
	int fd, rc = 0;
	long n, off;

	fd = depth < SUB_DEPTH ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	while (fd >= 0 && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; off += d->d_reclen) {
			d = (struct linux_dirent64 *)(buf + off);
			if (d->d_type != DT_DIR || d->d_name[0] == '.')
				continue;
			if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir,
					     d->d_name) >= RES_PATH)
				continue;
			if (undo_tree(r, sub, root, depth + 1))
				rc = -1;
		}
	}
	if (fd >= 0)
		close(fd);
	empty_out(r, dir, root);
	return rmdir_wait(dir) ? -1 : rc;
}

static bool ours(const struct res *r, const struct res_env *e)
{
	const char *root = root_of(r, e);

	return (r->num == 1 || r->num == 2 || r->num == -1) && *root &&
	       res_under(r->path, root, "thpbench-");
}

static int cgroup_undo(const struct res *r, const struct res_env *e)
{
	if (!ours(r, e))
		return 0;
	return undo_tree(r, r->path, root_of(r, e), 0);
}

static int cgroup_owned(const struct res *r, const struct res_env *e,
			char *why, size_t len)
{
	const char *root = root_of(r, e);

	if (ours(r, e))
		return 1;
	if (r->num != 1 && r->num != 2 && r->num != -1) {
		snprintf(why, len, "%s: num %d is no cgroup version (1, 2)",
			 r->path, r->num);
		return 0;
	}
	snprintf(why, len, "%s is not %s/thpbench-* (cgroup v%d)", r->path,
		 *root ? root : r->num == 1 ? "(no cgroup v1 memory root)" :
		 "(no cgroup v2 root)", r->num == 1 ? 1 : 2);
	return 0;
}

const struct res_kind res_kind_cgroup = {
	.name = "cgroup",
	.make = cgroup_make,
	.undo = cgroup_undo,
	.owned = cgroup_owned,
};
