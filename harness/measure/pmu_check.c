// SPDX-License-Identifier: GPL-2.0-only
#include "pmu_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Walks, in the order preferred: the profile's, else perf's generic
 * dTLB-load-misses (the chase only loads inside its region of interest). */
static const char *const walk_metrics[] = {
	"tlb.dtlb_walks", "tlb.dtlb_load_misses",
};

static bool case_has(const struct tb_case *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nruns; i++)
		if (metric_set_find(&c->runs[i].metrics, name) ||
		    note_set_find(&c->runs[i].unsupported, name))
			return true;
	return false;
}

static const char *pick_walk_metric(const struct tb_results *r)
{
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(walk_metrics); k++)
		for (i = 0; i < r->ncases; i++)
			if (case_has(&r->cases[i], walk_metrics[k]))
				return walk_metrics[k];
	return NULL;
}

/* Mean over the ok runs; NAN when none has it. */
static double mean_of(const struct tb_case *c, const char *name, size_t *n)
{
	double *v = xmalloc((c->nruns ? c->nruns : 1) * sizeof(*v)), sum = 0;
	size_t i, k = case_metric_values(c, name, v, c->nruns);

	for (i = 0; i < k; i++)
		sum += v[i];
	free(v);
	if (n)
		*n = k;
	return k ? sum / (double)k : NAN;
}

static void fill_point(const struct tb_case *c, const char *walk,
		       struct pmu_point *p)
{
	const struct note *why = NULL;
	double kb;
	size_t i;

	memset(p, 0, sizeof(*p));
	p->id = c->id;
	p->pages = mean_of(c, "pages", NULL);
	kb = mean_of(c, "page_kb", NULL);
	p->page_kb = kb >= 0 && kb <= 1 << 30 ? (unsigned int)kb : 0;	/* hostile input */
	p->accesses = mean_of(c, "accesses", NULL);
	p->walk_cycles_pct = mean_of(c, "tlb.walk_cycles_pct", NULL);
	p->walks = walk ? mean_of(c, walk, NULL) : NAN;
	p->counted_min = NAN;
	for (i = 0; i < c->nruns; i++) {
		const struct tb_run *run = &c->runs[i];
		const struct metric *m = walk ? metric_set_find(&run->counted_pct, walk) : NULL;

		if (run->status != RUN_OK)
			continue;
		p->runs++;
		p->huge_runs += run->huge == 1;
		if (m && !(m->value >= p->counted_min))
			p->counted_min = m->value;
		if (!why && walk)
			why = note_set_find(&run->unsupported, walk);
	}
	if (!walk)
		snprintf(p->why, sizeof(p->why), "the run counted no TLB walks (events = tlb)");
	else if (why)
		snprintf(p->why, sizeof(p->why), "%s", why->reason);
	else if (isnan(p->walks))
		snprintf(p->why, sizeof(p->why), "%s was in no ok run", walk);
}

int pmu_data_from_results(const struct tb_results *r, struct pmu_data *d,
			  char *err, size_t errlen)
{
	const char *walk = pick_walk_metric(r);
	const json_t *prof = json_object_get(r->env, "tlb_profile");
	size_t i;

	memset(d, 0, sizeof(*d));
	snprintf(d->model, sizeof(d->model), "%s",
		 json_string_value(json_object_get(prof, "model")) ?
		 json_string_value(json_object_get(prof, "model")) : "");
	snprintf(d->notes, sizeof(d->notes), "%s",
		 json_string_value(json_object_get(prof, "notes")) ?
		 json_string_value(json_object_get(prof, "notes")) : "");
	snprintf(d->walk_metric, sizeof(d->walk_metric), "%s", walk ? walk : "");
	d->pmu = json_is_true(json_object_get(r->env, "pmu"));
	for (i = 0; i < r->ncases; i++) {
		const struct tb_case *c = &r->cases[i];

		if (!case_has(c, "pages") || !case_has(c, "page_kb"))
			continue;
		if (d->n == PMU_MAX_POINTS) {
			snprintf(err, errlen, "more than %d chase cases", PMU_MAX_POINTS);
			return -1;
		}
		fill_point(c, walk, &d->pt[d->n++]);
	}
	if (!d->n) {
		snprintf(err, errlen, "no pointer-chase cases (workloads/pchase, "
			 "configs/pmu-check.conf) in the results");
		return -1;
	}
	return 0;
}

/* --- the checks ------------------------------------------------------ */

