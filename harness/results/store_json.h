/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * store_json - one case, one run, the env/meta of a document and their
 * loaders: the JSON pieces results.json (store.h) and the results.jsonl
 * log (store_log.h) are both made of. Loaders refuse what they do not
 * expect with a message naming the field; the caller adds FILE:LINE.
 */
#ifndef THPBENCH_STORE_JSON_H
#define THPBENCH_STORE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "results.h"

/* One case (with or without its runs and summary), one run, and their
 * loaders; the env/meta of a top object; the duplicate-id check. */
json_t *store_case_json(const struct tb_case *c, bool with_runs);
json_t *store_run_json(const struct tb_run *run);
int store_load_case(json_t *jc, struct tb_results *r, bool with_runs,
		    char *err, size_t errlen);
int store_load_run(json_t *jr, struct tb_case *c, char *err, size_t errlen);
int store_set_env_meta(json_t *root, struct tb_results *r, const char *name,
		       char *err, size_t errlen);
/* A whole results.json document (schema RESULTS_SCHEMA) into r; the
 * parsed document in *root (a new reference) when root is not NULL. */
int store_load_doc(const char *name, const char *text, size_t len,
		   struct tb_results *r, json_t **root, char *err,
		   size_t errlen);
/* The 1-based line of text that offset off lies on. */
int store_line_at(const char *text, size_t off);
int store_check_ids(const char *name, const char *text, size_t len,
		    const struct tb_results *r, char *err, size_t errlen);

/* A number for a JSON document: null when it is NaN or infinite (JSON has
 * neither; jansson refuses them). */
json_t *store_num(double v);

#endif
