// SPDX-License-Identifier: GPL-2.0-only
/*
 * thp_alloc - THP allocation under fragmentation, as mmtests' thpcompact
 * and thpchallenge measure it: fault a region one chunk (a THP or mTHP)
 * at a time in a seeded random order, time each first-touch fault, and
 * count the chunks that got a folio of the size asked for. Run it after
 * the harness has compacted or fragmented memory (--memory-state), with
 * and without a defrag setting (defrag = never, madvise, always ...): the
 * success rate and the fault latency distribution are what compaction
 * and khugepaged patches are judged by.
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char usage[] =
	"usage: thp_alloc [--size SIZE] [--chunk SIZE] [--seed N]\n"
	"                 [--order random|sequential] [--madvise]\n"
	"  --size SIZE    memory to fault (default 1G)\n"
	"  --chunk SIZE   folio size asked for: 2M (a PMD THP, default) or an\n"
	"                 mTHP size (16K, 64K, ...); one first touch per chunk\n"
	"  --seed N       the random order of the chunks (default 1)\n"
	"  --order sequential  fault the chunks in address order instead\n"
	"  --madvise      MADV_HUGEPAGE the region (THP 'madvise'; direct\n"
	"                 compaction under defrag = madvise)\n"
	"Times each chunk's first touch (the allocation), then counts the chunks\n"
	"backed by one folio of --chunk size (pagemap + kpageflags as root; for\n"
	"2M without root, smaps AnonHugePages). Prints and reports as metrics:\n"
	"'chunks N', 'huge_chunks N', 'success_pct X', 'fault_p50_usec X',\n"
	"'fault_p99_usec X', 'fault_max_usec X', 'fault_mean_usec X', and the\n"
	"p50 of the huge and the fallback faults apart ('huge_p50_usec',\n"
	"'fallback_p50_usec') where there are any; roi_usec, rss_kb,\n"
	"anon_huge_kb. Exit 0 ok, 1 failure, 2 usage.\n";

struct opts {
	uint64_t size;
	uint64_t chunk;
	unsigned long seed;
	int sequential;
	int madvise;
};

struct faults {
	size_t n;
	double *usec;		/* per chunk, in fault order */
	size_t *chunk;		/* the chunk of each fault */
	int *huge;		/* per chunk: 1, 0, -1 unknown */
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 'S' },
		{ "order", required_argument, NULL, 'o' },
		{ "madvise", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct opts){ .size = WL_GIB, .chunk = WL_PMD_SIZE, .seed = 1 };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o->size = wl_opt_size("--size", optarg, usage); break;
		case 'c': o->chunk = wl_opt_size("--chunk", optarg, usage); break;
		case 'S':
			o->seed = (unsigned long)wl_opt_count("--seed", optarg, 0,
							     UINT32_MAX, usage);
			break;
		case 'o':
			if (strcmp(optarg, "random") && strcmp(optarg, "sequential"))
				wl_usage_error(usage, "--order: '%s' is not random or sequential",
					       optarg);
			o->sequential = !strcmp(optarg, "sequential");
			break;
		case 'M': o->madvise = 1; break;
		default: wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o->chunk < 2 * WL_BASE_PAGE || o->chunk > WL_PMD_SIZE ||
	    (o->chunk & (o->chunk - 1)))
		wl_usage_error(usage, "--chunk must be a power of two from 8K to 2M");
	if (o->size < o->chunk || o->size % o->chunk)
		wl_usage_error(usage, "--size must be a multiple of --chunk");
}

/* The fault order: a permutation of the chunks drawn from the seed. */
static gsl_permutation *fault_order(size_t n, const struct opts *o)
{
	gsl_permutation *p = gsl_permutation_alloc(n);
	gsl_rng *rng;

	if (!p)
		wl_fail("out of memory for %zu chunks", n);
	gsl_permutation_init(p);
	if (o->sequential)
		return p;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		wl_fail("out of memory for the random generator");
	gsl_rng_set(rng, o->seed);
	gsl_ran_shuffle(rng, p->data, n, sizeof(size_t));
	gsl_rng_free(rng);
	return p;
}

static char marker(size_t chunk)
{
	return (char)(chunk | 1);
}

static void fault_all(char *p, const struct opts *o, const gsl_permutation *perm,
		      struct faults *f)
{
	double t0;
	size_t i, c;

	for (i = 0; i < f->n; i++) {
		c = gsl_permutation_get(perm, i);
		t0 = wl_now_usec();
		p[c * o->chunk] = marker(c);
		f->usec[i] = wl_now_usec() - t0;
		f->chunk[i] = c;
	}
}

