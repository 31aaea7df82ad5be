/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_set - the files one plotting job wrote: its gnuplot scripts, every
 * file in the order written, and the images gnuplot then drew
 * (plot_render, plot.h). Paths are copies; plot_set_free frees them.
 *
 * A chart whose script and data came out byte for byte as the files
 * already there, with both images there too, is "kept": its files are
 * left as they are (mtime included) and plot_render does not draw it
 * again, it only lists its images. Delete an image to have it redrawn.
 */
#ifndef THPBENCH_PLOT_SET_H
#define THPBENCH_PLOT_SET_H

#include <stddef.h>

struct plot_set {
	char **scripts;		/* .gp files to run, paths */
	size_t nscripts, scap;
	char **files;		/* every file written, in order, paths */
	size_t nfiles, fcap;
	char **images;		/* .png/.svg drawn by plot_render */
	size_t nimages, icap;
	char **kept;		/* .gp files whose chart is already drawn, paths */
	size_t nkept, kcap;
};

/* Record a written file (a copy of path) in ps->files. */
void plot_set_add_file(struct plot_set *ps, const char *path);
void plot_set_add_script(struct plot_set *ps, const char *path);
/* A chart already drawn from the same script and data (see above). */
void plot_set_add_kept(struct plot_set *ps, const char *path);
void plot_set_free(struct plot_set *ps);
/* Record an image gnuplot drew (a copy of path) in ps->images. */
void plot_set_add_image(struct plot_set *ps, const char *path);

#endif
