#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The one entry point for users; `./run.sh help` lists what it does (the
# usage text below). Help (./run.sh help, --help, -h, and COMMAND --help
# of a command that is a script) is printed at once, before anything is
# installed or built.
set -e
cd "$(dirname "$0")"

usage() {
	cat <<'EOF'
usage: ./run.sh [COMMAND] [ARGS...]

  (none)          install missing packages, build, run configs/quick.conf,
                  print the summary, write results and plots under results/
  SUITE           the same with configs/SUITE.conf (e.g. seeds) or a .conf file
  check           build and run all tests (same as make check)
  bench           harness overhead vs perf stat -r (tests/bench/overhead.sh)
  ab PATCHDIR...  kernel A/B in qemu (kernel-patches/README.md)
  bisect --tree DIR --good REF --bad REF --suite S --metric CASE:METRIC
                  performance bisection, each step decided statistically
  guest SUITE [--nodes N --cpus N --mem SIZE --gib-pages N]
                  run a suite in a qemu guest of that topology
  lava SUITE [--series PATCHDIR] [--db DB]
                  the suite as a LAVA job (lava-run, a qemu device); its
                  results back, and with --db recorded and gated as a
                  nightly (docs/lava.md)
  coverage SUITE [--series PATCHDIR]
                  which kernel lines (gcov) the suite runs in a guest, and
                  which changed lines of the series (docs/kernel-coverage.md)
  nightly [--kernel-id ID] [--db DB]
                  run configs/nightly.conf, record it in the history, check
                  it, write JUnit + report
  pmu-check [-o DIR]
                  can this machine count TLB walks, and truly?
  run|compare|merge|show|plot|restore|list|history ...
                  thpbench's commands (harness/thpbench COMMAND --help)
  help, --help, -h
                  this list

./run.sh COMMAND --help for a command's options.
EOF
}

cmd=${1:-quick}
# Help needs nothing installed or built; a script's own --help neither.
case $cmd in
help|--help|-h)
	usage
	exit 0 ;;
-*)
	echo "run.sh: unknown option \"$cmd\" (./run.sh --help lists the commands)" >&2
	exit 2 ;;
esac
case ${2:-} in
--help|-h)
	case $cmd in
	check|test) usage; exit 0 ;;
	bench) exec sh tests/bench/overhead.sh --help ;;
	ab) THPBENCH_AB_CALLER="$0 ab" exec kernel-patches/scripts/ab.sh --help ;;
	bisect) exec kernel-patches/scripts/bisect.sh --help ;;
	guest) exec kernel-patches/scripts/guest.sh --help ;;
	coverage) exec kernel-patches/scripts/coverage.sh --help ;;
	lava) exec kernel-patches/scripts/lava.sh --help ;;
	nightly) exec sh scripts/nightly.sh --help ;;
	pmu-check) exec sh scripts/pmu-check.sh --help ;;
	esac
	help_suite=1 ;;
esac

scripts/install-deps.sh
make -s -j"$(nproc)"

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
coverage)
	shift
	exec kernel-patches/scripts/coverage.sh "$@" ;;
lava)
	shift
	exec kernel-patches/scripts/lava.sh "$@" ;;
nightly)
	shift
	exec sh scripts/nightly.sh "$@" ;;
pmu-check)
	shift
	exec sh scripts/pmu-check.sh "$@" ;;
run|compare|merge|show|plot|restore|list|history)
	exec ./harness/thpbench "$@" ;;
esac
# ./run.sh SUITE --help: the options after SUITE are thpbench run's.
[ -z "${help_suite:-}" ] || exec ./harness/thpbench run --help

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
