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

#include "util/util.h"

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static const char *why_text(const struct event_spec *ev, int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
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
		return "invalid event or attribute for this kernel/PMU";
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
			struct perf_event_attr *attr, pid_t pid,
			bool *user_only)
{
	int fd = sys_perf_event_open(attr, pid);

	*user_only = false;
	if (fd >= 0)
		return fd;
	if ((errno != EACCES && errno != EPERM) || attr->exclude_kernel ||
	    attr->exclude_user || ev->source == EVSRC_TRACEPOINT)
		return -errno;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	fd = sys_perf_event_open(attr, pid);
	if (fd < 0)
		return -errno;
	*user_only = true;
	return fd;
}

int counters_open(struct counter_set *cs, const struct event_spec *evs,
		  size_t n, pid_t pid)
{
	int opened = 0;

	memset(cs, 0, sizeof(*cs));
	cs->c = xcalloc(n, sizeof(*cs->c));
	cs->n = n;
	for (size_t i = 0; i < n; i++) {
		struct counter *c = &cs->c[i];
		struct perf_event_attr attr = evs[i].attr;
		int fd;

		c->ev = &evs[i];
		if (c->ev->unavailable[0]) {
			c->fd = -1;
			c->open_errno = EACCES;
			snprintf(c->reason, sizeof(c->reason), "<not supported>: %s",
				 c->ev->unavailable);
			continue;
		}
		attr.size = sizeof(attr);
		attr.disabled = 1;
		attr.enable_on_exec = 1;
		attr.inherit = 1;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd = open_counter(c->ev, &attr, pid, &c->user_only);
		if (fd < 0) {
			c->fd = -1;
			c->open_errno = -fd;
			format_reason(c->ev, -fd, c->reason, sizeof(c->reason));
			continue;
		}
		c->fd = fd;
		opened++;
	}
	return opened;
}

/* {count, time enabled, time running}, as read_format asks. */
static int read_counter(const struct counter *c, uint64_t v[3])
{
	ssize_t r = read(c->fd, v, 3 * sizeof(uint64_t));

	return r == 3 * (ssize_t)sizeof(uint64_t) ? 0 : -1;
}

/*
 * The reset zeroes the parent and live inherited events; counts that exited
 * children already folded into the parent survive it, so what is left right
 * after the reset becomes the base that counters_read() subtracts.
 */
void counters_roi_begin(struct counter_set *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		struct counter *c = &cs->c[i];
		uint64_t v[3];

		if (c->fd < 0)
			continue;
		if (!cs->roi_started) {
			ioctl(c->fd, PERF_EVENT_IOC_RESET, 0);
			if (read_counter(c, v) == 0) {
				c->base_raw = v[0];
				c->base_enabled = v[1];
				c->base_running = v[2];
			}
		}
		ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0);
	}
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

void counters_read(struct counter_set *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		struct counter *c = &cs->c[i];
		uint64_t v[3];

		if (c->fd < 0)
			continue;
		if (read_counter(c, v)) {
			/* zero times make counter_value() say "not counted" */
			c->raw = c->enabled = c->running = 0;
			continue;
		}
		c->raw = since(v[0], c->base_raw);
		c->enabled = since(v[1], c->base_enabled);
		c->running = since(v[2], c->base_running);
	}
}

bool counter_value(const struct counter *c, double *value, const char **why)
{
	const char *reason = NULL;

	if (c->fd < 0)
		reason = c->reason[0] ? c->reason : "<not supported>: not opened";
	else if (c->enabled == 0)
		reason = "<not counted>: never enabled (the workload did not exec or its region of interest never began)";
	else if (c->running == 0)
		reason = "<not counted>: never got a hardware counter (multiplexed out)";
	if (reason) {
		if (why)
			*why = reason;
		return false;
	}
	if (c->running >= c->enabled)
		*value = (double)c->raw;
	else
		*value = (double)c->raw * ((double)c->enabled / c->running);
	if (why)
		*why = NULL;
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
	fd = open_counter(ev, &attr, pid, &user_only);
	if (fd < 0) {
		format_reason(ev, -fd, reason, len);
		return false;
	}
	close(fd);
	if (len)
		reason[0] = '\0';
	return true;
}
