// SPDX-License-Identifier: GPL-2.0-only
/* utf8.h: invalid UTF-8 found, characters counted, controls found, text
 * cut on a character, and a hostile string escaped onto one line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"

/* issue 36 small item: invalid UTF-8 is found (SQLite stored it, PostgreSQL refused it). */
static void test_invalid(void **state)
{
	const char *bad[] = {
		"\xff", "\xc3" "a", "\xc0\xaf" /* overlong '/' */, "\xed\xa0\x80" /* U+D800 */,
		"\xf4\x90\x80\x80" /* > U+10FFFF */, "\xe2\x82" /* cut */, "\x80",
	};
	size_t i;

	(void)state;
	assert_null(utf8_invalid("plain, \xc3\xa9t\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x90\xa7"));
	assert_null(utf8_invalid(""));
	assert_null(utf8_invalid(NULL));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char s[16];

		snprintf(s, sizeof(s), "ok%s", bad[i]);
		assert_ptr_equal(utf8_invalid(s), s + 2);
	}
}

/* issue 36 small item: a limit in characters counts characters, not bytes. */
static void test_chars_and_cut(void **state)
{
	char *c;

	(void)state;
	assert_int_equal(utf8_chars("\xc3\xa9\xc3\xa9\xe2\x82\xac"), 3);
	assert_int_equal(utf8_chars("ab\xff"), 3);
	c = utf8_cut_dup("\xc3\xa9\xc3\xa9\xe2\x82\xac", 2);
	assert_string_equal(c, "\xc3\xa9\xc3\xa9…");
	free(c);
	c = utf8_cut_dup("abc", 3);
	assert_string_equal(c, "abc");
	free(c);
	assert_null(utf8_cut_dup(NULL, 3));
}

/* issue 36 small item: C1 controls are controls, in UTF-8 or raw. */
static void test_control(void **state)
{
	const char *s = "ok \xc2\x85 x";

	(void)state;
	assert_null(utf8_control("plain \xc2\xa0 \xc3\xa9"));	/* NBSP is no control */
	assert_ptr_equal(utf8_control(s), s + 3);
	assert_non_null(utf8_control("a\tb"));
	assert_non_null(utf8_control("a\x7f"));
	assert_non_null(utf8_control("a\x9b[31m"));
}

/* issue 36 small item: a stored string never starts a line (a forged
 * `ok 99 - fake`), moves the cursor or passes invalid UTF-8 raw. */
static void test_escape(void **state)
{
	char buf[64], *d;

	(void)state;
	assert_string_equal(str_escape("why\nok 99 - fake", buf, sizeof(buf)),
			    "why\\nok 99 - fake");
	assert_string_equal(str_escape("a\tb\rc\\d\x1b[31m\x7f", buf, sizeof(buf)),
			    "a\\tb\\rc\\\\d\\x1b[31m\\x7f");
	assert_string_equal(str_escape("C1 \xc2\x9b raw \x9b bad \xff\xc3 ok \xc3\xa9", buf, sizeof(buf)),
			    "C1 \\u009b raw \\x9b bad \\xff\\xc3 ok \xc3\xa9");
	/* Cut whole: never half an escape or half a character. */
	assert_string_equal(str_escape("ab\ncd", buf, 4), "ab");
	assert_string_equal(str_escape("a\xc3\xa9", buf, 3), "a");
	assert_string_equal(str_escape(NULL, buf, sizeof(buf)), "");
	/* The worst case fits what str_escape_dup allocates. */
	d = str_escape_dup("\x01\x01\xff\xc2\x85");
	assert_string_equal(d, "\\x01\\x01\\xff\\u0085");
	free(d);
}

/* Each byte that starts no character becomes one U+FFFD; valid text stays. */
static void test_clean(void **state)
{
	char *c;

	(void)state;
	c = utf8_clean_dup("a\xff\xc3\xa9\xe2\x82z");
	assert_string_equal(c, "a\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbdz");
	free(c);
	c = utf8_clean_dup(NULL);
	assert_string_equal(c, "");
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_chars_and_cut),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
