// SPDX-License-Identifier: GPL-2.0-only
#include "store_log.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store_json.h"
#include "util/safe_file.h"
#include "util/util.h"

static int fsync_parent(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int fd, rc;

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

/* One line, all or nothing: a failed write is cut back. Synced now when
 * sync is set; else by store_log_sync(), when it is due or asked. */
static int append_line(struct store_log *lg, json_t *o, bool sync)
{
	char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
	size_t len, done = 0;
	off_t start;
	ssize_t n;
	int saved;

	json_decref(o);
	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	len = strlen(text);
	text[len++] = '\n';	/* over the NUL: text is not a string now */
	start = lseek(lg->fd, 0, SEEK_END);
	while (start >= 0 && done < len) {
		n = write(lg->fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	saved = done == len ? 0 : errno ? errno : ENOSPC;
	free(text);
	if (!saved && (!sync || !fsync(lg->fd))) {
		lg->dirty |= !sync;
		return 0;
	}
	if (!saved)
		saved = errno;
	if (start >= 0 && ftruncate(lg->fd, start) == 0)
		fsync(lg->fd);
	errno = saved;
	return -1;
}

static void give_up(struct store_log *lg)
{
	tb_warn("%s: cannot append: %s; the %zu repetition(s) written so far are kept, later ones only reach results.json",
		lg->path, strerror(errno), lg->nruns);
	close(lg->fd);
	lg->fd = -1;
}

int store_log_open(struct store_log *lg, const char *path,
		   const struct tb_results *r, char *err, size_t errlen)
{
	json_t *head;
	size_t i;

	lg->nruns = 0;
	lg->dirty = false;
	lg->synced_usec = now_usec();
	lg->path = xstrdup(path);
	lg->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
		      O_NOFOLLOW | O_CLOEXEC, 0644);
	if (lg->fd < 0) {
		snprintf(err, errlen, "%s: cannot create: %s", path,
			 strerror(errno));
		return -1;
	}
	head = json_pack("{s:s, s:o, s:o}", "schema", RESULTS_LOG_SCHEMA,
			 "env", r->env ? json_incref(r->env) : json_object(),
			 "meta", r->meta ? json_incref(r->meta) : json_object());
	if (append_line(lg, head, false))
		goto fail;
	for (i = 0; i < r->ncases; i++)
		if (append_line(lg, json_pack("{s:o}", "case",
					      store_case_json(&r->cases[i], false)), false))
			goto fail;
	if (!fsync(lg->fd) && !fsync_parent(path)) {
		lg->dirty = false;
		return 0;
	}
fail:
	snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	close(lg->fd);
	lg->fd = -1;
	return -1;
}

void store_log_run(struct store_log *lg, size_t case_idx,
		   const struct tb_run *run)
{
	if (lg->fd < 0)
		return;
	if (append_line(lg, json_pack("{s:I, s:o}", "case", (json_int_t)case_idx,
				      "run", store_run_json(run)), false)) {
		give_up(lg);
		return;
	}
	lg->nruns++;
	if (now_usec() - lg->synced_usec >= STORE_LOG_SYNC_USEC)
		store_log_sync(lg);
}

void store_log_sync(struct store_log *lg)
{
	if (lg->fd < 0 || !lg->dirty)
		return;
	if (fsync(lg->fd)) {
		give_up(lg);
		return;
	}
	lg->dirty = false;
	lg->synced_usec = now_usec();
}

void store_log_sync_due(struct store_log *lg, double usec)
{
	if (now_usec() - lg->synced_usec >= usec)
		store_log_sync(lg);
}

void store_log_close(struct store_log *lg, bool remove)
{
	if (!remove)
		store_log_sync(lg);
	if (lg->fd >= 0)
		close(lg->fd);
	lg->fd = -1;
	if (remove && lg->path && !unlink(lg->path))
		fsync_parent(lg->path);
	free(lg->path);
	lg->path = NULL;
}

/* ---- reading --------------------------------------------------------- */

static json_t *parse_line(const char *p, size_t n, json_error_t *jerr)
{
	return json_loadb(p, n, JSON_REJECT_DUPLICATES, jerr);
}

bool store_log_is(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	size_t first = nl ? (size_t)(nl - text) : len;
	json_error_t jerr;
	json_t *o;
	bool is;

	/* Not named on the first line: no log (and no parse of a one-line
	 * results.json as its header, which costs as much as loading it). */
	if (!memmem(text, first, RESULTS_LOG_SCHEMA, strlen(RESULTS_LOG_SCHEMA)))
		return false;
	o = parse_line(text, first, &jerr);
	is = o && json_is_string(json_object_get(o, "schema")) &&
	     !strcmp(json_string_value(json_object_get(o, "schema")),
		     RESULTS_LOG_SCHEMA);

	json_decref(o);
	return is;
}

/* One line after the header: a case or a run. */
static int log_entry(json_t *o, struct tb_results *r, char *msg, size_t len)
{
	json_t *c = json_object_get(o, "case"), *run = json_object_get(o, "run");
	json_int_t k;

	if (json_object_size(o) == 1 && json_is_object(c))
		return store_load_case(c, r, false, msg, len);
	if (json_object_size(o) != 2 || !json_is_integer(c) || !run) {
		snprintf(msg, len, "expected {\"case\":{...}} or {\"case\":N,\"run\":{...}}");
		return -1;
	}
	k = json_integer_value(c);
	if (k < 0 || (size_t)k >= r->ncases) {
		snprintf(msg, len, "run of case %lld: there are %zu cases",
			 (long long)k, r->ncases);
		return -1;
	}
	return store_load_run(run, &r->cases[k], msg, len);
}

int store_log_parse(const char *name, const char *text, size_t len,
		    struct tb_results *r, char *err, size_t errlen)
{
	const char *p = text, *end = text + len, *nl;
	char msg[512];
	json_error_t jerr;
	json_t *o;
	int line = 0;
	bool torn = false;

	for (; p < end; p = nl + 1) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		o = parse_line(p, nl ? (size_t)(nl - p) : (size_t)(end - p), &jerr);
		if (!o && !nl && line > 1) {
			torn = true;	/* the write a crash cut short */
			break;
		}
		if (!o || !json_is_object(o)) {
			char why[JSON_ERROR_TEXT_LENGTH];

			snprintf(err, errlen, "%s:%d: %s", name, line,
				 o ? "not a JSON object" :
				 json_error_safe(jerr.text, why, sizeof(why)));
			json_decref(o);
			return -1;
		}
		msg[0] = '\0';
		if (line == 1 ? store_set_env_meta(o, r, name, msg, sizeof(msg)) :
		    log_entry(o, r, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s:%d: %s", name, line, msg);
			json_decref(o);
			return -1;
		}
		json_decref(o);
		if (!nl)
			break;
	}
	json_object_set_new(r->meta, "incomplete", json_true());
	if (torn)
		json_object_set_new(r->meta, "torn_tail", json_true());
	return store_check_ids(name, text, len, r, err, errlen);
}
