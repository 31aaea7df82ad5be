#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel A/B for one bundled patch series, end to end, in qemu.
#
#   ./run.sh ab kernel-patches/SERIES [--suite FILE] [--kernel-src SRC]
#        [--boots N] [--reps N] [--accel auto|kvm|tcg] [--mem SIZE]
#        [--smp N] [--timeout SEC] [--out DIR] [--jobs N]
#
#  1. builds kernel A (the tree) and B (the tree + SERIES/*.patch), each
#     cached by a hash of tree, patches and config (build-kernel.sh);
#  2. builds static thpbench + workloads and an initramfs with them, the
#     suite (default SERIES/suite.conf) and a tiny init (mkinitramfs.sh);
#  3. boots A, B, A, B ... (--boots N pairs, default 1) in qemu, KVM when a
#     probe boot proves it works, TCG otherwise; each guest runs the suite
#     with the same arguments and sends results.json back over the serial
#     console, checked for length and CRC (boot.sh, extract-results.sh);
#  4. merges each kernel's boots, runs `thpbench compare` and `thpbench
#     plot`, and prints the comparison. With N >= 3 boots a second
#     comparison treats each boot's mean as one sample, so the verdict
#     reflects boot-to-boot variation, not only repetitions.
# Everything lands in results/ab-SERIES-DATE/ (or --out).
# Exit: compare's status (0 ok, 1 a verdict gate failed), 2 on any error.
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"
S=$KP_DIR/scripts

series='' suite='' src=$DEFAULT_KERNEL_SRC boots=1 reps='' accel=auto mem=6G smp=2
timeout=1800 outdir='' jobs=$(nproc)

usage()
{
	sed -n '4,22p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=${2:?}; shift 2 ;;
	--kernel-src) src=${2:?}; shift 2 ;;
	--boots) boots=${2:?}; shift 2 ;;
	--reps|-r) reps=${2:?}; shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--out) outdir=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	-h|--help) usage ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) [ -z "$series" ] || die "one series at a time ('$series' and '$1')"
	   series=$1; shift ;;
	esac
done
[ -n "$series" ] || usage
[ -d "$series" ] || die "series '$series' is not a directory (try kernel-patches/000-mremap-thp-pmd-move)"
series=$(cd "$series" && pwd)
name=$(basename "$series")
[ -n "$suite" ] || suite=$series/suite.conf
[ -f "$suite" ] || die "suite '$suite' not found (--suite)"
case $boots in ''|*[!0-9]*|0) die "--boots must be a positive number" ;; esac
"$S/install-deps.sh" || die "missing Debian packages (see above)"
need_cmd jq make gcc qemu-system-x86_64

[ -n "$outdir" ] || outdir=$REPO_DIR/results/ab-$name-$(date +%Y%m%d-%H%M%S)
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
log "results directory: $outdir"

# 1. Kernels.
kA=$("$S/build-kernel.sh" --kernel-src "$src" --jobs "$jobs")
kB=$("$S/build-kernel.sh" --kernel-src "$src" --series "$series" --jobs "$jobs")
relA=$(cat "$kA/kernelrelease")
relB=$(cat "$kB/kernelrelease")
cp "$kA/build.log" "$outdir/build-A.log"
cp "$kB/build.log" "$outdir/build-B.log"
log "kernel A: $relA ($kA)"
log "kernel B: $relB ($kB)"

# 2. Static harness and workloads, built in a copy so the user's dynamic
# binaries stay as they are.
sdir=$AB_BUILD_DIR/static
rm -rf "$sdir"
mkdir -p "$sdir"
(cd "$REPO_DIR" && git ls-files -co --exclude-standard -- Makefile harness workloads |
	cpio -pdm --quiet "$sdir") || die "cannot copy the sources to $sdir"
