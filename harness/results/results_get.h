/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * results_get - one scalar of a results file's env or meta by a dotted
 * key (meta.machine, env.hostname, meta.provenance.kernel.release), for
 * scripts that read no results.json themselves (`thpbench show FILE
 * --get KEY`). A string comes back as it is (printable only: a file is
 * hostile input and the text lands in a shell), a number as %.17g,
 * true/false as such. 0; -1 with err when the key is not there, is not
 * a scalar (an object, a list, null) or the string holds a control
 * character.
 */
#ifndef THPBENCH_RESULTS_GET_H
#define THPBENCH_RESULTS_GET_H

#include <stddef.h>

#include "results.h"

int results_get(const struct tb_results *r, const char *key, char *buf,
		size_t len, char *err, size_t errlen);

#endif
