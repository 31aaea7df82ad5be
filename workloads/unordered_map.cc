// SPDX-License-Identifier: GPL-2.0-only
/*
 * unordered_map - seed 002 (Zanella, glibc "malloc: Add madvise support
 * for Transparent Huge Pages", 2021): the posting's test case, a
 * std::unordered_map<size_t, size_t> that reserves N buckets and then
 * try_emplace()s N keys. Its memory comes from malloc, so whether it is
 * THP-backed is decided by glibc (GLIBC_TUNABLES=glibc.malloc.hugetlb=...)
 * and the THP mode; the run prints both so a result says what it measured.
 *
 * The region of interest is reserve() plus the insert loop: the posting
 * measured the whole program, which is almost all of that; the harness's
 * whole-process counters still cover start-up and teardown.
 */
#include "wl.h"

#include <getopt.h>
#include <gnu/libc-version.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <unordered_map>

static const char usage[] =
	"usage: unordered_map [--keys N]\n"
	"  --keys N   keys to insert (plain number; default 10000000, as the posting)\n"
	"Times reserve(N) and N try_emplace(i, i) into std::unordered_map.\n"
	"Prints 'usec N', 'faults N', the glibc version and GLIBC_TUNABLES;\n"
	"metrics roi_usec, roi_minflt, rss_kb, anon_huge_kb, hugetlb_kb.\n"
	"Exit 0 ok, 1 failure, 2 usage.\n";

/* libstdc++: one bucket pointer per key at load factor 1, and a node
 * (next, key, value) in a 32-byte malloc chunk. */
static const std::uint64_t bytes_per_key = 8 + 32;

static std::uint64_t parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "keys", required_argument, nullptr, 'k' },
		{ "help", no_argument, nullptr, 'h' },
		{ nullptr, 0, nullptr, 0 },
	};
	std::uint64_t keys = 10000000;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, nullptr)) != -1) {
		switch (c) {
		case 'k':
			keys = wl_opt_count("--keys", optarg, 1, 1ULL << 40, usage);
			break;
		default:
			wl_opt_fallback(c, usage);
		}
	}
	wl_no_operands(argc, argv, usage);
	return keys;
}

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static void print_libc(void)
{
	const char *t = std::getenv("GLIBC_TUNABLES");

	std::printf("glibc %s\n", gnu_get_libc_version());
	std::printf("GLIBC_TUNABLES %s\n", t && *t ? t : "(unset)");
}

/* Every key is there with its value; a sample, spread over the table. */
static void verify(const std::unordered_map<std::size_t, std::size_t> &ht,
		   std::uint64_t keys)
{
	std::uint64_t step = keys / 4096 + 1, i;

	if (ht.size() != keys)
		wl_fail("the map holds %zu keys, expected %llu", ht.size(),
			(unsigned long long)keys);
	for (i = 0; i < keys; i += step) {
		auto it = ht.find(i);

		if (it == ht.end() || it->second != i)
			wl_fail("key %llu is missing or has the wrong value",
				(unsigned long long)i);
	}
}

int main(int argc, char **argv)
{
	std::uint64_t keys = parse_args(argc, argv);
	std::unordered_map<std::size_t, std::size_t> ht;
	double t0, t1;
	long f0, f1;

	wl_check_memory(keys * bytes_per_key, "--keys (about 40 bytes a key)");
	print_libc();
	try {
		wl_roi_begin();
		f0 = minflt();
		t0 = wl_now_usec();
		ht.reserve(keys);
		for (std::size_t i = 0; i < keys; ++i)
			ht.try_emplace(i, i);
		t1 = wl_now_usec();
		f1 = minflt();
		wl_roi_end();
	} catch (const std::bad_alloc &) {
		wl_fail("out of memory inserting %llu keys", (unsigned long long)keys);
	}

	std::printf("usec %.0f\n", t1 - t0);
	std::printf("faults %ld\n", f1 - f0);
	wl_metric("roi_usec", t1 - t0);
	wl_metric("roi_minflt", (double)(f1 - f0));
	wl_report_self_mem();
	verify(ht, keys);
	std::printf("ok\n");
	return 0;
}
