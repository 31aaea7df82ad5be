// SPDX-License-Identifier: GPL-2.0-only
/*
 * Family/model numbers: AMD's family 19h Zen 4 models (Genoa, Storm
 * Peak, Raphael, Phoenix, Bergamo ranges; the rest of 19h is Zen 3),
 * family 1Ah Zen 5; Intel family 6 models of Emerald Rapids (0xcf),
 * Granite Rapids (0xad, 0xae), Alder and Raptor Lake (0x97, 0x9a, 0xb7,
 * 0xba, 0xbf), as the kernel's arch/x86/include/asm/intel-family.h;
 * Arm's part numbers as arch/arm64/include/asm/cputype.h.
 */
#include "tlb_cpuinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

struct x86_match {
	const char *vendor;
	unsigned int family, lo, hi;	/* model range, inclusive */
	const char *key;
};

static const struct x86_match x86[] = {
	{ "AuthenticAMD", 0x19, 0x10, 0x1f, "zen4" },
	{ "AuthenticAMD", 0x19, 0x60, 0x7f, "zen4" },
	{ "AuthenticAMD", 0x19, 0xa0, 0xaf, "zen4" },
	{ "AuthenticAMD", 0x1a, 0x00, 0xff, "zen5" },
	{ "GenuineIntel", 6, 0xcf, 0xcf, "emr" },
	{ "GenuineIntel", 6, 0xad, 0xae, "gnr" },
	{ "GenuineIntel", 6, 0x97, 0x97, "adl_p" },
	{ "GenuineIntel", 6, 0x9a, 0x9a, "adl_p" },
	{ "GenuineIntel", 6, 0xb7, 0xb7, "adl_p" },
	{ "GenuineIntel", 6, 0xba, 0xba, "adl_p" },
	{ "GenuineIntel", 6, 0xbf, 0xbf, "adl_p" },
};

static const struct {
	unsigned int implementer, part;
	const char *key;
} arm[] = {
	{ 0x41, 0xd0c, "neoverse_n1" },
	{ 0x41, 0xd49, "neoverse_n2" },
	{ 0x41, 0xd40, "neoverse_v1" },
	{ 0x41, 0xd4f, "neoverse_v2" },
};

struct cpu_id {
	char vendor[32];
	long family, model, implementer, part;
};

/* "key\t: value" -> value, when line's key is key. */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return NULL;
	line += n + strspn(line + n, " \t");	/* "model" is not "model name" */
	return *line == ':' ? line + 1 + strspn(line + 1, " \t") : NULL;
}

static void read_first_cpu(FILE *f, struct cpu_id *c)
{
	char line[256];
	const char *v;

	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] && (c->vendor[0] || c->part >= 0))
			break;		/* the first CPU's block ends */
		if ((v = value_of(line, "vendor_id")))
			snprintf(c->vendor, sizeof(c->vendor), "%s", v);
		else if ((v = value_of(line, "cpu family")))
			c->family = strtol(v, NULL, 0);
		else if ((v = value_of(line, "model")))
			c->model = strtol(v, NULL, 0);
		else if ((v = value_of(line, "CPU implementer")))
			c->implementer = strtol(v, NULL, 0);
		else if ((v = value_of(line, "CPU part")))
			c->part = strtol(v, NULL, 0);
	}
}

const char *tlb_cpuinfo_key(const char *path)
{
	struct cpu_id c = { .family = -1, .model = -1, .implementer = -1, .part = -1 };
	const char *env = getenv("THPBENCH_CPUINFO");
	size_t i;
	FILE *f;

	if (!path)
		path = env && *env ? env : "/proc/cpuinfo";
	f = fopen(path, "re");
	if (!f)
		return NULL;
	read_first_cpu(f, &c);
	fclose(f);
	for (i = 0; i < ARRAY_SIZE(x86); i++)
		if (!strcmp(c.vendor, x86[i].vendor) && c.family == (long)x86[i].family &&
		    c.model >= (long)x86[i].lo && c.model <= (long)x86[i].hi)
			return x86[i].key;
	for (i = 0; i < ARRAY_SIZE(arm); i++)
		if (c.implementer == (long)arm[i].implementer && c.part == (long)arm[i].part)
			return arm[i].key;
	return NULL;
}
