#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The one entry point for users.
#
#   ./run.sh                 install missing packages, build, run configs/quick.conf,
#                            print the summary, write results and plots under results/
#   ./run.sh SUITE           the same with configs/SUITE.conf (e.g. seeds)
#   ./run.sh check           build and run all tests (same as make check)
#   ./run.sh bench           harness overhead vs perf stat -r
#   ./run.sh ab PATCHDIR ... kernel A/B in qemu (kernel-patches/README.md)
#   ./run.sh bisect --tree DIR --good REF --bad REF --suite S --metric CASE:METRIC
#                            performance bisection, each step decided statistically
#   ./run.sh pmu-check [-o DIR]  can this machine count TLB walks, and truly?
#   ./run.sh guest SUITE [--nodes N --cpus N --mem SIZE --gib-pages N]
#                            run a suite in a qemu guest of that topology
#   ./run.sh nightly [--kernel-id ID] [--db DB]   run configs/nightly.conf, record
#                            it in the history, check it, write JUnit + report
#   ./run.sh run|compare|plot|restore|list|history ...   thpbench sub-commands
set -e
cd "$(dirname "$0")"

scripts/install-deps.sh
make -s -j"$(nproc)"

cmd=${1:-quick}
case $cmd in
check|test)
	# The kernel tests check the bundled patches against Debian's 6.1 source.
	kernel-patches/scripts/install-deps.sh --light
	exec make -s check ;;
bench)
	shift
	exec sh tests/bench/overhead.sh "$@" ;;
ab)
	shift
	THPBENCH_AB_CALLER="$0 ab" exec kernel-patches/scripts/ab.sh "$@" ;;
bisect)
	shift
	exec kernel-patches/scripts/bisect.sh "$@" ;;
guest)
	shift
	exec kernel-patches/scripts/guest.sh "$@" ;;
nightly)
	shift
	exec sh scripts/nightly.sh "$@" ;;
pmu-check)
	shift
	exec sh scripts/pmu-check.sh "$@" ;;
run|compare|plot|restore|list|history)
	exec ./harness/thpbench "$@" ;;
esac

[ $# -gt 0 ] && shift
suite=configs/$cmd.conf
[ -f "$cmd" ] && suite=$cmd
if [ ! -f "$suite" ]; then
	echo "run.sh: no suite $suite (see: ls configs/)" >&2
	exit 2
fi
name=$(basename "$suite" .conf)
out=results/$name-$(date +%Y%m%d-%H%M%S)
./harness/thpbench run "$suite" -o "$out" "$@"
rm -f results/latest
ln -s "$(basename "$out")" results/latest
echo "latest: results/latest -> $out"
# The headline: each case's THP modes against each other, on the figures
# that matter (the whole table is `thpbench compare RESULTS --by thp`).
if ./harness/thpbench compare "$out/results.json" --by thp -m roi_usec \
	-m gbps -m wall_usec -m minflt -m 'tlb:*' -m 'vmstat.thp_fault_alloc' \
	> "$out/compare-thp.txt" 2>/dev/null; then
	echo
	sed -n '/^[^ ].*(n=[0-9]*) vs /,$p' "$out/compare-thp.txt"
	echo "compare: $out/compare-thp.txt"
fi
