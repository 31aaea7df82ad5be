// SPDX-License-Identifier: GPL-2.0-only
#include "unrestored.h"
#include "knob.h"
#include "trust.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNRESTORED_VERSION 1

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

int unrestored_write(const char *path, const struct unrestored *u, char *err,
		     size_t errlen)
{
	json_t *knobs, *doc;
	char *text;
	size_t i;
	int ret;

	if (!u->n) {
		if (unlink(path) && errno != ENOENT) {
			snprintf(err, errlen, "cannot delete %s: %s", path,
				 strerror(errno));
			return -1;
		}
		return 0;
	}
	knobs = json_array();
	for (i = 0; i < u->n; i++)
		json_array_append_new(knobs, json_pack("{s:s, s:s, s:s, s:s}",
			"name", u->v[i].name, "want", u->v[i].want,
			"got", u->v[i].got, "why", u->v[i].why));
	doc = json_pack("{s:i, s:s, s:I, s:I, s:o}", "version",
			UNRESTORED_VERSION, "root", u->root ? u->root : "",
			"pid", (json_int_t)u->pid, "time", (json_int_t)u->time,
			"knobs", knobs);
	text = doc ? json_dumps(doc, JSON_INDENT(2)) : NULL;
	json_decref(doc);
	if (!text) {
		snprintf(err, errlen, "cannot encode %s", path);
		return -1;
	}
	ret = trust_replace(path, text, err, errlen);
	free(text);
	return ret;
}

static int knobs_from_json(const char *path, json_t *arr, struct unrestored *u,
			   char *err, size_t errlen)
{
	const char *name, *want, *got, *why;
	json_t *k;
	size_t i;

	json_array_foreach(arr, i, k) {
		if (json_unpack(k, "{s:s, s:s, s:s, s:s}", "name", &name, "want",
				&want, "got", &got, "why", &why) ||
		    !knob_name_ok(name)) {
			snprintf(err, errlen,
				 "%s: knobs[%zu] is not a huge-page knob with \"name\", \"want\", \"got\", \"why\"; delete the file",
				 path, i);
			return -1;
		}
		unrestored_add(u, name, want, got, why);
	}
	return 0;
}

int unrestored_read(const char *path, struct unrestored *u, char *err,
		    size_t errlen)
{
	json_int_t version = 0, pid = 0, t = 0;
	const char *root;
	json_error_t jerr;
	json_t *doc, *arr = NULL;
	int fd, ret = -1;

	memset(u, 0, sizeof(*u));
	fd = trust_open(path, O_RDONLY, 0, err, errlen);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	doc = json_loadfd(fd, JSON_REJECT_DUPLICATES, &jerr);
	close(fd);
	if (!doc || json_unpack_ex(doc, &jerr, 0, "{s:I, s:s, s:I, s:I, s:o}",
				   "version", &version, "root", &root, "pid",
				   &pid, "time", &t, "knobs", &arr) ||
	    !json_is_array(arr) || version != UNRESTORED_VERSION) {
		snprintf(err, errlen,
			 "%s:%d: not a record of unrestored knobs (%s); delete it",
			 path, jerr.line, doc ? jerr.text : "corrupt JSON");
		goto out;
	}
	u->root = xstrdup(root);
	u->pid = (pid_t)pid;
	u->time = t;
	ret = knobs_from_json(path, arr, u, err, errlen) ? -1 : 1;
out:
	json_decref(doc);
	if (ret < 0)
		unrestored_free(u);
	return ret;
}
