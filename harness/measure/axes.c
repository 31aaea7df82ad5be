// SPDX-License-Identifier: GPL-2.0-only
#include "axes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const char *const mem_names[] = {
	[MEM_FRESH] = "fresh",
	[MEM_COMPACTED] = "compacted",
	[MEM_FRAGMENTED] = "fragmented",
	[MEM_PINNED] = "pinned",
};

const char *mem_state_name(enum mem_state st)
{
	return (size_t)st < ARRAY_SIZE(mem_names) ? mem_names[st] : "fresh";
}

void axes_init(struct axes *a)
{
	memset(a, 0, sizeof(*a));
	a->fragment_share = -1;
}

void axes_free(struct axes *a)
{
	free(a->mthp);
	free(a->mthp_shmem);
	free(a->mem);
	axes_init(a);
}

/* "memory-state" and "memory_state" are one key. */
static bool key_is(const char *key, const char *name)
{
	size_t i;

	for (i = 0; key[i] && name[i]; i++)
		if (key[i] != name[i] && !(key[i] == '-' && name[i] == '_'))
			return false;
	return !key[i] && !name[i];
}

static int parse_mem_list(struct axes *a, const char *val, char *err,
			  size_t errlen)
{
	char *copy = xstrdup(val), *save = NULL, *tok;
	enum mem_state *v = NULL;
	size_t n = 0, cap = 0, i, k;

	if (str_list_has_empty(val, ',')) {
		snprintf(err, errlen, "\"%s\" has an empty item", val);
		free(copy);
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		tok = str_trim(tok);
		for (k = 0; k < ARRAY_SIZE(mem_names) && strcmp(tok, mem_names[k]); k++)
			;
		for (i = 0; i < n && k < ARRAY_SIZE(mem_names) && v[i] != (enum mem_state)k; i++)
			;
		if (k == ARRAY_SIZE(mem_names) || i < n) {
			snprintf(err, errlen, k == ARRAY_SIZE(mem_names) ?
				 "\"%s\": not a memory state (fresh, compacted, fragmented or pinned)" :
				 "memory state \"%s\" is listed twice", tok);
			free(copy);
			free(v);
			return -1;
		}
		v = xgrow(v, sizeof(*v), &cap, n);
		v[n++] = (enum mem_state)k;
	}
	free(copy);
	if (!n) {
		snprintf(err, errlen, "\"%s\" has an empty item", val);
		free(v);
		return -1;
	}
	free(a->mem);
	a->mem = v;
	a->nmem = n;
	return 0;
}

static int parse_share(struct axes *a, const char *val, char *err,
		       size_t errlen)
{
	double v;

	if (parse_double(val, &v) || !isfinite(v) || v <= 0 ||
	    v > FRAGMENT_SHARE_MAX) {
		snprintf(err, errlen, "\"%s\" is not a share of free memory in (0, %.2f]",
			 val, FRAGMENT_SHARE_MAX);
		return -1;
	}
	a->fragment_share = v;
	return 0;
}

int axes_key(struct axes *a, const char *key, const char *val, char *err,
	     size_t errlen)
{
	struct mthp_choice *v;
	size_t n;

	if (key_is(key, "mthp")) {
		if (mthp_parse_choices(val, &v, &n, err, errlen))
			return -1;
		free(a->mthp);
		a->mthp = v;
		a->nmthp = n;
	} else if (key_is(key, "mthp_shmem")) {
		if (!mthp_shmem_mode_ok(val)) {
			snprintf(err, errlen, "\"%s\" is not always, inherit, within_size, advise or never",
				 val);
			return -1;
		}
		free(a->mthp_shmem);
		a->mthp_shmem = xstrdup(val);
	} else if (key_is(key, "memory_state")) {
		return parse_mem_list(a, val, err, errlen) ? -1 : 1;
	} else if (key_is(key, "fragment_share")) {
		return parse_share(a, val, err, errlen) ? -1 : 1;
	} else {
		return 0;
	}
	return 1;
}

/* The first of cli, kase, suite that sets field, or NULL. */
#define FIRST_SET(field) \
	(cli && cli->field ? cli : kase && kase->field ? kase : \
	 suite && suite->field ? suite : NULL)

void axes_resolve(const struct axes *suite, const struct axes *kase,
		  const struct axes *cli, struct axes *out)
{
	const struct axes *m = FIRST_SET(mthp), *sh = FIRST_SET(mthp_shmem);
	const struct axes *mem = FIRST_SET(mem);
	const struct axes *all[] = { cli, kase, suite };
	size_t i;

	axes_init(out);
	if (m) {
		out->mthp = xcalloc(m->nmthp, sizeof(*out->mthp));
		memcpy(out->mthp, m->mthp, m->nmthp * sizeof(*out->mthp));
		out->nmthp = m->nmthp;
	}
	if (sh)
		out->mthp_shmem = xstrdup(sh->mthp_shmem);
	if (mem) {
		out->mem = xcalloc(mem->nmem, sizeof(*out->mem));
		memcpy(out->mem, mem->mem, mem->nmem * sizeof(*out->mem));
		out->nmem = mem->nmem;
	}
	for (i = 0; i < ARRAY_SIZE(all); i++)
		if (all[i] && all[i]->fragment_share > 0) {
			out->fragment_share = all[i]->fragment_share;
			break;
		}
}

double axes_fragment_share(const struct axes *a)
{
	return a->fragment_share > 0 ? a->fragment_share : FRAGMENT_SHARE_DEFAULT;
}
