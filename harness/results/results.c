// SPDX-License-Identifier: GPL-2.0-only
#include "results.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* FNV-1a over the name. */
static size_t name_hash(const char *s)
{
	size_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The index slot of name: its entry, or the empty one it would take. */
static size_t *index_find(const struct metric_set *ms, const char *name)
{
	size_t mask = ms->nslot - 1, i = name_hash(name) & mask;

	while (ms->slot[i] && strcmp(ms->v[ms->slot[i] - 1].name, name))
		i = (i + 1) & mask;
	return &ms->slot[i];
}

static void index_rebuild(struct metric_set *ms)
{
	size_t i;

	free(ms->slot);
	for (ms->nslot = 64; ms->nslot <= 4 * ms->n; ms->nslot *= 2)
		;
	ms->slot = xcalloc(ms->nslot, sizeof(*ms->slot));
	for (i = 0; i < ms->n; i++)
		*index_find(ms, ms->v[i].name) = i + 1;
}

static struct metric *metric_slot(struct metric_set *ms, const char *name)
{
	size_t i, *slot = NULL;

	if (ms->slot) {
		slot = index_find(ms, name);
		if (*slot)
			return &ms->v[*slot - 1];
	} else {
		for (i = 0; i < ms->n; i++)
			if (!strcmp(ms->v[i].name, name))
				return &ms->v[i];
	}
	ms->v = xgrow(ms->v, sizeof(*ms->v), &ms->cap, ms->n);
	ms->v[ms->n].name = xstrdup(name);
	ms->v[ms->n].value = 0;
	ms->n++;
	if (slot && 2 * ms->n < ms->nslot)
		*slot = ms->n;
	else if (ms->n >= METRIC_INDEX_MIN)
		index_rebuild(ms);
	return &ms->v[ms->n - 1];
}

void metric_set_put(struct metric_set *ms, const char *name, double value)
{
	metric_slot(ms, name)->value = value;
}

void metric_set_add(struct metric_set *ms, const char *name, double value)
{
	metric_slot(ms, name)->value += value;
}

const struct metric *metric_set_find(const struct metric_set *ms,
				     const char *name)
{
	size_t i, *slot;

	if (ms->slot) {
		slot = index_find(ms, name);
		return *slot ? &ms->v[*slot - 1] : NULL;
	}
	for (i = 0; i < ms->n; i++)
		if (!strcmp(ms->v[i].name, name))
			return &ms->v[i];
	return NULL;
}

void metric_set_free(struct metric_set *ms)
{
	size_t i;

	for (i = 0; i < ms->n; i++)
		free(ms->v[i].name);
	free(ms->v);
	free(ms->slot);
	memset(ms, 0, sizeof(*ms));
}

void note_set_put(struct note_set *ns, const char *name, const char *reason)
{
	if (note_set_find(ns, name))
		return;
	ns->v = xgrow(ns->v, sizeof(*ns->v), &ns->cap, ns->n);
	ns->v[ns->n].name = xstrdup(name);
	ns->v[ns->n].reason = xstrdup(reason);
	ns->n++;
}

const struct note *note_set_find(const struct note_set *ns, const char *name)
{
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (!strcmp(ns->v[i].name, name))
			return &ns->v[i];
	return NULL;
}

void note_set_free(struct note_set *ns)
{
	size_t i;

	for (i = 0; i < ns->n; i++) {
		free(ns->v[i].name);
		free(ns->v[i].reason);
	}
	free(ns->v);
	memset(ns, 0, sizeof(*ns));
}

static const char *const status_names[] = {
	[RUN_OK] = "ok",
	[RUN_FAILED] = "failed",
	[RUN_SIGNALED] = "signaled",
	[RUN_TIMEOUT] = "timeout",
	[RUN_INVALID] = "invalid",
	[RUN_ERROR] = "error",
};

const char *run_status_name(enum run_status st)
{
	if ((size_t)st < ARRAY_SIZE(status_names))
		return status_names[st];
	return "error";
}

int run_status_parse(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(status_names); i++)
		if (!strcmp(s, status_names[i]))
			return (int)i;
	return -1;
}

struct tb_case *results_add_case(struct tb_results *r)
{
	struct tb_case *c;

	r->cases = xgrow(r->cases, sizeof(*r->cases), &r->cap, r->ncases);
	c = &r->cases[r->ncases++];
	memset(c, 0, sizeof(*c));
	return c;
}

struct tb_run *case_add_run(struct tb_case *c)
{
	struct tb_run *run;

	c->runs = xgrow(c->runs, sizeof(*c->runs), &c->cap, c->nruns);
	run = &c->runs[c->nruns++];
	memset(run, 0, sizeof(*run));
	run->exit_code = -1;
	run->huge = -1;
	return run;
}

struct tb_case *results_find_case(const struct tb_results *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].id, id))
			return &r->cases[i];
	return NULL;
}

size_t case_metric_values(const struct tb_case *c, const char *name,
			  double *out, size_t max)
{
	const struct metric *m;
	size_t i, n = 0;

	for (i = 0; i < c->nruns && n < max; i++) {
		if (c->runs[i].status != RUN_OK)
			continue;
		m = metric_set_find(&c->runs[i].metrics, name);
		if (m)
			out[n++] = m->value;
	}
	return n;
}

size_t case_ok_runs(const struct tb_case *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->nruns; i++)
		n += c->runs[i].status == RUN_OK;
	return n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Every run of a case puts much the same few hundred names: they are made
 * unique through a set's index first, and only the distinct ones sorted
 * (sorting all runs' names was most of a long run's report time).
 */
size_t case_metric_names(const struct tb_case *c, char ***names)
{
	struct metric_set seen = { 0 };
	char **v = NULL;
	size_t i, j, n = 0, cap = 0;

	for (i = 0; i < c->nruns; i++) {
		const struct metric_set *ms = &c->runs[i].metrics;

		for (j = 0; j < ms->n; j++) {
			if (metric_set_find(&seen, ms->v[j].name))
				continue;
			metric_set_put(&seen, ms->v[j].name, 0);
			v = xgrow(v, sizeof(*v), &cap, n);
			v[n++] = ms->v[j].name;
		}
	}
	metric_set_free(&seen);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*names = v;
	return n;
}

static void case_free(struct tb_case *c)
{
	size_t i;

	free(c->id);
	free(c->name);
	free(c->workload);
	free(c->thp);
	free(c->label);
	free_strv(c->args, c->nargs);
	free_strv(c->env, c->nenv);
	json_decref(c->settings);
	json_decref(c->dims);
	json_decref(c->extra);
	for (i = 0; i < c->nruns; i++) {
		free(c->runs[i].reason);
		metric_set_free(&c->runs[i].metrics);
		note_set_free(&c->runs[i].unsupported);
		metric_set_free(&c->runs[i].counted_pct);
	}
	free(c->runs);
}

void results_free(struct tb_results *r)
{
	size_t i;

	for (i = 0; i < r->ncases; i++)
		case_free(&r->cases[i]);
	free(r->cases);
	json_decref(r->env);
	json_decref(r->meta);
	memset(r, 0, sizeof(*r));
}

json_t *strv_to_json(char **v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}
