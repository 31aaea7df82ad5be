// SPDX-License-Identifier: GPL-2.0-only
/*
 * res_service - a throwaway server for a case (resource.h, kind
 * "service"): redis or PostgreSQL (the recipe in opt, service_recipe.h),
 * in its own directory STATE/svc-PID-SEQ (0700, owned by the unprivileged
 * user it runs as: $THPBENCH_SERVICE_USER, default nobody), reachable
 * only by a Unix socket there (redis: no TCP port; postgres:
 * listen_addresses empty), its data thrown away with the directory.
 *
 *   path  the directory          dev  the socket (redis: path/redis.sock;
 *   opt   the recipe                  postgres: the socket directory, path)
 *   num   the server's pid       size its start time (proc_start_time)
 *
 * Journalled before it starts: the directory is journalled before it is
 * made; the server is forked, and waits on a pipe until its pid and start
 * time are in the journal, then execs. So a crash at any point leaves a
 * journal naming the directory and any server there is. A postgres
 * cluster is made by initdb first (a child that ends by itself). The
 * child closes every descriptor of ours (the settings lock among them:
 * a server outliving a killed harness must not hold it).
 *
 * Undo (system calls only): the server, if the pid still names the
 * process that started then (pid + start time, reap.h), is asked to stop
 * (redis SIGTERM, postgres SIGQUIT: immediate shutdown, its backends
 * with it), SIGKILLed after 3 s, then the directory removed
 * (getdents64/unlinkat, no symlink followed, no mount crossed). Ours
 * only when path is STATE/svc-* and dev inside it.
 *
 * The server is a child of ours that lives across repetitions: it is
 * kept from reap_leftovers (reap_keep).
 */
#include "resource.h"
#include "reap.h"
#include "service_recipe.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY_NAPS 1500		/* x 20 ms: 30 s for a server to answer */
#define STOP_NAPS 150		/* 3 s to stop before SIGKILL */

static int seq;

struct svc_user {
	uid_t uid;
	gid_t gid;
	char name[64];
};

static int find_user(struct svc_user *u, char *err, size_t errlen)
{
	const char *name = getenv("THPBENCH_SERVICE_USER");
	struct passwd *pw;

	if (!name || !*name)
		name = "nobody";
	pw = getpwnam(name);
	if (!pw || !pw->pw_uid) {
		snprintf(err, errlen, "service: user \"%.32s\" %s (THPBENCH_SERVICE_USER names an unprivileged user to run it as)",
			 name, pw ? "is root" : "does not exist");
		return -1;
	}
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	snprintf(u->name, sizeof(u->name), "%s", name);
	return 0;
}

/* PostgreSQL's programs: $THPBENCH_PG_BINDIR, Debian's newest
 * /usr/lib/postgresql/N/bin, else the PATH ("" ). */
static void pg_bindir(char *out, size_t len)
{
	const char *env = getenv("THPBENCH_PG_BINDIR");
	glob_t g;

	out[0] = '\0';
	if (env && *env) {
		snprintf(out, len, "%s/", env);
		return;
	}
	if (!glob("/usr/lib/postgresql/*/bin/postgres", 0, NULL, &g) &&
	    g.gl_pathc) {
		/* Sorted: the last is the newest of one-digit-width versions. */
		snprintf(out, len, "%.*s", (int)(strlen(g.gl_pathv[g.gl_pathc - 1]) -
			 strlen("postgres")), g.gl_pathv[g.gl_pathc - 1]);
	}
	globfree(&g);
}

/*
 * The child: its own session, the user's ids, the directory, output to
 * log, nothing of ours open; waits for a byte on gate (-1: none) before
 * it execs argv; errors go to errfd as an errno.
 */
