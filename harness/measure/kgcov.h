/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kgcov - the running kernel's gcov counters around each measured
 * repetition (run --kernel-gcov; ./run.sh coverage, docs/kernel-coverage.md).
 *
 * A kernel built with CONFIG_GCOV_KERNEL shows one NAME.gcda per
 * profiled object under ROOT (/sys/kernel/debug/gcov, or a fake tree in
 * tests), at the object's build path, beside a NAME.gcno symlink; writing
 * to ROOT/reset zeroes every counter.
 *
 * kgcov_open() checks ROOT, zeroes the counters and keeps each .gcda as it
 * reads when zeroed (its "zero image"). kgcov_reset() zeroes them before
 * a repetition; kgcov_collect() copies every regular *.gcda under ROOT
 * into DEST with its path under ROOT kept, except one byte-identical to
 * its zero image (an object the repetition never entered: nothing to
 * report, and the guest sends every byte over a serial line). Debugfs
 * files have no size: each is read to its end. Symlinks and other files
 * are skipped. The data is not interpreted here: lcov's geninfo reads it
 * on the host with the notes the build kept (an object with no .gcda in
 * DEST ran no line).
 *
 * Errors name the path and what to do; -1 with err filled.
 */
#ifndef THPBENCH_KGCOV_H
#define THPBENCH_KGCOV_H

#include <stddef.h>

#define KGCOV_DEFAULT_ROOT "/sys/kernel/debug/gcov"

struct kgcov_file {
	char *rel;		/* path under the root */
	unsigned char *zero;	/* its bytes when zeroed */
	size_t len;
};

struct kgcov {
	const char *root;
	struct kgcov_file *files;
	size_t nfiles, cap;
};

/* Check ROOT (ROOT/reset writable; else says how to get one), zero it,
 * keep the zero images. */
int kgcov_open(struct kgcov *k, const char *root, char *err, size_t errlen);
/* Zero every counter. */
int kgcov_reset(const struct kgcov *k, char *err, size_t errlen);
/* Copy what moved into DEST (made): files copied in *ncopied, files left
 * out as unchanged in *nsame (either may be NULL). */
int kgcov_collect(const struct kgcov *k, const char *dest, size_t *ncopied,
		  size_t *nsame, char *err, size_t errlen);
void kgcov_free(struct kgcov *k);

#endif
