// SPDX-License-Identifier: GPL-2.0-only
#include "env.h"

#include <gnu/libc-version.h>
#include <linux/perf_event.h>
#include <numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "util/hash.h"
#include "kconfig.h"
#include "platform.h"
#include "tlb_profile.h"
#include "util/util.h"

bool env_has_pmu(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* glibc.malloc.hugetlb arrived in 2.35 (seed 002; the posting's
 * thp_pagesize name never shipped). Older glibc ignores the tunable. */
bool glibc_has_hugetlb_tunable(void)
{
	unsigned int major = 0, minor = 0;

	if (sscanf(gnu_get_libc_version(), "%u.%u", &major, &minor) != 2)
		return false;
	return major > 2 || (major == 2 && minor >= 35);
}

/* The first "KEY : value" of /proc/cpuinfo for key, or dflt. */
static void cpuinfo_field(const char *key, const char *dflt, char *buf,
			  size_t len)
{
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "re");

	snprintf(buf, len, "%s", dflt);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, klen) || !colon ||
		    (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
			continue;
		snprintf(buf, len, "%s", str_trim(colon + 1));
		break;
	}
	fclose(f);
}

static long meminfo_kb(const char *key)
{
	char line[256];
	long v = -1;
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/*
 * "sha256:<hex>" of the kernel config, so results can say "same config":
 * /proc/config.gz (the running kernel's own, CONFIG_IKCONFIG_PROC) or
 * /boot/config-RELEASE; the digest is of the text either way, the one
 * sha256sum(1) gives for the .config (and the A/B flow's config_sha256).
 */
static json_t *config_hash(const char *release)
{
	char hex[HASH_SHA256_HEX], val[80], source[4096];
	size_t len;
	char *text = kconfig_read(NULL, release, &len, source, sizeof(source));

	if (!text || hash_sha256(text, len, hex)) {
		free(text);
		return json_null();
	}
	free(text);
	snprintf(val, sizeof(val), "sha256:%s", hex);
	return json_string(val);
}

/* A one-line file as a string, or null when it cannot be read. */
static json_t *file_or_null(const char *path)
{
	char buf[4096];

	if (read_file_str(path, buf, sizeof(buf)))
		return json_null();
	return json_string(str_trim(buf));
}

static void add_knobs(json_t *env, const struct snapshot *snap)
{
	json_t *thp = json_object(), *htlb = json_object();
	const char *thp_pfx = "transparent_hugepage/";
	const char *htlb_pfx = "hugepages/hugepages-";
	size_t i;

	for (i = 0; i < snap->n; i++) {
		const char *name = snap->v[i].name, *val = snap->v[i].value;
		long n;

		if (!strncmp(name, thp_pfx, strlen(thp_pfx))) {
			json_object_set_new(thp, name + strlen(thp_pfx),
					    json_string(val));
		} else if (!strncmp(name, htlb_pfx, strlen(htlb_pfx)) &&
			   strstr(name, "/nr_hugepages") && !parse_long(val, &n)) {
			char size[32];

			snprintf(size, sizeof(size), "%.*s",
				 (int)strcspn(name + strlen(htlb_pfx), "/"),
				 name + strlen(htlb_pfx));
			json_object_set_new(htlb, size, json_integer(n));
		}
	}
	json_object_set_new(env, "thp", thp);
	json_object_set_new(env, "hugetlb", htlb);
}

static json_t *iso_now(void)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(buf);
}

json_t *env_collect(const char *sysfs_root, const struct snapshot *snap)
{
	json_t *env = json_object();
	struct snapshot own = { 0 };
	struct tlb_host tlb;
	struct utsname u;
	char cpu[256], microcode[64], err[256];

	uname(&u);
	cpuinfo_field("model name", "unknown", cpu, sizeof(cpu));
	cpuinfo_field("microcode", "", microcode, sizeof(microcode));
	json_object_set_new(env, "kernel", json_string(u.release));
	json_object_set_new(env, "kernel_version", json_string(u.version));
	json_object_set_new(env, "proc_version", file_or_null("/proc/version"));
	json_object_set_new(env, "cmdline", file_or_null("/proc/cmdline"));
	json_object_set_new(env, "kernel_config", config_hash(u.release));
	json_object_set_new(env, "machine", json_string(u.machine));
	json_object_set_new(env, "hostname", json_string(u.nodename));
	json_object_set_new(env, "cpu", json_string(cpu));
	json_object_set_new(env, "microcode", *microcode ? json_string(microcode) : json_null());
	json_object_set_new(env, "governor",
			    file_or_null("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
	json_object_set_new(env, "nr_cpus",
			    json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(env, "mem_total_kb", json_integer(meminfo_kb("MemTotal")));
	json_object_set_new(env, "numa_nodes", json_integer(numa_available() < 0 ?
				    1 : numa_num_configured_nodes()));
	json_object_set_new(env, "glibc", json_string(gnu_get_libc_version()));
	json_object_set_new(env, "glibc_malloc_hugetlb", json_boolean(glibc_has_hugetlb_tunable()));
	json_object_set_new(env, "pmu", json_boolean(env_has_pmu()));
	tlb_host_detect(&tlb);
	json_object_set_new(env, "tlb_profile", tlb_host_json(&tlb));
	json_object_set_new(env, "root", json_boolean(geteuid() == 0));
	json_object_set_new(env, "platform", platform_collect(NULL));
	if (!snap && !snapshot_take(sysfs_root, &own, err, sizeof(err)))
		snap = &own;
	if (snap)
		add_knobs(env, snap);
	snapshot_free(&own);
	json_object_set_new(env, "started", iso_now());
	return env;
}
