// SPDX-License-Identifier: GPL-2.0-only
/* bisect_state - see bisect_state.h. */
#include "bisect_state.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect_dir.h"
#include "bisect_planfile.h"
#include "results/results.h"
#include "results/store.h"
#include "util/safe_file.h"
#include "util/util.h"

/* More runs than this in one directory is not a bisection. */
#define MAX_RUNS 100000
#define MAX_TEXT 4096

const char *bisect_short(const char *sha, char *buf, size_t len)
{
	snprintf(buf, len, "%.12s", sha ? sha : "?");
	return buf;
}

static bool is_sha(const char *s)
{
	size_t n = strlen(s), i;

	if (n != 40)	/* what bisect_planfile writes */
		return false;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]) &&
		    !(s[i] >= 'a' && s[i] <= 'f'))
			return false;
	return true;
}

/* A string member of o, or NULL (then *bad when present but no string). */
static const char *str_member(const json_t *o, const char *key, bool *bad)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v) || json_string_length(v) > MAX_TEXT ||
	    strlen(json_string_value(v)) != json_string_length(v)) {
		*bad = true;
		return NULL;
	}
	return json_string_value(v);
}

static char *dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

static int cmp_sha(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every commit once (issue 36 row 5: a commit listed twice had `bisect
 * next` answer it for ever), GOOD first and BAD last as "good" and
 * "bad" say. */
static int plan_unique(const struct bisect_state *s, const char *path,
		       char *err, size_t errlen)
{
	const char *good = json_string_value(json_object_get(s->plan, "good"));
	const char *bad = json_string_value(json_object_get(s->plan, "bad"));
	char **v = xcalloc(s->n, sizeof(*v));
	size_t i;
	int rc = 0;

	if ((good && strcmp(good, s->c[0].sha)) ||
	    (bad && strcmp(bad, s->c[s->n - 1].sha))) {
		snprintf(err, errlen, "%s: \"commits\" must run from \"good\" to \"bad\"", path);
		rc = -1;
	}
	for (i = 0; i < s->n; i++)
		v[i] = s->c[i].sha;
	qsort(v, s->n, sizeof(*v), cmp_sha);
	for (i = 1; i < s->n && !rc; i++)
		if (!strcmp(v[i], v[i - 1])) {
			snprintf(err, errlen, "%s: commit %s is listed twice (a plan lists each commit once; it is written by ./run.sh bisect, not by hand)",
				 path, v[i]);
			rc = -1;
		}
	free(v);
	return rc;
}

static int plan_commits(struct bisect_state *s, const char *path, char *err,
			size_t errlen)
{
	const json_t *arr = json_object_get(s->plan, "commits"), *e;
	size_t i;

	if (!json_is_array(arr) || json_array_size(arr) < 2 ||
	    json_array_size(arr) > MAX_RUNS) {
		snprintf(err, errlen, "%s: \"commits\" must list GOOD, then every commit up to BAD (2 or more)",
			 path);
		return -1;
	}
	s->n = json_array_size(arr);
	s->c = xcalloc(s->n, sizeof(*s->c));
	json_array_foreach(arr, i, e) {
		struct bisect_commit *c = &s->c[i];
		bool bad = !json_is_object(e);
		const char *sha = bad ? NULL : str_member(e, "sha", &bad);

		if (bad || !sha || !is_sha(sha)) {
			snprintf(err, errlen, "%s: commits[%zu]: needs \"sha\", a full hex commit id",
				 path, i);
			return -1;
		}
		c->sha = xstrdup(sha);
		c->subject = dup_or_empty(str_member(e, "subject", &bad));
		c->author = dup_or_empty(str_member(e, "author", &bad));
		c->date = dup_or_empty(str_member(e, "date", &bad));
		c->patch_id = dup_or_empty(str_member(e, "patch_id", &bad));
		if (bad) {
			snprintf(err, errlen, "%s: commits[%zu]: subject, author, date and patch_id must be strings",
				 path, i);
			return -1;
		}
	}
	return plan_unique(s, path, err, errlen);
}

/* plan.json's options, each range-checked where the writer checks it
 * (bisect_planfile). */
static int plan_options(struct bisect_state *s, const char *path, char *err,
			size_t errlen)
{
	const json_t *o = json_object_get(s->plan, "options"), *v;
	const char *key, *why;
	char e[256];

	bisect_opts_init(&s->opts);
	s->ref_reps = 10;
	if (!o)
		return 0;
	if (!json_is_object(o)) {
		snprintf(err, errlen, "%s: \"options\" must be an object", path);
		return -1;
	}
	json_object_foreach((json_t *)o, key, v)
		if (bisect_plan_option(&s->opts, &s->ref_reps, key,
				       json_is_number(v) ? json_number_value(v) : NAN,
				       e, sizeof(e))) {
			snprintf(err, errlen, "%s: options: %s", path, e);
			return -1;
		}
	why = bisect_opts_check(&s->opts);
	if (why) {
		snprintf(err, errlen, "%s: options: %s", path, why);
		return -1;
	}
	return 0;
}

static int load_plan(struct bisect_state *s, char *err, size_t errlen)
{
	char path[4096];
	bool bad = false;
	const char *schema;

	snprintf(path, sizeof(path), "%s/plan.json", s->dir);
	s->plan = bisect_plan_read(path, err, errlen);
	if (!s->plan)
		return -1;
	if (!json_is_object(s->plan)) {
		snprintf(err, errlen, "%s: not a JSON object", path);
		return -1;
	}
	schema = str_member(s->plan, "schema", &bad);
	if (!schema || strcmp(schema, BISECT_PLAN_SCHEMA)) {
		snprintf(err, errlen, "%s: schema is not \"%s\"", path, BISECT_PLAN_SCHEMA);
		return -1;
	}
	s->tree = str_member(s->plan, "tree", &bad);
	s->case_name = str_member(s->plan, "case", &bad);
	s->metric = str_member(s->plan, "metric", &bad);
	s->good_ref = str_member(s->plan, "good_ref", &bad);
	s->bad_ref = str_member(s->plan, "bad_ref", &bad);
	if (bad || !s->case_name || !*s->case_name || !s->metric || !*s->metric) {
		snprintf(err, errlen, "%s: needs \"case\" and \"metric\" (strings)", path);
		return -1;
	}
	if (plan_commits(s, path, err, errlen))
		return -1;
	return plan_options(s, path, err, errlen);
}

static struct bisect_commit *find_commit(struct bisect_state *s,
					 const char *sha)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].sha, sha))
			return &s->c[i];
	return NULL;
}

