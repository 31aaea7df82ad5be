// SPDX-License-Identifier: GPL-2.0-only
/*
 * shmem - THPs and mTHPs of shmem: a memfd, or a file in a tmpfs
 * mounted with huge= (issue 30, item 5).
 *
 * Kernel path: a write fault on a MAP_SHARED mapping of a shmem file
 * allocates its folio in shmem_get_folio_gfp -> shmem_alloc_and_add_folio,
 * whose size the file's huge policy decides (the mount's huge=, or for a
 * memfd shmem_enabled and the per-size hugepages-*kB/shmem_enabled, with
 * MADV_HUGEPAGE for "advise"); a PMD-size folio counts thp_file_alloc
 * (else thp_file_fallback) in /proc/vmstat and shmem_alloc (else
 * shmem_fallback) in the size's stats, stays in nr_shmem_hugepages while
 * the file lives and is mapped by a PMD (thp_file_mapped,
 * nr_shmem_pmdmapped).
 *
 * Proof it got there, for its own memory: after the timed first touch
 * every chunk of the (fresh) file is checked to be one large folio
 * (pagemap + kpageflags). Each was allocated during the touch, so
 * thp_file_alloc (2M) or the size's shmem_alloc (mTHP) must rise by at
 * least as many: less is a failure (exit 1). The counters are
 * system-wide: a lower bound. No large folio at all is "not measurable
 * here" (exit 3) with the policy in force.
 *
 * --fallback, when the policy tries a --chunk folio for every chunk
 * (huge=always) and such folios cannot be had (memory_state =
 * fragmented with defrag never: the huge gfp neither reclaims nor
 * compacts; or a memcg at its limit, whose charge of a non-blocking
 * huge folio fails): each chunk that is not large fell back, so
 * thp_file_fallback (2M) and the size's shmem_fallback must rise by at
 * least as many. None fallen back is "not measurable here" (exit 3):
 * the host had the huge folios.
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
	"usage: shmem [--size SIZE] [--chunk SIZE] [--memfd | --dir DIR]\n"
	"  --size SIZE   file size, all of it written (default 32M)\n"
	"  --chunk SIZE  the folio size to check and count: 2M (default) or an\n"
	"                mTHP size (16K..1M) enabled for shmem\n"
	"  --memfd       a memfd (default without a directory): shmem_enabled rules\n"
	"  --dir DIR     a file in DIR, a tmpfs (default $THPBENCH_MOUNT when set):\n"
	"                its huge= rules\n"
	"  --fallback    every chunk is tried at --chunk (huge=always, shmem_enabled\n"
	"                always): the chunks that are not large fell back; the\n"
	"                fallback counters must rise by at least as many, and none\n"
	"                fallen back is exit 3 (huge pages were not short)\n"
	"Times the first touch (usec). Prints and reports large (chunks that are\n"
	"large folios), thp_file_alloc, thp_file_fallback, thp_file_mapped deltas,\n"
	"the chunk size's shmem_alloc, shmem_fallback, and shmem_pmd_kb\n"
	"(smaps ShmemPmdMapped). Exit 0 ok, 1 failure (data; the alloc counter\n"
	"rose by less than the large chunks), 2 usage, 3 not measurable here.\n";

struct opts {
	uint64_t size, chunk;
	const char *dir;
	int fallback;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "size", required_argument, NULL, 's' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "memfd", no_argument, NULL, 'm' },
		{ "dir", required_argument, NULL, 'd' },
		{ "fallback", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *env = getenv("THPBENCH_MOUNT");
	int c, memfd = 0;

	o->size = 32 * WL_MIB;
	o->chunk = WL_PMD_SIZE;
	o->dir = NULL;
	o->fallback = 0;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			o->size = wl_opt_size("--size", optarg, usage);
			break;
		case 'c':
			o->chunk = wl_opt_size("--chunk", optarg, usage);
			break;
		case 'm':
			memfd = 1;
			break;
		case 'd':
			o->dir = optarg;
			break;
		case 'f':
			o->fallback = 1;
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (memfd && o->dir)
		wl_usage_error(usage, "--memfd and --dir exclude each other");
	if (!memfd && !o->dir && env && *env)
		o->dir = env;
	if (o->chunk < 16 * WL_KIB || o->chunk > WL_PMD_SIZE ||
	    (o->chunk & (o->chunk - 1)))
		wl_usage_error(usage, "--chunk: a power of two from 16K to 2M");
	if (o->size < o->chunk || o->size % WL_PMD_SIZE)
		wl_usage_error(usage, "--size: a multiple of 2M, at least --chunk");
}

static const char *const vm_names[] = {
	"thp_file_alloc", "thp_file_fallback", "thp_file_mapped",
};
#define NVM (sizeof(vm_names) / sizeof(vm_names[0]))

static const char *const st_names[] = { "shmem_alloc", "shmem_fallback" };
#define NST (sizeof(st_names) / sizeof(st_names[0]))

static void read_stats(uint64_t chunk, uint64_t *vm, long long *st)
{
	char path[256], buf[64];
	size_t i;
	FILE *f;

	if (wl_vmstat_read(vm_names, vm, NVM, NULL))
		wl_die("cannot read /proc/vmstat: its counters are the evidence");
	for (i = 0; i < NST; i++) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/transparent_hugepage/hugepages-%llukB/stats/%s",
			 (unsigned long long)(chunk / WL_KIB), st_names[i]);
		st[i] = -1;
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f))
			st[i] = strtoll(buf, NULL, 10);
		if (f)
			fclose(f);
	}
}

/* The fresh shmem file: a memfd, or an unlinked file in dir. */
static int open_file(const struct opts *o)
{
	char path[4096];
	int fd;

	if (!o->dir) {
		fd = memfd_create("thpbench-shmem", MFD_CLOEXEC);
		if (fd < 0)
			wl_fail("memfd_create: %s", strerror(errno));
	} else {
		snprintf(path, sizeof(path), "%s/shmem-XXXXXX", o->dir);
		fd = mkstemp(path);
		if (fd < 0)
			wl_die("cannot make a file in --dir %s: %s", o->dir,
			       strerror(errno));
		unlink(path);
	}
	if (ftruncate(fd, (off_t)o->size))
		wl_fail("ftruncate: %s", strerror(errno));
	return fd;
}

