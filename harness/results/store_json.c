// SPDX-License-Identifier: GPL-2.0-only
#include "store_json.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/stats.h"
#include "util/util.h"
#include "util/safe_file.h"

static json_t *metric_set_to_json(const struct metric_set *ms)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < ms->n; i++)
		json_object_set_new(o, ms->v[i].name, json_real(ms->v[i].value));
	return o;
}

json_t *store_run_json(const struct tb_run *run)
{
	json_t *o = json_object(), *u = json_object();
	size_t i;

	json_object_set_new(o, "status", json_string(run_status_name(run->status)));
	if (run->reason)
		json_object_set_new(o, "reason", json_string(run->reason));
	json_object_set_new(o, "exit_code", json_integer(run->exit_code));
	json_object_set_new(o, "signal", json_integer(run->signal));
	json_object_set_new(o, "roi", json_boolean(run->roi));
	json_object_set_new(o, "huge", json_integer(run->huge));
	json_object_set_new(o, "seq", json_integer(run->seq));
	if (run->leftover)
		json_object_set_new(o, "leftover_processes",
				    json_integer(run->leftover));
	if (run->settings_changed)
		json_object_set_new(o, "settings_changed", json_true());
	for (i = 0; i < run->unsupported.n; i++)
		json_object_set_new(u, run->unsupported.v[i].name,
				    json_string(run->unsupported.v[i].reason));
	json_object_set_new(o, "metrics", metric_set_to_json(&run->metrics));
	json_object_set_new(o, "unsupported", u);
	json_object_set_new(o, "counted_pct", metric_set_to_json(&run->counted_pct));
	return o;
}

json_t *store_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *summary_to_json(const struct tb_case *c)
{
	json_t *o = json_object();
	struct summary s;
	char **names;
	double *vals = xmalloc((c->nruns ? c->nruns : 1) * sizeof(*vals));
	size_t i, n, nn = case_metric_names(c, &names);

	for (i = 0; i < nn; i++) {
		json_t *m;

		n = case_metric_values(c, names[i], vals, c->nruns);
		if (stats_summary(vals, n, &s))
			continue;
		m = json_object();
		json_object_set_new(m, "n", json_integer((json_int_t)s.n));
		json_object_set_new(m, "mean", store_num(s.mean));
		json_object_set_new(m, "stddev", store_num(s.stddev));
		json_object_set_new(m, "stderr", store_num(s.stderr_mean));
		json_object_set_new(m, "min", store_num(s.min));
		json_object_set_new(m, "median", store_num(s.median));
		json_object_set_new(m, "max", store_num(s.max));
		json_object_set_new(m, "ci95_lo", store_num(s.ci95_lo));
		json_object_set_new(m, "ci95_hi", store_num(s.ci95_hi));
		json_object_set_new(o, names[i], m);
	}
	free(names);
	free(vals);
	return o;
}

json_t *store_case_json(const struct tb_case *c, bool with_runs)
{
	json_t *o = json_object(), *runs = json_array();
	size_t i;

	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "name", json_string(c->name ? c->name : ""));
	json_object_set_new(o, "workload", json_string(c->workload));
	json_object_set_new(o, "args", strv_to_json(c->args, c->nargs));
	json_object_set_new(o, "env", strv_to_json(c->env, c->nenv));
	json_object_set_new(o, "thp", json_string(c->thp ? c->thp : ""));
	if (c->dims && json_object_size(c->dims))
		json_object_set(o, "dims", c->dims);
	json_object_set_new(o, "label", json_string(c->label ? c->label : ""));
	json_object_set_new(o, "expect_huge", json_boolean(c->expect_huge));
	json_object_set_new(o, "settings",
			    c->settings ? json_incref(c->settings) : json_object());
	if (c->extra)
		json_object_set(o, "extra", c->extra);
	if (!with_runs) {
		json_decref(runs);
		return o;
	}
	for (i = 0; i < c->nruns; i++)
		json_array_append_new(runs, store_run_json(&c->runs[i]));
	json_object_set_new(o, "runs", runs);
	json_object_set_new(o, "summary", summary_to_json(c));
	return o;
}

