// SPDX-License-Identifier: GPL-2.0-only
/* recover - a crashed run's knobs put back (recover.h). */
#include "recover.h"
#include "resource.h"
#include "hugetlb_pool.h"
#include "journal.h"
#include "settings.h"
#include "settings_lock.h"
#include "state_file.h"
#include "sysctl_knob.h"
#include "trust.h"
#include "unrestored.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * Knobs that would not go back, merged into the record that replaces the
 * journal (unrestored.h): pid and time name the run that changed them.
 * 0, or -1 with err set (the caller then keeps the journal).
 */
int recover_record_stuck(const struct settings_ctx *ctx,
			const struct unrestored *stuck, pid_t pid, char *err,
			size_t errlen)
{
	struct unrestored rec;
	char path[PATH_MAX];
	size_t i;
	int r;

	state_file_path(ctx->state_dir, UNRESTORED_FILE, path, sizeof(path));
	if (unrestored_read(path, &rec, err, errlen) < 0)
		return -1;
	if (!rec.root)
		rec.root = xstrdup(ctx->root);
	rec.pid = pid;
	rec.time = (long long)time(NULL);
	for (i = 0; i < stuck->n; i++)
		unrestored_add(&rec, stuck->v[i].name, stuck->v[i].want,
			       stuck->v[i].got, stuck->v[i].why);
	r = unrestored_write(path, &rec, err, errlen);
	unrestored_free(&rec);
	return r;
}

/*
 * A journal knob is an mm knob under the mm root, or one of the allowed
 * sysctl knobs under the sysctl root this thpbench uses: nothing else is
 * written, whatever the journal says.
 */
static int journal_knob_check(const struct settings_ctx *ctx,
			      const char *path, const struct knob *k,
			      char *err, size_t errlen)
{
	if (!strcmp(k->root, ctx->root) && knob_name_ok(k->name))
		return 0;
	if (sysctl_knob_name_ok(k->name)) {
		if (ctx->sysctl_root && !strcmp(k->root, ctx->sysctl_root))
			return 0;
		snprintf(err, errlen,
			 "%s: the journal's %s is under %s, this thpbench uses %s; refusing to write outside it (run with THPBENCH_PROC_SYS_ROOT=%s, or delete the journal)",
			 path, k->name, k->root,
			 ctx->sysctl_root ? ctx->sysctl_root : "no sysctl root",
			 k->root);
		return -1;
	}
	snprintf(err, errlen,
		 "%s: knob %s (under %s) is outside %s/" THP_DIR "/, %s/" HUGETLB_DIR
		 "/ and the sysctl knobs thpbench changes; refusing to write it; delete the journal",
		 path, k->name, k->root, ctx->root, ctx->root);
	return -1;
}

/*
 * The swap, mounts, loop devices and cgroups a killed run made
 * (resource.h), undone before its knobs go back: its workload ended
 * first, as what it holds (a mount it has open, swap it is using) would
 * keep them. 0, or -1 with err set.
 */
static int recover_resources(struct settings_ctx *ctx, char *err,
			     size_t errlen)
{
	int undone = 0;

	settings_guard_end_recorded_child(ctx->state_dir, &ctx->say);
	if (res_recover(ctx->state_dir, &ctx->say, &undone, err, errlen))
		return -1;
	ctx->res_undone += undone;
	if (undone)
		settings_say(&ctx->say, true, "undid %d resource(s) (swap, mount, loop device, cgroup) a run that did not end cleanly left",
			     undone);
	return 0;
}

/*
 * With the lock held. 1 when a journal was found, 0 none, -1 error. Knobs
 * that would not go back are left in stuck and recorded in place of the
 * journal, which is deleted: they no longer stop anyone.
 */
