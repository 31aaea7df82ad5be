// SPDX-License-Identifier: GPL-2.0-only
#include "suite.h"
#include "profile.h"
#include "case_res_spec.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "system/sysctl_knob.h"
#include "util/safe_file.h"
#include "util/util.h"

/* inih's buffers (ini.h: INI_MAX_LINE 200, names of 50 bytes). */
#define SUITE_MAX_LINE 199
#define SUITE_MAX_NAME 49

struct section_at {
	char *name;
	int line;
};

struct parse_state {
	struct suite *s;
	struct section_at *sect;
	size_t nsect, sect_cap;
	char err[512];
	char section[160];
	struct suite_case *cur_case;
	struct suite_claim *cur_claim;
};

static const char *const thp_modes[] = { "always", "madvise", "never", "current" };

static int fail(struct parse_state *ps, const char *fmt, const char *a,
		const char *b)
{
	if (!ps->err[0])
		snprintf(ps->err, sizeof(ps->err), fmt, a, b);
	return 0;
}

int split_args(const char *s, char ***out, size_t *n)
{
	char **v = NULL, *tok = xmalloc(strlen(s) + 1);
	size_t cap = 0, len;
	char quote;

	*n = 0;
	while (*s) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		len = 0;
		while (*s && !isspace((unsigned char)*s)) {
			if (*s != '\'' && *s != '"') {
				tok[len++] = *s++;
				continue;
			}
			quote = *s++;
			while (*s && *s != quote)
				tok[len++] = *s++;
			if (*s != quote) {
				free(tok);
				free_strv(v, *n);
				*out = NULL;
				*n = 0;
				return -1;
			}
			s++;
		}
		tok[len] = '\0';
		v = xgrow(v, sizeof(*v), &cap, *n + 1);
		v[(*n)++] = xstrdup(tok);
	}
	free(tok);
	*out = v;
	return 0;
}

