// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench run SUITE.conf [opts] | thpbench run [opts] -- COMMAND [ARGS...]
 */
#include <errno.h>
#include <getopt.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "claims/claims.h"
#include "commands.h"
#include "history/history_import.h"
#include "measure/env.h"
#include "measure/event_list.h"
#include "measure/events.h"
#include "measure/memstate.h"
#include "measure/plan.h"
#include "measure/progress.h"
#include "plot/plot.h"
#include "results/report.h"
#include "measure/runner.h"
#include "system/hugetlb_pool.h"
#include "system/mthp.h"
#include "system/settings.h"
#include "system/sysctl_knob.h"
#include "results/store.h"
#include "results/store_log.h"
#include "measure/suite.h"
#include "measure/tp_pin.h"
#include "history/history_import.h"
#include "util/util.h"

struct run_opts {
	const char *suite_path;
	char **cmd;
	int ncmd;
	const char *outdir;
	const char *events;
	const char *thp;
	const char *label;
	const char *machine;	/* the lab's name for it (meta.machine), for the history */
	const char *order;
	const char *sysfs_root;
	const char *kernel_id;	/* the CI's name of the kernel, for the history */
	int reps, warmup;
	double timeout_s;
	double wait_s;		/* for the settings lock: 0 no, < 0 for ever */
	unsigned long seed;
	bool seed_set;
	enum progress_mode progress;
	struct axes axes;	/* --mthp, --mthp-shmem, --memory-state, --fragment-share */
};

