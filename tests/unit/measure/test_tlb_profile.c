// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TLB profile, proven without the hardware: for every model, every
 * event's libpfm4 encoding under LIBPFM_FORCE_PMU=<model> must equal the
 * encoding in that model's perf JSON event table (event code, unit mask,
 * counter mask, invert, edge, any-thread; nothing else set), two sources
 * written independently of each other. The tables are read from the
 * kernel source the A/B path uses, Debian's linux-source-6.1, unpacked
 * by `make unit` into build/perf-events (THPBENCH_PERF_EVENTS names
 * another tools/perf/pmu-events/arch directory).
 *
 * libpfm4 reads LIBPFM_FORCE_PMU once, at pfm_initialize(), and
 * pfm_terminate() does not undo it: each model is encoded by a fresh
 * process, this binary re-run as `--encode PMU EVENT...`.
 *
 * The check is shown to catch what it is for: planted profiles with a
 * wrong unit mask (and a wrong counter mask) must fail it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/event_list.h"
#include "measure/events.h"
#include "measure/tlb_profile.h"
#include "util/util.h"

#define ARCH_DEFAULT "build/perf-events/linux-source-6.1/tools/perf/pmu-events/arch"
#define MAX_EV 16

static char self_exe[PATH_MAX];

/* --- the child: encode under a forced PMU ---------------------------- */

static int child_encode(int argc, char **argv)
{
	struct event_spec ev, *evs;
	struct tlb_host h;
	char err[512];
	size_t i, n;

	tlb_host_detect(&h);
	printf("host %s %s\n", h.pmu[0] ? h.pmu : "-", h.profile->key);
	for (i = 0; i < (size_t)argc; i++) {
		if (event_encode(argv[i], &ev))
			printf("enc %zu error\n", i);
		else
			printf("enc %zu %u %#llx\n", i, ev.attr.type,
			       (unsigned long long)ev.attr.config);
	}
	if (events_parse_list("page-faults,tlb", &evs, &n, err, sizeof(err))) {
		printf("list error %s\n", err);
		return 0;
	}
	for (i = 0; i < n; i++)
		printf("list %s %u %s\n", evs[i].name, evs[i].group,
		       evs[i].stands_for[0] ? evs[i].stands_for : "-");
	free(evs);
	return 0;
}

/* --- the parent: run the child, read its lines ----------------------- */

struct child_out {
	char host[64], host_profile[64];
	int nenc;
	unsigned int type[MAX_EV];
	uint64_t config[MAX_EV];
	bool encoded[MAX_EV];
	int nlist;
	char list_name[MAX_EV + 1][192], list_for[MAX_EV + 1][192];
	unsigned int list_group[MAX_EV + 1];
};

static void run_child(const char *pmu, const char *const *events, size_t n,
		      struct child_out *o)
{
	char cmd[8192], line[1024];
	size_t off, i;
	FILE *f;

	memset(o, 0, sizeof(*o));
	off = (size_t)snprintf(cmd, sizeof(cmd), "LIBPFM_FORCE_PMU='%s' '%s' --encode",
			       pmu, self_exe);
	for (i = 0; i < n && off < sizeof(cmd); i++)
		off += (size_t)snprintf(cmd + off, sizeof(cmd) - off, " '%s'", events[i]);
	assert_true(off < sizeof(cmd));
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long config;
		unsigned int type, idx, group;
		char a[192], b[192];

		if (sscanf(line, "host %63s %63s", o->host, o->host_profile) == 2)
			continue;
		if (sscanf(line, "enc %u %u %llx", &idx, &type, &config) == 3 &&
		    idx < MAX_EV) {
			o->type[idx] = type;
			o->config[idx] = config;
			o->encoded[idx] = true;
			o->nenc++;
		} else if (sscanf(line, "list %191s %u %191s", a, &group, b) == 3 &&
			   o->nlist <= MAX_EV) {
			snprintf(o->list_name[o->nlist], 192, "%s", a);
			snprintf(o->list_for[o->nlist], 192, "%s", b);
			o->list_group[o->nlist++] = group;
		} else if (strncmp(line, "enc ", 4)) {
			fail_msg("child for %s said: %s", pmu, line);
		}
	}
	assert_int_equal(pclose(f), 0);
}

/* --- perf's JSON tables ---------------------------------------------- */

