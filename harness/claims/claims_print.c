// SPDX-License-Identifier: GPL-2.0-only
/* The claim table as printed after a suite run (claims.h). */
#include "claims.h"

#include <string.h>

#include "measure/hypervisor.h"

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static const json_t *jpath(const json_t *o, const char *a, const char *b)
{
	return json_object_get(json_object_get(o, a), b);
}

/* "a VM: PVM (kernel log: ...; cpuid signature 'bhyve bhyve', not what
 * the kernel detected)", or the older files' "a VM (hypervisor X, ...)". */
static void print_virt(FILE *f, const json_t *virt)
{
	const char *name = jstr(virt, "hypervisor"), *sig = jstr(virt, "cpuid");
	bool other = *sig && strcmp(name, sig) &&
		     (!hypervisor_of_signature(sig) ||
		      strcmp(hypervisor_of_signature(sig), name));

	if (!json_is_true(json_object_get(virt, "vm"))) {
		fprintf(f, "             %s (%s)\n", virt ? "bare metal" :
			"machine kind unknown", *jstr(virt, "from") ?
			jstr(virt, "from") : "not recorded");
		return;
	}
	if (!*name) {
		fprintf(f, "             a VM (%s)\n", jstr(virt, "how"));
		return;
	}
	fprintf(f, "             a VM: %s (%s%s%s%s)\n", name, jstr(virt, "from"),
		*sig ? "; cpuid signature '" : "", sig,
		!*sig ? "" : other ? "', not what the kernel detected" : "'");
}

static void print_page_tables(FILE *f, const json_t *pt)
{
	const char *mode = jstr(pt, "mode");

	if (!strcmp(mode, "emulated"))
		fprintf(f, "             page-table writes are emulated (%s): timing "
			"verdicts on page-table-heavy claims are withheld\n",
			jstr(pt, "why"));
	else if (!strcmp(mode, "nested"))
		fprintf(f, "             page tables: hardware nested paging "
			"presumed (EPT/NPT; THPBENCH_PAGE_TABLES=emulated if not)\n");
}

/* What bounds every verdict below it: the machine the run was made on. */
static void print_env(FILE *f, const json_t *env)
{
	const json_t *plat = json_object_get(env, "platform");
	const json_t *order = jpath(plat, "page_reporting", "order");
	json_int_t nodes = json_integer_value(json_object_get(env, "numa_nodes"));

	if (!env)
		return;
	fprintf(f, "Measured on: kernel %s; %lld CPUs; %lld NUMA node%s; %s\n",
		jstr(env, "kernel"),
		(long long)json_integer_value(json_object_get(env, "nr_cpus")),
		(long long)nodes, nodes == 1 ? "" : "s",
		json_is_true(json_object_get(env, "pmu")) ?
		"hardware PMU usable" : "no usable PMU (TLB-miss claims not measurable)");
	if (*jstr(json_object_get(env, "tlb_profile"), "model"))
		fprintf(f, "             TLB events (-e tlb): %s%s%s%s\n",
			jstr(json_object_get(env, "tlb_profile"), "model"),
			*jstr(json_object_get(env, "tlb_profile"), "pmu") ? " (libpfm4 " : "",
			jstr(json_object_get(env, "tlb_profile"), "pmu"),
			*jstr(json_object_get(env, "tlb_profile"), "pmu") ? ")" : "");
	print_virt(f, json_object_get(plat, "virt"));
	print_page_tables(f, json_object_get(plat, "page_tables"));
	if (strstr(jstr(env, "cmdline"), "numa=fake="))
		fprintf(f, "             NUMA nodes emulated (numa=fake): pages land on "
			"the nodes, remote access costs nothing extra\n");
	if (json_is_true(jpath(plat, "page_reporting", "on")))
		fprintf(f, "             free page reporting on (order %lld): "
			"first touch of fresh memory is slow\n",
			(long long)json_integer_value(order));
}

/* "parts: unmap_usec 87% | 12% of it, 14.1x [..] faster; ..." */
static void print_parts(FILE *f, const json_t *o)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(o, "parts"), i, p) {
		if (!json_is_number(json_object_get(p, "share_base"))) {
			fprintf(f, "%-11s   part %s: %s\n", "", jstr(p, "metric"),
				jstr(p, "measured"));
			continue;
		}
		fprintf(f, "%-11s   part %s: %.1f%% of base's %s, %.1f%% of new's; "
			"%s\n", "", jstr(p, "metric"),
			100 * json_number_value(json_object_get(p, "share_base")),
			jstr(o, "metric"),
			100 * json_number_value(json_object_get(p, "share_new")),
			jstr(p, "measured"));
	}
}

static void print_row(FILE *f, const json_t *o)
{
	const json_t *of = json_object_get(o, "of_claimed"), *c;
	char ratio[16] = "-";
	size_t i;

	if (json_is_number(of))
		snprintf(ratio, sizeof(ratio), "%.2f", json_number_value(of));
	fprintf(f, "%-11s %-40s %-26s %-30s %-7s %s\n", jstr(o, "id"),
		jstr(o, "comparison"), jstr(o, "claimed"),
		*jstr(o, "measured") ? jstr(o, "measured") : "-", ratio,
		jstr(o, "verdict"));
	if (*jstr(o, "reason"))
		fprintf(f, "%-11s   (%s)\n", "", jstr(o, "reason"));
	print_parts(f, o);
	if (*jstr(o, "events"))
		fprintf(f, "%-11s   events: %s\n", "", jstr(o, "events"));
	json_array_foreach(json_object_get(o, "caveats"), i, c)
		fprintf(f, "%-11s   caveat: %s\n", "", json_string_value(c));
	json_array_foreach(json_object_get(o, "details"), i, c)
		fprintf(f, "%-11s   %s\n", "", json_string_value(c));
	if (*jstr(o, "note"))
		fprintf(f, "%-11s   today: %s\n", "", jstr(o, "note"));
	if (*jstr(o, "source"))
		fprintf(f, "%-11s   source: %s\n", "", jstr(o, "source"));
}

void claims_print(FILE *f, const json_t *evaluated, const json_t *env)
{
	const json_t *o;
	size_t i;

	if (!json_array_size(evaluated))
		return;
	fprintf(f, "\nClaims of the postings, checked here (95%% CI; "
		"rules: docs/seeds.md, \"Claim verdicts\"):\n");
	print_env(f, env);
	fprintf(f, "\n%-11s %-40s %-26s %-30s %-7s %s\n", "claim", "comparison",
		"claimed", "measured here (95% CI)", "/claim", "verdict");
	json_array_foreach(evaluated, i, o)
		print_row(f, o);
}
