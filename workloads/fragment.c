// SPDX-License-Identifier: GPL-2.0-only
/*
 * fragment - break up free memory, as the selftests' and mmtests'
 * fragmenters do, so that THP allocation can be measured under known
 * fragmentation (the harness's --memory-state fragmented runs it first).
 *
 * Batch by batch, so that at most one batch is in use at a time: fault
 * THPs (MADV_HUGEPAGE; where a fault got base pages MADV_COLLAPSE, which
 * ignores the THP sysfs settings), split each (MADV_COLD on part of a THP
 * splits the folio at once, unlike MADV_DONTNEED's deferred split), keep
 * one 4 KiB page in every --every bytes of it and give the rest back
 * (MADV_DONTNEED). Each 2 MiB block that held a THP then has pages in use
 * that only compaction can move, and no free block of order log2(--every)
 * or more is left in it. The kept pages are MADV_NOHUGEPAGE so that
 * khugepaged does not collapse them back. With --share, batches go on
 * until the free memory in blocks of 2 MiB or more (/proc/buddyinfo: what
 * a THP can come from; MemFree can be much more, twice as much in this VM,
 * whose host plugs memory in late) is down to 1 - share of what it was,
 * read again after each batch, so that memory others free meanwhile is
 * broken up too; with --size, until the THPs broken cover SIZE; either
 * way until no THP can be had. --all goes on until then: no free 2 MiB
 * block is left that a fault or MADV_COLLAPSE (direct reclaim and
 * compaction) could get.
 *
 * --pin also mlocks the kept pages (mlock2 MLOCK_ONFAULT of each batch:
 * the pages present, one VMA a batch). With vm/compact_unevictable_allowed
 * 0 (a managed sysctl a case sets) compaction does not move an
 * unevictable page, so no 2 MiB block that holds one can be freed by
 * compaction: every THP allocation then fails while the fragmenter holds
 * (thp_collapse_alloc_failed for khugepaged and MADV_COLLAPSE,
 * thp_zero_page_alloc_failed for the huge zero folio). The kept pages are
 * 1/512 of the memory broken up (--every 2M). The harness's memory_state
 * "pinned" runs it with --all --pin --hold.
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

static const char usage[] =
	"usage: fragment [--share F | --size SIZE] [--every SIZE] [--batch SIZE]\n"
	"                [--all] [--pin] [--hold]\n"
	"  --share F     break up THPs until the free memory in blocks of 2 MiB\n"
	"                or more (/proc/buddyinfo) is down by F (0 < F <= 0.99;\n"
	"                default 0.9)\n"
	"  --size SIZE   break up THPs covering SIZE instead\n"
	"  --all         break up THPs until none can be had (no --share or --size)\n"
	"  --pin         mlock the kept pages (unevictable: with\n"
	"                vm/compact_unevictable_allowed 0 compaction leaves them)\n"
	"  --every SIZE  keep one 4 KiB page in every SIZE of each THP (a power\n"
	"                of two, 8K..2M; default 2M: one page per THP). No free\n"
	"                block of that size or larger is left where a THP was\n"
	"  --batch SIZE  memory faulted at a time, the peak use (default 64M)\n"
	"  --hold        then print 'ready' and keep the kept pages until\n"
	"                SIGTERM, SIGINT or SIGHUP, or until the parent exits\n"
	"                (those signals end it at once while it prepares, too)\n"
	"Prints 'free_2m_target N' (--share) or 'target_kb N' (--size), 'chunks N'\n"
	"(2 MiB chunks faulted), 'thp_chunks N'\n"
	"(of them THPs, broken up), 'fragmented_kb N', 'kept_kb N', 'usec N',\n"
	"'free_2m_before N' and 'free_2m_after N' (free blocks of order >= 9 in\n"
	"/proc/buddyinfo); metrics of the same names. Exit 0 ok, 1 no THP could\n"
	"be had at all, 2 usage.\n";

#define PMD_ORDER 9

struct opts {
	double share;
	uint64_t size;		/* 0: --share of the free 2 MiB blocks */
	uint64_t every;
	uint64_t batch;
	int hold, all, pin;
};

