// SPDX-License-Identifier: GPL-2.0-only
#include "hugetlb_pool.h"
#include "hugetlb_users.h"
#include "knob.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

bool hugetlb_is_pool_knob(const char *name)
{
	return !strncmp(name, HUGETLB_DIR "/", sizeof(HUGETLB_DIR));
}

bool hugetlb_is_pool_size(const char *name)
{
	return hugetlb_is_pool_knob(name) && ends_with(name, "/nr_hugepages");
}

void hugetlb_pool_of(const char *name, char *buf, size_t len)
{
	const char *p = name + sizeof(HUGETLB_DIR);

	snprintf(buf, len, "%.*s", (int)strcspn(p, "/"), p);
}

static int is_pool_dir(const struct dirent *e)
{
	return !strncmp(e->d_name, "hugepages-", 10);
}

int hugetlb_pool_knobs(const char *root, hugetlb_knob_fn fn, void *arg)
{
	static const char *const files[] = { "nr_overcommit_hugepages",
					     "nr_hugepages" };
	char rel[PATH_MAX], dir[PATH_MAX];
	struct dirent **ents;
	size_t f;
	int i, n;

	snprintf(dir, sizeof(dir), "%s/" HUGETLB_DIR, root);
	n = scandir(dir, &ents, is_pool_dir, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		for (f = 0; f < ARRAY_SIZE(files); f++) {
			snprintf(rel, sizeof(rel), HUGETLB_DIR "/%s/%s",
				 ents[i]->d_name, files[f]);
			fn(root, rel, arg);
		}
		free(ents[i]);
	}
	free(ents);
	return 0;
}

int hugetlb_pool_shortfall(const char *name, const char *want,
			   const char *got, char *err, size_t errlen)
{
	char pool[64];
	long w, g;

	if (!hugetlb_is_pool_size(name) || parse_long(want, &w) ||
	    parse_long(got, &g) || g >= w)
		return 0;
	hugetlb_pool_of(name, pool, sizeof(pool));
	snprintf(err, errlen,
		 "kernel provided only %ld of %ld huge pages (%s); free memory or reserve at boot",
		 g, w, pool);
	return 1;
}

/* A whole decimal number, as sysfs prints it ("4\n"); signal-safe. */
static int parse_count(const char *buf, long *out)
{
	long v = 0;
	size_t i;

	for (i = 0; buf[i] >= '0' && buf[i] <= '9' && v < LONG_MAX / 16; i++)
		v = v * 10 + (buf[i] - '0');
	if (buf[i] == '\n')
		i++;
	if (!i || buf[i]) {
		errno = EINVAL;
		return -1;
	}
	*out = v;
	return 0;
}

/* The same from a file; signal-safe. */
static int read_count(const char *path, long *out)
{
	char buf[32];

	if (read_file_str(path, buf, sizeof(buf)))
		return -1;
	return parse_count(buf, out);
}

int hugetlb_persistent_text(const char *nr_text, const char *surplus_text,
			    long *out)
{
	long nr, surplus = 0;

	if (parse_count(nr_text, &nr) ||
	    (surplus_text && parse_count(surplus_text, &surplus)))
		return -1;
	*out = nr > surplus ? nr - surplus : 0;
	return 0;
}

int hugetlb_persistent(const char *nr_path, const char *surplus_path,
		       long *out)
{
	char nr[32], surplus[32];
	int saved;

	if (read_file_str(nr_path, nr, sizeof(nr)))
		return -1;
	saved = errno;
	if (surplus_path && read_file_str(surplus_path, surplus, sizeof(surplus))) {
		if (errno != ENOENT)
			return -1;
		surplus_path = NULL;
		errno = saved;
	}
	return hugetlb_persistent_text(nr, surplus_path ? surplus : NULL, out);
}

bool hugetlb_surplus_path(const char *nr_path, char *buf, size_t len)
{
	const char *slash = strrchr(nr_path, '/'), *dir;
	int n;

	if (!slash || strcmp(slash, "/nr_hugepages"))
		return false;
	for (dir = slash; dir > nr_path && dir[-1] != '/'; dir--)
		;
	if (strncmp(dir, "hugepages-", 10))
		return false;
	n = snprintf(buf, len, "%.*s/surplus_hugepages", (int)(slash - nr_path),
		     nr_path);
	return n > 0 && (size_t)n < len;
}