static void add(struct pmu_judgement *j, enum pmu_state s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(struct pmu_judgement *j, enum pmu_state s, const char *fmt, ...)
{
	va_list ap;

	if (j->nf == ARRAY_SIZE(j->f))
		return;
	j->f[j->nf].state = s;
	va_start(ap, fmt);
	vsnprintf(j->f[j->nf].text, sizeof(j->f[j->nf].text), fmt, ap);
	va_end(ap);
	j->nf++;
}

static double rate(const struct pmu_point *p)
{
	return p->walks / p->accesses;
}

static const char *backing(const struct pmu_point *p)
{
	return p->page_kb == 2048 ? "2 MiB" : "4 KiB";
}

/* Whatever keeps the other checks from meaning anything. */
static void check_data(const struct pmu_data *d, struct pmu_judgement *j)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct pmu_point *p = &d->pt[i];

		if (isnan(p->walks)) {
			/* A PMU without the event is not "no PMU" (cpu_pmu.c). */
			add(j, PMU_UNKNOWN, "%s%s: TLB walks not counted: %s",
			    strstr(p->why, "PMU lacks event") ?
			    "a PMU, not this event: " :
			    !d->pmu || strstr(p->why, "<not supported>") ?
			    "no PMU here: " : "", p->id, p->why);
			return;
		}
		if (p->runs < PMU_MIN_RUNS || !(p->accesses > 0) || !(p->pages > 0))
			add(j, PMU_UNKNOWN, "%s: %zu ok run%s, fewer than %d (or no loads reported)",
			    p->id, p->runs, p->runs == 1 ? "" : "s", PMU_MIN_RUNS);
		else if (p->page_kb == 2048 && p->huge_runs < p->runs)
			add(j, PMU_UNKNOWN, "%s: 2 MiB pages in %zu of %zu runs: "
			    "the contrast needs them all (THP enabled always or madvise, "
			    "free 2 MiB blocks)", p->id, p->huge_runs, p->runs);
		else if (p->page_kb != 4 && p->page_kb != 2048)
			add(j, PMU_UNKNOWN, "%s: backing of %u kB is neither 4 KiB nor 2 MiB",
			    p->id, p->page_kb);
	}
}

static void check_rate(const struct pmu_data *d, struct pmu_judgement *j)
{
	char list[256] = "";
	size_t i, o = 0;
	bool bad = false, any = false;

	for (i = 0; i < d->n; i++) {
		const struct pmu_point *p = &d->pt[i];

		if (p->page_kb != 4)
			continue;
		any = true;
		bad |= !(rate(p) >= PMU_MIN_4K_RATE && rate(p) <= PMU_MAX_RATE);
		if (o < sizeof(list))
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%.3g at %.0f pages",
					      o ? ", " : "", rate(p), p->pages);
	}
	if (!any) {
		add(j, PMU_UNKNOWN, "no 4 KiB case to check the walks against");
		return;
	}
	add(j, bad ? PMU_FAIL : PMU_OK, "4 KiB pages: walks per load %s (expected "
	    "%.1f-%g: a random chase over more pages than any TLB holds walks on "
	    "nearly every load)", list, PMU_MIN_4K_RATE, PMU_MAX_RATE);
}

/* "12.3x", "1580x", or "all" where 2 MiB pages did not walk at all. */
static void factor_text(double c, char *buf, size_t len)
{
	if (isinf(c))
		snprintf(buf, len, "all (none with 2 MiB)");
	else if (c >= 1000)
		snprintf(buf, len, "%.0fx", c);
	else
		snprintf(buf, len, "%.3gx", c);
}

static void check_contrast(const struct pmu_data *d, struct pmu_judgement *j)
{
	char list[256] = "", num[32];
	size_t i, k, o = 0;
	bool bad = false, any = false;
	double c;

	for (i = 0; i < d->n; i++)
		for (k = 0; k < d->n; k++) {
			const struct pmu_point *a = &d->pt[i], *b = &d->pt[k];

			if (a->page_kb != 4 || b->page_kb != 2048 || a->pages != b->pages)
				continue;
			any = true;
			c = rate(b) > 0 ? rate(a) / rate(b) : INFINITY;
			bad |= !(c >= PMU_MIN_CONTRAST);
			factor_text(c, num, sizeof(num));
			if (o < sizeof(list))
				o += (size_t)snprintf(list + o, sizeof(list) - o,
						      "%s%s at %.0f pages", o ? ", " : "",
						      num, a->pages);
		}
	if (!any)
		add(j, PMU_UNKNOWN, "no page count was chased with both 4 KiB and 2 MiB pages");
	else
		add(j, bad ? PMU_FAIL : PMU_OK, "4 KiB vs 2 MiB pages: %s more walks "
		    "per load (expected >= %gx: the second-level TLB holds the 2 MiB "
		    "entries)", list, PMU_MIN_CONTRAST);
}

static void check_scaling(const struct pmu_data *d, struct pmu_judgement *j)
{
	const struct pmu_point *lo = NULL, *hi = NULL;
	double span, growth;
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct pmu_point *p = &d->pt[i];

		if (p->page_kb != 4)
			continue;
		if (!lo || p->accesses < lo->accesses)
			lo = p;
		if (!hi || p->accesses > hi->accesses)
			hi = p;
	}
	if (!lo || !(lo->walks > 0)) {
		if (lo)
			add(j, PMU_FAIL, "4 KiB pages: %s counted no walks at all", lo->id);
		return;
	}
	span = hi->accesses / lo->accesses;
	if (span < PMU_MIN_SPAN) {
		add(j, PMU_UNKNOWN, "4 KiB pages: the sizes chased differ by %.2gx in "
		    "loads; scaling needs %gx or more", span, PMU_MIN_SPAN);
		return;
	}
	growth = hi->walks / lo->walks;
	add(j, growth / span >= 1 / PMU_SCALE_TOL && growth / span <= PMU_SCALE_TOL ?
	    PMU_OK : PMU_FAIL, "4 KiB pages: walks grew %.3gx for %.3gx the loads "
	    "(%.0f -> %.0f pages; expected the same within %gx either way)",
	    growth, span, lo->pages, hi->pages, PMU_SCALE_TOL);
}

