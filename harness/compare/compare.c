// SPDX-License-Identifier: GPL-2.0-only
#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_env.h"
#include "compare_metrics.h"
#include "util/util.h"

/* Which case fields make up the key that must be equal within a pair. */
enum {
	KEY_ENV = 1,
	KEY_THP = 2,
	KEY_LABEL = 4,
	KEY_DIMS = 8,	/* the dimensions but the one compared along */
};

static const char *const test_names[] = {
	[COMPARE_TEST_WELCH] = "welch",
	[COMPARE_TEST_MW] = "mann-whitney",
	[COMPARE_TEST_BOTH] = "both",
};

const char *compare_test_name(enum compare_test t)
{
	if ((size_t)t < ARRAY_SIZE(test_names))
		return test_names[t];
	return "welch";
}

int compare_test_parse(const char *s)
{
	size_t i;

	if (!strcmp(s, "mw"))
		return COMPARE_TEST_MW;
	for (i = 0; i < ARRAY_SIZE(test_names); i++)
		if (!strcmp(s, test_names[i]))
			return (int)i;
	return -1;
}

static const char *const by_names[] = {
	[COMPARE_FILES] = "files",
	[COMPARE_BY_THP] = "thp",
	[COMPARE_BY_LABEL] = "label",
	[COMPARE_BY_MTHP] = "mthp",
	[COMPARE_BY_MEM] = "mem",
};

static const char *const by_words[] = {
	[COMPARE_FILES] = "file",
	[COMPARE_BY_THP] = "THP mode",
	[COMPARE_BY_LABEL] = "label",
	[COMPARE_BY_MTHP] = "mTHP size",
	[COMPARE_BY_MEM] = "memory state",
};

const char *compare_by_name(enum compare_by by)
{
	return (size_t)by < ARRAY_SIZE(by_names) ? by_names[by] : "files";
}

const char *compare_by_what(enum compare_by by)
{
	return (size_t)by < ARRAY_SIZE(by_words) ? by_words[by] : "file";
}

int compare_by_parse(const char *s)
{
	size_t i;

	for (i = COMPARE_BY_THP; i < ARRAY_SIZE(by_names); i++)
		if (!strcmp(s, by_names[i]))
			return (int)i;
	return -1;
}

/* The dimension a "by" compares along, NULL for thp and label. */
static const char *by_dim(enum compare_by by)
{
	return by == COMPARE_BY_MTHP || by == COMPARE_BY_MEM ? by_names[by]
							     : NULL;
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

const char *compare_by_value(const struct tb_case *c, enum compare_by by)
{
	if (by == COMPARE_BY_THP)
		return or_empty(c->thp);
	if (by == COMPARE_BY_LABEL)
		return or_empty(c->label);
	return or_empty(json_string_value(json_object_get(c->dims, by_dim(by))));
}

void compare_opts_init(struct compare_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->by = COMPARE_FILES;
	o->confidence = 0.95;
	o->threshold = 0.02;
	o->power = 0.8;
	o->test = COMPARE_TEST_WELCH;
	o->outliers = OUTLIER_MAD;
}

struct sbuf {
	char *s;
	size_t n, cap;
};

static void sb_add(struct sbuf *b, const char *s)
{
	size_t l = strlen(s);

	while (b->n + l + 1 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, l + 1);
	b->n += l;
}

static void sb_strv(struct sbuf *b, char **v, size_t n, const char *sep)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i)
			sb_add(b, sep);
		sb_add(b, v[i]);
	}
}

/*
 * Per-run resource paths the harness put in a case's env
 * (/run/thpbench/mnt-PID-N, /dev/zramN, .../thpbench-PID-N, a
 * service's socket and pid): they differ
 * between the cases of one run and between runs, so they take no part in
 * which cases pair up, nor in the title. THPBENCH_ZSWAP (on/off) does.
 */
static bool per_run_env(const char *kv)
{
	static const char *const keys[] = {
		"THPBENCH_MOUNT=", "THPBENCH_SWAP=", "THPBENCH_CGROUP=",
		"THPBENCH_SERVICE_SOCKET=", "THPBENCH_SERVICE_PID=",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strncmp(kv, keys[i], strlen(keys[i])))
			return true;
	return false;
}

