// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench list - what can be run and counted here: workloads, suites,
 * THP modes, the hugetlb pools and mTHP sizes (read under the mm sysfs
 * root, $THPBENCH_SYSFS_ROOT for tests), the events that open, and what
 * `-e tlb` expands to on this CPU (or the one LIBPFM_FORCE_PMU names).
 * `thpbench list --platform`: the platform facts alone, as JSON.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "measure/event_list.h"
#include "measure/events.h"
#include "measure/plan.h"
#include "measure/tlb_profile.h"
#include "measure/platform.h"
#include "system/settings.h"
#include "util/util.h"

static void list_dir(const char *dir, const char *suffix, bool want_exec)
{
	struct dirent **names;
	char path[PATH_MAX * 2];
	int i, n = scandir(dir, &names, NULL, alphasort);

	if (n < 0) {
		printf("  (cannot read %s)\n", dir);
		return;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name), slen = strlen(suffix);
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (name[0] != '.' && !stat(path, &st) && S_ISREG(st.st_mode) &&
		    (!want_exec || !access(path, X_OK)) &&
		    len > slen && !strcmp(name + len - slen, suffix))
			printf("  %s\n", path);
		free(names[i]);
	}
	free(names);
}

static void list_workloads(void)
{
	char *probe = workload_path("mremap"), *slash;

	printf("Workloads:\n");
	slash = strrchr(probe, '/');
	if (slash) {
		*slash = '\0';
		list_dir(probe, "", true);
	} else {
		printf("  (not built: run make)\n");
	}
	free(probe);
}

static int is_size_dir(const struct dirent *e)
{
	return !strncmp(e->d_name, "hugepages-", 10);
}

/* "hugepages-2048kB" -> "2048kB (2 MiB)". */
static void size_label(const char *dir, char *buf, size_t len)
{
	const char *kb = dir + 10;
	unsigned long v = strtoul(kb, NULL, 10);

	if (v && v % (1024 * 1024) == 0)
		snprintf(buf, len, "%s (%lu GiB)", kb, v / (1024 * 1024));
	else if (v && v % 1024 == 0)
		snprintf(buf, len, "%s (%lu MiB)", kb, v / 1024);
	else
		snprintf(buf, len, "%s (%lu KiB)", kb, v);
}

/* rel/dir/knob under root, or fallback when it cannot be read. */
static void size_knob(const char *root, const char *rel, const char *dir,
		      const char *knob, char *buf, size_t len,
		      const char *fallback)
{
	char name[PATH_MAX];

	snprintf(name, sizeof(name), "%s/%s/%s", rel, dir, knob);
	if (knob_read(root, name, buf, len))
		snprintf(buf, len, "%s", fallback);
}

/* Where the per-size directories are, and the two knobs shown of each. */
struct size_listing {
	const char *rel;	/* under the mm sysfs root */
	const char *none;	/* why there may be none */
	const char *knob[2], *label[2];
	const char *fallback;	/* shown for a knob that cannot be read */
};

static const struct size_listing hugetlb_pools = {
	"hugepages", "no hugetlb in this kernel",
	{ "nr_hugepages", "free_hugepages" }, { "nr_hugepages", "free" }, "?",
};

static const struct size_listing mthp_sizes = {
	"transparent_hugepage", "a kernel before 6.8 has PMD-size THP only",
	{ "enabled", "shmem_enabled" }, { "anon", "shmem" }, "-",
};