/* Walk cycles where the model counts them: 4 KiB must walk longer. */
static void check_walk_cycles(const struct pmu_data *d, struct pmu_judgement *j)
{
	const struct pmu_point *a = NULL, *b = NULL;
	size_t i, k;

	for (i = 0; i < d->n; i++)
		for (k = 0; k < d->n; k++)
			if (d->pt[i].page_kb == 4 && d->pt[k].page_kb == 2048 &&
			    d->pt[i].pages == d->pt[k].pages &&
			    !isnan(d->pt[i].walk_cycles_pct) &&
			    !isnan(d->pt[k].walk_cycles_pct) &&
			    (!a || d->pt[i].pages > a->pages)) {
				a = &d->pt[i];
				b = &d->pt[k];
			}
	if (!a)
		return;
	add(j, a->walk_cycles_pct > b->walk_cycles_pct ? PMU_OK : PMU_FAIL,
	    "walk cycles at %.0f pages: %.3g%% of cycles with 4 KiB pages, %.3g%% "
	    "with 2 MiB (expected more with 4 KiB)", a->pages, a->walk_cycles_pct,
	    b->walk_cycles_pct);
}

static void note_multiplexed(const struct pmu_data *d, struct pmu_judgement *j)
{
	double lo = NAN;
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!(d->pt[i].counted_min >= lo))
			lo = d->pt[i].counted_min;
	if (lo < COUNTED_FULL_PCT)
		add(j, PMU_NOTE, "%sthe walks were counted %.2f%% of the time at worst "
		    "(multiplexed; scaled by enabled/running)%s",
		    lo < COUNTED_WARN_PCT ? "warning: " : "", lo,
		    lo < COUNTED_WARN_PCT ? ": count fewer events at once" : "");
}

void pmu_judge(const struct pmu_data *d, struct pmu_judgement *j)
{
	bool unknown = false, fail = false;
	size_t i;

	memset(j, 0, sizeof(*j));
	if (!d->n)
		add(j, PMU_UNKNOWN, "no pointer-chase cases");
	else
		check_data(d, j);
	if (!j->nf) {
		check_rate(d, j);
		check_contrast(d, j);
		check_scaling(d, j);
		check_walk_cycles(d, j);
		note_multiplexed(d, j);
	}
	for (i = 0; i < j->nf; i++) {
		fail |= j->f[i].state == PMU_FAIL;
		unknown |= j->f[i].state == PMU_UNKNOWN;
	}
	j->verdict = fail ? PMU_MISBEHAVES : unknown ? PMU_CANNOT_TELL : PMU_BEHAVES;
}

const char *pmu_verdict_text(enum pmu_verdict v)
{
	switch (v) {
	case PMU_BEHAVES:
		return "the TLB counters behave";
	case PMU_MISBEHAVES:
		return "the TLB counters do not behave: do not trust TLB figures from this machine";
	default:
		return "cannot tell whether the TLB counters behave";
	}
}

static const char *const state_mark[] = {
	[PMU_FAIL] = "FAIL:", [PMU_OK] = "ok:", [PMU_UNKNOWN] = "?:",
	[PMU_NOTE] = "note:",
};

static void number_or_dash(char *buf, size_t len, double v, const char *unit)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g%s", v, unit);
}

void pmu_print(FILE *f, const struct pmu_data *d, const struct pmu_judgement *j)
{
	char cyc[32], cnt[32], wpl[32];
	size_t i;

	fprintf(f, "pmu-check: %s; walks read from %s\n",
		d->model[0] ? d->model : "model unknown",
		d->walk_metric[0] ? d->walk_metric : "(none)");
	if (d->notes[0])
		fprintf(f, "  notes: %s\n", d->notes);
	fprintf(f, "%10s %8s %5s %12s %11s %12s %8s  %s\n", "pages", "backing",
		"runs", "loads/run", "walks/load", "walk cycles", "counted", "case");
	for (i = 0; i < d->n; i++) {
		const struct pmu_point *p = &d->pt[i];

		number_or_dash(wpl, sizeof(wpl), rate(p), "");
		number_or_dash(cyc, sizeof(cyc), p->walk_cycles_pct, "%");
		number_or_dash(cnt, sizeof(cnt), p->counted_min, "%");
		fprintf(f, "%10.0f %8s %5zu %12.0f %11s %12s %8s  %s\n", p->pages,
			backing(p), p->runs, p->accesses, wpl, cyc, cnt, p->id);
	}
	for (i = 0; i < j->nf; i++)
		fprintf(f, "  %-6s %s\n", state_mark[j->f[i].state], j->f[i].text);
	fprintf(f, "verdict: %s\n", pmu_verdict_text(j->verdict));
}
