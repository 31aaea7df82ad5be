// SPDX-License-Identifier: GPL-2.0-only
#include "history_import.h"
#include "history_backend.h"
#include "history_fingerprint.h"
#include "history_kernel_order.h"
#include "history_rows.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats/metric_info.h"
#include "stats/stats.h"
#include "results/store.h"
#include "util/utf8.h"
#include "util/util.h"

#define KERNEL_ID_MAX 128

/* A message of the import to whoever reads them (o->say), else to no one. */
static void say(const struct history_import_opts *o, bool warning,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(const struct history_import_opts *o, bool warning,
		const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	if (!o->say)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->say(o->say_ctx, warning, msg);
}

int history_machine_check(const char *name)
{
	size_t n = strlen(name);

	return n && n <= HISTORY_MACHINE_MAX &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789._+:@-") == n && name[0] != '-' ? 0 : -1;
}

int history_kernel_id_check(const char *id)
{
	size_t i, n = strlen(id);

	if (!n || n > KERNEL_ID_MAX)
		return -1;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._+:/@~^-", id[i]))
			return -1;
	return 0;
}

/* Everything a run row holds, as text parameters. */
struct run_row {
	char content_hash[HISTORY_HASH_HEX], fingerprint[HISTORY_HASH_HEX];
	char suite_hash[HISTORY_HASH_HEX], imported[32];
	const char *started, *host, *hostname, *kernel_id, *kernel_release, *suite;
	char *identity, *thp, *hugetlb;	/* JSON text, malloc'ed */
	char *nr_cpus, *mem_kb, *numa, *series, *patch_ids, *tree_id, *version;
	char *kid_owned;	/* the file's own kernel_id */
	char *machine_owned;	/* the file's own machine name */
	const json_t *env;
};

static void run_row_free(struct run_row *rr)
{
	free(rr->identity);
	free(rr->thp);
	free(rr->hugetlb);
	free(rr->nr_cpus);
	free(rr->mem_kb);
	free(rr->numa);
	free(rr->series);
	free(rr->patch_ids);
	free(rr->tree_id);
	free(rr->version);
	free(rr->kid_owned);
	free(rr->machine_owned);
}

static const char *env_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Any JSON value as text: a string as itself, others dumped; NULL if absent. */
static char *json_text(const json_t *v)
{
	if (!v || json_is_null(v))
		return NULL;
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	return json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY);
}

/* A provenance field: top-level "provenance", then meta's, then meta. */
static char *provenance(const json_t *root, const json_t *meta, const char *key,
			const char *alt)
{
	const json_t *sources[] = {
		json_object_get(root, "provenance"),
		json_object_get(meta, "provenance"),
		meta,
	};
	size_t i;
	json_t *v;

	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		if (!json_is_object(sources[i]))
			continue;
		v = json_object_get(sources[i], key);
		if (!v && alt)
			v = json_object_get(sources[i], alt);
		if (v && !json_is_null(v))
			return json_text(v);
	}
	return NULL;
}

/* Clocks of a box and of the host importing its files may differ a little. */
#define STARTED_SKEW_S 600

/*
 * A night stamped after the import can only be a wrong clock: it would
 * sort after every later night and, as "the newest", hide their
 * regressions for good (one stamped 2099 made a +50% step pass).
 */
static int check_started(const struct history_import_opts *o,
			const char *path, const char *s, time_t now)
{
	char when[32];
	struct tm tm;
	const char *end;
	time_t t;

	memset(&tm, 0, sizeof(tm));
	end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	if (!end || *end) {
		say(o, false, "%s: env.started is \"%s\"; expected an ISO-8601 UTC time such as 2026-11-30T02:00:00Z",
		    path, s ? s : "(absent)");
		return -1;
	}
	t = timegm(&tm);
	if (t > now + STARTED_SKEW_S) {
		gmtime_r(&now, &tm);
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		say(o, false, "%s: env.started %s is after the import time %s: was the box's clock wrong? A night in the future would stay the newest and hide every later regression; fix env.started (or the clock) and import again",
		    path, s, when);
		return -1;
	}
	return 0;
}

