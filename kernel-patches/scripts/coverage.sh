#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Which kernel lines a suite runs, and which lines of a series it runs.
#
#   ./run.sh coverage SUITE.conf [--series SERIES | --tree DIR --base REF --new REF]
#                     [--kernel-src SRC] [--config C] [--files mm/a.c,...]
#                     [--nodes N] [--mem SIZE] [--timeout SEC] [--jobs N] [--out DIR]
#
#   --series SERIES  build the kernel with SERIES (a directory of *.patch or
#                    an mbox, as ./run.sh ab takes it) and report, per hunk,
#                    which changed lines ran (patch coverage)
#   --tree DIR --base REF --new REF   the same for the commits base..new
#   --nodes N        NUMA nodes of the guest (default 2, numa=fake: the
#                    migration cases need two)
#   --files LIST     the files of the table (default: the mm/ files THP
#                    paths live in)
#   --selftests      the kernel's own THP and hugetlb selftests instead of a
#                    thpbench suite (SUITE defaults to configs/selftests-vm.conf):
#                    built static from the kernel's tree
#                    (tools/testing/selftests/vm) into the guest's /selftests
#
#  1. builds the guest kernel with gcov for mm/ and the files the series
#     touches (build-kernel.sh --gcov; cached under its own key);
#  2. boots it once (./run.sh guest) and runs the suite with one repetition
#     per case, the counters zeroed before each and copied after it
#     (thpbench run -r 1 --warmup 0 --kernel-gcov), sent back over the
#     serial console with the results;
#  3. turns each repetition's data into a tracefile with lcov's geninfo
#     (and every line of the profiled files with geninfo --initial), then
#     `thpbench kernel-coverage` merges them: the per-file table, with the
#     case that ran most lines first, coverage.json, the merged tracefile,
#     and genhtml's HTML report in html/.
# Everything lands in a new results/coverage-SUITE-DATE[-N]/ (or --out).
# Under TCG the instrumented kernel is slower: times in this run mean
# nothing; an A/B never uses this kernel (docs/kernel-coverage.md).
# Exit: 0 ok; 2 any error; 130 interrupted.
set -Eeuo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"
S=$KP_DIR/scripts
trap 'exit 2' ERR

suite='' series='' tree='' base='' new='' src=$DEFAULT_KERNEL_SRC config=tinyconfig
files='' nodes=2 mem=4G timeout=3600 jobs=$(nproc) outdir=''
selftests=0
while [ $# -gt 0 ]; do
	case $1 in
	--series) series=${2:?}; shift 2 ;;
	--tree) tree=${2:?}; shift 2 ;;
	--base) base=${2:?}; shift 2 ;;
	--new) new=${2:?}; shift 2 ;;
	--kernel-src) src=${2:?}; shift 2 ;;
	--config) config=${2:?}; shift 2 ;;
	--files) files=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--nodes) nodes=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--out) outdir=${2:?}; shift 2 ;;
	--selftests) selftests=1; shift ;;
	-h|--help) kp_help ;;
	-*) kp_die "unknown option '$1' (see --help)" ;;
	*) kp_one_suite "$1"; shift ;;
	esac
done
[ -n "$suite" ] || [ "$selftests" = 0 ] || suite=$REPO_DIR/configs/selftests-vm.conf
kp_suite_given
if [ -n "$tree" ] && { [ -z "$base" ] || [ -z "$new" ]; }; then
	kp_die "--tree needs --base REF and --new REF"
fi
[ -z "$tree" ] || src=$tree
[ -z "$tree" ] || [ -z "$series" ] || kp_die "--series or --tree, not both"
case $files in *[!A-Za-z0-9._/,+-]*) kp_die "--files takes a comma list of tree paths ('$files')" ;; esac
suite=$(cd "$(dirname "$suite")" && pwd)/$(basename "$suite")
name=$(kp_release_slug "$(basename "$suite" .conf)")

"$S/install-deps.sh" || kp_die "missing Debian packages (see above)"
kp_need_cmd geninfo genhtml cpio
tb=$REPO_DIR/harness/thpbench
[ -x "$tb" ] || make -C "$REPO_DIR" -s harness/thpbench || kp_die "cannot build harness/thpbench"

kp_flow_outdir "$outdir" "coverage-$name"
kp_flow_traps 'guest/console.log'
kp_log "results directory: $outdir"
t0=$SECONDS

# 1. The gcov kernel (with the series: the kernel its patch coverage is of).
kargs=(--gcov --kernel-src "$src" --config "$config" --jobs "$jobs")
if [ -n "$series$tree" ]; then
	if [ -n "$tree" ]; then
		"$S/series.sh" -o "$outdir/series" --tree "$tree" --base "$base" --new "$new" > /dev/null
		kargs+=(--git-ref "$base")
	else
		"$S/series.sh" -o "$outdir/series" "$series" > /dev/null
	fi
	kargs+=(--series "$outdir/series")
fi
kp_step "$S/build-kernel.sh" "${kargs[@]}" > "$outdir/.kernel"
kdir=$(cat "$outdir/.kernel")
rm -f "$outdir/.kernel"
[ -d "$kdir/gcov/obj" ] || kp_die "$kdir has no gcov notes (gcov/obj): not a --gcov build"
t_build=$((SECONDS - t0))

