// SPDX-License-Identifier: GPL-2.0-only
#include "mthp.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "knob.h"
#include "util/util.h"

#define MIN_KB 8UL
#define MAX_KB (1UL << 20)

static bool has_file(const char *root, unsigned long kb, const char *file)
{
	char rel[128], path[PATH_MAX];
	struct stat st;

	mthp_knob_name(kb, file, rel, sizeof(rel));
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* "hugepages-64kB" -> 64; 0 when the name is not one. */
static unsigned long dir_kb(const char *name)
{
	const char *p = name + 10;
	size_t digits = strspn(p, "0123456789");

	if (strncmp(name, "hugepages-", 10) || !digits || strcmp(p + digits, "kB"))
		return 0;
	return strtoul(p, NULL, 10);
}

static int cmp_size(const void *a, const void *b)
{
	const struct mthp_size *x = a, *y = b;

	return (x->kb > y->kb) - (x->kb < y->kb);
}

size_t mthp_list_sizes(const char *root, struct mthp_size *out, size_t max)
{
	char dir[PATH_MAX];
	struct dirent *e;
	unsigned long kb;
	size_t n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/" THP_DIR, root);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		kb = dir_kb(e->d_name);
		if (!kb)
			continue;
		out[n] = (struct mthp_size){
			.kb = kb,
			.anon = has_file(root, kb, "enabled"),
			.shmem = has_file(root, kb, "shmem_enabled"),
		};
		n++;
	}
	closedir(d);
	qsort(out, n, sizeof(*out), cmp_size);
	return n;
}

int mthp_parse_size(const char *text, unsigned long *kb)
{
	size_t n = strlen(text);
	char buf[32];
	uint64_t bytes;

	/* "64kB" is sysfs's spelling; parse_size reads "64KB" the same. */
	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, text, n + 1);
	if (parse_size(buf, &bytes) || bytes % 1024)
		return -1;
	bytes /= 1024;
	if (bytes < MIN_KB || bytes > MAX_KB || (bytes & (bytes - 1)))
		return -1;
	*kb = (unsigned long)bytes;
	return 0;
}

void mthp_size_name(unsigned long kb, char *buf, size_t len)
{
	if (kb >= (1UL << 20) && !(kb % (1UL << 20)))
		snprintf(buf, len, "%luG", kb >> 20);
	else if (kb >= 1024 && !(kb % 1024))
		snprintf(buf, len, "%luM", kb >> 10);
	else
		snprintf(buf, len, "%luK", kb);
}

void mthp_knob_name(unsigned long kb, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, THP_DIR "/hugepages-%lukB/%s", kb, file);
}

int mthp_order(unsigned long kb)
{
	int order = 0;

	while (kb > 4) {
		kb >>= 1;
		order++;
	}
	return order;
}

static bool word_of(const char *w, const char *const *words, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
}

bool mthp_mode_ok(const char *mode)
{
	static const char *const modes[] = { "always", "inherit", "madvise", "never" };

	return word_of(mode, modes, ARRAY_SIZE(modes));
}

bool mthp_shmem_mode_ok(const char *mode)
{
	static const char *const modes[] = {
		"always", "inherit", "within_size", "advise", "never",
	};

	return word_of(mode, modes, ARRAY_SIZE(modes));
}

static void add_size(struct mthp_choice *c, unsigned long kb)
{
	size_t i, j;

	for (i = 0; i < c->n && c->kb[i] < kb; i++)
		;
	for (j = c->n; j > i; j--)
		c->kb[j] = c->kb[j - 1];
	c->kb[i] = kb;
	c->n++;
}

static void name_choice(struct mthp_choice *c)
{
	char one[16];
	size_t i, used = 0;

	c->name[0] = '\0';
	for (i = 0; i < c->n; i++) {
		mthp_size_name(c->kb[i], one, sizeof(one));
		used += (size_t)snprintf(c->name + used, sizeof(c->name) - used,
					 "%s%s", i ? "+" : "", one);
	}
	if (*c->mode)
		snprintf(c->name + used, sizeof(c->name) - used, "=%s", c->mode);
}

