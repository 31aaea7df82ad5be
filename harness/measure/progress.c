// SPDX-License-Identifier: GPL-2.0-only
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

int progress_mode_parse(const char *s)
{
	static const char *const names[] = {
		[PROGRESS_AUTO] = "auto", [PROGRESS_TTY] = "tty",
		[PROGRESS_LINES] = "lines", [PROGRESS_NONE] = "none",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

void progress_start(struct progress *p, FILE *f, enum progress_mode mode,
		    size_t total)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	if (mode == PROGRESS_AUTO)
		mode = isatty(fileno(f)) ? PROGRESS_TTY : PROGRESS_LINES;
	p->mode = mode;
	p->total = total;
	p->t0 = now_usec();
}

/* m:ss, or h:mm:ss from an hour on. */
static void clock_text(double usec, char *buf, size_t len)
{
	long s = usec > 0 ? (long)(usec / 1e6 + 0.5) : 0;

	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

/*
 * A status line is put together here and written with one fputs: stderr
 * is unbuffered, and each fprintf of its parts was a write(2) of its own
 * (five a repetition).
 */
static char *line;
static size_t line_len, line_cap;

__attribute__((format(printf, 1, 2)))
static void add(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line + line_len, line_cap - line_len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (line_len + (size_t)n >= line_cap) {
		line_cap = (line_len + (size_t)n + 1) * 2;
		line = xrealloc(line, line_cap);
		va_start(ap, fmt);
		vsnprintf(line + line_len, line_cap - line_len, fmt, ap);
		va_end(ap);
	}
	line_len += (size_t)n;
}

static void line_begin(void)
{
	if (!line) {
		line_cap = 256;
		line = xmalloc(line_cap);
	}
	line_len = 0;
	line[0] = '\0';
}

/* "[ 12/90  0:45 left ~4:10]" */
static void prefix(const struct progress *p, double now)
{
	char el[32], left[32];
	int w = snprintf(NULL, 0, "%zu", p->total);

	clock_text(now - p->t0, el, sizeof(el));
	add("[%*zu/%zu %6s", w, p->done, p->total, el);
	if (p->done && p->done < p->total) {
		clock_text((now - p->first_rep) / (double)p->done *
			   (double)(p->total - p->done), left, sizeof(left));
		add(" left ~%s", left);
	}
	add("]");
}

void progress_begin(struct progress *p, const char *case_id, bool warmup,
		    int rep, int n)
{
	p->t_exec = now_usec();
	if (!warmup && !p->done && !p->first_rep)
		p->first_rep = p->t_exec;
	if (p->mode != PROGRESS_TTY)
		return;
	line_begin();
	add("\r\033[K");
	prefix(p, p->t_exec);
	add(" %s %s %d/%d", case_id, warmup ? "warm-up" : "rep", rep + 1, n);
	fputs(line, p->f);
	fflush(p->f);
}

void progress_end(struct progress *p, const char *case_id, bool warmup,
		  int rep, int n, const char *status, const char *reason)
{
	double now = now_usec();

	if (!warmup)
		p->done++;
	if (p->mode != PROGRESS_LINES)
		return;
	line_begin();
	prefix(p, now);
	add(" %s %s %d/%d: %s in %.2f s", case_id,
	    warmup ? "warm-up" : "rep", rep + 1, n, status,
	    (now - p->t_exec) / 1e6);
	if (reason && *reason)
		add(" (%s)", reason);
	add("\n");
	fputs(line, p->f);
	fflush(p->f);
}

void progress_finish(struct progress *p)
{
	if (p->mode == PROGRESS_TTY)
		fputs("\r\033[K", p->f);
	fflush(p->f);
}
