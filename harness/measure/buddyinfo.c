// SPDX-License-Identifier: GPL-2.0-only
#include "buddyinfo.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/kept_file.h"
#include "util/util.h"

#define PMD_ORDER 9
#define PAGE_KB 4

/* "Node 0, zone   Normal  1 2 3 ..." -> "0 Normal" and the numbers after. */
static const char *zone_prefix(const char *line, char *name, size_t len)
{
	char zone[32];
	int node, used = 0;

	if (sscanf(line, "Node %d, zone %31s%n", &node, zone, &used) != 2)
		return NULL;
	snprintf(name, len, "%d %s", node, zone);
	return line + used;
}

static struct buddy_zone *find_zone(struct buddyinfo *b, const char *name)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (!strcmp(b->zones[i].name, name))
			return &b->zones[i];
	return NULL;
}

static void parse_counts(struct buddyinfo *b, struct buddy_zone *z,
			 const char *p)
{
	unsigned long long v;
	char *end;
	int o;

	for (o = 0; o < BUDDY_ORDERS; o++) {
		v = strtoull(p, &end, 10);
		if (end == p)
			break;
		z->nr[o] = v;
		z->free_pages += v << o;
		p = end;
	}
	if (o > b->orders)
		b->orders = o;
}

static void new_zone(struct buddyinfo *b, const char *name, const char *rest)
{
	struct buddy_zone *z;
	int o;

	b->zones = xrealloc(b->zones, (b->n + 1) * sizeof(*b->zones));
	z = &b->zones[b->n++];
	memset(z, 0, sizeof(*z));
	snprintf(z->name, sizeof(z->name), "%s", name);
	for (o = 0; o < BUDDY_ORDERS; o++)
		z->extfrag[o] = z->unusable[o] = NAN;
	parse_counts(b, z, rest);
}

/*
 * The next line of *text into line, cut at its size as fgets would (the
 * rest of a long line is dropped, not taken for the next); NULL at the end.
 */
static const char *next_line(const char **text, char *line, size_t len)
{
	const char *s = *text;
	size_t n = strcspn(s, "\n");

	if (!*s)
		return NULL;
	snprintf(line, len, "%.*s", (int)(n < len - 1 ? n : len - 1), s);
	*text = s + n + (s[n] == '\n');
	return line;
}

/* The files' text: one reader at a time (the runner). */
static char *text_buf;
static size_t text_cap;

/* extfrag_index / unusable_index: "Node 0, zone Normal -1.000 0.123 ...". */
static bool no_debugfs_index;	/* the real debugfs has no extfrag/ */

/* -1 (errno set) when the file cannot be read. */
static int read_index(struct buddyinfo *b, const char *path, bool extfrag)
{
	char line[1024], name[48], *end;
	struct buddy_zone *z;
	const char *p, *text;
	double v;
	int o;

	if (kept_read_all(path, &text_buf, &text_cap) < 0)
		return -1;
	text = text_buf;
	while (next_line(&text, line, sizeof(line))) {
		p = zone_prefix(line, name, sizeof(name));
		z = p ? find_zone(b, name) : NULL;
		for (o = 0; z && o < BUDDY_ORDERS; o++) {
			v = strtod(p, &end);
			if (end == p)
				break;
			(extfrag ? z->extfrag : z->unusable)[o] = v;
			b->has_debugfs = true;
			p = end;
		}
	}
	return 0;
}

int buddyinfo_read(const char *path, const char *debugfs, struct buddyinfo *b)
{
	char line[1024], name[48], idx[PATH_MAX];
	const char *rest, *text;

	memset(b, 0, sizeof(*b));
	if (kept_read_all(path ? path : "/proc/buddyinfo", &text_buf,
			  &text_cap) < 0)
		return -1;
	text = text_buf;
	while (next_line(&text, line, sizeof(line)))
		if ((rest = zone_prefix(line, name, sizeof(name))) &&
		    !find_zone(b, name))
			new_zone(b, name, rest);
	if (!b->n)
		return -1;
	/*
	 * Without debugfs mounted (the usual case) both opens fail at every
	 * repetition, before and after: the real debugfs is looked for once
	 * per process, and mounting it mid-run does not add the indices to
	 * some repetitions only. A given root (a test's) is tried each time.
	 */
	if (!debugfs && no_debugfs_index)
		return 0;
	snprintf(idx, sizeof(idx), "%s/extfrag/extfrag_index",
		 debugfs ? debugfs : "/sys/kernel/debug");
	if (read_index(b, idx, true) && errno == ENOENT && !debugfs) {
		no_debugfs_index = true;
		return 0;
	}
	snprintf(idx, sizeof(idx), "%s/extfrag/unusable_index",
		 debugfs ? debugfs : "/sys/kernel/debug");
	read_index(b, idx, false);
	return 0;
}

unsigned long long buddy_free_pages(const struct buddyinfo *b)
{
	unsigned long long n = 0;
	size_t i;

	for (i = 0; i < b->n; i++)
		n += b->zones[i].free_pages;
	return n;
}

double buddy_blocks(const struct buddyinfo *b, int order)
{
	double n = 0;
	size_t i;
	int o;

	for (i = 0; i < b->n; i++)
		for (o = order; o < b->orders; o++)
			n += ldexp((double)b->zones[i].nr[o], o - order);
	return n;
}

double buddy_unusable(const struct buddyinfo *b, int order)
{
	double free = (double)buddy_free_pages(b);

	if (free <= 0)
		return 0;
	return (free - ldexp(buddy_blocks(b, order), order)) / free;
}

static const struct buddy_zone *largest_zone(const struct buddyinfo *b)
{
	const struct buddy_zone *best = NULL;
	size_t i;

	for (i = 0; i < b->n; i++)
		if (!best || b->zones[i].free_pages > best->free_pages)
			best = &b->zones[i];
	return best;
}

static void put(struct metric_set *out, const char *what, int order,
		const char *when, double v)
{
	char key[96];

	if (order < 0)
		snprintf(key, sizeof(key), "buddy.%s.%s", what, when);
	else
		snprintf(key, sizeof(key), "buddy.o%d.%s.%s", order, what, when);
	metric_set_put(out, key, v);
}

static void record_order(const struct buddyinfo *b, int o, const char *when,
			 struct metric_set *out)
{
	const struct buddy_zone *z = largest_zone(b);

	if (o < 0 || o >= b->orders)
		return;
	put(out, "blocks", o, when, buddy_blocks(b, o));
	put(out, "unusable", o, when, buddy_unusable(b, o));
	if (z && !isnan(z->extfrag[o]))
		put(out, "extfrag_index", o, when, z->extfrag[o]);
	if (z && !isnan(z->unusable[o]))
		put(out, "unusable_index", o, when, z->unusable[o]);
}

void buddyinfo_record(const struct buddyinfo *b, const char *when,
		      const int *orders, size_t norders, struct metric_set *out)
{
	size_t i;

	put(out, "free_kb", -1, when, (double)buddy_free_pages(b) * PAGE_KB);
	record_order(b, PMD_ORDER, when, out);
	for (i = 0; i < norders; i++)
		if (orders[i] != PMD_ORDER)
			record_order(b, orders[i], when, out);
}

void buddyinfo_free(struct buddyinfo *b)
{
	free(b->zones);
	memset(b, 0, sizeof(*b));
}
