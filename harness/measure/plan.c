// SPDX-License-Identifier: GPL-2.0-only
#include "plan.h"
#include "system/hugetlb_pool.h"
#include "system/sysctl_knob.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

static bool executable(const char *path)
{
	return access(path, X_OK) == 0;
}

char *workload_path(const char *name)
{
	char self[PATH_MAX], path[PATH_MAX * 2], *slash;
	const char *dir = getenv("THPBENCH_WORKLOADS");
	ssize_t n;

	if (strchr(name, '/'))
		return xstrdup(name);
	if (dir) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (executable(path))
			return xstrdup(path);
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		snprintf(path, sizeof(path), "%s/../workloads/%s", self, name);
		if (executable(path))
			return xstrdup(path);
		snprintf(path, sizeof(path), "%s/workloads/%s", self, name);
		if (executable(path))
			return xstrdup(path);
	}
	snprintf(path, sizeof(path), "workloads/%s", name);
	if (executable(path))
		return xstrdup(path);
	return xstrdup(name);	/* execvp searches PATH */
}

static void add_knob(struct plan_item *it, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < it->nknobs; i++)
		if (!strcmp(it->knobs[i].key, key)) {
			free(it->knobs[i].value);
			it->knobs[i].value = xstrdup(value);
			return;
		}
	it->knobs = xrealloc(it->knobs, (it->nknobs + 1) * sizeof(*it->knobs));
	it->knobs[it->nknobs].key = xstrdup(key);
	it->knobs[it->nknobs++].value = xstrdup(value);
}

static bool wants_hugetlb(const struct suite_case *sc)
{
	size_t i;

	for (i = 0; i < sc->nset; i++)
		if (strstr(sc->set[i].key, "/nr_hugepages") &&
		    strcmp(sc->set[i].value, "0"))
			return true;
	return false;
}

/* One point of a case's axes: what add_item expands it with. */
struct variant {
	const struct mthp_choice *mthp;	/* NULL: no mTHP dimension */
	const char *shmem;		/* shmem_enabled of the chosen sizes */
	const enum mem_state *mem;	/* NULL: no memory dimension */
	double fragment_share;
	const char *mode;		/* THP mode */
};

/* The anon mode the chosen mTHP sizes end up in. */
static const char *mthp_mode(const struct variant *v)
{
	const char *m = v->mthp->mode;

	return !*m || !strcmp(m, "inherit") ? v->mode : m;
}

static bool expect_huge(const struct suite_case *sc, const struct variant *v)
{
	if (sc->expect_huge == EXPECT_YES)
		return true;
	if (sc->expect_huge == EXPECT_NO)
		return false;
	return !strcmp(v->mthp ? mthp_mode(v) : v->mode, "always") ||
	       wants_hugetlb(sc);
}

/* "NAME[/mthp=X][/mem=Y]/thp=MODE", and the dims object. */
static void name_case(struct tb_case *c, const struct suite_case *sc,
		      const struct variant *v)
{
	char id[512];
	size_t n;

	n = (size_t)snprintf(id, sizeof(id), "%s", sc->name);
	if (v->mthp || v->mem)
		c->dims = json_object();
	if (v->mthp) {
		n += (size_t)snprintf(id + n, sizeof(id) - n, "/mthp=%s", v->mthp->name);
		json_object_set_new(c->dims, "mthp", json_string(v->mthp->name));
	}
	if (v->mem && n < sizeof(id)) {
		n += (size_t)snprintf(id + n, sizeof(id) - n, "/mem=%s",
				      mem_state_name(*v->mem));
		json_object_set_new(c->dims, "mem", json_string(mem_state_name(*v->mem)));
	}
	if (n < sizeof(id))
		snprintf(id + n, sizeof(id) - n, "/thp=%s", v->mode);
	c->id = xstrdup(id);
}

