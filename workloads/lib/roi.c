// SPDX-License-Identifier: GPL-2.0-only
/*
 * Region of interest: perf's control-fd protocol (perf stat --control
 * fd:CTL,ACK), which the harness speaks too. Counting starts at "enable"
 * and stops at "disable"; waiting for the ack makes sure the counters are
 * really on before the measured work starts (and off before the workload
 * goes on to verify its result).
 */
#include "wl.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ACK_TIMEOUT_MS 5000

static int env_fd(const char *name)
{
	const char *s = getenv(name);
	uint64_t v;

	if (!s || !*s)
		return -1;
	if (wl_parse_u64(s, &v) || v > 65535)
		wl_die("%s='%s' is not a file descriptor number", name, s);
	if (fcntl((int)v, F_GETFD) < 0)
		wl_die("%s=%d is not an open file descriptor (was it inherited?)",
		       name, (int)v);
	return (int)v;
}

static void write_cmd(int fd, const char *cmd)
{
	size_t len = strlen(cmd), off = 0;
	ssize_t n;

	while (off < len) {
		n = write(fd, cmd + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			wl_die("PERF_CTL_FD=%d: writing '%.*s' failed: %s", fd,
			       (int)strcspn(cmd, "\n"), cmd, strerror(errno));
		off += (size_t)n;
	}
}

static int remaining_ms(double deadline)
{
	double left = (deadline - wl_now_usec()) / 1000;

	return left > 0 ? (int)left + 1 : 0;
}

/* One reply line, NULs skipped; 0 got a line, -1 timeout/EOF/error. */
static int read_reply(int fd, char *line, size_t len, double deadline)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t n = 0;
	char c;
	int r;

	for (;;) {
		r = poll(&pfd, 1, remaining_ms(deadline));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		r = (int)read(fd, &c, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if (c == '\0')
			continue;
		if (c == '\n')
			break;
		if (n + 1 < len)
			line[n++] = c;
	}
	line[n] = '\0';
	return 0;
}

static void wait_ack(int fd, const char *cmd)
{
	double deadline = wl_now_usec() + ACK_TIMEOUT_MS * 1000.0;
	char line[64];

	while (!read_reply(fd, line, sizeof(line), deadline)) {
		if (!strcmp(line, "ack"))
			return;
		wl_warn("PERF_ACK_FD=%d: unexpected reply '%s', still waiting",
			fd, line);
	}
	wl_warn("PERF_ACK_FD=%d: no ack for '%s' within %d s; carrying on, "
		"the counters may not cover exactly the region of interest",
		fd, cmd, ACK_TIMEOUT_MS / 1000);
}

static void roi_command(const char *cmd)
{
	static int ctl = -2, ack = -2;
	char buf[16];

	if (ctl == -2) {
		ctl = env_fd("PERF_CTL_FD");
		ack = ctl >= 0 ? env_fd("PERF_ACK_FD") : -1;
	}
	if (ctl < 0)
		return;
	strcpy(buf, cmd);
	strcat(buf, "\n");
	write_cmd(ctl, buf);
	if (ack >= 0)
		wait_ack(ack, cmd);
}

void wl_roi_begin(void)
{
	roi_command("enable");
}

void wl_roi_end(void)
{
	roi_command("disable");
}

double wl_now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}
