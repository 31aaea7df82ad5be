// SPDX-License-Identifier: GPL-2.0-only
#include "compare_env.h"

#include <stdlib.h>
#include <string.h>

#include "system/sysctl_knob.h"
#include "util/util.h"

/* Keys of env whose difference means other hardware: numbers measured
 * there say nothing about this one. */
static const char *const machine_keys[] = {
	"cpu", "nr_cpus", "machine",
};

/* Worth printing, but an A/B comparison is often about exactly these;
 * the hostname too: two machines of one model (a lab, the boots of a
 * kernel A/B, a reinstalled box) compare. */
static const char *const info_keys[] = {
	"hostname", "kernel", "kernel_config", "glibc", "mem_total_kb",
	"numa_nodes", "pmu", "root",
};

void compare_add_diff(struct comparison *c, const char *what, const char *a,
		      const char *b, bool blocking)
{
	struct compare_diff *d;

	c->diffs = xgrow(c->diffs, sizeof(*c->diffs), &c->dcap, c->ndiffs);
	d = &c->diffs[c->ndiffs++];
	/* Printed by every format: values from results files, never raw. */
	d->what = str_printable_dup(what);
	d->a = str_printable_dup(a);
	d->b = str_printable_dup(b);
	d->blocking = blocking;
	c->blocking |= blocking;
}

/* A JSON value as one short line of text; "(absent)" for NULL. */
static char *value_str(const json_t *v)
{
	char *s;

	if (!v)
		return xstrdup("(absent)");
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	return s ? s : xstrdup("?");
}

static void diff_value(struct comparison *c, const char *what,
		       const json_t *a, const json_t *b, bool blocking)
{
	char *sa, *sb;

	if (a && b && json_equal((json_t *)a, (json_t *)b))
		return;
	if (!a && !b)
		return;
	sa = value_str(a);
	sb = value_str(b);
	compare_add_diff(c, what, sa, sb, blocking);
	free(sa);
	free(sb);
}

static int cstr_order(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Sorted union of the keys of two objects (either may be NULL). */
static size_t key_union(const json_t *a, const json_t *b, const char ***out)
{
	const char **v = NULL, *key;
	const json_t *objs[2] = { a, b };
	size_t n = 0, cap = 0, i, j;
	json_t *val;

	for (i = 0; i < 2; i++) {
		if (!json_is_object(objs[i]))
			continue;
		json_object_foreach((json_t *)objs[i], key, val) {
			(void)val;
			v = xgrow(v, sizeof(*v), &cap, n);
			v[n++] = key;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cstr_order);
	for (i = 0, j = 0; i < n; i++)
		if (!j || strcmp(v[j - 1], v[i]))
			v[j++] = v[i];
	*out = v;
	return j;
}

bool compare_is_mode_knob(const char *name)
{
	return !strcmp(name, "enabled") ||
	       !strcmp(name, "transparent_hugepage/enabled");
}

/* A per-size mTHP knob, as env ("hugepages-64kB/enabled") or a case's
 * settings ("transparent_hugepage/hugepages-64kB/shmem_enabled") name it. */
static bool is_mthp_knob(const char *name)
{
	const char *slash = strrchr(name, '/');

	if (!strncmp(name, "transparent_hugepage/", 21))
		name += 21;
	return !strncmp(name, "hugepages-", 10) && slash &&
	       (!strcmp(slash, "/enabled") || !strcmp(slash, "/shmem_enabled"));
}

/* What a memory state sets with it: a fragmented case stops proactive
 * compaction (measure/plan.c). */
static bool is_mem_knob(const char *name)
{
	return !strcmp(name, SYSCTL_PROACTIVENESS);
}

enum { EXEMPT_MODE = 1, EXEMPT_MTHP = 2, EXEMPT_MEM = 4 };

static bool exempt(const char *name, int what)
{
	return ((what & EXEMPT_MODE) && compare_is_mode_knob(name)) ||
	       ((what & EXEMPT_MTHP) && is_mthp_knob(name)) ||
	       ((what & EXEMPT_MEM) && is_mem_knob(name));
}

/*
 * one_sided: a key only one side has is reported, never blocking (a knob
 * the patched kernel adds); otherwise it blocks like any difference.
 */
static void diff_objects(struct comparison *c, const char *prefix,
			 const json_t *a, const json_t *b, bool blocking,
			 int exempt_what, bool one_sided)
{
	const char **keys;
	const json_t *va, *vb;
	size_t n, i;
	char what[512];

	n = key_union(a, b, &keys);
	for (i = 0; i < n; i++) {
		/* What is compared, or what each case set for itself. */
		if (exempt(keys[i], exempt_what))
			continue;
		snprintf(what, sizeof(what), "%s%s", prefix, keys[i]);
		va = json_object_get(a, keys[i]);
		vb = json_object_get(b, keys[i]);
		diff_value(c, what, va, vb,
			   blocking && (!one_sided || (va && vb)));
	}
	free(keys);
}

void compare_env_check(struct comparison *c, bool modes_set)
{
	const json_t *ea = c->ra->env, *eb = c->rb->env;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(machine_keys); i++)
		diff_value(c, machine_keys[i], json_object_get(ea, machine_keys[i]),
			   json_object_get(eb, machine_keys[i]), true);
	diff_objects(c, "thp.", json_object_get(ea, "thp"),
		     json_object_get(eb, "thp"), true,
		     modes_set ? EXEMPT_MODE : 0, true);
	/* Pools are sized per case by the runner; the boot value is news. */
	diff_objects(c, "hugetlb.", json_object_get(ea, "hugetlb"),
		     json_object_get(eb, "hugetlb"), false, 0, false);
	for (i = 0; i < ARRAY_SIZE(info_keys); i++)
		diff_value(c, info_keys[i], json_object_get(ea, info_keys[i]),
			   json_object_get(eb, info_keys[i]), false);
}

void compare_settings_check(struct comparison *c, const struct compare_pair *p)
{
	char prefix[512];

	snprintf(prefix, sizeof(prefix), "settings of %s: ", p->title);
	/* A label names what a case changes, often a knob of its own
	 * (`set = vm/hugetlb_optimize_vmemmap=1`): under --by label that
	 * difference is the experiment, listed but not blocking. */
	diff_objects(c, prefix, p->a->settings, p->b->settings,
		     c->opts.by != COMPARE_BY_LABEL,
		     c->opts.by == COMPARE_BY_THP ? EXEMPT_MODE | EXEMPT_MTHP :
		     c->opts.by == COMPARE_BY_MTHP ? EXEMPT_MTHP :
		     c->opts.by == COMPARE_BY_MEM ? EXEMPT_MEM : 0, false);
}
