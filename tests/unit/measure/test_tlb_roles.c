// SPDX-License-Identifier: GPL-2.0-only
/*
 * A TLB profile row must count what its role says. test_tlb_profile.c
 * proves a row's libpfm4 name encodes like the perf name beside it; a
 * wrong *choice* made in both columns (DTLB_LOAD_MISSES:STLB_HIT as load
 * walks) passes that. Here each row's perf event is looked up in perf's
 * JSON for the model - the Linux 6.1 tree `make unit` unpacks into
 * build/perf-events, or for newer models the excerpts in
 * tests/fixtures/perf-events (SOURCES.md says from where) - and:
 *   - its description (BriefDescription + PublicDescription; on arm64
 *     with the common-and-microarch.json entry its ArchStdEvent names)
 *     must say what the role is: the words each role needs and the words
 *     that mark another event (role_rules below);
 *   - a raw row's bits (event_raw.h) must be that JSON event's code, unit
 *     mask and counter mask, on the PMU its Unit names (cpu_core,
 *     cpu_atom) - on arm64 the ArchStdEvent's number.
 * Rows with no perf name (an architectural event not in an excerpt) are
 * listed as not checked. Planted wrong rows - both names agreeing - must
 * fail (test_planted_wrong_picks_fail), so the check can fail.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measure/event_raw.h"
#include "measure/events.h"
#include "measure/tlb_cpuinfo.h"
#include "measure/tlb_profile.h"
#include "util/util.h"

#define ARCH_DEFAULT "build/perf-events/linux-source-6.1/tools/perf/pmu-events/arch"
#define FIXTURES "tests/fixtures/perf-events"

static char fake_sysfs[64];	/* /tmp/thpbench-pmus-XXXXXX */

/* --- the words of each role ------------------------------------------ */

/*
 * need: every item must occur ("a|b": one of them; "@a": in the
 * description or, where perf's text leaves it out, in the event's name -
 * Broadwell's WALK_DURATION text does not say load or store, Zen 1's
 * reload umasks do not say hit); never: none may occur in the lowercased
 * description. Written from what perf's JSON says of the
 * right event and of its neighbours a wrong pick takes (STLB hits for
 * walks, walk-pending for walk-active, one page size for all, a read-only
 * refill for all refills, an L1 refill for a walk).
 */
struct role_rule {
	enum tlb_role role;
	const char *need[4];
	const char *never[16];
};

#define SIZES "for 4k", "for 2m", "for 1g", "to a 4k", "to a 2m", "to a 1g", "(4k)", "(2m/4m)", "(1g)"

static const struct role_rule role_rules[] = {
	{ TLB_CYCLES, { "cycle" }, { "walk", "tlb", "reference", "ref_", "stall" } },
	{ TLB_INSTRUCTIONS, { "instruction", "retired|architecturally executed" },
	  { "tlb", "retired nop", "macro_fused", "memory instructions", "load", "store" } },
	{ TLB_LOAD_WALKS, { "load", "walk", "complet" },
	  { "stlb hit", "hit the stlb", "busy", "outstanding", "cycles", SIZES } },
	{ TLB_STORE_WALKS, { "store", "walk", "complet" },
	  { "stlb hit", "hit the stlb", "busy", "outstanding", "cycles", SIZES } },
	{ TLB_WALKS, { "walk", "data|dtlb" },
	  { "hit", "instruction", "cycles", "outstanding", SIZES } },
	{ TLB_LOAD_WALK_CYCLES, { "cycles", "walk", "@load", "busy" },
	  { "outstanding", "complet", "stlb", "store" } },
	{ TLB_STORE_WALK_CYCLES, { "cycles", "walk", "@store", "busy" },
	  { "outstanding", "complet", "stlb", "load" } },
	{ TLB_STLB_LOAD_HITS, { "load", "hit", "stlb|hit the second" },
	  { "complet", "busy", "store" } },
	{ TLB_STLB_STORE_HITS, { "store", "hit", "stlb|hit the second" },
	  { "complet", "busy", "load" } },
	{ TLB_STLB_HITS, { "@hit", "dtlb" },
	  { "walk", "instruction", "itlb", "miss the l2", "missed the l2", "misses the l2" } },
	{ TLB_ITLB_WALKS, { "walk", "code|instruction|itlb" },
	  { "hit", "cycles", "outstanding", "data tlb", "dtlb", SIZES } },
	{ TLB_L1D_REFILLS, { "refill", "level 1 data|data l1" },
	  { "level 2 data", "read operations", "write operations", ", read", ", write", "instruction tlb" } },
	{ TLB_L2_REFILLS, { "refill", "level 2|l2 tlb" },
	  { "level 1 data", "read operations", "write operations", ", read", ", write" } },
};

