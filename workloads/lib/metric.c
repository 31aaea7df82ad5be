// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload's own figures, one "name value" line each on the fd the
 * harness hands down. A separate fd keeps them apart from whatever the
 * workload prints for people, so stdout can change without breaking the
 * harness.
 */
#include "wl.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int metric_fd(void)
{
	static int fd = -2;
	const char *s;
	uint64_t v;

	if (fd != -2)
		return fd;
	fd = -1;
	s = getenv("THPBENCH_METRIC_FD");
	if (!s || !*s)
		return fd;
	if (wl_parse_u64(s, &v) || v > 65535)
		wl_die("THPBENCH_METRIC_FD='%s' is not a file descriptor number",
		       s);
	fd = (int)v;
	return fd;
}

static int valid_name(const char *name)
{
	if (!*name)
		return 0;
	for (; *name; name++)
		if (isspace((unsigned char)*name) || !isprint((unsigned char)*name))
			return 0;
	return 1;
}

void wl_metric(const char *name, double value)
{
	int fd = metric_fd();

	if (!valid_name(name))
		wl_die("internal error: bad metric name '%s'", name);
	if (fd < 0)
		return;
	if (dprintf(fd, "%s %.17g\n", name, value) < 0)
		wl_die("THPBENCH_METRIC_FD=%d: writing metric %s failed: %s", fd,
		       name, strerror(errno));
}

void wl_report(const char *name, double value)
{
	printf("%s %.0f\n", name, value);
	wl_metric(name, value);
}