/* The case named by s->case_name: its id, else its only name. */
static const struct tb_case *pick_case(const struct bisect_state *s,
				       const struct tb_results *r,
				       const char *path, char *err,
				       size_t errlen)
{
	const struct tb_case *hit = NULL;
	size_t i, names = 0;

	for (i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].id, s->case_name))
			return &r->cases[i];
	for (i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, s->case_name)) {
			hit = &r->cases[i];
			names++;
		}
	if (names == 1)
		return hit;
	if (hit)
		snprintf(err, errlen, "%s: %zu cases are called \"%s\": name one by its id (e.g. %s)",
			 path, names, s->case_name, hit->id);
	else
		snprintf(err, errlen, "%s: no case \"%s\" (give the suite's case name or its id)",
			 path, s->case_name);
	return NULL;
}

static void add_values(struct bisect_commit *c, const double *v, size_t n)
{
	size_t i;

	c->boots++;
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		c->v = xgrow(c->v, sizeof(*c->v), &c->vcap, c->n);
		c->v[c->n++] = v[i];
	}
	c->bn = xgrow(c->bn, sizeof(*c->bn), &c->bcap, c->nb);
	c->bn[c->nb++] = n;
}

static void note_timings(struct bisect_state *s, const struct tb_results *r)
{
	const json_t *t = json_object_get(r->meta, "timings");

	if (!s->unit_note && json_is_string(t))
		s->unit_note = xstrndup(json_string_value(t), 200);
}

