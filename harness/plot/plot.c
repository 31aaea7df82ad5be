// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot - drawing what a plotting job wrote (plot_set.h) with gnuplot,
 * a run's charts written and drawn in one call, and where each file's
 * charts go. The charts themselves are in plot_run.c and plot_ab.c.
 */
#include "plot.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gnuplot.h"
#include "util/util.h"

/*
 * STEM.gp -> STEM.png and STEM.svg, when gnuplot made them; after a
 * failure they are half drawn, and removed rather than shown.
 */
static void add_images(struct plot_set *ps, const char *script, bool ok)
{
	static const char *const ext[] = { "png", "svg" };
	size_t n = strlen(script), i;
	char *p = xmalloc(n + 2);

	for (i = 0; i < ARRAY_SIZE(ext); i++) {
		memcpy(p, script, n - 2);
		strcpy(p + n - 2, ext[i]);
		if (!ok)
			unlink(p);
		else if (!access(p, F_OK)) {
			plot_set_add_image(ps, p);
			plot_set_add_file(ps, p);
		}
	}
	free(p);
}

static void pass_on(const char *script, const char *text)
{
	const char *p = text, *nl;

	for (; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		if (nl > p)
			tb_warn("gnuplot %s: %.*s", script, (int)(nl - p), p);
	}
}

enum plot_render_status plot_render(struct plot_set *ps, FILE *msg)
{
	enum plot_render_status st = PLOT_DRAWN;
	char gnuplot[4096], *out;
	struct gnuplot_job *jobs;
	size_t i, width;
	int rc;

	for (i = 0; i < ps->nkept; i++)
		add_images(ps, ps->kept[i], true);
	if (!ps->nscripts)
		return PLOT_DRAWN;
	if (gnuplot_find(gnuplot, sizeof(gnuplot))) {
		fprintf(msg, "%s\n", GNUPLOT_INSTALL_HINT);
		return PLOT_NO_GNUPLOT;
	}
	/* As many at once as there are CPUs, reported in script order. */
	width = (size_t)(sysconf(_SC_NPROCESSORS_ONLN) > 1 ?
			 sysconf(_SC_NPROCESSORS_ONLN) : 1);
	jobs = xcalloc(ps->nscripts, sizeof(*jobs));
	for (i = 0; i < ps->nscripts && i < width; i++)
		gnuplot_start(gnuplot, ps->scripts[i], &jobs[i]);
	for (i = 0; i < ps->nscripts; i++) {
		rc = gnuplot_finish(&jobs[i], &out);
		if (i + width < ps->nscripts)
			gnuplot_start(gnuplot, ps->scripts[i + width],
				      &jobs[i + width]);
		if (out)
			pass_on(ps->scripts[i], out);
		if (rc) {
			tb_err("gnuplot %s failed (%s %d); the data and script "
			       "are there to fix and rerun", ps->scripts[i],
			       rc < 0 ? "killed or not started" : "exit", rc);
			st = PLOT_FAILED;
		}
		free(out);
		add_images(ps, ps->scripts[i], rc == 0);
	}
	free(jobs);
	return st;
}

int plot_results_dir(const struct tb_results *r, const char *outdir,
		     FILE *out)
{
	struct plot_set ps = { 0 };
	char err[4096];
	enum plot_render_status st;
	size_t i;

	if (plot_results(r, outdir, &ps, err, sizeof(err))) {
		tb_err("charts: %s", err);
		plot_set_free(&ps);
		return -1;
	}
	st = plot_render(&ps, out);
	for (i = 0; i < ps.nimages; i++)
		fprintf(out, "chart: %s\n", ps.images[i]);
	if (st == PLOT_NO_GNUPLOT)
		for (i = 0; i < ps.nscripts; i++)
			fprintf(out, "chart script: %s\n", ps.scripts[i]);
	plot_set_free(&ps);
	return st == PLOT_FAILED ? -1 : 0;
}

/* NAME of a results file: "base" for base.json and base/results.json. */
static void file_name(const char *path, char *buf, size_t len)
{
	char *p = xstrdup(path), *d = xstrdup(path);
	char *base = basename(p), *dot = strrchr(base, '.');

	if (dot && !strcmp(dot, ".json"))
		*dot = '\0';
	if (!strcmp(base, "results") || !*base)
		base = basename(dirname(d));
	snprintf(buf, len, "%s", base);
	free(p);
	free(d);
}

char *plot_file_dir(const char *outdir, char *const *files, size_t i)
{
	char name[256], other[256], *out;
	size_t k, dup = 0, n;

	file_name(files[i], name, sizeof(name));
	for (k = 0; k < i; k++) {
		file_name(files[k], other, sizeof(other));
		dup += !strcmp(name, other);
	}
	n = strlen(outdir) + strlen(name) + 24;
	out = xmalloc(n);
	if (dup)
		snprintf(out, n, "%s/%s-%zu", outdir, name, dup + 1);
	else
		snprintf(out, n, "%s/%s", outdir, name);
	return out;
}
