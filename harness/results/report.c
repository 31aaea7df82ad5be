// SPDX-License-Identifier: GPL-2.0-only
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "stats/stats_split.h"
#include "util/util.h"

void fmt_grouped(char *buf, size_t len, double v)
{
	char digits[64], out[96];
	int decimals = fabs(v) >= 1000 ? 0 : (fabs(v) >= 10 ? 2 : 3);
	size_t i, n, o = 0, int_len;
	const char *dot;

	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(digits, sizeof(digits), "%.*f", decimals, fabs(v));
	dot = strchr(digits, '.');
	int_len = dot ? (size_t)(dot - digits) : strlen(digits);
	if (v < 0 && strspn(digits, "0.") != strlen(digits))
		out[o++] = '-';
	for (i = 0, n = strlen(digits); i < n; i++) {
		if (i && i < int_len && (int_len - i) % 3 == 0)
			out[o++] = ',';
		out[o++] = digits[i];
	}
	out[o] = '\0';
	snprintf(buf, len, "%s", out);
}

static size_t huge_runs(const struct tb_case *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->nruns; i++)
		n += c->runs[i].huge == 1;
	return n;
}

static void print_header(FILE *f, const struct tb_case *c)
{
	size_t i, ok = case_ok_runs(c);

	/* A suite or results file is hostile: its names never raw. */
	fputs("\n ", f);
	fputs_printable(c->id, f);
	fputs(": '", f);
	fputs_printable(c->workload, f);
	for (i = 0; i < c->nargs; i++) {
		fputc(' ', f);
		fputs_printable(c->args[i], f);
	}
	fprintf(f, "'");
	if (c->label && *c->label) {
		fputs(" [", f);
		fputs_printable(c->label, f);
		fputc(']', f);
	}
	fprintf(f, " (%zu of %zu runs ok)\n", ok, c->nruns);
	fprintf(f, "   huge-page backed: %zu of %zu runs%s\n", huge_runs(c), c->nruns,
		c->expect_huge ? " (expected: all)" : "");
	for (i = 0; i < c->nruns; i++)
		if (c->runs[i].status != RUN_OK) {
			fprintf(f, "   run %zu: %s: ", i + 1,
				run_status_name(c->runs[i].status));
			fputs_printable(c->runs[i].reason, f);
			fputc('\n', f);
		}
	fprintf(f, "\n%16s %-14s %4s %12s %12s %12s  %s\n", "mean",
		"( +- stderr )", "n", "min", "median", "max", "metric");
}

/*
 * The least and most share of its enabled time an event was counting,
 * over the ok runs that counted it; false when no run was multiplexed
 * (every share 100%, or none recorded: not an event).
 */
static bool counted_range(const struct tb_case *c, const char *name,
			  double *lo, double *hi, size_t *worst_run)
{
	bool any = false;
	size_t i;

	*lo = 100;
	*hi = 0;
	for (i = 0; i < c->nruns; i++) {
		const struct metric *m = metric_set_find(&c->runs[i].counted_pct, name);

		if (c->runs[i].status != RUN_OK || !m)
			continue;
		any = true;
		if (m->value < *lo) {
			*lo = m->value;
			*worst_run = i;
		}
		if (m->value > *hi)
			*hi = m->value;
	}
	return any && *lo < COUNTED_FULL_PCT;
}

/* perf prints "(35.70%)" after a multiplexed count; so do we, and warn
 * where the scaled value rests on a small part of the run. */
static bool print_counted(FILE *f, const struct tb_case *c, const char *name)
{
	double lo, hi;
	size_t worst = 0;

	if (!counted_range(c, name, &lo, &hi, &worst))
		return false;
	if (hi - lo < 0.005)
		fprintf(f, "  (counted %.2f%%)\n", lo);
	else
		fprintf(f, "  (counted %.2f-%.2f%%)\n", lo, hi);
	if (lo < COUNTED_WARN_PCT)
		fprintf(f, "%16s ^ warning: counted only %.2f%% of the time in run %zu "
			"(multiplexed): its scaled value extrapolates from a small part "
			"of the run; count fewer events at once\n", "", lo, worst + 1);
	return true;
}

static bool print_metric(FILE *f, const struct tb_case *c, const char *name,
			 const struct summary *s)
{
	char mean[32], mn[32], med[32], mx[32], pct[32];

	fmt_grouped(mean, sizeof(mean), s->mean);
	fmt_grouped(mn, sizeof(mn), s->min);
	fmt_grouped(med, sizeof(med), s->median);
	fmt_grouped(mx, sizeof(mx), s->max);
	if (isfinite(s->stderr_mean) && s->mean != 0)
		snprintf(pct, sizeof(pct), "( +- %6.2f%% )",
			 100 * s->stderr_mean / fabs(s->mean));
	else
		snprintf(pct, sizeof(pct), "%14s", "");
	fprintf(f, "%16s %-14s %4zu %12s %12s %12s  %s", mean, pct, s->n,
		mn, med, mx, name);
	if (print_counted(f, c, name))
		return true;
	fputc('\n', f);
	return false;
}

/* counters.c reasons start with the marker the column shows:
 * "<not supported>" (could not be opened) or "<not counted>" (opened,
 * never on the PMU). */
static const char *marker_of(const char *reason, const char **rest)
{
	static const char *const markers[] = { "<not supported>", "<not counted>" };
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(markers); i++) {
		len = strlen(markers[i]);
		if (!strncmp(reason, markers[i], len) && !strncmp(reason + len, ": ", 2)) {
			*rest = reason + len + 2;
			return markers[i];
		}
	}
	*rest = reason;
	return markers[0];
}