static int restore_journal_locked(struct settings_ctx *ctx, int *restored,
				  struct journal *j, struct unrestored *stuck,
				  char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t i;
	int r;

	state_file_path(ctx->state_dir, JOURNAL_FILE, path, sizeof(path));
	r = journal_read(path, j, err, errlen);
	/* A fragmenter needs no knob to be left running: its record alone. */
	if (!r)
		settings_guard_end_recorded_child(ctx->state_dir, &ctx->say);
	if (r <= 0)
		return r;
	if (strcmp(j->root, ctx->root)) {
		snprintf(err, errlen,
			 "%s: the journal is for knobs under %s, this thpbench uses %s; refusing to write outside it (run with THPBENCH_SYSFS_ROOT=%s, or delete the journal)",
			 path, j->root, ctx->root, j->root);
		return -1;
	}
	for (i = 0; i < j->knobs.n; i++)
		if (journal_knob_check(ctx, path, &j->knobs.v[i], err, errlen))
			return -1;
	settings_guard_end_recorded_child(ctx->state_dir, &ctx->say);
	snapshot_order(&j->knobs);
	if (snapshot_restore(&j->knobs, ctx->proc_root, restored, stuck,
			     &ctx->say) &&
	    recover_record_stuck(ctx, stuck, j->pid, err, errlen))
		return -1;
	if (unlink(path)) {
		snprintf(err, errlen, "cannot delete %s: %s", path,
			 strerror(errno));
		return -1;
	}
	return 1;
}

/*
 * The record of knobs an earlier run could not put back: those that now
 * read what they should are dropped, the rest stay, and - when retry
 * (`thpbench restore`) - are written once more first. *left: how many
 * stay, described in what. 0, or -1 with err set.
 */
static int review_record(struct settings_ctx *ctx, bool retry, int *restored,
			 size_t *left, char *what, size_t len, char *err,
			 size_t errlen)
{
	char path[PATH_MAX], cur[KNOB_MAX], abspath[PATH_MAX], why[1024];
	struct unrestored rec, keep = { 0 };
	size_t i;
	int r;

	*left = 0;
	state_file_path(ctx->state_dir, UNRESTORED_FILE, path, sizeof(path));
	r = unrestored_read(path, &rec, err, errlen);
	if (r <= 0)
		return r;
	if (strcmp(rec.root, ctx->root)) {
		unrestored_free(&rec);
		return 0;	/* another root's: not ours to judge */
	}
	keep.root = xstrdup(rec.root);
	keep.pid = rec.pid;
	keep.time = rec.time;
	for (i = 0; i < rec.n; i++) {
		const struct unrestored_knob *k = &rec.v[i];

		if (sysctl_knob_path(ctx->root, ctx->sysctl_root, k->name,
				     abspath, sizeof(abspath))) {
			unrestored_add(&keep, k->name, k->want, k->got, k->why);
			continue;	/* no sysctl root here: left as recorded */
		}
		if (!hugetlb_knob_read_path(abspath, cur, sizeof(cur)) &&
		    !strcmp(cur, k->want))
			continue;
		if (retry && !knob_write(abspath, k->want)) {
			(*restored)++;
			if (!hugetlb_knob_read_path(abspath, cur, sizeof(cur)) &&
			    !strcmp(cur, k->want))
				continue;
		}
		if (hugetlb_knob_read_path(abspath, cur, sizeof(cur)))
			snprintf(cur, sizeof(cur), "?");
		snprintf(why, sizeof(why), "%s", k->why);
		if (retry && hugetlb_is_pool_size(k->name))
			hugetlb_pool_stuck_why(k->name, k->want, cur,
					       ctx->proc_root, why, sizeof(why));
		unrestored_add(&keep, k->name, k->want, cur, why);
	}
	*left = keep.n;
	unrestored_describe(&keep, what, len);
	r = unrestored_write(path, &keep, err, errlen);
	unrestored_free(&keep);
	unrestored_free(&rec);
	return r;
}

/*
 * What `thpbench restore` works on, locked (unless held already): 1 when
 * there is no state dir (no journal, no record, nothing to lock), 0 when
 * locked, -1 with err set.
 */
