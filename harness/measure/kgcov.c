// SPDX-License-Identifier: GPL-2.0-only
/*
 * kgcov - copying the kernel's gcov data out of debugfs (kgcov.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kgcov.h"
#include "util/safe_file.h"
#include "util/util.h"

/* Object paths are build paths: deeper than this is not a kernel tree. */
#define KGCOV_MAX_DEPTH 32

static int check_root(const char *root, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/reset", root);
	errno = 0;
	if (stat(path, &st) || !S_ISREG(st.st_mode) || access(path, W_OK)) {
		snprintf(err, errlen,
			 "--kernel-gcov: %s is not writable (%s): the kernel needs CONFIG_GCOV_KERNEL (build-kernel.sh --gcov) and debugfs mounted at its parent (mount -t debugfs none /sys/kernel/debug)",
			 path, errno ? strerror(errno) : "not a file");
		return -1;
	}
	return 0;
}

int kgcov_reset(const struct kgcov *k, char *err, size_t errlen)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/reset", k->root);
	if (write_file_str(path, "1")) {
		snprintf(err, errlen, "--kernel-gcov: cannot reset the counters (%s): %s",
			 path, strerror(errno));
		return -1;
	}
	return 0;
}

static bool is_gcda(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".gcda");
}

static const struct kgcov_file *find_zero(const struct kgcov *k, const char *rel)
{
	size_t i;

	for (i = 0; i < k->nfiles; i++)
		if (!strcmp(k->files[i].rel, rel))
			return &k->files[i];
	return NULL;
}

/* What to do with each .gcda found: keep its zero image, or copy it. */
struct walk {
	struct kgcov *k;
	const char *dest;	/* NULL: keep zero images */
	size_t ncopied, nsame;
	char *err;
	size_t errlen;
};

static int write_copy(const char *to, const unsigned char *buf, size_t len,
		      char *err, size_t errlen)
{
	char parent[PATH_MAX];
	FILE *f;
	int rc = 0;

	snprintf(parent, sizeof(parent), "%s", to);
	*strrchr(parent, '/') = '\0';
	if (mkdir_p(parent, 0755)) {
		snprintf(err, errlen, "%s: %s", parent, strerror(errno));
		return -1;
	}
	f = sf_create(to, err, errlen);
	if (!f)
		return -1;
	if (fwrite(buf, 1, len, f) != len)
		rc = -1;
	if (fclose(f))
		rc = -1;
	if (rc)
		snprintf(err, errlen, "%s: %s", to, strerror(errno));
	return rc;
}

static int one_gcda(struct walk *w, const char *from, const char *rel)
{
	const struct kgcov_file *z;
	char to[PATH_MAX];
	size_t len;
	unsigned char *buf = (unsigned char *)read_regular(from, SF_NOFOLLOW, &len,
							   w->err, w->errlen);
	int rc = 0;

	if (!buf)
		return -1;
	if (!w->dest) {
		struct kgcov_file *f;

		w->k->files = xgrow(w->k->files, sizeof(*w->k->files), &w->k->cap,
				    w->k->nfiles);
		f = &w->k->files[w->k->nfiles++];
		f->rel = xstrdup(rel);
		f->zero = buf;
		f->len = len;
		return 0;
	}
	z = find_zero(w->k, rel);
	if (z && z->len == len && !memcmp(z->zero, buf, len)) {
		w->nsame++;
	} else if ((size_t)snprintf(to, sizeof(to), "%s/%s", w->dest, rel) < sizeof(to)) {
		rc = write_copy(to, buf, len, w->err, w->errlen);
		w->ncopied += !rc;
	}
	free(buf);
	return rc;
}

/* rel: the path under the root ("" at the top); dir: root/rel. */
static int walk_dir(struct walk *w, const char *dir, const char *rel, int depth)
{
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (depth > KGCOV_MAX_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d) {
		snprintf(w->err, w->errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while (!rc && (de = readdir(d))) {
		char from[PATH_MAX], sub[PATH_MAX];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t)snprintf(from, sizeof(from), "%s/%s", dir, de->d_name) >= sizeof(from) ||
		    (size_t)snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "",
				     de->d_name) >= sizeof(sub) ||
		    lstat(from, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			rc = walk_dir(w, from, sub, depth + 1);
		else if (S_ISREG(st.st_mode) && is_gcda(de->d_name))
			rc = one_gcda(w, from, sub);
	}
	closedir(d);
	return rc;
}

int kgcov_open(struct kgcov *k, const char *root, char *err, size_t errlen)
{
	struct walk w = { .k = k, .err = err, .errlen = errlen };

	*k = (struct kgcov){ .root = root };
	if (check_root(root, err, errlen) || kgcov_reset(k, err, errlen) ||
	    walk_dir(&w, root, "", 0)) {
		kgcov_free(k);
		k->root = NULL;
		return -1;
	}
	return 0;
}

int kgcov_collect(const struct kgcov *k, const char *dest, size_t *ncopied,
		  size_t *nsame, char *err, size_t errlen)
{
	struct walk w = { .k = (struct kgcov *)k, .dest = dest, .err = err,
			  .errlen = errlen };
	int rc;

	if (mkdir_p(dest, 0755)) {
		snprintf(err, errlen, "--kernel-gcov: cannot create %s: %s", dest,
			 strerror(errno));
		return -1;
	}
	rc = walk_dir(&w, k->root, "", 0);
	if (ncopied)
		*ncopied = w.ncopied;
	if (nsame)
		*nsame = w.nsame;
	return rc;
}

void kgcov_free(struct kgcov *k)
{
	size_t i;

	for (i = 0; i < k->nfiles; i++) {
		free(k->files[i].rel);
		free(k->files[i].zero);
	}
	free(k->files);
	k->files = NULL;
	k->nfiles = k->cap = 0;
}