int parse_thp_list(const char *list, char ***out, size_t *n, char *err,
		   size_t errlen)
{
	char *copy = xstrdup(list), *save = NULL, *tok;
	char **v = NULL;
	size_t cap = 0, i;

	*n = 0;
	if (str_list_has_empty(list, ',')) {
		snprintf(err, errlen, "THP mode list \"%s\" has an empty item", list);
		free(copy);
		return -1;
	}
	for (tok = strtok_r(copy, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		for (i = 0; i < ARRAY_SIZE(thp_modes); i++)
			if (!strcmp(tok, thp_modes[i]))
				break;
		if (i == ARRAY_SIZE(thp_modes)) {
			snprintf(err, errlen, "unknown THP mode \"%s\" "
				 "(use always, madvise, never or current)", tok);
			free(copy);
			free_strv(v, *n);
			return -1;
		}
		for (i = 0; i < *n && strcmp(v[i], tok); i++)
			;
		if (i < *n) {
			snprintf(err, errlen, "THP mode \"%s\" is listed twice", tok);
			free(copy);
			free_strv(v, *n);
			return -1;
		}
		v = xgrow(v, sizeof(*v), &cap, *n);
		v[(*n)++] = xstrdup(tok);
	}
	free(copy);
	if (!*n) {
		snprintf(err, errlen, "empty THP mode list");
		return -1;
	}
	*out = v;
	return 0;
}

static int to_int(struct parse_state *ps, const char *key, const char *val,
		  int *out)
{
	long v;
	long min = strcmp(key, "repetitions") ? 0 : 1;

	if (parse_long(val, &v) || v < min || v > 1000000)
		return fail(ps, min ? "%s: \"%s\" is not a whole number >= 1" :
			    "%s: \"%s\" is not a whole number >= 0", key, val);
	*out = (int)v;
	return 1;
}

static int to_seconds(struct parse_state *ps, const char *key,
		      const char *val, double *out)
{
	if (parse_double(val, out) || *out < 0)
		return fail(ps, "%s: \"%s\" is not a number of seconds", key, val);
	return 1;
}

static void push_str(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

/* An axes.h key (mthp, memory_state, ...): true when it is one, with
 * ps->err set when its value is bad. */
static bool is_axis_key(struct parse_state *ps, struct axes *a,
			const char *key, const char *val)
{
	char why[400];
	int rc = axes_key(a, key, val, why, sizeof(why));

	if (rc < 0)
		fail(ps, "%s: %s", key, why);
	return rc != 0;
}

static int suite_key(struct parse_state *ps, const char *key, const char *val)
{
	struct suite *s = ps->s;

	if (!strcmp(key, "name"))
		free(s->name), s->name = xstrdup(val);
	else if (!strcmp(key, "description"))
		free(s->description), s->description = xstrdup(val);
	else if (!strcmp(key, "repetitions"))
		return to_int(ps, key, val, &s->repetitions);
	else if (!strcmp(key, "warmup"))
		return to_int(ps, key, val, &s->warmup);
	else if (!strcmp(key, "timeout"))
		return to_seconds(ps, key, val, &s->timeout_s);
	else if (!strcmp(key, "events") && str_list_has_empty(val, ','))
		return fail(ps, "events: \"%s\" has an empty item (a comma list of event names)%s",
			    val, "");
	else if (!strcmp(key, "events"))
		free(s->events), s->events = xstrdup(val);
	else if (!strcmp(key, "thp")) {
		free_strv(s->thp, s->nthp);
		s->thp = NULL;
		if (parse_thp_list(val, &s->thp, &s->nthp, ps->err, sizeof(ps->err)))
			return 0;
	} else if (!strcmp(key, "order")) {
		if (strcmp(val, "interleave") && strcmp(val, "shuffle") &&
		    strcmp(val, "sequential"))
			return fail(ps, "order: \"%s\" is not one of interleave, shuffle, sequential%s",
				    val, "");
		free(s->order), s->order = xstrdup(val);
	} else if (!strcmp(key, "seed")) {
		long v;

		if (parse_long(val, &v) || v < 0)
			return fail(ps, "seed: \"%s\" is not a whole number%s", val, "");
		s->seed = (unsigned long)v;
		s->seed_set = true;
	} else if (!strcmp(key, "background")) {
		if (strcmp(val, "yes") && strcmp(val, "no"))
			return fail(ps, "background: \"%s\" is not yes or no%s", val, "");
		s->background = !strcmp(val, "yes");
	} else if (!strcmp(key, "profile")) {
		if (profile_mode_parse(val) < 0)
			return fail(ps, "profile: \"%s\" is not task, system or off%s", val, "");
		free(s->profile), s->profile = xstrdup(val);
	} else if (is_axis_key(ps, &s->axes, key, val)) {
		return !ps->err[0];
	} else {
		return fail(ps, "unknown key \"%s\" in [suite]%s", key, "");
	}
	return 1;
}

static int hugetlb_key(struct parse_state *ps, const char *key, const char *val)
{
	struct suite_case *c = ps->cur_case;
	char knob[128];
	unsigned long kb;
	long v;

	if (parse_long(val, &v) || v < 0)
		return fail(ps, "%s: \"%s\" is not a number of huge pages", key, val);
	if (strspn(key + 8, "0123456789") + 2 != strlen(key + 8) ||
	    strcmp(key + strlen(key) - 2, "kB"))
		return fail(ps, "%s: name the page size in kB, e.g. hugetlb.2048kB%s",
			    key, "");
	/* Huge pages are a power of two, 64 kB (arm64 contiguous) or more. */
	kb = strtoul(key + 8, NULL, 10);
	if (kb < 64 || kb > (1ul << 30) || (kb & (kb - 1)))
		return fail(ps, "%s: not a huge page size (a power of two, 64kB or more: 2048kB, 1048576kB)%s",
			    key, "");
	snprintf(knob, sizeof(knob), "hugepages/hugepages-%s/nr_hugepages", key + 8);
	c->set = xrealloc(c->set, (c->nset + 1) * sizeof(*c->set));
	c->set[c->nset].key = xstrdup(knob);
	c->set[c->nset++].value = xstrdup(val);
	return 1;
}

static int set_key(struct parse_state *ps, const char *val)
{
	struct suite_case *c = ps->cur_case;
	const char *eq = strchr(val, '=');
	char *knob;

	if (!eq || eq == val)
		return fail(ps, "set: \"%s\" is not knob=value%s", val, "");
	knob = str_trim(xstrndup(val, (size_t)(eq - val)));
	/* The sysctl knobs thpbench manages are named whole, never built. */
	if (strstr(knob, "..") || (strncmp(knob, "transparent_hugepage/", 21) &&
				   strncmp(knob, "hugepages/", 10) &&
				   !sysctl_knob_name_ok(knob))) {
		fail(ps, "set: knob \"%s\" is not under transparent_hugepage/ or hugepages/, nor one of the sysctl knobs thpbench manages (" SYSCTL_PROACTIVENESS ", " SYSCTL_HUGETLB_VMEMMAP ", " SYSCTL_NUMA_BALANCING ", " SYSCTL_COMPACT_UNEVICTABLE ")%s",
		     knob, "");
		free(knob);
		return 0;
	}
	c->set = xrealloc(c->set, (c->nset + 1) * sizeof(*c->set));
	c->set[c->nset].key = xstrdup(knob);
	c->set[c->nset++].value = xstrdup(str_trim((char *)eq + 1));
	free(knob);
	return 1;
}

static json_t *metric_obj(struct suite_case *c, const char *metric)
{
	json_t *all = json_object_get(c->extra, "metric"), *m;

	if (!all) {
		all = json_object();
		json_object_set_new(c->extra, "metric", all);
	}
	m = json_object_get(all, metric);
	if (!m) {
		m = json_object();
		json_object_set_new(all, metric, m);
	}
	return m;
}

/* METRIC of a "better.METRIC" or "threshold.METRIC" key; NULL if not one. */
static const char *metric_of(const char *key)
{
	static const char *const prefixes[] = { "better.", "threshold." };
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++) {
		n = strlen(prefixes[i]);
		if (!strncmp(key, prefixes[i], n) && key[n])
			return key + n;
	}
	return NULL;
}

/* "5", "5%" or "5 %": the number, which must be all there is. */
static bool is_percent(const char *val, double *pct)
{
	char buf[64];
	size_t n = strlen(val);

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, val, n + 1);
	if (n && buf[n - 1] == '%')
		buf[n - 1] = '\0';
	return !parse_double(str_trim(buf), pct);
}

