// SPDX-License-Identifier: GPL-2.0-only
#include "merge.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "store.h"
#include "util/util.h"

/* env keys that must be equal: a different value is another setup. */
static const char *const same_keys[] = {
	"kernel", "kernel_config", "cpu", "nr_cpus", "machine", "thp",
};

/* Case fields that define the measurement; the knobs it applied too
 * (compare refuses cases whose settings differ). */
static const char *const case_keys[] = { "workload", "args", "env", "thp", "dims",
					 "settings" };

static const char *str_of(json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "";
}

static bool same(json_t *a, json_t *b)
{
	if (!a || !b)
		return !a && !b;
	return json_equal(a, b);
}

static void short_str(json_t *v, char *buf, size_t len)
{
	char *s;

	if (!v) {
		snprintf(buf, len, "(absent)");
		return;
	}
	if (json_is_string(v)) {
		snprintf(buf, len, "%s", json_string_value(v));
		return;
	}
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	snprintf(buf, len, "%s", s ? s : "?");
	free(s);
}

static int check_env(json_t *e0, json_t *e, const char *p0, const char *p,
		     bool force, char *err, size_t errlen)
{
	char a[256], b[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(same_keys); i++) {
		json_t *va = json_object_get(e0, same_keys[i]);
		json_t *vb = json_object_get(e, same_keys[i]);

		if (same(va, vb))
			continue;
		short_str(va, a, sizeof(a));
		short_str(vb, b, sizeof(b));
		if (!force) {
			snprintf(err, errlen, "env.%s differs: %s in %s, %s in %s "
				 "(not the same setup; --force merges anyway)",
				 same_keys[i], a, p0, b, p);
			return -1;
		}
		tb_warn("merging despite env.%s: %s in %s, %s in %s",
			same_keys[i], a, p0, b, p);
	}
	return 0;
}

static int check_case(json_t *c0, json_t *c, const char *id, const char *p,
		      char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(case_keys); i++)
		if (!same(json_object_get(c0, case_keys[i]),
			  json_object_get(c, case_keys[i]))) {
			snprintf(err, errlen, "case %s: its %s in %s differs "
				 "from the first file's: not the same measurement",
				 id, case_keys[i], p);
			return -1;
		}
	return 0;
}

/* The least counted share per event over the ok runs: a mean of scaled
 * counts is no better counted than its worst run. */
static void least_counted(json_t *lo, const json_t *run)
{
	const char *key;
	json_t *v, *cur;

	json_object_foreach((json_t *)json_object_get(run, "counted_pct"), key, v) {
		cur = json_object_get(lo, key);
		if (json_is_number(v) && (!cur || json_number_value(v) < json_number_value(cur)))
			json_object_set_new(lo, key, json_real(json_number_value(v)));
	}
}

/* One run: the first ok run, its metrics the means over all ok runs, its
 * counted shares the least. */
static json_t *mean_run(json_t *runs)
{
	json_t *first = NULL, *sum = json_object(), *cnt = json_object();
	json_t *lo = json_object(), *run, *m, *v, *out;
	const char *key;
	size_t i;

	json_array_foreach(runs, i, run) {
		if (strcmp(str_of(json_object_get(run, "status")), "ok"))
			continue;
		if (!first)
			first = run;
		least_counted(lo, run);
		m = json_object_get(run, "metrics");
		json_object_foreach(m, key, v) {
			if (!json_is_number(v))
				continue;
			json_object_set_new(sum, key, json_real(json_number_value(v) +
				json_number_value(json_object_get(sum, key))));
			json_object_set_new(cnt, key, json_integer(1 +
				json_integer_value(json_object_get(cnt, key))));
		}
	}
	out = first ? json_deep_copy(first) : NULL;
	if (out) {
		m = json_object();
		json_object_foreach(sum, key, v)
			json_object_set_new(m, key, json_real(json_number_value(v) /
				(double)json_integer_value(json_object_get(cnt, key))));
		json_object_set_new(out, "metrics", m);
		json_object_set(out, "counted_pct", lo);
	}
	json_decref(lo);
	json_decref(sum);
	json_decref(cnt);
	return out;
}

