// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which hypervisor, and whether page-table writes are emulated, judged on
 * recorded inputs: a kernel log recorded on a KVM (Firecracker) guest whose
 * kernel also carries the PVM guest code, not detected
 * (tests/fixtures/platform/kvm-firecracker.dmesg), and constructed ones
 * for hosts this machine is not: PVM guests (the lines the PVM guest code
 * prints, a cpuid that names another hypervisor), Xen PV, QEMU TCG, bare
 * metal. Never the live host alone: its hypervisor varies.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/hypervisor.h"
#include "measure/platform.h"
#include "util/util.h"

#define FIXTURE "tests/fixtures/platform/"

static char *fixture(const char *name)
{
	char path[256], *text;
	size_t len;

	snprintf(path, sizeof(path), FIXTURE "%s", name);
	text = read_whole_file(path, &len);
	assert_non_null(text);
	return text;
}

static void judge(const char *log, const char *cpuid, const char *flags,
		  struct hv_facts *f)
{
	struct hv_inputs in = { .kernel_log = log, .cpuid = cpuid,
				.cpu_flags = flags };

	hypervisor_judge(&in, f);
}

/* Recorded: KVM; the kernel's "pvm-pv: not detected" and the host
 * module's "kvm-pvm:" lines are not a PVM guest. */
static void test_recorded_kvm(void **state)
{
	char *log = fixture("kvm-firecracker.dmesg");
	struct hv_facts f;

	(void)state;
	judge(log, "KVMKVMKVM", "fpu vme hypervisor pcid", &f);
	assert_true(f.vm);
	assert_string_equal(f.name, "KVM");
	assert_string_equal(f.from, "kernel log: Hypervisor detected: KVM");
	assert_int_equal(f.pt, PT_NESTED);
	assert_non_null(strstr(f.pt_why, "THPBENCH_PAGE_TABLES=emulated"));
	free(log);
}

/*
 * A PVM guest: user-space cpuid answers for the hypervisor below (the
 * "bhyve bhyve" that once named a PVM host); the kernel's own lines win,
 * and the signature is kept beside the name.
 */
static void test_pvm_named_by_the_kernel(void **state)
{
	static const char *const logs[] = {
		"[    0.000000] Hypervisor detected: KVM\n"
		"[    0.148971] pvm-pv: detected, 52/52 sites patched\n",
		"6,12,0,-;pvm-guest: PVM guest in range 0xffffd90000000000\n",
		"[    0.000000] Hypervisor detected: PVM\n",
		"[    0.051462] Booting paravirtualized kernel on PVM\n",
	};
	/* the line quoted as the kernel printed it */
	static const char *const from[] = {
		"kernel log: pvm-pv: detected, 52/52 sites patched",
		"kernel log: pvm-guest: PVM guest in range 0xffffd90000000000",
		"kernel log: Hypervisor detected: PVM",
		"kernel log: Booting paravirtualized kernel on PVM",
	};
	struct hv_facts f;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(logs); i++) {
		judge(logs[i], "bhyve bhyve ", "fpu hypervisor", &f);
		assert_string_equal(f.name, "PVM");
		assert_string_equal(f.from, from[i]);
		assert_string_equal(f.cpuid, "bhyve bhyve");
		assert_int_equal(f.pt, PT_EMULATED);
		assert_non_null(strstr(f.pt_why, "shadows"));
	}
	/* No log (dmesg restricted): the cpuinfo flag still tells. */
	judge(NULL, "bhyve bhyve ", "fpu hypervisor kvm_pvm_guest", &f);
	assert_string_equal(f.name, "PVM");
	assert_int_equal(f.pt, PT_EMULATED);
}

/* Without the kernel's word, cpuid names a known hypervisor by its name. */
static void test_cpuid_fallback(void **state)
{
	struct hv_facts f;

	(void)state;
	judge(NULL, "bhyve bhyve ", "fpu hypervisor", &f);
	assert_string_equal(f.name, "bhyve");
	assert_non_null(strstr(f.from, "cpuid signature 'bhyve bhyve'"));
	assert_int_equal(f.pt, PT_NESTED);
	judge("[    0.000000] Linux version 6.1.0\n", "TCGTCGTCGTCG", "hypervisor", &f);
	assert_string_equal(f.name, "QEMU TCG");
	assert_int_equal(f.pt, PT_EMULATED);
	judge(NULL, "", "fpu hypervisor", &f);
	assert_true(f.vm);
	assert_string_equal(f.name, "an unnamed hypervisor");
	assert_string_equal(hypervisor_of_signature("Microsoft Hv"), "Hyper-V");
	assert_null(hypervisor_of_signature("NotAHyperV"));
}