/* What the history keys on fits PostgreSQL's index rows, as SQLite's. */
static int check_length(const struct history_import_opts *o,
			const char *path, const char *what, const char *s,
			size_t max)
{
	char shown[64];

	if (strlen(s) <= max)
		return 0;
	say(o, false, "%s: %s \"%s...\" is %zu bytes; the history stores at most %zu (in SQLite and PostgreSQL alike): shorten it",
	    path, what, str_printable(s, shown, sizeof(shown)), strlen(s), max);
	return -1;
}

static int check_case_names(const struct history_import_opts *o,
			const char *path, const struct tb_case *c)
{
	size_t i, j;

	if (check_length(o, path, "case id", c->id, HISTORY_CASE_ID_MAX))
		return -1;
	for (i = 0; i < c->nruns; i++)
		for (j = 0; j < c->runs[i].metrics.n; j++)
			if (check_length(o, path, "metric name",
					 c->runs[i].metrics.v[j].name,
					 HISTORY_NAME_MAX))
				return -1;
	return 0;
}

static int check_cases(const struct history_import_opts *o,
			const char *path, const struct tb_results *r)
{
	size_t i, j;

	if (!r->ncases) {
		say(o, false, "%s: no cases: nothing to record", path);
		return -1;
	}
	for (i = 0; i < r->ncases; i++)
		if (check_case_names(o, path, &r->cases[i]))
			return -1;
	for (i = 0; i < r->ncases; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(r->cases[i].id, r->cases[j].id)) {
				say(o, false, "%s: case id \"%s\" appears twice", path,
				    r->cases[i].id);
				return -1;
			}
	return 0;
}

/* The machine: --machine, else the file's meta.machine, else its hostname. */
static int machine_of(const char *path, const json_t *root,
		      const struct tb_results *r,
		      const struct history_import_opts *o, struct run_row *rr)
{
	char *own = provenance(root, r->meta, "machine", NULL);

	rr->machine_owned = own;
	if (o->machine) {
		rr->host = o->machine;
	} else if (own) {
		if (history_machine_check(own)) {
			say(o, false, "%s: meta.machine \"%.80s\": use 1 to %d characters of A-Z a-z 0-9 . _ + : @ -",
			    path, own, HISTORY_MACHINE_MAX);
			return -1;
		}
		rr->host = own;
	} else {
		rr->host = rr->hostname;
	}
	return 0;
}

