// SPDX-License-Identifier: GPL-2.0-only
#include "settings.h"
#include "hugetlb_pool.h"
#include "hugetlb_users.h"
#include "journal.h"
#include "recover.h"
#include "settings_lock.h"
#include "state_file.h"
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
	ctx->watch.fd = -1;
}

void settings_free(struct settings_ctx *ctx)
{
	if (ctx->active)
		settings_end(ctx);
	settings_lock_release(ctx);
	snapshot_free(&ctx->orig);
	free(ctx->root);
	free(ctx->state_dir);
	free(ctx->proc_root);
	free(ctx->sysctl_root);
	memset(ctx, 0, sizeof(*ctx));
	ctx->lock_fd = -1;
	ctx->watch.fd = -1;
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
	return sysctl_knob_path(ctx->root, ctx->sysctl_root, name, buf, len);
}

/*
 * A knob as hugetlb_knob_read_path() reads it, through a descriptor kept
 * open (util/kept_file.h): the drift check reads every knob after each
 * repetition, the run reads the knobs it sets before each, and opening
 * some forty sysfs files each time cost more than a short repetition. A
 * pool size is nr_hugepages less surplus_hugepages, both kept open too.
 */
static int kept_pool_read(const char *abspath, const char *surplus,
			  char *buf, size_t len)
{
	char nr[32], sp[32];
	long v;

	if (kept_read(abspath, nr, sizeof(nr)) < 0)
		return -1;
	if (kept_read(surplus, sp, sizeof(sp)) < 0) {
		if (errno != ENOENT)
			return -1;
		strcpy(sp, "0");
	}
	if (hugetlb_persistent_text(nr, sp, &v) ||
	    (size_t)snprintf(buf, len, "%ld", v) >= len) {
		/* Not two counts (a fake tree's odd file): as the plain read. */
		return hugetlb_knob_read_path(abspath, buf, len);
	}
	return 0;
}

static int kept_knob_read(const char *abspath, char *buf, size_t len)
{
	char raw[KNOB_MAX], surplus[PATH_MAX];
	size_t off, n;
	ssize_t got;

	if (hugetlb_surplus_path(abspath, surplus, sizeof(surplus)))
		return kept_pool_read(abspath, surplus, buf, len);
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

static int write_journal(struct settings_ctx *ctx, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct journal j = {
		.root = ctx->root,
		.pid = getpid(),
		.start = (long long)time(NULL),
		.knobs = ctx->orig,
	};

	state_file_path(ctx->state_dir, JOURNAL_FILE, path, sizeof(path));
	return journal_write(path, &j, err, errlen);
}

static void end_at_exit(void *ctx)
{
	settings_end(ctx);
}

/* Every snapshot knob's file, and with the real sysfs the pools' other
 * files, watched for writes (knob_watch.h). */
static void watch_knobs(struct settings_ctx *ctx)
{
	size_t i;

	knob_watch_open(&ctx->watch);
	for (i = 0; i < ctx->orig.n; i++)
		knob_watch_add(&ctx->watch, ctx->orig.v[i].abspath);
	if (!strcmp(ctx->root, DEFAULT_ROOT))
		knob_watch_add_pool_aliases(&ctx->watch);
	ctx->drift_full_usec = 0;
}

int settings_begin(struct settings_ctx *ctx, char *err, size_t errlen)
{
	if (ctx->active) {
		snprintf(err, errlen, "settings_begin called twice");
		return -1;
	}
	if (trust_dir(ctx->state_dir, true, err, errlen))
		return -1;
	if (settings_lock_take(ctx, err, errlen))
		return -1;
	if (recover_crashed(ctx, err, errlen))
		goto fail;
	if (snapshot_take(ctx->root, &ctx->orig, err, errlen))
		goto fail;
	sysctl_knobs_snapshot(ctx->sysctl_root, &ctx->orig);
	snapshot_order(&ctx->orig);
	if (write_journal(ctx, err, errlen)) {
		snapshot_free(&ctx->orig);
		goto fail;
	}
	res_set_init(&ctx->res, ctx->state_dir);
	ctx->active = true;
	watch_knobs(ctx);
	settings_guard_arm(&ctx->orig, ctx->state_dir, end_at_exit, ctx);
	settings_guard_resources(&ctx->res);
	return 0;
fail:
	settings_lock_release(ctx);
	return -1;
}

int settings_end(struct settings_ctx *ctx)
{
	struct unrestored stuck = { 0 };
	char path[PATH_MAX], err[512];
	sigset_t old;
	int restored = 0, failed, res_failed;

	if (!ctx->active)
		return 0;
	state_file_path(ctx->state_dir, JOURNAL_FILE, path, sizeof(path));
	settings_guard_block(&old);
	settings_guard_disarm(&ctx->orig, ctx->state_dir);
	/* Resources first: a mount or swap made after the knobs were set may
	 * hold what a knob needs back (a pool's pages in a tmpfs). */
	res_failed = res_set_end(&ctx->res, &ctx->say) ? 1 : 0;
	failed = snapshot_restore(&ctx->orig, ctx->proc_root, &restored,
				  &stuck, &ctx->say);
	if (!failed) {
		unlink(path);
	} else if (!recover_record_stuck(ctx, &stuck, getpid(), err, sizeof(err))) {
		unlink(path);
		settings_say(&ctx->say, false, "%d knob(s) would not go back (above): recorded in %s/" UNRESTORED_FILE "; the next run goes on with a warning, `thpbench restore` tries them again",
			     failed, ctx->state_dir);
	} else {
		settings_say(&ctx->say, false, "%s; settings journal kept in %s: run `thpbench restore` once the above is fixed",
			     err, ctx->state_dir);
	}
	unrestored_free(&stuck);
	ctx->active = false;
	knob_watch_close(&ctx->watch);
	snapshot_free(&ctx->orig);
	settings_lock_release(ctx);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return failed || res_failed ? -1 : 0;
}

int settings_make_resource(struct settings_ctx *ctx, const struct res *proto,
			   const struct res **made, char *err, size_t errlen)
{
	if (!ctx->active) {
		snprintf(err, errlen, "cannot make a %s before settings_begin: it could not be undone",
			 proto->kind->name);
		return -1;
	}
	return res_set_make(&ctx->res, proto, made, err, errlen);
}

/* ---- after each repetition ------------------------------------------ */

int settings_drift(struct settings_ctx *ctx, settings_want_fn want,
		   void *arg, char *what, size_t len)
{
	char cur[KNOB_MAX];
	const char *exp;
	size_t i, used = 0;
	double now;
	int n = 0;

	if (len)
		what[0] = '\0';
	if (!ctx->active)
		return 0;
	now = now_usec();
	if (!knob_watch_changed(&ctx->watch) &&
	    now - ctx->drift_full_usec < KNOB_WATCH_FULL_USEC)
		return 0;
	ctx->drift_full_usec = now;
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
			settings_say(&ctx->say, false, "cannot put %s back to %s: %s",
				     k->name, exp, strerror(errno));
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
			 "/ (relative to %s) nor a sysctl knob thpbench manages (" SYSCTL_PROACTIVENESS ", " SYSCTL_HUGETLB_VMEMMAP ", " SYSCTL_NUMA_BALANCING ", " SYSCTL_COMPACT_UNEVICTABLE "); thpbench changes only huge-page settings",
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