static void test_xen_pv(void **state)
{
	struct hv_inputs in = { .sys_type = "xen", .sys_guest_type = "PV",
				.cpuid = "", .cpu_flags = "fpu" };
	struct hv_facts f;

	(void)state;
	judge("[    0.000000] Hypervisor detected: Xen PV\n", "", "fpu", &f);
	assert_string_equal(f.name, "Xen PV");
	assert_int_equal(f.pt, PT_EMULATED);
	hypervisor_judge(&in, &f);
	assert_string_equal(f.name, "Xen PV");
	assert_string_equal(f.from, "/sys/hypervisor/type and guest_type");
	assert_int_equal(f.pt, PT_EMULATED);
	in.sys_guest_type = "HVM";
	hypervisor_judge(&in, &f);
	assert_int_equal(f.pt, PT_NESTED);
}

static void test_bare_metal(void **state)
{
	struct hv_facts f;

	(void)state;
	judge("[    0.000000] Booting paravirtualized kernel on bare hardware\n",
	      "", "fpu vme pcid", &f);
	assert_false(f.vm);
	assert_string_equal(f.name, "");
	assert_int_equal(f.pt, PT_NATIVE);
	assert_string_equal(page_tables_name(f.pt), "native");
}

/* The operator's word for what a guest cannot see; nonsense is ignored. */
static void test_override(void **state)
{
	struct hv_inputs in = { .kernel_log = "Hypervisor detected: KVM\n",
				.cpuid = "KVMKVMKVM", .override = "emulated" };
	struct hv_facts f;

	(void)state;
	hypervisor_judge(&in, &f);
	assert_int_equal(f.pt, PT_EMULATED);
	assert_non_null(strstr(f.pt_why, "THPBENCH_PAGE_TABLES=emulated"));
	in.override = "shadow;rm -rf /";
	hypervisor_judge(&in, &f);
	assert_int_equal(f.pt, PT_NESTED);
	assert_non_null(strstr(f.pt_why, "ignored"));
}

/* Hostile log text: control bytes are not copied into the name. */
static void test_hostile_log(void **state)
{
	struct hv_facts f;

	(void)state;
	judge("Hypervisor detected: \x1b[31mEvil\x07\n", "", "", &f);
	assert_null(strchr(f.name, '\x1b'));
	assert_null(strchr(f.from, '\x07'));
}

/* dir/rel holding text, its folders made. */
static void put(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	*strrchr(path, '/') = 0;
	assert_int_equal(mkdir_p(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static const char *jget(const json_t *o, const char *a, const char *b)
{
	return json_string_value(json_object_get(json_object_get(o, a), b));
}

/* The whole path: a fake tree with /dev/kmsg records, cpuinfo and sysfs. */
static void test_platform_collect_fake_tree(void **state)
{
	char dir[] = "/tmp/thpbench-platform-XXXXXX", cmd[128];
	json_t *o;

	(void)state;
	assert_non_null(mkdtemp(dir));
	unsetenv("THPBENCH_PAGE_TABLES");
	put(dir, "dev/kmsg", "6,0,0,-;Linux version 6.18.44\n"
	    " SUBSYSTEM=cpu\n"
	    "6,1,0,-;Hypervisor detected: KVM\n"
	    "6,2,0,-;pvm-pv: detected, 52/52 sites patched\n");
	put(dir, "proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu hypervisor\n");
	o = platform_collect(dir);
	assert_string_equal(jget(o, "virt", "hypervisor"), "PVM");
	assert_string_equal(jget(o, "page_tables", "mode"), "emulated");
	assert_true(json_is_true(json_object_get(json_object_get(o, "virt"), "vm")));
	json_decref(o);
	put(dir, "dev/kmsg", "");
	put(dir, "sys/hypervisor/type", "xen\n");
	put(dir, "sys/hypervisor/guest_type", "PV\n");
	o = platform_collect(dir);
	assert_string_equal(jget(o, "virt", "hypervisor"), "Xen PV");
	assert_string_equal(jget(o, "page_tables", "mode"), "emulated");
	json_decref(o);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_kvm),
		cmocka_unit_test(test_pvm_named_by_the_kernel),
		cmocka_unit_test(test_cpuid_fallback),
		cmocka_unit_test(test_xen_pv),
		cmocka_unit_test(test_bare_metal),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_hostile_log),
		cmocka_unit_test(test_platform_collect_fake_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