static char *int_text(const json_t *v)
{
	char buf[32];

	if (!json_is_integer(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	return xstrdup(buf);
}

static int fill_run_row(const char *path, const json_t *root,
			const struct tb_results *r,
			const struct history_import_opts *o, struct run_row *rr)
{
	const json_t *env = r->env;
	json_t *identity;
	time_t now = time(NULL);
	struct tm tm;
	const char *kernel_id = o->kernel_id;
	char *meta_kid;

	memset(rr, 0, sizeof(*rr));
	rr->env = env;
	rr->started = env_str(env, "started");
	rr->hostname = env_str(env, "hostname");
	rr->kernel_release = env_str(env, "kernel");
	if (check_started(o, path, rr->started, now))
		return -1;
	if (!rr->hostname || !*rr->hostname || !rr->kernel_release || !*rr->kernel_release) {
		say(o, false, "%s: env.hostname and env.kernel must be non-empty strings", path);
		return -1;
	}
	if (check_cases(o, path, r))
		return -1;
	if (machine_of(path, root, r, o, rr))
		return -1;
	rr->suite = env_str(r->meta, "suite");
	if (!rr->suite || !*rr->suite)
		rr->suite = "command";
	if (check_length(o, path, "env.hostname", rr->host, HISTORY_NAME_MAX) ||
	    check_length(o, path, "env.kernel", rr->kernel_release, HISTORY_NAME_MAX) ||
	    check_length(o, path, "meta.suite", rr->suite, HISTORY_NAME_MAX))
		return -1;
	meta_kid = provenance(root, r->meta, "kernel_id", NULL);
	if (!kernel_id && meta_kid && !history_kernel_id_check(meta_kid))
		kernel_id = meta_kid;
	rr->kernel_id = kernel_id ? kernel_id : rr->kernel_release;
	history_hash_json(root, rr->content_hash);
	identity = history_host_identity(env);
	history_hash_json(identity, rr->fingerprint);
	rr->identity = json_dumps(identity, JSON_SORT_KEYS | JSON_COMPACT);
	rr->thp = json_text(json_object_get(identity, "thp"));
	json_decref(identity);
	rr->hugetlb = json_text(json_object_get(env, "hugetlb"));
	history_suite_hash(r, rr->suite_hash);
	gmtime_r(&now, &tm);
	strftime(rr->imported, sizeof(rr->imported), "%Y-%m-%dT%H:%M:%SZ", &tm);
	rr->nr_cpus = int_text(json_object_get(env, "nr_cpus"));
	rr->mem_kb = int_text(json_object_get(env, "mem_total_kb"));
	rr->numa = int_text(json_object_get(env, "numa_nodes"));
	rr->series = provenance(root, r->meta, "series", NULL);
	rr->patch_ids = provenance(root, r->meta, "patch_ids", "patch-ids");
	rr->tree_id = provenance(root, r->meta, "tree_id", "tree");
	rr->version = provenance(root, r->meta, "thpbench_version", "version");
	rr->kid_owned = meta_kid;
	return 0;
}

static const char *const sql_insert_run =
	"INSERT INTO runs (content_hash, time, imported, source, host,"
	" hostname, host_fingerprint, host_identity, cpu_model, microcode, nr_cpus,"
	" mem_total_kb, numa_nodes, cmdline, thp_defaults, hugetlb_defaults,"
	" governor, kernel_id, kernel_release, kernel_version,"
	" kernel_config_hash, suite, suite_hash, series, patch_ids, tree_id,"
	" thpbench_version)"
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,"
	" $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)"
	" ON CONFLICT (content_hash) DO NOTHING RETURNING id";

static int first_id(void *ctx, size_t ncols, const char *const *cells)
{
	int64_t *id = ctx;
	long long v;

	if (ncols < 1 || !cells[0] || sscanf(cells[0], "%lld", &v) != 1)
		return -1;
	*id = v;
	return 0;
}

/* Insert the run row; *id = 0 when its content hash is already there. */
static int insert_run(struct history_db *db, const char *path,
		      const struct run_row *rr, int64_t *id)
{
	const json_t *env = rr->env;
	const char *kversion = env_str(env, "proc_version");
	const char *p[27] = {
		rr->content_hash, rr->started, rr->imported, path, rr->host,
		rr->hostname,
		rr->fingerprint, rr->identity, env_str(env, "cpu"),
		env_str(env, "microcode"), rr->nr_cpus, rr->mem_kb, rr->numa,
		env_str(env, "cmdline"), rr->thp, rr->hugetlb,
		env_str(env, "governor"), rr->kernel_id, rr->kernel_release,
		kversion ? kversion : env_str(env, "kernel_version"),
		env_str(env, "kernel_config"), rr->suite, rr->suite_hash,
		rr->series, rr->patch_ids, rr->tree_id, rr->version,
	};

	*id = 0;
	return db->ops->query(db, "record the run", sql_insert_run,
			      ARRAY_SIZE(p), p, first_id, id);
}


/* A metric of c with a value no statistic can take: said, left out. */
static bool metric_left_out(const struct history_import_opts *o,
			const char *path, const struct tb_case *c,
			    const char *metric)
{
	char id[128];
	double bad;
	size_t i;

	for (i = 0; i < c->nruns; i++) {
		const struct metric *m = metric_set_find(&c->runs[i].metrics, metric);

		if (!m || !isfinite(m->value) ||
		    !stats_check_values(&m->value, 1, &bad))
			continue;
		say(o, true, "%s: case %s: %s = %g is beyond +-%g, which no mean or test can take without overflowing: %s is left out of the history for this case",
		    path, str_printable(c->id, id, sizeof(id)), metric,
			m->value, STATS_MAX_ABS, metric);
		return true;
	}
	return false;
}

/* A night's summary of one metric of a case, worked out before writing. */
struct night_row {
	const char *metric;	/* the case's own name of it */
	const char *better;	/* NULL: neutral */
	struct summary s;
};

/*
 * What a case writes beyond its parsed runs, worked out by the reading
 * thread (history_import_prepare) so that the writer only writes: its
 * args as JSON, its summaries, the metrics left out.
 */
struct case_prep {
	char *args_text;
	char **names;		/* its metrics, sorted (case_metric_names) */
	size_t nnames;
	bool *left_out;		/* per name */
	struct night_row *nights;
	size_t nnights;
};

static void case_prep_free(struct case_prep *cp)
{
	free(cp->args_text);
	free(cp->names);
	free(cp->left_out);
	free(cp->nights);
}

static int case_prepare(const struct history_import_opts *o,
			const char *path, const struct tb_case *c,
			struct case_prep *cp)
{
	const json_t *extras[1] = { c->extra };
	json_t *args = strv_to_json(c->args, c->nargs);
	double *vals = xmalloc((c->nruns ? c->nruns : 1) * sizeof(*vals));
	struct metric_info mi;
	char err[256];
	size_t i, n;
	int rc = 0;

	cp->args_text = json_dumps(args, JSON_COMPACT);
	json_decref(args);
	cp->nnames = case_metric_names(c, &cp->names);
	cp->left_out = xcalloc(cp->nnames ? cp->nnames : 1, sizeof(*cp->left_out));
	cp->nights = xcalloc(cp->nnames ? cp->nnames : 1, sizeof(*cp->nights));
	for (i = 0; !rc && i < cp->nnames; i++) {
		struct night_row *nr = &cp->nights[cp->nnights];

		if ((cp->left_out[i] = metric_left_out(o, path, c, cp->names[i])))
			continue;
		n = case_metric_values(c, cp->names[i], vals, c->nruns);
		if (stats_summary(vals, n, &nr->s))
			continue;
		if (metric_info_get(cp->names[i], extras, 1, NULL, 0, 0.02, &mi,
				    err, sizeof(err))) {
			say(o, false, "case %s: %s", c->id, err);
			rc = -1;
			break;
		}
		nr->metric = cp->names[i];
		nr->better = mi.better == BETTER_NEUTRAL ? NULL : better_name(mi.better);
		cp->nnights++;
	}
	free(vals);
	return rc;
}

static bool is_left_out(const struct case_prep *cp, const char *metric)
{
	size_t i;

	for (i = 0; i < cp->nnames; i++)
		if (cp->left_out[i] && !strcmp(cp->names[i], metric))
			return true;
	return false;
}

/* The repetitions of a case, then their values (which refer to them). */
static int insert_reps(struct history_db *db, int64_t run,
		       const struct tb_case *c, const struct case_prep *cp)
{
	const struct hdb_value shared[2] = { hdb_int(run), hdb_text(c->id) };
	struct hdb_rows reps, vals;
	size_t i, j;
	int rc = 0;

	hdb_rows_init(&reps, db, "record the repetitions",
		      "INSERT INTO reps (run_id, case_id, rep, seq, status, reason)",
		      shared, 2, 4);
	hdb_rows_init(&vals, db, "record the values",
		      "INSERT INTO rep_values (run_id, case_id, rep, metric, value)",
		      shared, 2, 3);
	for (i = 0; !rc && i < c->nruns; i++) {
		const struct tb_run *ru = &c->runs[i];
		const struct hdb_value p[4] = {
			hdb_int((long long)i), hdb_int(ru->seq),
			hdb_text(run_status_name(ru->status)), hdb_text(ru->reason),
		};

		rc = hdb_rows_add(db, &reps, p);
	}
	if (!rc)
		rc = hdb_rows_flush(db, &reps);
	for (i = 0; !rc && i < c->nruns; i++) {
		const struct tb_run *ru = &c->runs[i];

		for (j = 0; !rc && j < ru->metrics.n; j++) {
			const struct metric *m = &ru->metrics.v[j];
			const struct hdb_value q[3] = {
				hdb_int((long long)i), hdb_text(m->name),
				hdb_real(m->value),
			};

			if (!isfinite(m->value) || is_left_out(cp, m->name))
				continue;
			rc = hdb_rows_add(db, &vals, q);
		}
	}
	if (!rc)
		rc = hdb_rows_flush(db, &vals);
	hdb_rows_free(&reps);
	hdb_rows_free(&vals);
	return rc ? -1 : 0;
}

static int insert_nights(struct history_db *db, int64_t run,
			 const struct run_row *rr, const struct tb_case *c,
			 const struct case_prep *cp)
{
	const struct hdb_value shared[9] = {
		hdb_int(run), hdb_text(rr->started), hdb_text(rr->host),
		hdb_text(rr->fingerprint), hdb_text(rr->kernel_id),
		hdb_text(rr->kernel_release), hdb_text(rr->suite),
		hdb_text(rr->suite_hash), hdb_text(c->id),
	};
	struct hdb_rows b;
	size_t i;
	int rc = 0;

	hdb_rows_init(&b, db, "record a night's summaries",
		      "INSERT INTO night_metrics (run_id, time, host,"
		      " host_fingerprint, kernel_id, kernel_release, suite,"
		      " suite_hash, case_id, metric, better, n, mean, stddev,"
		      " median, min, max)", shared, 9, 8);
	for (i = 0; !rc && i < cp->nnights; i++) {
		const struct night_row *nr = &cp->nights[i];
		const struct summary *s = &nr->s;
		const struct hdb_value p[8] = {
			hdb_text(nr->metric), hdb_text(nr->better),
			hdb_int((long long)s->n), hdb_real(s->mean),
			isfinite(s->stddev) ? hdb_real(s->stddev) : hdb_null(),
			hdb_real(s->median), hdb_real(s->min), hdb_real(s->max),
		};

		rc = hdb_rows_add(db, &b, p);
	}
	if (!rc)
		rc = hdb_rows_flush(db, &b);
	hdb_rows_free(&b);
	return rc;
}

static int insert_case(struct history_db *db, int64_t run,
		       const struct run_row *rr, const struct tb_case *c,
		       const struct case_prep *cp)
{
	const struct hdb_value p[7] = {
		hdb_int(run), hdb_text(c->id), hdb_text(c->name),
		hdb_text(c->workload ? c->workload : ""), hdb_text(cp->args_text),
		hdb_text(c->thp), hdb_text(c->label),
	};

	if (db->ops->insert(db, "record a case",
			    "INSERT INTO cases (run_id, case_id, name, workload, args, thp, label)"
			    " VALUES ($1, $2, $3, $4, $5, $6, $7)", 7, p) ||
	    insert_reps(db, run, c, cp) || insert_nights(db, run, rr, c, cp))
		return -1;
	return 0;
}

struct history_import_prep {
	char *path;
	const struct history_import_opts *o;	/* where its messages go */
	struct tb_results r;
	struct run_row rr;
	json_t *root;
	struct case_prep *cases;	/* r.ncases of them */
};

static int write_run(struct history_db *db,
		     const struct history_import_prep *pr, int64_t *run_id)
{
	const struct tb_results *r = &pr->r;
	const struct run_row *rr = &pr->rr;
	const char *p[1] = { rr->content_hash };
	size_t i;

	if (insert_run(db, pr->path, rr, run_id))
		return -1;
	if (!*run_id) {
		/* Stored before (perhaps by a writer that just beat us). */
		if (db->ops->query(db, "find the stored run",
				   "SELECT id FROM runs WHERE content_hash = $1",
				   1, p, first_id, run_id))
			return -1;
		return HISTORY_ALREADY;
	}
	for (i = 0; i < r->ncases; i++)
		if (insert_case(db, *run_id, rr, &r->cases[i], &pr->cases[i]))
			return -1;
	return HISTORY_IMPORTED;
}

static int tie_kernel(void *ctx, size_t ncols, const char *const *cells)
{
	char **other = ctx;
	const char *mine = other[0];

	if (ncols && cells[0] && !other[1] &&
	    history_kernel_order(cells[0], mine) == HISTORY_ORDER_UNKNOWN)
		other[1] = xstrdup(cells[0]);
	return 0;
}

/*
 * Two runs of one machine and suite version that started at the same
 * second are ordered by their kernels (history_kernel_order.h); a pair
 * that cannot be ordered is refused rather than left to the import order.
 * -1 when refused; HISTORY_WRITE_BROKEN when the query failed.
 */
static int check_same_second(struct history_db *db, const char *path,
			     const struct run_row *rr)
{
	const char *p[3] = { rr->host, rr->suite_hash, rr->started };
	char *other[2] = { (char *)rr->kernel_id, NULL }, *e[4];
	size_t i;

	if (db->ops->query(db, "look for a run at the same second",
			   "SELECT kernel_id FROM runs WHERE host = $1"
			   " AND suite_hash = $2 AND time = $3", 3, p,
			   tie_kernel, other))
		return HISTORY_WRITE_BROKEN;
	if (!other[1])
		return 0;
	/* The stored kernel id as much as the file's: escaped (utf8.h). */
	e[0] = str_escape_dup(rr->host);
	e[1] = str_escape_dup(rr->kernel_id);
	e[2] = str_escape_dup(rr->started);
	e[3] = str_escape_dup(other[1]);
	hdb_fail(db, "%s: machine %s ran this suite with kernel %s at the same second (%s) as a stored run of kernel %s, and the two ids give no order: give each run its own env.started, or kernel ids that order (git describe of one tag, vX.Y-rcN, next-YYYYMMDD)",
		 path, e[0], e[1], e[2], e[3]);
	for (i = 0; i < ARRAY_SIZE(e); i++)
		free(e[i]);
	free(other[1]);
	return -1;
}

/* HISTORY_ALREADY with *run_id when the content is stored, else 0 (or -1). */
static int stored_before(struct history_db *db, const struct run_row *rr,
			 int64_t *run_id)
{
	const char *p[1] = { rr->content_hash };

	*run_id = 0;
	if (db->ops->query(db, "find the stored run",
			   "SELECT id FROM runs WHERE content_hash = $1", 1, p,
			   first_id, run_id))
		return -1;
	return *run_id ? HISTORY_ALREADY : 0;
}

static int load(const struct history_import_opts *o, const char *path,
		struct tb_results *r, json_t **root)
{
	char err[1024];

	/* One parse: the results and the document its hash is of. */
	if (store_load_root(path, r, root, err, sizeof(err))) {
		say(o, false, "%s", err);
		return -1;
	}
	if (!*root) {
		/* A killed run's results.jsonl, as compare reads it: what it
		 * holds is recorded, and said to be partial. */
		*root = store_results_json(r);
		say(o, true, "%s: the log of a run that did not finish: importing the repetitions it holds",
		    path);
	}
	if (!*root) {
		say(o, false, "%s: cannot make a document of it", path);
		results_free(r);
		return -1;
	}
	return 0;
}

void history_import_prep_free(struct history_import_prep *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; p->cases && i < p->r.ncases; i++)
		case_prep_free(&p->cases[i]);
	free(p->cases);
	run_row_free(&p->rr);
	json_decref(p->root);
	results_free(&p->r);
	free(p->path);
	free(p);
}

struct history_import_prep *history_import_prepare(const char *path,
						   const struct history_import_opts *o)
{
	struct history_import_prep *p;
	size_t i;

	if (o->kernel_id && history_kernel_id_check(o->kernel_id)) {
		say(o, false, "--kernel-id \"%s\": use 1 to %d characters of A-Z a-z 0-9 . _ + : / @ ~ ^ -",
		    o->kernel_id, KERNEL_ID_MAX);
		return NULL;
	}
	if (o->machine && history_machine_check(o->machine)) {
		say(o, false, "--machine \"%s\": use 1 to %d characters of A-Z a-z 0-9 . _ + : @ -",
		    o->machine, HISTORY_MACHINE_MAX);
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	p->path = xstrdup(path);
	p->o = o;
	if (load(o, path, &p->r, &p->root)) {
		free(p->path);
		free(p);
		return NULL;
	}
	if (fill_run_row(path, p->root, &p->r, o, &p->rr)) {
		history_import_prep_free(p);
		return NULL;
	}
	p->cases = xcalloc(p->r.ncases, sizeof(*p->cases));
	for (i = 0; i < p->r.ncases; i++)
		if (case_prepare(o, path, &p->r.cases[i], &p->cases[i])) {
			history_import_prep_free(p);
			return NULL;
		}
	return p;
}

/*
 * The reads first, then the writes: -1 (refused, in db->err) before anything
 * was written; a failure after that is HISTORY_WRITE_BROKEN.
 */
static int write_file(struct history_db *db, const struct history_import_prep *p,
		      int64_t *run_id)
{
	int rc = stored_before(db, &p->rr, run_id);

	if (rc < 0)
		return HISTORY_WRITE_BROKEN;
	if (!rc)
		rc = check_same_second(db, p->path, &p->rr);
	if (!rc) {
		rc = write_run(db, p, run_id);
		if (rc < 0)
			rc = HISTORY_WRITE_BROKEN;
	}
	return rc;
}

int history_import_write(struct history_db *db,
			 const struct history_import_prep *p, int64_t *run_id,
			 bool savepoint)
{
	int rc;

	*run_id = 0;
	/* A savepoint: a file that fails takes back only what it wrote. */
	if (savepoint &&
	    db->ops->script(db, "start the file", "SAVEPOINT import_file")) {
		say(p->o, false, "%s", history_db_error(db));
		return -1;
	}
	rc = write_file(db, p, run_id);
	if (rc < 0)
		say(p->o, false, "%s", history_db_error(db));
	if (savepoint) {
		if (rc < 0) {
			db->ops->script(db, "take the file back",
					"ROLLBACK TO SAVEPOINT import_file");
			rc = -1;
		}
		if (db->ops->script(db, "end the file", "RELEASE SAVEPOINT import_file")) {
			say(p->o, false, "%s", history_db_error(db));
			rc = -1;
		}
	}
	return rc;
}
int history_import_one(struct history_db *db, const char *path,
		       const struct history_import_opts *o, int64_t *run_id)
{
	struct history_import_prep *p = history_import_prepare(path, o);
	int rc;

	*run_id = 0;
	rc = p ? history_import_write(db, p, run_id, true) : -1;
	history_import_prep_free(p);
	return rc;
}

/* history_import_file's errors: in the handle, as a history_db function's. */
static void say_into_db(void *ctx, bool warning, const char *msg)
{
	struct history_db *db = ctx;

	if (!warning)
		hdb_fail(db, "%s", msg);
}

int history_import_file(struct history_db *db, const char *path,
			const char *kernel_id, int64_t *run_id)
{
	struct history_import_opts o = { .kernel_id = kernel_id,
					  .say = say_into_db, .say_ctx = db };
	struct history_import_prep *p;
	int rc;

	*run_id = 0;
	if (db->ops->begin(db))
		return -1;
	/* Its own transaction: a failure takes it all back, no savepoint. */
	p = history_import_prepare(path, &o);
	rc = p ? history_import_write(db, p, run_id, false) : -1;
	history_import_prep_free(p);
	if (rc < 0)
		rc = -1;
	if (rc == HISTORY_IMPORTED && db->ops->commit(db))
		rc = -1;
	if (rc != HISTORY_IMPORTED)
		db->ops->rollback(db);
	return rc;
}
