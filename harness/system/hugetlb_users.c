// SPDX-License-Identifier: GPL-2.0-only
#include "hugetlb_users.h"
#include "util/util.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAMED 3

struct holder {
	long pid;
	long kb;
	char name[32];
};

const char *hugetlb_proc_root(void)
{
	const char *p = getenv("THPBENCH_PROC_ROOT");

	return p && *p ? p : "/proc";
}

/* Name and HugetlbPages of one process; 0 when it holds none. */
static int read_holder(const char *proc_root, const char *pid,
		       struct holder *h)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/status", proc_root, pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	h->kb = 0;
	snprintf(h->name, sizeof(h->name), "?");
	while (fgets(line, sizeof(line), f)) {
		/* A command name is the process's to choose: never raw. */
		if (!strncmp(line, "Name:", 5))
			str_printable(str_trim(line + 5), h->name, sizeof(h->name)); else if (!strncmp(line, "HugetlbPages:", 13)) {
			h->kb = strtol(line + 13, NULL, 10);
		}
	}
	fclose(f);
	h->pid = strtol(pid, NULL, 10);
	return h->kb > 0;
}

static int by_kb_desc(const void *a, const void *b)
{
	const struct holder *x = a, *y = b;

	if (x->kb != y->kb)
		return x->kb < y->kb ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

int hugetlb_users(const char *proc_root, char *buf, size_t len)
{
	struct holder *v = NULL, h;
	size_t n = 0, cap = 0, i, used = 0;
	struct dirent *e;
	DIR *d = opendir(proc_root);

	if (len)
		buf[0] = '\0';
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]) ||
		    !read_holder(proc_root, e->d_name, &h))
			continue;
		v = xgrow(v, sizeof(*v), &cap, n);
		v[n++] = h;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), by_kb_desc);
	for (i = 0; i < n && i < NAMED && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%spid %ld (%s, %ld kB)",
					 i ? ", " : "", v[i].pid, v[i].name, v[i].kb);
	if (n > NAMED && used < len)
		snprintf(buf + used, len - used, " and %zu more", n - NAMED);
	free(v);
	return (int)n;
}
