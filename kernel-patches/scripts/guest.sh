#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run any suite in one qemu guest of a chosen topology, on the bundled
# kernel (Debian's 6.1 with kernel-patches/thpbench.config).
#
#   ./run.sh guest SUITE.conf [--nodes N] [--cpus N] [--mem SIZE]
#                  [--gib-pages N] [--reps N] [--accel auto|kvm|tcg]
#                  [--timeout SEC] [--out DIR] [--jobs N] [--arch x86_64|arm64]
#                  [-- RUN ARGS...]
#
#   --arch arm64    an arm64 guest: the kernel and the static harness
#                   cross-built, qemu-system-aarch64 -M virt (TCG on a
#                   non-arm64 host; docs/arm64.md); one NUMA node only
#                   (--nodes 1: arm64 6.1 has no numa=fake), no --kernel
#
#   --nodes N       NUMA nodes (default 2): numa=fake=N on the kernel
#                   command line (CONFIG_NUMA_EMU); memory is split evenly
#                   and the vCPUs among N sockets (qemu -smp sockets=N):
#                   Linux puts a CPU on the node of its last-level cache
#                   on AMD-like vCPUs (TCG's max is one), in turn (CPU i
#                   on node i mod N) on Intel ones. The nodes are real to
#                   the kernel - a page lands on one of them - but a
#                   remote access costs no more than a local one:
#                   placement is measurable here, timing is not (the
#                   claims say so)
#   --cpus N        vCPUs (default 2)
#   --mem SIZE      guest memory, qemu's -m (default 4G; 6G or more for
#                   1 GiB pages)
#   --gib-pages N   a 1 GiB hugetlb pool reserved at boot
#                   (hugepagesz=1G hugepages=N; -cpu max has pdpe1gb)
#   --reps N        thpbench run -r N in the guest
#   --file SRC:DEST  one more file in the initramfs (a static test program
#                   a suite names by its path; ./run.sh coverage --selftests)
#   --kernel IMG[:CONFIG]  a prebuilt bzImage (and its .config) instead of
#                   the bundled kernel; it needs CONFIG_NUMA_EMU for --nodes
#   -- RUN ARGS     more `thpbench run` options for the guest (--thp ...)
#
# Builds (or takes from the cache) the kernel and a static thpbench, packs
# the suite into an initramfs, boots it (KVM when a probe boot proves it
# works, else TCG: emulated, so times are not hardware timings), brings
# results.json back over the serial console and prints its summary and
# claim table (`thpbench show`). Everything lands in a new
# results/guest-SUITE-DATE[-N]/ (or --out, which must not exist).
# Exit: 0 ok; 2 any error; 130 interrupted.
set -Eeuo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"
S=$KP_DIR/scripts
trap 'exit 2' ERR

suite='' nodes=2 cpus=2 mem=4G gib=0 reps='' accel=auto timeout=3600
arch=x86_64
prebuilt=''
outdir='' jobs=$(nproc)
extra=()
more_files=()

count_arg() # NAME VALUE MIN: a whole number >= MIN
{
	case $2 in ''|*[!0-9]*) kp_die "$1 takes a whole number ('$2')" ;; esac
	[ "$2" -ge "$3" ] || kp_die "$1 must be at least $3 ('$2')"
}

while [ $# -gt 0 ]; do
	case $1 in
	--nodes) nodes=${2:?}; shift 2 ;;
	--cpus) cpus=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--gib-pages) gib=${2:?}; shift 2 ;;
	--reps|-r) reps=${2:?}; shift 2 ;;
	--kernel) prebuilt=${2:?}; shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--out) outdir=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--arch) arch=${2:?}; shift 2 ;;
	--file) more_files+=(--file "${2:?}"); shift 2 ;;
	--) shift; extra=("$@"); break ;;
	-h|--help) kp_help ;;
	-*) kp_die "unknown option '$1' (see --help)" ;;
	*) kp_one_suite "$1"; shift ;;
	esac
