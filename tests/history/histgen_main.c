// SPDX-License-Identifier: GPL-2.0-only
/*
 * histgen - write a synthetic nightly history as results files, one per
 * night (DIR/night-NNNN.json, thpbench-results/1), for `thpbench history
 * import`: the database tests and the benchmark.
 *
 *   histgen -o DIR [--nights N] [--reps R] [--mean M] [--cv C]
 *           [--night-cv C] [--cases K] [--metrics M] [--seed S]
 *           [--host NAME] [--suite NAME] [--kernel-same]
 *           [--step NIGHT:SIZE]... [--step-every K]
 *           [--outlier NIGHT:SIZE]... [--host-change NIGHT]...
 *           [--missing NIGHT]... [--failed NIGHT]... [--rename NIGHT:NAME]
 *           [--drift RATE] [--drift-from NIGHT]
 *
 * K cases ("caseNN/thp=always") times M metrics (roi_usec, wall_usec,
 * gbps, sys_usec, user_usec: M <= 5) make K*M series; series i draws from
 * seed + i. Steps apply to every K-th series (--step-every, default 1:
 * all). A night's kernel id (meta.kernel_id) and microcode (env.microcode,
 * part of the host fingerprint) come from histgen.h; --rename gives the
 * host another name from that night on; --drift adds RATE * mean a night
 * to the level from --drift-from on (histgen.h). Exit 2 on bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histgen.h"
#include "util/util.h"

static const char *const metric_names[] = {
	"roi_usec", "wall_usec", "gbps", "sys_usec", "user_usec",
};

struct cli {
	struct histgen g;
	const char *out;
	size_t cases, metrics, step_every;
	size_t rename_at;	/* from this night on the hostname is rename_to */
	const char *rename_to;
};

__attribute__((noreturn)) static void usage(void)
{
	fputs("usage: histgen -o DIR [--nights N] [--reps R] [--mean M] [--cv C] [--night-cv C]\n"
	      "               [--cases K] [--metrics M<=5] [--seed S] [--host NAME] [--suite NAME]\n"
	      "               [--kernel-same] [--step NIGHT:SIZE]... [--step-every K]\n"
	      "               [--outlier NIGHT:SIZE]... [--host-change NIGHT]...\n"
	      "               [--missing NIGHT]... [--failed NIGHT]... [--rename NIGHT:NAME]\n"
	      "               [--drift RATE] [--drift-from NIGHT]\n", stderr);
	exit(TB_EXIT_ERROR);
}

static size_t num(const char *s)
{
	long v;

	if (parse_long(s, &v) || v < 0)
		tb_die("%s: expected a whole number >= 0", s);
	return (size_t)v;
}

static double real(const char *s)
{
	double v;

	if (parse_double(s, &v))
		tb_die("%s: expected a number", s);
	return v;
}

static void at(const char *s, struct histgen_at *v, size_t *n)
{
	char buf[64], *colon;

	snprintf(buf, sizeof(buf), "%s", s);
	colon = strchr(buf, ':');
	if (!colon || *n >= HISTGEN_MAX)
		tb_die("%s: expected NIGHT:SIZE (at most %d)", s, HISTGEN_MAX);
	*colon = 0;
	v[*n].night = num(buf);
	v[(*n)++].size = real(colon + 1);
}

static void push(size_t *v, size_t *n, const char *s)
{
	if (*n >= HISTGEN_MAX)
		tb_die("at most %d nights per option", HISTGEN_MAX);
	v[(*n)++] = num(s);
}

/* --rename NIGHT:NAME */
static void rename_opt(const char *s, struct cli *c)
{
	const char *colon = strchr(s, ':');
	char buf[32];

	if (!colon || colon == s || !colon[1] || (size_t)(colon - s) >= sizeof(buf))
		tb_die("%s: expected NIGHT:NAME", s);
	snprintf(buf, sizeof(buf), "%.*s", (int)(colon - s), s);
	c->rename_at = num(buf);
	c->rename_to = colon + 1;
}

