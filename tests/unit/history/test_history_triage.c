// SPDX-License-Identifier: GPL-2.0-only
/*
 * What `history triage` accepts before anything reaches the database
 * (history_triage_check): UTF-8 only, no control characters, C1 ones
 * included, limits counted in characters as the message says. The
 * round trip through both databases is in test_history_db.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history/history_triage.h"
#include "util/util.h"

/* n copies of the UTF-8 character c, malloc'ed. */
static char *repeat(const char *c, size_t n)
{
	size_t l = strlen(c), i;
	char *s = xmalloc(l * n + 1);

	for (i = 0; i < n; i++)
		memcpy(s + i * l, c, l);
	s[l * n] = '\0';
	return s;
}

static int check(const char *name, const char *reason, const char *fix,
		 char *err, size_t errlen)
{
	struct history_triage t = {
		.state = fix ? TRIAGE_FIXED : TRIAGE_ACCEPTED,
		.name = (char *)name, .reason = (char *)reason, .fix = (char *)fix,
	};

	err[0] = '\0';
	return history_triage_check(&t, err, errlen);
}

/*
 * issue 36 small item: SQLite stored invalid UTF-8 that PostgreSQL
 * refused; refused here, before either, with a clear message.
 */
static void test_invalid_utf8_refused(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(check("Jane \xff", "why", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--by NAME (who decided) is not valid UTF-8 (byte 0xff at offset 5)"));
	assert_int_equal(check("Jane", "why \xc3", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--reason TEXT (why it is intended) is not valid UTF-8"));
	assert_int_equal(check("Jane", NULL, "v6.19 \xed\xa0\x80", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--fixed-by REF (the fix) is not valid UTF-8"));
	assert_int_equal(check("J\xc3\xa9r\xc3\xb4me", "caf\xc3\xa9 \xe2\x82\xac", NULL, err,
			       sizeof(err)), 0);
}

/* issue 36 small item: C1 controls (U+0080-U+009F) were echoed; refused
 * as C0 ones are. */
static void test_c1_refused(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(check("Jane \xc2\x9b" "31m", "why", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--by NAME (who decided) holds a control character (U+009B at offset 5)"));
	assert_int_equal(check("Jane", "why\xc2\x85", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "(U+0085"));
	assert_int_equal(check("Jane", NULL, "a\nb", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "(U+000A"));
	/* U+00A0 is no control. */
	assert_int_equal(check("Jane\xc2\xa0" "Doe", "why", NULL, err, sizeof(err)), 0);
}

/* issue 36 small item: the limit counted bytes and said "characters":
 * characters it is. */
static void test_limits_in_characters(void **state)
{
	char err[512], *s;

	(void)state;
	s = repeat("\xc3\xa9", HISTORY_TRIAGE_TEXT_MAX);	/* 2000 bytes */
	assert_int_equal(check("Jane", s, NULL, err, sizeof(err)), 0);
	free(s);
	s = repeat("\xc3\xa9", HISTORY_TRIAGE_TEXT_MAX + 1);
	assert_int_equal(check("Jane", s, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is longer than 1000 characters (1001)"));
	free(s);
}

/* issue 36 small item: a 1 MB name overflowed its report card; names
 * are limited to HISTORY_TRIAGE_NAME_MAX characters at input. */
static void test_name_limited(void **state)
{
	char err[512], *s;

	(void)state;
	s = repeat("\xe2\x82\xac", HISTORY_TRIAGE_NAME_MAX);
	assert_int_equal(check(s, "why", NULL, err, sizeof(err)), 0);
	free(s);
	s = repeat("n", HISTORY_TRIAGE_NAME_MAX + 1);
	assert_int_equal(check(s, "why", NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--by NAME (who decided) is longer than 100 characters (101)"));
	free(s);
	s = repeat("n", 1 << 20);
	assert_int_equal(check(s, "why", NULL, err, sizeof(err)), -1);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid_utf8_refused),
		cmocka_unit_test(test_c1_refused),
		cmocka_unit_test(test_limits_in_characters),
		cmocka_unit_test(test_name_limited),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
