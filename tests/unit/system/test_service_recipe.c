// SPDX-License-Identifier: GPL-2.0-only
/*
 * service_recipe: every form the grammar allows parses to the fields it
 * names (defaults where it names none); everything else - another
 * program, an option of redis, an unknown, repeated, empty or malformed
 * option, a size out of range, an over-long spec - is refused with a
 * message naming it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "system/service_recipe.h"

static void test_accepts(void **state)
{
	struct svc_recipe r;
	char err[256];

	(void)state;
	assert_int_equal(svc_recipe_parse("redis", &r, err, sizeof(err)), 0);
	assert_int_equal(r.prog, SVC_REDIS);
	assert_int_equal(svc_recipe_parse("postgres", &r, err, sizeof(err)), 0);
	assert_int_equal(r.prog, SVC_POSTGRES);
	assert_int_equal(r.huge_pages, SVC_HUGE_OFF);
	assert_true(r.shared_buffers == SVC_SHARED_BUFFERS_DEF);
	assert_int_equal(svc_recipe_parse("postgres:huge_pages=on,shared_buffers=256M",
					  &r, err, sizeof(err)), 0);
	assert_int_equal(r.huge_pages, SVC_HUGE_ON);
	assert_true(r.shared_buffers == 256ULL << 20);
	assert_int_equal(svc_recipe_parse("postgres:shared_buffers=1G,huge_pages=try",
					  &r, err, sizeof(err)), 0);
	assert_int_equal(r.huge_pages, SVC_HUGE_TRY);
	assert_true(r.shared_buffers == 1ULL << 30);
	assert_int_equal(svc_recipe_parse("postgres:huge_pages=off", &r, err,
					  sizeof(err)), 0);
	assert_int_equal(r.huge_pages, SVC_HUGE_OFF);
	assert_string_equal(svc_huge_name(SVC_HUGE_TRY), "try");
	assert_string_equal(svc_prog_name(SVC_POSTGRES), "postgres");
}

static void refused(const char *spec, const char *says)
{
	struct svc_recipe r;
	char err[256] = "";

	assert_int_equal(svc_recipe_parse(spec, &r, err, sizeof(err)), -1);
	if (!strstr(err, says))
		fail_msg("\"%s\": \"%s\" does not say \"%s\"", spec, err, says);
}

static void test_refuses(void **state)
{
	char longspec[400];

	(void)state;
	refused("", "is not a service");
	refused("mysql", "\"mysql\" is not a service");
	refused("Redis", "is not a service");
	refused("redis:", "redis takes no options");
	refused("redis:maxmemory=1G", "redis takes no options");
	refused("postgres:", "an empty option");
	refused("postgres:huge_pages=on,", "an empty option");
	refused("postgres:huge_pages=on,,shared_buffers=1G", "an empty option");
	refused("postgres:huge_pages", "is not OPT=VALUE");
	refused("postgres:huge_pages=yes", "huge_pages \"yes\" is not on, off or try");
	refused("postgres:huge_pages=on,huge_pages=off", "huge_pages given twice");
	refused("postgres:shared_buffers=1G,shared_buffers=2G", "given twice");
	refused("postgres:shared_buffers=512k", "not a size from 1M to 64G");
	refused("postgres:shared_buffers=65G", "not a size from 1M to 64G");
	refused("postgres:shared_buffers=lots", "not a size");
	refused("postgres:shared_buffers=-1M", "not a size");
	refused("postgres:work_mem=4M", "unknown postgres option \"work_mem\"");
	refused("postgres:huge_pages=on;rm -rf /", "is not on, off or try");
	memset(longspec, 'a', sizeof(longspec) - 1);
	longspec[sizeof(longspec) - 1] = '\0';
	memcpy(longspec, "postgres:", 9);
	refused(longspec, "longer than");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepts),
		cmocka_unit_test(test_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
