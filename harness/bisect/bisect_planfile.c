// SPDX-License-Identifier: GPL-2.0-only
/*
 * bisect_planfile - plan.json written, and its driver part read back
 * (contract in bisect_planfile.h). The script sequences git, make and the
 * boots; what it learns from git reaches this file as text, checked here.
 */
#include "bisect_planfile.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bisect_dir.h"
#include "bisect_state.h"
#include "measure/suite.h"
#include "util/safe_file.h"
#include "util/util.h"

#define MAX_TEXT 4096
#define MAX_COMMITS 100000

/* ---- the options, their ranges in one place ---- */

struct opt_def {
	const char *key;
	size_t off;		/* in struct bisect_opts; SIZE_MAX: ref_reps */
	bool count;
	double lo, hi;
};

#define OPT_D(k, lo, hi) { #k, offsetof(struct bisect_opts, k), false, lo, hi }
#define OPT_Z(k, lo, hi) { #k, offsetof(struct bisect_opts, k), true, lo, hi }

static const struct opt_def opt_defs[] = {
	OPT_D(confidence, 0.5, 1),
	OPT_Z(max_looks, 1, 100),
	OPT_Z(max_reps, 1, 100000),
	OPT_Z(min_batch, 1, 10000),
	OPT_Z(max_batch, 1, 10000),
	OPT_D(margin, 0, 0.5),
	OPT_D(threshold, 0, 1),
	OPT_D(ref_confidence, 0.5, 1),
	OPT_Z(ref_boots, 1, 100),
	OPT_Z(ref_max_boots, 1, 100),
	{ "ref_reps", SIZE_MAX, true, 1, 10000 },
};

int bisect_plan_option(struct bisect_opts *bo, size_t *ref_reps,
		       const char *key, double x, char *err, size_t errlen)
{
	const struct opt_def *od = NULL;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(opt_defs) && !od; i++)
		if (!strcmp(opt_defs[i].key, key))
			od = &opt_defs[i];
	if (!od) {
		snprintf(err, errlen, "unknown option \"%s\"", key);
		return -1;
	}
	if (!(x >= od->lo && x <= od->hi) || (od->count && x != floor(x))) {
		snprintf(err, errlen, "%s must be a%s number in [%g, %g]", key,
			 od->count ? "n integer" : "", od->lo, od->hi);
		return -1;
	}
	n = (size_t)x;
	if (od->off == SIZE_MAX)
		*ref_reps = n;
	else if (od->count)
		memcpy((char *)bo + od->off, &n, sizeof(n));
	else
		memcpy((char *)bo + od->off, &x, sizeof(x));
	return 0;
}

/* ---- checks of what the script passes ---- */