/* One item: "64K", "16K+64K", "64K=inherit". */
static int parse_choice(char *item, struct mthp_choice *c, char *err,
			size_t errlen)
{
	char *eq = strchr(item, '='), *tok, *next;
	unsigned long kb;
	size_t i;

	memset(c, 0, sizeof(*c));
	if (eq) {
		*eq = '\0';
		if (!mthp_mode_ok(str_trim(eq + 1))) {
			snprintf(err, errlen, "\"%s\": not an mTHP mode (always, inherit, madvise or never)",
				 eq + 1);
			return -1;
		}
		snprintf(c->mode, sizeof(c->mode), "%s", str_trim(eq + 1));
	}
	if (!*str_trim(item)) {
		snprintf(err, errlen, "an empty mTHP choice (give sizes such as 64K or 16K+64K)");
		return -1;
	}
	for (tok = item; tok; tok = next) {
		next = strchr(tok, '+');
		if (next)
			*next++ = '\0';
		tok = str_trim(tok);
		/* "16K++64K", "+64K", "16K+": refused like a trailing comma. */
		if (!*tok) {
			snprintf(err, errlen, "an empty size in an mTHP choice (join sizes with one +: 16K+64K)");
			return -1;
		}
		if (mthp_parse_size(tok, &kb)) {
			snprintf(err, errlen, "\"%s\": not an mTHP size (a power of two from 8K to 1G, e.g. 16K, 64K, 2M)",
				 tok);
			return -1;
		}
		for (i = 0; i < c->n && c->kb[i] != kb; i++)
			;
		if (i < c->n || c->n == MTHP_MAX_SIZES) {
			snprintf(err, errlen, i < c->n ? "\"%s\" is named twice in one choice" :
				 "\"%s\": more than %d sizes in one choice", tok, MTHP_MAX_SIZES);
			return -1;
		}
		add_size(c, kb);
	}
	if (!c->n) {
		snprintf(err, errlen, "an empty mTHP choice (give sizes such as 64K or 16K+64K)");
		return -1;
	}
	name_choice(c);
	return 0;
}

int mthp_parse_choices(const char *list, struct mthp_choice **out, size_t *n,
		       char *err, size_t errlen)
{
	char *copy = xstrdup(list), *p = copy, *comma;
	struct mthp_choice *v = NULL, c;
	size_t cap = 0, i;
	int rc = -1;

	*n = 0;
	do {
		comma = strchrnul(p, ',');
		if (*comma)
			*comma++ = '\0';
		else
			comma = NULL;
		if (parse_choice(p, &c, err, errlen))
			goto out;
		for (i = 0; i < *n && strcmp(v[i].name, c.name); i++)
			;
		if (i < *n) {
			snprintf(err, errlen, "mTHP choice \"%s\" is listed twice", c.name);
			goto out;
		}
		v = xgrow(v, sizeof(*v), &cap, *n);
		v[(*n)++] = c;
		p = comma;
	} while (p);
	rc = 0;
out:
	free(copy);
	if (rc) {
		free(v);
		v = NULL;
		*n = 0;
	}
	*out = v;
	return rc;
}

static bool chosen(const struct mthp_choice *c, unsigned long kb)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->kb[i] == kb)
			return true;
	return false;
}

static const struct mthp_size *find_size(const struct mthp_size *sizes,
					 size_t n, unsigned long kb)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (sizes[i].kb == kb)
			return &sizes[i];
	return NULL;
}

/* Every chosen size exists here with the knobs the choice writes. */
static int check_sizes(const struct mthp_choice *c, const char *shmem_mode,
		       const struct mthp_size *sizes, size_t nsizes, char *why,
		       size_t whylen)
{
	const struct mthp_size *s;
	char name[16];
	size_t i;

	for (i = 0; i < c->n; i++) {
		mthp_size_name(c->kb[i], name, sizeof(name));
		s = find_size(sizes, nsizes, c->kb[i]);
		if (!s) {
			snprintf(why, whylen, "this kernel has no %s mTHP size "
				 "(no transparent_hugepage/hugepages-%lukB)", name, c->kb[i]);
			return -1;
		}
		if (!s->anon) {
			snprintf(why, whylen, "this kernel offers %s only to shmem "
				 "(hugepages-%lukB has no enabled)", name, c->kb[i]);
			return -1;
		}
		if (shmem_mode && !s->shmem) {
			snprintf(why, whylen, "this kernel offers %s no shmem THP "
				 "(hugepages-%lukB has no shmem_enabled)", name, c->kb[i]);
			return -1;
		}
	}
	return 0;
}

int mthp_choice_knobs(const struct mthp_choice *c, const char *thp_mode,
		      const char *shmem_mode, const struct mthp_size *sizes,
		      size_t nsizes, mthp_knob_fn fn, void *arg, char *why,
		      size_t whylen)
{
	const char *mode = *c->mode ? c->mode : thp_mode;
	char knob[128];
	size_t i;

	if (check_sizes(c, shmem_mode, sizes, nsizes, why, whylen))
		return -1;
	for (i = 0; i < nsizes; i++) {
		bool on = chosen(c, sizes[i].kb);

		if (sizes[i].anon) {
			mthp_knob_name(sizes[i].kb, "enabled", knob, sizeof(knob));
			fn(knob, on ? mode : "never", arg);
		}
		if (shmem_mode && sizes[i].shmem) {
			mthp_knob_name(sizes[i].kb, "shmem_enabled", knob, sizeof(knob));
			fn(knob, on ? shmem_mode : "never", arg);
		}
	}
	return 0;
}
