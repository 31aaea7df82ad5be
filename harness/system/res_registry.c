// SPDX-License-Identifier: GPL-2.0-only
/* res_registry - the resource kinds by name (resource.h), like fio's engines. */
#include "resource.h"
#include "util/util.h"

#include <string.h>

static const struct res_kind *const kinds[] = {
	&res_kind_zram, &res_kind_loop, &res_kind_mount, &res_kind_cgroup,
	&res_kind_zswap, &res_kind_service,
};

const struct res_kind *res_kind_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i]->name, name))
			return kinds[i];
	return NULL;
}
