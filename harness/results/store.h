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
/* The results.json document of r (what store_write writes). */
json_t *store_results_json(const struct tb_results *r);
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
/*
 * store_load() that also hands back the parsed document (*root, a new
 * reference) of a results.json, so that a caller that needs the JSON too
 * (the history import hashes it) parses the file once; *root is NULL for
 * a results.jsonl log.
 */
int store_load_root(const char *path, struct tb_results *r, json_t **root,
		    char *err, size_t errlen);

#endif