static char **json_to_strv(json_t *a, size_t *n)
{
	char **v;
	size_t i;

	*n = json_is_array(a) ? json_array_size(a) : 0;
	v = xcalloc(*n + 1, sizeof(*v));
	for (i = 0; i < *n; i++) {
		const char *s = json_string_value(json_array_get(a, i));

		v[i] = xstrdup(s ? s : "");
	}
	return v;
}

static const char *jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

int store_load_run(json_t *jr, struct tb_case *c, char *err, size_t errlen)
{
	struct tb_run *run = case_add_run(c);
	json_t *m = json_object_get(jr, "metrics"), *v;
	const char *key;
	int st = run_status_parse(jstr(jr, "status"));

	if (!json_is_object(jr)) {
		snprintf(err, errlen, "case %s: run %zu is not an object", c->id,
			 c->nruns);
		return -1;
	}
	if (st < 0) {
		snprintf(err, errlen, "case %s: run %zu has unknown status \"%s\"",
			 c->id, c->nruns, jstr(jr, "status"));
		return -1;
	}
	run->status = st;
	if (json_is_string(json_object_get(jr, "reason")))
		run->reason = xstrdup(jstr(jr, "reason"));
	run->exit_code = (int)json_integer_value(json_object_get(jr, "exit_code"));
	run->signal = (int)json_integer_value(json_object_get(jr, "signal"));
	run->roi = json_is_true(json_object_get(jr, "roi"));
	v = json_object_get(jr, "huge");
	run->huge = v ? (int)json_integer_value(v) : -1;
	run->seq = (long)json_integer_value(json_object_get(jr, "seq"));
	run->leftover = (int)json_integer_value(json_object_get(jr, "leftover_processes"));
	run->settings_changed = json_is_true(json_object_get(jr, "settings_changed"));
	json_object_foreach(m, key, v) {
		if (!json_is_number(v)) {
			snprintf(err, errlen, "case %s: metric %s is not a number",
				 c->id, key);
			return -1;
		}
		metric_set_put(&run->metrics, key, json_number_value(v));
	}
	json_object_foreach(json_object_get(jr, "unsupported"), key, v)
		note_set_put(&run->unsupported, key, json_string_value(v) ?
			     json_string_value(v) : "");
	json_object_foreach(json_object_get(jr, "counted_pct"), key, v)
		if (json_is_number(v))
			metric_set_put(&run->counted_pct, key, json_number_value(v));
	return 0;
}

/* "dims": an object of strings ({"mthp": "64K"}), or absent. */
static int load_dims(json_t *jc, struct tb_case *c, char *err, size_t errlen)
{
	json_t *d = json_object_get(jc, "dims"), *v;
	const char *key;

	if (!d)
		return 0;
	if (!json_is_object(d)) {
		snprintf(err, errlen, "case %s: \"dims\" is not an object", c->id);
		return -1;
	}
	json_object_foreach(d, key, v)
		if (!json_is_string(v)) {
			snprintf(err, errlen, "case %s: dims.%s is not a string",
				 c->id, key);
			return -1;
		}
	c->dims = json_incref(d);
	return 0;
}

int store_load_case(json_t *jc, struct tb_results *r, bool with_runs,
		    char *err, size_t errlen)
{
	struct tb_case *c = results_add_case(r);
	json_t *runs, *jr, *v;
	size_t i;

	if (!json_is_object(jc)) {
		snprintf(err, errlen, "case %zu is not an object", r->ncases);
		c->id = xstrdup("");
		return -1;
	}
	c->id = xstrdup(jstr(jc, "id"));
	if (!*c->id) {
		snprintf(err, errlen, "case %zu has no \"id\"", r->ncases);
		return -1;
	}
	c->name = xstrdup(jstr(jc, "name"));
	c->workload = xstrdup(jstr(jc, "workload"));
	c->args = json_to_strv(json_object_get(jc, "args"), &c->nargs);
	c->env = json_to_strv(json_object_get(jc, "env"), &c->nenv);
	c->thp = xstrdup(jstr(jc, "thp"));
	if (load_dims(jc, c, err, errlen))
		return -1;
	c->label = xstrdup(jstr(jc, "label"));
	c->expect_huge = json_is_true(json_object_get(jc, "expect_huge"));
	v = json_object_get(jc, "settings");
	c->settings = json_is_object(v) ? json_incref(v) : json_object();
	v = json_object_get(jc, "extra");
	c->extra = json_is_object(v) ? json_incref(v) : NULL;
	if (!with_runs)
		return 0;
	runs = json_object_get(jc, "runs");
	if (!json_is_array(runs)) {
		snprintf(err, errlen, "case %s has no \"runs\" array", c->id);
		return -1;
	}
	json_array_foreach(runs, i, jr)
		if (store_load_run(jr, c, err, errlen))
			return -1;
	return 0;
}

