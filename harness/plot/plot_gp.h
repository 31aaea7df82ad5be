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

#include <stdbool.h>
#include <stdio.h>

#include "plot_set.h"

/* Pixel size of the images; text sizes are tuned for it. */
#define GP_WIDTH 1000
#define GP_HEIGHT 600
#define GP_FONT "Sans,13"

struct gp_chart {
	struct plot_set *ps;
	char *dir, *stem;
	FILE *gp;
	bool changed;		/* a file differs from what was there */
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
/*
 * Every string that reaches a script or data file goes through gp_text:
 *   GP_SINGLE  a single-quoted literal ('it''s'); newlines become spaces
 *   GP_DOUBLE  a double-quoted literal: "\n" in s starts a new line of
 *              text; ` and @ written as octal escapes, so never executed
 *   GP_TIC     GP_DOUBLE for `set xtics ("label" pos)`: gnuplot reads it
 *              as a format for the position, so '%' is doubled
 *   GP_DATA    a double-quoted data-file field (quotes become ')
 *   GP_COMMENT the text of a comment (no quotes; never ends in a
 *              backslash, which would continue it onto the next line);
 *              ends the line
 * Control characters become spaces in all of them.
 */
enum gp_quote { GP_SINGLE, GP_DOUBLE, GP_TIC, GP_DATA, GP_COMMENT };
void gp_text(FILE *f, const char *s, enum gp_quote how);
/* "# " and the formatted text as GP_COMMENT, one line. */
void gp_comment(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A file-name-safe form of s: [A-Za-z0-9._-], others as '-', in buf; at
 * most GP_SLUG_MAX characters, a longer one cut and ended with '-' and 16
 * hex digits of the SHA-256 of s (a file name, with "-counters.png" and
 * the like, must stay under 255 bytes).
 */
#define GP_SLUG_MAX 96
const char *gp_slug(const char *s, char *buf, size_t len);

#endif