static bool is_hex40(const char *s, size_t n)
{
	size_t i;

	if (n != 40)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

static bool text_ok(const char *s)
{
	return s && strlen(s) <= MAX_TEXT;
}

static int check_driver(const struct bisect_driver *d, const char *where,
			char *err, size_t errlen)
{
	const char *bad = NULL;

	if (!d->boot || (strcmp(d->boot, "qemu") && strcmp(d->boot, "kexec") && strcmp(d->boot, "lava")))
		bad = "boot must be qemu, kexec or lava";
	else if (!d->accel || (strcmp(d->accel, "auto") && strcmp(d->accel, "kvm") &&
			       strcmp(d->accel, "tcg")))
		bad = "accel must be auto, kvm or tcg";
	else if (d->smp <= 0 || d->smp > 4096)
		bad = "smp must be a positive whole number (at most 4096)";
	else if (d->timeout <= 0)
		bad = "timeout must be a positive whole number of seconds";
	else if (d->jobs <= 0 || d->jobs > 4096)
		bad = "jobs must be a positive whole number (at most 4096)";
	else if (!text_ok(d->config) || !*d->config || !text_ok(d->mem) || !*d->mem ||
		 !text_ok(d->initrd) || !text_ok(d->orig_release))
		bad = "config, mem, initrd and orig_release must be strings (config and mem not empty)";
	if (!bad)
		return 0;
	snprintf(err, errlen, "%s%s", where, bad);
	return -1;
}

/* CASE of CASE:METRIC in the suite, by name or by id ("name/thp=..."). */
static int check_case(const char *suite_path, const char *case_name,
		      long *reps, char *err, size_t errlen)
{
	struct suite s;
	size_t i, n = strcspn(case_name, "/");
	bool found = false;

	if (suite_load(suite_path, &s, err, errlen))
		return -1;
	for (i = 0; i < s.ncases && !found; i++)
		found = !strcmp(s.cases[i].name, case_name) ||
			(strlen(s.cases[i].name) == n &&
			 !strncmp(s.cases[i].name, case_name, n));
	if (*reps <= 0)
		*reps = s.repetitions;
	suite_free(&s);
	if (!found) {
		snprintf(err, errlen, "--metric: the suite %s has no case '%s' ([case NAME] sections)",
			 suite_path, case_name);
		return -1;
	}
	return 0;
}

/* ---- the commits, as git printed them ---- */

static char *field(char **s)
{
	char *f = *s, *e = strchr(f, '\x1f');

	if (e) {
		*e = '\0';
		*s = e + 1;
	} else {
		*s = f + strlen(f);
	}
	return f;
}

/* One "SHA\x1fDATE\x1fAUTHOR\x1fSUBJECT" line as a commit object. */
static json_t *commit_of(char *line, long nr, char *err, size_t errlen)
{
	char *s = line, *sha = field(&s), *date = field(&s), *author = field(&s), *p;

	for (p = s; *p; p++)	/* a \x1f in the subject: a space, as git shows it */
		if (*p == '\x1f')
			*p = ' ';
	if (!is_hex40(sha, strlen(sha)) || !text_ok(date) || !text_ok(author) ||
	    !text_ok(s)) {
		snprintf(err, errlen, "--commits line %ld: not SHA\\x1fDATE\\x1fAUTHOR\\x1fSUBJECT (40 hex digits, then text)",
			 nr);
		return NULL;
	}
	return json_pack("{s:s, s:s, s:s, s:s, s:s}", "sha", sha, "date", date,
			 "author", author, "subject", s, "patch_id", "");
}

static int read_commits(FILE *f, json_t *arr, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long nr = 0;
	json_t *c;

	while ((len = getline(&line, &cap, f)) >= 0) {
		nr++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if ((size_t)len != strlen(line) || nr > MAX_COMMITS ||
		    !(c = commit_of(line, nr, err, errlen))) {
			if ((size_t)len != strlen(line) || nr > MAX_COMMITS)
				snprintf(err, errlen, "--commits line %ld: a NUL byte, or more than %d commits",
					 nr, MAX_COMMITS);
			free(line);
			return -1;
		}
		json_array_append_new(arr, c);
	}
	free(line);
	return 0;
}

/* "PATCHID SHA" lines: each commit's patch_id. */
static int read_patch_ids(FILE *f, json_t *arr, char *err, size_t errlen)
{
	char *line = NULL, *sp;
	size_t cap = 0, i;
	ssize_t len;
	long nr = 0;
	json_t *c;

	while ((len = getline(&line, &cap, f)) >= 0) {
		nr++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		sp = strchr(line, ' ');
		if (!sp || !is_hex40(line, (size_t)(sp - line)) ||
		    !is_hex40(sp + 1, strlen(sp + 1))) {
			snprintf(err, errlen, "--patch-ids line %ld: not \"PATCHID SHA\" (40 hex digits each)",
				 nr);
			free(line);
			return -1;
		}
		*sp = '\0';
		json_array_foreach(arr, i, c)
			if (!strcmp(json_string_value(json_object_get(c, "sha")), sp + 1))
				json_object_set_new(c, "patch_id", json_string(line));
	}
	free(line);
	return 0;
}

static int check_commits(const json_t *arr, const char *good, const char *bad,
			 char *err, size_t errlen)
{
	size_t n = json_array_size(arr), i, j;
	const char *first, *last;

	if (n < 2) {
		snprintf(err, errlen, "--commits: GOOD and at least one commit up to BAD, %zu given", n);
		return -1;
	}
	first = json_string_value(json_object_get(json_array_get(arr, 0), "sha"));
	last = json_string_value(json_object_get(json_array_get(arr, n - 1), "sha"));
	if (strcmp(first, good)) {
		snprintf(err, errlen, "--commits: the first is %s, not GOOD %s", first, good);
		return -1;
	}
	if (strcmp(last, bad)) {
		snprintf(err, errlen, "%s is not reached from %s along first parents", bad, good);
		return -1;
	}
	for (i = 1; i < n; i++)
		for (j = 0; j < i; j++)
			if (json_equal(json_object_get(json_array_get(arr, i), "sha"),
				       json_object_get(json_array_get(arr, j), "sha"))) {
				snprintf(err, errlen, "--commits: a commit is listed twice (line %zu)", i + 1);
				return -1;
			}
	return 0;
}

/* ---- the plan ---- */

static json_t *options_of(const struct bisect_plan_input *in, long reps,
			  char *err, size_t errlen)
{
	struct bisect_opts bo;
	size_t ref_reps = 0, i;
	json_t *o = json_object();
	char why[256];
	double x;

	bisect_opts_init(&bo);
	if (bisect_plan_option(&bo, &ref_reps, "ref_reps", (double)reps, why, sizeof(why)))
		goto bad;
	json_object_set_new(o, "ref_reps", json_integer(reps));
	for (i = 0; i < in->nopts; i++) {
		if (parse_double(in->opt_values[i], &x)) {
			snprintf(why, sizeof(why), "%s must be a number, not '%.40s'",
				 in->opt_keys[i], in->opt_values[i]);
			goto bad;
		}
		if (bisect_plan_option(&bo, &ref_reps, in->opt_keys[i], x, why, sizeof(why)))
			goto bad;
		json_object_set_new(o, in->opt_keys[i],
				    x == floor(x) && fabs(x) < 1e15 ? json_integer((json_int_t)x) : json_real(x));
	}
	if (bisect_opts_check(&bo)) {
		snprintf(why, sizeof(why), "%s", bisect_opts_check(&bo));
		goto bad;
	}
	return o;
bad:
	snprintf(err, errlen, "options: %s", why);
	json_decref(o);
	return NULL;
}

static json_t *driver_json(const struct bisect_driver *d)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:s, s:s}",
			 "config", d->config, "boot", d->boot, "accel", d->accel,
			 "mem", d->mem, "smp", (json_int_t)d->smp,
			 "timeout", (json_int_t)d->timeout, "jobs", (json_int_t)d->jobs,
			 "initrd", d->initrd, "orig_release", d->orig_release);
}

