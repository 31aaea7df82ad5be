// SPDX-License-Identifier: GPL-2.0-only
/*
 * res_swap - a zram swap device for a case (resource.h, kind "zram").
 *
 * zram0 when it is there unused (disksize 0, not swap), else one
 * hot-added through /sys/class/zram-control/hot_add (the number is
 * journalled before its disksize is set). Optional compressor (opt) into
 * comp_algorithm, then disksize, a swap header written by us (no mkswap)
 * and swapon at the highest priority, so the case swaps to it before any
 * swap the host has (which is left alone).
 *
 * Undo: swapoff when /proc/swaps lists our /dev/zramN, reset when its
 * disksize is ours, hot_remove when we hot-added it. A journalled device
 * is ours only on the boot that made it (boot_id) and while its disksize
 * is the one we set, or 0.
 */
#include "resource.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

#define SWAP_PRIO 32767

static void zpath(const struct res_env *e, int num, const char *file,
		  char *buf, size_t len)
{
	snprintf(buf, len, "%s/block/zram%d/%s", e->sys_root, num, file);
}

static int read_ll(const char *path, long long *v)
{
	char buf[64], *end;

	if (read_file_str(path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || end == buf || *end ? -1 : 0;
}

/* zram0 unused, else a hot-added one. The number, or -1 with err. */
static int pick_device(struct res *r, const struct res_env *e, char *err,
		       size_t errlen)
{
	char path[RES_PATH * 2], dev[RES_PATH + 16], buf[32];
	long long size;
	long n;

	zpath(e, 0, "disksize", path, sizeof(path));
	snprintf(dev, sizeof(dev), "%s/zram0", e->dev_root);
	if (!read_ll(path, &size) && !size && !res_in_swaps(e, dev))
		return 0;
	snprintf(path, sizeof(path), "%s/class/zram-control/hot_add", e->sys_root);
	if (read_file_str(path, buf, sizeof(buf)) || parse_long(buf, &n) ||
	    n < 0 || n > 1 << 20) {
		snprintf(err, errlen, "zram: no unused zram0 and cannot hot-add one through %s: %s (a kernel without CONFIG_ZRAM?)",
			 path, errno ? strerror(errno) : "bad number");
		return -1;
	}
	r->added = true;
	return (int)n;
}

/* The swap header mkswap writes: version 1, no bad pages. */
static int write_swap_header(const char *dev, long long size, char *err,
			     size_t errlen)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *h = xcalloc(1, (size_t)pg);
	uint32_t v[3] = { 1, (uint32_t)(size / pg - 1), 0 };
	int fd, rc = -1;

	memcpy(h + 1024, v, sizeof(v));
	memcpy(h + pg - 10, "SWAPSPACE2", 10);
	fd = open(dev, O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && pwrite(fd, h, (size_t)pg, 0) == pg && !fsync(fd))
		rc = 0;
	if (rc)
		snprintf(err, errlen, "zram: cannot write a swap header to %s: %s",
			 dev, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(h);
	return rc;
}

static int zram_make(struct res *r, const struct res_env *e,
		     int (*sync)(void *), void *arg, char *err, size_t errlen)
{
	char path[RES_PATH * 2], num[32];

	if (r->size < 16L << 20) {
		snprintf(err, errlen, "zram: size %lld is under 16M", r->size);
		return -1;
	}
	r->num = pick_device(r, e, err, errlen);
	if (r->num < 0)
		return -1;
	snprintf(r->dev, sizeof(r->dev), "%s/zram%d", e->dev_root, r->num);
	if (sync(arg))
		goto fail_journal;
	if (*r->opt) {
		zpath(e, r->num, "comp_algorithm", path, sizeof(path));
		if (write_file_str(path, r->opt)) {
			snprintf(err, errlen, "zram: compressor %s not accepted by %s: %s",
				 r->opt, path, strerror(errno));
			return -1;
		}
	}
	zpath(e, r->num, "disksize", path, sizeof(path));
	snprintf(num, sizeof(num), "%lld", r->size);
	if (write_file_str(path, num)) {
		snprintf(err, errlen, "zram: cannot write %s to %s: %s", num,
			 path, strerror(errno));
		return -1;
	}
	if (write_swap_header(r->dev, r->size, err, errlen))
		return -1;
	if (swapon(r->dev, SWAP_FLAG_PREFER |
		   (SWAP_PRIO << SWAP_FLAG_PRIO_SHIFT))) {
		snprintf(err, errlen, "zram: swapon %s: %s", r->dev,
			 strerror(errno));
		return -1;
	}
	return 0;
fail_journal:
	snprintf(err, errlen, "zram: cannot journal %s before using it", r->dev);
	return -1;
}

static int zram_undo(const struct res *r, const struct res_env *e)
{
	char path[RES_PATH * 2], num[16];
	long long size;
	int i;

	if (r->num < 0)
		return 0;
	if (res_in_swaps(e, r->dev)) {
		/* swapoff brings every page back in: EINTR-free, may take a while. */
		if (swapoff(r->dev) && res_in_swaps(e, r->dev))
			return -1;
	}
	zpath(e, r->num, "disksize", path, sizeof(path));
	if (!read_ll(path, &size) && size == r->size && size) {
		zpath(e, r->num, "reset", path, sizeof(path));
		/* EBUSY while the swapoff's last reference drops. */
		for (i = 0; i < 50 && write_file_str(path, "1"); i++)
			res_nap();
	}
	if (r->added) {
		snprintf(path, sizeof(path), "%s/class/zram-control/hot_remove",
			 e->sys_root);
		snprintf(num, sizeof(num), "%d", r->num);
		for (i = 0; i < 50 && write_file_str(path, num) && errno == EBUSY; i++)
			res_nap();
	}
	return 0;
}

static int zram_owned(const struct res *r, const struct res_env *e,
		      char *why, size_t len)
{
	char path[RES_PATH * 2], dev[RES_PATH + 16];
	long long size;

	if (r->num < 0)
		return 1;	/* journalled, never made: nothing to undo */
	snprintf(dev, sizeof(dev), "%s/zram%d", e->dev_root, r->num);
	if (strcmp(r->dev, dev)) {
		snprintf(why, len, "%s is not %s", r->dev, dev);
		return 0;
	}
	if (!*r->boot_id || strcmp(r->boot_id, e->boot_id)) {
		snprintf(why, len, "journalled on another boot (%s, this is %s)",
			 r->boot_id, e->boot_id);
		return 0;
	}
	zpath(e, r->num, "disksize", path, sizeof(path));
	if (read_ll(path, &size)) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return 0;
	}
	if (size && size != r->size) {
		snprintf(why, len, "its disksize %lld is not the %lld we set",
			 size, r->size);
		return 0;
	}
	return 1;
}

const struct res_kind res_kind_zram = {
	.name = "zram",
	.make = zram_make,
	.undo = zram_undo,
	.owned = zram_owned,
};