/* c's env but the per-run resource paths, sep between. */
static void sb_env(struct sbuf *b, const struct tb_case *c, const char *sep)
{
	bool first = true;
	size_t i;

	for (i = 0; i < c->nenv; i++) {
		if (per_run_env(c->env[i]))
			continue;
		if (!first)
			sb_add(b, sep);
		sb_add(b, c->env[i]);
		first = false;
	}
}

static size_t env_shown(const struct tb_case *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->nenv; i++)
		n += !per_run_env(c->env[i]);
	return n;
}

/* " mthp=64K mem=fragmented": every dimension of c but skip's. */
static void sb_dims(struct sbuf *b, const struct tb_case *c, const char *skip)
{
	const char *key;
	json_t *v;

	json_object_foreach(c->dims, key, v) {
		if (skip && !strcmp(key, skip))
			continue;
		sb_add(b, " ");
		sb_add(b, key);
		sb_add(b, "=");
		sb_add(b, or_empty(json_string_value(v)));
	}
}

static char *case_key(const struct tb_case *c, int fields, enum compare_by by)
{
	struct sbuf b = { 0 };

	sb_add(&b, c->workload ? c->workload : "");
	sb_add(&b, "\x1f");
	sb_strv(&b, c->args, c->nargs, "\x1e");
	if (fields & KEY_ENV) {
		sb_add(&b, "\x1f");
		sb_env(&b, c, "\x1e");
	}
	if (fields & KEY_THP) {
		sb_add(&b, "\x1fthp=");
		sb_add(&b, c->thp ? c->thp : "");
	}
	if (fields & KEY_LABEL) {
		sb_add(&b, "\x1flabel=");
		sb_add(&b, c->label ? c->label : "");
	}
	if (fields & KEY_DIMS) {
		sb_add(&b, "\x1f");
		sb_dims(&b, c, by_dim(by));
	}
	return b.s;
}

/* What was run, in the words of the command line. */
static char *printable_owned(char *s)
{
	char *p = str_printable_dup(s);

	free(s);
	return p;
}

static char *case_title(const struct tb_case *c, enum compare_by by)
{
	struct sbuf b = { 0 };

	sb_add(&b, c->name && *c->name ? c->name : or_empty(c->workload));
	if (c->nargs) {
		sb_add(&b, " ");
		sb_strv(&b, c->args, c->nargs, " ");
	}
	if (env_shown(c) && by != COMPARE_BY_LABEL) {
		sb_add(&b, " [");
		sb_env(&b, c, " ");
		sb_add(&b, "]");
	}
	sb_dims(&b, c, by_dim(by));
	if (by != COMPARE_BY_THP && c->thp && *c->thp) {
		sb_add(&b, " thp=");
		sb_add(&b, c->thp);
	}
	if (by == COMPARE_BY_THP && c->label && *c->label) {
		sb_add(&b, " label=");
		sb_add(&b, c->label);
	}
	return b.s ? b.s : xstrdup("");
}

static char *side_name(const struct tb_case *c, enum compare_by by,
		       const char *fallback)
{
	char buf[256];

	if (by == COMPARE_BY_THP) {
		snprintf(buf, sizeof(buf), "thp=%s",
			 c->thp && *c->thp ? c->thp : "(as found)");
		return xstrdup(buf);
	}
	if (by_dim(by)) {
		snprintf(buf, sizeof(buf), "%s=%s", by_dim(by),
			 compare_by_value(c, by));
		return xstrdup(buf);
	}
	if (c->label && *c->label)
		return xstrdup(c->label);
	return xstrdup(fallback);
}

static void add_unmatched(struct comparison *c, const struct tb_case *tc,
			  const char *side, const char *why)
{
	struct compare_unmatched *u;

	c->un = xgrow(c->un, sizeof(*c->un), &c->ucap, c->nun);
	u = &c->un[c->nun++];
	u->c = tc;
	u->side = side;
	u->why = xstrdup(why);
}

