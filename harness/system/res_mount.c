// SPDX-License-Identifier: GPL-2.0-only
/*
 * res_mount - a private mount for a case (resource.h, kind "mount"):
 * STATE/mnt-PID-SEQ, made 0700, with dev (a source: "tmpfs" or a loop
 * device of res_loop.c) mounted there nosuid,nodev; opt is
 * "FSTYPE" or "FSTYPE:OPTIONS" (tmpfs:huge=within_size,size=1G). The
 * mount point is journalled before it is made.
 *
 * Undo: umount (detached when busy) when mountinfo lists it, rmdir. A
 * journalled mount is ours only when its point is STATE/mnt-*.
 */
#include "resource.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int seq;

static int mount_make(struct res *r, const struct res_env *e,
		      int (*sync)(void *), void *arg, char *err, size_t errlen)
{
	char fs[RES_PATH], *data;

	snprintf(fs, sizeof(fs), "%s", r->opt);
	data = strchr(fs, ':');
	if (data)
		*data++ = '\0';
	snprintf(r->path, sizeof(r->path), "%s/mnt-%d-%d", e->state_dir,
		 (int)getpid(), ++seq);
	if (sync(arg)) {
		snprintf(err, errlen, "mount: cannot journal %s", r->path);
		return -1;
	}
	if (mkdir(r->path, 0700)) {
		snprintf(err, errlen, "mount: mkdir %s: %s", r->path,
			 strerror(errno));
		return -1;
	}
	if (mount(r->dev, r->path, fs, MS_NOSUID | MS_NODEV, data)) {
		snprintf(err, errlen, "mount: mount -t %s%s%s %s %s: %s%s", fs,
			 data ? " -o " : "", data ? data : "", r->dev, r->path,
			 strerror(errno),
			 errno == EINVAL ? " (an option this kernel does not know?)" : "");
		return -1;
	}
	return 0;
}

static int mount_undo(const struct res *r, const struct res_env *e)
{
	if (!res_under(r->path, e->state_dir, "mnt-"))
		return 0;
	if (res_is_mount(e, r->path) && umount2(r->path, UMOUNT_NOFOLLOW) &&
	    umount2(r->path, UMOUNT_NOFOLLOW | MNT_DETACH))
		return -1;
	if (rmdir(r->path) && errno != ENOENT)
		return -1;
	return 0;
}

static int mount_owned(const struct res *r, const struct res_env *e,
		       char *why, size_t len)
{
	if (res_under(r->path, e->state_dir, "mnt-"))
		return 1;
	snprintf(why, len, "mount point %s is not %s/mnt-*", r->path,
		 e->state_dir);
	return 0;
}

const struct res_kind res_kind_mount = {
	.name = "mount",
	.make = mount_make,
	.undo = mount_undo,
	.owned = mount_owned,
};