log "building static thpbench and workloads"
make -C "$sdir" -j"$jobs" static > "$outdir/build-static.log" 2>&1 || {
	tail -n 20 "$outdir/build-static.log" >&2
	die "'make static' failed; log: $outdir/build-static.log"
}
rargs=()
[ -z "$reps" ] || rargs=(--reps "$reps")
"$S/mkinitramfs.sh" -o "$outdir/initramfs.gz" --suite "$suite" \
	--thpbench "$sdir/harness/thpbench" --workloads "$sdir/workloads" "${rargs[@]}" \
	--file "$kA/config:/boot/config-$relA" --file "$kB/config:/boot/config-$relB"
cp "$suite" "$outdir/suite.conf"

# 3. Boots, interleaved A B A B ...
boot_one()
{
	local k=$1 i=$2 img rel line
	if [ "$k" = A ]; then img=$kA/bzImage rel=$relA; else img=$kB/bzImage rel=$relB; fi
	log "boot $i/$boots: kernel $k ($rel), accel $accel"
	line=$("$S/boot.sh" --kernel "$img" --initrd "$outdir/initramfs.gz" \
		--log "$outdir/console-$k-$i.log" --label "$rel" --boot "$i" \
		--accel "$accel" --mem "$mem" --smp "$smp" --timeout "$timeout" \
		--append "$kparams" |
		head -n 1) || die "boot of kernel $k failed; console: $outdir/console-$k-$i.log"
	if [ "$accel" = auto ]; then
		line=${line#accel=}
		accel=${line%% *}
		accel_line=${line#"$accel" }
		accel_line=${accel_line#(}
		accel_line=${accel_line%)}
		log "accelerator: $accel ($accel_line)"
	fi
	mkdir -p "$outdir/$k-$i"
	status=$("$S/extract-results.sh" "$outdir/console-$k-$i.log" \
		"$outdir/$k-$i/results.json") ||
		die "no complete results from kernel $k, boot $i (console: $outdir/console-$k-$i.log)"
	[ "$status" = status=0 ] ||
		log "warning: thpbench in the guest exited with ${status#status=} (kernel $k, boot $i); see console-$k-$i.log"
}

# Kernel parameters the series needs (e.g. a boot-time 1 GiB hugetlb pool:
# at run time a 3 GiB guest rarely has a free, movable, aligned 1 GiB).
# The default 6 GiB of guest memory is for that too: early allocations
# (memmap) are placed top-down, so only with RAM above 5 GiB does one
# aligned gigabyte (4-5 GiB) stay free for it. TCG allocates host memory
# only as the guest touches it.
kparams=
if [ -f "$series/cmdline" ]; then
	kparams=$(sed 's/#.*//' "$series/cmdline" | tr -s ' \n' '  ')
	log "kernel parameters from $series/cmdline: $kparams"
fi
accel_line="requested"
for i in $(seq 1 "$boots"); do
	boot_one A "$i"
	boot_one B "$i"
done

# 4. Merge, compare, plot.
# All repetitions of all boots of one kernel in one file; store_load()
# rebuilds summaries from the raw runs, so the stale ones are dropped.
merge_runs()
{
	jq -s '(.[0]) + { cases: [ range(0; .[0].cases | length) as $i |
		(.[0].cases[$i] | del(.summary)) +
		{ runs: [ .[0].cases[$i].id as $id |
			.[] | .cases[] | select(.id == $id) | .runs[] ] } ] }' "$@"
}
# One run per boot, its metrics the mean over that boot's ok runs: boots,
# not repetitions, are then the samples the test sees.
boot_means()
{
	jq -s '(.[0]) + { cases: [ range(0; .[0].cases | length) as $i |
		(.[0].cases[$i] | del(.summary)) +
		{ runs: [ .[0].cases[$i].id as $id |
			.[] | (.cases[] | select(.id == $id)) as $c |
			[ $c.runs[] | select(.status == "ok") ] as $ok |
			select($ok | length > 0) |
			($ok[0] + { metrics: ( [ $ok[].metrics | to_entries[] ] |
				group_by(.key) | map({ key: .[0].key,
				value: (map(.value) | add / length) }) |
				from_entries ) }) ] } ] }' "$@"
}

