// SPDX-License-Identifier: GPL-2.0-only
#include "perf_script.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct frame {
	char *sym;
	bool kernel;
};

struct sample {
	struct frame fr[PROF_DEPTH_MAX];
	size_t n;
	bool open;
};

static bool dso_is_kernel(const char *dso)
{
	return !strncmp(dso, "[kernel", 7) || !strncmp(dso, "[guest.kernel", 13);
}

/* "\t<hex> <sym> (<dso>)": sym and dso cut out of line, in place. */
static int parse_frame(char *line, char **sym, char **dso)
{
	char *p = line + strspn(line, " \t"), *end, *open;
	size_t len;

	if (!isxdigit((unsigned char)*p))
		return -1;
	p += strspn(p, "0123456789abcdefABCDEF");
	if (*p != ' ')
		return -1;
	p += strspn(p, " ");
	len = strlen(p);
	while (len && (p[len - 1] == '\n' || p[len - 1] == ' '))
		p[--len] = '\0';
	if (len < 3 || p[len - 1] != ')')
		return -1;
	end = p + len - 1;
	*end = '\0';
	open = strrchr(p, '(');
	if (!open || open == p || open[-1] != ' ')
		return -1;
	open[-1] = '\0';
	*dso = open + 1;
	*sym = p;
	return **sym ? 0 : -1;
}

static struct prof_fn *fn_get(struct prof_data *pd, const char *sym, bool k)
{
	size_t i;

	for (i = 0; i < pd->nfn; i++)
		if (pd->fn[i].kernel == k && !strcmp(pd->fn[i].name, sym))
			return &pd->fn[i];
	pd->fn = xgrow(pd->fn, sizeof(*pd->fn), &pd->capfn, pd->nfn);
	pd->fn[pd->nfn] = (struct prof_fn){ .name = xstrdup(sym), .kernel = k };
	return &pd->fn[pd->nfn++];
}

static char *fold(const struct sample *s)
{
	size_t i, len = 1;
	char *out, *p;

	for (i = 0; i < s->n; i++)
		len += strlen(s->fr[i].sym) + 5;
	out = p = xmalloc(len);
	*p = '\0';
	for (i = s->n; i-- > 0;) {
		p += sprintf(p, "%s%s%s", p == out ? "" : ";", s->fr[i].sym,
			     s->fr[i].kernel ? "_[k]" : "");
		/* ';' and ' ' inside a symbol would split the line. */
	}
	for (p = out; *p; p++)
		if (*p == ' ' || *p == '\n')
			*p = '_';
	return out;
}

static void stack_add(struct prof_data *pd, const struct sample *s)
{
	char *f = fold(s);
	size_t i;

	for (i = 0; i < pd->nst; i++) {
		if (!strcmp(pd->st[i].folded, f)) {
			pd->st[i].count++;
			free(f);
			return;
		}
	}
	if (pd->nst >= PROF_STACKS_MAX) {
		pd->other_stacks++;
		free(f);
		return;
	}
	pd->st = xgrow(pd->st, sizeof(*pd->st), &pd->capst, pd->nst);
	pd->st[pd->nst++] = (struct prof_stack){ .folded = f, .count = 1 };
}

static void sample_end(struct prof_data *pd, struct sample *s)
{
	size_t i;
	struct prof_fn *fn;

	if (s->open && s->n) {
		pd->samples++;
		for (i = 0; i < s->n; i++) {
			fn = fn_get(pd, s->fr[i].sym, s->fr[i].kernel);
			if (i == 0)
				fn->self++;
			if (fn->last_sample != pd->samples) {
				fn->total++;
				fn->last_sample = pd->samples;
			}
		}
		stack_add(pd, s);
	}
	for (i = 0; i < s->n; i++)
		free(s->fr[i].sym);
	s->n = 0;
	s->open = false;
}

