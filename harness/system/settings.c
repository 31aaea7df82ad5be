// SPDX-License-Identifier: GPL-2.0-only
#include "settings.h"
#include "hugetlb_pool.h"
#include "hugetlb_users.h"
#include "journal.h"
#include "lock.h"
#include "sysctl_knob.h"
#include "trust.h"
#include "unrestored.h"
#include "util/kept_file.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_ROOT "/sys/kernel/mm"
#define DEFAULT_STATE_DIR "/run/thpbench"
#define LOCK_DIR "/run/thpbench"
#define LOCK_PREFIX "lock-"

/* ---- life cycle ---------------------------------------------------- */

static char *env_or(const char *arg, const char *env, const char *def)
{
	const char *v = arg ? arg : getenv(env);
	char *s = xstrdup(v && *v ? v : def);
	size_t n = strlen(s);

	while (n > 1 && s[n - 1] == '/')
		s[--n] = '\0';
	return s;
}

void settings_init(struct settings_ctx *ctx, const char *root,
		   const char *state_dir)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->root = env_or(root, "THPBENCH_SYSFS_ROOT", DEFAULT_ROOT);
	ctx->state_dir = env_or(state_dir, "THPBENCH_STATE_DIR",
				DEFAULT_STATE_DIR);
	ctx->proc_root = xstrdup(hugetlb_proc_root());
	ctx->sysctl_root = sysctl_root_for(ctx->root);
	ctx->lock_fd = -1;
}

static void release_lock(struct settings_ctx *ctx);

void settings_free(struct settings_ctx *ctx)
{
	if (ctx->active)
		settings_end(ctx);
	release_lock(ctx);
	snapshot_free(&ctx->orig);
	free(ctx->root);
	free(ctx->state_dir);
	free(ctx->proc_root);
	free(ctx->sysctl_root);
	memset(ctx, 0, sizeof(*ctx));
	ctx->lock_fd = -1;
}

/*
 * By the enabled file's mode and access(2), not geteuid() alone: root in a
 * container with /sys mounted read-only cannot write either (EROFS), and
 * a fake tree marks itself read-only with mode 0444.
 */
bool settings_writable(const struct settings_ctx *ctx)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/" THP_DIR "/enabled", ctx->root);
	if (stat(path, &st) || !(st.st_mode & 0222))
		return false;
	return !access(path, W_OK);
}

int settings_knob_path(const struct settings_ctx *ctx, const char *name,
		       char *buf, size_t len)
{
	const char *root = ctx->root;

	if (sysctl_knob_name_ok(name)) {
		if (!ctx->sysctl_root)
			return -1;
		root = ctx->sysctl_root;
	}
	snprintf(buf, len, "%s/%s", root, name);
	return 0;
}

/*
 * A knob as hugetlb_knob_read_path() reads it, through a descriptor kept
 * open (util/kept_file.h): the drift check reads every knob after each
 * repetition, the run reads the knobs it sets before each, and opening
 * some forty sysfs files each time cost more than a short repetition. A
 * pool size (nr_hugepages, read with its surplus) is read the plain way.
 */
static int kept_knob_read(const char *abspath, char *buf, size_t len)
{
	char raw[KNOB_MAX], surplus[PATH_MAX];
	size_t off, n;
	ssize_t got;

	if (hugetlb_surplus_path(abspath, surplus, sizeof(surplus)))
		return hugetlb_knob_read_path(abspath, buf, len);
	got = kept_read(abspath, raw, sizeof(raw));
	if (got < 0)
		return -1;
	while (got > 0 && (raw[got - 1] == '\n' || raw[got - 1] == ' '))
		raw[--got] = '\0';
	knob_value_span(raw, (size_t)got, &off, &n);
	if (n >= len) {
		errno = EOVERFLOW;
		return -1;
	}
	memcpy(buf, raw + off, n);
	buf[n] = '\0';
	return 0;
}