static int load_results(struct bisect_state *s, struct bisect_commit *c,
			const char *path, char *err, size_t errlen)
{
	struct tb_results r = { 0 };
	const struct tb_case *tc;
	double *v;
	size_t n;
	int rc = -1;

	if (store_load(path, &r, err, errlen))
		return -1;
	tc = pick_case(s, &r, path, err, errlen);
	if (tc) {
		v = xcalloc(tc->nruns + 1, sizeof(*v));
		n = case_metric_values(tc, s->metric, v, tc->nruns);
		if (!n && case_ok_runs(tc) > 0) {
			snprintf(err, errlen, "%s: case %s has no metric \"%s\" in its ok runs (a metric the suite records, e.g. roi_usec or vmstat.thp_split_pmd)",
				 path, tc->id, s->metric);
		} else {
			add_values(c, v, n);
			note_timings(s, &r);
			rc = 0;
		}
		free(v);
	}
	results_free(&r);
	return rc;
}

/* Length of the valid UTF-8 sequence at s (1-4), 0 when there is none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 :
	    s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static char *first_line(const char *path)
{
	char buf[512], why[64];
	json_t *t;
	size_t i, n;

	if (read_regular_str(path, SF_NOFOLLOW, buf, sizeof(buf), why, sizeof(why)))
		return xstrdup("(unreadable skip file)");
	buf[strcspn(buf, "\n")] = 0;
	/* The reason reaches JSON (valid UTF-8 only), the text report and
	 * git-bisect.log: control characters become spaces, bytes that are
	 * no UTF-8 '?' (a compiler's quotes stay). */
	for (i = 0; buf[i]; i += n ? n : 1) {
		n = utf8_len((const unsigned char *)buf + i);
		if (!n)
			buf[i] = '?';
		else if (n == 1 && ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f))
			buf[i] = ' ';
	}
	t = json_string(buf);
	if (!t)		/* what jansson still refuses (surrogates): ASCII only */
		for (i = 0; buf[i]; i++)
			if ((unsigned char)buf[i] >= 0x80)
				buf[i] = '?';
	json_decref(t);
	return xstrdup(*buf ? buf : "skipped");
}

static int load_run(struct bisect_state *s, size_t num, const char *rdir,
		    char *err, size_t errlen)
{
	char path[4200], sha[128];
	struct bisect_commit *c;

	snprintf(path, sizeof(path), "%s/commit", rdir);
	if (read_regular_str(path, SF_NOFOLLOW, sha, sizeof(sha), err, errlen))
		return -1;
	c = find_commit(s, str_trim(sha));
	if (!c) {
		snprintf(err, errlen, "%s: not a commit of this bisection's plan", path);
		return -1;
	}
	if (!c->first_run)
		c->first_run = num;
	c->last_run = num;
	snprintf(path, sizeof(path), "%s/results.json", rdir);
	if (access(path, F_OK) == 0)
		return load_results(s, c, path, err, errlen);
	snprintf(path, sizeof(path), "%s/skip", rdir);
	if (access(path, F_OK) == 0) {
		free(c->skip);
		c->skip = first_line(path);
		return 0;
	}
	snprintf(err, errlen, "%s: neither results.json nor skip (remove the directory: the driver's own are renamed into place only when complete)",
		 rdir);
	return -1;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Run numbers under DIR/runs, sorted. */
static size_t list_runs(const char *dir, size_t **out)
{
	char path[4096];
	DIR *d;
	struct dirent *e;
	size_t n = 0, cap = 0;
	int fd;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/runs", dir);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((e = readdir(d)) && n < MAX_RUNS) {
		size_t v = bisect_run_number(e->d_name);

		if (!v)
			continue;
		*out = xgrow(*out, sizeof(**out), &cap, n);
		(*out)[n++] = v;
	}
	closedir(d);
	if (n)
		qsort(*out, n, sizeof(**out), cmp_size);
	return n;
}