static json_t *find_case(json_t *cases, const char *id)
{
	json_t *c;
	size_t i;

	json_array_foreach(cases, i, c)
		if (!strcmp(str_of(json_object_get(c, "id")), id))
			return c;
	return NULL;
}

/* Append file f's runs (or its mean run) to the merged cases. */
static int add_file(json_t *cases, json_t *in, const char *path,
		    const struct merge_opts *o, long *seq, size_t *nruns,
		    char *err, size_t errlen)
{
	json_t *c, *mc, *runs, *run;
	size_t i, j;

	json_array_foreach(json_object_get(in, "cases"), i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));

		runs = json_object_get(c, "runs");
		if (!id || !json_is_array(runs)) {
			snprintf(err, errlen, "%s: case %zu has no id or no runs", path, i);
			return -1;
		}
		mc = find_case(cases, id);
		if (mc && check_case(mc, c, id, path, err, errlen))
			return -1;
		if (!mc) {
			mc = json_deep_copy(c);
			json_object_del(mc, "summary");
			json_object_set_new(mc, "runs", json_array());
			json_array_append_new(cases, mc);
		}
		if (o->boot_means) {
			run = mean_run(runs);
			if (run) {
				json_object_set_new(run, "seq", json_integer((*seq)++));
				json_array_append_new(json_object_get(mc, "runs"), run);
				(*nruns)++;
			}
			continue;
		}
		json_array_foreach(runs, j, run) {
			json_t *r = json_deep_copy(run);

			json_object_set_new(r, "seq", json_integer((*seq)++));
			json_array_append_new(json_object_get(mc, "runs"), r);
			(*nruns)++;
		}
	}
	return 0;
}

json_t *merge_results(json_t *const *in, const char *const *paths, size_t n,
		      const struct merge_opts *o, char *err, size_t errlen)
{
	json_t *out, *cases = json_array(), *from = json_array(), *meta, *env;
	long seq = 0;
	size_t i;

	if (!n) {
		snprintf(err, errlen, "no results file to merge");
		goto fail;
	}
	for (i = 0; i < n; i++) {
		size_t nruns = 0, j;

		/* The same runs twice would double n and shrink every interval. */
		for (j = 0; j < i; j++)
			if (json_equal(in[j], in[i])) {
				snprintf(err, errlen,
					 "%s holds the same results as %s: merging a file twice would count its runs twice",
					 paths[i], paths[j]);
				goto fail;
			}

		env = json_object_get(in[i], "env");
		if (i && check_env(json_object_get(in[0], "env"), env, paths[0],
				   paths[i], o->force, err, errlen))
			goto fail;
		if (add_file(cases, in[i], paths[i], o, &seq, &nruns, err, errlen))
			goto fail;
		json_array_append_new(from, json_pack("{s:s, s:O?, s:O?, s:O?, s:I}",
			"path", paths[i], "hostname", json_object_get(env, "hostname"),
			"kernel", json_object_get(env, "kernel"),
			"started", json_object_get(env, "started"),
			"runs", (json_int_t)nruns));
	}
	out = json_deep_copy(in[0]);
	meta = json_object_get(out, "meta");
	if (!json_is_object(meta)) {
		meta = json_object();
		json_object_set_new(out, "meta", meta);
	}
	json_object_set_new(meta, "merged_from", from);
	if (o->boot_means)
		json_object_set_new(meta, "samples", json_string(
			"one per input file: the mean of its ok runs"));
	json_object_set_new(out, "cases", cases);
	return out;
fail:
	json_decref(cases);
	json_decref(from);
	return NULL;
}

int merge_write_checked(json_t *merged, const char *out, char *err,
			size_t errlen)
{
	char tmp[4096], why[1024];
	struct tb_results r;
	int rc = 0;

	snprintf(tmp, sizeof(tmp), "%s.merge.%ld", out, (long)getpid());
	if (json_dump_file(merged, tmp, JSON_INDENT(1))) {
		snprintf(err, errlen, "%s: cannot write", tmp);
		return -1;
	}
	if (store_load(tmp, &r, why, sizeof(why))) {
		unlink(tmp);
		snprintf(err, errlen, "merged file invalid: %s", why);
		return -1;
	}
	unlink(tmp);
	if (store_write(&r, out, err, errlen))
		rc = -1;
	results_free(&r);
	return rc;
}
