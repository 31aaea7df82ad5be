// SPDX-License-Identifier: GPL-2.0-only
#include "plot_set.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void strv_push(char ***v, size_t *n, size_t *cap, const char *s)
{
	*v = xgrow(*v, sizeof(**v), cap, *n);
	(*v)[(*n)++] = xstrdup(s);
}

void plot_set_add_file(struct plot_set *ps, const char *path)
{
	strv_push(&ps->files, &ps->nfiles, &ps->fcap, path);
}

void plot_set_add_script(struct plot_set *ps, const char *path)
{
	strv_push(&ps->scripts, &ps->nscripts, &ps->scap, path);
}

void plot_set_add_kept(struct plot_set *ps, const char *path)
{
	strv_push(&ps->kept, &ps->nkept, &ps->kcap, path);
}

void plot_set_free(struct plot_set *ps)
{
	free_strv(ps->scripts, ps->nscripts);
	free_strv(ps->kept, ps->nkept);
	free_strv(ps->files, ps->nfiles);
	free_strv(ps->images, ps->nimages);
	memset(ps, 0, sizeof(*ps));
}

void plot_set_add_image(struct plot_set *ps, const char *path)
{
	strv_push(&ps->images, &ps->nimages, &ps->icap, path);
}
