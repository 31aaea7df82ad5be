// SPDX-License-Identifier: GPL-2.0-only
/*
 * A bisection's directory as untrusted input (issue 36): the trust check
 * (bisect_dir.h, row 1 and 8), plan.json validated in full by
 * bisect_state's reader (row 5), a FIFO refused without blocking (row 6),
 * a parse error that does not echo the file (row 7), over a scratch
 * directory with the files the driver writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect/bisect_dir.h"
#include "bisect/bisect_planfile.h"
#include "bisect/bisect_state.h"
#include "util/util.h"

#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SHA_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define SHA_C "cccccccccccccccccccccccccccccccccccccccc"

static char dir[64];

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void plan_of(const char *c0, const char *c1, const char *c2)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"schema\": \"thpbench-bisect-plan/1\", \"case\": \"mremap\","
		 " \"metric\": \"roi_usec\", \"commits\": [{\"sha\": \"%s\"},"
		 " {\"sha\": \"%s\"}, {\"sha\": \"%s\"}]}\n", c0, c1, c2);
	put("plan.json", text);
}

static int setup(void **state)
{
	char p[128];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/tb-bisect-dir-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/runs/0001", dir);
	assert_int_equal(mkdir_p(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/initramfs", dir);
	assert_int_equal(mkdir_p(p, 0755), 0);
	plan_of(SHA_A, SHA_B, SHA_C);
	put("runs/0001/commit", SHA_A "\n");
	put("runs/0001/skip", "build: stand-in\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwx,go-w '%s'; rm -rf '%s'", dir, dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void expect_refused(const char *what)
{
	char err[4096] = "";

	assert_int_equal(bisect_dir_check(dir, err, sizeof(err)), -1);
	if (!strstr(err, what))
		fail_msg("error \"%s\" lacks \"%s\"", err, what);
}

static void expect_load_error(const char *what)
{
	struct bisect_state s;
	char err[4096] = "";

	assert_int_equal(bisect_state_load(dir, &s, err, sizeof(err)), -1);
	if (!strstr(err, what))
		fail_msg("error \"%s\" lacks \"%s\"", err, what);
	bisect_state_free(&s);
}

static void sh(const char *fmt)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), fmt, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
}

/* issue 36 row 1: the trust check passes the driver's own files. */
static void test_dir_trusted(void **state)
{
	char err[4096] = "";
	struct bisect_state s;

	(void)state;
	sh("mkdir '%s/runs/.tmp-0002' && touch '%s/runs/.tmp-0002/build.err' '%s/.lock'");
	assert_int_equal(bisect_dir_check(dir, err, sizeof(err)), 0);
	assert_int_equal(bisect_state_load(dir, &s, err, sizeof(err)), 0);
	assert_int_equal(s.runs, 1);	/* .tmp-0002 is no run yet */
	bisect_state_free(&s);
}

/* issue 36 row 1 and 8: links, FIFOs, foreign modes, stray run names. */
static void test_dir_refused(void **state)
{
	(void)state;
	sh("ln -s /etc/passwd '%s/.lock'");
	expect_refused(".lock is a symbolic link");
	sh("rm '%s/.lock' && mkfifo '%s/runs/0001/results.json'");
	expect_refused("runs/0001/results.json is a FIFO");
	sh("rm '%s/runs/0001/results.json' && mkdir '%s/runs/0004x'");
	expect_refused("runs/0004x is no run directory");
	sh("rmdir '%s/runs/0004x' && mkdir '%s/runs/00012'");
	expect_refused("runs/00012 is no run directory");
	sh("rmdir '%s/runs/00012' && mkdir '%s/runs/0000'");
	expect_refused("runs/0000");
	sh("rmdir '%s/runs/0000' && touch '%s/runs/0003'");
	expect_refused("runs/0003 is no run directory");
	sh("rm '%s/runs/0003' && rmdir '%s/initramfs' && ln -s /tmp '%s/initramfs'");
	expect_refused("initramfs is a symbolic link");
	sh("rm '%s/initramfs' && mkdir '%s/initramfs' && chmod o+w '%s/initramfs'");
	expect_refused("initramfs is owned by uid");
	sh("chmod o-w '%s/initramfs' && chmod g+w '%s/runs/0001/skip'");
	expect_refused("runs/0001/skip is owned by uid");
	sh("chmod g-w '%s/runs/0001/skip' && ln '%s/runs/0001/skip' '%s/hard'");
	expect_refused("has another hard link");
	sh("rm '%s/hard' && chmod g+w '%s'");
	expect_refused(dir);
	/* bisect_state_load checks first: nothing read from a refused DIR. */
	expect_load_error("owned by uid");
	sh("chmod g-w '%s'");
}

