// SPDX-License-Identifier: GPL-2.0-only
/*
 * histconfirm - the confirmation A/B, simulated: what measuring the
 * suspect kernel beside the last good one in the same night buys over
 * any rule that reads the nightly series alone (histbound.c).
 *
 *   histconfirm [--reps-per-kernel K]... [--suspect watch|LEVEL]...
 *               [--confidence C] [--seeds N] [--aa-seeds N] [--boot-cv C]
 *
 * The nights are histgen's model (histgen.h): 5 repetitions at 3% CV,
 * each night's level times its night-to-night offset (2%), +5% from
 * night 30 of 37 (50 seeds), or no change over 60 nights (A/A, 100
 * seeds). Every night the series so far is checked; the night is a
 * suspicion when
 *   watch   `history check` raises the watch (the newest night outside
 *           its segment's 95% prediction interval, beyond the 2%
 *           threshold: history_window.h) or confirms a change, in the
 *           regression direction;
 *   LEVEL   (a number, 0.02) the newest night's mean lies more than
 *           LEVEL above the mean of the up to 30 nights before it.
 * A suspicion runs the confirmation that night: the last good kernel (A)
 * and the suspect (B) booted alternately, A B A B (2 boots each, K/2
 * repetitions a boot), in the same night, so every run shares the
 * night's offset (and, with --boot-cv, each boot adds its own). Their
 * repetitions are compared as `thpbench compare` does (Welch and
 * Mann-Whitney, the larger p, the change's interval at --confidence
 * beyond the 2% threshold: verdict.h); the gate fails when the verdict
 * is a regression. Caught within 2 nights: the verdict says regression on
 * the first or second night of the step (the suspicion and the
 * confirmation). A/A: a history whose gate failed on any night.
 * Not a test: fixed seeds; tests/bench/history_confirm.sh prints it.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "histgen.h"
#include "history/history_check.h"
#include "stats/hypothesis.h"
#include "stats/verdict.h"
#include "util/util.h"

#define MAXV 8

struct cfg {
	size_t reps[MAXV], nreps;
	double suspect[MAXV];	/* < 0: the watch */
	size_t nsuspect;
	double confidence, boot_cv, night_cv, step;
	size_t seeds, aa_seeds;
};

struct outcome {
	size_t caught, first, early;	/* within 2 nights, on the first, before */
	size_t aa_failed, aa_confirmations, aa_nights;
};

/* A series being written night by night. */
struct live {
	struct history_series s;
	size_t cap;
};

static void live_init(struct live *l, size_t cap)
{
	memset(l, 0, sizeof(*l));
	l->s.host = xstrdup("box1");
	l->s.suite = xstrdup("synthetic");
	l->s.suite_hash = xstrdup("0000synthetic");
	l->s.case_id = xstrdup("mremap/thp=always");
	l->s.metric = xstrdup("roi_usec");
	l->s.better = xstrdup("lower");
	l->s.nights = xcalloc(cap, sizeof(*l->s.nights));
	l->cap = cap;
}

static void live_add(struct live *l, size_t i, const double *v, size_t n)
{
	struct history_night *nt = &l->s.nights[l->s.n_nights++];
	char buf[64];

	nt->run_id = (int64_t)i + 1;
	histgen_started(i, buf, sizeof(buf));
	nt->started = xstrdup(buf);
	histgen_kernel_id(i, buf, sizeof(buf));
	nt->kernel_id = xstrdup(buf);
	nt->kernel_release = xstrdup("6.18.0");
	nt->host_fingerprint = xstrdup("0x100");
	nt->values = xmalloc(n * sizeof(*v));
	memcpy(nt->values, v, n * sizeof(*v));
	nt->n = n;
}

