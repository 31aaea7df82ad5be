// SPDX-License-Identifier: GPL-2.0-only
/* compare_mail - the pieces of the mail formats (compare_mail.h). */
#include "compare_mail.h"

#include <stdlib.h>
#include <string.h>

#include "compare_format.h"
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

void mail_wrap(FILE *out, const char *first, const char *cont,
	       const char *text)
{
	char *s = plain(text, ' ');

	wrap_text(out, MAIL_COLS, first, cont, s);
	free(s);
}

void mail_command(FILE *out, const char *cmd)
{
	char *s = plain(cmd, '?');

	wrap_command(out, MAIL_COLS, "  ", "    ", s);
	free(s);
}

void mail_table_head(FILE *out, const char *a, const char *b)
{
	fprintf(out, "  %-*s", NAME_W, "metric");
	cf_put(out, a, 10);
	fputs("       ", out);
	cf_put(out, b, 11);
	fprintf(out, "%7s%9s\n", "", "change");
}

void mail_row(FILE *out, const struct comparison *c, const struct cmp_metric *m)
{
	char n1[32], n2[32], s1[32], s2[32], pc[32], ci[64], pv[32], line[200];
	char *name = plain(m->name, ' ');

	if (cf_width(name) > NAME_W) {
		mail_wrap(out, "  ", "    ", name);
		*name = '\0';
	}
	fputs("  ", out);
	cf_put(out, name, -NAME_W);
	free(name);
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
	mail_wrap(out, "      ", "      ", line);
}