static int cmp_case_id(const void *a, const void *b)
{
	const struct tb_case *x = *(const struct tb_case *const *)a;
	const struct tb_case *y = *(const struct tb_case *const *)b;

	return strcmp(x->id, y->id);
}

/* 1-based line number of offset off in text. */
int store_line_at(const char *text, size_t off)
{
	int line = 1;
	size_t i;

	for (i = 0; i < off; i++)
		line += text[i] == '\n';
	return line;
}

/* Line of the nth (1-based) occurrence of needle in text; 0 if none. */
static int line_of(const char *text, size_t len, const char *needle, int nth)
{
	size_t n = strlen(needle), i;

	for (i = 0; n && i + n <= len; i++)
		if (!memcmp(text + i, needle, n) && !--nth)
			return store_line_at(text, i);
	return 0;
}

int store_check_ids(const char *name, const char *text, size_t len,
		    const struct tb_results *r, char *err, size_t errlen)
{
	const struct tb_case **v = xcalloc(r->ncases + 1, sizeof(*v));
	json_t *js;
	char *quoted;
	size_t i;
	int rc = 0, line;

	for (i = 0; i < r->ncases; i++)
		v[i] = &r->cases[i];
	qsort(v, r->ncases, sizeof(*v), cmp_case_id);
	for (i = 1; i < r->ncases && !rc; i++) {
		if (strcmp(v[i - 1]->id, v[i]->id))
			continue;
		js = json_string(v[i]->id);
		quoted = js ? json_dumps(js, JSON_ENCODE_ANY) : NULL;
		json_decref(js);
		line = quoted ? line_of(text, len, quoted, 2) : 0;
		if (line)
			snprintf(err, errlen, "%s:%d: case id \"%s\" appears twice",
				 name, line, v[i]->id);
		else
			snprintf(err, errlen, "%s: case id \"%s\" appears twice",
				 name, v[i]->id);
		free(quoted);
		rc = -1;
	}
	free(v);
	return rc;
}

int store_set_env_meta(json_t *root, struct tb_results *r, const char *name,
		       char *err, size_t errlen)
{
	json_t *env = json_object_get(root, "env");
	json_t *meta = json_object_get(root, "meta");

	if ((env && !json_is_object(env)) || (meta && !json_is_object(meta))) {
		snprintf(err, errlen, "%s: \"env\" and \"meta\" must be objects",
			 name);
		return -1;
	}
	r->env = env ? json_incref(env) : json_object();
	r->meta = meta ? json_incref(meta) : json_object();
	return 0;
}

int store_load_doc(const char *name, const char *text, size_t len,
		   struct tb_results *r, json_t **root_out, char *err,
		   size_t errlen)
{
	json_error_t jerr;
	json_t *root, *cases, *jc;
	char msg[512] = "";
	size_t i;
	int rc = -1;

	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		char why[JSON_ERROR_TEXT_LENGTH];

		snprintf(err, errlen, "%s:%d:%d: %s", name, jerr.line, jerr.column,
			 json_error_safe(jerr.text, why, sizeof(why)));
		return -1;
	}
	if (strcmp(jstr(root, "schema"), RESULTS_SCHEMA)) {
		snprintf(err, errlen, "%s: schema is \"%s\", expected \"%s\"",
			 name, jstr(root, "schema"), RESULTS_SCHEMA);
		goto out;
	}
	cases = json_object_get(root, "cases");
	if (!json_is_array(cases)) {
		snprintf(err, errlen, "%s: no \"cases\" array", name);
		goto out;
	}
	if (store_set_env_meta(root, r, name, err, errlen))
		goto out;
	json_array_foreach(cases, i, jc) {
		if (store_load_case(jc, r, true, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s: %s", name, msg);
			goto out;
		}
	}
	rc = store_check_ids(name, text, len, r, err, errlen);
out:
	if (!rc && root_out)
		*root_out = root;
	else
		json_decref(root);
	return rc;
}
