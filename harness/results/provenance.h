/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * provenance - what a flow knows of a results.json's origin, stamped
 * into its meta by the results store itself (`thpbench provenance`):
 * the kernel scripts write no results.json with jq. meta.KEY (default
 * "provenance") becomes the object built from PAIRS, meta.timings the
 * words given; everything else of the file stays as the store reads it.
 *
 *   KEY=TEXT        a string         kernel.release=6.1.0-b
 *   KEY:=NUMBER     a number         repetitions:=10
 *   KEY:=true|false|null
 *   KEY:=[] or {}   an empty list or object (which later pairs may fill)
 * A dotted KEY nests (kernel.release: {"kernel": {"release": ...}});
 * a part that is a number indexes an array, 0 first, each next index
 * appending (patches.0.file=a patches.1.file=b: two elements). A key is
 * [A-Za-z0-9_] parts; a key given twice, a part that is both a value and
 * an object, an index that skips, a number that is not one: refused.
 */
#ifndef THPBENCH_PROVENANCE_H
#define THPBENCH_PROVENANCE_H

#include <jansson.h>
#include <stddef.h>

/* The object of PAIRS (a new reference), or NULL with err. */
json_t *provenance_from_pairs(char *const *pairs, size_t n, char *err,
			      size_t errlen);

/*
 * Load PATH, set meta.KEY = obj (when obj) and meta.timings = timings
 * (when not NULL), write it back atomically. 0; -1 with err.
 */
int provenance_stamp(const char *path, const char *key, json_t *obj,
		     const char *timings, char *err, size_t errlen);

#endif