static const struct role_rule *rule_of(enum tlb_role r)
{
	for (size_t i = 0; i < ARRAY_SIZE(role_rules); i++)
		if (role_rules[i].role == r)
			return &role_rules[i];
	return NULL;
}

/* The first rule word text breaks, as "lacks 'x'" / "says 'y'"; NULL
 * when it fits. */
static const char *rule_breaks(const struct role_rule *r, const char *text,
			       const char *event, char *buf, size_t len)
{
	char name[128];
	size_t i;

	for (i = 0; i < sizeof(name) - 1 && event[i]; i++)
		name[i] = (char)tolower((unsigned char)event[i]);
	name[i] = '\0';
	for (i = 0; i < ARRAY_SIZE(r->need) && r->need[i]; i++) {
		bool by_name = r->need[i][0] == '@', found = false;
		char alts[64], *save = NULL, *a;

		snprintf(alts, sizeof(alts), "%s", r->need[i] + by_name);
		for (a = strtok_r(alts, "|", &save); a && !found;
		     a = strtok_r(NULL, "|", &save))
			found = strstr(text, a) || (by_name && strstr(name, a));
		if (!found) {
			snprintf(buf, len, "lacks '%s'", r->need[i]);
			return buf;
		}
	}
	for (i = 0; i < ARRAY_SIZE(r->never) && r->never[i]; i++)
		if (strstr(text, r->never[i])) {
			snprintf(buf, len, "says '%s'", r->never[i]);
			return buf;
		}
	return NULL;
}

/* --- perf's JSON ------------------------------------------------------ */

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

static void load_dir(const char *dir, json_t *all)
{
	char path[PATH_MAX * 2];
	struct dirent **ents;
	json_error_t jerr;
	json_t *a;
	int i, n;

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
}

struct model_json {
	json_t *ev;		/* the model's events */
	json_t *common;		/* arm64: common-and-microarch.json; or NULL */
	char from[PATH_MAX];	/* where ev came from */
};

static bool is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* The 6.1 tree's tables for the model, else the fixture excerpt. */
static void load_model(const struct tlb_profile *p, struct model_json *m)
{
	char dir[PATH_MAX], path[PATH_MAX];
	json_error_t jerr;

	if (!is_dir(arch_dir()))
		fail_msg("%s missing: make unit unpacks linux-source-6.1 there", arch_dir());
	snprintf(dir, sizeof(dir), "%s/%s", arch_dir(), p->perf_dir);
	if (!is_dir(dir))
		snprintf(dir, sizeof(dir), "%s/%s", FIXTURES, p->perf_dir);
	snprintf(m->from, sizeof(m->from), "%s", dir);
	m->ev = json_array();
	load_dir(dir, m->ev);
	m->common = NULL;
	if (!strncmp(p->perf_dir, "arm64/", 6)) {
		static const char *const common[] = {
			"common-and-microarch.json", "recommended.json",
		};
		json_t *a;

		m->common = json_array();
		for (size_t i = 0; i < ARRAY_SIZE(common); i++) {
			snprintf(path, sizeof(path), "%s/arm64/%s", arch_dir(), common[i]);
			a = json_load_file(path, 0, &jerr);
			if (!a)
				fail_msg("%s:%d: %s", path, jerr.line, jerr.text);
			json_array_extend(m->common, a);
			json_decref(a);
		}
	}
}