static void test_run_number(void **state)
{
	(void)state;
	assert_int_equal(bisect_run_number("0001"), 1);
	assert_int_equal(bisect_run_number("12345"), 12345);
	assert_int_equal(bisect_run_number("999999999"), 999999999);
	assert_int_equal(bisect_run_number("0000"), 0);
	assert_int_equal(bisect_run_number("001"), 0);
	assert_int_equal(bisect_run_number("00012"), 0);
	assert_int_equal(bisect_run_number("1000000000"), 0);
	assert_int_equal(bisect_run_number("0004x"), 0);
	assert_int_equal(bisect_run_number("9999+BASH_VERSINFO[$(id)]"), 0);
	assert_int_equal(bisect_run_number(""), 0);
}

/* issue 36 row 5: every commit once, each a 40-hex id, good..bad. */
static void test_plan_validated(void **state)
{
	(void)state;
	plan_of(SHA_A, SHA_B, SHA_B);
	expect_load_error("listed twice");
	plan_of(SHA_A, SHA_B, SHA_A);	/* not only commits[0]'s copy */
	expect_load_error("listed twice");
	plan_of(SHA_A, "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB", SHA_C);
	expect_load_error("full hex commit id");
	plan_of(SHA_A, SHA_B SHA_B "bbbbbbbbbbbbbbbbbbbbbbbb", SHA_C);	/* 64 digits */
	expect_load_error("full hex commit id");
	put("plan.json", "{\"schema\": \"thpbench-bisect-plan/1\", \"case\": \"mremap\","
	    " \"metric\": \"roi_usec\", \"good\": \"" SHA_B "\", \"commits\":"
	    " [{\"sha\": \"" SHA_A "\"}, {\"sha\": \"" SHA_C "\"}]}");
	expect_load_error("must run from \"good\" to \"bad\"");
}

/* issue 36 row 6 and 7: a FIFO plan is refused at once; a parse error
 * names the place and not the text. */
static void test_plan_fifo_and_secret(void **state)
{
	(void)state;
	sh("rm '%s/plan.json' && mkfifo '%s/plan.json'");
	expect_refused("plan.json is a FIFO");
	sh("rm '%s/plan.json'");
	put("plan.json", "SECRETTOKEN:$6$salt$hash:19000::::::\n");
	expect_load_error("plan.json:1:");
	{
		struct bisect_state s;
		char err[4096] = "";

		assert_int_equal(bisect_state_load(dir, &s, err, sizeof(err)), -1);
		assert_null(strstr(err, "SECRET"));
		bisect_state_free(&s);
	}
}

/* issue 36 row 4/5 (C part): the boot driver from the command line. */
static void test_driver_boot_given(void **state)
{
	struct bisect_driver_fields f;
	char err[4096] = "";

	(void)state;
	put("plan.json", "{\"schema\": \"thpbench-bisect-plan/1\", \"tree\": \"/t\","
	    " \"good\": \"" SHA_A "\", \"bad\": \"" SHA_C "\", \"driver\": {\"config\":"
	    " \"tinyconfig\", \"boot\": \"kexec\", \"accel\": \"auto\", \"mem\": \"6G\","
	    " \"smp\": 2, \"timeout\": 60, \"jobs\": 1, \"initrd\": \"\", \"orig_release\": \"\"}}");
	assert_int_equal(bisect_driver_load(dir, "qemu", &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "driver.boot is kexec, the command line says qemu"));
	bisect_driver_free(&f);
	assert_int_equal(bisect_driver_load(dir, "kexec", &f, err, sizeof(err)), 0);
	bisect_driver_free(&f);
	put("plan.json", "{\"schema\": \"thpbench-bisect-plan/1\", \"tree\": \"/t\","
	    " \"good\": \"" SHA_A "\", \"bad\": \"" SHA_C "\", \"driver\": {\"config\":"
	    " \"tinyconfig\", \"boot\": \"kexec\", \"accel\": \"auto\", \"mem\": \"6G\","
	    " \"smp\": 2, \"timeout\": 60, \"jobs\": 1, \"initrd\": \"--initrd=/etc/shadow\","
	    " \"orig_release\": \"\"}}");
	assert_int_equal(bisect_driver_load(dir, "kexec", &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "plain names or paths"));
	bisect_driver_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dir_trusted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dir_refused, setup, teardown),
		cmocka_unit_test(test_run_number),
		cmocka_unit_test_setup_teardown(test_plan_validated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_fifo_and_secret, setup, teardown),
		cmocka_unit_test_setup_teardown(test_driver_boot_given, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
