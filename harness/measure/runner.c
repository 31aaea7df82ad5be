// SPDX-License-Identifier: GPL-2.0-only
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "counters.h"
#include "err_tail.h"
#include "system/reap.h"
#include "spawn.h"
#include "sysstate.h"
#include "tlb_profile.h"
#include "util/util.h"
#include "vmstat.h"

static volatile sig_atomic_t abort_requested;

void runner_abort(void)
{
	abort_requested = 1;
}

struct pipes {
	int go[2], ctl[2], ack[2], met[2], out2[2];
};

struct line_buf {
	char *buf;
	size_t len, cap;
};

struct live {
	pid_t pid;
	int pidfd;
	struct pipes p;
	struct counter_set cs;
	struct line_buf ctl, met;
	struct err_tail stderr_tail;	/* the workload's fd 2 */
	struct profiler pf;		/* pf.on: perf records the ROI */
	double anon_huge_kb, hugetlb_kb;
	bool roi, timed_out, smaps_seen;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int open_pipes(struct pipes *p)
{
	int *all[] = { p->ctl, p->ack, p->met, p->go, p->out2 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(all); i++)
		all[i][0] = all[i][1] = -1;
	for (i = 0; i < ARRAY_SIZE(all); i++)
		if (pipe2(all[i], O_CLOEXEC))
			return -1;
	return 0;
}

static void close_pipes(struct pipes *p)
{
	int *all[] = { p->go, p->ctl, p->ack, p->met, p->out2 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		close_fd(&all[i][0]);
		close_fd(&all[i][1]);
	}
}

/* Start the child blocked on the go pipe, with the protocol fds named in
 * its environment. */
/*
 * The errno of the child's failed exec (spawn.h): static, as the child
 * could still be writing after a runner_run whose wait failed returned.
 */
static int exec_errno;

/* The child's protocol fds: ctl, ack, metric (low: dash redirects 0-9). */
#define KEEP_AT 3

static pid_t start_child(const struct run_spec *spec, struct pipes *p,
			 char **path, char ***envp, unsigned long long *start,
			 int *pidfd)
{
	/*
	 * The child reads all of this, from our memory, until it execs, after
	 * we have returned: static, and one child at a time.
	 */
	static char ctl[32], ack[32], met[40];
	static int keep[3], parent_ends[5];
	static struct spawn_req req;
	char **extra = xcalloc(spec->nenv + 3, sizeof(char *));

	keep[0] = p->ctl[1];
	keep[1] = p->ack[0];
	keep[2] = p->met[1];
	parent_ends[0] = p->go[1];
	parent_ends[1] = p->ctl[0];
	parent_ends[2] = p->ack[1];
	parent_ends[3] = p->met[0];
	parent_ends[4] = p->out2[0];

	/* In the child they are fds 3, 4 and 5 (spawn.h: keep_at). */
	snprintf(ctl, sizeof(ctl), "PERF_CTL_FD=%d", KEEP_AT);
	snprintf(ack, sizeof(ack), "PERF_ACK_FD=%d", KEEP_AT + 1);
	snprintf(met, sizeof(met), "THPBENCH_METRIC_FD=%d", KEEP_AT + 2);
	extra[0] = ctl;
	extra[1] = ack;
	extra[2] = met;
	if (spec->nenv)
		memcpy(extra + 3, spec->env_extra, spec->nenv * sizeof(char *));
	*envp = spawn_env(extra, spec->nenv + 3);
	free(extra);
	*path = spawn_find(spec->path);
	req = (struct spawn_req){
		.path = *path, .argv = spec->argv, .envp = *envp,
		.go_fd = p->go[0], .exec_errno = &exec_errno,
		.out_fd = spec->out_fd,
		.stderr_fd = p->out2[1],
		.keep = keep, .nkeep = ARRAY_SIZE(keep), .keep_at = KEEP_AT,
		.close = parent_ends, .nclose = ARRAY_SIZE(parent_ends),
	};
	return spawn_blocked(&req, start, pidfd);
}

static void line_append(struct line_buf *lb, const char *data, size_t n)
{
	if (lb->len + n + 1 > lb->cap) {
		lb->cap = (lb->len + n + 1) * 2;
		lb->buf = xrealloc(lb->buf, lb->cap);
	}
	memcpy(lb->buf + lb->len, data, n);
	lb->len += n;
	lb->buf[lb->len] = '\0';
}

/* Pop one complete line (without '\n') into out; false when none. */
static bool line_pop(struct line_buf *lb, char *out, size_t outlen)
{
	char *nl = lb->buf ? memchr(lb->buf, '\n', lb->len) : NULL;
	size_t n;

	if (!nl)
		return false;
	n = (size_t)(nl - lb->buf);
	snprintf(out, outlen, "%.*s", (int)n, lb->buf);
	memmove(lb->buf, nl + 1, lb->len - n - 1);
	lb->len -= n + 1;
	lb->buf[lb->len] = '\0';
	return true;
}

static double smaps_field(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtod(p + strlen(key), NULL) : 0;
}

static void sample_smaps(struct live *lv)
{
	char path[64], buf[4096];
	double anon, htlb;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)lv->pid);
	if (read_file_str(path, buf, sizeof(buf)))
		return;
	lv->smaps_seen = true;
	anon = smaps_field(buf, "\nAnonHugePages:");
	htlb = smaps_field(buf, "\nShared_Hugetlb:") +
	       smaps_field(buf, "\nPrivate_Hugetlb:");
	if (anon > lv->anon_huge_kb)
		lv->anon_huge_kb = anon;
	if (htlb > lv->hugetlb_kb)
		lv->hugetlb_kb = htlb;
}

