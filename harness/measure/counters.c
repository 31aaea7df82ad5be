// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counters are opened on the parent event of the child only; threads and
 * processes it creates get inherited events, and the kernel applies our
 * ioctls to those too (perf_event_for_each_child) and folds their counts
 * into reads of the parent fd.
 */
#include "counters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cpu_pmu.h"
#include "perf_read.h"
#include "util/util.h"

#define GROUP_MAX EVENT_GROUP_MAX

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
			       int group_fd)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, -1, group_fd,
			    PERF_FLAG_FD_CLOEXEC);
}

/* A PMU is there (cpu_pmu.h) but this event is not one it counts. */
static const char *pmu_lacks_text(void)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "PMU lacks event: the %.40s PMU does not count this one (arm64: not in PMCEID)",
		 cpu_pmu_name());
	return buf;
}

static const char *why_text(const struct event_spec *ev, int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		if (ev->hardware && cpu_pmu_name())
			return pmu_lacks_text();
		return ev->hardware ?
		       "no hardware PMU: this CPU/VM exposes none for this event" :
		       "this kernel does not provide this event";
	case ENODEV:
		return ev->hardware ? "no such PMU on this CPU/VM" :
		       "no such PMU in this kernel";
	case EACCES:
	case EPERM:
		return "permission denied: run as root or lower /proc/sys/kernel/perf_event_paranoid";
	case EINVAL:
		return ev->group ?
		       "invalid event for this kernel/PMU, or its group needs more counters than the PMU has" :
		       "invalid event or attribute for this kernel/PMU";
	case EMFILE:
		return "too many open files: raise ulimit -n";
	case EBUSY:
		return "PMU busy: in use by another user";
	case ESRCH:
		return "the process to count is gone";
	case E2BIG:
		return "perf_event_attr newer than this kernel";
	case ENOSYS:
		return "kernel built without perf events (CONFIG_PERF_EVENTS)";
	default:
		return strerror(err);
	}
}

static void format_reason(const struct event_spec *ev, int err, char *buf,
			  size_t len)
{
	const char *name = strerrorname_np(err);

	snprintf(buf, len, "<not supported>: %s (%s)", why_text(ev, err),
		 name ? name : "unknown errno");
}

/*
 * perf_event_paranoid >= 2 refuses kernel-mode counting to non-root; like
 * perf, count user mode only then. Not for tracepoints (they fire in the
 * kernel, so exclude_kernel would make them count nothing) nor for a
 * kernel-only request (":k"), which would then count nothing at all.
 * Returns the fd or -errno.
 */
static int open_counter(const struct event_spec *ev,
			struct perf_event_attr *attr, pid_t pid, int group_fd,
			bool *user_only)
{
	int fd = sys_perf_event_open(attr, pid, group_fd);

	*user_only = false;
	if (fd >= 0)
		return fd;
	if ((errno != EACCES && errno != EPERM) || attr->exclude_kernel ||
	    attr->exclude_user || ev->source == EVSRC_TRACEPOINT)
		return -errno;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	fd = sys_perf_event_open(attr, pid, group_fd);
	if (fd < 0)
		return -errno;
	*user_only = true;
	return fd;
}

static bool is_leader(const struct event_spec *evs, size_t i)
{
	return !evs[i].group || i == 0 || evs[i - 1].group != evs[i].group;
}

static void not_opened(struct counter *c, int err, const char *why)
{
	c->fd = -1;
	c->open_errno = err;
	if (why)
		snprintf(c->reason, sizeof(c->reason), "<not supported>: %.230s",
			 why);
	else
		format_reason(c->ev, err, c->reason, sizeof(c->reason));
}

/*
 * A leader (or a lone event) waits for exec; members are enabled and so
 * run whenever their leader does. Members count at the leader's
 * privilege level, so a ratio never mixes user-only with user+kernel.
 */
static void open_one(struct counter_set *cs, size_t i, pid_t pid)
{
	struct counter *c = &cs->c[i], *lead;
	struct perf_event_attr attr = c->ev->attr;
	char why[sizeof(c->reason)];
	int fd, group_fd = -1;

	attr.size = sizeof(attr);
	attr.inherit = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (c->ev->group)
		attr.read_format |= PERF_FORMAT_GROUP;
	c->read_format = attr.read_format;
	lead = &cs->c[c->leader];
	if (c->ev->unavailable[0]) {
		not_opened(c, EACCES, c->ev->unavailable);
		return;
	}
	if (c->leader == i) {
		attr.disabled = 1;
		attr.enable_on_exec = 1;
	} else if (lead->fd < 0) {
		snprintf(why, sizeof(why), "its group's leader %.40s was not opened: %.170s",
			 lead->ev->name, strncmp(lead->reason, "<not supported>: ", 17) ?
			 lead->reason : lead->reason + 17);
		not_opened(c, lead->open_errno, why);
		return;
	} else {
		group_fd = lead->fd;
		if (lead->user_only) {
			attr.exclude_kernel = 1;
			attr.exclude_hv = 1;
		}
	}
	fd = open_counter(c->ev, &attr, pid, group_fd, &c->user_only);
	if (fd < 0) {
		not_opened(c, -fd, NULL);
		return;
	}
	c->user_only |= c->leader != i && lead->user_only;
	c->fd = fd;
}

int counters_open(struct counter_set *cs, const struct event_spec *evs,
		  size_t n, pid_t pid)
{
	int opened = 0;
	size_t i;

	memset(cs, 0, sizeof(*cs));
	cs->c = xcalloc(n, sizeof(*cs->c));
	cs->n = n;
	for (i = 0; i < n; i++) {
		cs->c[i].ev = &evs[i];
		cs->c[i].leader = is_leader(evs, i) ? i : cs->c[i - 1].leader;
		open_one(cs, i, pid);
		opened += cs->c[i].fd >= 0;
	}
	return opened;
}