static int metric_key(struct parse_state *ps, const char *key, const char *val)
{
	struct suite_case *c = ps->cur_case;
	const char *metric = metric_of(key);
	double pct;

	if (!strncmp(key, "better.", 7)) {
		if (strcmp(val, "lower") && strcmp(val, "higher"))
			return fail(ps, "%s: \"%s\" is not lower or higher", key, val);
		json_object_set_new(metric_obj(c, metric), "better", json_string(val));
		return 1;
	}
	if (!is_percent(val, &pct))
		return fail(ps, "%s: \"%s\" is not a percentage", key, val);
	if (pct < 0 || pct > 100)
		return fail(ps, "%s: \"%s\" is not a percentage in 0..100", key, val);
	json_object_set_new(metric_obj(c, metric), "threshold", json_real(pct / 100));
	return 1;
}

/* swap, mount, memcg, zswap, service: checked here, made by case_res.c. */
static int resource_key(struct parse_state *ps, const char *key,
			const char *val)
{
	struct suite_case *c = ps->cur_case;
	char why[256];
	char **slot = !strcmp(key, "swap") ? &c->swap :
		      !strcmp(key, "mount") ? &c->mount :
		      !strcmp(key, "zswap") ? &c->zswap :
		      !strcmp(key, "service") ? &c->service : &c->memcg;

	if (case_res_check(key, val, why, sizeof(why)))
		return fail(ps, "%s: %s", key, why);
	free(*slot);
	*slot = xstrdup(val);
	return 1;
}

