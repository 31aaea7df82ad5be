// SPDX-License-Identifier: GPL-2.0-only
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perf_script.h"
#include "util/util.h"

#define ACK_MS 5000
#define STOP_MS 30000

extern char **environ;

int profile_mode_parse(const char *s)
{
	if (!strcmp(s, "task"))
		return PROFILE_TASK;
	if (!strcmp(s, "system"))
		return PROFILE_SYSTEM;
	if (!strcmp(s, "off"))
		return PROFILE_OFF;
	return -1;
}

const char *profile_mode_name(enum profile_mode m)
{
	return m == PROFILE_TASK ? "task" : m == PROFILE_SYSTEM ? "system" : "off";
}

const char *profile_event(void)
{
	static const char *ev;
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(a),
		.config = PERF_COUNT_HW_CPU_CYCLES, .sample_period = 1000000,
		.disabled = 1, .exclude_hv = 1,
	};
	long fd;

	if (ev)
		return ev;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	ev = fd >= 0 ? "cycles" : "cpu-clock";
	if (fd >= 0)
		close((int)fd);
	return ev;
}

const char *profile_kallsyms(const char *given, char *buf, size_t len)
{
	struct stat st;
	struct utsname u;

	if (!given || !*given)
		return NULL;
	if (stat(given, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (uname(&u) ||
		    (size_t)snprintf(buf, len, "%s/System.map-%s", given, u.release) >= len)
			return NULL;
	} else {
		snprintf(buf, len, "%s", given);
	}
	if (access(buf, R_OK)) {
		tb_warn("profile: THPBENCH_KALLSYMS: %s cannot be read (%s): kernel symbols from /proc/kallsyms",
			buf, strerror(errno));
		return NULL;
	}
	return buf;
}

const char *profile_perf(const struct profile_spec *spec)
{
	const char *e = getenv("THPBENCH_PERF");

	if (spec->perf)
		return spec->perf;
	return e && *e ? e : "perf";
}

static int wait_ack(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[64];
	ssize_t n;
	double end = now_usec() + ms * 1000.0;

	while (now_usec() < end) {
		if (poll(&p, 1, (int)((end - now_usec()) / 1000) + 1) <= 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		if (n <= 0)
			return -1;
		buf[n] = '\0';
		if (memmem(buf, (size_t)n, "ack", 3))
			return 0;
	}
	return -1;
}

static void send_cmd(struct profiler *pf, const char *cmd)
{
	size_t len = strlen(cmd);

	if (write(pf->ctl, cmd, len) != (ssize_t)len)
		tb_warn("profile: perf's control fd took no \"%.*s\": %s",
			(int)strcspn(cmd, "\n"), cmd, strerror(errno));
}

static void build_argv(const struct profile_spec *spec, pid_t target,
		       const char *data, char **argv, char *pidbuf, size_t len,
		       char *freqbuf, size_t flen)
{
	size_t n = 0;

	snprintf(freqbuf, flen, "%ld", spec->freq ? spec->freq : PROFILE_FREQ);

	argv[n++] = (char *)profile_perf(spec);
	argv[n++] = "record";
	argv[n++] = "-q";
	argv[n++] = "-e";
	argv[n++] = (char *)profile_event();
	argv[n++] = "-F";
	argv[n++] = freqbuf;
	argv[n++] = "-g";
	argv[n++] = "-D";
	argv[n++] = "-1";
	argv[n++] = "--control";
	argv[n++] = "fd:3,4";
	argv[n++] = "-o";
	argv[n++] = (char *)data;
	if (spec->mode == PROFILE_SYSTEM) {
		argv[n++] = "-a";
	} else {
		snprintf(pidbuf, len, "%d", (int)target);
		argv[n++] = "-p";
		argv[n++] = pidbuf;
	}
	argv[n] = NULL;
}

static void close_pf(struct profiler *pf)
{
	if (pf->ctl >= 0)
		close(pf->ctl);
	if (pf->ack >= 0)
		close(pf->ack);
	pf->ctl = pf->ack = -1;
}

/*
 * posix_spawn, not spawn_blocked(): the workload is a spawn_blocked child
 * still waiting on its pipe (on spawn's one child stack) while perf starts.
 */
static pid_t spawn_perf(char **argv, int ctl, int ack, int logfd)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc;

	posix_spawn_file_actions_init(&fa);
	if (logfd >= 0) {
		posix_spawn_file_actions_adddup2(&fa, logfd, 1);
		posix_spawn_file_actions_adddup2(&fa, logfd, 2);
	}
	posix_spawn_file_actions_adddup2(&fa, ctl, 3);
	posix_spawn_file_actions_adddup2(&fa, ack, 4);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		errno = rc;
		return -1;
	}
	return pid;
}