struct session {
	struct run_opts *o;
	struct suite suite;
	struct plan plan;
	struct tb_results res;
	struct settings_ctx settings;
	struct event_spec *evs;
	size_t nevs;
	char **touched;		/* every knob any item sets */
	size_t ntouched;
	json_t *pool_got;	/* pool knob -> what the kernel gave, when short */
	struct mthp_size mthp_sizes[MTHP_MAX_SIZES];	/* what this kernel offers */
	char logdir[4096];
	struct store_log log;	/* results.jsonl: each repetition as it ends */
	long seq;
	struct progress prog;
};

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
	runner_abort();
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: thpbench run SUITE.conf [-o DIR] [-r N] [--thp always,madvise,never]\n"
		"                    [--label L] [--seed S] [-e EVENTS] [--warmup N] [--machine NAME]\n"
		"                    [--timeout SEC] [--order interleave|shuffle|sequential]\n"
		"                    [--kernel-id ID] [--progress auto|tty|lines|none]\n"
		"                    [--wait[=SECONDS]]\n"
		"                    [--mthp 16K,64K,2M] [--mthp-shmem MODE]\n"
		"                    [--memory-state fresh,compacted,fragmented] [--fragment-share F]\n"
		"       thpbench run [opts] -- COMMAND [ARGS...]\n");
}

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "repetitions", required_argument, NULL, 'r' },
		{ "events", required_argument, NULL, 'e' },
		{ "thp", required_argument, NULL, 't' },
		{ "label", required_argument, NULL, 'l' },
		{ "machine", required_argument, NULL, 'M' },
		{ "seed", required_argument, NULL, 's' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "order", required_argument, NULL, 'O' },
		{ "sysfs-root", required_argument, NULL, 'R' },
		{ "kernel-id", required_argument, NULL, 'K' },
		{ "progress", required_argument, NULL, 'P' },
		{ "wait", optional_argument, NULL, 'W' },
		{ "mthp", required_argument, NULL, 'A' },
		{ "mthp-shmem", required_argument, NULL, 'A' },
		{ "memory-state", required_argument, NULL, 'A' },
		{ "fragment-share", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char err[400];
	int c, idx = 0;
	long v;

	axes_init(&o->axes);
	o->reps = o->warmup = -1;
	o->timeout_s = -1;
	while ((c = getopt_long(argc, argv, "o:r:e:h", longopts, &idx)) != -1) {
		switch (c) {
		case 'A':
			if (axes_key(&o->axes, longopts[idx].name, optarg, err, sizeof(err)) < 0)
				tb_die("--%s: %s", longopts[idx].name, err);
			break;
		case 'o': o->outdir = optarg; break;
		case 'e': o->events = optarg; break;
		case 't': o->thp = optarg; break;
		case 'l': o->label = optarg; break;
		case 'M':
			if (history_machine_check(optarg))
				tb_die("--machine \"%s\": use 1 to %d characters of A-Z a-z 0-9 . _ + : @ - (not starting with -)",
				       optarg, HISTORY_MACHINE_MAX);
			o->machine = optarg;
			break;
		case 'O': o->order = optarg; break;
		case 'R': o->sysfs_root = optarg; break;
		case 'P':
			v = progress_mode_parse(optarg);
			if (v < 0)
				tb_die("--progress: \"%s\" is not auto, tty, lines or none",
				       optarg);
			o->progress = (enum progress_mode)v;
			break;
		case 'K':
			if (history_kernel_id_check(optarg))
				tb_die("--kernel-id \"%s\": use 1 to 128 characters of A-Z a-z 0-9 . _ + : / @ ~ ^ -",
				       optarg);
			o->kernel_id = optarg;
			break;
		case 'r':
		case 'w':
			if (parse_long(optarg, &v) || v < 0 || v > 1000000)
				tb_die("%s: \"%s\" is not a whole number >= 0",
				       c == 'r' ? "-r" : "--warmup", optarg);
			*(c == 'r' ? &o->reps : &o->warmup) = (int)v;
			break;
		case 's':
			if (parse_long(optarg, &v) || v < 0)
				tb_die("--seed: \"%s\" is not a whole number", optarg);
			o->seed = (unsigned long)v;
			o->seed_set = true;
			break;
		case 'T':
			if (parse_double(optarg, &o->timeout_s) || o->timeout_s < 0)
				tb_die("--timeout: \"%s\" is not a number of seconds", optarg);
			break;
		case 'W':
			o->wait_s = -1;
			if (optarg && (parse_double(optarg, &o->wait_s) ||
				       o->wait_s < 0 || o->wait_s > 1e7))
				tb_die("--wait: \"%s\" is not a number of seconds", optarg);
			break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		o->cmd = argv + optind;
		o->ncmd = argc - optind;
	} else if (optind == argc - 1) {
		o->suite_path = argv[optind];
	} else {
		usage(stderr);
		return -1;
	}
	if (o->reps == 0)
		tb_die("-r 0: at least one repetition is needed");
	return 0;
}

/* `run -- COMMAND`: a one-case suite, like perf stat. */
static void command_suite(struct run_opts *o, struct suite *s)
{
	struct suite_case *c;
	const char *base = strrchr(o->cmd[0], '/');
	int i;

	memset(s, 0, sizeof(*s));
	s->path = xstrdup("(command line)");
	s->name = xstrdup(base ? base + 1 : o->cmd[0]);
	s->repetitions = 1;
	s->warmup = 0;
	s->timeout_s = 0;
	s->events = xstrdup("task-clock,page-faults,context-switches,cpu-migrations");
	s->order = xstrdup("interleave");
	s->cases = xcalloc(1, sizeof(*s->cases));
	s->ncases = s->cap = 1;
	c = &s->cases[0];
	c->name = xstrdup(s->name);
	c->workload = xstrdup(o->cmd[0]);
	c->nargs = (size_t)o->ncmd - 1;
	c->args = xcalloc((size_t)o->ncmd, sizeof(char *));
	for (i = 1; i < o->ncmd; i++)
		c->args[i - 1] = xstrdup(o->cmd[i]);
	c->repetitions = c->warmup = -1;
	c->timeout_s = -1;
	c->extra = json_object();
}

static void collect_touched(struct session *ss)
{
	size_t i, j, k;

	for (i = 0; i < ss->plan.n; i++) {
		const struct plan_item *it = &ss->plan.items[i];

		for (j = 0; j < it->nknobs; j++) {
			for (k = 0; k < ss->ntouched; k++)
				if (!strcmp(ss->touched[k], it->knobs[j].key))
					break;
			if (k < ss->ntouched)
				continue;
			ss->touched = xrealloc(ss->touched,
					       (ss->ntouched + 1) * sizeof(char *));
			ss->touched[ss->ntouched++] = it->knobs[j].key;
		}
	}
}

static bool is_pool_knob(const char *knob)
{
	return strstr(knob, "/nr_hugepages") != NULL;
}

/*
 * The largest size any runnable item asks of a hugetlb pool. A pool is
 * reserved once at that size and kept for the whole session: shrinking it
 * between items hands the pages back to the buddy allocator, and memory
 * fresh from there costs far more on first touch (free page reporting in
 * a VM; zeroing on bare metal), which would be measured as clearing.
 */
static const char *pool_size(const struct session *ss, const char *knob)
{
	const char *best = NULL;
	long v, max = -1;
	size_t i, j;

	for (i = 0; i < ss->plan.n; i++) {
		const struct plan_item *it = &ss->plan.items[i];

		for (j = 0; j < it->nknobs && !it->skip; j++)
			if (!strcmp(it->knobs[j].key, knob) &&
			    !parse_long(it->knobs[j].value, &v) && v > max) {
				max = v;
				best = it->knobs[j].value;
			}
	}
	return best;
}

static bool item_names(const struct plan_item *it, const char *knob)
{
	size_t i;

	for (i = 0; i < it->nknobs; i++)
		if (!strcmp(it->knobs[i].key, knob))
			return true;
	return false;
}

/*
 * A pool kept for another item came up short: that is that item's error,
 * reported when it runs; this one goes on with what the kernel gave.
 */
static void note_short_pool(struct session *ss, const char *knob,
			    const char *err)
{
	char cur[64];

	if (settings_read(&ss->settings, knob, cur, sizeof(cur)))
		return;
	if (!ss->pool_got)
		ss->pool_got = json_object();
	json_object_set_new(ss->pool_got, knob, json_string(cur));
	tb_warn("%s; keeping %s at %s for the cases that do not need it", err,
		knob, cur);
}

static const char *wanted_value(const struct session *ss,
				const struct plan_item *it, const char *knob)
{
	const char *pool;
	size_t i;

	if (is_pool_knob(knob) && (pool = pool_size(ss, knob))) {
		const char *got = json_string_value(json_object_get(ss->pool_got,
								    knob));

		/* Once short, a pool is only raised again by its own cases:
		 * shrinking it for the others would lose pages for good. */
		if (got && !item_names(it, knob))
			return NULL;
		return pool;
	}
	for (i = 0; i < it->nknobs; i++)
		if (!strcmp(it->knobs[i].key, knob))
			return it->knobs[i].value;
	return snapshot_get(&ss->settings.orig, knob);
}

/* Bring every knob any case touches to what this item wants. */
static int apply_item_settings(struct session *ss, const struct plan_item *it,
			       char *err, size_t errlen)
{
	char cur[256];
	size_t i;

	if (!ss->settings.active)
		return 0;
	for (i = 0; i < ss->ntouched; i++) {
		const char *want = wanted_value(ss, it, ss->touched[i]);

		if (!want)
			continue;
		if (!settings_read(&ss->settings, ss->touched[i], cur,
				   sizeof(cur)) &&
		    !strcmp(cur, want))
			continue;
		if (!settings_apply(&ss->settings, ss->touched[i], want, err, errlen))
			continue;
		if (!is_pool_knob(ss->touched[i]) || item_names(it, ss->touched[i]))
			return -1;
		note_short_pool(ss, ss->touched[i], err);
	}
	return 0;
}

static int open_log(struct session *ss, const struct tb_case *c)
{
	char path[4400], name[256];
	size_t i;

	if (!ss->logdir[0])
		return -1;
	snprintf(name, sizeof(name), "%s", c->id);
	for (i = 0; name[i]; i++)
		if (name[i] == '/' || name[i] == '=')
			name[i] = '_';
	snprintf(path, sizeof(path), "%s/%s.log", ss->logdir, name);
	return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

static void mark_not_huge(struct tb_run *run)
{
	const struct metric *m = metric_set_find(&run->metrics,
						 "vmstat.thp_fault_alloc");

	run->status = RUN_INVALID;
	free(run->reason);
	run->reason = xstrdup(m ? "asked for huge pages, none seen "
			      "(vmstat.thp_fault_alloc and AnonHugePages stayed 0)" :
			      "asked for huge pages, none seen");
}

/*
 * The first warm-up of a case is the one that meets fresh memory (a pool
 * just reserved, pages just reported back to the host): its figures are
 * kept apart as the first-touch cost, never averaged with the others.
 */
static void keep_first_warmup(struct tb_case *c, const struct tb_run *run)
{
	json_t *m;
	size_t i;

	if (run->status != RUN_OK)
		return;
	if (!c->extra)
		c->extra = json_object();
	if (json_object_get(c->extra, "first_warmup"))
		return;
	m = json_object();
	for (i = 0; i < run->metrics.n; i++)
		json_object_set_new(m, run->metrics.v[i].name,
				    json_real(run->metrics.v[i].value));
	json_object_set_new(c->extra, "first_warmup", m);
}

struct want_arg {
	const struct session *ss;
	const struct plan_item *it;
};

static const char *want_for_item(const char *name, void *arg)
{
	const struct want_arg *w = arg;

	return wanted_value(w->ss, w->it, name);
}

/* A workload that changed a knob measured something else: mark the run. */
static void check_drift(struct session *ss, const struct plan_item *it,
			struct tb_run *run)
{
	struct want_arg w = { ss, it };
	char what[1024], why[1200];
	int n = settings_drift(&ss->settings, want_for_item, &w, what,
			       sizeof(what));

	if (!n)
		return;
	snprintf(why, sizeof(why),
		 "the workload changed huge-page settings (%s); put back", what);
	tb_warn("%s: %s", ss->res.cases[it->case_idx].id, why);
	run->settings_changed = true;
	if (run->status == RUN_OK || run->status == RUN_INVALID) {
		run->status = RUN_INVALID;
		free(run->reason);
		run->reason = xstrdup(why);
	}
}

/*
 * One execution of an item, repetition (or warm-up) rep; record it unless
 * it is a warm-up.
 */
static void execute(struct session *ss, const struct plan_item *it,
		    bool record, int rep)
{
	struct tb_case *c = &ss->res.cases[it->case_idx];
	struct tb_run scratch = { .huge = -1 };
	struct tb_run *run = record ? case_add_run(c) : &scratch;
	struct sysstate_spec sys = {
		.mm_root = ss->settings.root,
		.mthp_kb = it->mthp.kb, .nmthp = it->has_mthp ? it->mthp.n : 0,
	};
	struct memstate_opts mo = { .stop = &stop_requested };
	struct memstate ms = { 0 };
	struct run_spec spec = {
		.path = it->path, .argv = it->argv, .env_extra = c->env,
		.nenv = c->nenv, .evs = ss->evs, .nevs = ss->nevs,
		.timeout_s = it->timeout_s, .on_spawn = settings_set_child,
		.sys = &sys,
	};
	char err[512];

	run->seq = ss->seq++;
	progress_begin(&ss->prog, c->id, !record, rep,
		       record ? it->reps : it->warmup);
	if (apply_item_settings(ss, it, err, sizeof(err))) {
		run->status = RUN_ERROR;
		run->reason = xstrdup(err);
		tb_err("%s: %s", c->id, err);
		goto out;
	}
	if (it->has_mem && memstate_prepare(it->mem, it->fragment_share, &mo, &ms,
					      &run->metrics, err, sizeof(err))) {
		run->status = RUN_ERROR;
		run->reason = xstrdup(err);
		tb_err("%s: %s", c->id, err);
		goto out;
	}
	spec.out_fd = open_log(ss, c);
	runner_run(&spec, run);
	memstate_release(&ms);
	if (spec.out_fd >= 0)
		close(spec.out_fd);
	check_drift(ss, it, run);
	if (run->status == RUN_OK && it->expect_huge && run->huge == 0)
		mark_not_huge(run);
	if (run->status == RUN_ERROR)
		tb_err("%s: %s", c->id, run->reason);
out:
	progress_end(&ss->prog, c->id, !record, rep,
		     record ? it->reps : it->warmup, run_status_name(run->status),
		     run->reason);
	if (record)
		store_log_run(&ss->log, it->case_idx, run);
	if (!record) {
		keep_first_warmup(c, &scratch);
		free(scratch.reason);
		metric_set_free(&scratch.metrics);
		metric_set_free(&scratch.counted_pct);
		note_set_free(&scratch.unsupported);
	}
}

static void warm_up(struct session *ss)
{
	size_t i;
	int w;

	for (i = 0; i < ss->plan.n && !stop_requested; i++) {
		const struct plan_item *it = &ss->plan.items[i];

		for (w = 0; w < it->warmup && !it->skip && !stop_requested; w++) {
			execute(ss, it, false, w);
		}
	}
}

static void run_round(struct session *ss, const size_t *order, size_t n, int rep)
{
	size_t k;

	for (k = 0; k < n && !stop_requested; k++) {
		const struct plan_item *it = &ss->plan.items[order[k]];

		if (it->skip || rep >= it->reps)
			continue;
		execute(ss, it, true, rep);
	}
}

static int max_reps(const struct session *ss)
{
	size_t i;
	int m = 0;

	for (i = 0; i < ss->plan.n; i++)
		if (!ss->plan.items[i].skip && ss->plan.items[i].reps > m)
			m = ss->plan.items[i].reps;
	return m;
}

/* A B A B ...; shuffled within each round when asked, seed recorded. */
static void run_all(struct session *ss, const char *order_mode,
		    unsigned long seed)
{
	size_t *order = xcalloc(ss->plan.n, sizeof(*order)), i, total = 0;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int rep, reps = max_reps(ss);

	gsl_rng_set(rng, seed);
	for (i = 0; i < ss->plan.n; i++) {
		order[i] = i;
		if (!ss->plan.items[i].skip)
			total += (size_t)ss->plan.items[i].reps;
	}
	progress_start(&ss->prog, stderr, ss->o->progress, total);
	warm_up(ss);
	if (!strcmp(order_mode, "sequential")) {
		for (i = 0; i < ss->plan.n; i++)
			for (rep = 0; rep < ss->plan.items[i].reps; rep++)
				run_round(ss, &order[i], 1, rep);
	} else {
		for (rep = 0; rep < reps && !stop_requested; rep++) {
			if (!strcmp(order_mode, "shuffle"))
				gsl_ran_shuffle(rng, order, ss->plan.n, sizeof(*order));
			run_round(ss, order, ss->plan.n, rep);
			store_log_sync(&ss->log);
		}
	}
	progress_finish(&ss->prog);
	gsl_rng_free(rng);
	free(order);
}

static void load_suite(struct session *ss)
{
	char err[1024];

	if (ss->o->cmd) {
		command_suite(ss->o, &ss->suite);
		return;
	}
	if (suite_load(ss->o->suite_path, &ss->suite, err, sizeof(err)))
		tb_die("%s", err);
}

static void parse_events(struct session *ss)
{
	const char *list = ss->o->events ? ss->o->events : ss->suite.events;
	char err[512];

	if (events_init())
		tb_warn("libpfm4 failed to initialise: only perf names and tracepoints work");
	if (!list || !*list)
		return;
	if (events_parse_list(list, &ss->evs, &ss->nevs, err, sizeof(err)))
		tb_die("%s: %s", ss->o->events ? "-e" : ss->suite.path, err);
	for (size_t i = 0; i < ss->nevs; i++)
		if (ss->evs[i].unavailable[0])
			tb_warn("%s: not counted: %s", ss->evs[i].name,
				ss->evs[i].unavailable);
	tp_pin(ss->evs, ss->nevs);
}

static void begin_settings(struct session *ss, struct plan_opts *po)
{
	char err[512], cur[64] = "";

	settings_init(&ss->settings, ss->o->sysfs_root, NULL);
	ss->settings.wait_s = ss->o->wait_s;
	ss->settings.cancel = &stop_requested;
	po->can_write = geteuid() == 0 && settings_writable(&ss->settings);
	if (po->can_write && settings_begin(&ss->settings, err, sizeof(err)))
		tb_die("%s", err);
	/* Read after begin: it may have just undone a crashed run's settings. */
	knob_read(ss->settings.root, "transparent_hugepage/enabled", cur, sizeof(cur));
	po->current_thp = xstrdup(cur);
	if (!po->can_write) {
		tb_warn("not root: running in the current THP mode (\"%s\") only; "
			"cases that need other settings are skipped", cur);
	}
}

/*
 * What this host lacks, said once per cause with the cases it takes out:
 * "not measurable here: this CPU has no 1 GiB pages (...): clear_1G/...".
 */
static void say_unsupported(const struct session *ss)
{
	char ids[1024];
	size_t i, j, used;

	for (i = 0; i < ss->plan.n; i++) {
		const struct plan_item *it = &ss->plan.items[i];

		if (!it->unsupported)
			continue;
		for (j = 0; j < i; j++)
			if (ss->plan.items[j].unsupported &&
			    !strcmp(ss->plan.items[j].skip, it->skip))
				break;
		if (j < i)
			continue;	/* said already */
		used = 0;
		ids[0] = '\0';
		for (j = i; j < ss->plan.n && used < sizeof(ids); j++)
			if (ss->plan.items[j].unsupported &&
			    !strcmp(ss->plan.items[j].skip, it->skip))
				used += (size_t)snprintf(ids + used, sizeof(ids) - used,
							 "%s%s", used ? ", " : "",
							 ss->res.cases[ss->plan.items[j].case_idx].id);
		tb_warn("not measurable here: %s; not run: %s", it->skip, ids);
	}
}

static void build_plan(struct session *ss, struct plan_opts *po)
{
	char err[256];
	size_t i;

	po->reps = ss->o->reps;
	po->warmup = ss->o->warmup;
	po->timeout_s = ss->o->timeout_s;
	po->label = ss->o->label;
	po->axes = &ss->o->axes;
	po->nmthp_sizes = mthp_list_sizes(ss->settings.root, ss->mthp_sizes,
					   MTHP_MAX_SIZES);
	po->mthp_sizes = ss->mthp_sizes;
	if (ss->o->thp && parse_thp_list(ss->o->thp, &po->thp_override,
					 &po->nthp_override, err, sizeof(err)))
		tb_die("--thp: %s", err);
	po->sysfs_root = ss->settings.root;
	po->proc_root = ss->settings.proc_root;
	po->stop_proactive = po->can_write && ss->settings.active &&
			     snapshot_get(&ss->settings.orig, SYSCTL_PROACTIVENESS);
	plan_build(&ss->suite, po, &ss->plan, &ss->res);
	collect_touched(ss);
	for (i = 0; i < ss->plan.n; i++)
		if (ss->plan.items[i].skip && !ss->plan.items[i].unsupported)
			tb_warn("%s: skipped: %s", ss->res.cases[ss->plan.items[i].case_idx].id,
				ss->plan.items[i].skip);
	say_unsupported(ss);
}

static json_t *make_meta(struct session *ss, int argc, char **argv,
			 const char *order, unsigned long seed)
{
	json_t *meta = json_object(), *cmd = json_array();
	int i;

	json_array_append_new(cmd, json_string("thpbench"));
	for (i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	json_object_set_new(meta, "command", cmd);
	json_object_set_new(meta, "suite", json_string(ss->suite.name));
	json_object_set_new(meta, "suite_path", json_string(ss->suite.path));
	json_object_set_new(meta, "order", json_string(order));
	json_object_set_new(meta, "seed", json_integer((json_int_t)seed));
	json_object_set_new(meta, "events", json_string(ss->o->events ?
					ss->o->events : ss->suite.events ? ss->suite.events : ""));
	json_object_set_new(meta, "label", json_string(ss->o->label ? ss->o->label : ""));
	if (ss->o->kernel_id)
		json_object_set_new(meta, "kernel_id", json_string(ss->o->kernel_id));
	if (ss->o->machine)
		json_object_set_new(meta, "machine", json_string(ss->o->machine));
	return meta;
}

static void prepare_outdir(struct session *ss)
{
	static char def[512];
	char stamp[64], path[4200], err[512];
	time_t t = time(NULL);

	if (!ss->o->outdir && ss->o->cmd)
		return;
	if (!ss->o->outdir) {
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
		snprintf(def, sizeof(def), "results/%s-%s", ss->suite.name, stamp);
		ss->o->outdir = def;
	}
	snprintf(ss->logdir, sizeof(ss->logdir), "%s/logs", ss->o->outdir);
	if (mkdir_p(ss->logdir, 0755))
		tb_die("%s: cannot create the results directory: %s", ss->logdir,
		       strerror(errno));
	snprintf(path, sizeof(path), "%s/results.jsonl", ss->o->outdir);
	if (store_log_open(&ss->log, path, &ss->res, err, sizeof(err)))
		tb_die("%s (is the results file system full?)", err);
}

static void write_outputs(struct session *ss)
{
	char path[4200], err[512];
	json_t *claims = NULL;
	FILE *f;

	if (ss->suite.nclaims) {
		claims = claims_evaluate(ss->suite.claims, ss->suite.nclaims, &ss->res);
		json_object_set_new(ss->res.meta, "claims", claims);
	}
	report_results(stdout, &ss->res);
	claims_print(stdout, claims, ss->res.env);
	if (!ss->o->outdir)
		return;
	snprintf(path, sizeof(path), "%s/results.json", ss->o->outdir);
	if (store_write(&ss->res, path, err, sizeof(err))) {
		tb_err("%s", err);
		store_log_close(&ss->log, false);
		tb_die("results.json was not written; the %zu completed repetition(s) are in %s/results.jsonl (thpbench compare and plot read it)",
		       ss->log.nruns, ss->o->outdir);
	}
	store_log_close(&ss->log, true);
	snprintf(path, sizeof(path), "%s/summary.txt", ss->o->outdir);
	f = fopen(path, "w");
	if (f) {
		report_results(f, &ss->res);
		claims_print(f, claims, ss->res.env);
		fclose(f);
	}
	printf("\nresults: %s/results.json\n", ss->o->outdir);
	if (plot_results_dir(&ss->res, ss->o->outdir, stdout))
		tb_warn("charts were not drawn (above); results.json is complete");
}

static size_t ok_runs(const struct tb_results *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->ncases; i++)
		n += case_ok_runs(&r->cases[i]);
	return n;
}

static void install_stop_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct session ss = { .o = &o, .log = { .fd = -1 } };
	struct plan_opts po = { 0 };
	const char *order;
	unsigned long seed;
	int rc;

	if (parse_opts(argc, argv, &o))
		return TB_EXIT_ERROR;
	load_suite(&ss);
	parse_events(&ss);
	order = o.order ? o.order : ss.suite.order;
	if (strcmp(order, "interleave") && strcmp(order, "shuffle") &&
	    strcmp(order, "sequential"))
		tb_die("--order: \"%s\" is not interleave, shuffle or sequential", order);
	seed = o.seed_set ? o.seed : ss.suite.seed_set ? ss.suite.seed :
	       (unsigned long)time(NULL);
	install_stop_handlers();
	begin_settings(&ss, &po);
	ss.res.env = env_collect(ss.settings.root, ss.settings.active ?
				 &ss.settings.orig : NULL);
	claims_record_kconfig(ss.suite.claims, ss.suite.nclaims, ss.res.env);
	build_plan(&ss, &po);
	ss.res.meta = make_meta(&ss, argc, argv, order, seed);
	prepare_outdir(&ss);
	run_all(&ss, order, seed);
	rc = ss.settings.active && settings_end(&ss.settings) ? TB_EXIT_ERROR : 0;
	if (stop_requested)
		tb_err("interrupted: writing the runs completed so far");
	write_outputs(&ss);
	if (!rc && !stop_requested && !ok_runs(&ss.res)) {
		tb_err("nothing valid was measured: every repetition failed, was skipped or was invalid (exit %d)",
		       TB_EXIT_NOTHING);
		rc = TB_EXIT_NOTHING;
	}
	json_decref(ss.pool_got);
	plan_free(&ss.plan);
	settings_free(&ss.settings);
	results_free(&ss.res);
	suite_free(&ss.suite);
	tp_unpin();
	free(ss.evs);
	free(ss.touched);
	free_strv(po.thp_override, po.nthp_override);
	free((char *)po.current_thp);
	axes_free(&o.axes);
	return stop_requested ? 128 + SIGINT : rc;
}