static void ack(struct live *lv)
{
	if (write(lv->p.ack[1], "ack\n", 4) < 0 && errno != EPIPE)
		tb_warn("cannot answer the workload's control fd: %s",
			strerror(errno));
}

static void serve_control(struct live *lv)
{
	char line[64];

	while (line_pop(&lv->ctl, line, sizeof(line))) {
		if (!strcmp(line, "enable")) {
			counters_roi_begin(&lv->cs);
			profiler_cmd(&lv->pf, "enable");
			lv->roi = true;
		} else if (!strcmp(line, "disable")) {
			profiler_cmd(&lv->pf, "disable");
			counters_roi_end(&lv->cs);
			sample_smaps(lv);
		}
		/* perf acks what it understands; we ack all so no workload hangs. */
		ack(lv);
	}
}

static void drain(int *fd, struct line_buf *lb)
{
	char buf[4096];
	ssize_t n;

	if (*fd < 0)
		return;
	n = read(*fd, buf, sizeof(buf));
	if (n > 0)
		line_append(lb, buf, (size_t)n);
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		close_fd(fd);
}

static bool child_gone(struct live *lv, short pidfd_revents)
{
	siginfo_t si;

	if (lv->pidfd >= 0)
		return pidfd_revents & POLLIN;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, lv->pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return true;
	return si.si_pid == lv->pid;
}

static void kill_child(struct live *lv)
{
	kill(-lv->pid, SIGKILL);
	kill(lv->pid, SIGKILL);
}

/* Into the case's memcg (case_res.h) before exec, so everything the
 * workload maps is charged there. */