int hugetlb_knob_read_path(const char *abspath, char *buf, size_t len)
{
	char surplus[PATH_MAX];
	long v;

	if (!hugetlb_surplus_path(abspath, surplus, sizeof(surplus)))
		return knob_read_path(abspath, buf, len);
	if (hugetlb_persistent(abspath, surplus, &v))
		return knob_read_path(abspath, buf, len);
	if ((size_t)snprintf(buf, len, "%ld", v) >= len) {
		errno = EOVERFLOW;
		return -1;
	}
	return 0;
}

int hugetlb_knob_read(const char *root, const char *name, char *buf,
		      size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	return hugetlb_knob_read_path(path, buf, len);
}

void hugetlb_pool_stuck_why(const char *name, const char *want,
			    const char *got, const char *proc_root,
			    char *why, size_t len)
{
	char pool[64], users[512] = "";
	long w, g;

	hugetlb_pool_of(name, pool, sizeof(pool));
	if (parse_long(want, &w) || parse_long(got, &g)) {
		snprintf(why, len, "%s reads \"%s\"", pool, got);
		return;
	}
	if (g < w) {
		snprintf(why, len,
			 "the kernel found only %ld of %ld huge pages for %s (too little free contiguous memory; reserve the pool at boot)",
			 g, w, pool);
		return;
	}
	hugetlb_users(proc_root, users, sizeof(users));
	snprintf(why, len, "%ld page(s) of %s still in use%s%s", g - w, pool,
		 *users ? " by " : " (no process maps huge pages: hugetlbfs files or SysV shm?)",
		 users);
}

int hugetlb_pool_surplus_note(const char *name, const char *abspath,
			      const char *proc_root, char *note, size_t len)
{
	char surplus[PATH_MAX], pool[64], users[512] = "";
	long s;

	if (!hugetlb_surplus_path(abspath, surplus, sizeof(surplus)) ||
	    read_count(surplus, &s) || s <= 0)
		return 0;
	hugetlb_pool_of(name, pool, sizeof(pool));
	hugetlb_users(proc_root, users, sizeof(users));
	snprintf(note, len,
		 "%s is back to its size, but %ld surplus huge page(s) are still in use%s%s; the kernel frees them when they are let go",
		 pool, s, *users ? " by " : " (no process maps huge pages: hugetlbfs files or SysV shm?)",
		 users);
	return 1;
}

/* Does proc_root/FILE hold word (a flag, a boot option) on a line starting
 * with prefix (NULL: any line)? -1 when the file cannot be read. */
static int file_has_word(const char *proc_root, const char *file,
			 const char *prefix, const char *word)
{
	char path[PATH_MAX], line[8192];
	int found = 0, seen = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", proc_root, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f)) {
		if (prefix && strncmp(line, prefix, strlen(prefix)))
			continue;
		seen = 1;
		str_trim(line);
		found = knob_word_in(line, word);
	}
	fclose(f);
	return found ? 1 : seen ? 0 : -1;
}

int hugetlb_pool_missing(const char *root, const char *name,
			 const char *proc_root, char *why, size_t len)
{
	char pool[64], dir[PATH_MAX];
	struct stat st;
	long kb;

	hugetlb_pool_of(name, pool, sizeof(pool));
	snprintf(dir, sizeof(dir), "%s/" HUGETLB_DIR "/%s", root, pool);
	if (!stat(dir, &st) && S_ISDIR(st.st_mode))
		return 0;
	snprintf(dir, sizeof(dir), "%s/" HUGETLB_DIR, root);
	if (stat(dir, &st)) {
		snprintf(why, len,
			 "this kernel has no hugetlb pools (no %s: CONFIG_HUGETLBFS off)",
			 dir);
		return 1;
	}
	if (sscanf(pool, "hugepages-%ldkB", &kb) == 1 && kb == 1048576) {
		if (file_has_word(proc_root, "cpuinfo", "flags", "pdpe1gb") == 0) {
			snprintf(why, len,
				 "this CPU has no 1 GiB pages (no pdpe1gb flag in %s/cpuinfo)",
				 proc_root);
			return 1;
		}
		if (file_has_word(proc_root, "cmdline", NULL, "nogbpages") == 1) {
			snprintf(why, len,
				 "1 GiB pages are off on this kernel (nogbpages on its command line)");
			return 1;
		}
	}
	snprintf(why, len, "this kernel offers no %s pool (no %s/%s)", pool,
		 dir, pool);
	return 1;
}
