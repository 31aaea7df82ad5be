// SPDX-License-Identifier: GPL-2.0-only
/*
 * How much memory there is, and how this process's memory is backed.
 * The backing figures let the harness tell a run that really used huge
 * pages from one that silently fell back to base pages.
 */
#include "wl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "Name:   123 kB" -> 123 when the line is about name. */
static int field_kb(const char *line, const char *name, long long *kb)
{
	size_t len = strlen(name);

	if (strncmp(line, name, len) || line[len] != ':')
		return 0;
	return sscanf(line + len + 1, "%lld", kb) == 1;
}

long long wl_meminfo_kb(const char *field)
{
	FILE *f = fopen("/proc/meminfo", "r");
	long long kb = -1;
	char line[256];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (field_kb(line, field, &kb))
			break;
	fclose(f);
	return kb;
}

static void check_against(uint64_t bytes, const char *what, const char *field)
{
	long long kb = wl_meminfo_kb(field);
	char want[32], have[32];

	if (kb < 0) {
		wl_warn("cannot read %s from /proc/meminfo; not checking that %s fits",
			field, what);
		return;
	}
	if (bytes / 1024 <= (uint64_t)kb)
		return;
	wl_die("%s needs %s but %s in /proc/meminfo is %s; use a smaller size",
	       what, wl_fmt_size(bytes, want, sizeof(want)), field,
	       wl_fmt_size((uint64_t)kb * 1024, have, sizeof(have)));
}

void wl_check_memory(uint64_t bytes, const char *what)
{
	check_against(bytes, what, "MemAvailable");
}

void wl_check_memory_total(uint64_t bytes, const char *what)
{
	check_against(bytes, what, "MemTotal");
}

int wl_self_mem(struct wl_self_mem *m)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	long long shared = 0, priv = 0;
	char line[256];

	m->rss_kb = m->anon_huge_kb = m->hugetlb_kb = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		field_kb(line, "Rss", &m->rss_kb);
		field_kb(line, "AnonHugePages", &m->anon_huge_kb);
		field_kb(line, "Shared_Hugetlb", &shared);
		field_kb(line, "Private_Hugetlb", &priv);
	}
	fclose(f);
	m->hugetlb_kb = shared + priv;
	return m->rss_kb < 0 || m->anon_huge_kb < 0 ? -1 : 0;
}

void wl_report_kb(const char *name, long long kb)
{
	if (kb < 0)
		return;
	printf("%s %lld\n", name, kb);
	wl_metric(name, (double)kb);
}

void wl_report_self_mem(void)
{
	struct wl_self_mem m;

	if (wl_self_mem(&m))
		wl_warn("cannot read /proc/self/smaps_rollup; memory backing not reported");
	wl_report_kb("rss_kb", m.rss_kb);
	wl_report_kb("anon_huge_kb", m.anon_huge_kb);
	wl_report_kb("hugetlb_kb", m.rss_kb < 0 ? -1 : m.hugetlb_kb);
}

long long wl_range_kb(const void *addr, size_t len, const char *field)
{
	unsigned long lo = (unsigned long)addr, hi = lo + len, s, e;
	FILE *f = fopen("/proc/self/smaps", "r");
	long long sum = 0, kb;
	char line[512];
	int in = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &s, &e) == 2) {
			in = s < hi && e > lo;
			continue;
		}
		if (in && field_kb(line, field, &kb))
			sum += kb;
	}
	fclose(f);
	return sum;
}

long long wl_range_anon_huge_kb(const void *addr, size_t len)
{
	return wl_range_kb(addr, len, "AnonHugePages");
}