struct tally {
	uint64_t chunks, thp_chunks, kept;
};

static double parse_share(const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v > 0 && v <= 0.99))
		wl_usage_error(usage, "--share: '%s' is not a share in (0, 0.99]", arg);
	return v;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "share", required_argument, NULL, 's' },
		{ "size", required_argument, NULL, 'S' },
		{ "every", required_argument, NULL, 'e' },
		{ "batch", required_argument, NULL, 'b' },
		{ "hold", no_argument, NULL, 'H' },
		{ "all", no_argument, NULL, 'a' },
		{ "pin", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct opts){ .share = 0.9, .every = WL_PMD_SIZE, .batch = 64 * WL_MIB };
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o->share = parse_share(optarg); break;
		case 'S': o->size = wl_opt_size("--size", optarg, usage); break;
		case 'e': o->every = wl_opt_size("--every", optarg, usage); break;
		case 'b': o->batch = wl_opt_size("--batch", optarg, usage); break;
		case 'H': o->hold = 1; break;
		case 'a': o->all = 1; break;
		case 'p': o->pin = 1; break;
		default: wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	if (o->every < 2 * WL_BASE_PAGE || o->every > WL_PMD_SIZE ||
	    (o->every & (o->every - 1)))
		wl_usage_error(usage, "--every must be a power of two from 8K to 2M");
	if (o->all && o->size)
		wl_usage_error(usage, "--all and --size are two stopping rules: give one");
	if (o->batch % WL_PMD_SIZE)
		wl_usage_error(usage, "--batch must be a multiple of 2M");
}

/*
 * SIGTERM, SIGINT and SIGHUP end it at any point of the preparation: their
 * default action, whatever the parent left blocked or ignored (a fatal
 * signal also cuts a fault or MADV_COLLAPSE short in the kernel, which a
 * handler and a flag would not). Only hold() blocks them, to sigwait.
 */
static void default_stop(const sigset_t *stop)
{
	struct sigaction dfl;
	int sig;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (sig = 1; sig < NSIG; sig++)
		if (sigismember(stop, sig) == 1)
			sigaction(sig, &dfl, NULL);
	sigprocmask(SIG_UNBLOCK, stop, NULL);
}

/* Die with the parent: a harness killed with SIGKILL must not leave this
 * holding memory in pieces. (The harness also sets it before the exec,
 * where no parent can die unnoticed in between.) */
static void follow_parent(void)
{
	pid_t parent = getppid();

	if (prctl(PR_SET_PDEATHSIG, SIGTERM))
		wl_warn("PR_SET_PDEATHSIG failed: %s", strerror(errno));
	if (getppid() != parent)
		exit(WL_EXIT_OK);
}

/* Split each THP of the batch, keep one page per o->every, free the rest. */
static void break_up(char *p, const struct opts *o)
{
	uint64_t off, blk;

	for (off = 0; off < o->batch; off += WL_PMD_SIZE) {
		if (madvise(p + off, WL_BASE_PAGE, MADV_COLD) && errno != EINVAL)
			wl_fail("madvise(MADV_COLD) failed: %s", strerror(errno));
		for (blk = off; blk < off + WL_PMD_SIZE; blk += o->every) {
			if (madvise(p + blk + WL_BASE_PAGE, o->every - WL_BASE_PAGE,
				    MADV_DONTNEED))
				wl_fail("madvise(MADV_DONTNEED) failed: %s", strerror(errno));
		}
	}
	madvise(p, o->batch, MADV_NOHUGEPAGE);
}

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 0x01
#endif

/* --pin: the pages present (the kept ones) locked, the VMA whole. */
static void pin_kept(char *p, const struct opts *o)
{
	if (syscall(SYS_mlock2, p, o->batch, MLOCK_ONFAULT))
		wl_fail("mlock2(MLOCK_ONFAULT) of the kept pages: %s (RLIMIT_MEMLOCK; "
			"--pin needs root or a limit of 1/512 of the memory)",
			strerror(errno));
}