/* Indices of the open counters read through leader i, leader first:
 * the order the kernel lists a group's members in. */
static size_t read_members(const struct counter_set *cs, size_t i,
			   size_t *idx, size_t max)
{
	size_t j, n = 0;

	for (j = i; j < cs->n && cs->c[j].leader == i && n < max; j++)
		if (cs->c[j].fd >= 0)
			idx[n++] = j;
	return n;
}

/*
 * Read leader (or lone counter) i: counts[k] belongs to cs->c[idx[k]].
 * Returns the number of counts, or -1 when the read fails or does not
 * hold what its layout says.
 */
static int read_counts(const struct counter_set *cs, size_t i, size_t *idx,
		       struct perf_count *counts)
{
	const struct counter *c = &cs->c[i];
	uint64_t buf[3 + GROUP_MAX];
	size_t n = read_members(cs, i, idx, GROUP_MAX);
	size_t want = perf_read_size(c->read_format, n);
	ssize_t r = read(c->fd, buf, want);

	if (r != (ssize_t)want)
		return -1;
	return perf_read_parse(buf, want, c->read_format, counts, n) ==
	       (int)n ? (int)n : -1;
}

/*
 * The reset zeroes the parent and live inherited events; counts that exited
 * children already folded into the parent survive it, so what is left right
 * after the reset becomes the base that counters_read() subtracts.
 */
void counters_roi_begin(struct counter_set *cs)
{
	struct perf_count counts[GROUP_MAX];
	size_t i, k, idx[GROUP_MAX];
	int got;

	for (i = 0; i < cs->n && !cs->roi_started; i++)
		if (cs->c[i].fd >= 0)
			ioctl(cs->c[i].fd, PERF_EVENT_IOC_RESET, 0);
	for (i = 0; i < cs->n && !cs->roi_started; i++) {
		if (cs->c[i].fd < 0 || cs->c[i].leader != i)
			continue;
		got = read_counts(cs, i, idx, counts);
		for (k = 0; got > 0 && k < (size_t)got; k++) {
			cs->c[idx[k]].base_raw = counts[k].value;
			cs->c[idx[k]].base_enabled = counts[k].enabled;
			cs->c[idx[k]].base_running = counts[k].running;
		}
	}
	for (i = 0; i < cs->n; i++)
		if (cs->c[i].fd >= 0)
			ioctl(cs->c[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	cs->roi_started = true;
}

void counters_roi_end(struct counter_set *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].fd >= 0)
			ioctl(cs->c[i].fd, PERF_EVENT_IOC_DISABLE, 0);
}

static uint64_t since(uint64_t now, uint64_t base)
{
	return now > base ? now - base : 0;
}

/* A read that failed leaves zero times: counter_value() says "not counted". */
static void read_group(struct counter_set *cs, size_t i)
{
	struct perf_count counts[GROUP_MAX];
	size_t k, idx[GROUP_MAX];
	int got = read_counts(cs, i, idx, counts);
	size_t n = got > 0 ? (size_t)got : read_members(cs, i, idx, GROUP_MAX);

	for (k = 0; k < n; k++) {
		struct counter *c = &cs->c[idx[k]];

		if (got < 0) {
			c->raw = c->enabled = c->running = 0;
			continue;
		}
		c->raw = since(counts[k].value, c->base_raw);
		c->enabled = since(counts[k].enabled, c->base_enabled);
		c->running = since(counts[k].running, c->base_running);
	}
}

void counters_read(struct counter_set *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (cs->c[i].fd >= 0 && cs->c[i].leader == i)
			read_group(cs, i);
}

bool counter_value(const struct counter *c, double *value, double *share_pct,
		   const char **why)
{
	struct perf_count pc = { c->raw, c->enabled, c->running };
	const char *reason = NULL;
	double share = 0;

	if (c->fd < 0)
		reason = c->reason[0] ? c->reason : "<not supported>: not opened";
	else if (perf_count_scale(&pc, value, &share) == PERF_NOT_ENABLED)
		reason = "<not counted>: never enabled (the workload did not exec or its region of interest never began)";
	else if (share == 0)
		reason = c->ev->group ?
			 "<not counted>: its group never got the hardware counters it needs at once (multiplexed out, or more events than counters: with the NMI watchdog on, one counter is taken)" :
			 "<not counted>: never got a hardware counter (multiplexed out)";
	if (why)
		*why = reason;
	if (reason)
		return false;
	if (share_pct)
		*share_pct = share;
	return true;
}

void counters_close(struct counter_set *cs)
{
	for (size_t i = 0; i < cs->n; i++)
		if (cs->c[i].fd >= 0)
			close(cs->c[i].fd);
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}

bool counter_probe(const struct event_spec *ev, pid_t pid, char *reason,
		   size_t len)
{
	struct perf_event_attr attr = ev->attr;
	bool user_only;
	int fd;

	if (ev->unavailable[0]) {
		snprintf(reason, len, "<not supported>: %s", ev->unavailable);
		return false;
	}
	attr.size = sizeof(attr);
	attr.disabled = 1;
	fd = open_counter(ev, &attr, pid, -1, &user_only);
	if (fd < 0) {
		format_reason(ev, -fd, reason, len);
		return false;
	}
	close(fd);
	if (len)
		reason[0] = '\0';
	return true;
}
