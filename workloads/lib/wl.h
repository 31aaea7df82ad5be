/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wl - what every thpbench workload shares: messages and exit codes,
 * option values, the region-of-interest and metric protocols spoken with
 * the harness (or perf), and reading how memory is backed.
 *
 * Exit codes (contract, see workloads/README.md):
 *   0 ok; 1 runtime failure (verification mismatch, mmap failed);
 *   2 usage or environment error (bad option, size too large);
 *   3 invalid measurement: the pages were not huge.
 *
 * The harness's util.c is not linked into workloads (they must also build
 * static, alone); this library is small on purpose. Usable from C++.
 */
#ifndef THPBENCH_WL_H
#define THPBENCH_WL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WL_NORETURN __attribute__((noreturn))
#define WL_PRINTF(a, b) __attribute__((format(printf, a, b)))

enum wl_exit {
	WL_EXIT_OK = 0,
	WL_EXIT_FAIL = 1,
	WL_EXIT_USAGE = 2,
	WL_EXIT_INVALID = 3,
};

#define WL_KIB 1024ULL
#define WL_MIB (1024ULL * 1024)
#define WL_GIB (1024ULL * 1024 * 1024)
/* The base page and the PMD (a huge page's) size, learned at run time
 * (pagesize.c): 4K/2M on x86-64, 4K/2M, 16K/32M or 64K/512M on arm64. */
uint64_t wl_page_size(void);
uint64_t wl_pmd_size(void);
#define WL_BASE_PAGE ((unsigned long long)wl_page_size())
#define WL_PMD_SIZE ((unsigned long long)wl_pmd_size())
/* The largest base page (arm64's 64K): for buffers sized at build time. */
#define WL_BASE_PAGE_MAX 65536ULL

/* --- messages (msg.c); all go to stderr prefixed with the program name --- */

void wl_warn(const char *fmt, ...) WL_PRINTF(1, 2);
/* Usage or environment error: message, exit 2. */
WL_NORETURN void wl_die(const char *fmt, ...) WL_PRINTF(1, 2);
/* Runtime failure (mismatch, mmap failed): message, exit 1. */
WL_NORETURN void wl_fail(const char *fmt, ...) WL_PRINTF(1, 2);
/* The measurement is not what was asked for (no huge pages): exit 3. */
WL_NORETURN void wl_invalid(const char *fmt, ...) WL_PRINTF(1, 2);
/* Bad command line: message, then usage, exit 2. */
WL_NORETURN void wl_usage_error(const char *usage, const char *fmt, ...)
	WL_PRINTF(2, 3);
/* --help: usage on stdout, exit 0. */
WL_NORETURN void wl_usage_exit(const char *usage);
/* The default: branch of every option switch: 'h' is --help, anything
 * else getopt already complained about. */
WL_NORETURN void wl_opt_fallback(int c, const char *usage);
/* After the options: these programs take no operands. */
void wl_no_operands(int argc, char **argv, const char *usage);

/* --- option values (parse.c) --- */

/*
 * "512", "4k", "2M", "1G", "1T": binary multiples, case-insensitive, an
 * optional trailing "B" or "iB". 0, or -1 on a malformed or overflowing
 * value (negative numbers are malformed).
 */
int wl_parse_size(const char *s, uint64_t *out);
/* A plain decimal unsigned number, nothing else. 0 or -1. */
int wl_parse_u64(const char *s, uint64_t *out);
/* The value of size option opt; bad or zero values are a usage error. */
uint64_t wl_opt_size(const char *opt, const char *arg, const char *usage);
/* The value of count option opt, in [min, max]; else a usage error. */
uint64_t wl_opt_count(const char *opt, const char *arg, uint64_t min,
		      uint64_t max, const char *usage);
/* "1.50 GiB"; buf of at least 32 bytes. */
const char *wl_fmt_size(uint64_t bytes, char *buf, size_t len);

/* --- region of interest (roi.c) --- */