static const char *arch_dir(void)
{
	const char *d = getenv("THPBENCH_PERF_EVENTS");

	return d && *d ? d : ARCH_DEFAULT;
}

static int is_json(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 5 && !strcmp(e->d_name + n - 5, ".json");
}

/* Every event of the model's JSON files, in one array. */
static json_t *load_model(const char *perf_dir)
{
	char dir[PATH_MAX], path[PATH_MAX * 2];
	json_t *all = json_array(), *a;
	json_error_t jerr;
	struct dirent **ents;
	int i, n;

	snprintf(dir, sizeof(dir), "%s/%s", arch_dir(), perf_dir);
	n = scandir(dir, &ents, is_json, alphasort);
	if (n <= 0)
		fail_msg("no perf JSON in %s (make unit unpacks linux-source-6.1 into build/perf-events)",
			 dir);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		a = json_load_file(path, 0, &jerr);
		if (!a)
			fail_msg("%s:%d: %s", path, jerr.line, jerr.text);
		if (json_is_array(a))
			json_array_extend(all, a);
		json_decref(a);
		free(ents[i]);
	}
	free(ents);
	return all;
}

/* The fields of an x86 core event encoding, as perf's JSON has them. */
struct enc {
	uint64_t code, umask, cmask, inv, edge, any, other;
};

/* A JSON field as a number: absent is 0; "0x3C", "1" or a number. */
static int field(const json_t *o, const char *key, uint64_t *v)
{
	const json_t *f = json_object_get(o, key);
	const char *s;
	char *end;

	*v = 0;
	if (!f)
		return 0;
	if (json_is_integer(f)) {
		*v = (uint64_t)json_integer_value(f);
		return 0;
	}
	s = json_string_value(f);
	if (!s || !*s)
		return -1;
	*v = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

/* Fields that change an encoding in ways this check does not compare:
 * they must be absent or 0 for a profile event. */
static const char *const uncompared[] = {
	"UMaskExt", "MSRValue", "FCMask", "PortMask", "ExtSel",
};

static int json_enc(const json_t *o, struct enc *e, char *err, size_t len)
{
	uint64_t v;
	size_t i;

	if (field(o, "EventCode", &e->code) || field(o, "UMask", &e->umask) ||
	    field(o, "CounterMask", &e->cmask) || field(o, "Invert", &e->inv) ||
	    field(o, "EdgeDetect", &e->edge) || field(o, "AnyThread", &e->any)) {
		snprintf(err, len, "a field is not a number");
		return -1;
	}
	e->other = 0;
	for (i = 0; i < ARRAY_SIZE(uncompared); i++)
		if (field(o, uncompared[i], &v) || v) {
			snprintf(err, len, "it sets %s, which this check cannot compare",
				 uncompared[i]);
			return -1;
		}
	return 0;
}

/* The encoding perf's tables give for "a" or "a+b+...": one event code,
 * the unit masks OR'd. Each name must be there exactly once. */
static int perf_expected(const json_t *all, const char *names, struct enc *want,
			 char *err, size_t len)
{
	char *copy = xstrdup(names), *save = NULL, *name;
	struct enc e;
	const json_t *o;
	int rc = 0, first = 1;
	size_t i, hits;

	memset(want, 0, sizeof(*want));
	for (name = strtok_r(copy, "+", &save); name && !rc;
	     name = strtok_r(NULL, "+", &save)) {
		hits = 0;
		json_array_foreach(all, i, o) {
			const char *en = json_string_value(json_object_get(o, "EventName"));

			if (!en || strcmp(en, name))
				continue;
			if (hits++ || json_enc(o, &e, err, len)) {
				if (hits > 1)
					snprintf(err, len, "%s is in the tables twice", name);
				rc = -1;
				break;
			}
		}
		if (!rc && !hits) {
			snprintf(err, len, "no event %s in the tables", name);
			rc = -1;
		}
		if (rc)
			break;
		if (!first && (e.code != want->code || e.cmask != want->cmask ||
			       e.inv != want->inv || e.edge != want->edge)) {
			snprintf(err, len, "%s is not the same event as the others", name);
			rc = -1;
		}
		e.umask |= want->umask;
		*want = e;
		first = 0;
	}
	free(copy);
	return rc;
}

/* perf_event_attr.config of a raw x86 event (arch/x86/events/perf_event.h:
 * ARCH_PERFMON_EVENTSEL_*, AMD's event select bits 11:8 at 35:32). */
static void decode(uint64_t config, struct enc *e)
{
	const uint64_t known = 0xffULL | 0xff00ULL | 1ULL << 18 | 1ULL << 21 |
			       1ULL << 23 | 0xffULL << 24 | 0xfULL << 32;

	e->code = (config & 0xff) | ((config >> 32) & 0xf) << 8;
	e->umask = (config >> 8) & 0xff;
	e->edge = (config >> 18) & 1;
	e->any = (config >> 21) & 1;
	e->inv = (config >> 23) & 1;
	e->cmask = (config >> 24) & 0xff;
	e->other = config & ~known;
}

/* The fields that differ, as text; 0 when none does. */
static int differ(const struct enc *got, const struct enc *want, char *out,
		  size_t len)
{
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		{ "event code", offsetof(struct enc, code) },
		{ "umask", offsetof(struct enc, umask) },
		{ "cmask", offsetof(struct enc, cmask) },
		{ "inv", offsetof(struct enc, inv) },
		{ "edge", offsetof(struct enc, edge) },
		{ "any-thread", offsetof(struct enc, any) },
		{ "other bits", offsetof(struct enc, other) },
	};
	size_t i, o = 0;
	int n = 0;

	out[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		uint64_t g = *(const uint64_t *)((const char *)got + fields[i].off);
		uint64_t w = *(const uint64_t *)((const char *)want + fields[i].off);

		if (g == w)
			continue;
		n++;
		if (o < len)
			o += (size_t)snprintf(out + o, len - o, "%s%s %#llx, perf %#llx",
					      o ? "; " : "", fields[i].name,
					      (unsigned long long)g,
					      (unsigned long long)w);
	}
	return n;
}

