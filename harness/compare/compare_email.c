// SPDX-License-Identifier: GPL-2.0-only
/*
 * email format: what a cover letter needs and nothing wider than 72
 * columns: the sources, machine and kernels, n and confidence, what the
 * spreads mean, one two-line row per metric, and the command to
 * reproduce the comparison.
 */
#include "compare_format.h"
#include "compare_print.h"

#include <string.h>

#define EMAIL_COLS 72
#define NAME_W 20

/* Word-wrap text to EMAIL_COLS, continuation lines indented by `cont`. */
static void wrap(FILE *out, const char *first, const char *cont,
		 const char *text)
{
	const char *p = text, *indent = first;
	int col;

	while (*p) {
		int room, len = 0, last_space = -1;

		fputs(indent, out);
		col = (int)strlen(indent);
		room = EMAIL_COLS - col;
		while (len < room && p[len]) {
			if (p[len] == ' ')
				last_space = len;
			len++;
		}
		if (p[len] && last_space > 0)
			len = last_space;
		fprintf(out, "%.*s\n", len, p);
		p += len;
		while (*p == ' ')
			p++;
		indent = cont;
	}
}

/*
 * A command line cut at spaces into lines of at most EMAIL_COLS, each but
 * the last ending in " \\" so that it pastes back into a shell whole.
 */
static void wrap_command(FILE *out, const char *cmd)
{
	const char *p = cmd;
	int col = 0;

	fputs("  ", out);
	col = 2;
	while (*p) {
		size_t w = strcspn(p, " ");

		if (col > 4 && col + 1 + (int)w + 2 > EMAIL_COLS) {
			fputs(" \\\n    ", out);
			col = 4;
		} else if (col > 2) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, p);
		col += (int)w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
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
		wrap_command(out, a);
	if (b && c->rb != c->ra)
		wrap_command(out, b);
}

static void email_row(FILE *out, const struct comparison *c,
		      const struct cmp_metric *m)
{
	char n1[32], n2[32], s1[32], s2[32], pc[32], ci[64], pv[32], line[200];
	const char *name = m->name;

	if ((int)strlen(name) > NAME_W) {
		fprintf(out, "  %s\n", name);
		name = "";
	}
	fprintf(out, "  %-*s", NAME_W, name);
	cf_put(out, cf_num(m->a.s.mean, n1, sizeof(n1)), 10);
	fputc(' ', out);
	cf_put(out, cf_sd(m->a.s.cv, s1, sizeof(s1)), -6);
	cf_put(out, cf_num(m->b.s.mean, n2, sizeof(n2)), 11);
	fputc(' ', out);
	cf_put(out, cf_sd(m->b.s.cv, s2, sizeof(s2)), m->tested ? -6 : 0);
	if (m->tested)
		cf_put(out, cf_change(m, pc, sizeof(pc)), 9);
	fputc('\n', out);
	cf_interval(m, ci, sizeof(ci));
	if (m->tested)
		snprintf(line, sizeof(line), "%s%sp %s: %s", ci, *ci ? ", " : "",
			 cf_p_eq(m->p, pv, sizeof(pv)), cf_verdict(c, m->verdict));
	else
		snprintf(line, sizeof(line), "%s", cf_verdict(c, m->verdict));
	wrap(out, "      ", "      ", line);
}

static void email_pair(FILE *out, const struct comparison *c,
		       const struct cmp_pair *p)
{
	char head[600];
	size_t i;

	snprintf(head, sizeof(head), "%s: %s (n=%zu) vs %s (n=%zu)", p->title,
		 p->a_name, case_ok_runs(p->a), p->b_name, case_ok_runs(p->b));
	fputc('\n', out);
	wrap(out, "", "  ", head);
	fprintf(out, "  %-*s%10s %-6s%11s %-6s%9s\n", NAME_W, "metric", "base",
		"", "new", "", "change");
	for (i = 0; i < p->nm; i++)
		if (!cmp_metric_all_zero(&p->m[i]))
			email_row(out, c, &p->m[i]);
	cf_print_zeros(p, out, "  ");
	for (i = 0; i < p->nnotes; i++)
		wrap(out, "  note: ", "        ", p->notes[i]);
}

void compare_print_email(const struct comparison *c, FILE *out)
{
	char buf[600], lvl[16], m[400], ka[160], kb[160];
	size_t i;

	cf_kernel(c->ra, ka, sizeof(ka));
	cf_kernel(c->rb, kb, sizeof(kb));
	fputs("thpbench comparison\n", out);
	wrap(out, "  machine: ", "    ", cf_machine(c->ra, m, sizeof(m)));
	if (c->opts.by == CMP_FILES) {
		snprintf(buf, sizeof(buf), "%s (%s)", ka, c->opts.base_path);
		wrap(out, "  base: ", "    ", buf);
		snprintf(buf, sizeof(buf), "%s (%s)", kb, c->opts.new_path);
		wrap(out, "  new:  ", "    ", buf);
	} else {
		snprintf(buf, sizeof(buf), "%s (%s), by %s", ka, c->opts.base_path,
			 cmp_by_what(c->opts.by));
		wrap(out, "  runs: ", "    ", buf);
	}
	snprintf(buf, sizeof(buf),
		 "%s%% confidence, %s, p Bonferroni-adjusted per family of metrics "
		 "(the CI to match); noise threshold %g%%. base/new: mean ±sample "
		 "stddev in %% of the mean; change: ratio of the geometric means - 1, "
		 "CI on the log scale (Δ: difference of the means, where a value is <= 0).",
		 cf_level(c->opts.confidence, lvl, sizeof(lvl)),
		 cf_test_desc(&c->opts), c->opts.threshold * 100);
	wrap(out, "  ", "  ", buf);
	for (i = 0; i < c->ndiffs; i++) {
		snprintf(buf, sizeof(buf), "%s: %s vs %s%s", c->diffs[i].what,
			 c->diffs[i].a, c->diffs[i].b,
			 c->diffs[i].blocking ? " (forced)" : "");
		wrap(out, "  differs: ", "    ", buf);
	}
	for (i = 0; i < c->npairs; i++)
		email_pair(out, c, &c->pairs[i]);
	for (i = 0; i < c->nun; i++) {
		snprintf(buf, sizeof(buf), "%s: %s", c->un[i].c->id, c->un[i].why);
		wrap(out, "  not compared: ", "    ", buf);
	}
	fputs("\nReproduce with:\n", out);
	wrap_command(out, c->opts.command ? c->opts.command : "thpbench compare");
	measured_with(out, c);
}