static void free_model(struct model_json *m)
{
	json_decref(m->ev);
	json_decref(m->common);
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static uint64_t jnum(const json_t *o, const char *key)
{
	const char *s = jstr(o, key);

	return *s ? strtoull(s, NULL, 0) : 0;
}

/* The one entry called name (EventName or ArchStdEvent) for unit; NULL
 * with why when there is none or more than one. */
static const json_t *find_one(const json_t *all, const char *name,
			      const char *unit, char *why, size_t len)
{
	const json_t *o, *hit = NULL;
	size_t i, n = 0;

	json_array_foreach(all, i, o) {
		const char *en = jstr(o, "EventName"), *as = jstr(o, "ArchStdEvent");
		const char *u = jstr(o, "Unit");

		if (strcmp(en, name) && strcmp(as, name))
			continue;
		if (unit ? strcmp(u, unit) : (*u && strcmp(u, "cpu")))
			continue;
		hit = o;
		n++;
	}
	if (n != 1) {
		snprintf(why, len, "%s%s%s is in the tables %zu times", name,
			 unit ? " for Unit " : "", unit ? unit : "", n);
		return NULL;
	}
	return hit;
}

struct perf_event {
	uint64_t code, umask, cmask, inv, edge;
	char text[2048];	/* lowercased descriptions */
};

static void add_text(struct perf_event *e, const json_t *o)
{
	size_t off = strlen(e->text);

	snprintf(e->text + off, sizeof(e->text) - off, " %s %s",
		 jstr(o, "BriefDescription"), jstr(o, "PublicDescription"));
	for (char *c = e->text; *c; c++)
		*c = (char)tolower((unsigned char)*c);
}

/* One JSON event, with the arm64 common entry's code and words. */
static int perf_event_get(const struct model_json *m, const char *name,
			  const char *unit, struct perf_event *e, char *why,
			  size_t len)
{
	const json_t *o = find_one(m->ev, name, unit, why, len), *c;

	memset(e, 0, sizeof(*e));
	if (!o)
		return -1;
	add_text(e, o);
	if (*jstr(o, "ArchStdEvent") && m->common) {
		c = find_one(m->common, jstr(o, "ArchStdEvent"), NULL, why, len);
		if (!c)
			return -1;
		add_text(e, c);
		o = c;
	}
	e->code = jnum(o, "EventCode");
	e->umask = jnum(o, "UMask");
	e->cmask = jnum(o, "CounterMask");
	e->inv = jnum(o, "Invert");
	e->edge = jnum(o, "EdgeDetect");
	return 0;
}

/* --- one row ------------------------------------------------------------ */

struct verdict {
	int checked, unchecked, bad;
	char report[16384];
	size_t off;
};

static void bad(struct verdict *v, const struct tlb_profile *p,
		const struct tlb_event *te, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void bad(struct verdict *v, const struct tlb_profile *p,
		const struct tlb_event *te, const char *fmt, ...)
{
	va_list ap;

	v->bad++;
	if (v->off >= sizeof(v->report))
		return;
	v->off += (size_t)snprintf(v->report + v->off, sizeof(v->report) - v->off,
				   "%s %s %s (%s): ", p->key,
				   tlb_role_metric(te->role), te->event, te->perf);
	va_start(ap, fmt);
	if (v->off < sizeof(v->report))
		v->off += (size_t)vsnprintf(v->report + v->off,
					    sizeof(v->report) - v->off, fmt, ap);
	va_end(ap);
	if (v->off < sizeof(v->report))
		v->off += (size_t)snprintf(v->report + v->off,
					   sizeof(v->report) - v->off, "\n");
}

/* The raw row's bits against the JSON's (OR of the unit masks of a+b). */
static void check_raw(const struct tlb_profile *p, const struct tlb_event *te,
		      const struct perf_event *want, struct verdict *v)
{
	const char *slash = strchr(te->event, '/');
	const char *unit = p->perf_unit ? p->perf_unit : "cpu";
	struct event_spec ev;
	uint64_t c, code;

	if (event_encode(te->event, &ev) || ev.source != EVSRC_RAW) {
		bad(v, p, te, "not a raw event: %s", ev.error);
		return;
	}
	c = ev.attr.config;
	if (!strncmp(p->perf_dir, "arm64/", 6)) {
		if (slash || c != want->code)
			bad(v, p, te, "config %#llx, perf's event number %#llx",
			    (unsigned long long)c, (unsigned long long)want->code);
		return;
	}
	if (!slash || (size_t)(slash - te->event) != strlen(unit) ||
	    strncmp(te->event, unit, strlen(unit))) {
		bad(v, p, te, "not on the %s PMU the JSON's Unit names", unit);
		return;
	}
	code = (c & 0xff) | ((c >> 32) & 0xf) << 8;
	if (code != want->code || ((c >> 8) & 0xff) != want->umask ||
	    ((c >> 24) & 0xff) != want->cmask || ((c >> 23) & 1) != want->inv ||
	    ((c >> 18) & 1) != want->edge)
		bad(v, p, te, "bits event %#llx umask %#llx cmask %llu, perf event %#llx umask %#llx cmask %llu",
		    (unsigned long long)code, (unsigned long long)((c >> 8) & 0xff),
		    (unsigned long long)((c >> 24) & 0xff),
		    (unsigned long long)want->code, (unsigned long long)want->umask,
		    (unsigned long long)want->cmask);
}

static void check_row(const struct tlb_profile *p, const struct tlb_event *te,
		      const struct model_json *m, bool print, struct verdict *v)
{
	const struct role_rule *r = rule_of(te->role);
	char *copy, *save = NULL, *name, why[256], buf[128];
	struct perf_event e, all = { 0 };
	const char *broke;
	bool first = true;
	int before = v->bad;

	if (!te->perf) {
		v->unchecked++;
		if (print)
			printf("  %-12s %-22s %-44s not checked: no perf name\n", p->key,
			       tlb_role_metric(te->role), te->event);
		return;
	}
	if (!r) {
		bad(v, p, te, "no rule for this role");
		return;
	}
	v->checked++;
	copy = xstrdup(te->perf);
	for (name = strtok_r(copy, "+", &save); name; name = strtok_r(NULL, "+", &save)) {
		if (perf_event_get(m, name, p->perf_unit, &e, why, sizeof(why))) {
			bad(v, p, te, "%s", why);
			break;
		}
		broke = rule_breaks(r, e.text, name, buf, sizeof(buf));
		if (broke)
			bad(v, p, te, "%s's description %s:%s", name, broke, e.text);
		if (!first && (e.code != all.code || e.cmask != all.cmask))
			bad(v, p, te, "%s is another event code than the others", name);
		e.umask |= all.umask;
		all = e;
		first = false;
	}
	free(copy);
	if (v->bad == before && !p->pmu[0])
		check_raw(p, te, &all, v);
	if (print)
		printf("  %-12s %-22s %-44s %s %s\n", p->key, tlb_role_metric(te->role),
		       te->event, v->bad == before ? "ok  " : "FAIL", te->perf);
}

static int check_profile(const struct tlb_profile *p, bool print, struct verdict *v)
{
	struct model_json m;
	int before = v->bad;
	size_t i;

	load_model(p, &m);
	if (print)
		printf("%s: %s, perf JSON from %s\n", p->key, p->model, m.from);
	for (i = 0; i < p->nev; i++)
		check_row(p, &p->ev[i], &m, print, v);
	free_model(&m);
	return v->bad - before;
}

/* --- the tests ---------------------------------------------------------- */

static void test_every_row_means_its_role(void **state)
{
	static const char *const required[] = {
		"zen1", "zen2", "zen3", "zen4", "zen5", "spr", "emr", "gnr",
		"adl_p", "adl_e", "neoverse_n1", "neoverse_n2", "neoverse_v1",
		"neoverse_v2",
	};
	struct verdict v = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(required); i++)
		if (!tlb_profile_by_key(required[i]))
			fail_msg("no profile %s", required[i]);
	for (i = 0; i < tlb_profile_count(); i++)
		check_profile(tlb_profile_at(i), true, &v);
	printf("%zu models, %d rows checked against perf's descriptions, %d without a perf name\n",
	       tlb_profile_count(), v.checked, v.unchecked);
	if (v.bad) {
		printf("%s", v.report);
		fail_msg("%d row(s) do not count their role (above)", v.bad);
	}
	assert_true(v.checked > 100);
}

/* A copy of the profile key with one row's event (and perf name, both
 * agreeing) replaced. */
static int planted(const char *key, enum tlb_role role, const char *event,
		   const char *perf, struct verdict *v)
{
	const struct tlb_profile *real = tlb_profile_by_key(key);
	struct tlb_event ev[16];
	struct tlb_profile p;
	size_t i, hits = 0;

	assert_non_null(real);
	assert_true(real->nev <= ARRAY_SIZE(ev));
	p = *real;
	memcpy(ev, real->ev, real->nev * sizeof(*ev));
	p.ev = ev;
	for (i = 0; i < p.nev; i++)
		if (ev[i].role == role) {
			ev[i].event = event;
			ev[i].perf = perf;
			hits++;
		}
	assert_int_equal(hits, 1);
	memset(v, 0, sizeof(*v));
	return check_profile(&p, false, v);
}

static void expect_one(int bad, const struct verdict *v, const char *words)
{
	printf("planted: %s", v->report);
	if (bad != 1 || !strstr(v->report, words))
		fail_msg("wanted one failure saying \"%s\", got %d:\n%s", words, bad,
			 v->report);
}

static void test_planted_wrong_picks_fail(void **state)
{
	struct verdict v;

	(void)state;
	/* the case: STLB hits as load walks, libpfm4 and perf agree */
	expect_one(planted("skl", TLB_LOAD_WALKS, "skl::DTLB_LOAD_MISSES:STLB_HIT",
			   "DTLB_LOAD_MISSES.STLB_HIT", &v), &v, "lacks 'walk'");
	/* the same pick as a raw row on the hybrid P-core */
	expect_one(planted("adl_p", TLB_LOAD_WALKS, "cpu_core/event=0x12,umask=0x20/",
			   "DTLB_LOAD_MISSES.STLB_HIT", &v), &v, "lacks 'walk'");
	/* walks pending each cycle are not cycles with a walk */
	expect_one(planted("emr", TLB_LOAD_WALK_CYCLES, "cpu/event=0x12,umask=0x10/",
			   "DTLB_LOAD_MISSES.WALK_PENDING", &v), &v, "lacks 'cycles'");
	/* walks of 4k pages only */
	expect_one(planted("zen5", TLB_WALKS, "cpu/event=0x45,umask=0x10/",
			   "ls_l1_d_tlb_miss.tlb_reload_4k_l2_miss", &v), &v, "says 'for 4k'");
	/* arm64: L1 refills are not walks */
	expect_one(planted("neoverse_v1", TLB_WALKS, "r05", "L1D_TLB_REFILL", &v),
		   &v, "lacks 'walk'");
	expect_one(planted("neoverse_v2", TLB_L1D_REFILLS, "r4c", "L1D_TLB_REFILL_RD", &v),
		   &v, "says 'read operations'");
	/* right name, wrong bits; right bits, another core kind's PMU */
	expect_one(planted("zen4", TLB_WALKS, "cpu/event=0x45,umask=0x0f/",
			   "ls_l1_d_tlb_miss.all_l2_miss", &v), &v, "umask 0xf cmask 0, perf event 0x45 umask 0xf0");
	expect_one(planted("adl_e", TLB_LOAD_WALKS, "cpu_core/event=0x08,umask=0x0e/",
			   "DTLB_LOAD_MISSES.WALK_COMPLETED", &v), &v, "cpu_atom PMU");
	expect_one(planted("neoverse_n1", TLB_ITLB_WALKS, "r34", "ITLB_WALK", &v),
		   &v, "config 0x34, perf's event number 0x35");
}

/* Raw syntax: bits where perf's format puts them; another machine's PMU
 * encodes, unavailable; bad terms are errors. */
static void test_raw_syntax(void **state)
{
	struct event_spec ev;

	(void)state;
	assert_int_equal(event_encode("cpu_core/event=0x12,umask=0x10,cmask=1/", &ev), 0);
	assert_int_equal(ev.source, EVSRC_RAW);
	assert_int_equal(ev.attr.type, 4);
	assert_true(ev.attr.config == 0x1001012);
	assert_string_equal(ev.unavailable, "");
	assert_int_equal(event_encode("cpu_atom/event=0x08,umask=0x0e/", &ev), 0);
	assert_int_equal(ev.attr.type, 10);
	assert_int_equal(event_encode("cpu/event=0x1ff,inv,edge/", &ev), 0);
	assert_true(ev.attr.config == (0x1ffULL & 0xff) + (1ULL << 32) + (1 << 23) + (1 << 18));
	assert_int_equal(event_encode("r2d", &ev), 0);
	assert_int_equal(ev.attr.type, PERF_TYPE_RAW);
	assert_true(ev.attr.config == 0x2d);
	assert_int_equal(event_encode("no_such_pmu/event=0x12/", &ev), 0);
	assert_non_null(strstr(ev.unavailable, "PMU no_such_pmu is not on this machine"));
	assert_int_equal(event_encode("cpu/event=0x12,umask=0x100/", &ev), -1);
	assert_non_null(strstr(ev.error, "umask=0x100"));
	assert_int_equal(event_encode("cpu/event=0x12,period=3/", &ev), -1);
	assert_non_null(strstr(ev.error, "unknown term 'period'"));
	assert_int_equal(event_encode("cpu/event=0x12", &ev), -1);
	assert_int_equal(event_encode("cpu//", &ev), -1);
	assert_int_equal(event_encode("cpu/event=/", &ev), -1);
	assert_int_equal(event_encode("cpu/event=0x12=3/", &ev), -1);
	assert_int_equal(event_encode("../x/event=1/", &ev), -1);	/* never a path */
	assert_int_equal(event_encode("rxyz", &ev), -1);	/* not hex: not raw, unknown */
}

static const char *cpuinfo_key(const char *text)
{
	char path[] = "/tmp/thpbench-cpuinfo-XXXXXX";
	int fd = mkstemp(path);
	const char *key;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	key = tlb_cpuinfo_key(path);
	unlink(path);
	return key;
}

static void test_cpuinfo_finds_the_model(void **state)
{
	(void)state;
	assert_string_equal(cpuinfo_key("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\n\nprocessor\t: 1\n"), "zen5");
	assert_string_equal(cpuinfo_key("vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 97\n"), "zen4");
	assert_null(cpuinfo_key("vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 33\n"));	/* Zen 3 */
	assert_string_equal(cpuinfo_key("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\nmodel name\t: x\n"), "emr");
	assert_string_equal(cpuinfo_key("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 183\n"), "adl_p");
	assert_null(cpuinfo_key("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 167\n"));
	assert_string_equal(cpuinfo_key("processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd40\n"), "neoverse_v1");
	assert_string_equal(cpuinfo_key("CPU implementer\t: 0x41\nCPU part\t: 0xd4f\n"), "neoverse_v2");
	assert_null(cpuinfo_key("CPU implementer\t: 0x61\nCPU part\t: 0x022\n"));
	assert_null(tlb_cpuinfo_key("/nonexistent/cpuinfo"));
}

/* THPBENCH_TLB_MODEL wins, is recorded, and an unknown one is an error
 * naming the variable and the models. */
static void test_model_override(void **state)
{
	struct tlb_host h;
	char err[512];
	json_t *j;

	(void)state;
	setenv("THPBENCH_TLB_MODEL", "zen9", 1);
	assert_int_equal(tlb_model_check(err, sizeof(err)), -1);
	assert_non_null(strstr(err, "THPBENCH_TLB_MODEL=zen9"));
	assert_non_null(strstr(err, " zen5 "));
	assert_non_null(strstr(err, " neoverse_v2"));
	tlb_host_detect(&h);
	assert_non_null(strstr(h.error, "THPBENCH_TLB_MODEL=zen9"));
	setenv("THPBENCH_TLB_MODEL", "adl_e", 1);
	assert_int_equal(tlb_model_check(err, sizeof(err)), 0);
	tlb_host_detect(&h);
	assert_string_equal(h.error, "");
	assert_string_equal(h.profile->key, "adl_e");
	assert_string_equal(h.chosen_by, "THPBENCH_TLB_MODEL");
	j = tlb_host_json(&h);
	assert_string_equal(json_string_value(json_object_get(j, "key")), "adl_e");
	assert_string_equal(json_string_value(json_object_get(j, "chosen_by")), "THPBENCH_TLB_MODEL");
	assert_non_null(strstr(json_string_value(json_object_get(j, "notes")), "E-core"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "events"),
			    "tlb.itlb_walks")), "cpu_atom/event=0x85,umask=0x0e/");
	json_decref(j);
	unsetenv("THPBENCH_TLB_MODEL");
}

