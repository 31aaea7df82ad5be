// SPDX-License-Identifier: GPL-2.0-only
/*
 * lava_log.h: target lines come back as the device printed them, in
 * order, also with quotes, escapes and YAML-looking text inside; LAVA's
 * "! " tags are dropped outside strings and kept inside them; a results
 * entry gives its definition, case, result, measurement and units, and
 * one missing a field is unread; the server's "- " list form reads as
 * lava-run's; odd lines (a named tag, broken JSON, an over-long line)
 * are counted with the first one's number, and never stop the rest.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/lava_log.h"

struct seen {
	char targets[4096];
	char results[4096];
};

static void on_target(const char *line, void *arg)
{
	struct seen *s = arg;

	strncat(s->targets, line, sizeof(s->targets) - strlen(s->targets) - 2);
	strcat(s->targets, "|");
}

static void on_result(const struct lava_result *r, void *arg)
{
	struct seen *s = arg;
	char b[512];

	snprintf(b, sizeof(b), "%s/%s=%s[%s %s]|", r->definition, r->name, r->result,
		 r->measurement ? r->measurement : "-", r->units ? r->units : "-");
	strncat(s->results, b, sizeof(s->results) - strlen(s->results) - 1);
}

static void read_text(const char *text, struct seen *s, struct lava_log_stats *st)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct lava_log_cb cb = { on_target, on_result, s };

	memset(s, 0, sizeof(*s));
	assert_non_null(f);
	assert_int_equal(lava_log_read(f, &cb, st), 0);
	fclose(f);
}

static void test_entries(void **state)
{
	static const char log[] =
		"{\"dt\": \"x\", \"lvl\": \"info\", \"msg\": \"start: 0 validate\"}\n"
		"{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"THPBENCH-RESULT-BEGIN bytes=3\"}\n"
		"{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"say \\\"! hi\\\" {a: b} \\\\ ok\"}\n"
		"- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"list form\"}\n"
		"{\"dt\": \"x\", \"lvl\": \"results\", \"msg\": {\"case\": \"c1.roi_usec\", \"definition\": \"0_thpbench\", \"endtc\": ! \"425\", \"measurement\": ! \"15.5\", \"result\": \"pass\", \"units\": \"us\"}}\n"
		"{\"dt\": \"x\", \"lvl\": \"results\", \"msg\": {\"case\": \"job\", \"definition\": \"lava\", \"result\": \"fail\"}}\n"
		"{\"dt\": \"x\", \"lvl\": \"results\", \"msg\": {\"case\": \"m\", \"definition\": \"d\", \"measurement\": 2, \"result\": \"pass\", \"units\": \"count\"}}\n"
		"\n---\n";
	struct lava_log_stats st;
	struct seen s;

	(void)state;
	read_text(log, &s, &st);
	assert_string_equal(s.targets, "THPBENCH-RESULT-BEGIN bytes=3|say \"! hi\" {a: b} \\ ok|list form|");
	assert_string_equal(s.results, "0_thpbench/c1.roi_usec=pass[15.5 us]|lava/job=fail[- -]|d/m=pass[2 count]|");
	assert_int_equal(st.entries, 7);
	assert_int_equal(st.unread, 0);
	assert_int_equal(st.first_unread, 0);
}

static void test_odd_lines(void **state)
{
	static const char log[] =
		"{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"one\"}\n"
		"not a log line\n"
		"{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": !!binary \"AAAA\"}\n"
		"{\"dt\": \"x\", \"lvl\": \"results\", \"msg\": {\"case\": \"no definition\", \"result\": \"pass\"}}\n"
		"{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": 7}\n"
		"{\"lvl\": \"target\", \"lvl\": \"results\", \"msg\": \"dup\"}\n"
		"{\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"two\"}\n";
	struct lava_log_stats st;
	struct seen s;

	(void)state;
	read_text(log, &s, &st);
	assert_string_equal(s.targets, "one|two|");
	assert_string_equal(s.results, "");
	assert_int_equal(st.entries, 2);
	assert_int_equal(st.unread, 5);
	assert_int_equal(st.first_unread, 2);
}

static void test_long_line(void **state)
{
	size_t n = LAVA_LOG_LINE_MAX + 100;
	char *log = malloc(n + 200);
	struct lava_log_stats st;
	struct seen s;
	size_t head;

	(void)state;
	assert_non_null(log);
	strcpy(log, "{\"lvl\": \"target\", \"msg\": \"");
	head = strlen(log);
	memset(log + head, 'x', n);
	log[head + n] = '\0';
	strcat(log, "\"}\n{\"lvl\": \"target\", \"msg\": \"after\"}\n");
	read_text(log, &s, &st);
	assert_string_equal(s.targets, "after|");
	assert_int_equal(st.unread, 1);
	assert_int_equal(st.first_unread, 1);
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_odd_lines),
		cmocka_unit_test(test_long_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
