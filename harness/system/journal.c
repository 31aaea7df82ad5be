// SPDX-License-Identifier: GPL-2.0-only
#include "journal.h"
#include "trust.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static json_t *journal_to_json(const struct journal *j)
{
	json_t *knobs = json_array();
	char utc[32] = "";
	time_t t = (time_t)j->start;
	struct tm tm;
	size_t i;

	if (gmtime_r(&t, &tm))
		strftime(utc, sizeof(utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
	for (i = 0; i < j->knobs.n; i++) {
		const struct knob *k = &j->knobs.v[i];
		json_t *o = json_pack("{s:s, s:s}", "name", k->name, "value",
				      k->value);

		/* Only a knob outside the journal's root names its own. */
		if (strcmp(k->root, j->root))
			json_object_set_new(o, "root", json_string(k->root));
		json_array_append_new(knobs, o);
	}
	return json_pack("{s:i, s:s, s:I, s:I, s:s, s:o}",
			 "version", JOURNAL_VERSION, "root", j->root,
			 "pid", (json_int_t)j->pid,
			 "start_time", (json_int_t)j->start,
			 "start_time_utc", utc, "knobs", knobs);
}

int journal_write(const char *path, const struct journal *j, char *err,
		  size_t errlen)
{
	json_t *root = journal_to_json(j);
	char *text = root ? json_dumps(root, JSON_INDENT(2)) : NULL;
	int ret;

	json_decref(root);
	if (!text) {
		snprintf(err, errlen, "cannot encode the settings journal");
		return -1;
	}
	/* On disk before any knob changes (trust_replace syncs). */
	ret = trust_replace(path, text, err, errlen);
	free(text);
	return ret;
}

static int knobs_from_json(json_t *arr, struct journal *j, const char *path,
			   char *err, size_t errlen)
{
	const char *name, *value, *root;
	json_t *k;
	size_t i;

	json_array_foreach(arr, i, k) {
		root = NULL;
		if (json_unpack(k, "{s:s, s:s, s?s}", "name", &name, "value",
				&value, "root", &root)) {
			snprintf(err, errlen,
				 "%s: knobs[%zu] needs string \"name\" and \"value\" (and \"root\", if any, a string)",
				 path, i);
			return -1;
		}
		snapshot_add(&j->knobs, root ? root : j->root, name, value);
	}
	return 0;
}

int journal_read(const char *path, struct journal *j, char *err,
		 size_t errlen)
{
	json_int_t pid = 0, start = 0, version = 0;
	json_error_t jerr;
	const char *root;
	json_t *doc, *arr = NULL;
	int ret = -1, fd;

	memset(j, 0, sizeof(*j));
	fd = trust_open(path, O_RDONLY, 0, err, errlen);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	doc = json_loadfd(fd, JSON_REJECT_DUPLICATES, &jerr);
	close(fd);
	if (!doc) {
		snprintf(err, errlen,
			 "%s:%d: corrupt settings journal: %s; inspect it, restore the knobs by hand and delete it",
			 path, jerr.line, jerr.text);
		return -1;
	}
	if (json_unpack_ex(doc, &jerr, 0, "{s:I, s:s, s:I, s?I, s:o}",
			   "version", &version, "root", &root, "pid", &pid,
			   "start_time", &start, "knobs", &arr) ||
	    !json_is_array(arr)) {
		snprintf(err, errlen,
			 "%s: malformed settings journal (%s); restore the knobs by hand and delete it",
			 path, arr ? "\"knobs\" must be an array" : jerr.text);
		goto out;
	}
	if (version != JOURNAL_VERSION) {
		snprintf(err, errlen,
			 "%s: settings journal version %lld, this thpbench reads %d",
			 path, (long long)version, JOURNAL_VERSION);
		goto out;
	}
	j->root = xstrdup(root);
	j->pid = (pid_t)pid;
	j->start = start;
	ret = knobs_from_json(arr, j, path, err, errlen) ? -1 : 1;
out:
	json_decref(doc);
	if (ret < 0)
		journal_free(j);
	return ret;
}

void journal_free(struct journal *j)
{
	free(j->root);
	snapshot_free(&j->knobs);
	memset(j, 0, sizeof(*j));
}