static json_t *plan_json(const struct bisect_plan_input *in, const char *case_name,
			 const char *metric, json_t *opts, json_t *commits)
{
	char created[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:s, s:s, s:s, s:o}",
			 "schema", BISECT_PLAN_SCHEMA, "tree", in->tree,
			 "good", in->good, "bad", in->bad, "good_ref", in->good_ref,
			 "bad_ref", in->bad_ref, "case", case_name, "metric", metric,
			 "suite", "suite.conf", "options", opts,
			 "driver", driver_json(&in->driver),
			 "thpbench_version", in->version, "command", in->command,
			 "created", created, "commits", commits);
}

static int write_plan(const char *dir, json_t *plan, char *err, size_t errlen)
{
	char path[4200], tmp[4300];

	FILE *f;

	snprintf(path, sizeof(path), "%s/plan.json", dir);
	f = sf_replace_open(path, tmp, sizeof(tmp), err, errlen);
	if (!f)
		return -1;
	if (json_dumpf(plan, f, JSON_INDENT(2))) {
		snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
		fclose(f);
		unlink(tmp);
		return -1;
	}
	return sf_replace_close(f, tmp, path, err, errlen);
}

static int check_input(const struct bisect_plan_input *in, char *err, size_t errlen)
{
	if (!in->good || !is_hex40(in->good, strlen(in->good)) ||
	    !in->bad || !is_hex40(in->bad, strlen(in->bad))) {
		snprintf(err, errlen, "--good and --bad must be full commit ids (40 hex digits)");
		return -1;
	}
	if (!text_ok(in->tree) || !*in->tree || !text_ok(in->good_ref) ||
	    !text_ok(in->bad_ref) || !text_ok(in->version) || !text_ok(in->command) ||
	    !in->suite || !in->commits || !in->patch_ids) {
		snprintf(err, errlen, "needs --tree, --suite, --commits and --patch-ids (and text of at most %d bytes)",
			 MAX_TEXT);
		return -1;
	}
	return check_driver(&in->driver, "", err, errlen);
}

int bisect_planfile_create(const char *dir, const struct bisect_plan_input *in,
			   char *err, size_t errlen)
{
	const char *cm = in->case_metric ? in->case_metric : "", *colon = strchr(cm, ':');
	json_t *opts = NULL, *commits = json_array(), *plan;
	char *case_name = NULL;
	long reps = in->reps;
	int rc = -1;

	if (!colon || colon == cm || !colon[1]) {
		snprintf(err, errlen, "--metric CASE:METRIC: '%.200s' (e.g. mremap:vmstat.thp_split_pmd; CASE is the suite's case name or id)",
			 cm);
		goto out;
	}
	case_name = xstrndup(cm, (size_t)(colon - cm));
	if (check_input(in, err, errlen) ||
	    check_case(in->suite, case_name, &reps, err, errlen) ||
	    !(opts = options_of(in, reps, err, errlen)) ||
	    read_commits(in->commits, commits, err, errlen) ||
	    read_patch_ids(in->patch_ids, commits, err, errlen) ||
	    check_commits(commits, in->good, in->bad, err, errlen))
		goto out;
	plan = plan_json(in, case_name, colon + 1, opts, commits);
	opts = commits = NULL;	/* the plan holds them */
	rc = write_plan(dir, plan, err, errlen);
	json_decref(plan);
out:
	json_decref(opts);
	json_decref(commits);
	free(case_name);
	return rc;
}