/* One batch: fault it as THPs, break them up. The THPs it held. */
static uint64_t one_batch(const struct opts *o, struct tally *t)
{
	char *p = wl_map_aligned(o->batch, WL_PMD_SIZE, PROT_READ | PROT_WRITE);
	uint64_t off, thps;
	long long huge;

	if (!p)
		wl_fail("mmap of %llu bytes failed: %s",
			(unsigned long long)o->batch, strerror(errno));
	madvise(p, o->batch, MADV_HUGEPAGE);
	for (off = 0; off < o->batch; off += WL_PMD_SIZE)
		p[off] = 1;
	huge = wl_range_anon_huge_kb(p, o->batch);
	if (huge < 0 || (uint64_t)huge * WL_KIB < o->batch) {
		/* EAGAIN, ENOMEM: as many as it could; EINVAL: no MADV_COLLAPSE. */
		madvise(p, o->batch, MADV_COLLAPSE);
		huge = wl_range_anon_huge_kb(p, o->batch);
	}
	thps = huge > 0 ? (uint64_t)huge * WL_KIB / WL_PMD_SIZE : 0;
	t->chunks += o->batch / WL_PMD_SIZE;
	t->thp_chunks += thps;
	t->kept += thps * (WL_PMD_SIZE / o->every) + o->batch / WL_PMD_SIZE - thps;
	break_up(p, o);
	if (o->pin)
		pin_kept(p, o);
	return thps;
}

static void hold(const sigset_t *stop)
{
	int sig;

	/* Blocked before "ready": a signal sent once it is read is waited for. */
	sigprocmask(SIG_BLOCK, stop, NULL);
	printf("ready\n");
	fflush(stdout);
	sigwait(stop, &sig);
}

int main(int argc, char **argv)
{
	struct tally t = { 0 };
	double before, left = 0, t0, t1;
	uint64_t cap;
	struct opts o;
	sigset_t stop;

	parse_args(argc, argv, &o);
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	default_stop(&stop);
	if (o.hold)
		follow_parent();
	before = wl_free_blocks(PMD_ORDER);
	if (!o.size && !o.all && before < 0)
		wl_die("cannot read /proc/buddyinfo for --share; give --size");
	/* --size: that many THPs; --share: at most all of memory, once. */
	cap = o.size ? o.size / WL_PMD_SIZE :
	      (uint64_t)wl_meminfo_kb("MemTotal") * WL_KIB / WL_PMD_SIZE;
	/* --all: a block broken up stays so, so no more THPs than blocks can
	 * be had; twice MemTotal bounds it where memory is plugged in late. */
	if (o.all)
		cap *= 2;
	if (!o.size && !o.all)
		left = (1 - o.share) * before;
	t0 = wl_now_usec();
	while (t.thp_chunks < cap &&
	       (o.size || o.all || wl_free_blocks(PMD_ORDER) > left))
		if (!one_batch(&o, &t))
			break;	/* no THP to be had: as broken as it gets */
	t1 = wl_now_usec();
	if (o.size)
		wl_report("target_kb", (double)(o.size / WL_KIB));
	else if (!o.all)
		wl_report("free_2m_target", left);
	wl_report("chunks", (double)t.chunks);
	wl_report("thp_chunks", (double)t.thp_chunks);
	wl_report("fragmented_kb", (double)(t.thp_chunks * WL_PMD_SIZE / WL_KIB));
	wl_report("kept_kb", (double)(t.kept * WL_BASE_PAGE / WL_KIB));
	if (o.pin)
		wl_report("pinned_kb", (double)(t.kept * WL_BASE_PAGE / WL_KIB));
	wl_report("usec", t1 - t0);
	wl_report("free_2m_before", before);
	wl_report("free_2m_after", wl_free_blocks(PMD_ORDER));
	if (!t.thp_chunks)
		wl_fail("no THP could be had (is THP compiled in?); nothing was broken up");
	if (o.hold)
		hold(&stop);
	return 0;
}
