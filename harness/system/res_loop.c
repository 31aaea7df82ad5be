// SPDX-License-Identifier: GPL-2.0-only
/*
 * res_loop - a filesystem image on a loop device (resource.h, kind
 * "loop"): STATE/img-PID-SEQ, sparse, of r->size bytes, made by mkfs.xfs
 * or mkfs.ext4 (opt: "xfs" or "ext4"), bound to a free /dev/loopN. The
 * image is journalled before it is created, the device number before it
 * is bound.
 *
 * Undo: unbind the device when its backing file is our image, delete the
 * image. A journalled entry is ours only when the image is STATE/img-*
 * and the device, if bound, is backed by it.
 */
#include "resource.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int seq;

static int mkfs(const char *fs, const char *path, char *err, size_t errlen)
{
	char *xfs[] = { "mkfs.xfs", "-q", "-f", (char *)path, NULL };
	char *ext4[] = { "mkfs.ext4", "-q", "-F", (char *)path, NULL };
	int rc = res_run(!strcmp(fs, "xfs") ? xfs : ext4);

	if (rc) {
		snprintf(err, errlen, "loop: mkfs.%s %s failed (%s); install %s",
			 fs, path, rc == 127 ? "not found" : "see above",
			 !strcmp(fs, "xfs") ? "xfsprogs" : "e2fsprogs");
		return -1;
	}
	return 0;
}

static int make_image(struct res *r, char *err, size_t errlen)
{
	int fd = open(r->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0 || ftruncate(fd, r->size)) {
		snprintf(err, errlen, "loop: cannot make %s: %s", r->path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return mkfs(r->opt, r->path, err, errlen);
}

/* Bind the image to a free device, journalling its number first. */
static int bind(struct res *r, const struct res_env *e, int (*sync)(void *),
		void *arg, char *err, size_t errlen)
{
	char ctl[RES_PATH + 16];
	struct loop_config cfg;
	int cfd, dfd, img, tries, rc = -1;

	snprintf(ctl, sizeof(ctl), "%s/loop-control", e->dev_root);
	cfd = open(ctl, O_RDWR | O_CLOEXEC);
	img = open(r->path, O_RDWR | O_CLOEXEC);
	for (tries = 0; cfd >= 0 && img >= 0 && tries < 8; tries++) {
		r->num = ioctl(cfd, LOOP_CTL_GET_FREE);
		if (r->num < 0)
			break;
		snprintf(r->dev, sizeof(r->dev), "%s/loop%d", e->dev_root, r->num);
		if (sync(arg))
			break;
		dfd = open(r->dev, O_RDWR | O_CLOEXEC);
		if (dfd < 0)
			break;
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned int)img;
		rc = ioctl(dfd, LOOP_CONFIGURE, &cfg);
		if (rc && errno == EINVAL)
			rc = ioctl(dfd, LOOP_SET_FD, img);
		close(dfd);
		if (!rc || errno != EBUSY)
			break;	/* EBUSY: another took it first; next one */
	}
	if (rc)
		snprintf(err, errlen, "loop: cannot bind %s to a loop device (%s): %s",
			 r->path, cfd < 0 ? ctl : r->dev, strerror(errno));
	if (cfd >= 0)
		close(cfd);
	if (img >= 0)
		close(img);
	return rc;
}

static int loop_make(struct res *r, const struct res_env *e,
		     int (*sync)(void *), void *arg, char *err, size_t errlen)
{
	if (strcmp(r->opt, "xfs") && strcmp(r->opt, "ext4")) {
		snprintf(err, errlen, "loop: filesystem \"%s\" is not xfs or ext4", r->opt);
		return -1;
	}
	snprintf(r->path, sizeof(r->path), "%s/img-%d-%d", e->state_dir,
		 (int)getpid(), ++seq);
	r->num = -1;
	if (sync(arg)) {
		snprintf(err, errlen, "loop: cannot journal %s", r->path);
		return -1;
	}
	if (make_image(r, err, errlen))
		return -1;
	return bind(r, e, sync, arg, err, errlen);
}

/* 1 when loopN is bound to our image, 0 unbound or another's. */
static int backed_by_ours(const struct res *r, const struct res_env *e)
{
	char p[RES_PATH * 2], back[RES_PATH];

	snprintf(p, sizeof(p), "%s/block/loop%d/loop/backing_file",
		 e->sys_root, r->num);
	if (read_file_str(p, back, sizeof(back)))
		return 0;
	return !strcmp(back, r->path);
}

static int loop_undo(const struct res *r, const struct res_env *e)
{
	int fd, i;

	if (r->num >= 0 && backed_by_ours(r, e)) {
		fd = open(r->dev, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			for (i = 0; i < 50 && ioctl(fd, LOOP_CLR_FD, 0) &&
			     errno == EBUSY; i++)
				res_nap();
			close(fd);
		}
		/* Cleared lazily once the last opener goes: wait for it. */
		for (i = 0; i < 50 && backed_by_ours(r, e); i++)
			res_nap();
		if (backed_by_ours(r, e))
			return -1;
	}
	if (res_under(r->path, e->state_dir, "img-") && unlink(r->path) &&
	    errno != ENOENT)
		return -1;
	return 0;
}

static int loop_owned(const struct res *r, const struct res_env *e,
		      char *why, size_t len)
{
	char dev[RES_PATH + 16], p[RES_PATH * 2], back[RES_PATH];

	if (!res_under(r->path, e->state_dir, "img-")) {
		snprintf(why, len, "image %s is not %s/img-*", r->path,
			 e->state_dir);
		return 0;
	}
	if (r->num < 0)
		return 1;
	snprintf(dev, sizeof(dev), "%s/loop%d", e->dev_root, r->num);
	if (strcmp(dev, r->dev)) {
		snprintf(why, len, "%s is not %s", r->dev, dev);
		return 0;
	}
	snprintf(p, sizeof(p), "%s/block/loop%d/loop/backing_file",
		 e->sys_root, r->num);
	if (!read_file_str(p, back, sizeof(back)) && strcmp(back, r->path)) {
		snprintf(why, len, "%s is backed by %s, not our %s", r->dev,
			 back, r->path);
		return 0;
	}
	return 1;
}

const struct res_kind res_kind_loop = {
	.name = "loop",
	.make = loop_make,
	.undo = loop_undo,
	.owned = loop_owned,
};
