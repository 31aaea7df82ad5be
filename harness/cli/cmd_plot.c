// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_plot - `thpbench plot`: charts of results files (plot.h).
 *
 *   thpbench plot RESULTS.json -o DIR            the file's charts in DIR
 *   thpbench plot RESULTS.json --by thp -o DIR   and modes (labels) A/B
 *   thpbench plot BASE.json NEW.json -o DIR      A/B charts in DIR, each
 *                                                file's own in DIR/NAME/
 *   thpbench plot A.json B.json C.json -o DIR    each file's in DIR/NAME/
 *
 * NAME is the file's name without .json, or its directory's name for a
 * results.json. gnuplot missing: everything but the images is written,
 * one line says how to install it, and the exit code is still 0.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare/compare.h"
#include "plot/plot.h"
#include "results/store.h"
#include "util/util.h"

struct plot_cli {
	const char *outdir;
	struct compare_opts o;
	bool by;
	char **files;
	size_t nfiles;
};

static void usage(FILE *f)
{
	fputs("usage: thpbench plot RESULTS.json [MORE.json...] -o DIR "
	      "[options]\n"
	      "  One file: its charts in DIR. Two files: BASE and NEW, the "
	      "A/B charts\n"
	      "  in DIR and each file's own charts in DIR/NAME. More: each "
	      "file's in DIR/NAME.\n\n"
	      "  -o, --output DIR     where the .gp, .dat, .png and .svg "
	      "files go\n"
	      "  --by thp|label|mthp|mem  one file: also A/B charts of its THP\n"
	      "                       modes, labels, mTHP sizes or memory states\n"
	      "  --base VALUE         with --by: the mode or label to "
	      "compare against\n"
	      "  --force              compare even when the environments "
	      "differ\n"
	      "  -h, --help\n\n"
	      "Redraw or restyle any chart with: gnuplot DIR/CHART.gp\n"
	      "THPBENCH_GNUPLOT=PATH picks the gnuplot to run (empty: none).\n",
	      f);
}

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "by", required_argument, NULL, 'B' },
	{ "base", required_argument, NULL, 'b' },
	{ "force", no_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* 0 go on, 1 done (help), -1 usage error (said). */
static int parse_args(struct plot_cli *c, int argc, char **argv)
{
	int opt, by;

	optind = 0;	/* GNU: start afresh (tests call us repeatedly) */
	while ((opt = getopt_long(argc, argv, "o:h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			c->outdir = optarg;
			break;
		case 'B':
			if ((by = compare_by_parse(optarg)) < 0) {
				tb_err("--by %s: expected thp, label, mthp or mem", optarg);
				return -1;
			}
			c->o.by = (enum compare_by)by;
			c->by = true;
			break;
		case 'b':
			c->o.base_value = optarg;
			break;
		case 'F':
			c->o.force = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	c->files = argv + optind;
	c->nfiles = (size_t)(argc - optind);
	if (!c->nfiles || !c->outdir) {
		tb_err(!c->nfiles ? "plot: no results file given" :
		       "plot: no output directory: add -o DIR");
		usage(stderr);
		return -1;
	}
	if (c->by && c->nfiles != 1) {
		tb_err("plot: --by compares inside one results file; "
		       "%zu given", c->nfiles);
		return -1;
	}
	return 0;
}

static int load_all(struct plot_cli *c, struct tb_results *r)
{
	char err[4096];
	size_t i;

	for (i = 0; i < c->nfiles; i++)
		if (store_load(c->files[i], &r[i], err, sizeof(err))) {
			tb_err("%s", err);
			return -1;
		}
	return 0;
}

/* The A/B charts; -1 when the comparison is refused (said why). */
static int plot_ab(struct plot_cli *c, const struct tb_results *ra,
		   const struct tb_results *rb, struct plot_set *ps)
{
	struct comparison cmp;
	char err[4096];
	int rc = 0;

	c->o.base_path = c->files[0];
	c->o.new_path = c->nfiles > 1 ? c->files[1] : NULL;
	if (compare_build(&cmp, ra, rb, &c->o, err, sizeof(err))) {
		tb_err("plot: no A/B charts: %s (thpbench compare says more%s)",
		       err, cmp.blocking ? "; --force draws them anyway" : "");
		rc = -1;
	} else if (plot_compare(&cmp, c->outdir, ps, err, sizeof(err))) {
		tb_err("plot: %s", err);
		rc = -1;
	}
	compare_free(&cmp);
	return rc;
}

static int plot_files(struct plot_cli *c, struct tb_results *r,
		      struct plot_set *ps)
{
	char err[4096], *dir;
	size_t i;
	int rc = 0;

	for (i = 0; i < c->nfiles && !rc; i++) {
		dir = c->nfiles == 1 ? xstrdup(c->outdir) : plot_file_dir(c->outdir, c->files, i);
		if (plot_results(&r[i], dir, ps, err, sizeof(err))) {
			tb_err("plot: %s", err);
			rc = -1;
		}
		free(dir);
	}
	return rc;
}

static int draw(struct plot_set *ps)
{
	enum plot_render_status st = plot_render(ps, stdout);
	size_t i;

	for (i = 0; i < ps->nimages; i++)
		printf("chart: %s\n", ps->images[i]);
	if (st == PLOT_NO_GNUPLOT)
		for (i = 0; i < ps->nscripts; i++)
			printf("chart script: %s\n", ps->scripts[i]);
	if (!ps->nscripts)
		printf("no charts: no metric has an ok run\n");
	return st == PLOT_FAILED ? -1 : 0;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_cli c = { 0 };
	struct plot_set ps = { 0 };
	struct tb_results *r;
	size_t i;
	int rc;

	compare_opts_init(&c.o);
	rc = parse_args(&c, argc, argv);
	if (rc)
		return rc > 0 ? TB_EXIT_OK : TB_EXIT_ERROR;
	r = xcalloc(c.nfiles, sizeof(*r));
	rc = load_all(&c, r);
	if (!rc) {
		rc = plot_files(&c, r, &ps);
		/* The per-file charts are worth having even if A/B fails. */
		if (!rc && (c.by || c.nfiles == 2))
			rc = plot_ab(&c, &r[0], c.by ? &r[0] : &r[1], &ps);
		if (draw(&ps))
			rc = -1;
	}
	for (i = 0; i < c.nfiles; i++)
		results_free(&r[i]);
	free(r);
	plot_set_free(&ps);
	return rc ? TB_EXIT_ERROR : TB_EXIT_OK;
}
