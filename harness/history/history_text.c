// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_text - `history check` as text: per series one line (FAIL / ok,
 * nights, newest mean), then one line per change point and its bisect
 * line.
 */
#include "history_format.h"
#include "history_print.h"

#include <stdint.h>
#include <stdlib.h>

#include "plot/plot_metrics.h"
#include "util/util.h"

static const char *fail_on_name(enum history_fail_on f)
{
	return f == HISTORY_FAIL_NEWEST ? "newest" :
	       f == HISTORY_FAIL_REGRESSION ? "regression" : "none";
}

static void text_series(FILE *f, const struct history_result *r,
			const struct history_check_opts *o)
{
	const struct history_series *s = r->s;
	char name[512], safe[512], started[64], kernel[256];
	size_t i, confirmed = 0;

	for (i = 0; i < r->ncp; i++)
		confirmed += r->cp[i].kind != HCP_REJECTED;
	/* Names come from results files: never an escape code raw. */
	fprintf(f, "%-4s %s: %zu nights", history_result_fails(r, o->fail_on) ?
		"FAIL" : "ok", str_printable(history_series_name(s, name, sizeof(name)),
					     safe, sizeof(safe)),
		r->n_used);
	if (r->newest != SIZE_MAX)
		fprintf(f, ", newest %s (kernel %s) mean %.6g %s",
			str_printable(s->nights[r->newest].started ?
				      s->nights[r->newest].started : "?",
				      started, sizeof(started)),
			str_printable(s->nights[r->newest].kernel_id ?
				      s->nights[r->newest].kernel_id : "?",
				      kernel, sizeof(kernel)),
			history_newest_mean(r), plot_metric_unit(s->metric));
	if (r->n_overflow)
		fprintf(f, "; %zu night%s left out: %s values too large to average (beyond +-1e308)",
			r->n_overflow, r->n_overflow == 1 ? "" : "s",
			r->n_overflow == 1 ? "its" : "their");
	if (!r->ncp)
		fputs("; no change point\n", f);
	else
		fprintf(f, "; %zu change point%s, %zu confirmed\n", r->ncp,
			r->ncp == 1 ? "" : "s", confirmed);
	for (i = r->ncp; i-- > 0;) {
		char *t = history_cp_text(r, &r->cp[i]);

		fputs("     ", f);
		fputs_printable(t, f);
		fputc('\n', f);
		free(t);
		if (r->cp[i].bisect) {
			fputs("     ", f);
			fputs_printable(r->cp[i].bisect, f);
			fputc('\n', f);
		}
	}
}

void history_write_text(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i, fails = 0;

	for (i = 0; i < n; i++)
		fails += history_result_fails(&r[i], o->fail_on);
	fprintf(f, "history check: %zu series; gate --fail-on %s: %s", n,
		fail_on_name(o->fail_on), fails ? "FAILED" : "passed");
	if (fails)
		fprintf(f, " (%zu series)", fails);
	fputs("\n\n", f);
	for (i = 0; i < n; i++)
		text_series(f, &r[idx[i]], o);
	free(idx);
}