int profiler_start(struct profiler *pf, const struct profile_spec *spec,
		   pid_t target, const char *base, char *err, size_t errlen)
{
	char data[4096 + 8], pidbuf[24], freqbuf[24], logp[4096 + 8];
	char *argv[24];
	int ctl[2], ack[2], logfd;

	memset(pf, 0, sizeof(*pf));
	pf->ctl = pf->ack = -1;
	snprintf(pf->base, sizeof(pf->base), "%s", base);
	snprintf(data, sizeof(data), "%s.data", base);
	snprintf(logp, sizeof(logp), "%s.log", base);
	if (pipe2(ctl, O_CLOEXEC))
		goto nopipe;
	if (pipe2(ack, O_CLOEXEC)) {
		close(ctl[0]);
		close(ctl[1]);
		goto nopipe;
	}
	logfd = open(logp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	build_argv(spec, target, data, argv, pidbuf, sizeof(pidbuf), freqbuf,
		   sizeof(freqbuf));
	pf->pid = spawn_perf(argv, ctl[0], ack[1], logfd);
	close(ctl[0]);
	close(ack[1]);
	if (logfd >= 0)
		close(logfd);
	pf->ctl = ctl[1];
	pf->ack = ack[0];
	if (pf->pid < 0) {
		snprintf(err, errlen, "cannot start %s: %s", argv[0],
			 strerror(errno));
		close_pf(pf);
		return -1;
	}
	send_cmd(pf, "ping\n");
	if (wait_ack(pf->ack, ACK_MS * 2)) {
		snprintf(err, errlen, "%s record did not answer on its control fd (see %s)",
			 argv[0], logp);
		kill(pf->pid, SIGKILL);
		waitpid(pf->pid, NULL, 0);
		close_pf(pf);
		return -1;
	}
	pf->on = true;
	return 0;
nopipe:
	snprintf(err, errlen, "cannot create pipes for perf: %s", strerror(errno));
	return -1;
}

void profiler_cmd(struct profiler *pf, const char *cmd)
{
	char line[32];

	if (!pf->on)
		return;
	snprintf(line, sizeof(line), "%s\n", cmd);
	send_cmd(pf, line);
	if (wait_ack(pf->ack, ACK_MS))
		tb_warn("profile: perf did not ack \"%s\"", cmd);
	if (!strcmp(cmd, "enable"))
		pf->enabled_once = true;
}

void profiler_stop(struct profiler *pf)
{
	double end = now_usec() + STOP_MS * 1000.0;
	int st;

	if (!pf->on || pf->stopped)
		return;
	kill(pf->pid, SIGINT);
	while (waitpid(pf->pid, &st, WNOHANG) == 0) {
		if (now_usec() > end) {
			tb_warn("profile: perf record did not stop; killed it");
			kill(pf->pid, SIGKILL);
			waitpid(pf->pid, &st, 0);
			break;
		}
		usleep(10000);
	}
	close_pf(pf);
	pf->stopped = true;
}

/* perf script's output on a pipe, read by perf_script_read(). */
static int run_script(const struct profile_spec *spec, const char *data,
		      struct prof_data *pd)
{
	char *argv[16];
	posix_spawn_file_actions_t fa;
	int p[2], st, rc, n = 0;
	pid_t pid;
	FILE *f;

	argv[n++] = (char *)profile_perf(spec);
	argv[n++] = "script";
	argv[n++] = "-i";
	argv[n++] = (char *)data;
	argv[n++] = "-F";
	argv[n++] = "comm,tid,ip,sym,dso";
	if (spec->kallsyms) {
		argv[n++] = "--kallsyms";
		argv[n++] = (char *)spec->kallsyms;
	}
	argv[n] = NULL;
	if (pipe2(p, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (rc) {
		close(p[0]);
		errno = rc;
		return -1;
	}
	f = fdopen(p[0], "r");
	if (!f) {
		close(p[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	rc = perf_script_read(f, pd);
	fclose(f);
	waitpid(pid, &st, 0);
	return rc || !WIFEXITED(st) || WEXITSTATUS(st) ? -1 : 0;
}

static void write_folded(const struct prof_data *pd, const char *base)
{
	char path[4096 + 8];
	FILE *f;

	snprintf(path, sizeof(path), "%s.folded", base);
	f = fopen(path, "we");
	if (!f || prof_write_folded(pd, f))
		tb_warn("profile: cannot write %s: %s", path, strerror(errno));
	if (f)
		fclose(f);
}

void profiler_finish(struct profiler *pf, const struct profile_spec *spec,
		     struct metric_set *ms)
{
	struct prof_data pd = { 0 };
	char data[4096 + 8];

	if (!pf->on)
		return;
	if (!pf->stopped)
		profiler_stop(pf);
	pf->on = false;
	snprintf(data, sizeof(data), "%s.data", pf->base);
	if (!pf->enabled_once) {
		tb_warn("profile: the workload never enabled its region of interest: nothing profiled");
		metric_set_put(ms, "prof.samples", 0);
	} else if (run_script(spec, data, &pd)) {
		tb_warn("profile: %s script -i %s failed; no profile for this repetition",
			profile_perf(spec), data);
	} else {
		if (pd.bad_lines)
			tb_warn("profile: %lu line(s) of perf script output not understood, skipped",
				pd.bad_lines);
		prof_to_metrics(&pd, ms, spec->floor_pct, spec->max_fns);
		write_folded(&pd, pf->base);
	}
	prof_data_free(&pd);
	if (!spec->keep_data)
		unlink(data);
}

json_t *profile_meta(const struct profile_spec *spec)
{
	return json_pack("{s:s, s:s, s:I, s:s, s:s}", "mode",
			 profile_mode_name(spec->mode), "event", profile_event(),
			 "freq", (json_int_t)(spec->freq ? spec->freq : PROFILE_FREQ),
			 "perf", profile_perf(spec), "kallsyms",
			 spec->kallsyms ? spec->kallsyms : "/proc/kallsyms");
}

static bool profiled(const struct tb_run *run)
{
	const struct metric *m = metric_set_find(&run->metrics, "prof.samples");

	return m && m->value > 0;
}

static void fill_case(struct tb_case *c)
{
	size_t i, j, k;
	const char *name;

	for (i = 0; i < c->nruns; i++) {
		if (!profiled(&c->runs[i]))
			continue;
		for (j = 0; j < c->runs[i].metrics.n; j++) {
			name = c->runs[i].metrics.v[j].name;
			if (!prof_is_metric(name) || !strcmp(name, "prof.samples"))
				continue;
			for (k = 0; k < c->nruns; k++)
				if (k != i && profiled(&c->runs[k]) &&
				    !metric_set_find(&c->runs[k].metrics, name))
					metric_set_put(&c->runs[k].metrics, name, 0);
		}
	}
}

void profile_fill_cases(struct tb_results *r)
{
	size_t i;

	for (i = 0; i < r->ncases; i++)
		fill_case(&r->cases[i]);
}
