// SPDX-License-Identifier: GPL-2.0-only
/* Progress of a run: one line per execution in a log, a status line on a tty. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/progress.h"

struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static void open_capture(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	assert_non_null(c->f);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

static void test_mode_names(void **state)
{
	(void)state;
	assert_int_equal(progress_mode_parse("auto"), PROGRESS_AUTO);
	assert_int_equal(progress_mode_parse("lines"), PROGRESS_LINES);
	assert_int_equal(progress_mode_parse("tty"), PROGRESS_TTY);
	assert_int_equal(progress_mode_parse("none"), PROGRESS_NONE);
	assert_int_equal(progress_mode_parse("Lines"), -1);
	assert_int_equal(progress_mode_parse(""), -1);
}

/* A log that is not a terminal gets a line per execution, with its status. */
static void test_lines(void **state)
{
	struct capture c;
	struct progress p;

	(void)state;
	open_capture(&c);
	progress_start(&p, c.f, PROGRESS_AUTO, 4);
	assert_int_equal(p.mode, PROGRESS_LINES);
	progress_begin(&p, "mremap/thp=always", true, 0, 1);
	progress_end(&p, "mremap/thp=always", true, 0, 1, "ok", NULL);
	progress_begin(&p, "mremap/thp=always", false, 0, 2);
	progress_end(&p, "mremap/thp=always", false, 0, 2, "ok", NULL);
	progress_begin(&p, "mremap/thp=never", false, 0, 2);
	progress_end(&p, "mremap/thp=never", false, 0, 2, "timeout",
		     "killed after the timeout");
	progress_finish(&p);
	fclose(c.f);
	assert_int_equal(count(c.buf, "\n"), 3);
	assert_null(strchr(c.buf, '\r'));
	assert_non_null(strstr(c.buf, "[0/4 "));
	assert_non_null(strstr(c.buf, "] mremap/thp=always warm-up 1/1: ok in "));
	assert_non_null(strstr(c.buf, "[1/4 "));
	assert_non_null(strstr(c.buf, "mremap/thp=always rep 1/2: ok in "));
	assert_non_null(strstr(c.buf, "[2/4 "));
	assert_non_null(strstr(c.buf, "mremap/thp=never rep 1/2: timeout in "));
	assert_non_null(strstr(c.buf, " s (killed after the timeout)\n"));
	/* Time left is estimated once a repetition is done, not before. */
	assert_int_equal(count(c.buf, " left ~"), 2);
	assert_int_equal(p.done, 2);
	free(c.buf);
}

/* A terminal gets one status line that rewrites itself, and no newline. */
static void test_tty(void **state)
{
	struct capture c;
	struct progress p;

	(void)state;
	open_capture(&c);
	progress_start(&p, c.f, PROGRESS_TTY, 2);
	progress_begin(&p, "split/thp=madvise", false, 0, 2);
	progress_end(&p, "split/thp=madvise", false, 0, 2, "ok", NULL);
	progress_begin(&p, "split/thp=madvise", false, 1, 2);
	progress_end(&p, "split/thp=madvise", false, 1, 2, "ok", NULL);
	progress_finish(&p);
	fclose(c.f);
	assert_null(strchr(c.buf, '\n'));
	assert_int_equal(count(c.buf, "\r\033[K"), 3);
	assert_non_null(strstr(c.buf, "split/thp=madvise rep 2/2"));
	free(c.buf);
}

static void test_none(void **state)
{
	struct capture c;
	struct progress p;

	(void)state;
	open_capture(&c);
	progress_start(&p, c.f, PROGRESS_NONE, 1);
	progress_begin(&p, "a", false, 0, 1);
	progress_end(&p, "a", false, 0, 1, "failed", "exit 1");
	progress_finish(&p);
	fclose(c.f);
	assert_int_equal(c.len, 0);
	assert_int_equal(p.done, 1);
	free(c.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode_names),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_tty),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
