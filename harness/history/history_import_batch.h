/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_import_batch - many results files, or directories of nights,
 * recorded in one transaction: one commit (one fsync) for a thousand
 * nights instead of one per night, and a batch that is killed leaves
 * nothing behind. A file that fails is reported (its error through
 * opts->say, history_import.h, when it fails; the outcome through fn at
 * the end) and left out, and the batch goes on; the others are committed: the checks that refuse a file come before its first
 * write, so the files go in without a savepoint each; a file that fails
 * after its first write (or a database error) takes the transaction back,
 * and the files are imported again, each under a savepoint. fn is called
 * once per file when the outcomes are final.
 *
 * A directory argument stands for its *.json files and the results.json
 * of its subdirectories (a results/ tree of nights), in name order;
 * names starting with '.' are skipped.
 */
#ifndef THPBENCH_HISTORY_IMPORT_BATCH_H
#define THPBENCH_HISTORY_IMPORT_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "history_import.h"

/*
 * The files args[0..n) name, directories expanded, into a malloc'ed
 * array of malloc'ed paths (free_strv). -1 with the error in err when an
 * argument cannot be read, or a directory holds no results file.
 */
int history_import_expand(char *const *args, size_t n, char ***paths,
			  size_t *npaths, char *err, size_t errlen);

/* Called once per file: rc as history_import_one() returned it. */
typedef void (*history_import_fn)(void *ctx, const char *path, int rc,
				  int64_t run_id);

/*
 * Import paths[0..n) in one transaction, calling fn for each. Returns the
 * number of files that failed (the others are committed), or -1 when the
 * transaction itself failed: then nothing was stored, and
 * history_db_error(db) says why.
 */
long history_import_files(struct history_db *db, char *const *paths, size_t n,
			  const struct history_import_opts *o,
			  history_import_fn fn, void *ctx);

#endif