static void frame_line(struct prof_data *pd, struct sample *s, char *line)
{
	char *sym, *dso;

	if (!s->open || parse_frame(line, &sym, &dso)) {
		pd->bad_lines++;
		return;
	}
	if (s->n >= PROF_DEPTH_MAX)
		return;
	s->fr[s->n].sym = xstrdup(sym);
	s->fr[s->n].kernel = dso_is_kernel(dso);
	s->n++;
}

int perf_script_read(FILE *f, struct prof_data *pd)
{
	char line[PERF_LINE_MAX];
	struct sample *s = xcalloc(1, sizeof(*s));
	bool skipping = false;
	size_t len;

	while (fgets(line, sizeof(line), f)) {
		len = strlen(line);
		if (len && line[len - 1] != '\n' && !feof(f)) {
			/* Too long: drop it and what is left of it. */
			if (!skipping)
				pd->bad_lines++;
			skipping = true;
			continue;
		}
		if (skipping) {
			skipping = false;
			continue;
		}
		if (line[0] == '\n' || line[0] == '\0') {
			sample_end(pd, s);
		} else if (line[0] == ' ' || line[0] == '\t') {
			if (line[strspn(line, " \t\n")])
				frame_line(pd, s, line);
			else
				sample_end(pd, s);
		} else {
			sample_end(pd, s);
			s->open = true;
		}
	}
	sample_end(pd, s);
	free(s);
	return ferror(f) ? -1 : 0;
}

void prof_data_free(struct prof_data *pd)
{
	size_t i;

	for (i = 0; i < pd->nfn; i++)
		free(pd->fn[i].name);
	for (i = 0; i < pd->nst; i++)
		free(pd->st[i].folded);
	free(pd->fn);
	free(pd->st);
	memset(pd, 0, sizeof(*pd));
}

int prof_write_folded(const struct prof_data *pd, FILE *f)
{
	size_t i;

	for (i = 0; i < pd->nst; i++)
		fprintf(f, "%s %lu\n", pd->st[i].folded, pd->st[i].count);
	if (pd->other_stacks)
		fprintf(f, "[other] %lu\n", pd->other_stacks);
	return ferror(f) ? -1 : 0;
}

void prof_metric_name(char *buf, size_t len, const char *kind, bool kernel,
		      const char *sym)
{
	size_t n, i;

	n = (size_t)snprintf(buf, len, "prof.%s.%c:", kind, kernel ? 'k' : 'u');
	for (i = 0; i < PROF_NAME_MAX && sym[i] && n + 1 < len; i++, n++) {
		unsigned char c = (unsigned char)sym[i];

		buf[n] = (isalnum(c) || strchr("_.$@", c)) ? (char)c : '_';
	}
	buf[n < len ? n : len - 1] = '\0';
}

bool prof_is_metric(const char *name)
{
	return !strncmp(name, "prof.", 5);
}

static int by_total(const void *a, const void *b)
{
	const struct prof_fn *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

void prof_to_metrics(const struct prof_data *pd, struct metric_set *ms,
		     double floor_pct, size_t max_fns)
{
	struct prof_fn *sorted;
	char name[160];
	double self, total;
	size_t i, kept = 0;

	metric_set_put(ms, "prof.samples", (double)pd->samples);
	if (!pd->samples || !pd->nfn)
		return;
	sorted = xcalloc(pd->nfn, sizeof(*sorted));
	memcpy(sorted, pd->fn, pd->nfn * sizeof(*sorted));
	qsort(sorted, pd->nfn, sizeof(*sorted), by_total);
	for (i = 0; i < pd->nfn && kept < max_fns; i++) {
		self = 100.0 * (double)sorted[i].self / (double)pd->samples;
		total = 100.0 * (double)sorted[i].total / (double)pd->samples;
		if (self < floor_pct && total < floor_pct)
			continue;
		prof_metric_name(name, sizeof(name), "self", sorted[i].kernel,
				 sorted[i].name);
		metric_set_add(ms, name, self);
		prof_metric_name(name, sizeof(name), "total", sorted[i].kernel,
				 sorted[i].name);
		metric_set_add(ms, name, total);
		kept++;
	}
	free(sorted);
}