static void child(const struct svc_user *u, const char *dir, const char *log,
		  int gate, int errfd, char *const argv[])
{
	bool gated = gate >= 0;
	int e, fd;
	char c;

	/* Above 4 first: gate or errfd may be 3 or 4 themselves. */
	gate = fcntl(gate >= 0 ? gate : errfd, F_DUPFD, 10);
	errfd = fcntl(errfd, F_DUPFD, 10);
	if (gate < 0 || errfd < 0 || dup2(gate, 3) < 0 || dup2(errfd, 4) < 0)
		_exit(127);
	close_range(5, ~0U, 0);
	setsid();
	if (setgroups(0, NULL) || setgid(u->gid) || setuid(u->uid) ||
	    chdir(dir))
		goto fail;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0)
		goto fail;
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		dup2(fd, STDIN_FILENO);
	if (gated && read(3, &c, 1) != 1)
		_exit(126);	/* the harness died before journalling us */
	if (fcntl(4, F_SETFD, FD_CLOEXEC) < 0)
		goto fail;
	close(3);
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(4, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* The last line of log, for an error message. */
static void log_tail(const char *log, char *out, size_t len)
{
	size_t n = 0;
	char *text = read_whole_file(log, &n), *p;

	out[0] = '\0';
	if (!text)
		return;
	while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
		text[--n] = '\0';
	/* postgres ends with "shut down": its FATAL line says why. */
	p = strstr(text, "FATAL:");
	if (p) {
		snprintf(out, len, "%.*s", (int)strcspn(p, "\n") > 200 ? 200 :
			 (int)strcspn(p, "\n"), p);
		free(text);
		return;
	}
	p = strrchr(text, '\n');
	snprintf(out, len, "%.200s", p ? p + 1 : text);
	free(text);
}

/* Fork argv as u; with gate, journal its pid first. The pid, or -1. */
static pid_t spawn(struct res *r, const struct svc_user *u, const char *log,
		   char *const argv[], bool journal, int (*sync)(void *),
		   void *arg, char *err, size_t errlen)
{
	int gate[2] = { -1, -1 }, ep[2], e = 0;
	pid_t pid;
	char c = 'g';

	if (pipe2(ep, O_CLOEXEC) || (journal && pipe2(gate, O_CLOEXEC))) {
		snprintf(err, errlen, "service: pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "service: fork: %s", strerror(errno));
		return -1;
	}
	if (!pid)
		child(u, r->path, log, gate[0], ep[1], argv);
	close(ep[1]);
	if (journal) {
		close(gate[0]);
		r->num = pid;
		r->size = (long long)proc_start_time(pid);
		if (!r->size || sync(arg)) {
			close(gate[1]);	/* the child exits: nothing started */
			waitpid(pid, NULL, 0);
			r->num = -1;
			close(ep[0]);
			snprintf(err, errlen, "service: cannot journal the %s server",
				 argv[0]);
			return -1;
		}
		reap_keep(pid);
		if (write(gate[1], &c, 1) != 1)
			e = errno;
		close(gate[1]);
	}
	if (read(ep[0], &e, sizeof(e)) == (ssize_t)sizeof(e) || e) {
		close(ep[0]);
		snprintf(err, errlen, "service: cannot run %s as %s in %s: %s",
			 argv[0], u->name, r->path, strerror(e));
		return -1;
	}
	close(ep[0]);
	return pid;
}

static bool sock_answers(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (fd < 0)
		return false;
	if (strlen(path) >= sizeof(a.sun_path)) {
		close(fd);
		return false;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	ok = !connect(fd, (struct sockaddr *)&a, sizeof(a));
	close(fd);
	return ok;
}

/* postmaster.pid's eighth line is "ready" once it takes connections. */
static bool pg_ready(const char *path)
{
	char p[RES_PATH + 32];
	size_t n = 0;
	char *text, *l;
	int i;

	snprintf(p, sizeof(p), "%s/data/postmaster.pid", path);
	text = read_whole_file(p, &n);
	if (!text)
		return false;
	for (l = text, i = 1; l && i < 8; i++) {
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	i = l && !strncmp(l, "ready", 5);
	free(text);
	return i;
}

static int wait_ready(struct res *r, const struct svc_recipe *rc,
		      const char *log, char *err, size_t errlen)
{
	char sock[RES_PATH + 32], tail[256];
	int i;

	if (rc->prog == SVC_POSTGRES)
		snprintf(sock, sizeof(sock), "%s/.s.PGSQL.5432", r->path);
	else
		snprintf(sock, sizeof(sock), "%s", r->dev);
	for (i = 0; i < READY_NAPS; i++) {
		if (!proc_alive(r->num, (unsigned long long)r->size))
			break;
		if (sock_answers(sock) &&
		    (rc->prog != SVC_POSTGRES || pg_ready(r->path)))
			return 0;
		res_nap();
	}
	log_tail(log, tail, sizeof(tail));
	snprintf(err, errlen, "service: %s %s (%s): %s", svc_prog_name(rc->prog),
		 i == READY_NAPS ? "did not answer on its socket in 30 s" :
		 "exited before it answered", r->opt, *tail ? tail : "no output");
	return -1;
}

static int pg_initdb(struct res *r, const struct svc_user *u,
		     const char *bindir, char *err, size_t errlen)
{
	char prog[RES_PATH + 16], data[RES_PATH + 8], log[RES_PATH + 16], tail[256];
	char *argv[] = { prog, "-D", data, "-U", "thpbench", "-A", "trust",
			 "-E", "UTF8", "--locale=C", "--no-sync", NULL };
	pid_t pid;
	int st;

	snprintf(prog, sizeof(prog), "%sinitdb", bindir);
	snprintf(data, sizeof(data), "%s/data", r->path);
	snprintf(log, sizeof(log), "%s/initdb.log", r->path);
	/* Not journalled by pid: initdb ends by itself; its directory is. */
	pid = spawn(r, u, log, argv, false, NULL, NULL, err, errlen);
	if (pid < 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	log_tail(log, tail, sizeof(tail));
	snprintf(err, errlen, "service: initdb failed in %s: %s", data,
		 *tail ? tail : "no output");
	return -1;
}

static int start_redis(struct res *r, const struct svc_user *u,
		       int (*sync)(void *), void *arg, char *err, size_t errlen)
{
	char log[RES_PATH + 16];
	/*
	 * No TCP, no snapshots but the BGSAVE asked for, and disable-thp no:
	 * redis >= 6.2 turns THP off for itself (prctl) by default, which
	 * would make the THP A/B measure nothing.
	 */
	char *argv[] = { "redis-server", "--port", "0", "--unixsocket", r->dev,
			 "--unixsocketperm", "700", "--dir", r->path,
			 "--save", "", "--appendonly", "no", "--daemonize", "no",
			 "--disable-thp", "no", NULL };

	snprintf(log, sizeof(log), "%s/server.log", r->path);
	return spawn(r, u, log, argv, true, sync, arg, err, errlen) < 0 ? -1 : 0;
}

static int start_postgres(struct res *r, const struct svc_recipe *rc,
			  const struct svc_user *u, int (*sync)(void *),
			  void *arg, char *err, size_t errlen)
{
	char bindir[RES_PATH], prog[RES_PATH + 16], data[RES_PATH + 8];
	char log[RES_PATH + 16], hp[32], sb[48], sock[RES_PATH + 32];
	char *argv[] = { prog, "-D", data, "-k", r->path,
			 "-c", "listen_addresses=", "-c", hp, "-c", sb,
			 /* Throwaway data: the disk is not what is measured. */
			 "-c", "fsync=off", "-c", "synchronous_commit=off",
			 "-c", "full_page_writes=off",
			 "-c", "unix_socket_permissions=0700", NULL };

	snprintf(sock, sizeof(sock), "%s/.s.PGSQL.5432", r->path);
	if (strlen(sock) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		snprintf(err, errlen, "service: %s is too long for a Unix socket (108 bytes): set a shorter THPBENCH_STATE_DIR",
			 sock);
		return -1;
	}
	pg_bindir(bindir, sizeof(bindir));
	if (pg_initdb(r, u, bindir, err, errlen))
		return -1;
	snprintf(prog, sizeof(prog), "%spostgres", bindir);
	snprintf(data, sizeof(data), "%s/data", r->path);
	snprintf(log, sizeof(log), "%s/server.log", r->path);
	snprintf(hp, sizeof(hp), "huge_pages=%s", svc_huge_name(rc->huge_pages));
	snprintf(sb, sizeof(sb), "shared_buffers=%llukB",
		 (unsigned long long)(rc->shared_buffers >> 10));
	return spawn(r, u, log, argv, true, sync, arg, err, errlen) < 0 ? -1 : 0;
}

static int service_make(struct res *r, const struct res_env *e,
			int (*sync)(void *), void *arg, char *err, size_t errlen)
{
	struct svc_recipe rc;
	struct svc_user u;
	char log[RES_PATH + 16];
	char why[256];

	r->num = -1;
	r->size = 0;
	if (svc_recipe_parse(r->opt, &rc, why, sizeof(why))) {
		snprintf(err, errlen, "service: %s", why);
		return -1;
	}
	if (find_user(&u, err, errlen))
		return -1;
	snprintf(r->path, sizeof(r->path), "%.160s/svc-%d-%d", e->state_dir,
		 (int)getpid(), ++seq);
	if (rc.prog == SVC_REDIS)
		snprintf(r->dev, sizeof(r->dev), "%.200s/redis.sock", r->path);
	else
		snprintf(r->dev, sizeof(r->dev), "%s", r->path);
	if (strlen(r->dev) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		snprintf(err, errlen, "service: %s is too long for a Unix socket (108 bytes): set a shorter THPBENCH_STATE_DIR",
			 r->dev);
		return -1;
	}
	if (sync(arg)) {
		snprintf(err, errlen, "service: cannot journal %s", r->path);
		return -1;
	}
	if (mkdir(r->path, 0700) || chown(r->path, u.uid, u.gid)) {
		snprintf(err, errlen, "service: %s: %s", r->path, strerror(errno));
		return -1;
	}
	if (rc.prog == SVC_REDIS ? start_redis(r, &u, sync, arg, err, errlen) :
	    start_postgres(r, &rc, &u, sync, arg, err, errlen))
		return -1;
	snprintf(log, sizeof(log), "%s/server.log", r->path);
	return wait_ready(r, &rc, log, err, errlen);
}

/* ---- undo: system calls only ---------------------------------------- */

/* Remove name under dfd and all below it; no symlink followed, no
 * other filesystem entered. 0, or -1 when something stays. */
static int rm_at(int dfd, const char *name, dev_t dev, int depth)
{
	char buf[4096];
	struct stat st;
	ssize_t n, off;
	int fd, rc = 0, pass, any;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0) && errno != ENOENT ? -1 : 0;
	if (depth > 16 || (dev && st.st_dev != dev))
		return -1;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* Entries removed while read may be skipped: read again until none. */
	for (pass = 0, any = 1; any && pass < 8; pass++) {
		any = 0;
		lseek(fd, 0, SEEK_SET);
		while ((n = getdents64(fd, buf, sizeof(buf))) > 0)
			for (off = 0; off < n;) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);

				off += d->d_reclen;
				if (!strcmp(d->d_name, ".") ||
				    !strcmp(d->d_name, ".."))
					continue;
				any = 1;
				if (rm_at(fd, d->d_name, st.st_dev, depth + 1))
					rc = -1;
			}
		if (rc)
			break;
	}
	close(fd);
	if (unlinkat(dfd, name, AT_REMOVEDIR) && errno != ENOENT)
		return -1;
	return rc;
}

static bool gone_after(const struct res *r, int naps)
{
	int i;

	for (i = 0; i < naps; i++) {
		waitpid(r->num, NULL, WNOHANG);	/* ours: not a zombie */
		if (!proc_alive(r->num, (unsigned long long)r->size))
			return true;
		res_nap();
	}
	return false;
}

static int service_undo(const struct res *r, const struct res_env *e)
{
	int sig = !strncmp(r->opt, "postgres", 8) ? SIGQUIT : SIGTERM;

	(void)e;
	if (r->num > 1 && r->size > 0 &&
	    proc_alive(r->num, (unsigned long long)r->size)) {
		kill(r->num, sig);
		if (!gone_after(r, STOP_NAPS)) {
			kill(r->num, SIGKILL);
			if (!gone_after(r, STOP_NAPS))
				return -1;
		}
	}
	if (r->num > 1)
		reap_unkeep(r->num);
	if (*r->path && rm_at(AT_FDCWD, r->path, 0, 0))
		return -1;
	return 0;
}

static int service_owned(const struct res *r, const struct res_env *e,
			 char *why, size_t len)
{
	size_t n = strlen(r->path);

	if (!res_under(r->path, e->state_dir, "svc-")) {
		snprintf(why, len, "%s is not %s/svc-*", r->path, e->state_dir);
		return 0;
	}
	if (*r->dev && strcmp(r->dev, r->path) &&
	    (strncmp(r->dev, r->path, n) || r->dev[n] != '/' ||
	     strchr(r->dev + n + 1, '/'))) {
		snprintf(why, len, "socket %s is not in %s", r->dev, r->path);
		return 0;
	}
	if (r->num == 0 || r->num == 1 || r->num < -1 || r->size < 0) {
		snprintf(why, len, "pid %d (started %lld) is no server of ours",
			 r->num, r->size);
		return 0;
	}
	return 1;
}

const struct res_kind res_kind_service = {
	.name = "service",
	.make = service_make,
	.undo = service_undo,
	.owned = service_owned,
};
