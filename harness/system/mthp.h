/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mthp - the multi-size THP sizes (mTHP, Linux 6.8+) and their knobs.
 *
 * Each size the kernel offers is a directory
 * transparent_hugepage/hugepages-<N>kB/ under the mm sysfs root with
 *   enabled        always inherit madvise never (anonymous memory; absent
 *                  where a size is offered to shmem only, as 8kB is)
 *   shmem_enabled  always inherit within_size advise never
 *   stats/         event counters (anon_fault_alloc, split, swpout, ...)
 *                  and levels (nr_anon, nr_anon_partially_mapped)
 * Those files are ordinary THP knobs: the snapshot, journal, lock and
 * restore of settings.h cover them (knob_tree.h walks the whole tree).
 * This module only says which knobs a choice of sizes writes.
 *
 * A size is written as on the command line: "64K", "2M", "64kB",
 * "2048kB" or a number of bytes; its name here is the short form ("64K",
 * "2M"), used for the stats metrics and the case dimension.
 *
 * A choice is one value of the mTHP axis (--mthp, suite key mthp): one
 * size, or several joined by '+' ("16K+64K"), optionally "=MODE" giving
 * their `enabled` value ("64K=inherit"); without it they follow the
 * case's THP mode. Selecting a choice writes `enabled` of every size that
 * has one: the chosen sizes get the mode, every other size "never", so
 * that the run measures those sizes alone (the kernel tries the largest
 * enabled order first). With a shmem mode, shmem_enabled the same way.
 */
#ifndef THPBENCH_MTHP_H
#define THPBENCH_MTHP_H

#include <stdbool.h>
#include <stddef.h>

/* Every power of two mthp_parse_size takes, 8K to 1G. */
#define MTHP_MAX_SIZES 18

struct mthp_size {
	unsigned long kb;
	bool anon;		/* has an enabled knob */
	bool shmem;		/* has a shmem_enabled knob */
};

struct mthp_choice {
	unsigned long kb[MTHP_MAX_SIZES];	/* ascending, no repeats */
	size_t n;
	char mode[16];		/* enabled value; "" follows the THP mode */
	char name[160];		/* canonical: "16K+64K", "64K=inherit" */
};

/* The sizes under root, smallest first: how many (0 when the kernel has
 * no mTHP directories), at most max. */
size_t mthp_list_sizes(const char *root, struct mthp_size *out, size_t max);

/* "64K", "2M", "64kB", "2048kB", "65536" -> kB. A power of two from 8 kB
 * to 1 GiB, else -1. */
int mthp_parse_size(const char *text, unsigned long *kb);
/* 64 -> "64K", 2048 -> "2M", 1048576 -> "1G". */
void mthp_size_name(unsigned long kb, char *buf, size_t len);
/* "transparent_hugepage/hugepages-64kB/FILE". */
void mthp_knob_name(unsigned long kb, const char *file, char *buf,
		    size_t len);
/* The page order of a size with 4 KiB base pages (64 kB -> 4). */
int mthp_order(unsigned long kb);

/* Values an enabled / shmem_enabled knob takes. */
bool mthp_mode_ok(const char *mode);
bool mthp_shmem_mode_ok(const char *mode);

/* A comma list of choices; -1 with err naming the bad item (an unknown
 * size or mode, a choice given twice, an empty item). */
int mthp_parse_choices(const char *list, struct mthp_choice **out,
		       size_t *n, char *err, size_t errlen);

typedef void (*mthp_knob_fn)(const char *knob, const char *value, void *arg);

/*
 * The knobs that select choice c under THP mode thp_mode (see above),
 * given to fn in size order; shmem_mode NULL leaves shmem_enabled alone.
 * -1 with why when this kernel lacks a chosen size, or offers it no
 * enabled (anon) or shmem_enabled knob that is needed: that case is not
 * measurable here.
 */
int mthp_choice_knobs(const struct mthp_choice *c, const char *thp_mode,
		      const char *shmem_mode, const struct mthp_size *sizes,
		      size_t nsizes, mthp_knob_fn fn, void *arg, char *why,
		      size_t whylen);

#endif
