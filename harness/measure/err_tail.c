// SPDX-License-Identifier: GPL-2.0-only
#include "err_tail.h"
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

void err_tail_init(struct err_tail *t, int sink)
{
	memset(t, 0, sizeof(*t));
	t->sink = sink;
}

static void pass_on(int sink, const char *buf, size_t n)
{
	ssize_t w;

	while (sink >= 0 && n) {
		w = write(sink, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;	/* a full log disk must not stop the workload */
		buf += w;
		n -= (size_t)w;
	}
}

static bool blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

/* The line in part becomes the last one when it says anything. */
static void end_line(struct err_tail *t)
{
	if (!blank(t->part, t->npart)) {
		t->part[t->npart] = '\0';
		str_printable(t->part, t->last, sizeof(t->last));
	}
	t->npart = 0;
}

static void take(struct err_tail *t, const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\n')
			end_line(t);
		else if (t->npart < sizeof(t->part) - 1)
			t->part[t->npart++] = buf[i];
	}
}

bool err_tail_pump(struct err_tail *t, int fd)
{
	char buf[4096];
	ssize_t n;
	int rounds;

	/* Bounded: a chatty workload must not starve the control pipe. */
	for (rounds = 0; rounds < 64; rounds++) {
		n = read(fd, buf, sizeof(buf));
		if (n > 0) {
			pass_on(t->sink, buf, (size_t)n);
			take(t, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && errno == EAGAIN;
	}
	return true;
}

const char *err_tail_last(struct err_tail *t)
{
	if (t->npart)
		end_line(t);
	return t->last;
}
