// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagecache - page-cache large folios of a file on a filesystem that has
 * them (an xfs or ext4 image the harness makes on a loop device, mount =
 * xfs:SIZE), read and mmapped, cold and warm (issue 30, item 6).
 *
 * Kernel path: the file is written and fsynced, then dropped from the
 * page cache with POSIX_FADV_DONTNEED (its own pages only, never
 * drop_caches). read() of it cold goes through page_cache_ra_order,
 * which allocates large folios where the mapping supports them; warm,
 * it copies from them. A MAP_SHARED mapping with MADV_HUGEPAGE faulted
 * cold reads ahead at PMD order (do_sync_mmap_readahead) and maps each
 * 2 MiB folio with one PMD (do_set_pmd: thp_file_mapped; the folio is in
 * nr_file_hugepages while cached).
 *
 * Proof it got there, for its own memory: after the cold mmap pass,
 * smaps' FilePmdMapped of the mapping says how many 2 MiB of it are
 * mapped by a PMD, each counted by thp_file_mapped: the counter rising
 * by less is a failure (exit 1); and pagemap says how many 2 MiB chunks
 * are one large folio (large). The counters are system-wide: lower
 * bounds. No PMD-mapped folio at all is "not measurable here" (exit 3):
 * the filesystem has no large folios, or THP is off for the mapping.
 */
#include "wl.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char usage[] =
	"usage: pagecache [--size SIZE] [--dir DIR]\n"
	"  --size SIZE  the file (default 64M; a multiple of 2M)\n"
	"  --dir DIR    where to make it (default $THPBENCH_MOUNT): xfs or ext4\n"
	"Times read() cold and warm (read_cold_usec, read_warm_usec) and a\n"
	"MADV_HUGEPAGE mapping's first touch cold and warm (mmap_cold_usec,\n"
	"mmap_warm_usec). Prints and reports large (2 MiB chunks that are one\n"
	"folio), file_pmd_kb (smaps FilePmdMapped), thp_file_mapped,\n"
	"thp_file_alloc, thp_file_fallback deltas. Exit 0 ok, 1 failure (data;\n"
	"thp_file_mapped below the PMD-mapped 2 MiB), 2 usage, 3 not\n"
	"measurable here (no PMD-mapped page-cache folio).\n";

struct opts {
	uint64_t size;
	const char *dir;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "size", required_argument, NULL, 's' },
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->size = 64 * WL_MIB;
	o->dir = getenv("THPBENCH_MOUNT");
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			o->size = wl_opt_size("--size", optarg, usage);
			break;
		case 'd':
			o->dir = optarg;
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (!o->dir || !*o->dir)
		wl_usage_error(usage, "--dir: none given and no THPBENCH_MOUNT");
	if (o->size % WL_PMD_SIZE)
		wl_usage_error(usage, "--size: a multiple of 2M");
}

static const char *const vm_names[] = {
	"thp_file_mapped", "thp_file_alloc", "thp_file_fallback",
};
#define NVM (sizeof(vm_names) / sizeof(vm_names[0]))

static uint64_t word(uint64_t i)
{
	return i * 0x9e3779b97f4a7c15ULL + 7;
}

static int make_file(const struct opts *o, char *path, size_t len)
{
	uint64_t *buf = malloc(WL_PMD_SIZE), off, i, per = WL_PMD_SIZE / 8;
	int fd;

	snprintf(path, len, "%s/pagecache-XXXXXX", o->dir);
	fd = mkstemp(path);
	if (fd < 0 || !buf)
		wl_die("cannot make a file in --dir %s: %s", o->dir, strerror(errno));
	for (off = 0; off < o->size; off += WL_PMD_SIZE) {
		for (i = 0; i < per; i++)
			buf[i] = word(off / 8 + i);
		if (pwrite(fd, buf, WL_PMD_SIZE, (off_t)off) != (ssize_t)WL_PMD_SIZE)
			wl_fail("write %s: %s", path, strerror(errno));
	}
	free(buf);
	if (fsync(fd))
		wl_fail("fsync %s: %s", path, strerror(errno));
	return fd;
}

/* This file's pages out of the page cache (clean after the fsync). */
static void drop(int fd)
{
	if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		wl_fail("posix_fadvise(DONTNEED): %s", strerror(errno));
}

