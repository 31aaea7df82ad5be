// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_merge - `thpbench merge`: results files of one setup as one file
 * (merge.h), e.g. every boot of kernel A, for `thpbench compare`.
 *
 *   thpbench merge A-1.json A-2.json ... -o A.json [--boot-means] [--force]
 *
 * The output is checked by loading it back (store.h) and written with its
 * summaries, atomically. Exit 0, or 2 naming the file and what differs.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "results/merge.h"
#include "util/safe_file.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench merge RESULTS.json... -o OUT.json [options]\n"
	      "  Every run of every file, cases paired by id; the files must\n"
	      "  come from one setup (same kernel, config, CPU, THP knobs;\n"
	      "  the hostname may differ).\n\n"
	      "  -o, --output FILE   the merged results file\n"
	      "  --boot-means        one run per file and case: the mean of\n"
	      "                      its ok runs (each file one sample)\n"
	      "  --force             merge despite environment differences\n"
	      "  -h, --help\n", f);
}

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "boot-means", no_argument, NULL, 'M' },
	{ "force", no_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_merge(int argc, char **argv)
{
	struct merge_opts o = { 0 };
	const char *out = NULL;
	json_t **in;
	char err[1024];
	json_t *merged;
	size_t n, i;
	int opt, rc = TB_EXIT_ERROR;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "o:h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'M':
			o.boot_means = true;
			break;
		case 'F':
			o.force = true;
			break;
		case 'h':
			usage(stdout);
			return TB_EXIT_OK;
		default:
			usage(stderr);
			return TB_EXIT_ERROR;
		}
	}
	if (!out || optind >= argc) {
		usage(stderr);
		return TB_EXIT_ERROR;
	}
	n = (size_t)(argc - optind);
	in = xcalloc(n, sizeof(*in));
	for (i = 0; i < n; i++) {
		json_error_t jerr;
		char why[JSON_ERROR_TEXT_LENGTH];
		size_t len;
		/* A regular file only: a FIFO is refused, not waited on. */
		char *text = read_regular(argv[optind + i], 0, &len, err, sizeof(err));

		if (!text) {
			tb_err("%s", err);
			goto out;
		}
		in[i] = json_loadb(text, len, 0, &jerr);
		free(text);
		if (!in[i]) {
			tb_err("%s:%d:%d: %s", argv[optind + i], jerr.line, jerr.column,
			       json_error_safe(jerr.text, why, sizeof(why)));
			goto out;
		}
		if (!json_is_array(json_object_get(in[i], "cases"))) {
			tb_err("%s: not a results file (no \"cases\" array)",
			       argv[optind + i]);
			goto out;
		}
	}
	merged = merge_results(in, (const char *const *)argv + optind, n, &o,
			       err, sizeof(err));
	if (!merged) {
		tb_err("%s", err);
		goto out;
	}
	if (merge_write_checked(merged, out, err, sizeof(err)))
		tb_err("%s", err);
	else
		rc = TB_EXIT_OK;
	json_decref(merged);
out:
	for (i = 0; i < n; i++)
		json_decref(in[i]);
	free(in);
	return rc;
}
