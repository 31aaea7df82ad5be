// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_provenance - `thpbench provenance FILE [--key KEY] [--timings TEXT]
 * PAIR...`: a results.json's meta.KEY (default provenance) set from
 * KEY=TEXT and KEY:=NUMBER pairs, and meta.timings, by the results store
 * (results/provenance.h), for kernel-patches/scripts; --print PAIR...
 * prints the object instead (ab.sh's ab.json). Exit 0; 2 with the reason
 * on stderr, the file untouched.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "results/provenance.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench provenance FILE [--key KEY] [--timings TEXT] [PAIR...]\n"
	      "  Set meta.KEY (default provenance) of the results file FILE to\n"
	      "  the object of the PAIRs, and meta.timings to TEXT:\n"
	      "    KEY=TEXT       a string   (kernel.release=6.1.0: nested)\n"
	      "    KEY:=NUMBER    a number, or true, false, null\n"
	      "  Without PAIRs meta.KEY stays as it is.\n"
	      "       thpbench provenance --print PAIR...\n"
	      "  Print the object of the PAIRs (indented JSON).\n", f);
}

static const struct option long_opts[] = {
	{ "key", required_argument, NULL, 'k' },
	{ "timings", required_argument, NULL, 't' },
	{ "print", no_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int print_pairs(char *const *pairs, size_t n)
{
	char err[1024];
	json_t *obj = provenance_from_pairs(pairs, n, err, sizeof(err));

	if (!obj) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	json_dumpf(obj, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(obj);
	return 0;
}

int cmd_provenance(int argc, char **argv)
{
	const char *key = "provenance", *timings = NULL, *file;
	json_t *obj = NULL;
	char err[1024];
	int c, rc = 0;
	bool print = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'k': key = optarg; break;
		case 't': timings = optarg; break;
		case 'p': print = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return TB_EXIT_ERROR;
		}
	}
	if (print)
		return print_pairs(argv + optind, (size_t)(argc - optind));
	if (optind >= argc) {
		usage(stderr);
		return TB_EXIT_ERROR;
	}
	file = argv[optind++];
	if (optind < argc &&
	    !(obj = provenance_from_pairs(argv + optind, (size_t)(argc - optind), err, sizeof(err)))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	if (provenance_stamp(file, key, obj, timings, err, sizeof(err))) {
		tb_err("%s", err);
		rc = TB_EXIT_ERROR;
	}
	json_decref(obj);
	return rc;
}