static void kernel_version(char *buf, size_t len)
{
	char path[PATH_MAX], line[128];
	int v = -1, p = -1, s = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/../../../../Makefile", arch_dir());
	snprintf(buf, len, "unknown version");
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "VERSION = %d", &v);
		sscanf(line, "PATCHLEVEL = %d", &p);
		sscanf(line, "SUBLEVEL = %d", &s);
	}
	fclose(f);
	snprintf(buf, len, "Linux %d.%d.%d", v, p, s);
}

/*
 * Encode p's events under LIBPFM_FORCE_PMU=p->pmu and hold each against
 * the perf JSON; report (if not NULL) gets one line per mismatch. With
 * print, a table of every event as checked. Returns the mismatches.
 */
static int check_profile(const struct tlb_profile *p, bool print,
			 struct child_out *o, char *report, size_t rlen)
{
	const char *events[MAX_EV];
	json_t *all = load_model(p->perf_dir);
	char err[256], diff[256];
	struct enc got, want;
	size_t i, r = 0;
	int bad = 0;

	assert_true(p->nev <= MAX_EV);
	for (i = 0; i < p->nev; i++)
		events[i] = p->ev[i].event;
	run_child(p->pmu, events, p->nev, o);
	if (report)
		report[0] = '\0';
	if (print)
		printf("\n%s: %s; perf tables tools/perf/pmu-events/arch/%s\n",
		       p->pmu, p->model, p->perf_dir);
	for (i = 0; i < p->nev; i++) {
		const struct tlb_event *te = &p->ev[i];

		diff[0] = err[0] = '\0';
		memset(&want, 0, sizeof(want));
		if (!o->encoded[i] || o->type[i] != 4 /* PERF_TYPE_RAW */)
			snprintf(err, sizeof(err), "libpfm4 does not encode it as a raw event");
		else if (!perf_expected(all, te->perf, &want, err, sizeof(err))) {
			decode(o->config[i], &got);
			differ(&got, &want, diff, sizeof(diff));
		}
		if (err[0] || diff[0]) {
			bad++;
			if (report && r < rlen)
				r += (size_t)snprintf(report + r, rlen - r, "%s %s: %s%s\n",
						      p->pmu, te->event, err, diff);
		}
		if (print)
			printf("  %-21s %-50s raw %-#10llx = %s\n  %21s event 0x%03llx umask 0x%02llx cmask %llu inv %llu edge %llu: %s%s%s\n",
			       tlb_role_metric(te->role), te->event,
			       (unsigned long long)o->config[i], te->perf, "",
			       (unsigned long long)want.code,
			       (unsigned long long)want.umask,
			       (unsigned long long)want.cmask,
			       (unsigned long long)want.inv,
			       (unsigned long long)want.edge,
			       err[0] || diff[0] ? "MISMATCH " : "equal", err, diff);
	}
	json_decref(all);
	return bad;
}

