// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the suite parser (suite_parse, what suite_load runs on
 * a file's bytes). Any input must give 0 or -1 with a message, never a
 * crash, a leak or undefined behaviour; on success the suite is checked
 * for what later stages assume (every case has a workload).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measure/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[1024];
	struct suite s;
	size_t i;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!suite_parse("fuzz.conf", text, size, &s, err, sizeof(err))) {
		for (i = 0; i < s.ncases; i++)
			if (!s.cases[i].workload || !s.cases[i].name)
				abort();
		suite_free(&s);
	} else if (!err[0]) {
		abort();	/* an error must say what is wrong */
	}
	free(text);
	return 0;
}
