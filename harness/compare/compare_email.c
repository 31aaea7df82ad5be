// SPDX-License-Identifier: GPL-2.0-only
/*
 * email format: what a cover letter needs and nothing wider than 72
 * columns: the sources, machine and kernels, n and confidence, what the
 * spreads mean, one two-line row per metric, and the command to
 * reproduce the comparison.
 */
#include "compare_format.h"
#include "compare_mail.h"
#include "compare_print.h"

#include <string.h>

/* The runs behind the numbers, as their results files recorded them. */
static void measured_with(FILE *out, const struct comparison *c)
{
	const char *a = json_string_value(json_object_get(c->ra->meta, "command"));
	const char *b = json_string_value(json_object_get(c->rb->meta, "command"));

	if (!a && !b)
		return;
	fputs("Measured with:\n", out);
	if (a)
		mail_command(out, a);
	if (b && c->rb != c->ra)
		mail_command(out, b);
}

static void email_pair(FILE *out, const struct comparison *c,
		       const struct cmp_pair *p)
{
	char head[600];
	size_t i;

	snprintf(head, sizeof(head), "%s: %s (n=%zu) vs %s (n=%zu)", p->title,
		 p->a_name, case_ok_runs(p->a), p->b_name, case_ok_runs(p->b));
	fputc('\n', out);
	mail_wrap(out, "", "  ", head);
	mail_table_head(out, "base", "new");
	for (i = 0; i < p->nm; i++)
		if (!cmp_metric_all_zero(&p->m[i]))
			mail_row(out, c, &p->m[i]);
	cf_print_zeros(p, out, "  ");
	for (i = 0; i < p->nnotes; i++)
		mail_wrap(out, "  note: ", "        ", p->notes[i]);
}

void compare_print_email(const struct comparison *c, FILE *out)
{
	char buf[600], lvl[16], m[400], ka[160], kb[160];
	size_t i;

	cf_kernel(c->ra, ka, sizeof(ka));
	cf_kernel(c->rb, kb, sizeof(kb));
	fputs("thpbench comparison\n", out);
	mail_wrap(out, "  machine: ", "    ", cf_machine(c->ra, m, sizeof(m)));
	if (c->opts.by == CMP_FILES) {
		snprintf(buf, sizeof(buf), "%s (%s)", ka, c->opts.base_path);
		mail_wrap(out, "  base: ", "    ", buf);
		snprintf(buf, sizeof(buf), "%s (%s)", kb, c->opts.new_path);
		mail_wrap(out, "  new:  ", "    ", buf);
	} else {
		snprintf(buf, sizeof(buf), "%s (%s), by %s", ka, c->opts.base_path,
			 cmp_by_what(c->opts.by));
		mail_wrap(out, "  runs: ", "    ", buf);
	}
	snprintf(buf, sizeof(buf),
		 "%s%% confidence, %s, p Bonferroni-adjusted per family of metrics "
		 "(the CI to match); noise threshold %g%%. base/new: mean ±sample "
		 "stddev in %% of the mean; change: ratio of the geometric means - 1, "
		 "CI on the log scale (Δ: difference of the means, where a value is <= 0).",
		 cf_level(c->opts.confidence, lvl, sizeof(lvl)),
		 cf_test_desc(&c->opts), c->opts.threshold * 100);
	mail_wrap(out, "  ", "  ", buf);
	for (i = 0; i < c->ndiffs; i++) {
		snprintf(buf, sizeof(buf), "%s: %s vs %s%s", c->diffs[i].what,
			 c->diffs[i].a, c->diffs[i].b,
			 c->diffs[i].blocking ? " (forced)" : "");
		mail_wrap(out, "  differs: ", "    ", buf);
	}
	for (i = 0; i < c->npairs; i++)
		email_pair(out, c, &c->pairs[i]);
	for (i = 0; i < c->nun; i++) {
		snprintf(buf, sizeof(buf), "%s: %s", c->un[i].c->id, c->un[i].why);
		mail_wrap(out, "  not compared: ", "    ", buf);
	}
	fputs("\nReproduce with:\n", out);
	mail_command(out, c->opts.command ? c->opts.command : "thpbench compare");
	measured_with(out, c);
}
