// SPDX-License-Identifier: GPL-2.0-only
/* case_res - the resources a suite case asks for (case_res.h). */
#include "case_res.h"
#include "case_res_spec.h"
#include "session.h"
#include "system/resource.h"
#include "system/service_recipe.h"
#include "system/settings.h"
#include "util/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- making them ------------------------------------------------------ */

static void add_env(struct tb_case *c, const char *key, const char *val)
{
	char kv[RES_PATH + 32];

	snprintf(kv, sizeof(kv), "%s=%s", key, val);
	c->env = xrealloc(c->env, (c->nenv + 1) * sizeof(*c->env));
	c->env[c->nenv++] = xstrdup(kv);
}

static int make_swap(struct session *ss, const char *spec, struct tb_case *c,
		     char *err, size_t errlen)
{
	struct res r = { .kind = &res_kind_zram, .num = -1 };
	char buf[128], *comp;
	const struct res *made;
	uint64_t v = 1ULL << 30;

	snprintf(buf, sizeof(buf), "%s", spec[4] ? spec + 5 : "");
	comp = strchr(buf, ':');
	if (comp) {
		*comp++ = '\0';
		snprintf(r.opt, sizeof(r.opt), "%s", comp);
	}
	if (*buf)
		parse_size(buf, &v);
	r.size = (long long)v;
	if (settings_make_resource(&ss->settings, &r, &made, err, errlen))
		return -1;
	add_env(c, "THPBENCH_SWAP", made->dev);
	return 0;
}

static int make_mount(struct session *ss, const char *spec, struct tb_case *c,
		      char *err, size_t errlen)
{
	struct res m = { .kind = &res_kind_mount, .num = -1 };
	struct res l = { .kind = &res_kind_loop, .num = -1 };
	const char *colon = strchr(spec, ':');
	const struct res *made;
	uint64_t v = 512ULL << 20;

	if (!strncmp(spec, "tmpfs", 5)) {
		snprintf(m.dev, sizeof(m.dev), "tmpfs");
		snprintf(m.opt, sizeof(m.opt), "%s", spec);
	} else {
		snprintf(l.opt, sizeof(l.opt), "%.*s",
			 (int)(colon ? (size_t)(colon - spec) : strlen(spec)), spec);
		if (colon)
			parse_size(colon + 1, &v);
		l.size = (long long)v;
		if (settings_make_resource(&ss->settings, &l, &made, err, errlen))
			return -1;
		snprintf(m.dev, sizeof(m.dev), "%s", made->dev);
		snprintf(m.opt, sizeof(m.opt), "%s", l.opt);
	}
	if (settings_make_resource(&ss->settings, &m, &made, err, errlen))
		return -1;
	add_env(c, "THPBENCH_MOUNT", made->path);
	return 0;
}

static int make_memcg(struct session *ss, const char *spec, struct tb_case *c,
		      char *err, size_t errlen)
{
	struct res r = { .kind = &res_kind_cgroup, .num = -1 };
	const struct res *made;
	uint64_t v = 0;

	if (strcmp(spec, "max"))
		parse_size(spec, &v);
	if (v)
		snprintf(r.opt, sizeof(r.opt), "%llu", (unsigned long long)v);
	else
		snprintf(r.opt, sizeof(r.opt), "max");
	if (settings_make_resource(&ss->settings, &r, &made, err, errlen))
		return -1;
	add_env(c, "THPBENCH_CGROUP", made->path);
	return 0;
}

/*
 * huge_pages=on maps shared_buffers from the hugetlb pool when the
 * server starts, before any repetition would set the case's pool: its
 * hugetlb.* sizes are applied now (journalled like every knob; the
 * session keeps the pool at its largest size anyway, session_knobs.h).
 */
static int service_pool(struct session *ss, const struct suite_case *sc,
			char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < sc->nset; i++)
		if (strstr(sc->set[i].key, "/nr_hugepages") &&
		    settings_apply(&ss->settings, sc->set[i].key,
				   sc->set[i].value, err, errlen))
			return -1;
	return 0;
}

