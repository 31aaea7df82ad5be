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
 * Undo: every task in it moved to its hierarchy's root, rmdir. A
 * journalled cgroup is ours only when it is ROOT/thpbench-* of the root
 * its version names.
 */
#include "resource.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Move every task out to the root; system calls only. */
static void move_out(const struct res *r, const char *root)
{
	char p[RES_PATH + 32], to[RES_PATH + 32], buf[4096], *s, *nl;
	ssize_t n;
	int fd, pass;

	snprintf(p, sizeof(p), "%s/cgroup.procs", r->path);
	snprintf(to, sizeof(to), "%s/cgroup.procs", root);
	for (pass = 0; pass < 8; pass++) {
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			return;
		buf[n] = '\0';
		for (s = buf; *s; s = nl + 1) {
			nl = strchr(s, '\n');
			if (!nl)
				break;
			*nl = '\0';
			write_file_str(to, s);
		}
	}
}

static bool ours(const struct res *r, const struct res_env *e)
{
	const char *root = root_of(r, e);

	return (r->num == 1 || r->num == 2 || r->num == -1) && *root &&
	       res_under(r->path, root, "thpbench-");
}

static int cgroup_undo(const struct res *r, const struct res_env *e)
{
	int i;

	if (!ours(r, e))
		return 0;
	move_out(r, root_of(r, e));
	/* EBUSY until the last moved task's exit is complete. */
	for (i = 0; i < 50; i++) {
		if (!rmdir(r->path) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -1;
		res_nap();
	}
	return -1;
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
