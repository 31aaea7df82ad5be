// SPDX-License-Identifier: GPL-2.0-only
/* resource - the set a run made, its journal kept in step, its undo (resource.h). */
#include "resource.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void env_copy(char *dst, const char *env, const char *def)
{
	const char *v = getenv(env);

	snprintf(dst, RES_ROOT, "%s", v && *v ? v : def);
}

/* Does the comma-separated list name word? */
static bool list_has(char *list, const char *word)
{
	char *w, *save = NULL;

	for (w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save))
		if (!strcmp(w, word))
			return true;
	return false;
}

/*
 * The mount point of a cgroup v1 hierarchy with the memory controller,
 * from PROC/self/mountinfo ("ID PARENT M:N ROOT POINT OPTS ... - cgroup
 * SOURCE SUPEROPTS"), into e->memcg_v1_root; "" when none. A point not
 * absolute or with an escaped blank (\040) is not taken.
 */
static void find_memcg_v1(struct res_env *e)
{
	char p[RES_PATH + 32], line[1024], point[RES_ROOT], *sep;
	char fstype[32], super[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/self/mountinfo", e->proc_root);
	f = fopen(p, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %*s %159s", point) != 1 ||
		    sscanf(sep + 3, "%31s %*s %511s", fstype, super) != 2)
			continue;
		if (strcmp(fstype, "cgroup") || point[0] != '/' ||
		    strchr(point, '\\') || !list_has(super, "memory"))
			continue;
		snprintf(e->memcg_v1_root, RES_ROOT, "%s", point);
		break;
	}
	fclose(f);
}

void res_env_init(struct res_env *e, const char *state_dir)
{
	char p[RES_PATH + 32];
	size_t n;

	memset(e, 0, sizeof(*e));
	snprintf(e->state_dir, sizeof(e->state_dir), "%s", state_dir);
	env_copy(e->sys_root, "THPBENCH_RES_SYS_ROOT", "/sys");
	env_copy(e->dev_root, "THPBENCH_RES_DEV_ROOT", "/dev");
	env_copy(e->proc_root, "THPBENCH_RES_PROC_ROOT", "/proc");
	env_copy(e->cgroup_root, "THPBENCH_CGROUP_ROOT", "");
	if (!*e->cgroup_root) {
		/* A v2 hierarchy: cgroup.controllers exists only there. */
		snprintf(p, sizeof(p), "%s/fs/cgroup/cgroup.controllers",
			 e->sys_root);
		if (!access(p, F_OK))
			snprintf(e->cgroup_root, RES_ROOT, "%.140s/fs/cgroup",
				 e->sys_root);
	}
	find_memcg_v1(e);
	snprintf(p, sizeof(p), "%s/sys/kernel/random/boot_id", e->proc_root);
	if (read_file_str(p, e->boot_id, sizeof(e->boot_id)))
		e->boot_id[0] = '\0';
	n = strlen(e->boot_id);
	while (n && e->boot_id[n - 1] == '\n')
		e->boot_id[--n] = '\0';
}

void res_set_init(struct res_set *set, const char *state_dir)
{
	memset(set, 0, sizeof(*set));
	res_env_init(&set->env, state_dir);
	snprintf(set->journal, sizeof(set->journal), "%s/" RES_FILE, state_dir);
}

static int sync_journal(void *arg)
{
	char err[512];

	if (res_journal_write(arg, err, sizeof(err))) {
		tb_warn("%s", err);
		return -1;
	}
	return 0;
}

int res_set_make(struct res_set *set, const struct res *proto,
		 const struct res **made, char *err, size_t errlen)
{
	struct res *r;

	if (set->n >= RES_MAX) {
		snprintf(err, errlen, "more than %d resources in one run", RES_MAX);
		return -1;
	}
	r = &set->v[set->n];
	*r = *proto;
	snprintf(r->boot_id, sizeof(r->boot_id), "%s", set->env.boot_id);
	set->n++;
	/* Journalled before anything is made. */
	if (res_journal_write(set, err, errlen)) {
		set->n--;
		return -1;
	}
	if (r->kind->make(r, &set->env, sync_journal, set, err, errlen)) {
		r->kind->undo(r, &set->env);
		set->n--;
		sync_journal(set);
		return -1;
	}
	if (res_journal_write(set, err, errlen))
		return -1;
	*made = r;
	return 0;
}

int res_set_undo(struct res_set *set)
{
	int stay = 0;
	size_t i;

	for (i = set->n; i-- > 0;) {
		if (set->v[i].gone)
			continue;
		if (set->v[i].kind->undo(&set->v[i], &set->env))
			stay++;
		else
			set->v[i].gone = true;
	}
	return stay;
}

/* Keep only the entries still there (not gone), in order. */
static void compact(struct res_set *set)
{
	size_t i, j = 0;

	for (i = 0; i < set->n; i++)
		if (!set->v[i].gone)
			set->v[j++] = set->v[i];
	set->n = j;
}

static void say_stayed(const struct res_set *set,
		       const struct settings_sink *say)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		settings_say(say, false, "would not undo %s %s%s%s; kept in %s for `thpbench restore`",
			     set->v[i].kind->name, set->v[i].path,
			     *set->v[i].dev ? " " : "", set->v[i].dev,
			     set->journal);
}

int res_set_end(struct res_set *set, const struct settings_sink *say)
{
	char err[512];
	int stay;

	if (!set->n) {
		unlink(set->journal);
		return 0;
	}
	stay = res_set_undo(set);
	compact(set);
	if (!stay) {
		unlink(set->journal);
		return 0;
	}
	say_stayed(set, say);
	if (res_journal_write(set, err, sizeof(err)))
		settings_say(say, false, "%s", err);
	return -1;
}

int res_recover(const char *state_dir, const struct settings_sink *say,
		int *undone, char *err, size_t errlen)
{
	struct res_set set;
	char why[512];
	size_t i;
	int r;

	*undone = 0;
	res_set_init(&set, state_dir);
	r = res_journal_read(state_dir, &set, err, errlen);
	if (r <= 0)
		return r;
	for (i = set.n; i-- > 0;) {
		struct res *x = &set.v[i];

		if (!x->kind->owned(x, &set.env, why, sizeof(why))) {
			settings_say(say, true, "left alone: %s %s%s%s in %s: %s",
				     x->kind->name, x->path, *x->dev ? " " : "",
				     x->dev, set.journal, why);
			x->gone = true;
			continue;
		}
		if (!x->kind->undo(x, &set.env)) {
			x->gone = true;
			(*undone)++;
		}
	}
	compact(&set);
	if (!set.n) {
		unlink(set.journal);
		return 0;
	}
	say_stayed(&set, say);
	if (res_journal_write(&set, err, errlen))
		return -1;
	snprintf(err, errlen, "%zu resource(s) of a killed run would not go (above); run `thpbench restore` once that is fixed",
		 set.n);
	return -1;
}