static void policy(const struct opts *o, char *buf, size_t len)
{
	FILE *f;

	if (o->dir) {
		snprintf(buf, len, "the huge= option of the mount at %s", o->dir);
		return;
	}
	f = fopen("/sys/kernel/mm/transparent_hugepage/shmem_enabled", "r");
	snprintf(buf, len, "shmem_enabled ");
	if (!f || !fgets(buf + strlen(buf), (int)(len - strlen(buf)), f))
		snprintf(buf, len, "shmem_enabled unreadable");
	buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/*
 * --fallback: each chunk's first write tried a --chunk folio (the policy
 * says always), so each chunk that is not one now fell back to a smaller
 * one: a lower bound on the fallback counters from our own file.
 */
static void check_fallback(const struct opts *o, uint64_t large,
			   const uint64_t *vb, const uint64_t *va,
			   const long long *sb, const long long *sa)
{
	uint64_t small = o->size / o->chunk - large;
	char why[256];

	wl_report("fell_back", (double)small);
	if (!small) {
		policy(o, why, sizeof(why));
		wl_invalid("not measurable here: every chunk of the file is a %llu kB "
			   "folio, none fell back (%s; free huge pages were not "
			   "short: memory_state = fragmented, or a memcg limit)",
			   (unsigned long long)(o->chunk / WL_KIB), why);
	}
	if (o->chunk == WL_PMD_SIZE && va[1] - vb[1] < small)
		wl_fail("%llu chunks fell back from 2 MiB, thp_file_fallback rose by "
			"%llu", (unsigned long long)small,
			(unsigned long long)(va[1] - vb[1]));
	if (sb[1] >= 0 && sa[1] >= 0 && (uint64_t)(sa[1] - sb[1]) < small)
		wl_fail("%llu chunks fell back from %llu kB, that size's "
			"shmem_fallback rose by %lld", (unsigned long long)small,
			(unsigned long long)(o->chunk / WL_KIB), sa[1] - sb[1]);
}

int main(int argc, char **argv)
{
	uint64_t vb[NVM], va[NVM], i, n, large, *p;
	long long sb[NST], sa[NST];
	char why[256];
	struct opts o;
	double t0, t1;
	int fd;

	parse_args(argc, argv, &o);
	wl_check_memory(o.size, "--size");
	fd = open_file(&o);
	p = mmap(NULL, o.size + WL_PMD_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		wl_fail("mmap: %s", strerror(errno));
	/* PMD-aligned, so a 2 MiB folio can be mapped by a PMD. */
	p = mmap((void *)(((uintptr_t)p + WL_PMD_SIZE - 1) & ~(WL_PMD_SIZE - 1)),
		 o.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED)
		wl_fail("mmap of the shmem file: %s", strerror(errno));
	madvise(p, o.size, MADV_HUGEPAGE);	/* for "advise"; EINVAL is fine */
	n = o.size / sizeof(*p);
	read_stats(o.chunk, vb, sb);
	wl_roi_begin();
	t0 = wl_now_usec();
	for (i = 0; i < n; i += WL_BASE_PAGE / sizeof(*p))
		p[i] = i ^ 0xa5a5;
	t1 = wl_now_usec();
	wl_roi_end();
	read_stats(o.chunk, va, sa);
	large = wl_count_large(p, o.size, o.chunk);
	wl_report("usec", t1 - t0);
	wl_report("large", (double)large);
	for (i = 0; i < NVM; i++)
		wl_report(vm_names[i], (double)(va[i] - vb[i]));
	for (i = 0; i < NST; i++)
		if (sb[i] >= 0)
			wl_report(st_names[i], (double)(sa[i] - sb[i]));
	wl_report_kb("shmem_pmd_kb", wl_range_kb(p, o.size, "ShmemPmdMapped"));
	for (i = 0; i < n; i += WL_BASE_PAGE / sizeof(*p))
		if (p[i] != (i ^ 0xa5a5))
			wl_fail("word %llu changed", (unsigned long long)i);
	if (o.fallback) {
		check_fallback(&o, large, vb, va, sb, sa);
		wl_report_self_mem();
		printf("ok\n");
		return 0;
	}
	if (!large) {
		policy(&o, why, sizeof(why));
		wl_invalid("not measurable here: no %llu kB folio in the shmem file "
			   "(%s)", (unsigned long long)(o.chunk / WL_KIB), why);
	}
	if (o.chunk == WL_PMD_SIZE && va[0] - vb[0] < large)
		wl_fail("%llu chunks are 2 MiB folios, thp_file_alloc rose by %llu",
			(unsigned long long)large,
			(unsigned long long)(va[0] - vb[0]));
	if (o.chunk != WL_PMD_SIZE && sb[0] >= 0 &&
	    (uint64_t)(sa[0] - sb[0]) < large)
		wl_fail("%llu chunks are %llu kB folios, that size's shmem_alloc "
			"rose by %lld", (unsigned long long)large,
			(unsigned long long)(o.chunk / WL_KIB), sa[0] - sb[0]);
	wl_report_self_mem();
	printf("ok\n");
	return 0;
}
