/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json_text - a JSON document as text, laid out as jansson's
 * json_dumpf(JSON_INDENT(indent)) lays it out, but with every real in its
 * shortest round-trip form (fmt_shortest: 0.1, not 0.10000000000000001,
 * and not cut to a fixed count of digits, which printed 1e15 + k as
 * 1e15). A real that reads like an integer keeps a ".0", as jansson
 * writes it, so it reads back as a real.
 */
#ifndef THPBENCH_JSON_TEXT_H
#define THPBENCH_JSON_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* Write v to f (no trailing newline). 0, or -1 on a write error. */
int json_text_write(const json_t *v, FILE *f, int indent);

#endif