int settings_read(const struct settings_ctx *ctx, const char *name,
		  char *buf, size_t len)
{
	char path[PATH_MAX];

	if (settings_knob_path(ctx, name, path, sizeof(path)))
		return -1;
	return kept_knob_read(path, buf, len);
}

static void path_in(const struct settings_ctx *ctx, const char *file,
		    char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", ctx->state_dir, file);
}

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
			tb_warn("waiting for another thpbench (%s) to finish with the huge-page settings under %s (lock %s)",
				who, ctx->root, path);
			said = holder;
		}
		nanosleep(&tick, NULL);
		ctx->lock_fd = lock_take(path, &holder);
		if (ctx->lock_fd >= 0) {
			held_lock(ctx, path);
			tb_warn("got the settings lock after %.1f s",
				(now_usec() - t0) / 1e6);
			return 0;
		}
		if (errno != EWOULDBLOCK)
			return 1;
	}
}

static int take_lock(struct settings_ctx *ctx, char *err, size_t errlen)
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

static void release_lock(struct settings_ctx *ctx)
{
	lock_release(ctx->lock_fd, ctx->lock_path);
	ctx->lock_fd = -1;
	free(ctx->lock_path);
	ctx->lock_path = NULL;
}

/*
 * Knobs that would not go back, merged into the record that replaces the
 * journal (unrestored.h): pid and time name the run that changed them.
 * 0, or -1 with err set (the caller then keeps the journal).
 */
static int record_stuck(const struct settings_ctx *ctx,
			const struct unrestored *stuck, pid_t pid, char *err,
			size_t errlen)
{
	struct unrestored rec;
	char path[PATH_MAX];
	size_t i;
	int r;

	path_in(ctx, UNRESTORED_FILE, path, sizeof(path));
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

	path_in(ctx, "journal.json", path, sizeof(path));
	r = journal_read(path, j, err, errlen);
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
	settings_guard_end_recorded_child(ctx->state_dir);
	snapshot_order(&j->knobs);
	if (snapshot_restore(&j->knobs, ctx->proc_root, restored, stuck) &&
	    record_stuck(ctx, stuck, j->pid, err, errlen))
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
	path_in(ctx, UNRESTORED_FILE, path, sizeof(path));
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

		if (settings_knob_path(ctx, k->name, abspath, sizeof(abspath))) {
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
	if (!held && take_lock(ctx, err, errlen))
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
	r = restore_journal_locked(ctx, restored, &j, &stuck, err, errlen);
	journal_free(&j);
	unrestored_free(&stuck);
	if (r >= 0)
		r = review_record(ctx, true, restored, &left, what, sizeof(what),
				  err, errlen);
	if (r >= 0 && left) {
		path_in(ctx, UNRESTORED_FILE, path, sizeof(path));
		snprintf(err, errlen,
			 "%zu knob(s) would not go back: %s; recorded in %s (runs go on; `thpbench restore --forget` keeps the current values)",
			 left, what, path);
		r = -1;
	}
	if (!held)
		release_lock(ctx);
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
	path_in(ctx, UNRESTORED_FILE, path, sizeof(path));
	r = unrestored_read(path, &rec, err, errlen);
	if (r > 0) {
		*forgotten = rec.n;
		rec.n = 0;
		r = unrestored_write(path, &rec, err, errlen);
		rec.n = *forgotten;
		unrestored_free(&rec);
	}
	if (!held)
		release_lock(ctx);
	return r < 0 ? -1 : 0;
}

static void recover_crashed(struct settings_ctx *ctx, int *ret, char *err,
			    size_t errlen)
{
	char when[32] = "?", what[2048], path[PATH_MAX];
	struct unrestored stuck = { 0 };
	struct journal j;
	int restored = 0;
	size_t left;
	time_t t;

	*ret = restore_journal_locked(ctx, &restored, &j, &stuck, err, errlen);
	if (*ret > 0) {
		t = (time_t)j.start;
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S",
			 localtime(&t));
		tb_warn("thpbench pid %ld (started %s) did not end cleanly; restored %d huge-page knob(s) it had changed",
			(long)j.pid, when, restored);
	}
	journal_free(&j);
	unrestored_free(&stuck);
	if (*ret < 0)
		return;
	/* What an earlier run could not put back no longer stops this one. */
	if (review_record(ctx, false, &restored, &left, what, sizeof(what),
			  err, errlen)) {
		tb_warn("%s", err);
		return;
	}
	if (!left)
		return;
	path_in(ctx, UNRESTORED_FILE, path, sizeof(path));
	tb_warn("an earlier run could not put back %zu huge-page knob(s): %s; going on from the current values (recorded in %s; `thpbench restore` tries them again, `thpbench restore --forget` keeps the current values)",
		left, what, path);
}

