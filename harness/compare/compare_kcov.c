// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_kcov - the kernel line coverage of a run, per file (compare_kcov.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compare_kcov.h"
#include "util/util.h"

/* Repetitions a coverage run may hold (one directory each). */
#define KCOV_MAX_REPS 100000

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The SEQ of every SEQ.info in dir (digits only: nothing else is read). */
static long *list_seqs(const char *dir, size_t *n, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	long *v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return NULL;
	}
	while ((de = readdir(d))) {
		char *end;
		long s;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		errno = 0;
		s = strtol(de->d_name, &end, 10);
		if (errno || strcmp(end, ".info") || *n >= KCOV_MAX_REPS)
			continue;
		v = xgrow(v, sizeof(*v), &cap, *n);
		v[(*n)++] = s;
	}
	closedir(d);
	if (*n > 1)
		qsort(v, *n, sizeof(*v), cmp_long);
	return v;
}

static void index_seqs(struct compare_kcov *k);

int compare_kcov_load(struct compare_kcov *k, const char *base, const char *dir,
		      const char *strip, const struct tb_results *res,
		      char *err, size_t errlen)
{
	size_t i, n;
	long *seqs;
	int rc = 0;

	memset(k, 0, sizeof(*k));
	k->res = res;
	index_seqs(k);
	if (base && lcov_read(base, strip, &k->total, err, errlen))
		return -1;
	seqs = list_seqs(dir, &n, err, errlen);
	if (!seqs && n == 0 && *err)
		return -1;
	for (i = 0; !rc && i < n; i++) {
		struct lcov one = { 0 };
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%ld.info", dir, seqs[i]);
		rc = lcov_read(path, strip, &one, err, errlen);
		if (!rc)
			lcov_add_tagged(&k->total, &one, seqs[i]);
		lcov_free(&one);
	}
	k->nreps = n;
	free(seqs);
	return rc;
}

struct seq_case {
	long seq;
	size_t c;
};

