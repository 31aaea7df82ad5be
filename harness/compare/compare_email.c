// SPDX-License-Identifier: GPL-2.0-only
/*
 * email format (compare_email.h): what a cover letter needs and nothing
 * wider than 72 columns: the sources, machine and kernels, n and
 * confidence, what the spreads mean, one two-line row per metric, and the
 * command to reproduce the comparison. The pieces that keep to those
 * rules come first; the cover format uses them too.
 */
#include "compare_email.h"

#include <stdlib.h>
#include <string.h>

#include "compare_format.h"
#include "compare_print.h"
#include "util/util.h"
#include "util/wrap.h"

#define NAME_W 20

/* Text from results files is hostile: a control character (an escape
 * sequence, a tab, a carriage return) would not be plain text. */
static char *plain(const char *text, char with)
{
	size_t n = strlen(text) + 1, i;
	char *s = xmalloc(n);

	short_digests(text, s, n);
	for (i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			s[i] = with;
	return s;
}

void compare_email_wrap(FILE *out, const char *first, const char *cont,
			const char *text)
{
	char *s = plain(text, ' ');

	wrap_text(out, COMPARE_EMAIL_COLS, first, cont, s);
	free(s);
}

void compare_email_command(FILE *out, const char *cmd)
{
	char *s = plain(cmd, '?');

	wrap_command(out, COMPARE_EMAIL_COLS, "  ", "    ", s);
	free(s);
}

void compare_email_head(FILE *out, const char *a, const char *b)
{
	fprintf(out, "  %-*s", NAME_W, "metric");
	compare_fmt_put(out, a, 10);
	fputs("       ", out);
	compare_fmt_put(out, b, 11);
	fprintf(out, "%7s%9s\n", "", "change");
}

void compare_email_row(FILE *out, const struct comparison *c,
		       const struct compare_metric *m)
{
	char n1[32], n2[32], s1[32], s2[32], pc[32], ci[64], pv[32], line[200];
	char *name = plain(m->name, ' ');

	if (compare_fmt_width(name) > NAME_W) {
		compare_email_wrap(out, "  ", "    ", name);
		*name = '\0';
	}
	fputs("  ", out);
	compare_fmt_put(out, name, -NAME_W);
	free(name);
	compare_fmt_put(out, compare_fmt_num(m->a.s.mean, n1, sizeof(n1)), 10);
	fputc(' ', out);
	compare_fmt_put(out, compare_fmt_sd(m->a.s.cv, s1, sizeof(s1)), -6);
	compare_fmt_put(out, compare_fmt_num(m->b.s.mean, n2, sizeof(n2)), 11);
	fputc(' ', out);
	compare_fmt_put(out, compare_fmt_sd(m->b.s.cv, s2, sizeof(s2)),
			m->tested ? -6 : 0);
	if (m->tested)
		compare_fmt_put(out, compare_fmt_change(m, pc, sizeof(pc)), 9);
	fputc('\n', out);
	compare_fmt_interval(m, ci, sizeof(ci));
	if (m->tested)
		snprintf(line, sizeof(line), "%s%sp %s: %s", ci,
			 *ci ? ", " : "",
			 compare_fmt_p_eq(m->p, pv, sizeof(pv)),
			 compare_fmt_verdict(c, m->verdict));
	else
		snprintf(line, sizeof(line), "%s",
			 compare_fmt_verdict(c, m->verdict));
	compare_email_wrap(out, "      ", "      ", line);
}

/* The runs behind the numbers, as their results files recorded them. */
static void measured_with(FILE *out, const struct comparison *c)
{
	const char *a = json_string_value(json_object_get(c->ra->meta, "command"));
	const char *b = json_string_value(json_object_get(c->rb->meta, "command"));

	if (!a && !b)
		return;
	fputs("Measured with:\n", out);
	if (a)
		compare_email_command(out, a);
	if (b && c->rb != c->ra)
		compare_email_command(out, b);
}

static void email_pair(FILE *out, const struct comparison *c,
		       const struct compare_pair *p)
{
	char head[600];
	size_t i;

	snprintf(head, sizeof(head), "%s: %s (n=%zu) vs %s (n=%zu)", p->title,
		 p->a_name, case_ok_runs(p->a), p->b_name, case_ok_runs(p->b));
	fputc('\n', out);
	compare_email_wrap(out, "", "  ", head);
	compare_email_head(out, "base", "new");
	for (i = 0; i < p->nm; i++)
		if (!compare_metric_hidden(&p->m[i]))
			compare_email_row(out, c, &p->m[i]);
	compare_fmt_print_zeros(p, out, "  ");
	for (i = 0; i < p->nnotes; i++)
		compare_email_wrap(out, "  note: ", "        ", p->notes[i]);
}

void compare_print_email(const struct comparison *c, FILE *out)
{
	char buf[600], lvl[16], m[400], ka[160], kb[160];
	size_t i;

	compare_fmt_kernel(c->ra, ka, sizeof(ka));
	compare_fmt_kernel(c->rb, kb, sizeof(kb));
	fputs("thpbench comparison\n", out);
	compare_email_wrap(out, "  machine: ", "    ",
			   compare_fmt_machine(c->ra, m, sizeof(m)));
	if (c->opts.by == COMPARE_FILES) {
		snprintf(buf, sizeof(buf), "%s (%s)", ka, c->opts.base_path);
		compare_email_wrap(out, "  base: ", "    ", buf);
		snprintf(buf, sizeof(buf), "%s (%s)", kb, c->opts.new_path);
		compare_email_wrap(out, "  new:  ", "    ", buf);
	} else {
		snprintf(buf, sizeof(buf), "%s (%s), by %s", ka, c->opts.base_path,
			 compare_by_what(c->opts.by));
		compare_email_wrap(out, "  runs: ", "    ", buf);
	}
	snprintf(buf, sizeof(buf),
		 "%s%% confidence, %s, p Bonferroni-adjusted per family of metrics "
		 "(the CI to match); noise threshold %g%%. base/new: mean ±sample "
		 "stddev in %% of the mean; change: ratio of the geometric means - 1, "
		 "CI on the log scale (Δ: difference of the means, where a value is <= 0).",
		 compare_fmt_level(c->opts.confidence, lvl, sizeof(lvl)),
		 compare_fmt_test_desc(&c->opts), c->opts.threshold * 100);
	compare_email_wrap(out, "  ", "  ", buf);
	for (i = 0; i < c->ndiffs; i++) {
		snprintf(buf, sizeof(buf), "%s: %s vs %s%s", c->diffs[i].what,
			 c->diffs[i].a, c->diffs[i].b,
			 c->diffs[i].blocking ? " (forced)" : "");
		compare_email_wrap(out, "  differs: ", "    ", buf);
	}
	for (i = 0; i < c->npairs; i++)
		email_pair(out, c, &c->pairs[i]);
	for (i = 0; i < c->nun; i++) {
		snprintf(buf, sizeof(buf), "%s: %s", c->un[i].c->id, c->un[i].why);
		compare_email_wrap(out, "  not compared: ", "    ", buf);
	}
	fputs("\nReproduce with:\n", out);
	compare_email_command(out, c->opts.command ? c->opts.command
						   : "thpbench compare");
	measured_with(out, c);
}
