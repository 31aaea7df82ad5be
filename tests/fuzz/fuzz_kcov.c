// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: kernel line coverage's two readers, an lcov tracefile
 * (results/lcov.h) and a patch (results/patch_hunks.h), and what
 * ./run.sh coverage does with them: the input is cut at its first NUL
 * into a tracefile and a patch, each read from a file (both readers take
 * paths), the patch's lines settled, its coverage computed, summarised at
 * 72 columns and the tracefile written back. Any input must be read or
 * refused with a message, never crash, leak or hit undefined behaviour.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/compare_pcov.h"
#include "results/lcov.h"
#include "results/patch_hunks.h"

static int put(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fwrite(data, 1, size, f);
	return fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char tpath[64], ppath[64];
	const uint8_t *nul = memchr(data, '\0', size);
	size_t tlen = nul ? (size_t)(nul - data) : size;
	struct lcov lc = { 0 }, again = { 0 };
	struct patch_set ps = { 0 };
	struct compare_pcov pc;
	char err[512];
	FILE *out;

	if (!*tpath) {
		snprintf(tpath, sizeof(tpath), "/tmp/fuzz_kcov.%d.info", (int)getpid());
		snprintf(ppath, sizeof(ppath), "/tmp/fuzz_kcov.%d.patch", (int)getpid());
	}
	if (put(tpath, data, tlen) ||
	    put(ppath, nul ? nul + 1 : data, nul ? size - tlen - 1 : 0))
		return 0;
	lcov_read(tpath, "/src", &lc, err, sizeof(err));
	if (!patch_hunks_read(ppath, &ps, err, sizeof(err)))
		patch_hunks_settle(&ps);
	compare_pcov_build(&pc, &ps, &lc);
	out = fopen("/dev/null", "w");
	if (out) {
		compare_pcov_summary(out, &pc, 72);
		compare_pcov_print(out, &pc);
		fclose(out);
	}
	out = fopen(tpath, "w");
	if (out) {
		lcov_write(&lc, out, "/snap");
		fclose(out);
		lcov_read(tpath, "/snap", &again, err, sizeof(err));
	}
	compare_pcov_free(&pc);
	patch_hunks_free(&ps);
	lcov_free(&lc);
	lcov_free(&again);
	return 0;
}