# The selftests, built static from the tree this kernel was built from
# (a program that does not build is said and left out: its case fails).
gfiles=()
if [ "$selftests" = 1 ]; then
	vm=$(cat "$kdir/gcov/srcdir")/tools/testing/selftests/vm
	[ -d "$vm" ] || kp_die "no $vm: the kernel tree has no vm selftests"
	mkdir -p "$outdir/selftests"
	for t in khugepaged split_huge_page_test transhuge-stress hugepage-shm map_hugetlb \
		hugepage-mremap hugetlb-madvise; do
		util=()
		if [ -f "$vm/vm_util.c" ] && grep -q 'vm_util.h' "$vm/$t.c"; then
			util=("$vm/vm_util.c")
		fi
		if gcc -static -O2 -I "$vm/../../../../usr/include" -o "$outdir/selftests/$t" \
			"$vm/$t.c" "${util[@]}" -lrt -lpthread > "$outdir/selftests/$t.log" 2>&1; then
			gfiles+=(--file "$outdir/selftests/$t:/selftests/$t")
		else
			kp_log "warning: selftest $t does not build ($outdir/selftests/$t.log); its case will fail"
		fi
	done
fi

# 2. One boot, one repetition per case, the counters per repetition.
kp_step "$S/guest.sh" "$suite" --kernel "$kdir/bzImage:$kdir/config" --nodes "$nodes" "${gfiles[@]}" \
	--mem "$mem" --timeout "$timeout" --jobs "$jobs" --out "$outdir/guest" \
	-- -r 1 --warmup 0 --kernel-gcov
t_run=$((SECONDS - t0 - t_build))

# 3. The guest's data: one checked block, an archive of kgcov/SEQ/... of
# regular files only (names checked before anything is unpacked).
"$S/extract-results.sh" --name kgcov.cpio "$outdir/guest/console.log" "$outdir/kgcov.cpio" > /dev/null ||
	kp_die "no gcov data from the guest (console: $outdir/guest/console.log)"
# One listing (cpio -tv: mode, links, owner, group, size, date in three
# fields, name): every entry a regular file named kgcov/SEQ/.../X.gcda.
cpio -itv --quiet < "$outdir/kgcov.cpio" > "$outdir/kgcov.list"
if awk '$1 !~ /^-/ || NF != 9 || $9 !~ /^kgcov\/[0-9]+\/[A-Za-z0-9._\/+-]+\.gcda$/ ||
	 $9 ~ /(^|\/)\.\.?(\/|$)/ { bad = 1 } END { exit !bad }' "$outdir/kgcov.list"; then
	kp_die "$outdir/kgcov.cpio holds something other than kgcov/SEQ/.../NAME.gcda files; not unpacking it"
fi
(cd "$outdir" && cpio -id --quiet --no-absolute-filenames < kgcov.cpio)
rm -f "$outdir/kgcov.cpio" "$outdir/kgcov.list"
objrel=$(cat "$kdir/gcov/objdir")
objrel=${objrel#/}
mkdir -p "$outdir/info"
geninfo_q() { geninfo --quiet "$@" 2>&1 | grep -v -e 'redefined at' -e 'did not produce any data' -e 'no functions found' >&2 || true; }
geninfo_q --initial "$kdir/gcov/obj" -o "$outdir/info/base"
# The notes copied once; each repetition's data put beside them in turn.
work=$(mktemp -d)
cp -r "$kdir/gcov/obj" "$work/obj"
for d in "$outdir"/kgcov/*/; do
	seq=$(basename "$d")
	find "$work/obj" -name '*.gcda' -type f -delete
	[ ! -d "$d/$objrel" ] || cp -r "$d/$objrel/." "$work/obj/"
	geninfo_q "$work/obj" -o "$outdir/info/$seq.info"
	[ -f "$outdir/info/$seq.info" ] || : > "$outdir/info/$seq.info"
done
rm -rf "$work"
cargs=(--results "$outdir/guest/results.json" --info-dir "$outdir/info"
	--base "$outdir/info/base" --strip "$(cat "$kdir/gcov/srcdir")")
[ -z "$files" ] || cargs+=(--files "$files")
[ ! -d "$outdir/series" ] || cargs+=(--series "$outdir/series")
"$tb" kernel-coverage "${cargs[@]}" --json "$outdir/coverage.json" \
	--lcov "$outdir/coverage.info" --src-prefix "$kdir/gcov/src" | tee "$outdir/coverage.txt"
[ ! -d "$outdir/series" ] ||
	"$tb" kernel-coverage "${cargs[@]}" --format cover > "$outdir/cover-coverage.txt"
genhtml --quiet --ignore-errors source -o "$outdir/html" "$outdir/coverage.info" \
	> "$outdir/genhtml.log" 2>&1 || kp_log "warning: genhtml failed; see $outdir/genhtml.log"
t_total=$((SECONDS - t0))
printf 'took: kernel %s, guest run %s, total %s\n' "$(kp_secs "$t_build")" \
	"$(kp_secs "$t_run")" "$(kp_secs "$t_total")" | tee -a "$outdir/coverage.txt"
kp_log "HTML: $outdir/html/index.html"
kp_log "everything is in $outdir"