/* Is tonight (the newest night) a suspicion? */
static bool suspicion(struct live *l, double rule,
		      const struct history_check_opts *o)
{
	const struct history_series *s = &l->s;
	size_t n = s->n_nights, i, from;
	struct history_result r;
	double base = 0, last;
	bool sus;

	if (n < 4)
		return false;
	if (rule >= 0) {
		from = n - 1 > 30 ? n - 1 - 30 : 0;
		for (i = from; i < n - 1; i++)
			base += history_night_mean(&s->nights[i]);
		base /= (double)(n - 1 - from);
		last = history_night_mean(&s->nights[n - 1]);
		return last / base - 1 > rule;
	}
	history_check_series(s, o, &r);
	sus = (r.watch.present && r.watch.nt.change > 0) ||
	      (r.ncp && r.cp[r.ncp - 1].confirmed_at == n - 1 &&
	       r.cp[r.ncp - 1].kind == HCP_REGRESSION);
	history_result_release(&r);
	return sus;
}

/* The confirmation tonight: A at level a, B at level b, K repetitions each. */
static bool confirm(const struct histgen *g, gsl_rng *rng, double offset,
		    double a, double b, size_t k, const struct cfg *c)
{
	double *va = xmalloc(k * sizeof(*va)), *vb = xmalloc(k * sizeof(*vb));
	size_t na = 0, nb = 0, boot, j;
	struct change ch;
	struct mann_whitney mw;
	struct verdict_in in;
	enum verdict v;

	/* A B A B: four boots, each k/2 repetitions (the rest on the last) */
	for (boot = 0; boot < 4; boot++) {
		bool is_b = boot % 2;
		double lvl = (is_b ? b : a) * offset *
			     (1 + c->boot_cv * gsl_ran_gaussian(rng, 1));
		size_t runs = boot < 2 ? k / 2 : k - k / 2;

		for (j = 0; j < runs; j++) {
			double x = histgen_rep(g, rng, lvl, g->cv);

			if (is_b)
				vb[nb++] = x;
			else
				va[na++] = x;
		}
	}
	mann_whitney(va, na, vb, nb, &mw);
	change_ci(va, na, vb, nb, c->confidence, &ch);
	in = (struct verdict_in){
		.na = na, .nb = nb, .better = BETTER_LOWER, .threshold = 0.02,
		.alpha = 1 - c->confidence, .p = fmax(ch.w.p, mw.p),
		.diff = ch.w.diff, .ch = ch,
	};
	v = verdict_decide(&in);
	free(va);
	free(vb);
	return v == VERDICT_REGRESSION;
}

/*
 * One history: nights nights, the step from night `at` (SIZE_MAX: none).
 * Returns the first night the gate failed, or -1; *conf: confirmations.
 */
static long history(uint64_t seed, size_t nights, size_t at, double rule,
		    size_t k, const struct cfg *c, size_t *conf)
{
	const struct history_check_opts *o;
	struct history_check_opts opts;
	struct histgen g;
	struct live l;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	long failed = -1;
	size_t i, r;

	histgen_init(&g);
	g.night_cv = c->night_cv;
	history_check_opts_init(&opts);
	o = &opts;
	gsl_rng_set(rng, (unsigned long)seed);
	live_init(&l, nights);
	*conf = 0;
	for (i = 0; i < nights && failed < 0; i++) {
		double good = g.mean, bad = at != SIZE_MAX && i >= at ?
					     g.mean * (1 + c->step) : g.mean;
		double off = histgen_night_offset(&g, rng), v[64];

		for (r = 0; r < g.reps; r++)
			v[r] = histgen_rep(&g, rng, bad * off, g.cv);
		live_add(&l, i, v, g.reps);
		if (!suspicion(&l, rule, o))
			continue;
		(*conf)++;
		if (confirm(&g, rng, off, good, bad, k, c))
			failed = (long)i;
	}
	history_series_free(&l.s);
	gsl_rng_free(rng);
	return failed;
}

static void run(const struct cfg *c, double rule, size_t k, struct outcome *out)
{
	size_t s, conf;

	memset(out, 0, sizeof(*out));
	for (s = 0; s < c->seeds; s++) {
		long f = history(7001 + s, 37, 30, rule, k, c, &conf);

		out->caught += f >= 30 && f <= 31;
		out->first += f == 30;
		out->early += f >= 0 && f < 30;
	}
	for (s = 0; s < c->aa_seeds; s++) {
		long f = history(9001 + s, 60, SIZE_MAX, rule, k, c, &conf);

		out->aa_failed += f >= 0;
		out->aa_confirmations += conf;
		out->aa_nights += f >= 0 ? (size_t)f + 1 : 60;
	}
}

