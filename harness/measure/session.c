// SPDX-License-Identifier: GPL-2.0-only
/*
 * session - one `thpbench run` from the suite to the knobs put back
 * (session.h says the order of the calls).
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "background.h"
#include "drop_slab.h"
#include "env.h"
#include "kgcov.h"
#include "event_list.h"
#include "memstate.h"
#include "runner.h"
#include "session.h"
#include "session_knobs.h"
#include "case_res.h"
#include "tp_pin.h"
#include "results/store.h"
#include "system/sysctl_knob.h"
#include "util/util.h"

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
	runner_abort();
}

void session_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

bool session_stopped(void)
{
	return stop_requested;
}

/* `run -- COMMAND`: a one-case suite, like perf stat. */
static void command_suite(const struct session_opts *o, struct suite *s)
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

/*
 * Where repetition rep of c keeps its profile: OUTDIR/profile/CASE/repN
 * (CASE as in logs/). False when not profiling, or with no results
 * directory to keep it in.
 */
static bool profile_base(struct session *ss, const struct tb_case *c, int rep,
			 char *base, size_t len)
{
	char name[256], dir[PATH_MAX];
	size_t i;

	if (ss->prof.mode == PROFILE_OFF || !ss->outdir)
		return false;
	snprintf(name, sizeof(name), "%s", c->id);
	for (i = 0; name[i]; i++)
		if (name[i] == '/' || name[i] == '=')
			name[i] = '_';
	snprintf(dir, sizeof(dir), "%s/profile/%s", ss->outdir, name);
	if (mkdir_p(dir, 0755)) {
		tb_warn("profile: cannot create %s: %s", dir, strerror(errno));
		return false;
	}
	if ((size_t)snprintf(base, len, "%.3900s/rep%d", dir, rep + 1) >= len)
		return false;
	return true;
}

/*
 * --kernel-gcov: the counters zeroed before the repetition's knobs are set
 * and its memory state made (the kernel code a case's settings run, a
 * knob's store function or khugepaged started, is that case's) and copied
 * to OUTDIR/kgcov/SEQ (SEQ: the repetition's seq in results.json) when
 * the workload ends, so each directory holds what one repetition ran. A
 * warm-up is zeroed and not kept. A failure is said and the repetition
 * kept: coverage is a by-product, never a reason to lose a measurement.
 */
static void kgcov_before(const struct session *ss)
{
	char err[PATH_MAX + 256];

	if (ss->kg.root && kgcov_reset(&ss->kg, err, sizeof(err)))
		tb_warn("%s", err);
}

