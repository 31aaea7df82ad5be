// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu_hw - a loop of a known number of user-space instructions, for the
 * hardware-counter test on a real (or qemu's emulated) PMU: make pmu-e2e.
 *
 * The region of interest is --iters iterations of a two-instruction loop
 * (arm64: subs + b.ne; x86-64: dec + jnz) in inline assembly, so the
 * compiler can neither drop nor reshape it: instructions:u over the ROI is
 * 2 x ITERS plus the few instructions the ROI protocol itself runs. On
 * another architecture the loop is C and only "more work counts more"
 * holds. Prints and reports iters, expected_instructions and roi_usec.
 */
#include "wl.h"

#include <getopt.h>
#include <stdio.h>

static const char usage[] =
	"usage: pmu_hw [--iters N]\n"
	"  --iters N   iterations of a two-instruction loop (default 10000000)\n"
	"Counts in its region of interest: 2 x N user-space instructions (arm64,\n"
	"x86-64). Prints and reports iters, expected_instructions (0 where the\n"
	"loop is not assembly) and roi_usec. Exit 0 ok, 2 usage.\n";

static uint64_t spin(uint64_t n)
{
#if defined(__aarch64__)
	__asm__ volatile("1:\n\tsubs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
	return 2;
#elif defined(__x86_64__)
	__asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc");
	return 2;
#else
	volatile uint64_t i;

	for (i = 0; i < n; i++)
		;
	return 0;
#endif
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "iters", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t iters = 10000000, per;
	double t0, t1;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'n')
			iters = wl_opt_count("--iters", optarg, 1, 1ULL << 40, usage);
		else
			wl_opt_fallback(c, usage);
	}
	wl_no_operands(argc, argv, usage);

	wl_roi_begin();
	t0 = wl_now_usec();
	per = spin(iters);
	t1 = wl_now_usec();
	wl_roi_end();
	wl_report("iters", (double)iters);
	wl_report("expected_instructions", (double)(per * iters));
	wl_report("roi_usec", t1 - t0);
	puts("ok");
	return WL_EXIT_OK;
}