static int case_key(struct parse_state *ps, const char *key, const char *val)
{
	struct suite_case *c = ps->cur_case;

	if (!strcmp(key, "workload"))
		free(c->workload), c->workload = xstrdup(val);
	else if (!strcmp(key, "args")) {
		free_strv(c->args, c->nargs);
		c->args = NULL;
		c->nargs = 0;
		if (split_args(val, &c->args, &c->nargs))
			return fail(ps, "args: unbalanced quote in \"%s\"%s", val, "");
	} else if (!strcmp(key, "env")) {
		if (!strchr(val, '=') || *val == '=')
			return fail(ps, "env: \"%s\" is not KEY=VALUE%s", val, "");
		push_str(&c->env, &c->nenv, val);
	} else if (!strcmp(key, "thp")) {
		free_strv(c->thp, c->nthp);
		c->thp = NULL;
		if (parse_thp_list(val, &c->thp, &c->nthp, ps->err, sizeof(ps->err)))
			return 0;
	} else if (!strcmp(key, "label"))
		free(c->label), c->label = xstrdup(val);
	else if (!strcmp(key, "description"))
		json_object_set_new(c->extra, "description", json_string(val));
	else if (!strcmp(key, "set"))
		return set_key(ps, val);
	else if (!strncmp(key, "hugetlb.", 8))
		return hugetlb_key(ps, key, val);
	else if (!strcmp(key, "expect_huge")) {
		if (!strcmp(val, "auto"))
			c->expect_huge = EXPECT_AUTO;
		else if (!strcmp(val, "yes"))
			c->expect_huge = EXPECT_YES;
		else if (!strcmp(val, "no"))
			c->expect_huge = EXPECT_NO;
		else
			return fail(ps, "expect_huge: \"%s\" is not auto, yes or no%s", val, "");
	} else if (!strcmp(key, "repetitions"))
		return to_int(ps, key, val, &c->repetitions);
	else if (!strcmp(key, "warmup"))
		return to_int(ps, key, val, &c->warmup);
	else if (!strcmp(key, "timeout"))
		return to_seconds(ps, key, val, &c->timeout_s);
	else if (!strcmp(key, "drop_slab")) {
		if (strcmp(val, "yes") && strcmp(val, "no"))
			return fail(ps, "drop_slab: \"%s\" is not yes or no%s", val, "");
		c->drop_slab = !strcmp(val, "yes");
	} else if (!strcmp(key, "swap") || !strcmp(key, "mount") ||
		 !strcmp(key, "memcg") || !strcmp(key, "zswap") ||
		 !strcmp(key, "service"))
		return resource_key(ps, key, val);
	else if (metric_of(key))
		return metric_key(ps, key, val);
	else if (is_axis_key(ps, &c->axes, key, val))
		return !ps->err[0];
	else
		return fail(ps, "unknown key \"%s\" in [case %s]", key, c->name);
	return 1;
}

static const char *const claim_keys[] = {
	"posting", "comparison", "metric", "base", "new", "claimed",
	"claimed_value", "better", "sense", "needs", "tolerance",
	"superseded_by", "superseded_check", "superseded_config", "depends",
	"not_comparable_on", "derived", "control", "detail_of", "parts", "note",
	"kind", "claimed_new", "within", "per", "source",
};

static int claim_key(struct parse_state *ps, const char *key, const char *val)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(claim_keys); i++)
		if (!strcmp(key, claim_keys[i]))
			break;
	if (i == ARRAY_SIZE(claim_keys))
		return fail(ps, "unknown key \"%s\" in [claim %s]", key,
			    ps->cur_claim->id);
	if (!strcmp(key, "kind") && strcmp(val, "factor") && strcmp(val, "level"))
		return fail(ps, "kind: \"%s\" is not factor or level%s", val, "");
	json_object_set_new(ps->cur_claim->fields, key, json_string(val));
	return 1;
}

/* Line of the section header, from the pre-scan. */
static int section_line(const struct parse_state *ps, const char *section)
{
	size_t i;

	for (i = 0; i < ps->nsect; i++)
		if (!strcmp(ps->sect[i].name, section))
			return ps->sect[i].line;
	return 0;
}

/*
 * What inih would accept silently: a NUL byte (the value ends there), a
 * line, section or key name longer than its buffers (cut), a section
 * header given twice (merged). Records each section header's line.
 */
static int prescan(struct parse_state *ps, const char *text, size_t len,
		   char *err, size_t errlen)
{
	const char *p = text, *end = text + len, *nl, *q, *e;
	int line = 0;
	size_t n, i;

	for (; p < end; p = nl + 1) {
		line++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		n = (size_t)(nl - p);
		if (memchr(p, '\0', n)) {
			snprintf(err, errlen, "%s:%d: a NUL byte (a suite is text)",
				 ps->s->path, line);
			return -1;
		}
		if (n > SUITE_MAX_LINE) {
			snprintf(err, errlen, "%s:%d: the line is %zu characters long; at most %d",
				 ps->s->path, line, n, SUITE_MAX_LINE);
			return -1;
		}
		for (q = p; q < nl && isspace((unsigned char)*q); q++)
			;
		if (q == nl || *q == ';' || *q == '#')
			continue;
		if (*q != '[') {
			e = q + strcspn(q, "=:\n");
			while (e > q && isspace((unsigned char)e[-1]))
				e--;
			if (e - q > SUITE_MAX_NAME) {
				snprintf(err, errlen, "%s:%d: the key is %d characters long; at most %d",
					 ps->s->path, line, (int)(e - q), SUITE_MAX_NAME);
				return -1;
			}
			continue;
		}
		e = memchr(q, ']', (size_t)(nl - q));
		if (!e)
			continue;	/* inih reports it */
		if (e - q - 1 > SUITE_MAX_NAME) {
			snprintf(err, errlen, "%s:%d: the section name is %d characters long; at most %d",
				 ps->s->path, line, (int)(e - q - 1), SUITE_MAX_NAME);
			return -1;
		}
		for (i = 0; i < ps->nsect; i++) {
			if (strlen(ps->sect[i].name) == (size_t)(e - q - 1) &&
			    !memcmp(ps->sect[i].name, q + 1, (size_t)(e - q - 1))) {
				snprintf(err, errlen, "%s:%d: [%s] appears twice (first at line %d)",
					 ps->s->path, line, ps->sect[i].name,
					 ps->sect[i].line);
				return -1;
			}
		}
		ps->sect = xgrow(ps->sect, sizeof(*ps->sect), &ps->sect_cap, ps->nsect);
		ps->sect[ps->nsect].name = xstrndup(q + 1, (size_t)(e - q - 1));
		ps->sect[ps->nsect++].line = line;
	}
	return 0;
}

