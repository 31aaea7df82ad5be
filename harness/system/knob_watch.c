// SPDX-License-Identifier: GPL-2.0-only
#include "knob_watch.h"

#include <errno.h>
#include <glob.h>
#include <stddef.h>
#include <sys/inotify.h>
#include <unistd.h>

#define WATCH_MASK (IN_MODIFY | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

void knob_watch_open(struct knob_watch *w)
{
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	w->partial = false;
}

void knob_watch_add(struct knob_watch *w, const char *path)
{
	if (w->fd >= 0 && inotify_add_watch(w->fd, path, WATCH_MASK) < 0)
		w->partial = true;
}

void knob_watch_add_pool_aliases(struct knob_watch *w)
{
	static const char *const pats[] = {
		"/proc/sys/vm/nr_hugepages",
		"/proc/sys/vm/nr_hugepages_mempolicy",
		"/proc/sys/vm/nr_overcommit_hugepages",
		"/sys/devices/system/node/node*/hugepages/hugepages-*/nr_hugepages",
	};
	glob_t g;
	size_t i, j;

	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		if (glob(pats[i], 0, NULL, &g))
			continue;
		for (j = 0; j < g.gl_pathc; j++)
			knob_watch_add(w, g.gl_pathv[j]);
		globfree(&g);
	}
}

/* A file gone, replaced or an overflowed queue: its later writes would
 * go unseen, so from now on every look says "changed". */
static void lost_watch(struct knob_watch *w, const char *buf, size_t n)
{
	const struct inotify_event *ev;
	size_t off;

	for (off = 0; off + sizeof(*ev) <= n; off += sizeof(*ev) + ev->len) {
		ev = (const struct inotify_event *)(buf + off);
		if (ev->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF |
				IN_Q_OVERFLOW))
			w->partial = true;
	}
}

bool knob_watch_changed(struct knob_watch *w)
{
	_Alignas(struct inotify_event) char buf[4096];
	bool any = false;
	ssize_t n;

	if (w->fd < 0 || w->partial)
		return true;
	for (;;) {
		n = read(w->fd, buf, sizeof(buf));
		if (n > 0) {
			any = true;
			lost_watch(w, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		/* EAGAIN: empty. Anything else: the watch cannot be trusted. */
		return any || !(n < 0 && errno == EAGAIN);
	}
}

void knob_watch_close(struct knob_watch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}