/* --- the tests ------------------------------------------------------- */

/*
 * libpfm4 compiles in the PMU tables of the architecture it is built for
 * only: on arm64 it cannot be forced to an x86 model, so the x86 profiles'
 * libpfm4 names are checked by the x86 build (make unit); the arm64
 * profiles are raw encodings, held against perf's JSON by test_tlb_roles.
 */
static void need_x86_libpfm(void)
{
#if !defined(__x86_64__) && !defined(__i386__)
	print_message("skipped: this libpfm4 (not x86) has no x86 PMU tables to force\n");
	skip();
#endif
}

static void test_encodings_equal_perf_tables(void **state)
{
	struct child_out o;
	char report[4096], version[64];
	size_t i, intel = 0, amd = 0;
	int bad;

	(void)state;
	need_x86_libpfm();
	kernel_version(version, sizeof(version));
	printf("TLB profile encodings (libpfm4, LIBPFM_FORCE_PMU) against perf's "
	       "JSON tables of %s (Debian linux-source-6.1, %s):\n", version, arch_dir());
	for (i = 0; i < tlb_profile_count(); i++) {
		const struct tlb_profile *p = tlb_profile_at(i);

		if (!p->pmu[0])
			continue;	/* raw encodings: test_tlb_roles.c */
		bad = check_profile(p, true, &o, report, sizeof(report));
		if (bad)
			fail_msg("%d mismatch(es):\n%s", bad, report);
		if (!strncmp(p->pmu, "amd64_", 6))
			amd++;
		else
			intel++;
	}
	printf("\n%zu models with libpfm4 names (%zu Intel, %zu AMD): every event equal\n",
	       intel + amd, intel, amd);
	assert_true(intel >= 3 && amd >= 3);
}

static void plant(const struct tlb_profile *real, struct tlb_profile *p,
		  struct tlb_event *ev, enum tlb_role role, const char *wrong)
{
	size_t i, hits = 0;

	*p = *real;
	memcpy(ev, real->ev, real->nev * sizeof(*ev));
	p->ev = ev;
	for (i = 0; i < p->nev; i++)
		if (ev[i].role == role) {
			ev[i].event = wrong;
			hits++;
		}
	assert_int_equal(hits, 1);
}

/* The check must fail when a unit mask is wrong: a planted STLB_HIT that
 * is really WALK_COMPLETED (0x0e, not 0x20), a Zen walk count that lost
 * one page size (0xd0, not 0xf0), and a counter mask dropped
 * (WALK_PENDING is WALK_ACTIVE without cmask=1). */
static void test_planted_wrong_masks_fail(void **state)
{
	struct tlb_event ev[MAX_EV];
	struct tlb_profile p;
	struct child_out o;
	char report[1024];

	(void)state;
	need_x86_libpfm();
	plant(tlb_profile_find("skl"), &p, ev, TLB_STLB_LOAD_HITS,
	      "skl::DTLB_LOAD_MISSES:WALK_COMPLETED");
	if (check_profile(&p, false, &o, report, sizeof(report)) != 1)
		fail_msg("one planted mismatch, report: %s", report);
	if (!strstr(report, "umask 0xe, perf 0x20") || strstr(report, "cmask"))
		fail_msg("report: %s", report);

	plant(tlb_profile_find("amd64_fam19h_zen3"), &p, ev, TLB_WALKS,
	      "amd64_fam19h_zen3::L1_DTLB_MISS:TLB_RELOAD_4K_L2_MISS:"
	      "TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_1G_L2_MISS");
	assert_int_equal(check_profile(&p, false, &o, report, sizeof(report)), 1);
	if (!strstr(report, "umask 0xd0, perf 0xf0"))
		fail_msg("report: %s", report);

	plant(tlb_profile_find("icx"), &p, ev, TLB_LOAD_WALK_CYCLES,
	      "icx::DTLB_LOAD_MISSES:WALK_PENDING");
	assert_int_equal(check_profile(&p, false, &o, report, sizeof(report)), 1);
	if (!strstr(report, "cmask 0, perf 0x1") || strstr(report, "umask"))
		fail_msg("report: %s", report);
}