static void make_fake_pmu(const char *pmu, const char *type)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_sysfs, pmu);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/%s/type", fake_sysfs, pmu);
	f = fopen(path, "we");
	assert_non_null(f);
	fprintf(f, "%s\n", type);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(fake_sysfs, sizeof(fake_sysfs), "/tmp/thpbench-pmus-XXXXXX");
	if (!mkdtemp(fake_sysfs))
		return -1;
	make_fake_pmu("cpu", "4");
	make_fake_pmu("cpu_core", "4");
	make_fake_pmu("cpu_atom", "10");
	setenv("THPBENCH_PMU_SYSFS", fake_sysfs, 1);
	return 0;
}

static int teardown(void **state)
{
	static const char *const pmus[] = { "cpu", "cpu_core", "cpu_atom" };
	char path[PATH_MAX];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(pmus); i++) {
		snprintf(path, sizeof(path), "%s/%s/type", fake_sysfs, pmus[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", fake_sysfs, pmus[i]);
		rmdir(path);
	}
	rmdir(fake_sysfs);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_means_its_role),
		cmocka_unit_test(test_planted_wrong_picks_fail),
		cmocka_unit_test(test_raw_syntax),
		cmocka_unit_test(test_cpuinfo_finds_the_model),
		cmocka_unit_test(test_model_override),
	};

	unsetenv("THPBENCH_TLB_MODEL");
	setenv("THPBENCH_TRACEFS", "tests/fixtures/tracefs", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}
