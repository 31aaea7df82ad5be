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

#include <stddef.h>

#include <jansson.h>

#include "results.h"

int store_write(const struct tb_results *r, const char *path, char *err,
		size_t errlen);
int store_load(const char *path, struct tb_results *r, char *err,
	       size_t errlen);

/* A number for a JSON document: null when it is NaN or infinite (JSON has
 * neither; jansson refuses them). */
json_t *store_num(double v);

#endif