static void add_pair(struct comparison *c, const struct tb_case *a,
		     const struct tb_case *b)
{
	struct compare_pair *p;

	c->pairs = xgrow(c->pairs, sizeof(*c->pairs), &c->cap, c->npairs);
	p = &c->pairs[c->npairs++];
	memset(p, 0, sizeof(*p));
	p->a = a;
	p->b = b;
	/* Shown in every format: names from results files, never raw. */
	p->title = printable_owned(case_title(a, c->opts.by));
	p->a_name = printable_owned(side_name(a, c->opts.by, "base"));
	p->b_name = printable_owned(side_name(b, c->opts.by, "new"));
	if (c->opts.by == COMPARE_FILES && !strcmp(p->a_name, p->b_name)) {
		free(p->a_name);
		free(p->b_name);
		p->a_name = xstrdup("base");
		p->b_name = xstrdup("new");
	}
}

static int name_eq(const char *x, const char *y)
{
	return x && y && !strcmp(x, y);
}

/* Among the unused cases of rb with the key of a: same id, same name,
 * then the first. */
static long best_partner(const struct tb_case *a, const char *key,
			 const struct tb_results *rb, char **keys, bool *used)
{
	long first = -1, by_name = -1;
	size_t j;

	for (j = 0; j < rb->ncases; j++) {
		if (used[j] || strcmp(keys[j], key))
			continue;
		if (name_eq(a->id, rb->cases[j].id))
			return (long)j;
		if (by_name < 0 && name_eq(a->name, rb->cases[j].name))
			by_name = (long)j;
		if (first < 0)
			first = (long)j;
	}
	return by_name >= 0 ? by_name : first;
}

/* Why tc has no partner in the other file (a static buffer). */
static const char *no_partner(const struct tb_case *tc, const char *other)
{
	static char why[160];

	snprintf(why, sizeof(why), "no case in %s with the same workload, arguments, "
		 "environment%s and THP mode", other,
		 json_object_size(tc->dims) ? ", dimensions (mthp, mem)" : "");
	return why;
}

static void pair_files(struct comparison *c)
{
	const struct tb_results *ra = c->ra, *rb = c->rb;
	int fields = KEY_ENV | KEY_THP | KEY_DIMS;
	char **kb = xcalloc(rb->ncases + 1, sizeof(*kb));
	bool *used = xcalloc(rb->ncases + 1, sizeof(*used));
	size_t i;

	for (i = 0; i < rb->ncases; i++)
		kb[i] = case_key(&rb->cases[i], fields, c->opts.by);
	for (i = 0; i < ra->ncases; i++) {
		char *ka = case_key(&ra->cases[i], fields, c->opts.by);
		long j = best_partner(&ra->cases[i], ka, rb, kb, used);

		if (j < 0)
			add_unmatched(c, &ra->cases[i], "base", no_partner(&ra->cases[i], "NEW"));
		else {
			used[j] = true;
			add_pair(c, &ra->cases[i], &rb->cases[j]);
		}
		free(ka);
	}
	for (i = 0; i < rb->ncases; i++) {
		if (!used[i])
			add_unmatched(c, &rb->cases[i], "new", no_partner(&rb->cases[i], "BASE"));
		free(kb[i]);
	}
	free(kb);
	free(used);
}

/* The base of one group: --base if given, else the first in file order. */
static long group_base(const struct comparison *c, char **keys, size_t i0)
{
	const struct tb_results *r = c->ra;
	size_t j;

	if (!c->opts.base_value)
		return (long)i0;
	for (j = i0; j < r->ncases; j++)
		if (!strcmp(keys[j], keys[i0]) &&
		    !strcmp(compare_by_value(&r->cases[j], c->opts.by),
			    c->opts.base_value))
			return (long)j;
	return -1;
}