for k in A B; do
	files=()
	for i in $(seq 1 "$boots"); do files+=("$outdir/$k-$i/results.json"); done
	merge_runs "${files[@]}" > "$outdir/$k.json"
	[ "$boots" -lt 3 ] || boot_means "${files[@]}" > "$outdir/$k-boots.json"
done

tb=$REPO_DIR/harness/thpbench
[ -x "$tb" ] || make -C "$REPO_DIR" harness/thpbench > /dev/null ||
	die "cannot build harness/thpbench for the comparison"

{
	printf 'Kernel A/B: %s\n' "$name"
	printf '  A = %s (tree only)\n  B = %s (tree + %s)\n' "$relA" "$relB" \
		"$(paste -sd, "$kB/patches" | sed 's/,/, /g')"
	printf '  suite %s, %d boot(s) each, interleaved A B A B\n' "$(basename "$suite")" "$boots"
	printf '  qemu-system-x86_64, accel=%s (%s), %s RAM, %s vCPUs\n' "$accel" "$accel_line" "$mem" "$smp"
	if [ "$accel" = tcg ]; then
		printf '  NOTE: TCG emulates the CPU: event counts (vmstat.*, page-faults) are\n'
		printf '  exact, but times and GB/s are emulated, not hardware timings; they\n'
		printf '  only compare the two kernels under the same emulator.\n'
	fi
	printf '\n'
} > "$outdir/header.txt"

rc=0
"$tb" compare "$outdir/A.json" "$outdir/B.json" > "$outdir/comparison.txt" 2>&1 || rc=$?
if [ "$rc" -ge 2 ]; then
	cat "$outdir/comparison.txt" >&2
	die "thpbench compare failed (exit $rc); inputs kept in $outdir"
fi
"$tb" compare "$outdir/A.json" "$outdir/B.json" --format md > "$outdir/comparison.md" 2>/dev/null || true
if [ "$boots" -ge 3 ]; then
	"$tb" compare "$outdir/A-boots.json" "$outdir/B-boots.json" \
		> "$outdir/comparison-boots.txt" 2>&1 || true
fi
"$tb" plot "$outdir/A.json" "$outdir/B.json" -o "$outdir/plots" \
	> "$outdir/plot.log" 2>&1 || log "warning: thpbench plot failed; see $outdir/plot.log"

jq -n --arg series "$name" --arg suite "$(basename "$suite")" \
	--arg relA "$relA" --arg relB "$relB" --arg kA "$kA" --arg kB "$kB" \
	--arg cfgA "$(sha256_stdin < "$kA/config")" --arg cfgB "$(sha256_stdin < "$kB/config")" \
	--arg accel "$accel" --arg why "$accel_line" --argjson boots "$boots" \
	--arg qemu "$(qemu-system-x86_64 --version | head -n 1)" \
	--arg mem "$mem" --argjson smp "$smp" --arg date "$(date -Iseconds)" \
	'{ series: $series, suite: $suite, date: $date, boots: $boots,
	   order: "A B A B ...",
	   qemu: { version: $qemu, accel: $accel, accel_reason: $why,
		   mem: $mem, smp: $smp, emulated_timings: ($accel == "tcg") },
	   kernels: { A: { release: $relA, cache: $kA, config_sha256: $cfgA },
		      B: { release: $relB, cache: $kB, config_sha256: $cfgB } } }' \
	> "$outdir/ab.json"

cat "$outdir/header.txt" "$outdir/comparison.txt"
if [ "$boots" -ge 3 ]; then
	printf '\nAcross boots (one sample per boot: the mean of its repetitions)\n\n'
	cat "$outdir/comparison-boots.txt"
fi
log "everything is in $outdir"
exit "$rc"
