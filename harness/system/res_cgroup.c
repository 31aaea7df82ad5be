// SPDX-License-Identifier: GPL-2.0-only
/*
 * res_cgroup - a cgroup v2 memcg for a case (resource.h, kind "cgroup"):
 * CGROUP_ROOT/thpbench-PID-SEQ with memory.max = opt. Needs the memory
 * controller in the root's cgroup.subtree_control (on a host that keeps
 * it on cgroup v1 the case is not measurable). The workload is moved in
 * by the runner before it execs.
 *
 * Undo: every task in it moved to the root cgroup, rmdir. A journalled
 * cgroup is ours only when it is CGROUP_ROOT/thpbench-*.
 */
#include "resource.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int seq;

static bool has_memory(const struct res_env *e)
{
	char p[RES_PATH + 32], buf[512], *w;

	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", e->cgroup_root);
	if (res_read_str(p, buf, sizeof(buf)))
		return false;
	for (w = strtok(buf, " "); w; w = strtok(NULL, " "))
		if (!strcmp(w, "memory"))
			return true;
	return false;
}

static int cgroup_make(struct res *r, const struct res_env *e,
		       int (*sync)(void *), void *arg, char *err, size_t errlen)
{
	char p[RES_PATH + 32];

	if (!*e->cgroup_root || !has_memory(e)) {
		snprintf(err, errlen, "memcg: %s", !*e->cgroup_root ?
			 "no cgroup v2 hierarchy at /sys/fs/cgroup" :
			 "the memory controller is not in the cgroup v2 root's cgroup.subtree_control (cgroup v1 holds it here?)");
		return -1;
	}
	snprintf(r->path, sizeof(r->path), "%s/thpbench-%d-%d",
		 e->cgroup_root, (int)getpid(), ++seq);
	if (sync(arg)) {
		snprintf(err, errlen, "memcg: cannot journal %s", r->path);
		return -1;
	}
	if (mkdir(r->path, 0755)) {
		snprintf(err, errlen, "memcg: mkdir %s: %s", r->path,
			 strerror(errno));
		return -1;
	}
	snprintf(p, sizeof(p), "%s/memory.max", r->path);
	if (res_write_str(p, r->opt)) {
		snprintf(err, errlen, "memcg: cannot write %s to %s: %s",
			 r->opt, p, strerror(errno));
		return -1;
	}
	return 0;
}

/* Move every task out to the root; system calls only. */
static void move_out(const struct res *r, const struct res_env *e)
{
	char p[RES_PATH + 32], to[RES_PATH + 32], buf[4096], *s, *nl;
	ssize_t n;
	int fd, pass;

	snprintf(p, sizeof(p), "%s/cgroup.procs", r->path);
	snprintf(to, sizeof(to), "%s/cgroup.procs", e->cgroup_root);
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
			res_write_str(to, s);
		}
	}
}

static int cgroup_undo(const struct res *r, const struct res_env *e)
{
	int i;

	if (!*e->cgroup_root || !res_under(r->path, e->cgroup_root, "thpbench-"))
		return 0;
	move_out(r, e);
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
	if (*e->cgroup_root && res_under(r->path, e->cgroup_root, "thpbench-"))
		return 1;
	snprintf(why, len, "%s is not %s/thpbench-*", r->path,
		 *e->cgroup_root ? e->cgroup_root : "(no cgroup v2 root)");
	return 0;
}

const struct res_kind res_kind_cgroup = {
	.name = "cgroup",
	.make = cgroup_make,
	.undo = cgroup_undo,
	.owned = cgroup_owned,
};