static void print_unsupported(FILE *f, const struct tb_case *c)
{
	size_t i, j;

	for (i = 0; i < c->nruns; i++) {
		const struct note_set *ns = &c->runs[i].unsupported;

		for (j = 0; j < ns->n; j++) {
			size_t k;
			bool seen = false;

			for (k = 0; k < i && !seen; k++)
				seen = note_set_find(&c->runs[k].unsupported,
						     ns->v[j].name);
			if (!seen) {
				const char *rest, *mark = marker_of(ns->v[j].reason, &rest);

				fprintf(f, "%16s %-14s %4s %12s %12s %12s  %s (%s)\n",
					mark, "", "", "", "", "", ns->v[j].name, rest);
			}
		}
	}
}

static const char *const rusage_names[] = {
	"wall_usec", "user_usec", "sys_usec", "minflt", "majflt", "maxrss_kb",
};

/*
 * Workload figures first, then rusage, then the harness's samples, the
 * mTHP counters, the memory state (buddy.*, memstate.*), then vmstat.
 */
static int metric_rank(const char *name)
{
	size_t i;

	if (!strncmp(name, "vmstat.", 7))
		return 5;
	if (!strncmp(name, "buddy.", 6) || !strncmp(name, "memstate.", 9))
		return 4;
	if (!strncmp(name, "mthp.", 5))
		return 3;
	if (!strncmp(name, "roi.", 4))
		return 2;
	for (i = 0; i < ARRAY_SIZE(rusage_names); i++)
		if (!strcmp(name, rusage_names[i]))
			return 1;
	return 0;
}

static int cmp_rank(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int d = metric_rank(x) - metric_rank(y);

	return d ? d : strcmp(x, y);
}

static void print_split(FILE *f, const double *v, size_t n)
{
	struct split sp;
	char lo[32], hi[32];

	if (!stats_split(v, n, &sp))
		return;
	fmt_grouped(lo, sizeof(lo), sp.low_median);
	fmt_grouped(hi, sizeof(hi), sp.high_median);
	fprintf(f, "%16s ^ runs split: %zu near %s, %zu near %s (%.1fx apart): "
		"the mean describes neither\n", "", sp.n_low, lo, sp.n_high, hi,
		sp.gap);
}

/* The suite's key figures (better.*) of the first warm-up, whose first
 * touch met fresh memory (a multi-pass workload's later passes did not). */
static void print_first_warmup(FILE *f, const struct tb_case *c)
{
	const json_t *first = json_object_get(c->extra, "first_warmup");
	const json_t *keys = json_object_get(c->extra, "metric"), *v;
	const char *name;
	char buf[32];
	bool any = false;

	json_object_foreach((json_t *)keys, name, v) {
		v = json_object_get(first, name);
		if (!json_is_number(v))
			continue;
		fmt_grouped(buf, sizeof(buf), json_number_value(v));
		fprintf(f, "%s %s %s", any ? "," : "  first warm-up run (not averaged; "
			"its first touch met fresh memory):", name, buf);
		any = true;
	}
	if (any)
		fputc('\n', f);
}

void report_case(FILE *f, const struct tb_case *c)
{
	const char *skipped, *unsupported;
	char **names;
	double *vals = xmalloc((c->nruns ? c->nruns : 1) * sizeof(*vals));
	size_t i, n, nn = case_metric_names(c, &names), quiet = 0;
	bool scaled = false;
	struct summary s;

	unsupported = json_string_value(json_object_get(c->extra, "unsupported"));
	skipped = json_string_value(json_object_get(c->extra, "skipped"));
	if ((unsupported || skipped) && !c->nruns) {
		fputs("\n ", f);
		fputs_printable(c->id, f);
		fprintf(f, ": %s: ", unsupported ? "not measurable here" : "skipped");
		fputs_printable(unsupported ? unsupported : skipped, f);
		fputc('\n', f);
		free(names);
		free(vals);
		return;
	}
	print_header(f, c);
	if (nn)
		qsort(names, nn, sizeof(*names), cmp_rank);
	for (i = 0; i < nn; i++) {
		/* Profile shares have their own table (compare_profile_top). */
		if (!strncmp(names[i], "prof.", 5) && strcmp(names[i], "prof.samples"))
			continue;
		n = case_metric_values(c, names[i], vals, c->nruns);
		if (stats_summary(vals, n, &s))
			continue;
		if ((metric_rank(names[i]) == 5 || metric_rank(names[i]) == 3) &&
		    s.min == 0 && s.max == 0) {
			quiet++;
			continue;
		}
		scaled |= print_metric(f, c, names[i], &s);
		print_split(f, vals, n);
	}
	print_first_warmup(f, c);
	print_unsupported(f, c);
	if (scaled)
		fprintf(f, "%16s (counted x%%): multiplexed, on the PMU x%% of the time it was "
			"enabled; the value is scaled by enabled/running, as perf stat does\n", "");
	if (quiet)
		fprintf(f, "%16s (%zu vmstat or mTHP counters did not move; all are in results.json)\n",
			"", quiet);
	free(names);
	free(vals);
}

void report_results(FILE *f, const struct tb_results *r)
{
	size_t i;

	for (i = 0; i < r->ncases; i++)
		report_case(f, &r->cases[i]);
	fprintf(f, "\n ( +- x%% ) is the standard error of the mean as a percentage "
		"of the mean, as in perf stat -r.\n"
		" min/median/max are over the ok runs; failed runs are listed "
		"above and not averaged in.\n");
}
