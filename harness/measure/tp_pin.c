// SPDX-License-Identifier: GPL-2.0-only
#include "tp_pin.h"

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/util.h"

static int *pinned;
static size_t npinned;

/* Tracepoints, and software events that have a static key (tp_pin.h). */
static bool wants_pin(const struct event_spec *ev)
{
	if (ev->source == EVSRC_TRACEPOINT)
		return true;
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       ev->attr.config != PERF_COUNT_SW_CPU_CLOCK &&
	       ev->attr.config != PERF_COUNT_SW_TASK_CLOCK;
}

size_t tp_pin(const struct event_spec *evs, size_t n)
{
	struct perf_event_attr attr;
	size_t i;
	int fd;

	pinned = xrealloc(pinned, (npinned + n) * sizeof(*pinned));
	for (i = 0; i < n; i++) {
		if (!wants_pin(&evs[i]))
			continue;
		attr = evs[i].attr;
		attr.disabled = 1;
		attr.enable_on_exec = 0;
		attr.inherit = 0;
		fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1,
				  PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			pinned[npinned++] = fd;
	}
	return npinned;
}

void tp_unpin(void)
{
	size_t i;

	for (i = 0; i < npinned; i++)
		close(pinned[i]);
	free(pinned);
	pinned = NULL;
	npinned = 0;
}
