// SPDX-License-Identifier: GPL-2.0-only
/* state_file - one writer and one reader of the state files (state_file.h). */
#include "state_file.h"
#include "trust.h"
#include "util/safe_file.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static json_t *head_json(const struct state_file *f,
			 const struct state_head *head, json_t *knobs)
{
	json_t *doc = json_object();
	char key[64], utc[32] = "";
	time_t t = (time_t)head->time;
	struct tm tm;

	json_object_set_new(doc, "version", json_integer(f->version));
	json_object_set_new(doc, "root",
			    json_string(head->root ? head->root : ""));
	json_object_set_new(doc, "pid", json_integer((json_int_t)head->pid));
	json_object_set_new(doc, f->time_key,
			    json_integer((json_int_t)head->time));
	if (f->time_utc) {
		if (gmtime_r(&t, &tm))
			strftime(utc, sizeof(utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
		snprintf(key, sizeof(key), "%s_utc", f->time_key);
		json_object_set_new(doc, key, json_string(utc));
	}
	json_object_set_new(doc, "knobs", knobs);
	return doc;
}

int state_file_write(const char *path, const struct state_file *f,
		     const struct state_head *head, size_t n,
		     state_knob_out out, const void *arg, char *err,
		     size_t errlen)
{
	json_t *knobs = json_array(), *doc;
	char *text;
	size_t i;
	int ret;

	for (i = 0; i < n; i++)
		json_array_append_new(knobs, out(i, arg));
	doc = head_json(f, head, knobs);
	text = json_dumps(doc, JSON_INDENT(2));
	json_decref(doc);
	if (!text) {
		snprintf(err, errlen, "%s: cannot encode the %s", path, f->what);
		return -1;
	}
	ret = trust_replace(path, text, err, errlen);
	free(text);
	return ret;
}

/* The fields every file of the shape has; the knobs array in *arr. */
static int head_from_json(const char *path, const struct state_file *f,
			  json_t *doc, struct state_head *head, json_t **arr,
			  char *err, size_t errlen)
{
	json_int_t version = 0, pid = 0, t = 0;
	const char *root;
	json_error_t jerr;
	char fmt[64];

	*arr = NULL;
	snprintf(fmt, sizeof(fmt), "{s:I, s:s, s:I, s%sI, s:o}",
		 f->time_optional ? "?" : ":");
	if (json_unpack_ex(doc, &jerr, 0, fmt, "version", &version, "root",
			   &root, "pid", &pid, f->time_key, &t, "knobs", arr) ||
	    !json_is_array(*arr)) {
		snprintf(err, errlen, "%s: malformed %s (%s); %s", path, f->what,
			 *arr ? "\"knobs\" must be an array" : jerr.text,
			 f->fix);
		return -1;
	}
	if (version != f->version) {
		snprintf(err, errlen, "%s: %s version %lld, this thpbench reads %d",
			 path, f->what, (long long)version, f->version);
		return -1;
	}
	head->root = xstrdup(root);
	head->pid = (pid_t)pid;
	head->time = t;
	return 0;
}

int state_file_read(const char *path, const struct state_file *f,
		    struct state_head *head, state_knob_in in, void *arg,
		    char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *doc, *arr, *k;
	int ret = -1, fd;
	size_t i;

	memset(head, 0, sizeof(*head));
	fd = trust_open(path, O_RDONLY, 0, err, errlen);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	doc = json_loadfd(fd, JSON_REJECT_DUPLICATES, &jerr);
	close(fd);
	if (!doc) {
		char why[JSON_ERROR_TEXT_LENGTH];

		snprintf(err, errlen, "%s:%d:%d: corrupt %s: %s; inspect it, %s",
			 path, jerr.line, jerr.column, f->what,
			 json_error_safe(jerr.text, why, sizeof(why)), f->fix);
		return -1;
	}
	if (head_from_json(path, f, doc, head, &arr, err, errlen))
		goto out;
	ret = 1;
	json_array_foreach(arr, i, k) {
		if (in(k, head, arg)) {
			snprintf(err, errlen, "%s: knobs[%zu] %s", path, i,
				 f->knob_shape);
			ret = -1;
			break;
		}
	}
out:
	json_decref(doc);
	if (ret < 0) {
		free(head->root);
		head->root = NULL;
	}
	return ret;
}

void state_file_path(const char *state_dir, const char *file, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s/%s", state_dir, file);
}