static int cmp_seq_case(const void *a, const void *b)
{
	const struct seq_case *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* seq -> case, sorted by seq, so a line's first case is a bsearch away. */
static void index_seqs(struct compare_kcov *k)
{
	struct seq_case *v = NULL;
	size_t i, j, n = 0, cap = 0;

	for (i = 0; k->res && i < k->res->ncases; i++)
		for (j = 0; j < k->res->cases[i].nruns; j++) {
			v = xgrow(v, sizeof(*v), &cap, n);
			v[n++] = (struct seq_case){ k->res->cases[i].runs[j].seq, i };
		}
	if (n)
		qsort(v, n, sizeof(*v), cmp_seq_case);
	k->seq = xcalloc(n + 1, sizeof(*k->seq));
	k->seq_case = xcalloc(n + 1, sizeof(*k->seq_case));
	for (i = 0; i < n; i++) {
		k->seq[i] = v[i].seq;
		k->seq_case[i] = v[i].c;
	}
	k->nseq = n;
	free(v);
}

/* The index in res of the case seq belongs to; -1 none. */
static long case_index(const struct compare_kcov *k, long seq)
{
	size_t lo = 0, hi = k->nseq;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->seq[mid] == seq)
			return (long)k->seq_case[mid];
		if (k->seq[mid] < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

const char *compare_kcov_case(const struct compare_kcov *k, long seq)
{
	long c = case_index(k, seq);

	return c < 0 ? "?" : k->res->cases[c].id;
}

size_t compare_kcov_run_end(const unsigned int *lines, size_t n, size_t i)
{
	while (i + 1 < n && lines[i + 1] == lines[i] + 1)
		i++;
	return i;
}

void compare_kcov_ranges(const unsigned int *lines, size_t n, char *buf, size_t len)
{
	size_t i, j, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used + 1 < len; i = j + 1) {
		int w;

		j = compare_kcov_run_end(lines, n, i);
		if (j > i)
			w = snprintf(buf + used, len - used, "%s%u-%u", used ? ", " : "",
				     lines[i], lines[j]);
		else
			w = snprintf(buf + used, len - used, "%s%u", used ? ", " : "", lines[i]);
		if (w < 0 || (size_t)w >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)w;
	}
}

/* The case whose repetitions ran most of f's lines first (a seq of it),
 * and how many. */
static long top_first(const struct compare_kcov *k, const struct lcov_file *f,
		      size_t *count)
{
	size_t nc = k->res ? k->res->ncases : 0, i, bestn = 0;
	size_t *per = xcalloc(nc + 1, sizeof(*per));
	long *seq_of = xcalloc(nc + 1, sizeof(*seq_of)), best = -1, c;

	for (i = 0; i < f->nlines; i++) {
		if (f->lines[i].first < 0 || (c = case_index(k, f->lines[i].first)) < 0)
			continue;
		seq_of[c] = f->lines[i].first;
		if (++per[c] > bestn) {
			bestn = per[c];
			best = seq_of[c];
		}
	}
	free(per);
	free(seq_of);
	*count = bestn;
	return best;
}

/* Lines and functions of every mm/ .c file. */
static void mm_totals(const struct lcov *lc, size_t t[4])
{
	size_t i, n, h, fn, fh, len;

	memset(t, 0, 4 * sizeof(*t));
	for (i = 0; i < lc->nfiles; i++) {
		const char *p = lc->files[i].path;

		len = strlen(p);
		if (strncmp(p, "mm/", 3) || strchr(p + 3, '/') || len < 2 ||
		    strcmp(p + len - 2, ".c"))
			continue;
		lcov_file_totals(&lc->files[i], &n, &h, &fn, &fh);
		t[0] += n;
		t[1] += h;
		t[2] += fn;
		t[3] += fh;
	}
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

void compare_kcov_table(FILE *f, const struct compare_kcov *k, const char *files)
{
	char *list = xstrdup(files ? files : COMPARE_KCOV_FILES), *save, *p;
	size_t t[4];

	fprintf(f, "Kernel lines run by the suite (%zu repetition(s); gcov, lcov's geninfo)\n\n",
		k->nreps);
	fprintf(f, "%-22s %17s %19s  %s\n", "file", "lines run", "functions run",
		"ran most lines first");
	for (p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		const struct lcov_file *lf = lcov_find(&k->total, p);
		size_t n, h, fn, fh, cnt;
		long top;

		if (!lf) {
			fprintf(f, "%-22s %17s\n", p, "not built");
			continue;
		}
		lcov_file_totals(lf, &n, &h, &fn, &fh);
		top = top_first(k, lf, &cnt);
		fprintf(f, "%-22s %5zu/%-5zu %4.1f%% %5zu/%-5zu %4.1f%%  ", p, h, n,
			pct(h, n), fh, fn, pct(fh, fn));
		if (top >= 0)
			fprintf(f, "%s (%zu)\n", compare_kcov_case(k, top), cnt);
		else
			fprintf(f, "-\n");
	}
	mm_totals(&k->total, t);
	fprintf(f, "%-22s %5zu/%-5zu %4.1f%% %5zu/%-5zu %4.1f%%\n", "mm/ (all .c)", t[1],
		t[0], pct(t[1], t[0]), t[3], t[2], pct(t[3], t[2]));
	free(list);
}

static json_t *file_json(const struct compare_kcov *k, const struct lcov_file *lf)
{
	json_t *o = json_object(), *fns = json_array(), *firsts = json_object();
	unsigned int *miss = xcalloc(lf->nlines + 1, sizeof(*miss));
	size_t n, h, fn, fh, i, nm = 0;
	char *ranges = xmalloc(65536);

	lcov_file_totals(lf, &n, &h, &fn, &fh);
	for (i = 0; i < lf->nlines; i++) {
		if (!lf->lines[i].count) {
			miss[nm++] = lf->lines[i].line;
		} else if (lf->lines[i].first >= 0) {
			const char *c = compare_kcov_case(k, lf->lines[i].first);
			json_t *v = json_object_get(firsts, c);

			json_object_set_new(firsts, c, json_integer(v ? json_integer_value(v) + 1 : 1));
		}
	}
	for (i = 0; i < lf->nfns; i++) {
		const struct lcov_fn *x = &lf->fns[i];
		json_t *fo = json_pack("{s:s, s:i, s:I}", "name", x->name, "line",
				       (int)x->line, "count", (json_int_t)x->count);

		if (x->first >= 0)
			json_object_set_new(fo, "first_case",
					    json_string(compare_kcov_case(k, x->first)));
		json_array_append_new(fns, fo);
	}
	compare_kcov_ranges(miss, nm, ranges, 65536);
	json_object_set_new(o, "file", json_string(lf->path));
	json_object_set_new(o, "lines", json_integer((json_int_t)n));
	json_object_set_new(o, "lines_run", json_integer((json_int_t)h));
	json_object_set_new(o, "functions", json_integer((json_int_t)fn));
	json_object_set_new(o, "functions_run", json_integer((json_int_t)fh));
	json_object_set_new(o, "lines_first_run_by", firsts);
	json_object_set_new(o, "lines_not_run", json_string(ranges));
	json_object_set_new(o, "function_list", fns);
	free(ranges);
	free(miss);
	return o;
}

json_t *compare_kcov_json(const struct compare_kcov *k, const char *files)
{
	char *list = xstrdup(files ? files : COMPARE_KCOV_FILES), *save, *p;
	json_t *doc = json_object(), *arr = json_array(), *nb = json_array(), *mm;
	size_t t[4];

	for (p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		const struct lcov_file *lf = lcov_find(&k->total, p);

		if (lf)
			json_array_append_new(arr, file_json(k, lf));
		else
			json_array_append_new(nb, json_string(p));
	}
	mm_totals(&k->total, t);
	mm = json_pack("{s:I, s:I, s:I, s:I}", "lines", (json_int_t)t[0], "lines_run",
		       (json_int_t)t[1], "functions", (json_int_t)t[2], "functions_run",
		       (json_int_t)t[3]);
	json_object_set_new(doc, "schema", json_string("thpbench-kernel-coverage/1"));
	json_object_set_new(doc, "repetitions", json_integer((json_int_t)k->nreps));
	json_object_set_new(doc, "files", arr);
	json_object_set_new(doc, "not_built", nb);
	json_object_set_new(doc, "mm", mm);
	free(list);
	return doc;
}

void compare_kcov_free(struct compare_kcov *k)
{
	free(k->seq);
	free(k->seq_case);
	lcov_free(&k->total);
}