static int make_service(struct session *ss, const struct suite_case *sc,
			struct tb_case *c, char *err, size_t errlen)
{
	struct res r = { .kind = &res_kind_service, .num = -1 };
	const struct res *made;
	struct svc_recipe rc;
	char pid[24];

	if (svc_recipe_parse(sc->service, &rc, err, errlen))
		return -1;
	if (rc.prog == SVC_POSTGRES && rc.huge_pages != SVC_HUGE_OFF &&
	    service_pool(ss, sc, err, errlen))
		return -1;
	snprintf(r.opt, sizeof(r.opt), "%s", sc->service);
	if (settings_make_resource(&ss->settings, &r, &made, err, errlen))
		return -1;
	snprintf(pid, sizeof(pid), "%d", made->num);
	add_env(c, "THPBENCH_SERVICE", svc_prog_name(rc.prog));
	add_env(c, "THPBENCH_SERVICE_SOCKET", made->dev);
	add_env(c, "THPBENCH_SERVICE_PID", pid);
	if (rc.prog == SVC_POSTGRES)
		add_env(c, "THPBENCH_SERVICE_HUGE_PAGES",
			svc_huge_name(rc.huge_pages));
	return 0;
}

/* The run's one zswap entry (the value found is its opt); NULL: none. */
static const struct res *zswap_made;

/*
 * zswap is per case, unlike the rest: made (journalled, the value found
 * kept) by the first case that asks, then written before each item
 * (case_res_enter), so the other cases swap as the host would.
 */
static int make_zswap(struct session *ss, const char *spec,
		      struct tb_case *c, char *err, size_t errlen)
{
	struct res r = { .kind = &res_kind_zswap, .num = -1 };
	const char *want = !strcmp(spec, "on") ? "Y" : "N";

	snprintf(r.dev, sizeof(r.dev), "%s", want);
	if (!zswap_made && settings_make_resource(&ss->settings, &r,
						  &zswap_made, err, errlen))
		return -1;
	add_env(c, "THPBENCH_ZSWAP", want);
	return 0;
}

static const char *env_of(const struct tb_case *c, const char *key)
{
	size_t i, n = strlen(key);

	for (i = c->nenv; i-- > 0;)
		if (!strncmp(c->env[i], key, n) && c->env[i][n] == '=')
			return c->env[i] + n + 1;
	return NULL;
}

const char *case_res_cgroup(const struct session *ss, size_t case_idx)
{
	return env_of(&ss->res.cases[case_idx], "THPBENCH_CGROUP");
}

/* "{swap}" "{mount}" "{cgroup}" in one argument, replaced. */
static char *substitute(const char *arg, const struct tb_case *c)
{
	static const char *const keys[][2] = {
		{ "{swap}", "THPBENCH_SWAP" }, { "{mount}", "THPBENCH_MOUNT" },
		{ "{cgroup}", "THPBENCH_CGROUP" }, { "{service}", "THPBENCH_SERVICE_SOCKET" },
	};
	char out[4096];
	size_t o = 0, i;
	const char *p = arg, *v;

	while (*p && o < sizeof(out) - 1) {
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			size_t kl = strlen(keys[i][0]);

			v = env_of(c, keys[i][1]);
			if (v && !strncmp(p, keys[i][0], kl)) {
				o += (size_t)snprintf(out + o, sizeof(out) - o, "%s", v);
				p += kl;
				break;
			}
		}
		if (i == ARRAY_SIZE(keys))
			out[o++] = *p++;
	}
	out[o < sizeof(out) ? o : sizeof(out) - 1] = '\0';
	return xstrdup(out);
}

static void mark_items(struct session *ss, size_t ci, const char *why,
		       bool unsupported)
{
	struct tb_case *c = &ss->res.cases[ci];
	size_t i;

	for (i = 0; i < ss->plan.n; i++) {
		struct plan_item *it = &ss->plan.items[i];

		if (it->case_idx != ci || it->skip)
			continue;
		it->skip = xstrdup(why);
		it->unsupported = unsupported;
	}
	if (!c->extra)
		c->extra = json_object();
	json_object_set_new(c->extra, unsupported ? "unsupported" : "skipped",
			    json_string(why));
}

