// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a bisection's directory (issue 36), built from the
 * input in a scratch directory and read back as `thpbench bisect
 * verify`, `driver`, `next` and `report` read it: bisect_dir_check,
 * bisect_driver_load, bisect_state_load, bisect_state_eval and the
 * report's text and JSON. Any input must load or be refused with a
 * message, never crash, leak, hang or hit undefined behaviour.
 *
 * The input is cut at NUL bytes: part 0 is plan.json, part 1 pending,
 * each further part one run directory runs/NNNN (numbered in order)
 * whose first line is its commit file ("@K": the K-th 40-hex id found
 * in plan.json, so that runs name the plan's commits) and whose rest is
 * results.json when it starts with '{', else the skip file. A part
 * starting with '!' names a stray entry under runs/ instead (its name
 * the rest of the line), which the trust check must refuse.
 */
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect/bisect_dir.h"
#include "bisect/bisect_planfile.h"
#include "bisect/bisect_report.h"
#include "bisect/bisect_state.h"

#define MAX_PARTS 12

static char root[64];

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	if (f->level > 0)
		remove(p);
	return 0;
}

static void put(const char *path, const char *p, size_t n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	fwrite(p, 1, n, f);
	fclose(f);
}

/* The k-th run of 40 hex digits in text, or NULL. */
static const char *nth_sha(const char *text, size_t len, unsigned k, char *out)
{
	size_t i, run = 0;

	for (i = 0; i < len; i++) {
		char c = text[i];

		run = ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) ? run + 1 : 0;
		if (run == 40 && k-- == 0) {
			memcpy(out, text + i - 39, 40);
			out[40] = '\0';
			return out;
		}
	}
	return NULL;
}

static void make_run(const char *plan, size_t plen, int num, const char *p,
		     size_t n)
{
	char d[256], path[512], sha[41], name[64];
	const char *nl = memchr(p, '\n', n);
	size_t first = nl ? (size_t)(nl - p) : n;
	const char *rest = nl ? nl + 1 : p + n;
	size_t rn = (size_t)(p + n - rest);

	if (n && p[0] == '!') {		/* a stray name under runs/ */
		snprintf(name, sizeof(name), "%.*s", (int)(first - 1 < 40 ? first - 1 : 40), p + 1);
		if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
			return;
		snprintf(d, sizeof(d), "%s/runs/%s", root, name);
		mkdir(d, 0755);
		return;
	}
	snprintf(d, sizeof(d), "%s/runs/%04d", root, num);
	mkdir(d, 0755);
	snprintf(path, sizeof(path), "%s/commit", d);
	if (first >= 2 && p[0] == '@' && nth_sha(plan, plen, (unsigned)(p[1] - '0') % 10, sha))
		put(path, sha, 40);
	else
		put(path, p, first);
	snprintf(path, sizeof(path), "%s/%s", d, rn && rest[0] == '{' ? "results.json" : "skip");
	put(path, rest, rn);
}

static void build(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *plan = p;
	size_t plen = 0;
	char path[256];
	int part = 0;

	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	snprintf(path, sizeof(path), "%s/runs", root);
	mkdir(path, 0755);
	while (p <= end && part < MAX_PARTS) {
		const char *z = memchr(p, '\0', (size_t)(end - p));
		size_t n = z ? (size_t)(z - p) : (size_t)(end - p);

		if (part == 0) {
			plen = n;
			snprintf(path, sizeof(path), "%s/plan.json", root);
			put(path, p, n);
		} else if (part == 1) {
			snprintf(path, sizeof(path), "%s/pending", root);
			put(path, p, n);
		} else {
			make_run(plan, plen, part - 1, p, n);
		}
		part++;
		if (!z)
			break;
		p = z + 1;
	}
}

static void report(struct bisect_state *s)
{
	struct bisect_result r;
	FILE *f = fopen("/dev/null", "w");
	json_t *j;

	bisect_result_build(&r, s);	/* bisect_state_eval, as next does */
	if (getenv("FUZZ_BISECT_VERBOSE"))
		fprintf(stderr, "loaded: %zu runs, %s: %s\n", s->runs, r.outcome, r.a.why);
	if (r.a.kind == BA_MEASURE && r.a.commit >= s->n)
		abort();
	if (f) {
		bisect_report_text(f, &r);
		bisect_report_gitlog(f, &r);
		fclose(f);
	}
	j = bisect_report_json(&r);
	json_decref(j);
	bisect_result_free(&r);
}

static void cleanup(void)
{
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* tmpfs where there is one: the directory is remade at every input. */
	snprintf(root, sizeof(root), "%s/tb-fuzz-bisect-XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(root))
		abort();
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bisect_driver_fields f;
	struct bisect_state s;
	char err[4096];

	build(data, size);
	err[0] = '\0';
	if (bisect_dir_check(root, err, sizeof(err)) && !err[0])
		abort();	/* a refusal must say why */
	err[0] = '\0';
	if (bisect_driver_load(root, "qemu", &f, err, sizeof(err)) && !err[0])
		abort();
	bisect_driver_free(&f);
	err[0] = '\0';
	if (bisect_state_load(root, &s, err, sizeof(err))) {
		if (!err[0])
			abort();
		if (getenv("FUZZ_BISECT_VERBOSE"))	/* what a seed reaches */
			fprintf(stderr, "refused: %s\n", err);
		bisect_state_free(&s);
		return 0;
	}
	report(&s);
	bisect_state_free(&s);
	return 0;
}
