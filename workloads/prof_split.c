// SPDX-License-Identifier: GPL-2.0-only
/*
 * prof_split - a known profile: the region of interest calls two
 * functions with the same body, spin_three() three times and spin_one()
 * once per round, so a sampling profiler must find 3/4 and 1/4 of their
 * combined samples in them whatever the machine's speed (the check of
 * `thpbench run --profile`'s attribution: tests/integration/profile.sh).
 *
 *   prof_split [--rounds N] [--inner N] [--no-one]
 *
 * --no-one (or PROF_SPLIT_NO_ONE=1 in the environment, so that a suite's
 * two cases differ only there and `compare --by label` pairs them) leaves
 * spin_one() out: its share must then be reported absent, not 0.
 * Prints roi_usec and rounds. Exit 0; 2 usage.
 */
#include "wl.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: prof_split [--rounds N] [--inner N] [--no-one]\n"
	"Calls spin_three() 3 times and spin_one() once per round (same body)\n"
	"inside the region of interest: a profile's known answer, 75/25.\n"
	"Metrics: roi_usec, rounds. Exit 0; 2 usage.\n";

static volatile unsigned long sink;

void spin_three(unsigned long inner);
void spin_one(unsigned long inner);

/* The same body in both: noinline and frame pointers keep them apart. */
#define SPIN_BODY(inner)					\
	do {							\
		unsigned long x = sink, i;			\
		for (i = 0; i < (inner); i++)			\
			x = x * 6364136223846793005UL + 1442695040888963407UL; \
		sink = x;					\
	} while (0)

__attribute__((noinline)) void spin_three(unsigned long inner)
{
	SPIN_BODY(inner);
}

__attribute__((noinline)) void spin_one(unsigned long inner)
{
	SPIN_BODY(inner);
}

int main(int argc, char **argv)
{
	uint64_t rounds = 400, inner = 200000, r;
	bool one = true;
	double t0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			wl_usage_exit(usage);
		} else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = wl_opt_count("--rounds", argv[++i], 1, 1ULL << 32, usage);
		} else if (!strcmp(argv[i], "--inner") && i + 1 < argc) {
			inner = wl_opt_count("--inner", argv[++i], 1, 1ULL << 32, usage);
		} else if (!strcmp(argv[i], "--no-one")) {
			one = false;
		} else {
			wl_usage_error(usage, "unknown argument \"%s\"", argv[i]);
		}
	}
	if (getenv("PROF_SPLIT_NO_ONE") && !strcmp(getenv("PROF_SPLIT_NO_ONE"), "1"))
		one = false;
	wl_roi_begin();
	t0 = wl_now_usec();
	for (r = 0; r < rounds; r++) {
		spin_three(inner);
		spin_three(inner);
		spin_three(inner);
		if (one)
			spin_one(inner);
	}
	wl_metric("roi_usec", wl_now_usec() - t0);
	wl_roi_end();
	wl_metric("rounds", (double)rounds);
	return 0;
}
