// SPDX-License-Identifier: GPL-2.0-only
/* settings_lock - the settings lock (settings_lock.h). */
#include "settings_lock.h"
#include "lock.h"
#include "settings.h"
#include "trust.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LOCK_DIR "/run/thpbench"
#define LOCK_PREFIX "lock-"

/*
 * Under /run whatever the state directory: two runs with different
 * THPBENCH_STATE_DIR still change the same knobs. Named by the device and
 * inode of the sysfs root, so /sys/kernel/mm reached by any path (or a
 * second sysfs mount) is one lock and a fake tree in a test is another.
 * Not root, where /run/thpbench cannot be made: $XDG_RUNTIME_DIR (also
 * under /run).
 */
int settings_lock_path(const char *root, char *buf, size_t len, char *err,
		       size_t errlen)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char dir[PATH_MAX] = LOCK_DIR;
	struct stat st;

	if (stat(root, &st)) {
		snprintf(err, errlen, "%s: %s", root, strerror(errno));
		return -1;
	}
	if (trust_dir(dir, true, err, errlen)) {
		if (geteuid() == 0 || !xdg || strncmp(xdg, "/run/", 5))
			return -1;
		snprintf(dir, sizeof(dir), "%s/thpbench", xdg);
		if (trust_dir(dir, true, err, errlen))
			return -1;
	}
	snprintf(buf, len, "%s/" LOCK_PREFIX "%llx-%llx", dir,
		 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	return 0;
}

static void lock_busy_error(const struct settings_ctx *ctx, const char *path,
			    pid_t holder, double waited, char *err,
			    size_t errlen)
{
	char who[300], after[96] = "";

	lock_holder_describe(ctx->proc_root, holder, who, sizeof(who));
	if (waited > 0)
		snprintf(after, sizeof(after), " (still, after waiting %.1f s)",
			 waited);
	snprintf(err, errlen,
		 "another thpbench (%s) is changing huge-page settings under %s (it holds %s)%s; wait for it to finish, or run with --wait[=SECONDS]",
		 who, ctx->root, path, after);
}

/*
 * Held: remember the path for lock_release, and remove the lock files
 * beside it that runs killed while holding them left (lock.h).
 */
static void held_lock(struct settings_ctx *ctx, const char *path)
{
	char dir[PATH_MAX];

	ctx->lock_path = xstrdup(path);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	lock_sweep(dir, LOCK_PREFIX);
}

/*
 * A second job on the box queues behind the first: poll the lock, say
 * who holds it (again when that changes), give up after wait_s.
 */
static int wait_for_lock(struct settings_ctx *ctx, const char *path,
			 pid_t holder, char *err, size_t errlen)
{
	const struct timespec tick = { 0, 200 * 1000 * 1000 };
	double t0 = now_usec(), waited;
	pid_t said = -1;
	char who[300];

	for (;;) {
		waited = (now_usec() - t0) / 1e6;
		if (ctx->cancel && *ctx->cancel) {
			snprintf(err, errlen,
				 "interrupted while waiting for the huge-page settings lock %s",
				 path);
			return -1;
		}
		if (ctx->wait_s > 0 && waited >= ctx->wait_s) {
			lock_busy_error(ctx, path, holder, waited, err, errlen);
			return -1;
		}
		if (holder != said) {
			lock_holder_describe(ctx->proc_root, holder, who,
					     sizeof(who));
			settings_say(&ctx->say, true, "waiting for another thpbench (%s) to finish with the huge-page settings under %s (lock %s)",
				     who, ctx->root, path);
			said = holder;
		}
		nanosleep(&tick, NULL);
		ctx->lock_fd = lock_take(path, &holder);
		if (ctx->lock_fd >= 0) {
			held_lock(ctx, path);
			settings_say(&ctx->say, true, "got the settings lock after %.1f s",
				     (now_usec() - t0) / 1e6);
			return 0;
		}
		if (errno != EWOULDBLOCK)
			return 1;
	}
}

int settings_lock_take(struct settings_ctx *ctx, char *err, size_t errlen)
{
	char path[PATH_MAX];
	pid_t holder;
	int r;

	if (settings_lock_path(ctx->root, path, sizeof(path), err, errlen))
		return -1;
	ctx->lock_fd = lock_take(path, &holder);
	if (ctx->lock_fd >= 0) {
		held_lock(ctx, path);
		return 0;
	}
	if (errno == EWOULDBLOCK && ctx->wait_s != 0) {
		r = wait_for_lock(ctx, path, holder, err, errlen);
		if (r <= 0)
			return r;
	}
	if (errno == EWOULDBLOCK)
		lock_busy_error(ctx, path, holder, 0, err, errlen);
	else
		snprintf(err, errlen, "cannot lock %s: %s%s", path,
			 strerror(errno), errno == EPERM || errno == ELOOP ?
			 " (not a regular file of ours: delete it)" : "");
	return -1;
}

void settings_lock_release(struct settings_ctx *ctx)
{
	lock_release(ctx->lock_fd, ctx->lock_path);
	ctx->lock_fd = -1;
	free(ctx->lock_path);
	ctx->lock_path = NULL;
}