static int write_journal(struct settings_ctx *ctx, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct journal j = {
		.root = ctx->root,
		.pid = getpid(),
		.start = (long long)time(NULL),
		.knobs = ctx->orig,
	};

	path_in(ctx, "journal.json", path, sizeof(path));
	return journal_write(path, &j, err, errlen);
}

static void end_at_exit(void *ctx)
{
	settings_end(ctx);
}

int settings_begin(struct settings_ctx *ctx, char *err, size_t errlen)
{
	int r;

	if (ctx->active) {
		snprintf(err, errlen, "settings_begin called twice");
		return -1;
	}
	if (trust_dir(ctx->state_dir, true, err, errlen))
		return -1;
	if (take_lock(ctx, err, errlen))
		return -1;
	recover_crashed(ctx, &r, err, errlen);
	if (r < 0)
		goto fail;
	if (snapshot_take(ctx->root, &ctx->orig, err, errlen))
		goto fail;
	sysctl_knobs_snapshot(ctx->sysctl_root, &ctx->orig);
	snapshot_order(&ctx->orig);
	if (write_journal(ctx, err, errlen)) {
		snapshot_free(&ctx->orig);
		goto fail;
	}
	ctx->active = true;
	settings_guard_arm(&ctx->orig, ctx->state_dir, end_at_exit, ctx);
	return 0;
fail:
	release_lock(ctx);
	return -1;
}

int settings_end(struct settings_ctx *ctx)
{
	struct unrestored stuck = { 0 };
	char path[PATH_MAX], err[512];
	sigset_t old;
	int restored = 0, failed;

	if (!ctx->active)
		return 0;
	path_in(ctx, "journal.json", path, sizeof(path));
	settings_guard_block(&old);
	settings_guard_disarm(&ctx->orig, ctx->state_dir);
	failed = snapshot_restore(&ctx->orig, ctx->proc_root, &restored,
				  &stuck);
	if (!failed) {
		unlink(path);
	} else if (!record_stuck(ctx, &stuck, getpid(), err, sizeof(err))) {
		unlink(path);
		tb_err("%d knob(s) would not go back (above): recorded in %s/" UNRESTORED_FILE "; the next run goes on with a warning, `thpbench restore` tries them again",
		       failed, ctx->state_dir);
	} else {
		tb_err("%s; settings journal kept in %s: run `thpbench restore` once the above is fixed",
		       err, ctx->state_dir);
	}
	unrestored_free(&stuck);
	ctx->active = false;
	snapshot_free(&ctx->orig);
	release_lock(ctx);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return failed ? -1 : 0;
}

/* ---- after each repetition ------------------------------------------ */

