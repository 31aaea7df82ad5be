// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_bisect_rounds - `thpbench bisect rounds --commits C [--devices LIST]`:
 * how many rounds a bisection over C commits (GOOD and BAD included)
 * takes with N devices measuring N commits a round (bisect_plan.h
 * bisect_plan_next_n), simulated over where the first bad commit is,
 * beside ceil(log_{N+1}(C - 1)). For a lab sizing its devices; the
 * simulation decides each commit at once (no skip, no more
 * repetitions), as the formula does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect/bisect_plan.h"
#include "commands.h"
#include "util/util.h"

#define ROUNDS_MAX_COMMITS 1000000
#define ROUNDS_MAX_DEVICES 64

static int usage(FILE *f, int rc)
{
	fputs("usage: thpbench bisect rounds --commits C [--devices N[,N...]]\n"
	      "  Rounds of a bisection over C commits (GOOD and BAD included,\n"
	      "  2..1000000) with N devices (1..64; default 1,2,4,8), each round\n"
	      "  measuring N commits at once: the most and the mean over every\n"
	      "  place the first bad commit can be (over 257 of them, spread\n"
	      "  evenly, when C > 8192), and ceil(log_{N+1}(C - 1)).\n", f);
	return rc;
}

static int parse_devices(const char *s, size_t *dev, size_t *n)
{
	char buf[256], *tok, *save = NULL;
	long v;

	snprintf(buf, sizeof(buf), "%s", s);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == 16 || parse_long(tok, &v) || v < 1 || v > ROUNDS_MAX_DEVICES)
			return -1;
		dev[(*n)++] = (size_t)v;
	}
	return *n ? 0 : -1;
}

int cmd_bisect_rounds(int argc, char **argv)
{
	size_t dev[16] = { 1, 2, 4, 8 }, ndev = 4, i, worst;
	long commits = 0;
	double mean;
	bool all = true;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help"))
			return usage(stdout, 0);
		if (a + 1 < argc && !strcmp(argv[a], "--commits")) {
			if (parse_long(argv[++a], &commits) || commits < 2 || commits > ROUNDS_MAX_COMMITS) {
				tb_err("bisect rounds: --commits %s: give 2..%d", argv[a], ROUNDS_MAX_COMMITS);
				return TB_EXIT_ERROR;
			}
		} else if (a + 1 < argc && !strcmp(argv[a], "--devices")) {
			if (parse_devices(argv[++a], dev, &ndev)) {
				tb_err("bisect rounds: --devices %s: give N[,N...], each 1..%d", argv[a],
				       ROUNDS_MAX_DEVICES);
				return TB_EXIT_ERROR;
			}
		} else {
			tb_err("bisect rounds: unknown argument \"%s\"", argv[a]);
			return usage(stderr, TB_EXIT_ERROR);
		}
	}
	if (!commits) {
		tb_err("bisect rounds: --commits C is required");
		return usage(stderr, TB_EXIT_ERROR);
	}
	printf("%ld commits (%ld candidates for the first bad one)\n", commits, commits - 1);
	printf("%8s %8s %8s %14s\n", "devices", "rounds", "mean", "ceil(log_N+1)");
	for (i = 0; i < ndev; i++) {
		all &= bisect_plan_rounds_stats((size_t)commits, dev[i], &worst, &mean);
		printf("%8zu %8zu %8.2f %14zu\n", dev[i], worst, mean,
		       bisect_plan_rounds_bound((size_t)commits, dev[i]));
	}
	if (!all)
		printf("(over %d places of the first bad commit, spread evenly)\n", BISECT_ROUNDS_SAMPLE);
	return 0;
}