done
kp_suite_given
count_arg --nodes "$nodes" 1
case $arch in
x86_64|x86) arch=x86_64 ;;
arm64|aarch64) arch=arm64
	[ "$nodes" = 1 ] || kp_die "--arch arm64: give --nodes 1 (arm64 6.1 has no numa=fake)"
	[ -z "${prebuilt:-}" ] || kp_die "--arch arm64: --kernel takes an x86 bzImage; the arm64 kernel is built"
	"$REPO_DIR/scripts/arm64-deps.sh" || kp_die "the arm64 cross toolchain is missing (scripts/arm64-deps.sh)"
	[ "$accel" != auto ] || [ "$(uname -m)" = aarch64 ] || accel=tcg ;;
*) kp_die "--arch must be x86_64 or arm64, not '$arch'" ;;
esac
count_arg --cpus "$cpus" 1
count_arg --gib-pages "$gib" 0
count_arg --timeout "$timeout" 1
[ -z "$reps" ] || count_arg --reps "$reps" 1
case $mem in *[!0-9GgMm]*|''|[GgMm]*) kp_die "--mem takes a size such as 4G or 4096M ('$mem')" ;; esac
case $accel in auto|kvm|tcg) ;; *) kp_die "--accel must be auto, kvm or tcg" ;; esac
[ "$nodes" -le "$cpus" ] ||
	kp_log "warning: $nodes nodes but $cpus CPUs: nodes $cpus and up have memory but no CPU"
# One socket per node, so that each has its own last-level cache: with a
# single one, Linux puts every AMD-like vCPU on node 0 (srat_detect_node
# falls back to the LLC id when no SRAT names a node).
smp=$cpus
if [ "$nodes" -gt 1 ] && [ $((cpus % nodes)) = 0 ]; then
	smp="$cpus,sockets=$nodes"
elif [ "$nodes" -gt 1 ]; then
	kp_log "warning: $cpus CPUs do not split into $nodes sockets: on AMD-like vCPUs all will sit on node 0"
fi
suite=$(cd "$(dirname "$suite")" && pwd)/$(basename "$suite")
name=$(kp_release_slug "$(basename "$suite" .conf)")

"$S/install-deps.sh" || kp_die "missing Debian packages (see above)"
kp_need_cmd make gcc setsid
[ -n "${THPBENCH_QEMU:-}" ] || kp_need_cmd qemu-system-x86_64

# The results directory, and what every way out does (common.sh): a run
# that stops before booting leaves none.
kp_flow_outdir "$outdir" "guest-$name"
kp_flow_traps console.log
kp_log "results directory: $outdir"