static void pair_group(struct comparison *c, char **keys, bool *done,
		       size_t i0)
{
	const struct tb_results *r = c->ra;
	const char *what = compare_by_what(c->opts.by);
	long base = group_base(c, keys, i0);
	size_t j, k, members = 0;
	char why[300];

	for (j = i0; j < r->ncases; j++) {
		if (done[j] || strcmp(keys[j], keys[i0]))
			continue;
		done[j] = true;
		members++;
		if (base < 0) {
			snprintf(why, sizeof(why), "no case with %s '%s' to compare with",
				 what, c->opts.base_value);
			add_unmatched(c, &r->cases[j], "", why);
			continue;
		}
		if ((long)j == base)
			continue;
		for (k = i0; k < j; k++)
			if (!strcmp(keys[k], keys[j]) &&
			    !strcmp(compare_by_value(&r->cases[k], c->opts.by),
				    compare_by_value(&r->cases[j], c->opts.by)))
				break;
		if (k < j ||
		    !strcmp(compare_by_value(&r->cases[j], c->opts.by),
			    compare_by_value(&r->cases[base], c->opts.by))) {
			snprintf(why, sizeof(why),
				 "another case has the same workload, "
				 "arguments and %s '%s': ambiguous",
				 what,
				 compare_by_value(&r->cases[j], c->opts.by));
			add_unmatched(c, &r->cases[j], "", why);
			continue;
		}
		add_pair(c, &r->cases[base], &r->cases[j]);
	}
	if (members == 1 && base >= 0) {
		snprintf(why, sizeof(why), "the only %s of its workload and arguments: nothing to compare with",
			 what);
		add_unmatched(c, &r->cases[base], "", why);
	}
}

static void pair_by(struct comparison *c)
{
	const struct tb_results *r = c->ra;
	int fields = c->opts.by == COMPARE_BY_THP
			     ? KEY_ENV | KEY_LABEL | KEY_DIMS
		     : c->opts.by == COMPARE_BY_LABEL
			     ? KEY_THP | KEY_DIMS
			     : KEY_ENV | KEY_LABEL | KEY_THP | KEY_DIMS;
	char **keys = xcalloc(r->ncases + 1, sizeof(*keys));
	bool *done = xcalloc(r->ncases + 1, sizeof(*done));
	size_t i;

	for (i = 0; i < r->ncases; i++)
		keys[i] = case_key(&r->cases[i], fields, c->opts.by);
	for (i = 0; i < r->ncases; i++)
		if (!done[i])
			pair_group(c, keys, done, i);
	for (i = 0; i < r->ncases; i++)
		free(keys[i]);
	free(keys);
	free(done);
}

static bool all_modes_set(const struct comparison *c)
{
	size_t i;

	for (i = 0; i < c->npairs; i++)
		if (!c->pairs[i].a->thp || !*c->pairs[i].a->thp ||
		    !c->pairs[i].b->thp || !*c->pairs[i].b->thp)
			return false;
	return c->npairs > 0;
}

/* Pairs left without a metric by --metric are the user's choice: not
 * printed as empty tables. */
static void drop_unselected(struct comparison *c)
{
	size_t i, j = 0;

	if (!c->opts.nmetrics)
		return;
	for (i = 0; i < c->npairs; i++) {
		struct compare_pair *p = &c->pairs[i];

		if (!p->nm && !p->nonly_a && !p->nonly_b) {
			compare_pair_free(p);
			continue;
		}
		if (j != i)
			c->pairs[j] = *p;
		j++;
	}
	c->npairs = j;
}

static bool any_tested(const struct comparison *c)
{
	size_t i, j;

	for (i = 0; i < c->npairs; i++)
		for (j = 0; j < c->pairs[i].nm; j++)
			if (c->pairs[i].m[j].tested)
				return true;
	return false;
}

/* The metrics of one side as "a, b, c" (at most len bytes). */
static void side_metrics(char **v, size_t n, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = 0;
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", v[i]);
	if (!n)
		snprintf(buf, len, "none");
}

/*
 * No metric has 3 values on both sides: say what is missing. Runs, when
 * a side has fewer than 3 ok runs; else common metrics, when the two
 * sides measured different ones; else values, when the common metrics
 * were measured in too few of the runs.
 */
