// SPDX-License-Identifier: GPL-2.0-only
/* wrap.h: no line wider than asked, no word broken that fits a line, a
 * wrapped command that a shell runs as the original, digests shortened. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/wrap.h"

/* What wrap_text() (command: wrap_command()) writes, as a string. */
static char *render(bool command, int cols, const char *first,
		    const char *cont, const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (command)
		wrap_command(f, cols, first, cont, text);
	else
		wrap_text(f, cols, first, cont, text);
	fclose(f);
	return buf;
}

static int widest(const char *s)
{
	char *copy = strdup(s), *line, *save = NULL;
	int w = 0;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (text_width(line) > w)
			w = text_width(line);
	free(copy);
	return w;
}

static void test_width(void **state)
{
	(void)state;
	assert_int_equal(text_width("±5% Δ+256"), 9);
	assert_int_equal(text_width(""), 0);
}

static void test_text(void **state)
{
	const char *text = "differs: kernel: 6.1.192-tb-3f9a2c1e vs 6.1.192-tb-77aa01bc "
		"(/work/main/results/ab-000-mremap-thp-pmd-move-20261201-101010/A.json) "
		"and ±2% noise";
	char *out = render(false, 72, "  note: ", "    ", text);

	(void)state;
	assert_true(widest(out) <= 72);
	/* Words that fit a line stay whole. */
	assert_non_null(strstr(out, "6.1.192-tb-3f9a2c1e"));
	assert_non_null(strstr(out, "6.1.192-tb-77aa01bc"));
	/* The path is wider than a line: broken after a '/', nowhere else. */
	assert_non_null(strstr(out, "/\n    "));
	assert_string_equal(strchr(out, '\n') ? "" : "x", "");
	free(out);
	out = render(false, 20, "", "", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	assert_true(widest(out) <= 20);
	free(out);
}

/* Run "printf '[%s]' WRAPPED" through sh: the words it sees. */
static char *shell_words(const char *wrapped)
{
	char path[] = "/tmp/thpbench-wrap-XXXXXX", cmd[64], *buf;
	FILE *f, *p;
	int fd = mkstemp(path);
	size_t n;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(wrapped, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "sh %s", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	buf = calloc(1, 4096);
	n = fread(buf, 1, 4095, p);
	buf[n] = '\0';
	pclose(p);
	remove(path);
	return buf;
}

static void test_command(void **state)
{
	const char *cmd = "printf [%s] ./run.sh ab "
		"/home/someone/src/linux/patches/v2-20261130-mm-mremap-split-huge-pmd-instead-of-moving-it.mbx "
		"--suite kernel-patches/000-mremap-thp-pmd-move/suite.conf --reps 5 "
		"--out /work/main/results/ab-000-mremap-thp-pmd-move-20261201-101010-and-even-longer-than-a-line-is "
		"has\\ space 'single quoted word that is long enough to need the whole line or more, yes' x";
	char *out = render(true, 72, "  ", "    ", cmd), *words;

	(void)state;
	assert_true(widest(out) <= 72);
	words = shell_words(out);
	assert_string_equal(words,
		"[./run.sh][ab]"
		"[/home/someone/src/linux/patches/v2-20261130-mm-mremap-split-huge-pmd-instead-of-moving-it.mbx]"
		"[--suite][kernel-patches/000-mremap-thp-pmd-move/suite.conf][--reps][5]"
		"[--out][/work/main/results/ab-000-mremap-thp-pmd-move-20261201-101010-and-even-longer-than-a-line-is]"
		"[has space][single quoted word that is long enough to need the whole line or more, yes][x]");
	free(words);
	free(out);
}

static void test_digests(void **state)
{
	char out[256];

	(void)state;
	short_digests("kernel_config: sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef vs "
		      "sha256:fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210", out, sizeof(out));
	assert_string_equal(out, "kernel_config: sha256:0123456789ab vs sha256:fedcba987654");
	/* Not a digest: kept. */
	short_digests("sha256:12ab", out, sizeof(out));
	assert_string_equal(out, "sha256:12ab");
	short_digests("x", out, 1);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_digests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