static void fill_case(struct tb_case *c, const struct suite_case *sc,
		      const struct variant *v, const struct plan_opts *o)
{
	size_t i;

	name_case(c, sc, v);
	c->name = xstrdup(sc->name);
	c->workload = xstrdup(sc->workload);
	c->nargs = sc->nargs;
	c->args = xcalloc(sc->nargs + 1, sizeof(char *));
	for (i = 0; i < sc->nargs; i++)
		c->args[i] = xstrdup(sc->args[i]);
	c->nenv = sc->nenv;
	c->env = xcalloc(sc->nenv + 1, sizeof(char *));
	for (i = 0; i < sc->nenv; i++)
		c->env[i] = xstrdup(sc->env[i]);
	c->thp = xstrdup(v->mode);
	c->label = xstrdup(o->label ? o->label : sc->label ? sc->label : "");
	c->expect_huge = expect_huge(sc, v);
	c->settings = json_object();
	c->extra = json_deep_copy(sc->extra);
}

static void skip_if_needed(struct plan_item *it, const struct plan_opts *o,
			   const char *mode)
{
	char why[256];

	if (it->skip || o->can_write)
		return;
	if (it->has_mem && it->mem != MEM_FRESH)
		snprintf(why, sizeof(why),
			 "not root: memory cannot be %s here",
			 mem_state_name(it->mem));
	else if (!it->nknobs)
		return;
	else if (strcmp(mode, o->current_thp))
		snprintf(why, sizeof(why),
			 "not root: THP is \"%s\" here and cannot be switched to \"%s\"",
			 o->current_thp, mode);
	else
		snprintf(why, sizeof(why),
			 "not root: the case sets %s, which needs root",
			 it->knobs[0].key);
	it->skip = xstrdup(why);
}

/* A case that needs a hugetlb pool this host does not have. */
static void unsupported_if_needed(struct plan_item *it,
				  const struct plan_opts *o)
{
	char why[512];
	size_t i;

	if (!o->sysfs_root || it->skip)
		return;
	for (i = 0; i < it->nknobs; i++) {
		if (hugetlb_is_pool_knob(it->knobs[i].key) &&
		    hugetlb_pool_missing(o->sysfs_root, it->knobs[i].key,
					 o->proc_root ? o->proc_root : "/proc",
					 why, sizeof(why))) {
			it->skip = xstrdup(why);
			it->unsupported = true;
			return;
		}
	}
}

static void add_mthp_knob(const char *knob, const char *value, void *arg)
{
	add_knob(arg, knob, value);
}

/* The variant's mTHP knobs and memory state; a size this kernel lacks
 * makes the item "not measurable here". */
static void add_axes(struct plan_item *it, const struct variant *v,
		     const struct plan_opts *o)
{
	char why[256];

	if (v->mem) {
		it->has_mem = true;
		it->mem = *v->mem;
		it->fragment_share = v->fragment_share;
		/* Proactive compaction would rebuild the free 2 MiB blocks
		 * the fragmenter breaks up (sysctl_knob.h). */
		if ((it->mem == MEM_FRAGMENTED || it->mem == MEM_PINNED) &&
		    o->stop_proactive)
			add_knob(it, SYSCTL_PROACTIVENESS, "0");
	}
	if (!v->mthp)
		return;
	it->has_mthp = true;
	it->mthp = *v->mthp;
	if (mthp_choice_knobs(v->mthp, v->mode, v->shmem, o->mthp_sizes,
			      o->nmthp_sizes, add_mthp_knob, it, why, sizeof(why))) {
		it->skip = xstrdup(why);
		it->unsupported = true;
	}
}

