/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * suite_get - one value of a loaded suite (suite.h) as text, for a
 * script that needs it (`thpbench suite get FILE KEY`): the suite file
 * keeps one reader. KEY is a [suite] key - name, description,
 * repetitions, warmup, timeout, events, thp, order, seed - with the
 * default suite.h gives when the file does not set it, or "cases": every
 * case's name, one a line. The value is written to f with a newline.
 * 0; -1 with err when KEY is none of these (or seed is not set).
 */
#ifndef THPBENCH_SUITE_GET_H
#define THPBENCH_SUITE_GET_H

#include <stddef.h>
#include <stdio.h>

#include "suite.h"

int suite_get(const struct suite *s, const char *key, FILE *f, char *err,
	      size_t errlen);

#endif
