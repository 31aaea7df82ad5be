/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plot_gp - writing one chart: its gnuplot script and data files.
 *
 * The script is self-contained and regenerable: it starts by moving into
 * its own directory (from ARG0, so `gnuplot some/dir/STEM.gp` works from
 * anywhere), sets UTF-8 and a colour-blind-safe line type palette, and
 * draws the same commands once per format inside
 *   do for [fmt in "png svg"] { ... }
 * so the PNG and the SVG cannot disagree. Text is "noenhanced": metric
 * names like roi_usec keep their underscores.
 *
 * Numbers in data files are printed with the fewest digits that read back
 * as the same double ("%.17g" at worst), NaN as "NaN" (gnuplot skips it).
 */
#ifndef THPBENCH_PLOT_GP_H
#define THPBENCH_PLOT_GP_H

#include <stdio.h>

#include "plot.h"

/* Pixel size of the images; text sizes are tuned for it. */
#define GP_WIDTH 1000
#define GP_HEIGHT 600
#define GP_FONT "Sans,13"

struct gp_chart {
	struct plot_set *ps;
	char *dir, *stem;
	FILE *gp;
};

/*
 * Create DIR/STEM.gp and write its preamble (what the chart shows: `what`,
 * one line per '\n'). -1 with err set.
 */
int gp_open(struct gp_chart *ch, struct plot_set *ps, const char *dir,
	    const char *stem, const char *what, char *err, size_t errlen);
/*
 * Create DIR/STEM.SUFFIX (e.g. "dat", "runs.dat"); its base name, as the
 * script refers to it, in name. NULL with err set.
 */
FILE *gp_data(struct gp_chart *ch, const char *suffix, char *name,
	      size_t namelen, char *err, size_t errlen);
/* Close a data file from gp_data(); -1 with err set on a write error. */
int gp_data_close(struct gp_chart *ch, FILE *f, const char *name, char *err,
		  size_t errlen);
/* Open the per-format loop for an image of w x h pixels. */
void gp_begin(struct gp_chart *ch, int w, int h);
/* Close the loop; close the script and register it. -1 with err set. */
int gp_close(struct gp_chart *ch, char *err, size_t errlen);
/* Abandon a chart after an error (its files stay). */
void gp_abort(struct gp_chart *ch);

/* A number as data ("NaN" when not finite). */
void gp_num(FILE *f, double v);
/* A gnuplot single-quoted string literal ('it''s'); newlines become spaces. */
void gp_str(FILE *f, const char *s);
/* A gnuplot double-quoted string: "\n" in s starts a new line of text. */
void gp_dstr(FILE *f, const char *s);
/*
 * A tic label for `set xtics ("label" pos, ...)`: gnuplot reads it as a
 * format for the position, so '%' is doubled; otherwise as gp_dstr().
 */
void gp_ticstr(FILE *f, const char *s);
/* A double-quoted data-file field (quotes and newlines replaced). */
void gp_datstr(FILE *f, const char *s);

/* A file-name-safe form of s: [A-Za-z0-9._-], others as '-', in buf. */
const char *gp_slug(const char *s, char *buf, size_t len);

#endif