/* And when the event is right but perf's name points elsewhere. */
static void test_planted_wrong_perf_name_fails(void **state)
{
	struct tlb_event ev[MAX_EV];
	struct tlb_profile p;
	struct child_out o;
	char report[1024];
	size_t i;

	(void)state;
	need_x86_libpfm();
	p = *tlb_profile_find("spr");
	memcpy(ev, p.ev, p.nev * sizeof(*ev));
	p.ev = ev;
	for (i = 0; i < p.nev; i++)
		if (ev[i].role == TLB_STORE_WALKS)
			ev[i].perf = "DTLB_LOAD_MISSES.WALK_COMPLETED";
	assert_int_equal(check_profile(&p, false, &o, report, sizeof(report)), 1);
	if (!strstr(report, "event code 0x13, perf 0x12"))
		fail_msg("report: %s", report);
	for (i = 0; i < p.nev; i++)
		if (ev[i].role == TLB_STORE_WALKS)
			ev[i].perf = "DTLB_STORE_MISSES.NO_SUCH_THING";
	assert_int_equal(check_profile(&p, false, &o, report, sizeof(report)), 1);
	assert_non_null(strstr(report, "no event DTLB_STORE_MISSES.NO_SUCH_THING"));
}

/* LIBPFM_FORCE_PMU picks the profile `-e tlb` expands to, with role
 * names, the libpfm4 event each stands for, and groups numbered after
 * the list's own. */
static void test_force_pmu_picks_the_profile(void **state)
{
	struct child_out o;
	size_t i, k;

	(void)state;
	need_x86_libpfm();
	for (i = 0; i < tlb_profile_count(); i++) {
		const struct tlb_profile *p = tlb_profile_at(i);

		if (!p->pfm)
			continue;	/* libpfm4 cannot be forced to it */
		run_child(p->pfm, NULL, 0, &o);
		assert_string_equal(o.host, p->pfm);
		assert_string_equal(o.host_profile, p->key);
		assert_int_equal(o.nlist, 1 + p->nev);
		assert_string_equal(o.list_name[0], "page-faults");
		assert_int_equal(o.list_group[0], 0);
		for (k = 0; k < p->nev; k++) {
			assert_string_equal(o.list_name[k + 1],
					    tlb_role_metric(p->ev[k].role));
			assert_string_equal(o.list_for[k + 1], p->ev[k].event);
			assert_int_equal(o.list_group[k + 1], p->ev[k].group);
		}
	}
}

/* A CPU libpfm4 knows without a profile gets perf's generic names. */
static void test_unprofiled_cpu_gets_generic_names(void **state)
{
	struct child_out o;

	(void)state;
	need_x86_libpfm();
	run_child("snb", NULL, 0, &o);
	assert_string_equal(o.host, "snb");
	assert_string_equal(o.host_profile, "generic");
	assert_int_equal(o.nlist, 5);
	assert_string_equal(o.list_name[1], "tlb.cycles");
	assert_string_equal(o.list_for[1], "cycles");
	assert_string_equal(o.list_name[3], "tlb.dtlb_load_misses");
	assert_string_equal(o.list_for[3], "dTLB-load-misses");
}

static int group_of(const struct tlb_profile *p, const char *metric)
{
	size_t i;

	for (i = 0; i < p->nev; i++)
		if (!strcmp(tlb_role_metric(p->ev[i].role), metric))
			return (int)p->ev[i].group;
	return -1;
}

/*
 * What makes the profile usable on the hardware: every model counts
 * cycles, instructions, walks and STLB hits; what a ratio divides is in
 * one group; a group fits the counters (Intel: 4 general-purpose with
 * hyper-threading, cycles and instructions can take fixed counters;
 * Zen: 6, no fixed ones).
 */
