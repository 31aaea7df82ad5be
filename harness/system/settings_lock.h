/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * settings_lock - the lock settings_begin and `thpbench restore` hold
 * while they change knobs (settings.h); lock.h is the flock underneath.
 *
 * Where: /run/thpbench/lock-DEV-INO, named by the device and inode of
 * the sysfs root, whatever the state dir (two runs with different
 * THPBENCH_STATE_DIR still change the same knobs; /sys/kernel/mm by any
 * path is one lock, a fake tree in a test another); not root, where
 * /run/thpbench cannot be made: $XDG_RUNTIME_DIR/thpbench (also under
 * /run).
 *
 * Taking it: held by another harness, the error names the holder's pid
 * and command; with ctx->wait_s it waits instead (0 not at all, > 0 so
 * many seconds, < 0 for ever), saying who holds it to ctx->say
 * (settings_say.h; again when that changes), until it is free, the time is up or *ctx->cancel is
 * set. Taken, ctx->lock_fd and ctx->lock_path are set, and the lock files
 * of runs killed while holding theirs are removed (lock_sweep).
 */
#ifndef THPBENCH_SETTINGS_LOCK_H
#define THPBENCH_SETTINGS_LOCK_H

#include <stddef.h>

struct settings_ctx;

/* Path of the lock guarding the knobs under root. 0, or -1 with err set. */
int settings_lock_path(const char *root, char *buf, size_t len, char *err,
		       size_t errlen);

/* Take ctx's lock (above). 0, or -1 with err set. */
int settings_lock_take(struct settings_ctx *ctx, char *err, size_t errlen);

/* Unlock and unlink it (lock_release); nothing when not held. */
void settings_lock_release(struct settings_ctx *ctx);

#endif
