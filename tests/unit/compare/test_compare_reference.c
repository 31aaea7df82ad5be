// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench's statistics against an independent reference: 201 A/B pairs
 * of nine kinds (normal, lognormal, tied integers, constants, zeros,
 * negatives, 1e15 + small integers, outliers, 30 vs 30 fully separated)
 * in tests/fixtures/compare/reference/cases.txt, with scipy 1.10's Welch
 * test (raw and log scale) and Mann-Whitney U, and Debian's ministat
 * 20150715 output for the same values (the README there has the command
 * that made them). Prints the agreement counts per kind. levels.txt
 * holds ministat's output at its other confidence levels.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/compare_format.h"
#include "compare/compare_print.h"
#include "stats/hypothesis.h"
#include "stats/stats.h"

#define REF "tests/fixtures/compare/reference/cases.txt"
#define LEVELS "tests/fixtures/compare/reference/levels.txt"
#define MAXV 64
#define NKINDS 9

struct ref_case {
	char kind[32];
	double a[MAXV], b[MAXV];
	size_t na, nb;
	bool has_welch, has_log;
	double t, df, p, lt, lp, u, mwp;
	bool exact;
	char ministat[8192];
};

struct tally {
	char kind[32];
	int cases, welch, welch_ok, log, log_ok, mw_ok, ms_ok;
};

static size_t parse_values(const char *s, double *v)
{
	size_t n = 0;
	char *end;

	while (n < MAXV) {
		double x = strtod(s, &end);

		if (end == s)
			break;
		v[n++] = x;
		s = end;
	}
	return n;
}

/* Next case from f; false at the end. */
static bool read_case(FILE *f, struct ref_case *c)
{
	char line[16384];
	bool in_ms = false;

	memset(c, 0, sizeof(*c));
	while (fgets(line, sizeof(line), f)) {
		if (in_ms) {
			if (!strcmp(line, "end\n"))
				return true;
			size_t have = strlen(c->ministat);

			snprintf(c->ministat + have, sizeof(c->ministat) - have,
				 "%s", line);
		} else if (!strncmp(line, "case ", 5)) {
			sscanf(line, "case %*d %31s", c->kind);
		} else if (!strncmp(line, "a ", 2)) {
			c->na = parse_values(line + 2, c->a);
		} else if (!strncmp(line, "b ", 2)) {
			c->nb = parse_values(line + 2, c->b);
		} else if (!strncmp(line, "welch ", 6)) {
			c->has_welch = sscanf(line, "welch %lf %lf %lf", &c->t, &c->df, &c->p) == 3;
		} else if (!strncmp(line, "logwelch ", 9)) {
			c->has_log = sscanf(line, "logwelch %lf %lf", &c->lt, &c->lp) == 2;
		} else if (!strncmp(line, "mw ", 3)) {
			char how[16] = "";

			sscanf(line, "mw %lf %lf %15s", &c->u, &c->mwp, how);
			c->exact = !strcmp(how, "exact");
		} else if (!strcmp(line, "ministat\n")) {
			in_ms = true;
		}
	}
	return false;
}

/* Relative agreement to 1e-6 (the p of a test: or both below 1e-300). */
static bool agree(double got, double want)
{
	if (isinf(want) || isinf(got))
		return got == want;
	return fabs(got - want) <= 1e-6 * fabs(want) + 1e-300;
}

static void fill_side(struct compare_side *s, double *v, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->v = v;
	s->n = n;
	stats_summary(v, n, &s->s);
}

static bool ministat_agrees(struct ref_case *c, double confidence)
{
	struct compare_metric m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool ok;

	memset(&m, 0, sizeof(m));
	fill_side(&m.a, c->a, c->na);
	fill_side(&m.b, c->b, c->nb);
	m.tested = true;
	compare_ministat_block(f, &m, "base", "new", confidence);
	fclose(f);
	ok = !strcmp(buf, c->ministat);
	if (!ok && getenv("THPBENCH_REF_VERBOSE"))
		print_message("ours:\n%s\nministat:\n%s\n", buf, c->ministat);
	free(buf);
	return ok;
}

