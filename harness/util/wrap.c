// SPDX-License-Identifier: GPL-2.0-only
/* wrap - plain text lines of bounded width (wrap.h). */
#include "wrap.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Width of the first n bytes of s. */
static int width_n(const char *s, size_t n)
{
	int w = 0;
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* Bytes of the first room columns of s (never inside a UTF-8 sequence). */
static size_t bytes_for(const char *s, size_t n, int room)
{
	size_t i = 0;
	int w = 0;

	while (i < n) {
		size_t k = i + 1;

		while (k < n && ((unsigned char)s[k] & 0xc0) == 0x80)
			k++;
		if (w + 1 > room)
			break;
		w++;
		i = k;
	}
	return i;
}

/*
 * Where to cut the word s (n bytes) so that its first piece takes at most
 * room columns: after the last '/' that fits, if it leaves the piece at
 * least half full, else after the last '-', '_', '.' or ','; hard at room
 * when none fits (at least one character, so a piece always advances).
 */
static size_t cut_word(const char *s, size_t n, int room)
{
	size_t fit = bytes_for(s, n, room > 0 ? room : 1), i, other = 0;

	if (!fit)
		fit = 1;
	for (i = fit; i > 0; i--) {
		if (s[i - 1] == '/' && width_n(s, i) * 2 >= room)
			return i;
		if (!other && strchr("-_.,", s[i - 1]))
			other = i;
	}
	return other ? other : fit;
}

void wrap_text(FILE *out, int cols, const char *first, const char *cont,
	       const char *text)
{
	const char *p = text, *indent = first;

	while (*p == ' ')
		p++;
	while (*p) {
		int room = cols - text_width(indent), used = 0;

		fputs(indent, out);
		while (*p) {
			size_t n = strcspn(p, " ");
			int w = width_n(p, n);

			if (used && used + 1 + w > room)
				break;
			if (!used && w > room) {
				size_t k = cut_word(p, n, room);

				fprintf(out, "%.*s", (int)k, p);
				p += k;
				used = room;
				break;
			}
			fprintf(out, "%s%.*s", used ? " " : "", (int)n, p);
			used += (used ? 1 : 0) + w;
			p += n;
			while (*p == ' ')
				p++;
		}
		fputc('\n', out);
		indent = cont;
	}
}

/*
 * Length in bytes of the shell word at s: up to a space that is not
 * quoted or escaped.
 */
static size_t shell_word(const char *s)
{
	size_t i = 0;
	char q = 0;

	for (; s[i]; i++) {
		if (q == '\'') {
			q = s[i] == '\'' ? 0 : q;
		} else if (s[i] == '\\' && s[i + 1]) {
			i++;
		} else if (q == '"') {
			q = s[i] == '"' ? 0 : q;
		} else if (s[i] == '\'' || s[i] == '"') {
			q = s[i];
		} else if (s[i] == ' ') {
			break;
		}
	}
	return i;
}

/* A place to cut a shell word: after byte at (0: none); inside single
 * quotes the piece ends "'\" and the rest begins "'" again. */
struct shell_cut {
	size_t at;
	bool squote;
};

/*
 * Where a backslash-newline may cut the shell word s (n bytes; q: the
 * quote it starts inside) so that the piece takes at most room columns,
 * with the preference of cut_word(); never after an escaping backslash.
 */
static struct shell_cut cut_shell_word(const char *s, size_t n, char q,
				       int room)
{
	struct shell_cut slash = { 0, false }, other = slash, any = slash, c;
	bool esc = false;
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		char ch = s[i];

		if (esc)
			esc = false;
		else if (q == '\'')
			q = ch == '\'' ? 0 : q;
		else if (ch == '\\')
			esc = true;
		else if (q == '"')
			q = ch == '"' ? 0 : q;
		else if (ch == '\'' || ch == '"')
			q = ch;
		if (esc)
			continue;
		c.at = i + 1;
		c.squote = q == '\'';
		if (width_n(s, c.at) + (c.squote ? 2 : 1) > room)
			break;
		any = c;
		if (ch == '/' && width_n(s, c.at) * 2 >= room)
			slash = c;
		else if (strchr("-_.,", ch))
			other = c;
	}
	return slash.at ? slash : other.at ? other : any;
}

/* The quote state at the end of the first n bytes of s, starting in q. */
static char quote_after(const char *s, size_t n, char q)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (q == '\'')
			q = s[i] == '\'' ? 0 : q;
		else if (s[i] == '\\')
			i++;
		else if (q == '"')
			q = s[i] == '"' ? 0 : q;
		else if (s[i] == '\'' || s[i] == '"')
			q = s[i];
	}
	return q;
}

void wrap_command(FILE *out, int cols, const char *first, const char *cont,
		  const char *cmd)
{
	const char *p = cmd;
	int col = text_width(first), lead = text_width(cont);
	bool fresh = true;	/* no word on this line yet */

	fputs(first, out);
	while (*p == ' ')
		p++;
	while (*p) {
		size_t n = shell_word(p);
		int w = width_n(p, n), tail;
		const char *next = p + n;
		struct shell_cut cut;
		char q = 0;

		while (*next == ' ')
			next++;
		tail = *next ? 2 : 0;	/* room for " \" after it */
		if (!fresh && col + 1 + w + tail > cols) {
			fprintf(out, " \\\n%s", cont);
			col = lead;
			fresh = true;
		}
		if (!fresh) {
			fputc(' ', out);
			col++;
		}
		/* Wider than what is left: backslash-newline inside the word,
		 * the rest at column 0 (indentation would become part of it). */
		while (col + w + tail > cols &&
		       (cut = cut_shell_word(p, n, q, cols - col)).at) {
			fprintf(out, "%.*s%s\\\n%s", (int)cut.at, p,
				cut.squote ? "'" : "", cut.squote ? "'" : "");
			q = quote_after(p, cut.at, q);
			p += cut.at;
			n -= cut.at;
			w = width_n(p, n);
			col = cut.squote ? 1 : 0;
		}
		fprintf(out, "%.*s", (int)n, p);
		col += w;
		fresh = false;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

void short_digests(const char *in, char *out, size_t len)
{
	static const char tag[] = "sha256:";
	size_t o = 0, t = sizeof(tag) - 1;

	if (!len)
		return;
	while (*in && o + 1 < len) {
		size_t h = 0;

		if (!strncmp(in, tag, t)) {
			while (h < 64 && isxdigit((unsigned char)in[t + h]))
				h++;
		}
		if (h == 64 && !isxdigit((unsigned char)in[t + 64])) {
			size_t k = t + 12;

			if (o + k >= len)
				break;
			memcpy(out + o, in, k);
			o += k;
			in += t + 64;
			continue;
		}
		out[o++] = *in++;
	}
	out[o] = '\0';
}