static void test_profile_shape(void **state)
{
	static const char *const ratio_inputs[][3] = {
		{ "tlb.load_walk_cycles", "tlb.store_walk_cycles", "tlb.cycles" },
		{ "tlb.dtlb_load_walks", "tlb.dtlb_store_walks", "tlb.instructions" },
	};
	size_t i, k, j;

	(void)state;
	for (i = 0; i < tlb_profile_count(); i++) {
		const struct tlb_profile *p = tlb_profile_at(i);
		/* AMD and arm64 PMUs: 6 general counters, cycles and
		 * instructions take two of them */
		bool amd = strstr(p->perf_dir, "amd") || !strncmp(p->perf_dir, "arm64/", 6);
		unsigned int gp[4] = { 0 };
		bool seen[TLB_NROLES] = { false };

		for (k = 0; k < p->nev; k++) {
			assert_false(seen[p->ev[k].role]);
			seen[p->ev[k].role] = true;
			assert_true(p->ev[k].group >= 1 && p->ev[k].group <= 3);
			assert_non_null(strstr(p->ev[k].event, p->pmu));
			if (amd || (p->ev[k].role != TLB_CYCLES &&
				    p->ev[k].role != TLB_INSTRUCTIONS))
				gp[p->ev[k].group]++;
		}
		for (k = 1; k < 4; k++)
			if (gp[k] > (amd ? 6u : 4u))
				fail_msg("%s: group %zu needs %u counters", p->pmu, k, gp[k]);
		assert_true(seen[TLB_CYCLES] && seen[TLB_INSTRUCTIONS]);
		assert_true(seen[TLB_WALKS] ||
			    (seen[TLB_LOAD_WALKS] && seen[TLB_STORE_WALKS]));
		/* raw profiles have what perf's JSON has (their notes say
		 * what is missing) */
		if (p->pmu[0])
			assert_true(seen[TLB_STLB_HITS] ||
				    (seen[TLB_STLB_LOAD_HITS] && seen[TLB_STLB_STORE_HITS]));
		if (!amd && p->pmu[0])
			assert_true(seen[TLB_LOAD_WALK_CYCLES] &&
				    seen[TLB_STORE_WALK_CYCLES]);
		for (k = 0; k < ARRAY_SIZE(ratio_inputs); k++) {
			int g = -1;

			for (j = 0; j < 3; j++) {
				int gj = group_of(p, ratio_inputs[k][j]);

				if (gj < 0)
					continue;
				if (g >= 0 && gj != g)
					fail_msg("%s: %s is not in the group of what it is divided with",
						 p->pmu, ratio_inputs[k][j]);
				g = gj;
			}
		}
	}
}

static void put(struct metric_set *m, struct metric_set *c, const char *name,
		double v, double pct)
{
	metric_set_put(m, name, v);
	metric_set_put(c, name, pct);
}

static double got(const struct metric_set *m, const char *name)
{
	const struct metric *x = metric_set_find(m, name);

	if (!x)
		fail_msg("%s not derived", name);
	return x->value;
}

static void test_derive_intel(void **state)
{
	struct metric_set m = { 0 }, c = { 0 };
	struct note_set u = { 0 };

	(void)state;
	put(&m, &c, "tlb.cycles", 2e9, 50);
	put(&m, &c, "tlb.instructions", 1e9, 50);
	put(&m, &c, "tlb.dtlb_load_walks", 3e6, 50);
	put(&m, &c, "tlb.dtlb_store_walks", 1e6, 50);
	put(&m, &c, "tlb.load_walk_cycles", 3e8, 50);
	put(&m, &c, "tlb.store_walk_cycles", 1e8, 50);
	put(&m, &c, "tlb.stlb_load_hits", 7e6, 40);
	put(&m, &c, "tlb.stlb_store_hits", 1e6, 45);
	tlb_derive(&m, &c, &u);
	assert_true(got(&m, "tlb.dtlb_walks") == 4e6);
	assert_true(got(&m, "tlb.stlb_hits") == 8e6);
	assert_float_equal(got(&m, "tlb.walk_cycles_pct"), 20.0, 1e-12);
	assert_float_equal(got(&m, "tlb.walks_pki"), 4.0, 1e-12);
	assert_null(metric_set_find(&m, "tlb.misses_pki"));	/* not this profile's */
	/* the counted share of a derived figure is its inputs' least */
	assert_true(got(&c, "tlb.walk_cycles_pct") == 50);
	assert_true(got(&c, "tlb.stlb_hits") == 40);
	assert_int_equal(u.n, 0);
	metric_set_free(&m);
	metric_set_free(&c);
}