static void kgcov_after(const struct session *ss, const struct tb_run *run,
			bool record)
{
	char dest[PATH_MAX], err[PATH_MAX + 256];
	size_t n = 0, same = 0;

	if (!ss->kg.root || !record || !ss->outdir)
		return;
	snprintf(dest, sizeof(dest), "%.4000s/kgcov/%ld", ss->outdir, run->seq);
	if (kgcov_collect(&ss->kg, dest, &n, &same, err, sizeof(err)))
		tb_warn("%s", err);
	else if (!n && !same)
		tb_warn("--kernel-gcov: no .gcda under %s (nothing profiled?)",
			ss->kg.root);
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

/* Coverage asked for (background.h): the idle intervals are taken. */
static bool background_on(const struct session *ss)
{
	return ss->o->background || ss->suite.background;
}

/*
 * With the idle intervals, every size's mTHP stats are recorded, not only
 * the size a case runs: coverage asks which sizes' counters a case moved.
 */
static void all_sizes(const struct session *ss, unsigned long *kb,
		      struct sysstate_spec *sys)
{
	size_t i;

	for (i = 0; i < ss->po.nmthp_sizes && i < MTHP_MAX_SIZES; i++)
		kb[i] = ss->mthp_sizes[i].kb;
	sys->mthp_kb = kb;
	sys->nmthp = i;
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
	unsigned long all_kb[MTHP_MAX_SIZES];
	struct memstate_opts mo = { .stop = &stop_requested,
				    .record = settings_set_helper };
	char compact[PATH_MAX] = "", prof_base[PATH_MAX];
	struct memstate ms = { 0 };
	struct run_spec spec = {
		.path = it->path, .argv = it->argv, .env_extra = c->env,
		.nenv = c->nenv, .evs = ss->evs, .nevs = ss->nevs,
		.timeout_s = it->timeout_s, .on_spawn = settings_set_child,
		.sys = &sys,
		.cgroup = case_res_cgroup(ss, it->case_idx),
	};
	char err[512];

	if (background_on(ss))
		all_sizes(ss, all_kb, &sys);
	/* Under the sysctl root the knobs use: a fake one in tests, none with a
	 * fake mm root alone ("": refused, never the real /proc/sys). */
	if (ss->settings.sysctl_root)
		snprintf(compact, sizeof(compact), "%s/vm/compact_memory",
			 ss->settings.sysctl_root);
	mo.compact_path = compact;
	run->seq = ss->seq++;
	progress_begin(&ss->prog, c->id, !record, rep,
		       record ? it->reps : it->warmup);
	kgcov_before(ss);
	if (session_knobs_apply(ss, it, err, sizeof(err))) {
		run->status = RUN_ERROR;
		run->reason = xstrdup(err);
		tb_err("%s: %s", c->id, err);
		goto out;
	}
	if (it->sc && it->sc->drop_slab &&
	    drop_slab_run(ss->settings.sysctl_root, &run->metrics, err,
			  sizeof(err))) {
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
	case_res_enter(ss, it->case_idx);
	spec.out_fd = open_log(ss, c);
	if (record && profile_base(ss, c, rep, prof_base, sizeof(prof_base))) {
		spec.prof = &ss->prof;
		spec.prof_base = prof_base;
	}
	runner_run(&spec, run);
	kgcov_after(ss, run, record);
	memstate_release(&ms);
	if (spec.out_fd >= 0)
		close(spec.out_fd);
	session_knobs_check_drift(ss, it, run);
	if (record && background_on(ss) && background_wanted(c))
		background_measure(&spec, run, c);
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
void session_run(struct session *ss)
{
	size_t *order = xcalloc(ss->plan.n, sizeof(*order)), i, total = 0;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int rep, reps = max_reps(ss);

	gsl_rng_set(rng, ss->seed);
	for (i = 0; i < ss->plan.n; i++) {
		order[i] = i;
		if (!ss->plan.items[i].skip)
			total += (size_t)ss->plan.items[i].reps;
	}
	progress_start(&ss->prog, stderr, ss->o->progress, total);
	warm_up(ss);
	if (!strcmp(ss->order, "sequential")) {
		for (i = 0; i < ss->plan.n; i++)
			for (rep = 0; rep < ss->plan.items[i].reps; rep++) {
				run_round(ss, &order[i], 1, rep);
				store_log_sync_due(&ss->log, STORE_LOG_ROUND_SYNC_USEC);
			}
	} else {
		for (rep = 0; rep < reps && !stop_requested; rep++) {
			if (!strcmp(ss->order, "shuffle"))
				gsl_ran_shuffle(rng, order, ss->plan.n, sizeof(*order));
			run_round(ss, order, ss->plan.n, rep);
			store_log_sync_due(&ss->log, STORE_LOG_ROUND_SYNC_USEC);
		}
	}
	progress_finish(&ss->prog);
	gsl_rng_free(rng);
	free(order);
	if (ss->prof.mode != PROFILE_OFF)
		profile_fill_cases(&ss->res);
}

static int load_suite(struct session *ss, char *err, size_t errlen)
{
	if (ss->o->cmd) {
		command_suite(ss->o, &ss->suite);
		return 0;
	}
	return suite_load(ss->o->suite_path, &ss->suite, err, errlen);
}

static int parse_events(struct session *ss, char *err, size_t errlen)
{
	const char *list = ss->o->events ? ss->o->events : ss->suite.events;
	char why[512];

	if (events_init())
		tb_warn("libpfm4 failed to initialise: only perf names and tracepoints work");
	if (!list || !*list)
		return 0;
	if (events_parse_list(list, &ss->evs, &ss->nevs, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s",
			 ss->o->events ? "-e" : ss->suite.path, why);
		return -1;
	}
	for (size_t i = 0; i < ss->nevs; i++)
		if (ss->evs[i].unavailable[0])
			tb_warn("%s: not counted: %s", ss->evs[i].name,
				ss->evs[i].unavailable);
	tp_pin(ss->evs, ss->nevs);
	return 0;
}

int session_load(struct session *ss, const struct session_opts *o,
		 char *err, size_t errlen)
{
	memset(ss, 0, sizeof(*ss));
	ss->o = o;
	ss->log.fd = -1;
	if (load_suite(ss, err, errlen) || parse_events(ss, err, errlen))
		return -1;
	ss->order = o->order ? o->order : ss->suite.order;
	if (strcmp(ss->order, "interleave") && strcmp(ss->order, "shuffle") &&
	    strcmp(ss->order, "sequential")) {
		snprintf(err, errlen,
			 "--order: \"%s\" is not interleave, shuffle or sequential",
			 ss->order);
		return -1;
	}
	ss->seed = o->seed_set ? o->seed : ss->suite.seed_set ? ss->suite.seed :
		   (unsigned long)time(NULL);
	return 0;
}

static int begin_settings(struct session *ss, char *err, size_t errlen)
{
	struct plan_opts *po = &ss->po;
	char cur[64] = "";

	settings_init(&ss->settings, ss->o->sysfs_root, NULL);
	ss->settings.say = ss->o->say;
	ss->settings.wait_s = ss->o->wait_s;
	ss->settings.cancel = &stop_requested;
	po->can_write = geteuid() == 0 && settings_writable(&ss->settings);
	if (po->can_write && settings_begin(&ss->settings, err, errlen))
		return -1;
	/* Read after begin: it may have just undone a crashed run's settings. */
	knob_read(ss->settings.root, "transparent_hugepage/enabled", cur, sizeof(cur));
	po->current_thp = xstrdup(cur);
	if (!po->can_write) {
		tb_warn("not root: running in the current THP mode (\"%s\") only; "
			"cases that need other settings are skipped", cur);
	}
	return 0;
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

/*
 * A fragmented case whose proactive compaction cannot be stopped (the
 * knob not snapshotted) measures memory that kcompactd puts back
 * together meanwhile: said loudly, and kept in the case's extra
 * ("proactive_compaction") so that the results say it too.
 */
static void say_proactive_left_on(struct session *ss)
{
	const struct settings_ctx *st = &ss->settings;
	char why[PATH_MAX + 160];
	bool said = false;
	json_t **extra;
	size_t i;

	if (ss->po.stop_proactive)
		return;
	if (!st->sysctl_root)
		snprintf(why, sizeof(why), "no sysctl root in use (the mm root %s is not /sys/kernel/mm and THPBENCH_PROC_SYS_ROOT is unset)",
			 st->root);
	else if (!ss->po.can_write || !st->active)
		snprintf(why, sizeof(why), "this run changes no settings");
	else
		snprintf(why, sizeof(why), "%s/" SYSCTL_PROACTIVENESS " is not a regular file with read and write bits (missing, or a symlink)",
			 st->sysctl_root);
	for (i = 0; i < ss->plan.n; i++) {
		if (!ss->plan.items[i].has_mem ||
		    (ss->plan.items[i].mem != MEM_FRAGMENTED &&
		     ss->plan.items[i].mem != MEM_PINNED))
			continue;
		extra = &ss->res.cases[ss->plan.items[i].case_idx].extra;
		if (!*extra)
			*extra = json_object();
		json_object_set_new(*extra, "proactive_compaction",
				    json_sprintf("left on: %s", why));
		if (!said)
			tb_warn("proactive compaction is left on for the fragmented cases: %s; kcompactd may rebuild the free 2 MiB blocks the fragmenter breaks up",
				why);
		said = true;
	}
}

static int build_plan(struct session *ss, char *err, size_t errlen)
{
	struct plan_opts *po = &ss->po;
	char why[256];
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
					 &po->nthp_override, why, sizeof(why))) {
		snprintf(err, errlen, "--thp: %s", why);
		return -1;
	}
	for (i = 0; ss->o->axes.mthp && i < ss->suite.ncases; i++) {
		const struct suite_case *sc = &ss->suite.cases[i];
		const char *knob = suite_case_mthp_conflict(sc,
			ss->o->axes.mthp_shmem || sc->axes.mthp_shmem ||
			ss->suite.axes.mthp_shmem);

		if (knob) {
			snprintf(err, errlen, "--mthp: [case %s] sets %s, which the mTHP axis writes too; drop the set, or --mthp",
				 sc->name, knob);
			return -1;
		}
	}
	po->sysfs_root = ss->settings.root;
	po->proc_root = ss->settings.proc_root;
	po->stop_proactive = po->can_write && ss->settings.active &&
			     snapshot_get(&ss->settings.orig, SYSCTL_PROACTIVENESS);
	plan_build(&ss->suite, po, &ss->plan, &ss->res);
	say_proactive_left_on(ss);
	case_res_begin(ss);
	session_knobs_collect(ss);
	for (i = 0; i < ss->plan.n; i++)
		if (ss->plan.items[i].skip && !ss->plan.items[i].unsupported)
			tb_warn("%s: skipped: %s", ss->res.cases[ss->plan.items[i].case_idx].id,
				ss->plan.items[i].skip);
	say_unsupported(ss);
	return 0;
}

static json_t *make_meta(const struct session *ss)
{
	const struct session_opts *o = ss->o;
	json_t *meta = json_object(), *cmd = json_array();
	int i;

	json_array_append_new(cmd, json_string("thpbench"));
	for (i = 0; i < o->argc; i++)
		json_array_append_new(cmd, json_string(o->argv[i]));
	json_object_set_new(meta, "command", cmd);
	json_object_set_new(meta, "suite", json_string(ss->suite.name));
	json_object_set_new(meta, "suite_path", json_string(ss->suite.path));
	json_object_set_new(meta, "order", json_string(ss->order));
	json_object_set_new(meta, "seed", json_integer((json_int_t)ss->seed));
	json_object_set_new(meta, "events", json_string(o->events ?
					o->events : ss->suite.events ? ss->suite.events : ""));
	json_object_set_new(meta, "label", json_string(o->label ? o->label : ""));
	if (o->kernel_id)
		json_object_set_new(meta, "kernel_id", json_string(o->kernel_id));
	if (o->machine)
		json_object_set_new(meta, "machine", json_string(o->machine));
	if (background_on(ss))
		json_object_set_new(meta, "background", background_meta());
	if (ss->prof.mode != PROFILE_OFF)
		json_object_set_new(meta, "profile", profile_meta(&ss->prof));
	return meta;
}

static int prepare_outdir(struct session *ss, char *err, size_t errlen)
{
	char stamp[64], path[4200], why[512];
	time_t t = time(NULL);

	if (!ss->o->outdir && ss->o->cmd)
		return 0;
	if (ss->o->outdir) {
		ss->outdir = xstrdup(ss->o->outdir);
	} else {
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
		snprintf(path, sizeof(path), "results/%s-%s", ss->suite.name, stamp);
		ss->outdir = xstrdup(path);
	}
	snprintf(ss->logdir, sizeof(ss->logdir), "%s/logs", ss->outdir);
	if (mkdir_p(ss->logdir, 0755)) {
		snprintf(err, errlen, "%s: cannot create the results directory: %s",
			 ss->logdir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/results.jsonl", ss->outdir);
	if (store_log_open(&ss->log, path, &ss->res, why, sizeof(why))) {
		int e = errno;

		/* The hint only where it can be the reason (not a planted link). */
		snprintf(err, errlen, "%s%s", why, e == ENOSPC || e == EDQUOT ?
			 " (is the results file system full?)" :
			 e == ELOOP ? " (a symbolic link: refusing to follow it; remove it)" : "");
		return -1;
	}
	return 0;
}

/* --profile, else the suite's profile key (profile.h). */
static int setup_profile(struct session *ss, char *err, size_t errlen)
{
	static char kallsyms[PATH_MAX];
	const char *m = ss->o->profile ? ss->o->profile : ss->suite.profile;
	int mode = m ? profile_mode_parse(m) : PROFILE_OFF;

	if (mode < 0) {
		snprintf(err, errlen, "--profile: \"%s\" is not task, system or off", m);
		return -1;
	}
	ss->prof = (struct profile_spec){
		.mode = (enum profile_mode)mode, .keep_data = ss->o->profile_keep,
		.freq = ss->o->profile_freq,
		.kallsyms = mode == PROFILE_OFF ? NULL :
			profile_kallsyms(getenv("THPBENCH_KALLSYMS"), kallsyms,
					 sizeof(kallsyms)),
		.floor_pct = PROFILE_FLOOR_PCT, .max_fns = PROFILE_MAX_FNS,
	};
	if (mode != PROFILE_OFF && !ss->o->outdir && ss->o->cmd)
		tb_warn("--profile: no results directory (-o DIR) to keep the profiles in: not profiling");
	if (mode != PROFILE_OFF)
		tb_warn("profile: %s, %s mode, event %s at %ld Hz",
			profile_perf(&ss->prof), profile_mode_name(ss->prof.mode),
			profile_event(), ss->prof.freq ? ss->prof.freq : PROFILE_FREQ);
	return 0;
}

int session_begin(struct session *ss, char *err, size_t errlen)
{
	if (begin_settings(ss, err, errlen))
		return -1;
	ss->res.env = env_collect(ss->settings.root, ss->settings.active ?
				  &ss->settings.orig : NULL);
	if (ss->o->on_env)
		ss->o->on_env(&ss->suite, ss->res.env);
	if (build_plan(ss, err, errlen) || setup_profile(ss, err, errlen))
		return -1;
	ss->res.meta = make_meta(ss);
	if (prepare_outdir(ss, err, errlen))
		return -1;
	if (!ss->o->kernel_gcov)
		return 0;
	if (!ss->outdir) {
		snprintf(err, errlen, "--kernel-gcov: no results directory (-o DIR) to keep the counters in");
		return -1;
	}
	return kgcov_open(&ss->kg, ss->o->kernel_gcov, err, errlen);
}

int session_end(struct session *ss)
{
	return ss->settings.active && settings_end(&ss->settings) ? -1 : 0;
}

int session_save(struct session *ss, char *err, size_t errlen)
{
	char path[4200];

	if (!ss->outdir)
		return 0;
	snprintf(path, sizeof(path), "%s/results.json", ss->outdir);
	if (store_write(&ss->res, path, err, errlen)) {
		store_log_close(&ss->log, false);
		return -1;
	}
	store_log_close(&ss->log, true);
	return 0;
}

size_t session_ok_runs(const struct session *ss)
{
	size_t i, n = 0;

	for (i = 0; i < ss->res.ncases; i++)
		n += case_ok_runs(&ss->res.cases[i]);
	return n;
}

void session_free(struct session *ss)
{
	kgcov_free(&ss->kg);
	json_decref(ss->pool_got);
	plan_free(&ss->plan);
	settings_free(&ss->settings);
	results_free(&ss->res);
	suite_free(&ss->suite);
	tp_unpin();
	free(ss->evs);
	free(ss->touched);
	free_strv(ss->po.thp_override, ss->po.nthp_override);
	free((char *)ss->po.current_thp);
	free(ss->outdir);
}
