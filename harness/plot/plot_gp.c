// SPDX-License-Identifier: GPL-2.0-only
#include "plot_gp.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/hash.h"
#include "util/safe_file.h"
#include "util/util.h"

/*
 * Line types 1..8: Paul Tol's "bright" scheme, distinguishable by the
 * colour blind and in grey print. Bars of case i use line type i + 1.
 */
static const char *const palette[] = {
	"#4477aa", "#ee6677", "#228833", "#ccbb44",
	"#66ccee", "#aa3377", "#bbbbbb", "#000000",
};

static char *join(const char *dir, const char *stem, const char *suffix)
{
	size_t n = strlen(dir) + strlen(stem) + strlen(suffix) + 3;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s.%s", dir, stem, suffix);
	return p;
}

/* Where a file is written before settle() compares it: PATH.new. */
static char *new_name(const char *path)
{
	size_t n = strlen(path) + 5;
	char *p = xmalloc(n);

	snprintf(p, n, "%s.new", path);
	return p;
}

/* Whether two files hold the same bytes (false when either is unreadable). */
static bool same_content(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fa ? fopen(b, "rb") : NULL;
	char ba[8192], bb[8192];
	bool same = fa && fb;
	size_t na, nb;

	while (same) {
		na = fread(ba, 1, sizeof(ba), fa);
		nb = fread(bb, 1, sizeof(bb), fb);
		same = na == nb && !memcmp(ba, bb, na);
		if (na < sizeof(ba))
			break;
	}
	if (same)
		same = !ferror(fa) && !ferror(fb);
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/*
 * path.new is written: when path holds the same bytes, drop path.new and
 * leave path (and its mtime) alone; else move path.new over it and note
 * the change. -1 with err set when the rename fails.
 */
static int settle(const char *path, bool *changed, char *err, size_t errlen)
{
	char *tmp = new_name(path);
	int rc = 0;

	if (same_content(tmp, path)) {
		unlink(tmp);
	} else if (rename(tmp, path)) {
		snprintf(err, errlen, "%s: cannot write: %s", path,
			 strerror(errno));
		unlink(tmp);
		rc = -1;
	} else {
		*changed = true;
	}
	free(tmp);
	return rc;
}

/* Both images of the chart are there (drawn by an earlier run). */
static bool images_there(const struct gp_chart *ch)
{
	char *png = join(ch->dir, ch->stem, "png");
	char *svg = join(ch->dir, ch->stem, "svg");
	bool there = !access(png, R_OK) && !access(svg, R_OK);

	free(png);
	free(svg);
	return there;
}

/* The script's way back to its own directory: dirname(ARG0) in gnuplot. */
static void write_cd(FILE *f)
{
	fputs("# Read data and write images next to this script, wherever\n"
	      "# gnuplot was started from.\n"
	      "_tb_dir(s, i) = i < 1 ? \".\" : s[i:i] eq \"/\" ? "
	      "(i == 1 ? \"/\" : s[1:i-1]) : _tb_dir(s, i - 1)\n"
	      "if (exists(\"ARG0\") && strlen(ARG0) > 0) "
	      "cd _tb_dir(ARG0, strlen(ARG0))\n\n", f);
}

static void write_comment(FILE *f, const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchrnul(p, '\n');
		gp_comment(f, "%.*s", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

int gp_open(struct gp_chart *ch, struct plot_set *ps, const char *dir,
	    const char *stem, const char *what, char *err, size_t errlen)
{
	char *path = join(dir, stem, "gp.new");
	size_t i;

	memset(ch, 0, sizeof(*ch));
	ch->gp = sf_create(path, err, errlen);	/* never through a planted link */
	if (!ch->gp) {
		free(path);
		return -1;
	}
	ch->ps = ps;
	ch->dir = xstrdup(dir);
	ch->stem = xstrdup(stem);
	free(path);
	fputs("# SPDX-License-Identifier: GPL-2.0-only\n", ch->gp);
	write_comment(ch->gp, what);
	fprintf(ch->gp, "#\n# Written by thpbench plot; redraw %s.png and "
		"%s.svg with: gnuplot %s.gp\n\n", stem, stem, stem);
	write_cd(ch->gp);
	fputs("set encoding utf8\n", ch->gp);
	for (i = 0; i < ARRAY_SIZE(palette); i++)
		fprintf(ch->gp, "set linetype %zu lc rgb '%s' lw 1.5 pt 7\n",
			i + 1, palette[i]);
	fputs("set linetype cycle 8\n\n", ch->gp);
	return 0;
}

FILE *gp_data(struct gp_chart *ch, const char *suffix, char *name,
	      size_t namelen, char *err, size_t errlen)
{
	char *final = join(ch->dir, ch->stem, suffix);
	char *path = new_name(final);
	FILE *f = sf_create(path, err, errlen);

	free(final);

	if (f)
		snprintf(name, namelen, "%s.%s", ch->stem, suffix);
	free(path);
	return f;
}

int gp_data_close(struct gp_chart *ch, FILE *f, const char *name, char *err,
		  size_t errlen)
{
	size_t n = strlen(ch->dir) + strlen(name) + 2;
	char *path = xmalloc(n);
	int bad = ferror(f);

	snprintf(path, n, "%s/%s", ch->dir, name);
	if (fclose(f) || bad) {
		snprintf(err, errlen, "%s: write failed: %s", path,
			 strerror(errno));
		free(path);
		return -1;
	}
	if (settle(path, &ch->changed, err, errlen)) {
		free(path);
		return -1;
	}
	plot_set_add_file(ch->ps, path);
	free(path);
	return 0;
}

void gp_begin(struct gp_chart *ch, int w, int h)
{
	FILE *f = ch->gp;

	fprintf(f, "do for [fmt in \"png svg\"] {\n"
		"if (fmt eq \"png\") {\n"
		"\tset terminal pngcairo size %d,%d noenhanced font '%s' "
		"linewidth 1.2\n"
		"} else {\n"
		"\tset terminal svg size %d,%d dynamic noenhanced font '%s' "
		"linewidth 1.2 background '#ffffff'\n"
		"}\n"
		"set output '%s.'.fmt\n\n", w, h, GP_FONT, w, h, GP_FONT,
		ch->stem);
}

static void chart_free(struct gp_chart *ch)
{
	free(ch->dir);
	free(ch->stem);
	ch->dir = ch->stem = NULL;
	ch->gp = NULL;
}

int gp_close(struct gp_chart *ch, char *err, size_t errlen)
{
	char *path = join(ch->dir, ch->stem, "gp");
	int bad;

	fputs("\nset output\n}\n", ch->gp);
	bad = ferror(ch->gp);
	if (fclose(ch->gp) || bad) {
		snprintf(err, errlen, "%s: write failed: %s", path,
			 strerror(errno));
		free(path);
		chart_free(ch);
		return -1;
	}
	if (settle(path, &ch->changed, err, errlen)) {
		free(path);
		chart_free(ch);
		return -1;
	}
	plot_set_add_file(ch->ps, path);
	if (!ch->changed && images_there(ch))
		plot_set_add_kept(ch->ps, path);
	else
		plot_set_add_script(ch->ps, path);
	free(path);
	chart_free(ch);
	return 0;
}

void gp_abort(struct gp_chart *ch)
{
	if (ch->gp)
		fclose(ch->gp);
	if (ch->dir) {
		char *path = join(ch->dir, ch->stem, "gp.new");

		unlink(path);
		free(path);
	}
	chart_free(ch);
}

void gp_num(FILE *f, double v)
{
	char buf[40];
	int prec;

	if (!isfinite(v)) {
		fputs("NaN", f);
		return;
	}
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, v);
	fputs(buf, f);
}

/*
 * The one place where text from a results file or a suite becomes gnuplot
 * input. gnuplot runs `...` inside double-quoted strings (not inside
 * single-quoted ones or comments), expands @macros outside quotes, and a
 * comment ending in a backslash swallows the next line: so double-quoted
 * text carries ` and @ as octal escapes, every string is closed on its
 * line (control characters become spaces), and a comment never ends in a
 * backslash. system() and eval are functions: text inside a string
 * literal is never evaluated.
 */
void gp_text(FILE *f, const char *s, enum gp_quote how)
{
	bool dq = how == GP_DOUBLE || how == GP_TIC;
	unsigned char c;

	if (how != GP_COMMENT)
		fputc(how == GP_SINGLE ? '\'' : '"', f);
	for (; (c = (unsigned char)*s); s++) {
		if (c == '\n' && dq)
			fputs("\\n", f);
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else if (how == GP_SINGLE && c == '\'')
			fputs("''", f);
		else if (how == GP_DATA && c == '"')
			fputc('\'', f);
		else if (dq && (c == '"' || c == '\\'))
			fprintf(f, "\\%c", c);
		else if (dq && (c == '`' || c == '@'))
			fprintf(f, "\\%03o", c);
		else if (how == GP_TIC && c == '%')
			fputs("%%", f);
		else
			fputc(c, f);
	}
	if (how == GP_COMMENT)
		fputs(s[-1] == '\\' ? " \n" : "\n", f);
	else
		fputc(how == GP_SINGLE ? '\'' : '"', f);
}

void gp_comment(FILE *f, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs("# ", f);
	gp_text(f, buf, GP_COMMENT);
}

/* The characters of s a file name may hold, odd runs as one '-'. */
static size_t slug_chars(const char *s, char *buf, size_t len)
{
	size_t i = 0;

	for (; *s && i + 1 < len; s++) {
		char c = *s;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			  c == '-';

		/* Runs of odd characters collapse to one '-'. */
		if (!ok && i && buf[i - 1] == '-')
			continue;
		buf[i++] = ok ? c : '-';
	}
	while (i && buf[i - 1] == '-')
		i--;
	buf[i] = '\0';
	return i;
}

/*
 * A name can be any length (a case id of hundreds of characters), a file
 * name at most 255 bytes: past GP_SLUG_MAX the tail is replaced by a hash
 * of the whole name, so long names still get distinct, stable files.
 */
const char *gp_slug(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s) + 1, i, keep;
	char *full = xmalloc(n), hex[HASH_SHA256_HEX];

	if (!len) {
		free(full);
		return buf;
	}
	i = slug_chars(s, full, n);
	if (i > GP_SLUG_MAX && !hash_sha256(s, strlen(s), hex)) {
		keep = GP_SLUG_MAX - 17;
		while (keep && full[keep - 1] == '-')
			keep--;
		snprintf(full + keep, n - keep, "-%.16s", hex);
		i = keep + 17;
	}
	snprintf(buf, len, "%s", full);
	free(full);
	/* Never "", a hidden file or one gnuplot would take for an option. */
	if (!i)
		snprintf(buf, len, "chart");
	else if (buf[0] == '.' || buf[0] == '-')
		buf[0] = '_';
	return buf;
}
