// SPDX-License-Identifier: GPL-2.0-only
/*
 * Raw events: the bits are perf's x86 core format (event 0-7, umask
 * 8-15, edge 18, inv 23, cmask 24-31, AMD event 11:8 at 35:32), the
 * same on Intel's cpu, cpu_core and cpu_atom PMUs and AMD's cpu PMU.
 */
#include "event_raw.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define PMU_SYSFS "/sys/bus/event_source/devices"

static bool parse_hex(const char *s, size_t len, uint64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf) ||
	    strspn(s, "0123456789abcdefABCDEF") < len)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 16);
	return !errno && !*end;
}

static bool parse_num(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || strspn(s, "0123456789abcdefxABCDEFX") != strlen(s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

struct term {
	const char *name;
	uint64_t max;
	unsigned int shift;
};

static const struct term terms[] = {
	{ "event", 0xfff, 0 },	/* split below: 7:0 and 11:8 -> 35:32 */
	{ "umask", 0xff, 8 },
	{ "edge", 1, 18 },
	{ "inv", 1, 23 },
	{ "cmask", 0xff, 24 },
};

static int put_term(const char *name, const char *t, struct event_spec *ev)
{
	const char *eq = strchr(t, '=');
	size_t nl = eq ? (size_t)(eq - t) : strlen(t);
	uint64_t v = 1;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(terms); i++)
		if (strlen(terms[i].name) == nl && !strncmp(t, terms[i].name, nl))
			break;
	if (i == ARRAY_SIZE(terms)) {
		snprintf(ev->error, sizeof(ev->error),
			 "event '%s': unknown term '%.*s' (known: event, umask, cmask, inv, edge)",
			 name, (int)nl, t);
		return -1;
	}
	if ((eq && !parse_num(eq + 1, &v)) || v > terms[i].max) {
		snprintf(ev->error, sizeof(ev->error),
			 "event '%s': %s=%s is not a number up to %#llx", name,
			 terms[i].name, eq ? eq + 1 : "",
			 (unsigned long long)terms[i].max);
		return -1;
	}
	if (i == 0)
		ev->attr.config |= (v & 0xff) | (v >> 8) << 32;
	else
		ev->attr.config |= v << terms[i].shift;
	return 0;
}

/* The PMU's perf type from sysfs; false (ev->unavailable set) when it
 * is not on this machine. */
static bool pmu_type(const char *pmu, struct event_spec *ev)
{
	const char *root = getenv("THPBENCH_PMU_SYSFS");
	char path[PATH_MAX], buf[32];
	long type;

	if (!root || !*root)
		root = PMU_SYSFS;
	snprintf(path, sizeof(path), "%s/%s/type", root, pmu);
	if (!read_file_str(path, buf, sizeof(buf)) &&
	    !parse_long(str_trim(buf), &type) && type >= 0 && type <= UINT32_MAX) {
		ev->attr.type = (uint32_t)type;
		return true;
	}
	ev->attr.type = PERF_TYPE_RAW;
	if (!strcmp(pmu, "cpu"))
		return true;
	snprintf(ev->unavailable, sizeof(ev->unavailable),
		 "PMU %.31s is not on this machine (no %.31s/type): the profile is another CPU's",
		 pmu, pmu);
	return false;
}

static int encode_terms(const char *name, const char *slash, struct event_spec *ev)
{
	char pmu[32], body[160], *save = NULL, *t;
	size_t pl = (size_t)(slash - name), bl = strlen(slash + 1);

	if (pl >= sizeof(pmu) || bl < 2 || bl - 1 >= sizeof(body) ||
	    slash[bl] != '/') {
		snprintf(ev->error, sizeof(ev->error),
			 "event '%s': raw events are PMU/event=0x..,umask=0x../", name);
		return -1;
	}
	memcpy(pmu, name, pl);
	pmu[pl] = '\0';
	memcpy(body, slash + 1, bl - 1);
	body[bl - 1] = '\0';
	for (t = strtok_r(body, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (put_term(name, t, ev))
			return -1;
	pmu_type(pmu, ev);
	return 1;
}

int event_raw_encode(const char *name, struct event_spec *ev)
{
	const char *slash = strchr(name, '/');
	size_t pl = slash ? (size_t)(slash - name) : 0;
	uint64_t config;

	memset(&ev->attr, 0, sizeof(ev->attr));
	if (name[0] == 'r' && parse_hex(name + 1, strlen(name + 1), &config)) {
		ev->attr.type = PERF_TYPE_RAW;
		ev->attr.config = config;
	} else if (slash && pl && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == pl) {
		if (encode_terms(name, slash, ev) < 0) {
			memset(&ev->attr, 0, sizeof(ev->attr));
			return -1;
		}
	} else {
		return 0;
	}
	ev->source = EVSRC_RAW;
	ev->hardware = true;
	return 1;
}