/*
 * perf's control protocol. With PERF_CTL_FD set, write "enable\n" /
 * "disable\n" to it; with PERF_ACK_FD also set, wait for "ack\n" (NUL
 * bytes, which perf sends after it, are skipped) for up to 5 s, then
 * carry on with a warning. Without PERF_CTL_FD these do nothing. A
 * malformed or unusable fd is an environment error (exit 2).
 */
void wl_roi_begin(void);
void wl_roi_end(void);

/* Monotonic clock in microseconds. */
double wl_now_usec(void);

/* --- metrics (metric.c) --- */

/*
 * With THPBENCH_METRIC_FD set, write "name value\n" (value as %.17g) to
 * it; otherwise nothing. Names have no white space. Workloads print their
 * own human-readable lines on stdout as well.
 */
void wl_metric(const char *name, double value);
/* Print "name value" (a whole number) on stdout and report it as a metric. */
void wl_report(const char *name, double value);

/* --- memory (mem.c) --- */

/* A field of /proc/meminfo in kB, -1 when absent or unreadable. */
long long wl_meminfo_kb(const char *field);
/*
 * Refuse, before anything is allocated, to use more than MemAvailable:
 * exit 2 naming the size asked for (what) and the memory available.
 */
void wl_check_memory(uint64_t bytes, const char *what);
/* As wl_check_memory() against MemTotal (hugetlb pools come out of it). */
void wl_check_memory_total(uint64_t bytes, const char *what);

struct wl_self_mem {
	long long rss_kb;	/* smaps_rollup Rss */
	long long anon_huge_kb;	/* AnonHugePages: PMD-mapped THP */
	long long hugetlb_kb;	/* Private_Hugetlb + Shared_Hugetlb */
};

/* This process, from /proc/self/smaps_rollup. 0, or -1 (fields at -1). */
int wl_self_mem(struct wl_self_mem *m);
/*
 * Read wl_self_mem(), print "rss_kb N", "anon_huge_kb N", "hugetlb_kb N"
 * on stdout and report them as metrics. Call right after wl_roi_end().
 */
void wl_report_self_mem(void);
/* Print "name kb" and report it as a metric; nothing when kb < 0 (not
 * measured is absent, never a 0). */
void wl_report_kb(const char *name, long long kb);
/*
 * Sum of field ("Rss", "AnonHugePages") over the VMAs of /proc/self/smaps
 * that intersect [addr, addr + len), in kB; -1 when unreadable. Map the
 * range as its own VMA so that the figure is the range's.
 */
long long wl_range_kb(const void *addr, size_t len, const char *field);
/* wl_range_kb(addr, len, "AnonHugePages"). */
long long wl_range_anon_huge_kb(const void *addr, size_t len);

/* --- mappings (map.c) --- */

/*
 * Private anonymous mapping of len bytes starting at a multiple of align
 * (a power of two), the slack trimmed so it is one VMA of exactly len.
 * prot PROT_NONE reserves address space only. NULL with errno on failure.
 */
void *wl_map_aligned(size_t len, size_t align, int prot);

/* --- /proc/vmstat (vmstat.c) --- */

/* Read the named counters (absent ones read 0, and *missing counts them).
 * 0, or -1 when /proc/vmstat cannot be read. */
int wl_vmstat_read(const char *const *names, uint64_t *vals, size_t n,
		   size_t *missing);

/* --- hugetlb pools (hugetlb.c) --- */

/* free_hugepages / nr_hugepages of the pool of this page size, -1 when
 * the kernel has no such pool (or it cannot be read). */
long wl_hugetlb_free(uint64_t page_size);
long wl_hugetlb_total(uint64_t page_size);

/* --- page backing (pagemap.c) --- */

/*
 * Is the 2 MiB-aligned address addr (touched already) backed by one PMD
 * THP? pagemap + /proc/kpageflags: KPF_THP on the first and last base
 * page and the middle one, head then tails (so no row of smaller folios),
 * physically contiguous from a 2 MiB-aligned frame.
 * 1 yes, 0 no, -1 when pagemap or kpageflags cannot be read (not root).
 */
