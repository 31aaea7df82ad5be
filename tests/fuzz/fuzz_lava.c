// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the LAVA job log reader (results/lava_log.h) and
 * what thpbench lava console|results does with what it reads (each field
 * through lava_token, a measurement through parse_double). The log is the
 * device's bytes wrapped by LAVA: any input must be read line by line or
 * counted as unread, never crash, leak or hit undefined behaviour.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "results/lava.h"
#include "results/lava_log.h"
#include "util/util.h"

static void on_target(const char *line, void *arg)
{
	*(size_t *)arg += strlen(line);
}

static void on_result(const struct lava_result *r, void *arg)
{
	char b[1024];
	double v;

	lava_token(r->definition, b, sizeof(b));
	lava_token(r->name, b, sizeof(b));
	lava_token(r->result, b, sizeof(b));
	if (r->units)
		lava_token(r->units, b, sizeof(b));
	if (r->measurement && !parse_double(r->measurement, &v))
		fmt_shortest(v, b, sizeof(b));
	(*(size_t *)arg)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t seen = 0;
	struct lava_log_cb cb = { on_target, on_result, &seen };
	struct lava_log_stats st;
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	lava_log_read(f, &cb, &st);
	fclose(f);
	return 0;
}