static void add_item(struct plan *plan, struct tb_results *r, const struct suite *s,
		     const struct suite_case *sc, const struct variant *v,
		     const struct plan_opts *o)
{
	struct tb_case *c = results_add_case(r);
	struct plan_item *it;
	size_t i;

	plan->items = xgrow(plan->items, sizeof(*plan->items), &plan->cap, plan->n);
	it = &plan->items[plan->n++];
	memset(it, 0, sizeof(*it));
	it->case_idx = r->ncases - 1;
	it->sc = sc;
	fill_case(c, sc, v, o);
	if (o->can_write || strcmp(v->mode, o->current_thp))
		add_knob(it, "transparent_hugepage/enabled", v->mode);
	add_axes(it, v, o);
	for (i = 0; i < sc->nset; i++)
		add_knob(it, sc->set[i].key, sc->set[i].value);
	for (i = 0; i < it->nknobs; i++)
		json_object_set_new(c->settings, it->knobs[i].key,
				    json_string(it->knobs[i].value));
	it->path = workload_path(sc->workload);
	it->argv = xcalloc(sc->nargs + 2, sizeof(char *));
	it->argv[0] = xstrdup(sc->workload);
	for (i = 0; i < sc->nargs; i++)
		it->argv[i + 1] = xstrdup(sc->args[i]);
	it->reps = o->reps >= 0 ? o->reps : sc->repetitions >= 0 ?
		   sc->repetitions : s->repetitions;
	it->warmup = o->warmup >= 0 ? o->warmup : sc->warmup >= 0 ?
		     sc->warmup : s->warmup;
	it->timeout_s = o->timeout_s >= 0 ? o->timeout_s : sc->timeout_s >= 0 ?
			sc->timeout_s : s->timeout_s;
	it->expect_huge = c->expect_huge;
	unsupported_if_needed(it, o);
	if (!it->skip)
		skip_if_needed(it, o, v->mode);
	if (it->skip) {
		if (!c->extra)
			c->extra = json_object();
		json_object_set_new(c->extra, it->unsupported ? "unsupported" :
				    "skipped", json_string(it->skip));
	}
}

/* Every point of the case's mTHP x memory x THP axes, in that order. */
static void add_case(struct plan *plan, struct tb_results *r,
		     const struct suite *s, const struct suite_case *sc,
		     const struct plan_opts *o)
{
	static char *current_only[] = { "current" };
	char **modes = o->thp_override ? o->thp_override : sc->thp ? sc->thp :
		       s->thp ? s->thp : current_only;
	size_t nmodes = o->thp_override ? o->nthp_override : sc->thp ? sc->nthp :
			s->thp ? s->nthp : 1;
	size_t im, ie, j;
	struct variant v;
	struct axes ax;

	axes_resolve(&s->axes, &sc->axes, o->axes, &ax);
	for (im = 0; im < (ax.mthp ? ax.nmthp : 1); im++)
		for (ie = 0; ie < (ax.mem ? ax.nmem : 1); ie++)
			for (j = 0; j < nmodes; j++) {
				v = (struct variant){
					.mthp = ax.mthp ? &ax.mthp[im] : NULL,
					.shmem = ax.mthp_shmem,
					.mem = ax.mem ? &ax.mem[ie] : NULL,
					.fragment_share = axes_fragment_share(&ax),
					.mode = strcmp(modes[j], "current") ?
						modes[j] : o->current_thp,
				};
				add_item(plan, r, s, sc, &v, o);
			}
	axes_free(&ax);
}

void plan_build(const struct suite *s, const struct plan_opts *o,
		struct plan *plan, struct tb_results *r)
{
	size_t i;

	memset(plan, 0, sizeof(*plan));
	for (i = 0; i < s->ncases; i++)
		add_case(plan, r, s, &s->cases[i], o);
}

void plan_free(struct plan *plan)
{
	size_t i, j;

	for (i = 0; i < plan->n; i++) {
		struct plan_item *it = &plan->items[i];

		for (j = 0; j < it->nknobs; j++) {
			free(it->knobs[j].key);
			free(it->knobs[j].value);
		}
		free(it->knobs);
		free(it->path);
		for (j = 0; it->argv && it->argv[j]; j++)
			free(it->argv[j]);
		free(it->argv);
		free(it->skip);
	}
	free(plan->items);
	memset(plan, 0, sizeof(*plan));
}
