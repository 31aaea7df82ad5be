/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bisect_dir - may root trust a bisection's results directory? A lab
 * keeps it on shared storage and resumes it days later, so everything in
 * it is checked the way system/trust.c checks the state directory
 * before `bisect next`, `report`, `driver` or a resume
 * (`thpbench bisect verify DIR`, which bisect.sh runs on --resume) reads
 * or writes a byte of it:
 *
 *   - DIR and every directory below it (runs/, runs/NNNN/, initramfs/,
 *     plots/, ...) a real directory owned by us or root and not
 *     writable by group or others;
 *   - every other entry a regular file owned by us or root, not group- or
 *     other-writable, with one link: no symbolic link anywhere (DIR
 *     itself included), no FIFO, socket or device, no hard link to a
 *     file elsewhere;
 *   - under runs/ only run directories: a name of 4 to 9 digits
 *     (^[0-9]{4,9}$) that is its number as the driver writes it
 *     (printf %04d: 0001, 12345; not 0000, not 00012), or the driver's
 *     unfinished one, ".tmp-" and such a name.
 *
 * The first entry that fails is named in err with what to do; at most
 * BISECT_DIR_MAX_ENTRIES entries and BISECT_DIR_MAX_DEPTH levels are
 * looked at (a bigger tree is refused, not walked for ever).
 */
#ifndef THPBENCH_BISECT_DIR_H
#define THPBENCH_BISECT_DIR_H

#include <stddef.h>

#define BISECT_DIR_MAX_ENTRIES 1000000
#define BISECT_DIR_MAX_DEPTH 8

/* 0 when DIR may be trusted; -1 with err naming the first offending path. */
int bisect_dir_check(const char *dir, char *err, size_t errlen);

/* The number of run directory name (1 to 999999999), or 0 when name is
 * not one (the rule above; ".tmp-" names are not runs). */
size_t bisect_run_number(const char *name);

#endif