/* Zen counts walks as one event: it is kept, not overwritten. */
static void test_derive_zen(void **state)
{
	struct metric_set m = { 0 }, c = { 0 };
	struct note_set u = { 0 };

	(void)state;
	put(&m, &c, "tlb.cycles", 1e9, 100);
	put(&m, &c, "tlb.instructions", 2e9, 100);
	put(&m, &c, "tlb.dtlb_walks", 5e6, 100);
	put(&m, &c, "tlb.stlb_hits", 9e6, 100);
	tlb_derive(&m, &c, &u);
	assert_true(got(&m, "tlb.dtlb_walks") == 5e6);
	assert_float_equal(got(&m, "tlb.walks_pki"), 2.5, 1e-12);
	assert_null(metric_set_find(&m, "tlb.walk_cycles_pct"));
	assert_int_equal(u.n, 0);
	metric_set_free(&m);
	metric_set_free(&c);
}

/* No PMU: every input unsupported, so are the derived figures, with the
 * input's reason; a 0 divisor gives no figure either. */
static void test_derive_not_counted(void **state)
{
	struct metric_set m = { 0 }, c = { 0 };
	struct note_set u = { 0 };
	const struct note *n;

	(void)state;
	note_set_put(&u, "tlb.cycles", "<not supported>: no hardware PMU (ENOENT)");
	note_set_put(&u, "tlb.instructions", "<not supported>: no hardware PMU (ENOENT)");
	note_set_put(&u, "tlb.dtlb_load_walks", "<not counted>: never got a hardware counter");
	put(&m, &c, "tlb.dtlb_store_walks", 10, 100);
	tlb_derive(&m, &c, &u);
	assert_null(metric_set_find(&m, "tlb.dtlb_walks"));
	n = note_set_find(&u, "tlb.dtlb_walks");
	assert_non_null(n);
	assert_string_equal(n->reason, "<not counted>: derived from tlb.dtlb_load_walks: never got a hardware counter");
	n = note_set_find(&u, "tlb.walks_pki");
	assert_non_null(n);
	assert_non_null(strstr(n->reason, "<not counted>: derived from tlb.dtlb_walks"));
	note_set_free(&u);
	metric_set_free(&m);
	metric_set_free(&c);

	memset(&u, 0, sizeof(u));
	put(&m, &c, "tlb.instructions", 0, 100);
	put(&m, &c, "tlb.dtlb_load_misses", 5, 100);
	put(&m, &c, "tlb.dtlb_store_misses", 5, 100);
	tlb_derive(&m, &c, &u);
	assert_null(metric_set_find(&m, "tlb.misses_pki"));
	n = note_set_find(&u, "tlb.misses_pki");
	assert_non_null(n);
	assert_non_null(strstr(n->reason, "tlb.instructions was 0"));
	note_set_free(&u);
	metric_set_free(&m);
	metric_set_free(&c);
}

/* What each profile allows to derive, as `list` shows it. */
static void test_derived_per_profile(void **state)
{
	const char *names[8], *texts[8];
	size_t n;

	(void)state;
	n = tlb_profile_derived(tlb_profile_find("skl"), names, texts, 8);
	assert_int_equal(n, 4);
	assert_string_equal(names[2], "tlb.walk_cycles_pct");
	assert_string_equal(names[3], "tlb.walks_pki");
	n = tlb_profile_derived(tlb_profile_find("amd64_fam17h_zen2"), names, texts, 8);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "tlb.walks_pki");
	n = tlb_profile_derived(tlb_profile_generic(), names, texts, 8);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "tlb.misses_pki");
	assert_null(tlb_profile_find("no_such_pmu"));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encodings_equal_perf_tables),
		cmocka_unit_test(test_planted_wrong_masks_fail),
		cmocka_unit_test(test_planted_wrong_perf_name_fails),
		cmocka_unit_test(test_force_pmu_picks_the_profile),
		cmocka_unit_test(test_unprofiled_cpu_gets_generic_names),
		cmocka_unit_test(test_profile_shape),
		cmocka_unit_test(test_derive_intel),
		cmocka_unit_test(test_derive_zen),
		cmocka_unit_test(test_derive_not_counted),
		cmocka_unit_test(test_derived_per_profile),
	};
	ssize_t len;

	if (argc >= 2 && !strcmp(argv[1], "--encode"))
		return child_encode(argc - 2, argv + 2);
	len = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	if (len <= 0)
		return 2;
	self_exe[len] = '\0';
	setenv("THPBENCH_TRACEFS", "tests/fixtures/tracefs", 1);
	/* what libpfm4 finds decides, not this host's CPU */
	setenv("THPBENCH_CPUINFO", "/nonexistent/cpuinfo", 1);
	unsetenv("THPBENCH_TLB_MODEL");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
