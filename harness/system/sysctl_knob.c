// SPDX-License-Identifier: GPL-2.0-only
#include "sysctl_knob.h"
#include "knob.h"
#include "util/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_MM_ROOT "/sys/kernel/mm"
#define DEFAULT_SYSCTL_ROOT "/proc/sys"


/* a and b name the same path but for repeated or trailing slashes. */
static bool same_path(const char *a, const char *b)
{
	for (;;) {
		while (a[0] == '/' && (a[1] == '/' || !a[1]))
			a++;
		while (b[0] == '/' && (b[1] == '/' || !b[1]))
			b++;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}

char *sysctl_root_for(const char *mm_root)
{
	const char *env = getenv("THPBENCH_PROC_SYS_ROOT");
	char *s;
	size_t n;

	if (env && *env) {
		s = xstrdup(env);
		n = strlen(s);
		while (n > 1 && s[n - 1] == '/')
			s[--n] = '\0';
		return s;
	}
	if (mm_root && same_path(mm_root, DEFAULT_MM_ROOT))
		return xstrdup(DEFAULT_SYSCTL_ROOT);
	return NULL;
}

void sysctl_knobs_snapshot(const char *root, struct snapshot *snap)
{
	char path[PATH_MAX], val[KNOB_MAX];
	struct stat st;
	size_t i;

	if (!root)
		return;
	for (i = 0; i < sysctl_knob_count; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, sysctl_knob_names[i]);
		if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
		    !(st.st_mode & 0222) || !(st.st_mode & 0444) ||
		    knob_read_path(path, val, sizeof(val)))
			continue;
		snapshot_add(snap, root, sysctl_knob_names[i], val);
	}
}

int sysctl_knob_path(const char *mm_root, const char *sysctl_root,
		     const char *name, char *buf, size_t len)
{
	const char *root = mm_root;

	if (sysctl_knob_name_ok(name)) {
		if (!sysctl_root)
			return -1;
		root = sysctl_root;
	}
	snprintf(buf, len, "%s/%s", root, name);
	return 0;
}
