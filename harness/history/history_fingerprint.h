/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_fingerprint - the identities the history keys on, as SHA-256
 * hashes of canonical JSON (keys sorted, compact), so that formatting and
 * key order never change an identity:
 *
 * - host: from a results file's env object (what the machine was when it
 *   ran, wherever the import happens): CPU model, microcode, core count,
 *   memory (rounded to 256 MiB: kernels differ in what they reserve),
 *   NUMA nodes, architecture, the kernel command line without the tokens
 *   that name the kernel itself (BOOT_IMAGE=, initrd=), THP defaults
 *   (enabled, defrag, shmem_enabled, use_zero_page, khugepaged tuning;
 *   not the per-size mTHP knobs, which new kernels add), the hugetlb pools and the CPU
 *   governor. A field the file does not have is null. Anything in it that
 *   a kernel change alone would alter is left out, so that a new kernel on
 *   the same box keeps its fingerprint and a new microcode does not.
 * - suite version: the definitions of its cases (id, workload, args, env,
 *   THP mode, label, settings, expect_huge), not the file's text, so that a
 *   comment or a repetition count does not split a series.
 * - results file: the whole document, for idempotent imports.
 */
#ifndef THPBENCH_HISTORY_FINGERPRINT_H
#define THPBENCH_HISTORY_FINGERPRINT_H

#include <jansson.h>
#include <stddef.h>

#include "results/results.h"

#define HISTORY_HASH_HEX 65	/* 64 hex digits and the NUL */

/* SHA-256 of json_dumps(v, sorted, compact) in hex. */
void history_hash_json(const json_t *v, char out[HISTORY_HASH_HEX]);

/*
 * The host identity object of an env object (new reference), as described
 * above; history_hash_json() of it is the fingerprint.
 */
json_t *history_host_identity(const json_t *env);

/* The suite version hash of a loaded results file. */
void history_suite_hash(const struct tb_results *r, char out[HISTORY_HASH_HEX]);

#endif
