/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * store - results.json <-> struct tb_results (jansson).
 *
 * store_write() writes PATH.tmp.PID, fsyncs and renames it over PATH, so a
 * reader never sees half a file. Each case gets a derived "summary" (one
 * struct summary per metric over its ok runs); store_load() ignores it and
 * rebuilds everything from the raw runs.
 */
#ifndef THPBENCH_STORE_H
#define THPBENCH_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "results.h"

int store_write(const struct tb_results *r, const char *path, char *err,
		size_t errlen);
/*
 * Load a results.json, or the results.jsonl log of a run that did not
 * finish (store_log.h). Hostile input is refused with "FILE:LINE: ..."
 * where a line is known: malformed JSON, duplicate keys in an object, a
 * NUL byte, a case id that appears twice, a run with an unknown status or
 * a metric that is not a number, "env"/"meta" that are not objects.
 */
int store_load(const char *path, struct tb_results *r, char *err,
	       size_t errlen);
/* The same from memory; name is used in messages. */
int store_load_text(const char *name, const char *text, size_t len,
		    struct tb_results *r, char *err, size_t errlen);

/* The pieces store_log.c shares: one case (with or without its runs and
 * summary), one run, and their loaders; the env/meta of a top object;
 * the duplicate-id check. */
json_t *store_case_json(const struct tb_case *c, bool with_runs);
json_t *store_run_json(const struct tb_run *run);
int store_load_case(json_t *jc, struct tb_results *r, bool with_runs,
		    char *err, size_t errlen);
int store_load_run(json_t *jr, struct tb_case *c, char *err, size_t errlen);
int store_set_env_meta(json_t *root, struct tb_results *r, const char *name,
		       char *err, size_t errlen);
int store_check_ids(const char *name, const char *text, size_t len,
		    const struct tb_results *r, char *err, size_t errlen);

/* A number for a JSON document: null when it is NaN or infinite (JSON has
 * neither; jansson refuses them). */
json_t *store_num(double v);

#endif