static int open_section(struct parse_state *ps, const char *section)
{
	struct suite *s = ps->s;

	snprintf(ps->section, sizeof(ps->section), "%s", section);
	ps->cur_case = NULL;
	ps->cur_claim = NULL;
	if (!strcmp(section, "suite"))
		return 1;
	if (!strncmp(section, "case ", 5) && section[5]) {
		struct suite_case *c;
		size_t i;

		for (i = 0; i < s->ncases; i++)
			if (!strcmp(s->cases[i].name, section + 5))
				return fail(ps, "[%s] appears twice%s", section, "");
		s->cases = xgrow(s->cases, sizeof(*s->cases), &s->cap, s->ncases);
		c = &s->cases[s->ncases++];
		c->name = xstrdup(str_trim((char *)section + 5));
		c->repetitions = c->warmup = -1;
		c->timeout_s = -1;
		c->extra = json_object();
		c->line = section_line(ps, section);
		ps->cur_case = c;
		return 1;
	}
	if (!strncmp(section, "claim ", 6) && section[6]) {
		struct suite_claim *cl;

		s->claims = xgrow(s->claims, sizeof(*s->claims), &s->claims_cap,
				  s->nclaims);
		cl = &s->claims[s->nclaims++];
		cl->id = xstrdup(section + 6);
		cl->fields = json_object();
		cl->line = section_line(ps, section);
		ps->cur_claim = cl;
		return 1;
	}
	return fail(ps, "unknown section [%s] (use [suite], [case NAME] or [claim ID])%s",
		    section, "");
}

/* "value # note": inih keeps the note as part of the value. */
static bool has_comment(const char *val)
{
	const char *p;

	if (*val == '#')
		return true;
	for (p = val; (p = strchr(p, '#')); p++)
		if (isspace((unsigned char)p[-1]))
			return true;
	return false;
}

static int on_entry(void *user, const char *section, const char *key,
		    const char *val)
{
	struct parse_state *ps = user;

	if (ps->err[0])
		return 0;
	if (!*section)
		return fail(ps, "\"%s\" is outside any section (start with [suite])%s",
			    key, "");
	if (strcmp(section, ps->section) && !open_section(ps, section))
		return 0;
	if (has_comment(val))
		return fail(ps, "%s: \"%s\": a comment starts only at the start of a line (# or ;)",
			    key, val);
	if (ps->cur_case)
		return case_key(ps, key, val);
	if (ps->cur_claim)
		return claim_key(ps, key, val);
	return suite_key(ps, key, val);
}

/* A per-size mTHP knob: "transparent_hugepage/hugepages-<N>kB/<file>". */
static bool is_mthp_size_knob(const char *key, const char *file)
{
	const char *p = key + 31, *slash;

	if (strncmp(key, "transparent_hugepage/hugepages-", 31))
		return false;
	slash = strchr(p, '/');
	return slash && !strcmp(slash + 1, file);
}

const char *suite_case_mthp_conflict(const struct suite_case *c, bool shmem)
{
	size_t i;

	for (i = 0; i < c->nset; i++)
		if (is_mthp_size_knob(c->set[i].key, "enabled") ||
		    (shmem && is_mthp_size_knob(c->set[i].key, "shmem_enabled")))
			return c->set[i].key;
	return NULL;
}

/*
 * An mTHP axis writes every size's enabled (and, with mthp_shmem,
 * shmem_enabled): a case's own "set" of one would silently override what
 * the case id says it measures.
 */