static int lock_state(struct settings_ctx *ctx, bool held, char *err,
		      size_t errlen)
{
	if (access(ctx->state_dir, F_OK) && errno == ENOENT)
		return 1;
	if (trust_dir(ctx->state_dir, false, err, errlen))
		return -1;
	if (!held && settings_lock_take(ctx, err, errlen))
		return -1;
	return 0;
}

int settings_restore_journal(struct settings_ctx *ctx, int *restored,
			     char *err, size_t errlen)
{
	bool held = ctx->lock_fd >= 0;
	struct unrestored stuck = { 0 };
	char what[2048], path[PATH_MAX];
	struct journal j;
	size_t left = 0;
	int r;

	*restored = 0;
	if (ctx->active) {
		snprintf(err, errlen,
			 "this run's own settings are in use; they are restored by settings_end");
		return -1;
	}
	r = lock_state(ctx, held, err, errlen);
	if (r)
		return r > 0 ? 0 : -1;
	if (recover_resources(ctx, err, errlen)) {
		if (!held)
			settings_lock_release(ctx);
		return -1;
	}
	r = restore_journal_locked(ctx, restored, &j, &stuck, err, errlen);
	journal_free(&j);
	unrestored_free(&stuck);
	if (r >= 0)
		r = review_record(ctx, true, restored, &left, what, sizeof(what),
				  err, errlen);
	if (r >= 0 && left) {
		state_file_path(ctx->state_dir, UNRESTORED_FILE, path, sizeof(path));
		snprintf(err, errlen,
			 "%zu knob(s) would not go back: %s; recorded in %s (runs go on; `thpbench restore --forget` keeps the current values)",
			 left, what, path);
		r = -1;
	}
	if (!held)
		settings_lock_release(ctx);
	return r < 0 ? -1 : 0;
}

int settings_forget_unrestored(struct settings_ctx *ctx, size_t *forgotten,
			       char *err, size_t errlen)
{
	struct unrestored rec;
	char path[PATH_MAX];
	bool held = ctx->lock_fd >= 0;
	int r;

	*forgotten = 0;
	r = lock_state(ctx, held, err, errlen);
	if (r)
		return r > 0 ? 0 : -1;
	state_file_path(ctx->state_dir, UNRESTORED_FILE, path, sizeof(path));
	r = unrestored_read(path, &rec, err, errlen);
	if (r > 0) {
		*forgotten = rec.n;
		rec.n = 0;
		r = unrestored_write(path, &rec, err, errlen);
		rec.n = *forgotten;
		unrestored_free(&rec);
	}
	if (!held)
		settings_lock_release(ctx);
	return r < 0 ? -1 : 0;
}

int recover_crashed(struct settings_ctx *ctx, char *err, size_t errlen)
{
	char when[32] = "?", what[2048], path[PATH_MAX];
	struct unrestored stuck = { 0 };
	struct journal j;
	int restored = 0, r;
	size_t left;
	time_t t;

	if (recover_resources(ctx, err, errlen))
		return -1;
	r = restore_journal_locked(ctx, &restored, &j, &stuck, err, errlen);
	if (r > 0) {
		t = (time_t)j.start;
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S",
			 localtime(&t));
		settings_say(&ctx->say, true, "thpbench pid %ld (started %s) did not end cleanly; restored %d huge-page knob(s) it had changed",
			     (long)j.pid, when, restored);
	}
	journal_free(&j);
	unrestored_free(&stuck);
	if (r < 0)
		return -1;
	/* What an earlier run could not put back no longer stops this one. */
	if (review_record(ctx, false, &restored, &left, what, sizeof(what),
			  err, errlen)) {
		settings_say(&ctx->say, true, "%s", err);
		return 0;
	}
	if (!left)
		return 0;
	state_file_path(ctx->state_dir, UNRESTORED_FILE, path, sizeof(path));
	settings_say(&ctx->say, true, "an earlier run could not put back %zu huge-page knob(s): %s; going on from the current values (recorded in %s; `thpbench restore` tries them again, `thpbench restore --forget` keeps the current values)",
		     left, what, path);
	return 0;
}