static void why_untested(const struct comparison *c, char *err, size_t len)
{
	const struct compare_pair *p = &c->pairs[0];
	size_t i, na = 0, nb = 0;
	char ma[300], mb[300];

	for (i = 0; i < c->npairs; i++) {
		p = &c->pairs[i];
		na = case_ok_runs(p->a);
		nb = case_ok_runs(p->b);
		if (na >= VERDICT_MIN_N && nb >= VERDICT_MIN_N)
			break;
	}
	if (i == c->npairs) {
		snprintf(err, len,
			 "fewer than %d ok runs on a side in every compared case (%s: %zu vs %zu): refusing to compute statistics (rerun with -r 5 or more)",
			 VERDICT_MIN_N, p->title, case_ok_runs(p->a),
			 case_ok_runs(p->b));
		return;
	}
	if (!p->nm) {
		side_metrics(p->only_a, p->nonly_a, ma, sizeof(ma));
		side_metrics(p->only_b, p->nonly_b, mb, sizeof(mb));
		snprintf(err, len,
			 "%s: %zu vs %zu ok runs, but no metric was measured on both sides (only in %s: %s; only in %s: %s): compare runs of the same events and workload output%s",
			 p->title, na, nb, p->a_name, ma, p->b_name, mb,
			 c->opts.nmetrics ? ", or check the -m patterns" : "");
		return;
	}
	snprintf(err, len,
		 "%s: %zu vs %zu ok runs, but no metric has a value in %d of them on both sides (%s: %zu vs %zu values): the metrics are missing from most runs; check why the runs did not record them",
		 p->title, na, nb, VERDICT_MIN_N, p->m[0].name, p->m[0].a.n,
		 p->m[0].b.n);
}

int compare_build(struct comparison *c, const struct tb_results *ra,
		  const struct tb_results *rb, const struct compare_opts *opts,
		  char *err, size_t errlen)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->opts = *opts;
	c->ra = ra;
	c->rb = rb;
	if (opts->by == COMPARE_FILES)
		pair_files(c);
	else
		pair_by(c);
	if (opts->by == COMPARE_FILES)
		compare_env_check(c, all_modes_set(c));
	for (i = 0; i < c->npairs; i++)
		compare_settings_check(c, &c->pairs[i]);
	if (c->blocking && !opts->force) {
		snprintf(err, errlen,
			 "the results were measured in environments that differ (listed below); the comparison would not be valid. Rerun on the same machine with the same settings, or pass --force to compare anyway");
		return -1;
	}
	if (!c->npairs) {
		snprintf(err, errlen, "no case pairs up: nothing to compare (see the unmatched cases below)");
		return -1;
	}
	for (i = 0; i < c->npairs; i++)
		if (compare_pair_compute(&c->pairs[i], opts, err, errlen))
			return -1;
	drop_unselected(c);
	if (!any_tested(c)) {
		why_untested(c, err, errlen);
		return -1;
	}
	return 0;
}

void compare_free(struct comparison *c)
{
	size_t i;

	for (i = 0; i < c->npairs; i++)
		compare_pair_free(&c->pairs[i]);
	free(c->pairs);
	for (i = 0; i < c->nun; i++)
		free(c->un[i].why);
	free(c->un);
	for (i = 0; i < c->ndiffs; i++) {
		free(c->diffs[i].what);
		free(c->diffs[i].a);
		free(c->diffs[i].b);
	}
	free(c->diffs);
	if (c->prof) {
		compare_free(c->prof);
		free(c->prof);
	}
	memset(c, 0, sizeof(*c));
}

size_t compare_count(const struct comparison *c, enum verdict v)
{
	size_t i, j, n = 0;

	for (i = 0; i < c->npairs; i++)
		for (j = 0; j < c->pairs[i].nm; j++)
			n += c->pairs[i].m[j].verdict == v &&
			     !compare_metric_all_zero(&c->pairs[i].m[j]);
	return n;
}

const char *compare_env_str(const struct tb_results *r, const char *key,
			    char *buf, size_t len)
{
	json_t *v = r && r->env ? json_object_get(r->env, key) : NULL;

	buf[0] = 0;
	if (json_is_string(v))
		str_printable(json_string_value(v), buf, len);	/* shown: never raw */
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
	return buf;
}