# 1. The kernel (NUMA_EMU is in thpbench.config) and static binaries.
kdir=$outdir/kernel
if [ -n "$prebuilt" ]; then
	img=${prebuilt%%:*}
	cfg=''
	[ "$img" = "$prebuilt" ] || cfg=${prebuilt#*:}
	[ -f "$img" ] || kp_die "--kernel: '$img' not found"
	rel=$(kp_bzimage_release "$img") || kp_die "--kernel: '$img' is not an x86 bzImage (no HdrS header)"
	mkdir -p "$kdir"
	cp "$img" "$kdir/bzImage"
	if [ -n "$cfg" ]; then
		[ -f "$cfg" ] || kp_die "--kernel: config '$cfg' not found"
		cp "$cfg" "$kdir/config"
	else
		kp_log "warning: no config given for --kernel; cannot check it has CONFIG_NUMA_EMU"
	fi
else
	kp_step "$S/build-kernel.sh" --jobs "$jobs" --arch "$arch" > "$outdir/.kernel"
	kdir=$(cat "$outdir/.kernel")
	rm -f "$outdir/.kernel"
	rel=$(cat "$kdir/kernelrelease")
	cp "$kdir/build.log" "$outdir/build-kernel.log"
fi
[ ! -f "$kdir/config" ] || [ "$nodes" = 1 ] || grep -qx 'CONFIG_NUMA_EMU=y' "$kdir/config" ||
	kp_die "kernel $rel has no CONFIG_NUMA_EMU=y: numa=fake=$nodes would do nothing ($kdir/config)"
if [ -n "${THPBENCH_AB_STATIC:-}" ]; then
	sdir=$THPBENCH_AB_STATIC
else
	kp_static_dir "$arch"
fi

# 2. The initramfs: the suite, and the run's arguments.
rargs=()
[ -z "$reps" ] || rargs=(--reps "$reps")
files=()
[ ! -f "$kdir/config" ] || files=(--file "$kdir/config:/boot/config-$rel")
"$S/mkinitramfs.sh" -o "$outdir/initramfs.gz" --suite "$suite" \
	--thpbench "$sdir/harness/thpbench" --workloads "$sdir/workloads" --arch "$arch" \
	"${rargs[@]}" "${files[@]}" "${more_files[@]}" -- "${extra[@]}"
cp "$suite" "$outdir/suite.conf"

# 3. One boot.
kparams=''
[ "$nodes" = 1 ] || kparams="numa=fake=$nodes"
[ "$gib" = 0 ] || kparams="${kparams:+$kparams }hugepagesz=1G hugepages=$gib"
accel_line=requested
if [ "$accel" = auto ] && cached=$(kp_accel_cached); then
	accel=${cached%% *}
	accel_line=${cached#* }
fi
kp_log "booting $rel: $cpus CPUs, $mem, $nodes NUMA nodes ($kparams), accel $accel"
kp_step "$S/boot.sh" --kernel "$kdir/bzImage" --initrd "$outdir/initramfs.gz" \
	--log "$outdir/console.log" --label "$rel" --accel "$accel" \
	--mem "$mem" --smp "$smp" --timeout "$timeout" --append "$kparams" --arch "$arch" \
	> "$outdir/.accel" || kp_die "the guest failed; console: $outdir/console.log"
line=$(head -n 1 "$outdir/.accel")
rm -f "$outdir/.accel"
if [ "$accel" = auto ]; then
	line=${line#accel=}
	accel=${line%% *}
	accel_line=${line#"$accel" (}
	accel_line=${accel_line%)}
	kp_accel_remember "$accel" "$accel_line"
fi

# 4. Results, stamped with the topology they were measured on.
status=$("$S/extract-results.sh" "$outdir/console.log" "$outdir/results.json") ||
	kp_die "no complete results from the guest (console: $outdir/console.log)"
[ "$status" = status=0 ] ||
	kp_log "warning: thpbench in the guest exited with ${status#status=}; see console.log"
emulated=false
[ "$accel" != tcg ] || emulated=true
kp_tb provenance "$outdir/results.json" --key guest --timings "$(kp_timings_word "$accel")" \
	kernel="$rel" nodes:="$nodes" cpus:="$cpus" mem="$mem" gib_pages:="$gib" \
	cmdline="$kparams" accel="$accel" accel_reason="$accel_line" \
	numa="emulated (numa=fake)" emulated_timings:="$emulated"
tb=$REPO_DIR/harness/thpbench
[ -x "$tb" ] || make -C "$REPO_DIR" harness/thpbench > /dev/null ||
	kp_die "cannot build harness/thpbench to print the results"
{
	printf 'Guest: %s, %s CPUs, %s, %s NUMA nodes (numa=fake), accel %s (%s)\n' \
		"$rel" "$cpus" "$mem" "$nodes" "$accel" "$accel_line"
	[ "$accel" != tcg ] || printf 'NOTE: TCG emulates the CPU: counts and placement are exact, times are not.\n'
	"$tb" show "$outdir/results.json"
} > "$outdir/summary.txt"
cat "$outdir/summary.txt"
kp_log "everything is in $outdir"
