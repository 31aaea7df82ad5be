// SPDX-License-Identifier: GPL-2.0-only
/*
 * lava_job.h: the document parses back as JSON (LAVA reads it as YAML)
 * with the qemu deploy to tmpfs, LAVA's overlay appended to the cpio
 * ramdisk, the kernel command line holding thpbench.shell=1 and the
 * label, the boot waiting for init's prompt and the test running
 * /bin/thpbench-lava-test; bare-metal boots deploy to tftp and put the
 * command line in extra_kernel_args; hostile values (a quote or newline
 * in a path, a shell word in the command line, a relative path, a bad
 * metadata key) are refused, nothing written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/lava_job.h"

static struct lava_job base(void)
{
	struct lava_job j = { .name = "thpbench-A", .device_type = "qemu", .arch = "amd64",
			      .kernel = "/k/bzImage", .ramdisk = "http://lab/i.gz",
			      .cmdline = "console=ttyS0,115200", .label = "6.1.0-tb-1",
			      .no_kvm = true, .timeout_min = 20, .nmeta = 1,
			      .meta_key = { "thpbench.suite" }, .meta_val = { "quick \"x\"" } };

	return j;
}

static json_t *render(const struct lava_job *j)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *o;

	assert_int_equal(lava_job_write(f, j, err, sizeof(err)), 0);
	fclose(f);
	o = json_loads(buf, 0, NULL);
	free(buf);
	assert_non_null(o);
	return o;
}

static json_t *at(json_t *o, const char *path)
{
	char p[256], *save = NULL, *k;

	snprintf(p, sizeof(p), "%s", path);
	for (k = strtok_r(p, "/", &save); k && o; k = strtok_r(NULL, "/", &save))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
	return o;
}

static const char *str_at(json_t *o, const char *path)
{
	return json_string_value(at(o, path));
}

static void test_qemu(void **state)
{
	struct lava_job j = base();
	json_t *o = render(&j);

	(void)state;
	assert_string_equal(str_at(o, "device_type"), "qemu");
	assert_true(json_is_true(at(o, "context/no_kvm")));
	assert_string_equal(str_at(o, "actions/0/deploy/to"), "tmpfs");
	assert_string_equal(str_at(o, "actions/0/deploy/images/kernel/url"), "file:///k/bzImage");
	assert_string_equal(str_at(o, "actions/0/deploy/images/kernel/image_arg"),
			    "-kernel {kernel} -append \"console=ttyS0,115200 thpbench.shell=1 thpbench.label=6.1.0-tb-1\"");
	assert_string_equal(str_at(o, "actions/0/deploy/images/ramdisk/url"), "http://lab/i.gz");
	assert_string_equal(str_at(o, "actions/0/deploy/images/ramdisk/format"), "cpio.newc");
	assert_true(json_is_true(at(o, "actions/0/deploy/images/ramdisk/overlays/lava")));
	assert_string_equal(str_at(o, "actions/1/boot/method"), "qemu");
	assert_string_equal(str_at(o, "actions/1/boot/prompts/0"), "thpbench-lava# ");
	assert_string_equal(str_at(o, "actions/2/test/definitions/0/repository/run/steps/0"),
			    "/bin/thpbench-lava-test");
	assert_string_equal(str_at(o, "metadata/thpbench.suite"), "quick \"x\"");
	assert_string_equal(str_at(o, "metadata/thpbench.label"), "6.1.0-tb-1");
	assert_null(at(o, "context/extra_kernel_args"));
	json_decref(o);
}

static void test_baremetal(void **state)
{
	struct lava_job j = base();
	json_t *o;

	(void)state;
	j.boot = LAVA_BOOT_IPXE;
	j.device_type = "x86";
	o = render(&j);
	assert_string_equal(str_at(o, "actions/0/deploy/to"), "tftp");
	assert_string_equal(str_at(o, "actions/0/deploy/kernel/type"), "bzimage");
	assert_string_equal(str_at(o, "actions/1/boot/method"), "ipxe");
	assert_string_equal(str_at(o, "actions/1/boot/commands"), "ramdisk");
	assert_string_equal(str_at(o, "context/extra_kernel_args"),
			    "console=ttyS0,115200 thpbench.shell=1 thpbench.label=6.1.0-tb-1");
	json_decref(o);
	assert_int_equal(lava_boot_parse("u-boot"), LAVA_BOOT_UBOOT);
	assert_int_equal(lava_boot_parse("pxe"), -1);
}

static void refused(struct lava_job j)
{
	char *buf = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(lava_job_write(f, &j, err, sizeof(err)), -1);
	fclose(f);
	assert_int_equal(len, 0);
	assert_non_null(strstr(err, "refused"));
	free(buf);
}

static void test_hostile(void **state)
{
	struct lava_job j;

	(void)state;
	j = base(); j.kernel = "/k/bz\"Image"; refused(j);
	j = base(); j.kernel = "/k/bz\nImage"; refused(j);
	j = base(); j.kernel = "k/bzImage"; refused(j);
	j = base(); j.kernel = "ftp://x/bz"; refused(j);
	j = base(); j.ramdisk = "http://lab/{kernel}"; refused(j);
	j = base(); j.cmdline = "console=ttyS0 $(reboot)"; refused(j);
	j = base(); j.cmdline = "a\" -append \"b"; refused(j);
	j = base(); j.label = "A B"; refused(j);
	j = base(); j.label = ""; refused(j);
	j = base(); j.name = "x;y"; refused(j);
	j = base(); j.meta_key[0] = "a b"; refused(j);
	j = base(); j.meta_val[0] = "line\nbreak"; refused(j);
	j = base(); j.timeout_min = 0; refused(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu),
		cmocka_unit_test(test_baremetal),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