/* Which chunks are one folio of the chunk size; the count of them, -1
 * when it cannot be told. */
static long long count_huge(const char *p, const struct opts *o, struct faults *f)
{
	long long n = 0, kb;
	size_t c;

	for (c = 0; c < f->n; c++) {
		f->huge[c] = wl_pagemap_is_large(p + c * o->chunk, o->chunk);
		if (f->huge[c] < 0)
			break;
		n += f->huge[c];
	}
	if (c == f->n)
		return n;
	for (c = 0; c < f->n; c++)
		f->huge[c] = -1;
	if (o->chunk != WL_PMD_SIZE)
		return -1;
	kb = wl_range_anon_huge_kb(p, o->size);
	return kb < 0 ? -1 : kb * (long long)WL_KIB / (long long)WL_PMD_SIZE;
}

static void report(const char *name, double v)
{
	printf("%s %.3f\n", name, v);
	wl_metric(name, v);
}

/* p50 of the faults whose chunk is (want) huge or not; nothing if none. */
static void report_p50(const char *name, const struct faults *f, int want)
{
	double *v = malloc(f->n * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return;
	for (i = 0; i < f->n; i++)
		if (f->huge[f->chunk[i]] == want)
			v[n++] = f->usec[i];
	if (n) {
		gsl_sort(v, 1, n);
		report(name, gsl_stats_quantile_from_sorted_data(v, 1, n, 0.5));
	}
	free(v);
}

static void report_latency(struct faults *f)
{
	double *v = malloc(f->n * sizeof(*v));

	if (!v)
		wl_fail("out of memory for %zu latencies", f->n);
	memcpy(v, f->usec, f->n * sizeof(*v));
	gsl_sort(v, 1, f->n);
	report("fault_p50_usec", gsl_stats_quantile_from_sorted_data(v, 1, f->n, 0.5));
	report("fault_p99_usec", gsl_stats_quantile_from_sorted_data(v, 1, f->n, 0.99));
	report("fault_max_usec", v[f->n - 1]);
	report("fault_mean_usec", gsl_stats_mean(v, 1, f->n));
	free(v);
	report_p50("huge_p50_usec", f, 1);
	report_p50("fallback_p50_usec", f, 0);
}

static void verify(const char *p, const struct opts *o, size_t n)
{
	size_t c;

	for (c = 0; c < n; c++)
		if (p[c * o->chunk] != marker(c))
			wl_fail("chunk %zu reads 0x%02x, expected 0x%02x", c,
				(unsigned char)p[c * o->chunk], (unsigned char)marker(c));
}

int main(int argc, char **argv)
{
	struct faults f = { 0 };
	gsl_permutation *perm;
	long long huge;
	struct opts o;
	double t0, t1;
	char *p;

	parse_args(argc, argv, &o);
	wl_check_memory(o.size, "--size");
	f.n = o.size / o.chunk;
	f.usec = calloc(f.n, sizeof(*f.usec));
	f.chunk = calloc(f.n, sizeof(*f.chunk));
	f.huge = calloc(f.n, sizeof(*f.huge));
	p = wl_map_aligned(o.size, o.chunk, PROT_READ | PROT_WRITE);
	if (!f.usec || !f.chunk || !f.huge || !p)
		wl_fail("allocating %llu bytes failed: %s",
			(unsigned long long)o.size, strerror(errno));
	if (o.madvise && madvise(p, o.size, MADV_HUGEPAGE))
		wl_fail("madvise(MADV_HUGEPAGE) failed: %s", strerror(errno));
	perm = fault_order(f.n, &o);

	wl_roi_begin();
	t0 = wl_now_usec();
	fault_all(p, &o, perm, &f);
	t1 = wl_now_usec();
	wl_roi_end();

	huge = count_huge(p, &o, &f);
	printf("usec %.0f\n", t1 - t0);
	wl_metric("roi_usec", t1 - t0);
	printf("chunks %zu\n", f.n);
	wl_metric("chunks", (double)f.n);
	if (huge >= 0) {
		printf("huge_chunks %lld\n", huge);
		wl_metric("huge_chunks", (double)huge);
		report("success_pct", 100.0 * (double)huge / (double)f.n);
	}
	report_latency(&f);
	wl_report_self_mem();
	verify(p, &o, f.n);
	printf("ok\n");
	gsl_permutation_free(perm);
	free(f.usec);
	free(f.chunk);
	free(f.huge);
	return 0;
}
