// SPDX-License-Identifier: GPL-2.0-only
#include "store.h"
#include "store_json.h"
#include "store_log.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"
#include "util/safe_file.h"

json_t *store_results_json(const struct tb_results *r)
{
	json_t *o = json_object(), *cases = json_array();
	size_t i;

	json_object_set_new(o, "schema", json_string(RESULTS_SCHEMA));
	json_object_set_new(o, "env", r->env ? json_incref(r->env) : json_object());
	json_object_set_new(o, "meta", r->meta ? json_incref(r->meta) : json_object());
	for (i = 0; i < r->ncases; i++)
		json_array_append_new(cases, store_case_json(&r->cases[i], true));
	json_object_set_new(o, "cases", cases);
	return o;
}

int store_write(const struct tb_results *r, const char *path, char *err,
		size_t errlen)
{
	char tmp[4096];
	json_t *o = store_results_json(r);
	FILE *f;
	int rc = -1;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	f = sf_create(tmp, err, errlen);	/* never through a planted link */
	if (!f)
		goto out;
	if (json_dumpf(o, f, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) ||
	    fputc('\n', f) == EOF || fflush(f) || fsync(fileno(f))) {
		snprintf(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
		fclose(f);
		unlink(tmp);
		goto out;
	}
	fclose(f);
	if (rename(tmp, path)) {
		snprintf(err, errlen, "%s: rename to %s failed: %s", tmp, path,
			 strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	json_decref(o);
	return rc;
}

static int load_text(const char *name, const char *text, size_t len,
		     struct tb_results *r, json_t **root, char *err,
		     size_t errlen)
{
	const char *nul;
	int rc;

	if (root)
		*root = NULL;
	memset(r, 0, sizeof(*r));
	nul = memchr(text, '\0', len);
	if (nul) {
		snprintf(err, errlen, "%s:%d: a NUL byte: not a results file",
			 name, store_line_at(text, (size_t)(nul - text)));
		return -1;
	}
	if (store_log_is(text, len))
		rc = store_log_parse(name, text, len, r, err, errlen);
	else
		rc = store_load_doc(name, text, len, r, root, err, errlen);
	if (rc)
		results_free(r);
	return rc;
}

int store_load_text(const char *name, const char *text, size_t len,
		    struct tb_results *r, char *err, size_t errlen)
{
	return load_text(name, text, len, r, NULL, err, errlen);
}

int store_load_root(const char *path, struct tb_results *r, json_t **root,
		    char *err, size_t errlen)
{
	size_t len;
	char *text = read_regular(path, 0, &len, err, errlen);
	int rc;

	if (!text) {
		memset(r, 0, sizeof(*r));
		return -1;
	}
	rc = load_text(path, text, len, r, root, err, errlen);
	free(text);
	return rc;
}

int store_load(const char *path, struct tb_results *r, char *err,
	       size_t errlen)
{
	return store_load_root(path, r, NULL, err, errlen);
}