/* ---- the driver part, read back ---- */

static const char *str_of(const json_t *o, const char *key, bool *bad)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_string(v) || strlen(json_string_value(v)) != json_string_length(v)) {
		*bad = true;
		return NULL;
	}
	return json_string_value(v);
}

static long int_of(const json_t *o, const char *key, bool *bad)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v)) {
		*bad = true;
		return 0;
	}
	return (long)json_integer_value(v);
}

json_t *bisect_plan_read(const char *path, char *err, size_t errlen)
{
	char why[JSON_ERROR_TEXT_LENGTH];
	json_error_t je;
	json_t *plan;
	size_t len;
	char *text = read_regular(path, SF_NOFOLLOW, &len, err, errlen);

	if (!text)
		return NULL;
	plan = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (!plan)
		snprintf(err, errlen, "%s:%d:%d: %s (not a bisection's results directory?)",
			 path, je.line, je.column,
			 json_error_safe(je.text, why, sizeof(why)));
	return plan;
}

/* A path or name that reaches a command line: no control character, no
 * option. */
static bool plain_arg(const char *s)
{
	const unsigned char *p;

	if (!s || *s == '-')
		return false;
	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

static int check_boot(const struct bisect_driver *d, const char *boot,
		      const char *path, char *err, size_t errlen)
{
	if (boot && strcmp(boot, d->boot)) {
		snprintf(err, errlen, "%s: driver.boot is %s, the command line says %s: refusing the plan's (a boot driver is given on the command line, never taken from a file another user may have edited)",
			 path, d->boot, boot);
		return -1;
	}
	if (!plain_arg(d->config) || !plain_arg(d->mem) ||
	    (*d->initrd && (d->initrd[0] != '/' || !plain_arg(d->initrd))) ||
	    (*d->orig_release && !plain_arg(d->orig_release))) {
		snprintf(err, errlen, "%s: driver: config, mem, initrd and orig_release must be plain names or paths (initrd absolute; no control character, none starting with '-')",
			 path);
		return -1;
	}
	return 0;
}

int bisect_driver_load(const char *dir, const char *boot,
		       struct bisect_driver_fields *f, char *err,
		       size_t errlen)
{
	char path[4200], where[4300];
	const json_t *d;
	bool bad = false;
	const char *schema;

	memset(f, 0, sizeof(*f));
	if (bisect_dir_check(dir, err, errlen))
		return -1;
	snprintf(path, sizeof(path), "%s/plan.json", dir);
	f->plan = bisect_plan_read(path, err, errlen);
	if (!f->plan)
		return -1;
	schema = str_of(f->plan, "schema", &bad);
	if (bad || strcmp(schema, BISECT_PLAN_SCHEMA)) {
		snprintf(err, errlen, "%s: not a bisection plan (schema %s)", path, BISECT_PLAN_SCHEMA);
		return -1;
	}
	d = json_object_get(f->plan, "driver");
	f->tree = str_of(f->plan, "tree", &bad);
	f->good = str_of(f->plan, "good", &bad);
	f->bad = str_of(f->plan, "bad", &bad);
	f->d.config = str_of(d, "config", &bad);
	f->d.boot = str_of(d, "boot", &bad);
	f->d.accel = str_of(d, "accel", &bad);
	f->d.mem = str_of(d, "mem", &bad);
	f->d.initrd = json_object_get(d, "initrd") ? str_of(d, "initrd", &bad) : "";
	f->d.orig_release = json_object_get(d, "orig_release") ? str_of(d, "orig_release", &bad) : "";
	f->d.smp = int_of(d, "smp", &bad);
	f->d.timeout = int_of(d, "timeout", &bad);
	f->d.jobs = int_of(d, "jobs", &bad);
	if (bad || !is_hex40(f->good, strlen(f->good)) || !is_hex40(f->bad, strlen(f->bad))) {
		snprintf(err, errlen, "%s: needs tree, good and bad (full commit ids) and driver {config, boot, accel, mem: strings; smp, timeout, jobs: integers}",
			 path);
		return -1;
	}
	snprintf(where, sizeof(where), "%s: driver: ", path);
	if (check_driver(&f->d, where, err, errlen))
		return -1;
	return check_boot(&f->d, boot, path, err, errlen);
}

void bisect_driver_free(struct bisect_driver_fields *f)
{
	json_decref(f->plan);
	memset(f, 0, sizeof(*f));
}
