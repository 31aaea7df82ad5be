// SPDX-License-Identifier: GPL-2.0-only
#include "histreplay.h"

#include <string.h>

#include "history/history_gate.h"

bool histreplay_gate(const struct history_series *s, size_t t,
		     const struct history_check_opts *o,
		     struct history_result *keep)
{
	struct history_series p = *s;
	struct history_check_opts dflt;
	struct history_result r;
	bool f;

	if (!o) {
		history_check_opts_init(&dflt);
		o = &dflt;
	}
	p.n_nights = t;
	history_check_series(&p, o, &r);
	f = history_result_fails(&r, HISTORY_FAIL_OPEN);
	if (keep)
		*keep = r;
	else
		history_result_release(&r);
	return f;
}

long histreplay_first_fail(const struct history_series *s, size_t from,
			   const struct history_check_opts *o, bool *last)
{
	long first = -1;
	size_t t;

	*last = false;
	for (t = from; t <= s->n_nights; t++) {
		bool f = histreplay_gate(s, t, o, NULL);

		if (f && first < 0)
			first = (long)t - 1;
		*last = f;
	}
	return first;
}

void histreplay_many(const struct histgen *proto, uint64_t seed0, size_t n,
		     size_t within, struct histreplay_tally *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		struct history_series s;
		struct histgen g = *proto;
		bool last;
		long f;

		g.seed = seed0 + i;
		histgen_series(&g, &s);
		f = histreplay_first_fail(&s, 1, NULL, &last);
		t->histories++;
		t->failed += f >= 0;
		t->failed_last += last;
		if (g.nsteps && f >= 0) {
			long at = (long)g.steps[0].night;

			t->early += f < at;
			t->caught += f >= at && f - at <= (long)within;
			t->by6 += f >= at && f - at <= 6;
		}
		history_series_free(&s);
	}
}