int bisect_state_load(const char *dir, struct bisect_state *st, char *err,
		      size_t errlen)
{
	size_t *runs, nr, i;
	char rdir[4096];

	memset(st, 0, sizeof(*st));
	st->dir = xstrdup(dir);
	if (strlen(dir) > 3000) {
		snprintf(err, errlen, "%.64s...: path too long", dir);
		return -1;
	}
	if (bisect_dir_check(dir, err, errlen) || load_plan(st, err, errlen))
		return -1;
	nr = list_runs(dir, &runs);
	for (i = 0; i < nr; i++) {
		snprintf(rdir, sizeof(rdir), "%s/runs/%04zu", dir, runs[i]);
		if (load_run(st, runs[i], rdir, err, errlen)) {
			free(runs);
			return -1;
		}
	}
	st->runs = nr;
	free(runs);
	return 0;
}

void bisect_state_free(struct bisect_state *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct bisect_commit *c = &s->c[i];

		free(c->sha);
		free(c->subject);
		free(c->author);
		free(c->date);
		free(c->patch_id);
		free(c->v);
		free(c->bn);
		free(c->skip);
	}
	free(s->c);
	free(s->dir);
	free(s->unit_note);
	json_decref(s->plan);
	memset(s, 0, sizeof(*s));
}

static struct bisect_sample sample_of(const struct bisect_commit *c)
{
	struct bisect_sample x = { c->v, c->n, c->bn, c->nb };

	return x;
}

/* GOOD and BAD interleaved up to `boots` each; false when done. */
static bool ref_next(const struct bisect_state *s, size_t boots,
		     struct bisect_action *a)
{
	const struct bisect_commit *g = &s->c[0], *b = &s->c[s->n - 1];

	if (g->boots >= boots && b->boots >= boots)
		return false;
	a->kind = BA_MEASURE;
	a->commit = g->boots <= b->boots ? 0 : s->n - 1;
	a->reps = s->ref_reps;
	snprintf(a->why, sizeof(a->why), "reference %s, boot %zu of %zu",
		 a->commit ? "BAD" : "GOOD", s->c[a->commit].boots + 1, boots);
	return true;
}

static bool refs_phase(struct bisect_state *s, struct bisect_action *a)
{
	const struct bisect_commit *g = &s->c[0], *b = &s->c[s->n - 1];
	struct bisect_sample sg = sample_of(g), sb = sample_of(b);
	size_t want = s->opts.ref_boots;

	for (;;) {
		if (g->skip || b->skip) {
			a->kind = BA_ERROR;
			snprintf(a->why, sizeof(a->why), "%s cannot be measured: %s",
				 g->skip ? "GOOD" : "BAD", g->skip ? g->skip : b->skip);
			return true;
		}
		if (ref_next(s, want, a))
			return true;
		if (bisect_refs(&sg, &sb, &s->opts, &s->refs)) {
			a->kind = BA_ERROR;
			snprintf(a->why, sizeof(a->why), "%s has fewer than 2 ok repetitions of %s in %zu boots",
				 g->n < 2 ? "GOOD" : "BAD", s->metric,
				 g->n < 2 ? g->boots : b->boots);
			return true;
		}
		if (s->refs.state != REFS_MORE)
			break;
		/* One more boot each (evening up first). */
		want = g->boots > b->boots ? g->boots : b->boots;
		want += g->boots == b->boots;
		if (want > s->opts.ref_max_boots + 2) {
			a->kind = BA_ERROR;
			snprintf(a->why, sizeof(a->why), "%zu boots of GOOD and BAD gave too few ok repetitions of %s",
				 want - 1, s->metric);
			return true;
		}
	}
	s->refs_done = true;
	s->c[0].cls = BC_GOOD;
	s->c[s->n - 1].cls = BC_BAD;
	if (s->refs.state != REFS_CHANGE) {
		a->kind = BA_NOTHING;
		snprintf(a->why, sizeof(a->why), "nothing to bisect: GOOD vs BAD is %s",
			 bisect_refs_state_name(s->refs.state));
		return true;
	}
	return false;
}