static int move_to_cgroup(const char *dir, pid_t pid)
{
	char path[4096], num[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(num, sizeof(num), "%d", (int)pid);
	if (write_file_str(path, num)) {
		tb_err("cannot move the workload into %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Serve the control and metric pipes until the child exits. */
static void supervise(struct live *lv, double timeout_s, double t0)
{
	struct pollfd pfd[4];
	double deadline = timeout_s > 0 ? t0 + timeout_s * 1e6 : 0;
	int wait_ms;

	for (;;) {
		pfd[0] = (struct pollfd){ .fd = lv->pidfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = lv->p.ctl[0], .events = POLLIN };
		pfd[2] = (struct pollfd){ .fd = lv->p.met[0], .events = POLLIN };
		pfd[3] = (struct pollfd){ .fd = lv->p.out2[0], .events = POLLIN };
		wait_ms = lv->pidfd >= 0 ? 200 : 10;
		if (poll(pfd, 4, wait_ms) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			drain(&lv->p.ctl[0], &lv->ctl);
		if (pfd[2].revents)
			drain(&lv->p.met[0], &lv->met);
		if (pfd[3].revents &&
		    !err_tail_pump(&lv->stderr_tail, lv->p.out2[0]))
			close_fd(&lv->p.out2[0]);
		serve_control(lv);
		if (child_gone(lv, pfd[0].revents))
			break;
		if (abort_requested || (deadline && now_usec() > deadline)) {
			lv->timed_out = !abort_requested;
			kill_child(lv);
		}
	}
	close_fd(&lv->p.ack[1]);
}

/*
 * What the workload wrote just before exiting is still in the pipe. Called
 * once its leftovers are dead: nobody holds the write end any more, but a
 * process that would not die could, so this stops at EAGAIN, never waits.
 */
static void drain_rest(struct live *lv)
{
	size_t total = 0;
	char buf[4096];
	ssize_t n;

	while (lv->p.met[0] >= 0 && total < (1u << 24)) {
		n = read(lv->p.met[0], buf, sizeof(buf));
		if (n > 0) {
			line_append(&lv->met, buf, (size_t)n);
			total += (size_t)n;
		} else if (n == 0 || errno != EINTR) {
			close_fd(&lv->p.met[0]);
		}
	}
	if (lv->p.out2[0] >= 0)
		err_tail_pump(&lv->stderr_tail, lv->p.out2[0]);
}

static void store_workload_metrics(struct live *lv, struct tb_run *run)
{
	char line[256], name[128];
	double v;
	int used;

	while (line_pop(&lv->met, line, sizeof(line))) {
		if (sscanf(line, "%127s %lf%n", name, &v, &used) != 2 ||
		    line[used + strspn(line + used, " \t")]) {
			tb_warn("ignoring malformed metric line from the workload: \"%s\"",
				line);
			continue;
		}
		metric_set_put(&run->metrics, name, v);
	}
}

static void store_counters(struct live *lv, struct tb_run *run)
{
	const char *why;
	double v, share;
	size_t i;

	counters_read(&lv->cs);
	for (i = 0; i < lv->cs.n; i++) {
		const struct counter *c = &lv->cs.c[i];

		if (counter_value(c, &v, &share, &why)) {
			metric_set_put(&run->metrics, c->ev->name, v);
			metric_set_put(&run->counted_pct, c->ev->name, share);
		} else {
			note_set_put(&run->unsupported, c->ev->name, why);
		}
	}
	tlb_derive(&run->metrics, &run->counted_pct, &run->unsupported);
}

static void store_rusage(struct tb_run *run, const struct rusage *ru,
			 double wall)
{
	metric_set_put(&run->metrics, "wall_usec", wall);
	metric_set_put(&run->metrics, "user_usec",
		       ru->ru_utime.tv_sec * 1e6 + ru->ru_utime.tv_usec);
	metric_set_put(&run->metrics, "sys_usec",
		       ru->ru_stime.tv_sec * 1e6 + ru->ru_stime.tv_usec);
	metric_set_put(&run->metrics, "minflt", (double)ru->ru_minflt);
	metric_set_put(&run->metrics, "majflt", (double)ru->ru_majflt);
	metric_set_put(&run->metrics, "maxrss_kb", (double)ru->ru_maxrss);
}

static double metric_or_zero(const struct tb_run *run, const char *name)
{
	const struct metric *m = metric_set_find(&run->metrics, name);

	return m ? m->value : 0;
}

/* mTHP folios allocated in the run: anon_fault_alloc and shmem_alloc of
 * every size recorded (mthp_stats.h). */
static double mthp_allocs(const struct tb_run *run)
{
	double n = 0;
	size_t i;

	for (i = 0; i < run->metrics.n; i++) {
		const char *name = run->metrics.v[i].name;
		const char *dot = strrchr(name, '.');

		if (!strncmp(name, "mthp.", 5) && dot &&
		    (!strcmp(dot, ".anon_fault_alloc") || !strcmp(dot, ".shmem_alloc")))
			n += run->metrics.v[i].value;
	}
	return n;
}

static void judge_huge(struct live *lv, struct tb_run *run)
{
	double thp = metric_or_zero(run, "vmstat.thp_fault_alloc") +
		     metric_or_zero(run, "vmstat.thp_collapse_alloc") +
		     metric_or_zero(run, "anon_huge_kb") +
		     metric_or_zero(run, "hugetlb_pages") + mthp_allocs(run);

	if (lv->smaps_seen) {
		metric_set_put(&run->metrics, "roi.anon_huge_kb", lv->anon_huge_kb);
		metric_set_put(&run->metrics, "roi.hugetlb_kb", lv->hugetlb_kb);
	}
	run->huge = thp > 0 || lv->anon_huge_kb > 0 || lv->hugetlb_kb > 0;
}

/* A failed run's reason ends with the workload's last word on stderr. */
static void set_status(struct tb_run *run, int wstatus, bool timed_out,
		       const char *last_err)
{
	char why[128 + ERR_TAIL_LINE];

	if (WIFEXITED(wstatus)) {
		run->exit_code = WEXITSTATUS(wstatus);
		if (run->exit_code == 0) {
			run->status = RUN_OK;
			return;
		}
		run->status = run->exit_code == WORKLOAD_EXIT_INVALID ?
			      RUN_INVALID : RUN_FAILED;
		snprintf(why, sizeof(why), run->status == RUN_INVALID ?
			 "workload reported an invalid measurement (exit %d)" :
			 "exited with status %d", run->exit_code);
	} else {
		run->signal = WTERMSIG(wstatus);
		run->status = timed_out ? RUN_TIMEOUT : RUN_SIGNALED;
		snprintf(why, sizeof(why), timed_out ?
			 "killed after the timeout" : "killed by signal %d (%s)",
			 run->signal, strsignal(run->signal));
	}
	if (*last_err && run->status != RUN_TIMEOUT)
		snprintf(why + strlen(why), sizeof(why) - strlen(why), ": %s",
			 last_err);
	free(run->reason);
	run->reason = xstrdup(why);
}

static int exec_error(const struct run_spec *spec, struct tb_run *run)
{
	char why[512];

	if (!exec_errno)
		return 0;
	snprintf(why, sizeof(why), "cannot execute %s: %s", spec->path,
		 strerror(exec_errno));
	run->status = RUN_ERROR;
	run->reason = xstrdup(why);
	return -1;
}

/*
 * Supervise the child to its end, then record the repetition; -1 (run
 * marked) when it could not exec. The exec's outcome (spawn.h:
 * exec_errno) is read only once the child is reaped, not waited for
 * right after "go": an extra sleep and wake-up per repetition, and the
 * parent touches nothing the child reads until it execs in between.
 */
static int finish(struct live *lv, const struct run_spec *spec,
		  struct tb_run *run, double t0, struct vmstat_snap *before,
		  const struct sysstate *sys_before)
{
	struct vmstat_snap after;
	struct sysstate sys_after;
	struct rusage ru;
	int wstatus = 0;
	double wall;

	supervise(lv, spec->timeout_s, t0);
	while (wait4(lv->pid, &wstatus, 0, &ru) < 0 && errno == EINTR)
		;
	wall = now_usec() - t0;
	if (exec_error(spec, run))
		return -1;
	profiler_stop(&lv->pf);
	run->leftover = reap_leftovers(lv->pid);
	drain_rest(lv);
	if (run->leftover)
		tb_warn("the workload left %d process(es) running after it exited; killed them (leftover_processes)",
			run->leftover);
	if (!vmstat_read(spec->vmstat_path, &after)) {
		vmstat_delta(before, &after, &run->metrics);
		vmstat_free(&after);
	}
	if (spec->sys) {
		sysstate_take(spec->sys, &sys_after);
		sysstate_record(spec->sys, sys_before, &sys_after, &run->metrics);
		sysstate_free(&sys_after);
	}
	store_rusage(run, &ru, wall);
	store_counters(lv, run);
	store_workload_metrics(lv, run);
	run->roi = lv->roi;
	judge_huge(lv, run);
	set_status(run, wstatus, lv->timed_out,
		   err_tail_last(&lv->stderr_tail));
	return 0;
}

/* perf attaches while the child still waits to exec (profile.h). */
static void start_profile(const struct run_spec *spec, struct live *lv)
{
	char err[512];

	if (!spec->prof || spec->prof->mode == PROFILE_OFF || !spec->prof_base)
		return;
	if (profiler_start(&lv->pf, spec->prof, lv->pid, spec->prof_base, err,
			   sizeof(err)))
		tb_warn("profile: %s; this repetition is not profiled", err);
}

int runner_run(const struct run_spec *spec, struct tb_run *run)
{
	struct live lv = { .pidfd = -1 };
	char *path = NULL, **envp = NULL;
	struct vmstat_snap before;
	struct sysstate sys_before = { 0 };
	unsigned long long start = 0;
	double t0;
	int rc = 0;

	abort_requested = 0;
	reap_enable();
	if (open_pipes(&lv.p)) {
		run->status = RUN_ERROR;
		run->reason = xstrdup("cannot create pipes");
		close_pipes(&lv.p);
		return -1;
	}
	lv.pid = start_child(spec, &lv.p, &path, &envp, &start, &lv.pidfd);
	if (lv.pid < 0) {
		run->status = RUN_ERROR;
		run->reason = xstrdup("cannot start a process (clone failed)");
		close_pipes(&lv.p);
		free(path);
		free(envp);
		return -1;
	}
	if (spec->on_spawn)
		spec->on_spawn(lv.pid, start);
	close_fd(&lv.p.go[0]);
	if (spec->cgroup && move_to_cgroup(spec->cgroup, lv.pid)) {
		kill_child(&lv);
		close_fd(&lv.p.go[1]);
	}
	close_fd(&lv.p.ctl[1]);
	close_fd(&lv.p.ack[0]);
	close_fd(&lv.p.met[1]);
	close_fd(&lv.p.out2[1]);
	fcntl(lv.p.ctl[0], F_SETFL, O_NONBLOCK);
	fcntl(lv.p.met[0], F_SETFL, O_NONBLOCK);
	fcntl(lv.p.out2[0], F_SETFL, O_NONBLOCK);
	err_tail_init(&lv.stderr_tail, spec->out_fd >= 0 ? spec->out_fd :
		      STDERR_FILENO);
	if (lv.pidfd < 0)
		lv.pidfd = (int)syscall(SYS_pidfd_open, lv.pid, 0);
	start_profile(spec, &lv);
	counters_open(&lv.cs, spec->evs, spec->nevs, lv.pid);
	memset(&before, 0, sizeof(before));
	vmstat_read(spec->vmstat_path, &before);
	if (spec->sys)
		sysstate_take(spec->sys, &sys_before);
	t0 = now_usec();
	if (write(lv.p.go[1], "g", 1) != 1)
		kill_child(&lv);
	close_fd(&lv.p.go[1]);
	rc = finish(&lv, spec, run, t0, &before, &sys_before);
	if (lv.pf.on)
		profiler_finish(&lv.pf, spec->prof, &run->metrics);
	if (spec->on_spawn)
		spec->on_spawn(0, 0);
	vmstat_free(&before);
	sysstate_free(&sys_before);
	counters_close(&lv.cs);
	free(path);
	free(envp);
	close_fd(&lv.pidfd);
	close_pipes(&lv.p);
	free(lv.ctl.buf);
	free(lv.met.buf);
	return rc;
}
