// SPDX-License-Identifier: GPL-2.0-only
#include "history_tics.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum tic_form {
	TIC_MONTH_DAY,		/* 01-07 */
	TIC_DATE,		/* 2026-01-07 */
	TIC_DAY_TIME,		/* 01-07 02:00 */
	TIC_NUMBER,		/* #12 */
};

/* The night's start as broken-down UTC time; false when it is no time. */
static bool night_tm(const struct history_night *n, struct tm *tm)
{
	const char *end;

	memset(tm, 0, sizeof(*tm));
	end = n->started ? strptime(n->started, "%Y-%m-%dT%H:%M:%S", tm) : NULL;
	return end != NULL;
}

static void label(const struct history_series *s, size_t night,
		  enum tic_form form, char *buf, size_t len)
{
	static const char *const fmt[] = {
		[TIC_MONTH_DAY] = "%m-%d",
		[TIC_DATE] = "%Y-%m-%d",
		[TIC_DAY_TIME] = "%m-%d %H:%M",
	};
	struct tm tm;

	if (form == TIC_NUMBER || !night_tm(&s->nights[night], &tm)) {
		snprintf(buf, len, "#%zu", night + 1);
		return;
	}
	strftime(buf, len, fmt[form], &tm);
}

/* Every label of form differs from the others, and every night has a time. */
static bool distinct(const struct history_series *s, struct history_tic *t,
		     size_t n, enum tic_form form)
{
	struct tm tm;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (form != TIC_NUMBER && !night_tm(&s->nights[t[i].night], &tm))
			return false;
		label(s, t[i].night, form, t[i].label, sizeof(t[i].label));
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (!strcmp(t[i].label, t[j].label))
				return false;
	return true;
}

static bool one_year(const struct history_series *s, size_t *year)
{
	struct tm first = { 0 }, tm;
	size_t i;

	if (!s->n_nights)
		return false;
	for (i = 0; i < s->n_nights; i++) {
		if (!night_tm(&s->nights[i], &tm))
			return false;
		if (!i)
			first = tm;
		else if (tm.tm_year != first.tm_year)
			return false;
	}
	*year = (size_t)first.tm_year + 1900;
	return true;
}

/* Evenly spaced nights, the newest always among them. */
static size_t pick(const struct history_series *s, size_t max,
		   struct history_tic *out)
{
	size_t n = s->n_nights, step, i, k = 0;

	if (!n)
		return 0;
	step = (n + max - 2) / (max - 1);
	if (!step)
		step = 1;
	for (i = 0; i < n && k < max - 1; i += step)
		out[k++].night = i;
	/* Too close to the newest to carry a label of its own: make room. */
	if (k > 1 && n - 1 - out[k - 1].night < (step + 1) / 2)
		k--;
	if (!k || out[k - 1].night != n - 1)
		out[k++].night = n - 1;
	return k;
}

size_t history_tics(const struct history_series *s, size_t max,
		    struct history_tic *out, char *xlabel, size_t len)
{
	size_t n = pick(s, max < 2 ? 2 : max, out), year;
	bool same_year = one_year(s, &year);
	enum tic_form form = same_year ? TIC_MONTH_DAY : TIC_DATE;

	if (!distinct(s, out, n, form)) {
		form = TIC_DAY_TIME;
		if (!distinct(s, out, n, form)) {
			form = TIC_NUMBER;
			distinct(s, out, n, form);
		}
	}
	if (form == TIC_NUMBER)
		snprintf(xlabel, len, "night (number, oldest 1)");
	else if (same_year)
		snprintf(xlabel, len, "night (%zu, UTC)", year);
	else
		snprintf(xlabel, len, "night (UTC)");
	return n;
}
