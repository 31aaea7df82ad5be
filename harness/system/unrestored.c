// SPDX-License-Identifier: GPL-2.0-only
/* unrestored - the record of knobs that would not go back (unrestored.h). */
#include "unrestored.h"
#include "knob.h"
#include "state_file.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNRESTORED_VERSION 1

static const struct state_file unrestored_file = {
	.what = "record of unrestored knobs",
	.fix = "delete it",
	.knob_shape = "is not a huge-page knob with \"name\", \"want\", \"got\", \"why\"; delete the file",
	.version = UNRESTORED_VERSION,
	.time_key = "time",
};

void unrestored_add(struct unrestored *u, const char *name, const char *want,
		    const char *got, const char *why)
{
	struct unrestored_knob *k = NULL;
	size_t i;

	for (i = 0; i < u->n && !k; i++)
		if (!strcmp(u->v[i].name, name))
			k = &u->v[i];
	if (k) {
		free(k->want);
		free(k->got);
		free(k->why);
	} else {
		u->v = xgrow(u->v, sizeof(*u->v), &u->cap, u->n);
		k = &u->v[u->n++];
		k->name = xstrdup(name);
	}
	k->want = xstrdup(want);
	k->got = xstrdup(got);
	k->why = xstrdup(why);
}

void unrestored_free(struct unrestored *u)
{
	size_t i;

	for (i = 0; i < u->n; i++) {
		free(u->v[i].name);
		free(u->v[i].want);
		free(u->v[i].got);
		free(u->v[i].why);
	}
	free(u->v);
	free(u->root);
	memset(u, 0, sizeof(*u));
}

void unrestored_describe(const struct unrestored *u, char *buf, size_t len)
{
	size_t i, used = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < u->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used,
					 "%s%s (should be %s, is %s: %s)",
					 i ? "; " : "", u->v[i].name,
					 u->v[i].want, u->v[i].got, u->v[i].why);
}

static json_t *knob_out(size_t i, const void *arg)
{
	const struct unrestored_knob *k = &((const struct unrestored *)arg)->v[i];

	return json_pack("{s:s, s:s, s:s, s:s}", "name", k->name, "want",
			 k->want, "got", k->got, "why", k->why);
}

int unrestored_write(const char *path, const struct unrestored *u, char *err,
		     size_t errlen)
{
	const struct state_head head = {
		.root = u->root, .pid = u->pid, .time = u->time,
	};

	if (!u->n) {
		if (unlink(path) && errno != ENOENT) {
			snprintf(err, errlen, "cannot delete %s: %s", path,
				 strerror(errno));
			return -1;
		}
		return 0;
	}
	return state_file_write(path, &unrestored_file, &head, u->n, knob_out,
				u, err, errlen);
}

static int knob_in(json_t *k, const struct state_head *head, void *arg)
{
	const char *name, *want, *got, *why;

	(void)head;
	if (json_unpack(k, "{s:s, s:s, s:s, s:s}", "name", &name, "want",
			&want, "got", &got, "why", &why) ||
	    !knob_name_ok(name))
		return -1;
	unrestored_add(arg, name, want, got, why);
	return 0;
}

int unrestored_read(const char *path, struct unrestored *u, char *err,
		    size_t errlen)
{
	struct state_head head;
	int r;

	memset(u, 0, sizeof(*u));
	r = state_file_read(path, &unrestored_file, &head, knob_in, u, err,
			    errlen);
	if (r <= 0) {
		unrestored_free(u);
		return r;
	}
	u->root = head.root;
	u->pid = head.pid;
	u->time = head.time;
	return 1;
}