static void check_case(struct ref_case *c, struct tally *t)
{
	struct summary sa, sb;
	struct welch w;
	struct change ch;
	struct mann_whitney mw;

	t->cases++;
	stats_summary(c->a, c->na, &sa);
	stats_summary(c->b, c->nb, &sb);
	if (c->has_welch) {
		t->welch++;
		welch_test(&sa, &sb, 0.95, &w);
		t->welch_ok += agree(w.t, c->t) && agree(w.df, c->df) &&
			       agree(w.p, c->p);
	}
	if (c->has_log) {
		t->log++;
		change_ci(c->a, c->na, c->b, c->nb, 0.95, &ch);
		t->log_ok += ch.method == CHANGE_LOG && agree(ch.w.t, c->lt) &&
			     agree(ch.w.p, c->lp);
		if (getenv("THPBENCH_REF_VERBOSE") && !(agree(ch.w.t, c->lt) &&
		    agree(ch.w.p, c->lp)))
			print_message("%s: log t %.17g p %.17g, scipy %.17g %.17g\n",
				      c->kind, ch.w.t, ch.w.p, c->lt, c->lp);
	}
	mann_whitney(c->a, c->na, c->b, c->nb, &mw);
	t->mw_ok += mw.u == c->u && agree(mw.p, c->mwp) && mw.exact == c->exact;
	t->ms_ok += ministat_agrees(c, 0.95);
}

static struct tally *tally_of(struct tally *t, size_t *n, const char *kind)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(t[i].kind, kind))
			return &t[i];
	memset(&t[*n], 0, sizeof(t[*n]));
	snprintf(t[*n].kind, sizeof(t[*n].kind), "%s", kind);
	return &t[(*n)++];
}

static void test_reference(void **state)
{
	FILE *f = fopen(REF, "r");
	struct tally t[NKINDS + 1];
	struct ref_case *c = malloc(sizeof(*c));
	size_t n = 0, i;

	(void)state;
	assert_non_null(f);
	while (read_case(f, c)) {
		assert_true(n < NKINDS || tally_of(t, &n, c->kind) - t < NKINDS);
		check_case(c, tally_of(t, &n, c->kind));
	}
	fclose(f);
	free(c);
	print_message("%-12s %5s %10s %10s %8s %9s\n", "kind", "cases",
		      "welch", "log-welch", "mw", "ministat");
	for (i = 0; i < n; i++) {
		print_message("%-12s %5d %4d of %-3d %4d of %-3d %3d/%-3d %3d/%-3d\n",
			      t[i].kind, t[i].cases, t[i].welch_ok, t[i].welch,
			      t[i].log_ok, t[i].log, t[i].mw_ok, t[i].cases,
			      t[i].ms_ok, t[i].cases);
		assert_int_equal(t[i].welch_ok, t[i].welch);
		assert_int_equal(t[i].log_ok, t[i].log);
		assert_int_equal(t[i].mw_ok, t[i].cases);
		/* ministat sums squares of the raw values: at 1e15 its own
		 * Stddev is lost (it prints -nan); we do not copy that. */
		if (strcmp(t[i].kind, "offset1e15"))
			assert_int_equal(t[i].ms_ok, t[i].cases);
	}
	assert_int_equal(n, NKINDS);
}

/* ministat's other levels (-c 80, 90, 98, 99, 99.5) at df 4 to 120. */
static void test_ministat_levels(void **state)
{
	FILE *f = fopen(LEVELS, "r");
	struct ref_case *c = malloc(sizeof(*c));
	int n = 0, ok = 0;

	(void)state;
	assert_non_null(f);
	while (read_case(f, c)) {
		n++;
		ok += ministat_agrees(c, strtod(c->kind, NULL) / 100);
	}
	fclose(f);
	free(c);
	print_message("ministat -c 80..99.5: %d of %d agree\n", ok, n);
	assert_int_equal(n, 30);
	assert_int_equal(ok, n);
}