static void wire_args(struct session *ss, size_t ci)
{
	size_t i, a;

	for (i = 0; i < ss->plan.n; i++) {
		struct plan_item *it = &ss->plan.items[i];

		if (it->case_idx != ci)
			continue;
		for (a = 0; it->argv[a]; a++) {
			char *s = substitute(it->argv[a], &ss->res.cases[ci]);

			free(it->argv[a]);
			it->argv[a] = s;
		}
	}
}

static bool case_runs(const struct session *ss, size_t ci)
{
	size_t i;

	for (i = 0; i < ss->plan.n; i++)
		if (ss->plan.items[i].case_idx == ci && !ss->plan.items[i].skip)
			return true;
	return false;
}

static int make_case(struct session *ss, const struct suite_case *sc,
		     struct tb_case *c, char *err, size_t errlen)
{
	if (sc->zswap && make_zswap(ss, sc->zswap, c, err, errlen))
		return -1;
	if (sc->swap && make_swap(ss, sc->swap, c, err, errlen))
		return -1;
	if (sc->mount && make_mount(ss, sc->mount, c, err, errlen))
		return -1;
	if (sc->memcg && make_memcg(ss, sc->memcg, c, err, errlen))
		return -1;
	if (sc->service && make_service(ss, sc, c, err, errlen))
		return -1;
	return 0;
}

static const struct suite_case *suite_case_of(const struct session *ss,
					      size_t ci)
{
	size_t i;

	for (i = 0; i < ss->plan.n; i++)
		if (ss->plan.items[i].case_idx == ci)
			return ss->plan.items[i].sc;
	return NULL;
}

/* The host's own swap, as found: left alone, and said in the results. */
static void record_host_swap(struct session *ss)
{
	size_t len;
	char *text = read_whole_file("/proc/swaps", &len), *line, *save, *sp;
	json_t *a = json_array();

	if (text) {
		line = strtok_r(text, "\n", &save);	/* the heading */
		while ((line = strtok_r(NULL, "\n", &save))) {
			sp = strpbrk(line, " \t");
			if (sp)
				*sp = '\0';
			json_array_append_new(a, json_string(line));
		}
		free(text);
	}
	if (ss->res.env)
		json_object_set_new(ss->res.env, "host_swap", a);
	else
		json_decref(a);
}

void case_res_begin(struct session *ss)
{
	char err[768], why[900];
	bool any = false;
	size_t ci;

	zswap_made = NULL;
	for (ci = 0; ci < ss->res.ncases; ci++) {
		const struct suite_case *sc = suite_case_of(ss, ci);

		if (!sc || (!sc->swap && !sc->mount && !sc->memcg && !sc->zswap &&
			    !sc->service) ||
		    !case_runs(ss, ci))
			continue;
		if (!any)
			record_host_swap(ss);
		any = true;
		if (!ss->settings.active) {
			mark_items(ss, ci, "not root: the case's swap, mount, memcg or service needs root", false);
			continue;
		}
		if (make_case(ss, sc, &ss->res.cases[ci], err, sizeof(err))) {
			snprintf(why, sizeof(why), "not measurable here: %s", err);
			mark_items(ss, ci, why, true);
			continue;
		}
		wire_args(ss, ci);
	}
}

void case_res_enter(const struct session *ss, size_t case_idx)
{
	const char *want;
	char got[16];

	if (!zswap_made || !ss->settings.active)
		return;
	want = env_of(&ss->res.cases[case_idx], "THPBENCH_ZSWAP");
	if (!want)
		want = zswap_made->opt;	/* as found */
	if (!read_file_str(zswap_made->path, got, sizeof(got)) &&
	    !strcmp(got, want))
		return;
	if (write_file_str(zswap_made->path, want))
		tb_warn("cannot set %s to %s for %s", zswap_made->path, want,
			ss->res.cases[case_idx].id);
}