/* A line per hugepages-<N>kB directory, smallest first. */
static void list_sizes(const char *root, const struct size_listing *l)
{
	char dir[PATH_MAX], label[64], v[2][32];
	struct dirent **ents;
	int i, k, n;

	snprintf(dir, sizeof(dir), "%s/%s", root, l->rel);
	n = scandir(dir, &ents, is_size_dir, versionsort);
	if (n <= 0)
		printf("  none (%s)\n", l->none);
	for (i = 0; i < n; i++) {
		size_label(ents[i]->d_name, label, sizeof(label));
		for (k = 0; k < 2; k++)
			size_knob(root, l->rel, ents[i]->d_name, l->knob[k],
				  v[k], sizeof(v[k]), l->fallback);
		printf("  %-22s %s %-8s %s %s\n", label, l->label[0], v[0],
		       l->label[1], v[1]);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

static void list_hugetlb(const char *root)
{
	printf("\nhugetlb pools (%s/hugepages):\n", root);
	list_sizes(root, &hugetlb_pools);
}

static void list_mthp(const char *root)
{
	printf("\nmTHP sizes (%s/transparent_hugepage/hugepages-*kB/enabled and\n"
	       "  shmem_enabled; inherit = follows the top-level file; - = not offered):\n",
	       root);
	list_sizes(root, &mthp_sizes);
}

static void list_settings(void)
{
	struct settings_ctx ctx;
	char modes[8][16], cur[64] = "?";
	int i, n;

	settings_init(&ctx, NULL, NULL);
	n = thp_modes_available(ctx.root, modes, 8);
	knob_read(ctx.root, "transparent_hugepage/enabled", cur, sizeof(cur));
	printf("\nTHP modes (%s/transparent_hugepage/enabled):", ctx.root);
	for (i = 0; i < n; i++)
		printf(" %s%s", modes[i], strcmp(modes[i], cur) ? "" : " (current)");
	printf("\n  can change settings: %s\n", geteuid() == 0 &&
	       settings_writable(&ctx) ? "yes" : "no (not root): current mode only");
	list_mthp(ctx.root);
	list_hugetlb(ctx.root);
	settings_free(&ctx);
}

/*
 * --platform: the facts that bound a claim here (platform.h), as a run's
 * env.platform records them; ab.sh names the host's hypervisor from it.
 */
static int list_platform(void)
{
	json_t *p = platform_collect(NULL);
	char *text = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);

	json_decref(p);
	if (!text) {
		tb_err("cannot write the platform facts as JSON");
		return TB_EXIT_ERROR;
	}
	printf("%s\n", text);
	free(text);
	return 0;
}

/* --hypervisor: the host's hypervisor as the kernel saw it, or "none"
 * on bare metal, one line (ab.sh records it; it reads no JSON). */
static int list_hypervisor(void)
{
	json_t *p = platform_collect(NULL);
	json_t *virt = json_object_get(p, "virt");
	const char *hv = json_string_value(json_object_get(virt, "hypervisor"));

	printf("%s\n", json_is_true(json_object_get(virt, "vm")) && hv && *hv ?
	       hv : "none");
	json_decref(p);
	return 0;
}

static const char list_usage[] =
	"usage: thpbench list [--platform | --hypervisor]\n"
	"  The workloads, suites, huge-page settings and events usable here,\n"
	"  and the TLB profile of this CPU.\n"
	"  --platform  what bounds a claim here (VM or bare metal, page-table\n"
	"              mode), as JSON\n"
	"  --hypervisor  the hypervisor the kernel detected, or none\n"
	"  THPBENCH_TLB_MODEL=KEY shows another CPU model's TLB profile (the\n"
	"  keys are listed at the end; docs/tlb-profiles.md).\n";

int cmd_list(int argc, char **argv)
{
	char err[512];

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(list_usage, stdout);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--platform"))
		return list_platform();
	if (argc == 2 && !strcmp(argv[1], "--hypervisor"))
		return list_hypervisor();
	if (argc > 1) {
		tb_err("list takes no arguments but --platform (what bounds a claim here, as JSON) or --hypervisor");
		return TB_EXIT_ERROR;
	}
	if (tlb_model_check(err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	list_workloads();
	printf("\nSuites:\n");
	list_dir("configs", ".conf", false);
	list_settings();
	printf("\nEvents:\n");
	events_init();
	events_print_usable();
	printf("\n");
	events_print_tlb_profile(stdout);
	return 0;
}