static double read_pass(int fd, const struct opts *o, int check)
{
	uint64_t *buf = malloc(WL_PMD_SIZE), off, i;
	double t0 = wl_now_usec(), t;

	if (!buf)
		wl_fail("out of memory");
	for (off = 0; off < o->size; off += WL_PMD_SIZE) {
		if (pread(fd, buf, WL_PMD_SIZE, (off_t)off) != (ssize_t)WL_PMD_SIZE)
			wl_fail("read: %s", strerror(errno));
		for (i = 0; check && i < WL_PMD_SIZE / 8; i++)
			if (buf[i] != word(off / 8 + i))
				wl_fail("word %llu read back wrong",
					(unsigned long long)(off / 8 + i));
	}
	t = wl_now_usec() - t0;
	free(buf);
	return t;
}

static double touch_pass(const uint64_t *p, const struct opts *o)
{
	volatile uint64_t sink = 0;
	double t0 = wl_now_usec();
	uint64_t i;

	for (i = 0; i < o->size / 8; i += WL_BASE_PAGE / 8)
		sink += p[i];
	(void)sink;
	return wl_now_usec() - t0;
}

int main(int argc, char **argv)
{
	uint64_t vb[NVM], va[NVM], i, large = 0, *p;
	double rc, rw, mc, mw;
	long long pmd_kb;
	char path[4096];
	struct opts o;
	void *res;
	int fd, r;

	parse_args(argc, argv, &o);
	fd = make_file(&o, path, sizeof(path));
	unlink(path);

	drop(fd);
	wl_roi_begin();
	rc = read_pass(fd, &o, 0);
	rw = read_pass(fd, &o, 0);
	wl_roi_end();
	read_pass(fd, &o, 1);

	drop(fd);
	res = mmap(NULL, o.size + WL_PMD_SIZE, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		wl_fail("mmap: %s", strerror(errno));
	/* PMD-aligned at file offset 0, so a 2 MiB folio can take a PMD. */
	p = mmap((void *)(((uintptr_t)res + WL_PMD_SIZE - 1) & ~(WL_PMD_SIZE - 1)),
		 o.size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED)
		wl_fail("mmap of the file: %s", strerror(errno));
	if (madvise(p, o.size, MADV_HUGEPAGE))
		wl_warn("madvise(MADV_HUGEPAGE): %s", strerror(errno));
	if (wl_vmstat_read(vm_names, vb, NVM, NULL))
		wl_die("cannot read /proc/vmstat");
	wl_roi_begin();
	mc = touch_pass(p, &o);
	mw = touch_pass(p, &o);
	wl_roi_end();
	if (wl_vmstat_read(vm_names, va, NVM, NULL))
		wl_die("cannot read /proc/vmstat");
	pmd_kb = wl_range_kb(p, o.size, "FilePmdMapped");
	for (i = 0; i < o.size / WL_PMD_SIZE; i++) {
		r = wl_pagemap_is_large((char *)p + i * WL_PMD_SIZE, WL_PMD_SIZE);
		large += r > 0;
	}
	for (i = 0; i < o.size / 8; i++)
		if (p[i] != word(i))
			wl_fail("word %llu of the mapping reads wrong",
				(unsigned long long)i);

	wl_report("read_cold_usec", rc);
	wl_report("read_warm_usec", rw);
	wl_report("mmap_cold_usec", mc);
	wl_report("mmap_warm_usec", mw);
	wl_report("large", (double)large);
	wl_report_kb("file_pmd_kb", pmd_kb);
	for (i = 0; i < NVM; i++)
		wl_report(vm_names[i], (double)(va[i] - vb[i]));
	if (pmd_kb < 0)
		wl_die("smaps cannot be read: no evidence of PMD mappings");
	if (!pmd_kb)
		wl_invalid("not measurable here: no 2 MiB page-cache folio of %s was "
			   "mapped by a PMD (a filesystem without large folios, "
			   "or THP never?)", o.dir);
	if (va[0] - vb[0] < (uint64_t)pmd_kb / 2048)
		wl_fail("%lld kB of the file are PMD-mapped, thp_file_mapped rose "
			"by %llu only", pmd_kb, (unsigned long long)(va[0] - vb[0]));
	wl_report_self_mem();
	printf("ok\n");
	return 0;
}
