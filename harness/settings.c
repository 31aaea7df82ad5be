// SPDX-License-Identifier: GPL-2.0-only
#include "settings.h"
#include "journal.h"
#include "lock.h"
#include "reap.h"
#include "trust.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KNOB_MAX 4096
#define THP_DIR "transparent_hugepage"
#define HUGETLB_DIR "hugepages"
#define DEFAULT_ROOT "/sys/kernel/mm"
#define DEFAULT_STATE_DIR "/run/thpbench"
#define LOCK_DIR "/run/thpbench"

/*
 * What the signal handler and the atexit hook need. Everything the handler
 * touches is built before g_armed is set and freed only after it is
 * cleared with the signals blocked, so the handler never sees it change.
 */
static struct settings_ctx *g_ctx;
static volatile sig_atomic_t g_armed;
static volatile sig_atomic_t g_child;
static volatile sig_atomic_t g_graceful_sent;
static pid_t g_owner;
static char g_journal[PATH_MAX];
static const int g_signals[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction g_old_act[ARRAY_SIZE(g_signals)];
static knob_write_fn g_write_hook;
static int g_child_fd = -1;

/* ---- knob values --------------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * Where the value sits in raw sysfs text: the bracketed word of a choice
 * file ("always [madvise] never"), else the text without surrounding
 * white space. Async-signal-safe: the signal path uses it too.
 */
static void value_span(const char *buf, size_t n, size_t *off, size_t *len)
{
	size_t i, open = n;

	for (i = 0; i < n; i++) {
		if (buf[i] == '[') {
			open = i;
		} else if (buf[i] == ']' && open < n) {
			*off = open + 1;
			*len = i - open - 1;
			return;
		}
	}
	i = 0;
	while (i < n && is_blank(buf[i]))
		i++;
	while (n > i && is_blank(buf[n - 1]))
		n--;
	*off = i;
	*len = n - i;
}

static int read_value(const char *abspath, char *buf, size_t len)
{
	char raw[KNOB_MAX];
	size_t off, n;

	if (read_file_str(abspath, raw, sizeof(raw)))
		return -1;
	value_span(raw, strlen(raw), &off, &n);
	if (n >= len) {
		errno = EOVERFLOW;
		return -1;
	}
	memcpy(buf, raw + off, n);
	buf[n] = '\0';
	return 0;
}

int knob_read(const char *root, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	return read_value(path, buf, len);
}

/* "always [madvise] never" -> "always madvise never"; false if no choices. */
static bool choices_of(const char *raw, char *out, size_t len)
{
	size_t o = 0;

	if (!strchr(raw, '['))
		return false;
	for (; *raw && o + 1 < len; raw++)
		if (*raw != '[' && *raw != ']' && *raw != '\n')
			out[o++] = *raw;
	out[o] = '\0';
	str_trim(out);
	return true;
}

static bool word_in(const char *words, const char *w)
{
	size_t n = strlen(w);
	const char *p = words;

	while ((p = strstr(p, w))) {
		if ((p == words || is_blank(p[-1])) &&
		    (!p[n] || is_blank(p[n])))
			return true;
		p += n;
	}
	return false;
}

int thp_modes_available(const char *root, char modes[][16], size_t max)
{
	char path[PATH_MAX], raw[KNOB_MAX], list[KNOB_MAX];
	char *save, *w;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/" THP_DIR "/enabled", root);
	if (read_file_str(path, raw, sizeof(raw)) ||
	    !choices_of(raw, list, sizeof(list)))
		return -1;
	for (w = strtok_r(list, " \t", &save); w && n < max;
	     w = strtok_r(NULL, " \t", &save))
		snprintf(modes[n++], 16, "%s", w);
	return (int)n;
}

/* ---- names and order ----------------------------------------------- */

/* Inside transparent_hugepage/ or hugepages/, no "." or ".." parts. */
static bool knob_name_ok(const char *name)
{
	const char *p, *end;
	size_t n;

	if (strncmp(name, THP_DIR "/", sizeof(THP_DIR)) &&
	    strncmp(name, HUGETLB_DIR "/", sizeof(HUGETLB_DIR)))
		return false;
	for (p = name; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		n = (size_t)(end - p);
		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
	}
	return name[strlen(name) - 1] != '/';
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/*
 * Restore order: THP knobs, then hugetlb overcommit, then pool sizes last,
 * so pages freed by shrinking a pool are not grabbed by anything the THP
 * writes set off, and a pool shrinks after the memory pressure is gone.
 */
static int knob_rank(const char *name)
{
	if (strncmp(name, HUGETLB_DIR "/", sizeof(HUGETLB_DIR)))
		return 0;
	return ends_with(name, "/nr_hugepages") ? 2 : 1;
}

/* Stable: within a rank, the walk's (sorted) order stays. */
static void snapshot_order(struct snapshot *snap)
{
	struct knob k;
	size_t i, j;

	for (i = 1; i < snap->n; i++) {
		k = snap->v[i];
		for (j = i; j > 0 && knob_rank(snap->v[j - 1].name) >
					     knob_rank(k.name); j--)
			snap->v[j] = snap->v[j - 1];
		snap->v[j] = k;
	}
}

/* ---- snapshot ------------------------------------------------------ */

void snapshot_add(struct snapshot *snap, const char *root, const char *name,
		  const char *value)
{
	struct knob *k;
	size_t len = strlen(root) + strlen(name) + 2;

	snap->v = xgrow(snap->v, sizeof(*snap->v), &snap->cap, snap->n);
	k = &snap->v[snap->n++];
	k->name = xstrdup(name);
	k->value = xstrdup(value);
	k->abspath = xmalloc(len);
	snprintf(k->abspath, len, "%s/%s", root, name);
}

const char *snapshot_get(const struct snapshot *snap, const char *name)
{
	size_t i;

	for (i = 0; i < snap->n; i++)
		if (!strcmp(snap->v[i].name, name))
			return snap->v[i].value;
	return NULL;
}

void snapshot_free(struct snapshot *snap)
{
	size_t i;

	for (i = 0; i < snap->n; i++) {
		free(snap->v[i].name);
		free(snap->v[i].value);
		free(snap->v[i].abspath);
	}
	free(snap->v);
	memset(snap, 0, sizeof(*snap));
}

/*
 * By mode bits, not access(2): root may write a 0444 file, but in sysfs
 * 0444 means the kernel offers no store (hpage_pmd_size, the stats/ files), and a
 * 0200 file (hugetlb demote) has no value to put back.
 */
static void add_if_knob(const char *root, const char *rel,
			struct snapshot *snap)
{
	char path[PATH_MAX], val[KNOB_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
	    !(st.st_mode & 0222) || !(st.st_mode & 0444))
		return;
	if (read_value(path, val, sizeof(val)))
		return;
	snapshot_add(snap, root, rel, val);
}

static int walk_thp(const char *root, const char *rel, struct snapshot *snap)
{
	char dir[PATH_MAX], sub[PATH_MAX], path[PATH_MAX];
	struct dirent **ents;
	struct stat st;
	int i, n;

	snprintf(dir, sizeof(dir), "%s/%s", root, rel);
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		if (strcmp(e, ".") && strcmp(e, "..") &&
		    snprintf(sub, sizeof(sub), "%s/%s", rel, e) <
			    (int)sizeof(sub)) {
			if (snprintf(path, sizeof(path), "%s/%s", root, sub) <
				    (int)sizeof(path) &&
			    !lstat(path, &st) && S_ISDIR(st.st_mode))
				walk_thp(root, sub, snap);
			else
				add_if_knob(root, sub, snap);
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}

static int is_pool_dir(const struct dirent *e)
{
	return !strncmp(e->d_name, "hugepages-", 10);
}

static int walk_hugetlb(const char *root, struct snapshot *snap)
{
	static const char *const files[] = { "nr_overcommit_hugepages",
					     "nr_hugepages" };
	char rel[PATH_MAX], dir[PATH_MAX];
	struct dirent **ents;
	size_t f;
	int i, n;

	snprintf(dir, sizeof(dir), "%s/" HUGETLB_DIR, root);
	n = scandir(dir, &ents, is_pool_dir, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		for (f = 0; f < ARRAY_SIZE(files); f++) {
			snprintf(rel, sizeof(rel), HUGETLB_DIR "/%s/%s",
				 ents[i]->d_name, files[f]);
			add_if_knob(root, rel, snap);
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}

int snapshot_take(const char *root, struct snapshot *snap, char *err,
		  size_t errlen)
{
	int thp, tlb;

	memset(snap, 0, sizeof(*snap));
	thp = walk_thp(root, THP_DIR, snap);
	tlb = walk_hugetlb(root, snap);
	if (thp && tlb) {
		snprintf(err, errlen,
			 "neither %s/" THP_DIR " nor %s/" HUGETLB_DIR
			 " can be read: not the mm sysfs root (check THPBENCH_SYSFS_ROOT) or a kernel without THP and hugetlb",
			 root, root);
		return -1;
	}
	snapshot_order(snap);
	return 0;
}

/* ---- writing and restoring ----------------------------------------- */

void settings_set_write_hook(knob_write_fn fn)
{
	g_write_hook = fn;
}

/*
 * O_TRUNC: sysfs ignores it, and a fake tree of plain files then reads
 * back exactly what was written. Async-signal-safe.
 */
static int kernel_write(const char *abspath, const char *value)
{
	if (g_write_hook)
		return g_write_hook(abspath, value);
	return write_file_str(abspath, value);
}

/*
 * Write back each knob that differs now, then verify all of them (a later
 * write could undo an earlier one). Each knob that would not go back is
 * named on stderr. Returns how many would not; *restored counts writes.
 */
static int restore_snapshot(const struct snapshot *snap, int *restored)
{
	char cur[KNOB_MAX];
	const struct knob *k;
	int failed = 0;
	size_t i;

	for (i = 0; i < snap->n; i++) {
		k = &snap->v[i];
		if (read_value(k->abspath, cur, sizeof(cur)))
			continue;	/* reported by the verify pass */
		if (!strcmp(cur, k->value))
			continue;
		if (kernel_write(k->abspath, k->value))
			tb_err("cannot write %s back to %s: %s", k->value,
			       k->abspath, strerror(errno));
		else
			(*restored)++;
	}
	for (i = 0; i < snap->n; i++) {
		k = &snap->v[i];
		if (read_value(k->abspath, cur, sizeof(cur))) {
			tb_err("knob %s would not go back to %s: cannot read %s: %s",
			       k->name, k->value, k->abspath, strerror(errno));
			failed++;
		} else if (strcmp(cur, k->value)) {
			tb_err("knob %s would not go back: was %s, now %s%s",
			       k->name, k->value, cur,
			       knob_rank(k->name) == 2 ?
			       " (huge pages still in use?)" : "");
			failed++;
		}
	}
	return failed;
}

/* ---- the signal path ----------------------------------------------- */

static void sig_say(const char *what, const char *name)
{
	ssize_t r;

	r = write(STDERR_FILENO, "thpbench: ", 10);
	r = write(STDERR_FILENO, what, strlen(what));
	r = write(STDERR_FILENO, name, strlen(name));
	r = write(STDERR_FILENO, "\n", 1);
	(void)r;
}

/* 1 when the knob now reads its snapshot value. */
static int sig_matches(const struct knob *k)
{
	char buf[KNOB_MAX];
	size_t off, len;
	ssize_t n;
	int fd = open(k->abspath, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return 0;
	value_span(buf, (size_t)n, &off, &len);
	return len == strlen(k->value) && !memcmp(buf + off, k->value, len);
}

static int sig_restore(const struct snapshot *snap)
{
	const struct knob *k;
	int failed = 0;
	size_t i;

	for (i = 0; i < snap->n; i++) {
		k = &snap->v[i];
		if (sig_matches(k))
			continue;
		/* write_file_str() is open/write/close only: signal-safe. */
		if (write_file_str(k->abspath, k->value) && errno != ENOENT)
			sig_say("cannot write back ", k->name);
	}
	for (i = 0; i < snap->n; i++) {
		if (!sig_matches(&snap->v[i])) {
			sig_say("would not go back: ", snap->v[i].name);
			failed++;
		}
	}
	return failed;
}

static void sig_kill_child(void)
{
	pid_t pg = g_child;

	/* pg <= 1 would make kill(-pg) hit every process we may signal. */
	if (pg <= 1 || pg == getpgrp())
		return;
	kill(-pg, SIGKILL);
	/* Its huge pages are free only once it is gone. */
	while (waitpid(pg, NULL, 0) < 0 && errno == EINTR)
		;
}

static bool has_handler(const struct sigaction *sa)
{
	if (sa->sa_flags & SA_SIGINFO)
		return sa->sa_sigaction != NULL;
	return sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN;
}

/*
 * A caller that installed its own handler before settings_begin (to stop
 * gracefully: kill the workload, keep the runs done so far, then
 * settings_end) gets the first signal. Any further one, or the first when
 * there was no handler, takes the hard path: kill the child, restore, die
 * by the same signal so the parent sees how we ended.
 */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *old = NULL;
	struct sigaction dfl;
	int saved = errno;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(g_signals); i++)
		if (g_signals[i] == sig)
			old = &g_old_act[i];
	/* A forked child that has not exec'ed yet must not restore. */
	if (g_armed && getpid() == g_owner) {
		if (!g_graceful_sent && old && has_handler(old)) {
			g_graceful_sent = 1;
			if (old->sa_flags & SA_SIGINFO)
				old->sa_sigaction(sig, si, uc);
			else
				old->sa_handler(sig);
			errno = saved;
			return;
		}
		g_armed = 0;
		sig_kill_child();
		/* A failed knob keeps the journal for `thpbench restore`. */
		if (!sig_restore(&g_ctx->orig))
			unlink(g_journal);
		else
			sig_say("settings journal kept: run `thpbench restore`",
				"");
	}
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
	errno = saved;
}

/*
 * Also on disk (state_dir/child: "PGID STARTTIME"), so that after a
 * SIGKILL of the harness the next start or `thpbench restore` can end
 * the workload before putting the knobs back (its huge pages in use would
 * keep a pool from shrinking).
 */
void settings_set_child(pid_t pgid)
{
	char buf[64];
	int n;

	g_child = pgid;
	if (g_child_fd < 0 || pgid <= 0)
		return;
	n = snprintf(buf, sizeof(buf), "%d %llu\n", (int)pgid,
		     proc_start_time(pgid));
	if (ftruncate(g_child_fd, 0) || pwrite(g_child_fd, buf, (size_t)n, 0) != n)
		tb_warn("cannot record the workload's pid in %s/child: %s",
			g_ctx ? g_ctx->state_dir : "?", strerror(errno));
}

static void child_file_open(struct settings_ctx *ctx)
{
	char path[PATH_MAX], err[512];

	snprintf(path, sizeof(path), "%s/child", ctx->state_dir);
	g_child_fd = trust_open(path, O_RDWR | O_CREAT | O_TRUNC, 0644, err,
				sizeof(err));
	if (g_child_fd < 0)
		tb_warn("%s; a workload left by a killed run will not be found", err);
}

static void child_file_close(struct settings_ctx *ctx)
{
	char path[PATH_MAX];

	if (g_child_fd < 0)
		return;
	close(g_child_fd);
	g_child_fd = -1;
	snprintf(path, sizeof(path), "%s/child", ctx->state_dir);
	unlink(path);
}

/* The workload a killed run left running: end its process group. */
static void end_recorded_child(const struct settings_ctx *ctx)
{
	char path[PATH_MAX], err[512], buf[64];
	unsigned long long start;
	ssize_t n;
	int fd, pgid, killed;

	snprintf(path, sizeof(path), "%s/child", ctx->state_dir);
	fd = trust_open(path, O_RDONLY, 0, err, sizeof(err));
	if (fd < 0) {
		if (errno != ENOENT)
			tb_warn("%s", err);
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	if (sscanf(buf, "%d %llu", &pgid, &start) == 2 && pgid > 1) {
		killed = reap_group(pgid, start);
		if (killed)
			tb_warn("ended the workload left by the killed run (process group %d, %d process(es))",
				pgid, killed);
	}
	unlink(path);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(g_signals); i++)
		sigaddset(&set, g_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void settings_atexit(void)
{
	if (g_ctx && g_ctx->active && getpid() == g_owner)
		settings_end(g_ctx);
}

static void arm(struct settings_ctx *ctx)
{
	static bool atexit_done;
	struct sigaction sa;
	size_t i;

	g_ctx = ctx;
	g_owner = getpid();
	g_child = 0;
	g_graceful_sent = 0;
	snprintf(g_journal, sizeof(g_journal), "%s/journal.json",
		 ctx->state_dir);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	/* No second signal may interrupt a half-done restore. */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(g_signals); i++)
		sigaddset(&sa.sa_mask, g_signals[i]);
	g_armed = 1;
	for (i = 0; i < ARRAY_SIZE(g_signals); i++) {
		sigaction(g_signals[i], NULL, &g_old_act[i]);
		/* Ignored stays ignored: `nohup thpbench run` must survive SIGHUP. */
		if (g_old_act[i].sa_handler != SIG_IGN ||
		    (g_old_act[i].sa_flags & SA_SIGINFO))
			sigaction(g_signals[i], &sa, NULL);
	}
	if (!atexit_done && !atexit(settings_atexit))
		atexit_done = true;
	child_file_open(ctx);
}

/* Called with the signals blocked. */
static void disarm(void)
{
	size_t i;

	g_armed = 0;
	for (i = 0; i < ARRAY_SIZE(g_signals); i++)
		sigaction(g_signals[i], &g_old_act[i], NULL);
	g_ctx = NULL;
	g_child = 0;
}

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
	ctx->lock_fd = -1;
}

void settings_free(struct settings_ctx *ctx)
{
	if (ctx->active)
		settings_end(ctx);
	lock_release(ctx->lock_fd);
	snapshot_free(&ctx->orig);
	free(ctx->root);
	free(ctx->state_dir);
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
	snprintf(buf, len, "%s/lock-%llx-%llx", dir,
		 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	return 0;
}

static int take_lock(struct settings_ctx *ctx, char *err, size_t errlen)
{
	char path[PATH_MAX];
	pid_t holder;

	if (settings_lock_path(ctx->root, path, sizeof(path), err, errlen))
		return -1;
	ctx->lock_fd = lock_take(path, &holder);
	if (ctx->lock_fd >= 0)
		return 0;
	if (errno == EWOULDBLOCK && holder)
		snprintf(err, errlen,
			 "another thpbench (pid %ld) is changing huge-page settings under %s (it holds %s); wait for it to finish",
			 (long)holder, ctx->root, path);
	else if (errno == EWOULDBLOCK)
		snprintf(err, errlen,
			 "another thpbench is changing huge-page settings under %s (it holds %s); wait for it to finish",
			 ctx->root, path);
	else
		snprintf(err, errlen, "cannot lock %s: %s%s", path,
			 strerror(errno), errno == EPERM || errno == ELOOP ?
			 " (not a regular file of ours: delete it)" : "");
	return -1;
}

static void release_lock(struct settings_ctx *ctx)
{
	lock_release(ctx->lock_fd);
	ctx->lock_fd = -1;
}

/* With the lock held. 1 when a journal was found, 0 none, -1 error. */
static int restore_journal_locked(struct settings_ctx *ctx, int *restored,
				  struct journal *j, char *err, size_t errlen)
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
	for (i = 0; i < j->knobs.n; i++) {
		if (!knob_name_ok(j->knobs.v[i].name)) {
			snprintf(err, errlen,
				 "%s: knob %s is outside " THP_DIR "/ and " HUGETLB_DIR
				 "/; refusing to write it; delete the journal",
				 path, j->knobs.v[i].name);
			return -1;
		}
	}
	end_recorded_child(ctx);
	snapshot_order(&j->knobs);
	r = restore_snapshot(&j->knobs, restored);
	if (r) {
		snprintf(err, errlen,
			 "%d knob(s) from %s would not go back (listed above); fix that and run `thpbench restore` again, or delete the journal to keep the current values",
			 r, path);
		return -1;
	}
	if (unlink(path)) {
		snprintf(err, errlen, "cannot delete %s: %s", path,
			 strerror(errno));
		return -1;
	}
	return 1;
}

int settings_restore_journal(struct settings_ctx *ctx, int *restored,
			     char *err, size_t errlen)
{
	bool held = ctx->lock_fd >= 0;
	struct journal j;
	int r;

	*restored = 0;
	if (ctx->active) {
		snprintf(err, errlen,
			 "this run's own settings are in use; they are restored by settings_end");
		return -1;
	}
	/* No state dir: no journal either, and nothing to lock. */
	if (access(ctx->state_dir, F_OK) && errno == ENOENT)
		return 0;
	if (trust_dir(ctx->state_dir, false, err, errlen))
		return -1;
	if (!held && take_lock(ctx, err, errlen))
		return -1;
	r = restore_journal_locked(ctx, restored, &j, err, errlen);
	journal_free(&j);
	if (!held)
		release_lock(ctx);
	return r < 0 ? -1 : 0;
}

static void recover_crashed(struct settings_ctx *ctx, int *ret, char *err,
			    size_t errlen)
{
	char when[32] = "?";
	struct journal j;
	int restored = 0;
	time_t t;

	*ret = restore_journal_locked(ctx, &restored, &j, err, errlen);
	if (*ret > 0) {
		t = (time_t)j.start;
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S",
			 localtime(&t));
		tb_warn("thpbench pid %ld (started %s) did not end cleanly; restored %d huge-page knob(s) it had changed",
			(long)j.pid, when, restored);
	}
	journal_free(&j);
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
	if (write_journal(ctx, err, errlen)) {
		snapshot_free(&ctx->orig);
		goto fail;
	}
	ctx->active = true;
	arm(ctx);
	return 0;
fail:
	release_lock(ctx);
	return -1;
}

int settings_end(struct settings_ctx *ctx)
{
	sigset_t old;
	char path[PATH_MAX];
	int restored = 0, failed;

	if (!ctx->active)
		return 0;
	path_in(ctx, "journal.json", path, sizeof(path));
	block_signals(&old);
	if (g_ctx == ctx)
		disarm();
	child_file_close(ctx);
	failed = restore_snapshot(&ctx->orig, &restored);
	if (!failed)
		unlink(path);
	else
		tb_err("settings journal kept in %s: run `thpbench restore` once the above is fixed",
		       ctx->state_dir);
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
		if (read_value(k->abspath, cur, sizeof(cur)) || !strcmp(cur, exp))
			continue;
		n++;
		if (used < len)
			used += (size_t)snprintf(what + used, len - used,
						 "%s%s %s -> %s", n > 1 ? ", " : "",
						 k->name, exp, cur);
		if (kernel_write(k->abspath, exp))
			tb_err("cannot put %s back to %s: %s", k->name, exp,
			       strerror(errno));
	}
	return n;
}

/* ---- apply --------------------------------------------------------- */

static void pool_of(const char *name, char *buf, size_t len)
{
	const char *p = name + sizeof(HUGETLB_DIR);

	snprintf(buf, len, "%.*s", (int)strcspn(p, "/"), p);
}

static int readback_error(const char *name, const char *want,
			  const char *got, const char *choices, char *err,
			  size_t errlen)
{
	char pool[64];
	long w, g;

	if (knob_rank(name) == 2 && !parse_long(want, &w) &&
	    !parse_long(got, &g) && g < w) {
		pool_of(name, pool, sizeof(pool));
		snprintf(err, errlen,
			 "kernel provided only %ld of %ld huge pages (%s); free memory or reserve at boot",
			 g, w, pool);
	} else if (choices) {
		snprintf(err, errlen,
			 "value %s not accepted by %s (choices: %s); it stays %s",
			 want, name, choices, got);
	} else {
		snprintf(err, errlen, "%s reads back %s after writing %s",
			 name, got, want);
	}
	return -1;
}

static int check_apply(const struct settings_ctx *ctx, const char *name,
		       char *err, size_t errlen)
{
	if (!knob_name_ok(name)) {
		snprintf(err, errlen,
			 "knob \"%s\" is not under " THP_DIR "/ or " HUGETLB_DIR
			 "/ (relative to %s); thpbench changes only huge-page settings",
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
			 name, ctx->root);
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
	snprintf(path, sizeof(path), "%s/%s", ctx->root, name);
	if (!read_file_str(path, raw, sizeof(raw)) &&
	    choices_of(raw, list, sizeof(list)))
		choices = list;
	if (!*want || strpbrk(want, " \t\n") ||
	    (choices && !word_in(choices, want))) {
		snprintf(err, errlen, "value \"%s\" not accepted by %s%s%s%s",
			 want, name, choices ? " (choices: " : "",
			 choices ? choices : "", choices ? ")" : "");
		return -1;
	}
	if (kernel_write(path, want)) {
		if (errno == EINVAL)
			snprintf(err, errlen, "value %s not accepted by %s%s%s%s",
				 want, name, choices ? " (choices: " : "",
				 choices ? choices : "", choices ? ")" : "");
		else
			snprintf(err, errlen, "cannot write %s to %s: %s", want,
				 path, strerror(errno));
		return -1;
	}
	if (read_value(path, got, sizeof(got))) {
		snprintf(err, errlen, "cannot read back %s: %s", path,
			 strerror(errno));
		return -1;
	}
	if (strcmp(got, want))
		return readback_error(name, want, got, choices, err, errlen);
	return 0;
}