int wl_pagemap_is_thp(const void *addr);
/*
 * Is the touched range [addr, addr + size) one large folio of that size
 * (size a power of two from 8 KiB to 2 MiB, addr aligned to it): an mTHP?
 * The same test as wl_pagemap_is_thp() for any size. 1, 0, -1 as there.
 */
int wl_pagemap_is_large(const void *addr, uint64_t size);
/* How many of the size / chunk chunks at p are each one large folio of
 * chunk bytes (wl_pagemap_is_large); dies when pagemap cannot be read. */
uint64_t wl_count_large(const void *p, uint64_t size, uint64_t chunk);
/*
 * Does the 2 MiB-aligned range at addr map the huge zero page (one PMD,
 * 512 contiguous frames from a 2 MiB-aligned one, KPF_ZERO_PAGE)? 1 yes,
 * 0 no, -1 when pagemap or kpageflags cannot be read (not root). *pfn
 * gets the first frame when present (the same for every such range).
 */
int wl_pagemap_huge_zero(const void *addr, uint64_t *pfn);
/*
 * The frame backing the (touched) address: 1 with *pfn set, 0 when not
 * present, -1 when pagemap cannot be read or hides frames (not root).
 */
int wl_pagemap_pfn(const void *addr, uint64_t *pfn);
/*
 * The frames of the pages base pages from addr, one read per 4096: pfn[i]
 * is the frame, 0 where nothing is present. 0, or -1 when pagemap cannot
 * be read or hides frames (not root).
 */
int wl_pagemap_pfns(const void *addr, uint64_t pages, uint64_t *pfn);
/*
 * Is the (touched) base page at addr part of a THP (KPF_THP), whatever
 * maps it? 1 yes, 0 no or not present, -1 when pagemap or kpageflags
 * cannot be read (not root). After a split it is 0.
 */
int wl_pagemap_in_thp(const void *addr);

/*
 * Pin the calling thread to the CPU it runs on (a warning if it cannot):
 * a memcg's charge stock is per CPU, so a fill measured against the limit
 * must stay on one (memcg.c).
 */
void wl_pin_here(void);

/* --- the memory cgroup of this process (memcg.c) --- */

#define WL_MEMCG_PATH 512

struct wl_memcg {
	char dir[WL_MEMCG_PATH];	/* its directory under /sys/fs/cgroup */
	int v2;				/* cgroup v2 (memory.reclaim) or v1 */
};

/* The non-root memcg this process is in (v2 first): 0, or -1 when none. */
int wl_memcg_self(struct wl_memcg *cg);
/* Bytes charged (memory.current, v1 usage_in_bytes); -1 unreadable. */
long long wl_memcg_usage(const struct wl_memcg *cg);
/*
 * The same, read through one descriptor opened at the first call and kept
 * (an open and close of a cgroup file refills the charge stock): for
 * reading the usage between charges that must not come out of the stock.
 * Always the first cg it was called with. -1 unreadable.
 */
long long wl_memcg_usage_held(const struct wl_memcg *cg);
/* The limit (memory.max, v1 limit_in_bytes); -1 unlimited/unreadable. */
long long wl_memcg_limit(const struct wl_memcg *cg);
/*
 * Kernel memory charged (slab, page tables, ...: v1
 * memory.kmem.usage_in_bytes, v2 memory.stat kernel); -1 unreadable.
 */
long long wl_memcg_kernel(const struct wl_memcg *cg);
/* KEY's value in DIR/memory.stat (any memcg directory, v1 or v2), or -1. */
long long wl_memory_stat_key(const char *dir, const char *key);
/*
 * Can wl_memcg_reclaim() run here: v2 memory.reclaim writable, or (only
 * when force_empty) v1 memory.force_empty writable? 1 or 0.
 */
int wl_memcg_can_reclaim(const struct wl_memcg *cg, int force_empty);
/*
 * Reclaim in this memcg, which runs its memcg-aware shrinkers (the THP
 * deferred split queue among them): v2 writes "bytes swappiness=0" (or
 * "bytes") to memory.reclaim, a short reclaim (EAGAIN) counting as done;
 * v1, only with force_empty, writes memory.force_empty, which reclaims
 * all it can of the memcg: use it only in a memcg of the process's own.
 * 0, or -1 with errno.
 */
