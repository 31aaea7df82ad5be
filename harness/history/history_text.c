// SPDX-License-Identifier: GPL-2.0-only
/*
 * history_text - `history check` as text: per series one line (FAIL /
 * skip / ok, nights, newest mean, open regressions), then one line per
 * change point with its id and status, its bisect line, and the watch.
 */
#include "history_format.h"
#include "history_gate.h"
#include "history_print.h"

#include <stdint.h>
#include <stdlib.h>

#include "plot/plot_metrics.h"
#include "util/utf8.h"
#include "util/util.h"

static const char *or_q(const char *s)
{
	return s ? s : "?";
}

/*
 * prefix and s on a line. s holds what results files and people gave
 * (names, kernel ids, triage reasons): escaped, never raw (issue 36 small
 * item: a stored newline forged lines, invalid UTF-8 passed raw).
 */
static void line(FILE *f, const char *prefix, const char *s)
{
	if (!s)
		return;
	fputs(prefix, f);
	fputs_escaped(s, f);
	fputc('\n', f);
}

static void text_series(FILE *f, const struct history_result *r,
			const struct history_check_opts *o)
{
	const struct history_series *s = r->s;
	char name[512], safe[2048], started[128], kernel[512], *why;
	size_t i, open = history_open_regressions(r);
	bool skipped = history_result_skipped(r, o->fail_on, &why);

	/* Names come from results files: escaped, one line (utf8.h). */
	fprintf(f, "%-4s %s: %zu nights", history_result_fails(r, o->fail_on) ?
		"FAIL" : skipped ? "skip" : "ok",
		str_escape(history_series_name(s, name, sizeof(name)),
			      safe, sizeof(safe)),
		r->n_used);
	if (r->newest != SIZE_MAX)
		fprintf(f, ", newest %s (kernel %s) mean %.6g %s",
			str_escape(or_q(s->nights[r->newest].started),
				      started, sizeof(started)),
			str_escape(or_q(s->nights[r->newest].kernel_id),
				      kernel, sizeof(kernel)),
			history_newest_mean(r), plot_metric_unit(s->metric));
	if (r->n_overflow)
		fprintf(f, "; %zu night%s left out: %s values too large to average (beyond +-1e308)",
			r->n_overflow, r->n_overflow == 1 ? "" : "s",
			r->n_overflow == 1 ? "its" : "their");
	if (!r->ncp)
		fputs("; no change point", f);
	else
		fprintf(f, "; %zu change point%s, %zu open regression%s", r->ncp,
			r->ncp == 1 ? "" : "s", open, open == 1 ? "" : "s");
	fputc('\n', f);
	if (skipped)
		line(f, "     skipped: triaged: ", why);
	free(why);
	for (i = r->ncp; i-- > 0;) {
		char *t = history_cp_text(r, &r->cp[i]);
		char *st = history_cp_status_text(r, &r->cp[i], o);

		fprintf(f, "     [%s] ", r->cp[i].id);
		line(f, "", t);
		line(f, "       ", st);
		line(f, "       ", r->cp[i].bisect);
		free(t);
		free(st);
	}
	if (r->ndrift) {
		char *d = history_drift_text(r);

		fprintf(f, "     [%s] ", r->drift.id);
		line(f, "", d);
		free(d);
	}
	if (r->watch.present) {
		char *w = history_watch_text(r);

		line(f, "     ", w);
		line(f, "       ", r->watch.bisect);
		free(w);
	}
}

void history_write_text(FILE *f, const struct history_result *r, size_t n,
			const struct history_check_opts *o)
{
	size_t *idx = history_order(r, n, o->fail_on), i, fails = 0, open = 0;

	for (i = 0; i < n; i++) {
		fails += history_result_fails(&r[i], o->fail_on);
		open += history_open_regressions(&r[i]);
	}
	fprintf(f, "history check: %zu series, %zu open regression%s; gate --fail-on %s: %s",
		n, open, open == 1 ? "" : "s", history_fail_on_name(o->fail_on),
		fails ? "FAILED" : "passed");
	if (fails)
		fprintf(f, " (%zu series)", fails);
	fputs("\n\n", f);
	for (i = 0; i < n; i++)
		text_series(f, &r[idx[i]], o);
	free(idx);
}
