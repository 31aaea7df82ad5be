// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench kernel-coverage --results R.json --info-dir DIR [opts]
 *
 * The kernel lines a suite ran (compare/compare_kcov.h) and, with
 * --series, the lines of that series it ran (compare/compare_pcov.h),
 * from the tracefiles lcov's geninfo made of each repetition's gcov data
 * (DIR/SEQ.info; kernel-patches/scripts/coverage.sh makes them). Prints
 * the per-file table (--format text) or the cover-letter block (--format
 * cover, 72 columns); --json writes the same as JSON, --lcov the merged
 * tracefile for genhtml with each path under --src-prefix. Exit 0; 2 on
 * an error.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_err.h"
#include "commands.h"
#include "compare/compare_kcov.h"
#include "compare/compare_pcov.h"
#include "results/json_text.h"
#include "results/lcov.h"
#include "results/patch_hunks.h"
#include "results/store.h"
#include "util/safe_file.h"
#include "util/util.h"

struct kc_opts {
	const char *results, *dir, *base, *strip, *files, *series;
	const char *json, *lcov, *prefix;
	bool cover;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: thpbench kernel-coverage --results R.json --info-dir DIR [--base BASE.info]\n"
		"           [--strip SRCDIR] [--files mm/a.c,...] [--series DIR]\n"
		"           [--format text|cover] [--json OUT] [--lcov OUT [--src-prefix DIR]]\n"
		"  Kernel lines and functions the run's repetitions ran, per file, with the case\n"
		"  that ran most of them first; with --series, the changed lines of each hunk\n"
		"  run / not run. DIR holds SEQ.info per repetition (geninfo over its gcov\n"
		"  data, run --kernel-gcov); BASE.info every line (geninfo --initial).\n"
		"  ./run.sh coverage does all of it (docs/kernel-coverage.md).\n");
}

static void parse(int argc, char **argv, struct kc_opts *o)
{
	static const struct option lo[] = {
		{ "results", required_argument, NULL, 'r' },
		{ "info-dir", required_argument, NULL, 'd' },
		{ "base", required_argument, NULL, 'b' },
		{ "strip", required_argument, NULL, 's' },
		{ "files", required_argument, NULL, 'F' },
		{ "series", required_argument, NULL, 'S' },
		{ "format", required_argument, NULL, 'f' },
		{ "json", required_argument, NULL, 'j' },
		{ "lcov", required_argument, NULL, 'l' },
		{ "src-prefix", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'r': o->results = optarg; break;
		case 'd': o->dir = optarg; break;
		case 'b': o->base = optarg; break;
		case 's': o->strip = optarg; break;
		case 'F': o->files = optarg; break;
		case 'S': o->series = optarg; break;
		case 'j': o->json = optarg; break;
		case 'l': o->lcov = optarg; break;
		case 'p': o->prefix = optarg; break;
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "cover"))
				tb_die("--format: \"%s\" is not text or cover", optarg);
			o->cover = !strcmp(optarg, "cover");
			break;
		case 'h': usage(stdout); exit(TB_EXIT_OK);
		default: usage(stderr); exit(TB_EXIT_ERROR);
		}
	}
	if (!o->results || !o->dir || optind != argc) {
		usage(stderr);
		exit(TB_EXIT_ERROR);
	}
}

static FILE *out_open(const char *path, char *tmp, size_t len)
{
	char err[512];
	FILE *f = sf_replace_open(path, tmp, len, err, sizeof(err));

	if (!f)
		tb_die("%s", err);
	return f;
}

static void out_close(FILE *f, const char *tmp, const char *path)
{
	char err[512];

	if (sf_replace_close(f, tmp, path, err, sizeof(err)))
		tb_die("%s", err);
}

static void print_cover(const struct compare_pcov *pc, bool have_series)
{
	printf("Kernel coverage (gcov, one repetition per case in a guest):\n");
	if (have_series)
		compare_pcov_summary(stdout, pc, 72);
}

int cmd_kernel_coverage(int argc, char **argv)
{
	struct kc_opts o = { 0 };
	struct tb_results res;
	struct compare_kcov k;
	struct patch_set ps = { 0 };
	struct compare_pcov pc = { 0 };
	char err[1024] = "", tmp[4200];
	json_t *doc;
	FILE *f;

	parse(argc, argv, &o);
	if (store_load(o.results, &res, err, sizeof(err)))
		tb_die("%s", err);
	if (compare_kcov_load(&k, o.base, o.dir, o.strip, &res, err, sizeof(err)))
		tb_die("%s", err);
	if (o.series && patch_hunks_read_dir(o.series, &ps, err, sizeof(err)))
		tb_die("%s", err);
	if (o.series)
		compare_pcov_build(&pc, &ps, &k.total);
	if (o.cover) {
		print_cover(&pc, o.series);
	} else {
		compare_kcov_table(stdout, &k, o.files);
		if (o.series) {
			putchar('\n');
			compare_pcov_print(stdout, &pc);
		}
	}
	if (o.json) {
		doc = compare_kcov_json(&k, o.files);
		if (o.series)
			json_object_set_new(doc, "patch", compare_pcov_json(&pc));
		f = out_open(o.json, tmp, sizeof(tmp));
		json_text_write(doc, f, 2);
		out_close(f, tmp, o.json);
		json_decref(doc);
	}
	if (o.lcov) {
		f = out_open(o.lcov, tmp, sizeof(tmp));
		lcov_write(&k.total, f, o.prefix);
		out_close(f, tmp, o.lcov);
	}
	compare_pcov_free(&pc);
	patch_hunks_free(&ps);
	compare_kcov_free(&k);
	results_free(&res);
	return TB_EXIT_OK;
}