static void parse(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "nights", 1, NULL, 'n' }, { "reps", 1, NULL, 'r' },
		{ "mean", 1, NULL, 'm' }, { "cv", 1, NULL, 'c' },
		{ "night-cv", 1, NULL, 'C' }, { "cases", 1, NULL, 'k' },
		{ "metrics", 1, NULL, 'M' }, { "seed", 1, NULL, 's' },
		{ "host", 1, NULL, 'H' }, { "suite", 1, NULL, 'S' },
		{ "kernel-same", 0, NULL, 'K' }, { "step", 1, NULL, 't' },
		{ "step-every", 1, NULL, 'e' }, { "outlier", 1, NULL, 'O' },
		{ "host-change", 1, NULL, 'h' }, { "missing", 1, NULL, 'x' },
		{ "failed", 1, NULL, 'f' }, { "output", 1, NULL, 'o' },
		{ "rename", 1, NULL, 'N' }, { "drift", 1, NULL, 'd' },
		{ "drift-from", 1, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	while ((o = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (o) {
		case 'n': c->g.nights = num(optarg); break;
		case 'r': c->g.reps = num(optarg); break;
		case 'm': c->g.mean = real(optarg); break;
		case 'c': c->g.cv = real(optarg); break;
		case 'C': c->g.night_cv = real(optarg); break;
		case 'k': c->cases = num(optarg); break;
		case 'M': c->metrics = num(optarg); break;
		case 's': c->g.seed = num(optarg); break;
		case 'H': c->g.host = optarg; break;
		case 'S': c->g.suite = optarg; break;
		case 'K': c->g.kernel_same = true; break;
		case 't': at(optarg, c->g.steps, &c->g.nsteps); break;
		case 'e': c->step_every = num(optarg); break;
		case 'O': at(optarg, c->g.outliers, &c->g.noutliers); break;
		case 'h': push(c->g.hosts, &c->g.nhosts, optarg); break;
		case 'x': push(c->g.missing, &c->g.nmissing, optarg); break;
		case 'f': push(c->g.failed, &c->g.nfailed, optarg); break;
		case 'o': c->out = optarg; break;
		case 'N': rename_opt(optarg, c); break;
		case 'd': c->g.drift = real(optarg); break;
		case 'D': c->g.drift_from = num(optarg); break;
		default: usage();
		}
	}
	if (!c->out || optind < argc || !c->cases || !c->metrics ||
	    c->metrics > ARRAY_SIZE(metric_names) || !c->step_every)
		usage();
}

static json_t *env_json(const struct histgen *g, size_t night)
{
	char started[32], mc[32];

	histgen_started(night, started, sizeof(started));
	histgen_microcode(g, night, mc, sizeof(mc));
	return json_pack("{s:s,s:s,s:s,s:s,s:i,s:s,s:i,s:i,s:s,s:{s:s,s:s},s:{s:i,s:i},s:b,s:s}",
			 "kernel", "6.18.0", "hostname", g->host,
			 "cpu", "Synthetic CPU @ 3.00GHz", "microcode", mc,
			 "nr_cpus", 2, "machine", "x86_64",
			 "mem_total_kb", 24576000, "numa_nodes", 1,
			 "glibc", "2.36", "thp", "enabled", "madvise",
			 "defrag", "madvise", "hugetlb", "2048kB", 0,
			 "1048576kB", 0, "pmu", false, "started", started);
}

static json_t *run_json(const struct history_series *v, size_t nm,
			size_t night_idx, size_t rep)
{
	json_t *m = json_object();
	size_t j;

	for (j = 0; j < nm && v[0].nights[night_idx].n; j++)
		json_object_set_new(m, v[j].metric,
				    json_real(v[j].nights[night_idx].values[rep]));
	return json_pack("{s:s,s:i,s:i,s:i,s:o}", "status",
			 v[0].nights[night_idx].n ? "ok" : "failed",
			 "exit_code", v[0].nights[night_idx].n ? 0 : 1,
			 "signal", 0, "seq", (int)rep, "metrics", m);
}

static json_t *case_json(const struct cli *c, size_t k,
			 const struct history_series *v, size_t night_idx)
{
	char name[32], id[64];
	json_t *runs = json_array();
	size_t r;

	snprintf(name, sizeof(name), "case%02zu", k);
	snprintf(id, sizeof(id), "%s/thp=always", name);
	for (r = 0; r < c->g.reps; r++)
		json_array_append_new(runs, run_json(v, c->metrics, night_idx, r));
	return json_pack("{s:s,s:s,s:s,s:[s,s],s:[],s:s,s:s,s:b,s:{},s:{},s:o}",
			 "id", id, "name", name, "workload", "synthetic",
			 "args", "--case", name, "env", "thp", "always",
			 "label", "", "expect_huge", false, "settings",
			 "extra", "runs", runs);
}

static void write_night(const struct cli *c, struct history_series **v,
			size_t night, size_t idx)
{
	char path[4096], kid[32];
	json_t *cases = json_array(), *doc;
	size_t k;

	histgen_kernel_id(c->g.kernel_same ? 0 : night, kid, sizeof(kid));
	for (k = 0; k < c->cases; k++)
		json_array_append_new(cases, case_json(c, k, v[k], idx));
	json_t *env = env_json(&c->g, night);

	if (c->rename_to && night >= c->rename_at)
		json_object_set_new(env, "hostname", json_string(c->rename_to));
	doc = json_pack("{s:s,s:o,s:{s:s,s:s,s:s},s:o}", "schema",
			"thpbench-results/1", "env", env,
			"meta", "suite", c->g.suite, "kernel_id", kid,
			"command", "histgen", "cases", cases);
	snprintf(path, sizeof(path), "%s/night-%04zu.json", c->out, night);
	if (json_dump_file(doc, path, JSON_COMPACT))
		tb_die("%s: cannot write", path);
	json_decref(doc);
}

static bool missing(const struct histgen *g, size_t night)
{
	size_t i;

	for (i = 0; i < g->nmissing; i++)
		if (g->missing[i] == night)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct cli c = { .cases = 1, .metrics = 1, .step_every = 1 };
	struct history_series **v;
	size_t k, j, night, idx = 0;

	histgen_init(&c.g);
	c.g.suite = "synthetic";
	parse(&c, argc, argv);
	if (mkdir_p(c.out, 0755))
		tb_die("%s: cannot create: %s", c.out, strerror(errno));
	v = xcalloc(c.cases, sizeof(*v));
	for (k = 0; k < c.cases; k++) {
		v[k] = xcalloc(c.metrics, sizeof(**v));
		for (j = 0; j < c.metrics; j++) {
			struct histgen g = c.g;
			size_t i = k * c.metrics + j;

			g.seed = c.g.seed + i;
			g.metric = metric_names[j];
			if (i % c.step_every)
				g.nsteps = 0;
			histgen_series(&g, &v[k][j]);
		}
	}
	for (night = 0; night < c.g.nights; night++)
		if (!missing(&c.g, night))
			write_night(&c, v, night, idx++);
	for (k = 0; k < c.cases; k++) {
		history_series_array_free(v[k], c.metrics);
	}
	free(v);
	return 0;
}
