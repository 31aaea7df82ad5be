/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * merge - several results files of one setup as one: the boots of a
 * kernel, the nights of a week, the machines of a lab.
 *
 * Cases pair up by id and must describe the same measurement (workload,
 * arguments, environment, THP mode, the knobs applied: compare refuses
 * cases whose settings differ); a case only some files have is kept
 * with the runs it has. Every run of every file is kept, renumbered in
 * file order. The files must come from the same setup: kernel, kernel
 * config, CPU model, CPU count, architecture and THP knobs equal, or the
 * merge is refused naming the key and the two values (force: merged
 * anyway, each difference a warning). A different hostname is fine and
 * recorded. meta.merged_from lists every input (path, hostname, kernel,
 * started, runs); env and the rest of meta are the first file's. The
 * same results twice (one file given twice, or a copy) are refused: their
 * runs would count twice.
 *
 * boot_means: each file counts as one sample: per case one run, whose
 * metrics are the means of that file's ok runs (a metric over the runs
 * that have it), so a comparison sees boot-to-boot variation.
 */
#ifndef THPBENCH_MERGE_H
#define THPBENCH_MERGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct merge_opts {
	bool boot_means;
	bool force;
};

/*
 * Merge the results objects in[0..n-1] (as loaded from paths[]) into a new
 * results object. NULL with err set when they cannot be merged.
 */
json_t *merge_results(json_t *const *in, const char *const *paths, size_t n,
		      const struct merge_opts *o, char *err, size_t errlen);

/*
 * Store merged (a merge_results object) at out, checked: it is written
 * to out.merge.PID, loaded back as results (store.h) and only then
 * stored at out with its summaries, atomically. 0, or -1 with err set
 * (out untouched, the temporary file removed).
 */
int merge_write_checked(json_t *merged, const char *out, char *err,
			size_t errlen);

#endif