static void classify(struct bisect_state *s, struct bisect_commit *c)
{
	struct bisect_sample sg = sample_of(&s->c[0]);
	struct bisect_sample sb = sample_of(&s->c[s->n - 1]), sx = sample_of(c);

	if (c->skip) {
		c->cls = BC_SKIP;
		return;
	}
	if (!c->boots) {
		c->cls = BC_UNTESTED;
		return;
	}
	if (!c->n) {
		free(c->skip);
		c->skip = xstrdup("run: no ok repetition");
		c->cls = BC_SKIP;
		return;
	}
	if (bisect_step(&sg, &sb, &sx, &s->opts, &c->step)) {
		c->cls = BC_INCONCLUSIVE;
		return;
	}
	c->decided_step = true;
	switch (c->step.verdict) {
	case BV_GOOD: c->cls = BC_GOOD; break;
	case BV_BAD: c->cls = BC_BAD; break;
	case BV_PARTIAL: c->cls = BC_PARTIAL; break;
	case BV_MORE: c->cls = BC_MEASURING; break;
	default: c->cls = BC_INCONCLUSIVE; break;
	}
}

enum bisect_class *bisect_state_classes(const struct bisect_state *s)
{
	enum bisect_class *c = xcalloc(s->n, sizeof(*c));
	size_t i;

	for (i = 0; i < s->n; i++)
		c[i] = s->c[i].cls;
	return c;
}

/* Measure step commit k: its first repetitions, or more of them. */
static void step_action(const struct bisect_state *s, const enum bisect_class *cls,
			size_t k, struct bisect_action *a)
{
	memset(a, 0, sizeof(*a));
	a->kind = BA_MEASURE;
	a->commit = k;
	a->reps = s->c[k].cls == BC_MEASURING ? s->c[k].step.next_reps : s->refs.first_reps;
	snprintf(a->why, sizeof(a->why), s->c[k].cls == BC_MEASURING ?
		 "step: more repetitions (%zu commits left to test at most)" :
		 "step: %zu commits left to test at most",
		 bisect_plan_left(cls, s->n));
}

void bisect_state_eval(struct bisect_state *s, struct bisect_action *a)
{
	enum bisect_class *cls;
	size_t i, k;

	memset(a, 0, sizeof(*a));
	if (refs_phase(s, a))
		return;
	for (i = 1; i + 1 < s->n; i++)
		classify(s, &s->c[i]);
	cls = bisect_state_classes(s);
	k = bisect_plan_next(cls, s->n);
	if (k == SIZE_MAX) {
		a->kind = BA_DONE;
		snprintf(a->why, sizeof(a->why), "the search is over");
	} else {
		step_action(s, cls, k, a);
	}
	free(cls);
}

size_t bisect_state_eval_n(struct bisect_state *s, struct bisect_action *a, size_t k)
{
	enum bisect_class *cls;
	size_t *pick, got, i;

	bisect_state_eval(s, &a[0]);
	if (k <= 1 || a[0].kind != BA_MEASURE)
		return 1;
	/* The references: GOOD and BAD boot together while even, as an A/B
	 * round does (bisect_state_eval alternates them). */
	if (!s->refs_done) {
		if (a[0].commit != 0 || s->c[0].boots != s->c[s->n - 1].boots)
			return 1;
		a[1] = a[0];
		a[1].commit = s->n - 1;
		snprintf(a[1].why, sizeof(a[1].why), "reference BAD, with GOOD");
		return 2;
	}
	cls = bisect_state_classes(s);
	pick = xcalloc(k, sizeof(*pick));
	got = bisect_plan_next_n(cls, s->n, k, pick);
	for (i = 0; i < got; i++)
		step_action(s, cls, pick[i], &a[i]);
	free(pick);
	free(cls);
	return got ? got : 1;
}