/* The Stddev column of a ministat block, side c ('x' or '+'). */
static bool block_stddev(const char *block, char side, char *out, size_t len)
{
	const char *line = strstr(block, "Stddev\n"), *end, *last;

	if (!line)
		return false;
	line += 7;	/* the x row, then the + row */
	if (side == '+' && (line = strchr(line, '\n')))
		line++;
	if (!line || *line != side || !(end = strchr(line, '\n')))
		return false;
	for (last = end; last > line && last[-1] != ' '; last--)
		;
	snprintf(out, len, "%.*s", (int)(end - last), last);
	return true;
}

/* The sample standard deviation of integer-valued x, exactly (long
 * double sums of integers below 2^63), as %.8g prints it. */
static void exact_stddev(const double *x, size_t n, char *out, size_t len)
{
	long double sum = 0, ss = 0, mean;
	size_t i;

	for (i = 0; i < n; i++)
		sum += x[i];
	mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	snprintf(out, len, "%.8Lg", sqrtl(ss / (n - 1)));
}

/*
 * What the ministat format does and does not share with ministat(1), as
 * the README says: byte for byte below 10^5; from 10^6 on ministat's
 * one-pass sums lose the Stddev of integer counters (0 from about 10^8),
 * and thpbench prints the exact one.
 */
static void test_ministat_counters(void **state)
{
	FILE *f = fopen("tests/fixtures/compare/reference/counters.txt", "r");
	struct ref_case *c = malloc(sizeof(*c));
	char exact[64], got[64], theirs[64], *ours;
	int n = 0, small = 0, same = 0, big = 0, ministat_wrong = 0, side;
	int huge = 0, huge_wrong = 0;
	struct compare_metric m;
	size_t len;
	FILE *o;

	(void)state;
	assert_non_null(f);
	while (read_case(f, c)) {
		n++;
		if (c->a[0] < 1e5) {
			small++;
			same += ministat_agrees(c, 0.95);
			continue;
		}
		if (c->a[0] < 1e6)
			continue;	/* where ministat starts to drift */
		big++;
		ours = NULL;
		o = open_memstream(&ours, &len);
		memset(&m, 0, sizeof(m));
		fill_side(&m.a, c->a, c->na);
		fill_side(&m.b, c->b, c->nb);
		m.tested = true;
		compare_ministat_block(o, &m, "base", "new", 0.95);
		fclose(o);
		for (side = 0; side < 2; side++) {
			exact_stddev(side ? c->b : c->a, side ? c->nb : c->na,
				     exact, sizeof(exact));
			assert_true(block_stddev(ours, side ? '+' : 'x', got, sizeof(got)));
			assert_true(block_stddev(c->ministat, side ? '+' : 'x', theirs,
						 sizeof(theirs)));
			if (strcmp(got, exact))
				fail_msg("ours %s, exact %s (values from %.0f)", got,
					 exact, c->a[0]);
			ministat_wrong += strcmp(theirs, exact) != 0;
			huge_wrong += c->a[0] >= 1e8 && strcmp(theirs, exact);
			huge += c->a[0] >= 1e8;
		}
		free(ours);
	}
	fclose(f);
	free(c);
	print_message("counters: below 1e5 %d of %d byte-identical to ministat; from 1e6 ministat's Stddev is wrong in %d of %d samples (from 1e8 in %d of %d), thpbench's exact in all\n",
		      same, small, ministat_wrong, 2 * big, huge_wrong, huge);
	assert_int_equal(n, 24);
	assert_int_equal(small, 6);
	assert_int_equal(same, small);
	assert_int_equal(big, 15);
	assert_int_equal(ministat_wrong, 22);
	assert_int_equal(huge, 18);
	assert_int_equal(huge_wrong, huge);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_ministat_levels),
		cmocka_unit_test(test_ministat_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