int settings_drift(struct settings_ctx *ctx, settings_want_fn want,
		   void *arg, char *what, size_t len)
{
	char cur[KNOB_MAX];
	const char *exp;
	size_t i, used = 0;
	int n = 0;

	if (len)
		what[0] = '\0';
	if (!ctx->active)
		return 0;
	for (i = 0; i < ctx->orig.n; i++) {
		const struct knob *k = &ctx->orig.v[i];

		exp = want ? want(k->name, arg) : k->value;
		if (!exp)
			continue;
		if (kept_knob_read(k->abspath, cur, sizeof(cur)) ||
		    !strcmp(cur, exp))
			continue;
		n++;
		if (used < len)
			used += (size_t)snprintf(what + used, len - used,
						 "%s%s %s -> %s", n > 1 ? ", " : "",
						 k->name, exp, cur);
		if (knob_write(k->abspath, exp))
			tb_err("cannot put %s back to %s: %s", k->name, exp,
			       strerror(errno));
	}
	return n;
}

/* ---- apply --------------------------------------------------------- */

static int readback_error(const char *name, const char *want,
			  const char *got, const char *choices, char *err,
			  size_t errlen)
{
	if (hugetlb_pool_shortfall(name, want, got, err, errlen))
		return -1;
	if (choices)
		snprintf(err, errlen,
			 "value %s not accepted by %s (choices: %s); it stays %s",
			 want, name, choices, got);
	else
		snprintf(err, errlen, "%s reads back %s after writing %s",
			 name, got, want);
	return -1;
}

static int check_apply(const struct settings_ctx *ctx, const char *name,
		       char *err, size_t errlen)
{
	if (!knob_name_ok(name) && !sysctl_knob_name_ok(name)) {
		snprintf(err, errlen,
			 "knob \"%s\" is not under " THP_DIR "/ or " HUGETLB_DIR
			 "/ (relative to %s) nor a sysctl knob thpbench manages (" SYSCTL_PROACTIVENESS "); thpbench changes only huge-page settings",
			 name, ctx->root);
		return -1;
	}
	if (!ctx->active) {
		snprintf(err, errlen,
			 "cannot set %s before settings_begin: the change could not be restored",
			 name);
		return -1;
	}
	if (!snapshot_get(&ctx->orig, name)) {
		snprintf(err, errlen,
			 "knob %s is not a writable file under %s (missing on this kernel, or read-only)",
			 name, sysctl_knob_name_ok(name) ?
			 (ctx->sysctl_root ? ctx->sysctl_root :
			  "a sysctl root (none in use: set THPBENCH_PROC_SYS_ROOT)") :
			 ctx->root);
		return -1;
	}
	return 0;
}

int settings_apply(struct settings_ctx *ctx, const char *name,
		   const char *value, char *err, size_t errlen)
{
	char path[PATH_MAX], raw[KNOB_MAX], list[KNOB_MAX], want[KNOB_MAX];
	char got[KNOB_MAX];
	const char *choices = NULL;

	if (check_apply(ctx, name, err, errlen))
		return -1;
	snprintf(want, sizeof(want), "%s", value);
	str_trim(want);
	settings_knob_path(ctx, name, path, sizeof(path));
	if (!read_file_str(path, raw, sizeof(raw)) &&
	    knob_choices(raw, list, sizeof(list)))
		choices = list;
	if (!*want || strpbrk(want, " \t\n") ||
	    (choices && !knob_word_in(choices, want))) {
		snprintf(err, errlen, "value \"%s\" not accepted by %s%s%s%s",
			 want, name, choices ? " (choices: " : "",
			 choices ? choices : "", choices ? ")" : "");
		return -1;
	}
	if (knob_write(path, want)) {
		if (errno == EINVAL)
			snprintf(err, errlen, "value %s not accepted by %s%s%s%s",
				 want, name, choices ? " (choices: " : "",
				 choices ? choices : "", choices ? ")" : "");
		else
			snprintf(err, errlen, "cannot write %s to %s: %s", want,
				 path, strerror(errno));
		return -1;
	}
	if (hugetlb_knob_read_path(path, got, sizeof(got))) {
		snprintf(err, errlen, "cannot read back %s: %s", path,
			 strerror(errno));
		return -1;
	}
	if (strcmp(got, want))
		return readback_error(name, want, got, choices, err, errlen);
	return 0;
}