static void usage(FILE *f)
{
	fputs("usage: histconfirm [--reps-per-kernel K]... [--suspect watch|LEVEL]...\n"
	      "                   [--confidence C] [--seeds N] [--aa-seeds N] [--boot-cv C]\n", f);
}

static void parse(struct cfg *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reps-per-kernel", 1, NULL, 'k' }, { "suspect", 1, NULL, 's' },
		{ "confidence", 1, NULL, 'c' }, { "seeds", 1, NULL, 'n' },
		{ "aa-seeds", 1, NULL, 'a' }, { "boot-cv", 1, NULL, 'b' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	long v;
	double d;
	int o;

	while ((o = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (o) {
		case 'k':
			if (parse_long(optarg, &v) || v < 4 || v > 64 || c->nreps >= MAXV)
				tb_die("--reps-per-kernel: 4..64, at most %d", MAXV);
			c->reps[c->nreps++] = (size_t)v;
			break;
		case 's':
			if (c->nsuspect >= MAXV)
				tb_die("--suspect: at most %d", MAXV);
			if (!strcmp(optarg, "watch"))
				d = -1;
			else if (parse_double(optarg, &d) || d < 0 || d > 1)
				tb_die("--suspect: watch or a fraction 0..1, not %s", optarg);
			c->suspect[c->nsuspect++] = d;
			break;
		case 'c':
			if (parse_double(optarg, &c->confidence) ||
			    !(c->confidence > 0.5 && c->confidence < 1))
				tb_die("--confidence: 0.5..1");
			break;
		case 'n': case 'a':
			if (parse_long(optarg, &v) || v < 1 || v > 100000)
				tb_die("--seeds, --aa-seeds: 1..100000");
			*(o == 'n' ? &c->seeds : &c->aa_seeds) = (size_t)v;
			break;
		case 'b':
			if (parse_double(optarg, &c->boot_cv) || c->boot_cv < 0 || c->boot_cv > 0.5)
				tb_die("--boot-cv: 0..0.5");
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(TB_EXIT_ERROR);
		}
	}
}

int main(int argc, char **argv)
{
	struct cfg c = { .confidence = 0.95, .night_cv = 0.02, .step = 0.05,
			 .seeds = 50, .aa_seeds = 100 };
	size_t i, j;

	parse(&c, argc, argv);
	if (!c.nreps) {
		c.reps[c.nreps++] = 6;
		c.reps[c.nreps++] = 10;
		c.reps[c.nreps++] = 16;
	}
	if (!c.nsuspect) {
		c.suspect[c.nsuspect++] = -1;
		c.suspect[c.nsuspect++] = 0.02;
		c.suspect[c.nsuspect++] = 0.01;
	}
	printf("+5%% at 3%% CV, 5 repetitions a night, 2%% night-to-night noise; confirmation A B A B in the suspicion's night, compare's verdict at %.0f%% confidence, 2%% threshold%s\n",
	       c.confidence * 100, c.boot_cv > 0 ? ", with boot noise" : "");
	for (i = 0; i < c.nsuspect; i++)
		for (j = 0; j < c.nreps; j++) {
			struct outcome out;
			char rule[32];

			if (c.suspect[i] < 0)
				snprintf(rule, sizeof(rule), "watch");
			else
				snprintf(rule, sizeof(rule), "night > +%.0f%%", c.suspect[i] * 100);
			run(&c, c.suspect[i], c.reps[j], &out);
			printf("suspicion %-13s %2zu reps a kernel: caught within 2 nights %zu of %zu (first night %zu, before the step %zu); A/A failed %zu of %zu over 60 nights; %.2f confirmations a night; extra per confirmation: %zu repetitions, 4 boots\n",
			       rule, c.reps[j], out.caught, c.seeds, out.first,
			       out.early, out.aa_failed, c.aa_seeds,
			       (double)out.aa_confirmations / (double)out.aa_nights,
			       2 * c.reps[j]);
		}
	return 0;
}