static int check_mthp_sets(const struct suite *s, char *err, size_t errlen)
{
	const struct suite_case *c;
	const char *knob;
	size_t i;

	for (i = 0; i < s->ncases; i++) {
		c = &s->cases[i];
		if (!c->axes.mthp && !s->axes.mthp)
			continue;
		knob = suite_case_mthp_conflict(c, c->axes.mthp_shmem ||
						s->axes.mthp_shmem);
		if (!knob)
			continue;
		snprintf(err, errlen, "%s:%d: [case %s]: set = %s conflicts with mthp = %s%s (the mTHP axis writes every size's enabled%s; drop the set, or the mthp key)",
			 s->path, c->line, c->name, knob,
			 (c->axes.mthp ? c->axes.mthp : s->axes.mthp)[0].name,
			 c->axes.mthp ? "" : " of [suite]",
			 c->axes.mthp_shmem || s->axes.mthp_shmem ?
			 " and, with mthp_shmem, shmem_enabled" : "");
		return -1;
	}
	return 0;
}

static int validate(struct suite *s, char *err, size_t errlen)
{
	size_t i;

	if (!s->ncases) {
		snprintf(err, errlen, "%s: no [case NAME] section: nothing to run",
			 s->path);
		return -1;
	}
	for (i = 0; i < s->ncases; i++) {
		if (s->cases[i].workload)
			continue;
		snprintf(err, errlen, "%s:%d: [case %s] has no \"workload\" key",
			 s->path, s->cases[i].line, s->cases[i].name);
		return -1;
	}
	return check_mthp_sets(s, err, errlen);
}

static void set_defaults(struct suite *s, const char *path)
{
	const char *base = strrchr(path, '/');
	char name[128];

	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	snprintf(name, sizeof(name), "%s", base ? base + 1 : path);
	name[strcspn(name, ".")] = '\0';
	s->name = xstrdup(name);
	s->repetitions = 5;
	s->warmup = 1;
	s->timeout_s = 300;
	s->events = xstrdup("task-clock,page-faults");
	s->order = xstrdup("interleave");
}

int suite_parse(const char *path, const char *text, size_t len,
		struct suite *s, char *err, size_t errlen)
{
	struct parse_state ps = { .s = s };
	size_t i;
	int line, rc = -1;

	set_defaults(s, path);
	if (prescan(&ps, text, len, err, errlen))
		goto out;
	line = ini_parse_string(text, on_entry, &ps);
	if (line > 0) {
		snprintf(err, errlen, "%s:%d: %s", path, line,
			 ps.err[0] ? ps.err : "syntax error (expected [section] or key = value)");
		goto out;
	}
	rc = validate(s, err, errlen);
out:
	for (i = 0; i < ps.nsect; i++)
		free(ps.sect[i].name);
	free(ps.sect);
	if (rc)
		suite_free(s);
	return rc;
}

int suite_load(const char *path, struct suite *s, char *err, size_t errlen)
{
	size_t len;
	char *text = read_regular(path, 0, &len, err, errlen);
	int rc;

	if (!text) {
		memset(s, 0, sizeof(*s));
		return -1;
	}
	rc = suite_parse(path, text, len, s, err, errlen);
	free(text);
	return rc;
}

void suite_free(struct suite *s)
{
	size_t i, j;

	for (i = 0; i < s->ncases; i++) {
		struct suite_case *c = &s->cases[i];

		free(c->name);
		free(c->workload);
		free(c->label);
		free_strv(c->args, c->nargs);
		free(c->swap);
		free(c->mount);
		free(c->memcg);
		free(c->zswap);
		free(c->service);
		free_strv(c->env, c->nenv);
		free_strv(c->thp, c->nthp);
		for (j = 0; j < c->nset; j++) {
			free(c->set[j].key);
			free(c->set[j].value);
		}
		free(c->set);
		json_decref(c->extra);
		axes_free(&c->axes);
	}
	for (i = 0; i < s->nclaims; i++) {
		free(s->claims[i].id);
		json_decref(s->claims[i].fields);
	}
	free(s->claims);
	free(s->cases);
	free(s->path);
	free(s->name);
	free(s->description);
	free(s->events);
	free_strv(s->thp, s->nthp);
	free(s->order);
	free(s->profile);
	axes_free(&s->axes);
	memset(s, 0, sizeof(*s));
}

const char *claim_field(const struct suite_claim *cl, const char *key)
{
	const char *s = json_string_value(json_object_get(cl->fields, key));

	return s ? s : "";
}