int wl_memcg_reclaim(const struct wl_memcg *cg, uint64_t bytes, int force_empty);
/* Write s to file of this memcg (its own knobs, e.g. v1 memory.swappiness).
 * 0, or -1 with errno. */
int wl_memcg_write(const struct wl_memcg *cg, const char *file, const char *s);

/* --- a memcg per repetition below a parent memcg (subcg.c) --- */

struct wl_subcg {
	char parent[WL_MEMCG_PATH];	/* THPBENCH_CGROUP or --cgroup */
	char dir[WL_MEMCG_PATH + 64];	/* the current child; "" none */
	char self[WL_MEMCG_PATH + 32];	/* v2: the leaf the caller moved to */
	int v2;
	int enabled;			/* v2: we wrote +memory to the parent */
	unsigned int seq;
};

/*
 * Use parent (an absolute memcg directory, v1 or v2) for children. On v2
 * the caller moves to PARENT/self-PID and the memory controller is
 * enabled for the parent's children. 0, or -1 with errno (EINVAL: no
 * usable path; ENOENT: no memcg there).
 */
int wl_subcg_open(struct wl_subcg *s, const char *parent);
/* mkdir PARENT/TAG-PID-N, the current child: 0 or -1 with errno. */
int wl_subcg_make(struct wl_subcg *s, const char *tag);
/* Move the calling process into the current child (before an exec). */
int wl_subcg_enter(const struct wl_subcg *s);
/* A key of the child's memory.stat (bytes or events); -1 when absent. */
long long wl_subcg_stat(const struct wl_subcg *s, const char *key);
/* The child's peak charge in bytes (v2 memory.peak, v1
 * max_usage_in_bytes); -1 unreadable. */
long long wl_subcg_peak(const struct wl_subcg *s);
/* Kill what is left in the child (v2 cgroup.kill, v1 SIGKILL each) and
 * remove it: 0, or -1 when it stays. */
int wl_subcg_remove(struct wl_subcg *s);
/* wl_subcg_remove(), then (v2) the caller back in the parent, the
 * controller disabled again and the self leaf removed. */
void wl_subcg_close(struct wl_subcg *s);

/* --- fault latency (latency.c) --- */

/*
 * Sort usec[0..n) in place, then print and report as metrics
 * PREFIX_p50_usec, PREFIX_p99_usec, PREFIX_max_usec, PREFIX_mean_usec.
 * Nothing when n is 0.
 */
void wl_report_latency(const char *prefix, double *usec, size_t n);
/*
 * How many of the pages base pages from addr are swap entries now
 * (pagemap bit 62; readable without privileges). -1 when unreadable.
 */
long long wl_pagemap_swapped(const void *addr, uint64_t pages);
/*
 * The swap entry of each of the pages base pages from addr: ent[i] is the
 * pagemap swap field (type in bits 0-4, offset from bit 5: WL_SWAP_TYPE,
 * WL_SWAP_OFFSET), or WL_NO_SWAP for a page that is not a swap entry. 0,
 * or -1 when pagemap cannot be read or hides the entries (not root).
 */
#define WL_NO_SWAP UINT64_MAX
#define WL_SWAP_TYPE(e) ((e) & 0x1f)
#define WL_SWAP_OFFSET(e) ((e) >> 5)
int wl_pagemap_swap_entries(const void *addr, uint64_t pages, uint64_t *ent);

/* --- free memory by block size (buddy.c) --- */

/* Free blocks of order >= order in /proc/buddyinfo, in order-order units
 * (order 9: how many 2 MiB blocks are free); -1 when unreadable. */
double wl_free_blocks(int order);
/* The same for one NUMA node's zones (node -1: all, as wl_free_blocks). */
double wl_node_free_blocks(int node, int order);

#ifdef __cplusplus
}
#endif

#endif
