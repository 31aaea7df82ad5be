#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel A/B for one patch series, end to end, in qemu.
#
#   ./run.sh ab SERIES [options]              SERIES: a directory of *.patch
#                                             or an mbox (format-patch, b4 am)
#   ./run.sh ab --tree DIR --base REF --new REF [O=OBJDIR] [options]
#                                             A = base, B = base + base..new
#   ./run.sh ab --kernel-a IMG[:CONFIG] --kernel-b IMG[:CONFIG] --suite FILE
# options:
#   --suite FILE        suite run in the guest (default SERIES/suite.conf)
#   --kernel-src SRC    tarball or directory A is built from (default Debian's 6.1)
#   O=DIR, --obj DIR    the kernels' build directory (empty or made by an
#                       earlier run; kept, so the next run is incremental)
#   --config tinyconfig|defconfig|FILE   base configuration (default
#                       tinyconfig), kernel-patches/thpbench.config merged over it
#   --kernel-a, --kernel-b IMG[:CONFIG]  a prebuilt bzImage (and its config)
#   --name NAME         series name (results directory and reports; a label:
#                       the kernels are named by their content)
#   --fail-on regression   exit 1 when a verdict is a regression
#   --kexec             one guest boots A and kexecs B, A, B ... (the
#                       bare-metal sequence, kexec_file_load from init);
#                       the same as --backend kexec
#   --backend qemu|kexec|lava   how kernels are booted: qemu (default, one
#                       guest a boot), kexec (above), or lava: each boot a
#                       LAVA job run by lava-run on a qemu device
#                       (configs/lava/README.md; busybox goes into the
#                       initramfs for LAVA's test shell)
#   --devices N         lava: N devices, N boots at once: each round boots
#                       A and B together, on devices that swap every
#                       round, so a device's drift hits both kernels
#                       (default 1: one job at a time)
#   --lava-device FILE  lava: the lava-run device file (default
#                       configs/lava/devices/qemu-thpbench.yaml)
#   --lava-lab FILE     lava: submit the jobs to a LAVA server instead of
#                       running lava-run here (FILE: the lab.env of
#                       kernel-patches/scripts/lava-lab.sh; its scheduler
#                       picks among the devices of type qemu; --devices N
#                       jobs are in its queue at once)
#   --profile           after the A/B, one more boot per kernel whose
#                       repetitions are profiled (thpbench run --profile
#                       --profile-freq 100000; Debian's perf and the
#                       kernels' System.map in a second initramfs; the
#                       kernels built with their symbol table,
#                       CONFIG_KALLSYMS: another cache key). Under TCG that
#                       boot runs with qemu -icount shift=3 on one vCPU, so
#                       guest time is instructions and a sample is 1250 of
#                       them: in real time TCG's stalls get the samples.
#                       The measured boots are not profiled. The cover
#                       letter gets "where the time went" from the profile
#                       boots (docs/profiles.md)
#   --coverage          after the A/B, kernel B built again with gcov (its
#                       own cache key; the A/B kernels are not instrumented)
#                       and booted once: which kernel lines the suite ran and
#                       which changed lines of the series (./run.sh coverage;
#                       the cover letter says "the suite ran X of Y changed
#                       lines"; docs/kernel-coverage.md)
#   --boots N --reps N --accel auto|kvm|tcg --mem SIZE --smp N
#   --timeout SEC --out DIR --jobs N
#   --arch x86_64|arm64 the guest's architecture (default x86_64): arm64
#                       cross-builds the kernels, the static harness and
#                       init, and boots qemu-system-aarch64 -M virt (TCG on
#                       a non-arm64 host; docs/arm64.md)
#
#  1. builds kernel A (the tree) and B (the tree + the series), each cached
#     by a hash of tree, patches' content and configuration (build-kernel.sh);
#  2. static thpbench + workloads (built once per source state) and an
#     initramfs with them, the suite and a tiny init (mkinitramfs.sh);
#  3. boots A, B, A, B ... (--boots N each) in qemu, KVM when a probe boot
#     proves it works, TCG otherwise; each guest runs the suite and sends
#     results.json back over the serial console (boot.sh, extract-results.sh);
#  4. merges each kernel's boots, runs `thpbench compare` and `plot`, and
#     prints the comparison (with N >= 3 boots also one sample per boot).
# Everything lands in a new results/ab-NAME-DATE[-N]/ (or --out, which must
# not exist yet); nothing is left there when the run fails before a boot.
# Exit: 0 ok; 1 a --fail-on gate failed; 2 any error; 130 interrupted.
set -Eeuo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"
S=$KP_DIR/scripts
kp_trap_err

series='' suite='' src=$DEFAULT_KERNEL_SRC boots=1 reps='' accel=auto mem=6G smp=2
timeout=1800 outdir='' jobs=$(nproc) fail_on='' config=tinyconfig name=''
tree='' base='' new='' preA='' preB='' kexec=0 objdir='' tree_arg='' series_arg=''
arch=x86_64 profile=0 coverage=0 coverage_line='' backend=qemu devices=1
lava_device=$REPO_DIR/configs/lava/devices/qemu-thpbench.yaml lava_lab=''
# The profile boots' sample rate: perf's most (profile.h PROFILE_FREQ_MAX).
PROFILE_FREQ=100000
# ... in guest time of 2^3 ns per instruction (-icount shift=3, TCG).
PROFILE_ICOUNT_SHIFT=3

# The arguments as typed, and where each --out sat (see ab_command).
ab_args=("$@")
out_at=""

while [ $# -gt 0 ]; do
	case $1 in
	--suite) suite=${2:?}; shift 2 ;;
	--kernel-src) src=${2:?}; shift 2 ;;
	--tree) tree=${2:?}; shift 2 ;;
	--base) base=${2:?}; shift 2 ;;
	--new) new=${2:?}; shift 2 ;;
	--config) config=${2:?}; shift 2 ;;
	--kernel-a) preA=${2:?}; shift 2 ;;
	--kernel-b) preB=${2:?}; shift 2 ;;
	--name) name=${2:?}; shift 2 ;;
	--fail-on) fail_on=${2:?}; shift 2 ;;
	--kexec) kexec=1; backend=kexec; shift ;;
	--backend) backend=${2:?}; shift 2 ;;
	--devices) devices=${2:?}; shift 2 ;;
	--lava-device) lava_device=${2:?}; shift 2 ;;
	--lava-lab) lava_lab=${2:?}; shift 2 ;;
	--profile) profile=1; shift ;;
	--coverage) coverage=1; shift ;;
	--boots) boots=${2:?}; shift 2 ;;
	--reps|-r) reps=${2:?}; shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--out) outdir=${2:?}; out_at+=" $((${#ab_args[@]} - $#)) "; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--arch) arch=${2:?}; shift 2 ;;
	--obj) objdir=${2:?}; shift 2 ;;
	O=?*) objdir=${1#O=}; shift ;;
	-h|--help) kp_help ;;
	-*) kp_die "unknown option '$1' (see --help)" ;;
	*) [ -z "$series" ] || kp_die "one series at a time ('$series' and '$1')"
	   series=$1; shift ;;
	esac
done

case $backend in
qemu) ;;
kexec) kexec=1 ;;
lava)
	[ "$arch" = x86_64 ] || kp_die "--backend lava: x86_64 guests only for now (the qemu device file is x86)"
	[ "$profile" = 0 ] && [ "$coverage" = 0 ] ||
		kp_die "--backend lava: --profile and --coverage need the qemu backend"
	[ -f "$lava_device" ] || kp_die "--lava-device $lava_device: not found" ;;
*) kp_die "--backend must be qemu, kexec or lava" ;;
esac
case $devices in ''|*[!0-9]*|0) kp_die "--devices must be a whole number >= 1" ;; esac
[ "$devices" = 1 ] || [ "$backend" = lava ] || kp_die "--devices: only with --backend lava"
[ -z "$lava_lab" ] || [ "$backend" = lava ] || kp_die "--lava-lab: only with --backend lava"

# The command as typed, to reproduce the run (run.sh says it is "./run.sh ab"),
# less --out DIR: that names this run's directory, the next run needs another.
ab_command=${THPBENCH_AB_CALLER:-$0}
for i in "${!ab_args[@]}"; do
	case $out_at in *" $i "*|*" $((i - 1)) "*) continue ;; esac
	ab_command+=" $(printf "%q" "${ab_args[i]}")"
done

# What to compare: a series (directory or mbox), a git range, prebuilt images.
if [ -n "$tree$base$new" ]; then
	[ -z "$series" ] || kp_die "give a series or --tree/--base/--new, not both"
	[ -n "$tree" ] && [ -n "$base" ] && [ -n "$new" ] ||
		kp_die "a git range needs all of --tree DIR --base REF --new REF"
	tree_arg=$tree
	tree=$(cd "$tree" && pwd)
	src=$tree
	[ -n "$name" ] || name=$(git -C "$tree" describe --always "$new" 2>/dev/null || echo "$new")
	source_desc="git $tree $base..$new"
elif [ -n "$series" ]; then
	[ -e "$series" ] || kp_die "series '$series' not found (a directory of patches or an mbox; try kernel-patches/000-mremap-thp-pmd-move)"
	series_arg=$series
	series=$(cd "$(dirname "$series")" && pwd)/$(basename "$series")
	if [ -d "$series" ]; then
		[ -n "$name" ] || name=$(basename "$series")
		[ -n "$suite" ] || [ ! -f "$series/suite.conf" ] || suite=$series/suite.conf
		source_desc="dir $series"
	else
		[ -n "$name" ] || name=$(basename "$series" | sed 's/\.\(mbx\|mbox\|patch\)$//')
		source_desc="mbox $series"
	fi
elif [ -n "$preA" ] && [ -n "$preB" ]; then
	[ -n "$name" ] || name=prebuilt
	source_desc=prebuilt
else
	kp_usage
fi
[ -n "$series$tree" ] || [ -n "$preB" ] ||
	kp_die "kernel B needs a series (SERIES or --tree/--base/--new) or --kernel-b"
[ "$coverage" = 0 ] || { [ -n "$series$tree" ] && [ -z "$preB" ]; } ||
	kp_die "--coverage builds kernel B with gcov: it needs a series (SERIES or --tree/--base/--new), not --kernel-b"
case $boots in ''|*[!0-9]*|0) kp_die "--boots must be a positive number" ;; esac
case $fail_on in ''|regression) ;; *) kp_die "--fail-on takes 'regression'" ;; esac
case $accel in auto|kvm|tcg) ;; *) kp_die "--accel must be auto, kvm or tcg" ;; esac
case $arch in
x86_64|x86) arch=x86_64 qemu_bin=qemu-system-x86_64 ;;
arm64|aarch64) arch=arm64 qemu_bin=qemu-system-aarch64
	[ -z "$preA$preB" ] || kp_die "--kernel-a/--kernel-b take an x86 bzImage; with --arch arm64 the kernels are built"
	[ "$kexec" = 0 ] || kp_die "--kexec is x86 only for now (--arch arm64)"
	[ "$coverage" = 0 ] || kp_die "--coverage is x86 only for now (--arch arm64)"
	"$REPO_DIR/scripts/arm64-deps.sh" || kp_die "the arm64 cross toolchain is missing (scripts/arm64-deps.sh)" ;;
*) kp_die "--arch must be x86_64 or arm64, not '$arch'" ;;
esac
QEMU_BIN=${THPBENCH_QEMU:-$qemu_bin}
name=$(kp_release_slug "$name")
[ -n "$name" ] || kp_die "the series name is empty once made file-name safe (--name)"

# A series directory without patches says why before anything is built.
if [ -d "$series" ] && [ -z "$(kp_series_patches "$series")" ]; then
	[ ! -f "$series/README.md" ] || kp_die "no patches in $series: see its README ($series/README.md)"
	kp_die "no *.patch file in $series"
fi
[ -n "$suite" ] || kp_die "no suite: pass --suite FILE (a guest-sized one, e.g. kernel-patches/000-mremap-thp-pmd-move/suite.conf)"
[ -f "$suite" ] || kp_die "suite '$suite' not found (--suite)"
suite=$(cd "$(dirname "$suite")" && pwd)/$(basename "$suite")
deps=()
[ "$backend" != lava ] || deps=(--lava)
"$S/install-deps.sh" "${deps[@]}" || kp_die "missing Debian packages (see above)"
kp_need_cmd make gcc git setsid
[ "$backend" != lava ] || kp_lava_ready "$lava_lab"
[ -n "${THPBENCH_QEMU:-}" ] || kp_need_cmd "$qemu_bin"

# The results directory, and what every way out does (common.sh): a run
# that stops before any boot leaves none.
kp_flow_outdir "$outdir" "ab-$name"
kp_flow_traps 'console-*.log'
kp_log "results directory: $outdir"

# How long each step took: said at the end, kept in ab.json (timings_s).
t_steps=() t_last=$SECONDS t_begin=$SECONDS
took()
{
	t_steps+=("$1=$((SECONDS - t_last))")
	t_last=$SECONDS
}
# "built" or "cached": whether kernel dir $1 was made after stamp $2.
built_or_cached() { if [ "$1/ok" -nt "$2" ]; then echo built; else echo cached; fi; }

# 1. Kernels.
# A prebuilt image: its release from the image header, its config when given.
prebuilt()
{
	local side=$1 spec=$2 img cfg='' rel dir missing n
	img=${spec%%:*}
	[ "$img" = "$spec" ] || cfg=${spec#*:}
	[ -f "$img" ] || kp_die "--kernel-${side,,}: '$img' not found"
	rel=$(kp_bzimage_release "$img") || kp_die "--kernel-${side,,}: '$img' is not an x86 bzImage (no HdrS header)"
	dir=$outdir/kernel-$side
	mkdir -p "$dir"
	ln -s "$(cd "$(dirname "$img")" && pwd)/$(basename "$img")" "$dir/bzImage"
	printf '%s\n' "$rel" > "$dir/kernelrelease"
	printf 'tree=prebuilt:%s\n' "$(kp_sha256_stdin < "$img")" > "$dir/inputs"
	: > "$dir/patches"
	: > "$dir/patch-ids"
	echo "prebuilt $img" > "$dir/build.log"
	if [ -n "$cfg" ]; then
		[ -f "$cfg" ] || kp_die "--kernel-${side,,}: config '$cfg' not found"
		cp "$cfg" "$dir/config"
		missing=
		for n in $KERNEL_NEEDS; do grep -qxF "$n" "$cfg" || missing="$missing $n"; done
		[ -z "$missing" ] || kp_die "--kernel-${side,,}: $cfg lacks what the suite needs:$missing"
	else
		kp_log "warning: no config given for --kernel-${side,,}; cannot check it has THP, hugetlbfs, perf events ..."
	fi
	printf '%s\n' "$dir"
}

kargs=(--kernel-src "$src" --config "$config" --jobs "$jobs" --arch "$arch")
[ -z "$tree" ] || kargs+=(--git-ref "$base")
[ -z "$objdir" ] || kargs+=(--obj "$objdir")
[ "$profile" = 0 ] || kargs+=(--system-map --kallsyms)
if [ -n "$series$tree" ] && [ -z "$preB" ]; then
	if [ -n "$tree" ]; then
		"$S/series.sh" -o "$outdir/series" --tree "$tree" --base "$base" --new "$new" > /dev/null
	else
		"$S/series.sh" -o "$outdir/series" "$series" > /dev/null
	fi
	took series
fi
if [ -n "$preA" ]; then
	kA=$(prebuilt A "$preA")
else
	touch "$outdir/.stamp"
	kp_step "$S/build-kernel.sh" "${kargs[@]}" > "$outdir/.kernel"
	kA=$(cat "$outdir/.kernel")
	took "kernel A ($(built_or_cached "$kA" "$outdir/.stamp"))"
fi
if [ -n "$preB" ]; then
	kB=$(prebuilt B "$preB")
else
	touch "$outdir/.stamp"
	kp_step "$S/build-kernel.sh" "${kargs[@]}" --series "$outdir/series" --name "$name" > "$outdir/.kernel"
	kB=$(cat "$outdir/.kernel")
	took "kernel B ($(built_or_cached "$kB" "$outdir/.stamp"))"
fi
rm -f "$outdir/.kernel" "$outdir/.stamp"
relA=$(cat "$kA/kernelrelease")
relB=$(cat "$kB/kernelrelease")
[ "$relA" != "$relB" ] ||
	kp_die "kernels A and B both report '$relA' (uname -r); give them different LOCALVERSIONs"
cp "$kA/build.log" "$outdir/build-A.log"
cp "$kB/build.log" "$outdir/build-B.log"
kp_log "kernel A: $relA ($kA)"
kp_log "kernel B: $relB ($kB)"

# 2. Static harness and workloads (static_dir, common.sh).
# THPBENCH_AB_STATIC: a directory with harness/thpbench and workloads/ built
# elsewhere (static), used as it is.
if [ -n "${THPBENCH_AB_STATIC:-}" ]; then
	sdir=$THPBENCH_AB_STATIC
else
	kp_static_dir "$arch"
fi
took "static harness"
[ -z "${THPBENCH_AB_STATIC:-}" ] || [ ! -f "$sdir/build.log" ] || cp "$sdir/build.log" "$outdir/build-static.log"
rargs=()
[ -z "$reps" ] || rargs=(--reps "$reps")
files=(--file "$kA/config:/boot/config-$relA")
[ -f "$kA/config" ] || files=()
[ ! -f "$kB/config" ] || files+=(--file "$kB/config:/boot/config-$relB")
if [ "$kexec" = 1 ]; then
	for k in A B; do
		eval "kdir=\$k$k"
		# shellcheck disable=SC2154
		grep -qx 'CONFIG_KEXEC_FILE=y' "$kdir/config" 2>/dev/null ||
			kp_die "--kexec: kernel $k has no CONFIG_KEXEC_FILE=y in its config (thpbench.config sets it)"
	done
	files+=(--kexec "A:$kA/bzImage:$relA" --kexec "B:$kB/bzImage:$relB")
fi
prof=() pfiles=()
if [ "$profile" = 1 ]; then
	kp_need_cmd perf
	for k in A B; do
		eval "kdir=\$k$k rel=\$rel$k"
		[ -f "$kdir/System.map" ] || kp_die "--profile: kernel $k has no System.map ($kdir)"
		pfiles+=(--file "$kdir/System.map:/boot/System.map-$rel")
	done
	prof=(--perf "$(command -v perf)" -- --profile --profile-freq "$PROFILE_FREQ")
fi
[ "$backend" != lava ] || files+=(--busybox "$(command -v busybox)")
initramfs=("$S/mkinitramfs.sh" --suite "$suite" --thpbench "$sdir/harness/thpbench"
	--workloads "$sdir/workloads" --arch "$arch" "${rargs[@]}" "${files[@]}")
"${initramfs[@]}" -o "$outdir/initramfs.gz"
# The profile boots' own archive: the measured boots carry no perf.
[ "$profile" = 0 ] ||
	"${initramfs[@]}" -o "$outdir/initramfs-profile.gz" "${pfiles[@]}" "${prof[@]}"
cp "$suite" "$outdir/suite.conf"
took initramfs

# Provenance: what exactly ran, in ab.json and in every results.json, as
# thpbench provenance pairs (the binary writes the JSON).
cfg_sha() { if [ -f "$1/config" ]; then kp_sha256_stdin < "$1/config"; else echo null; fi; }
tree_of() { sed -n 's/^tree=//p' "$1/inputs"; }
tb_version=$(git -C "$REPO_DIR" describe --always --dirty 2>/dev/null || echo unknown)
# This run's patches (a cached kernel B may have been built from the same
# diffs under other file names), each with what the author gave: the
# file of a directory, the mail of an mbox, the commit of a range.
if [ -f "$outdir/series/patch-ids" ]; then pids=$outdir/series/patch-ids; else pids=$kB/patch-ids; fi
subject_of() { sed -n '/^Subject: /{s/^Subject: *//; p; q}' "$1"; }
given_of()
{
	local i=$1 file=$2
	if [ -n "$tree" ]; then
		git -C "$tree" log -1 --format='%h %s' "$(sed -n "${i}p" "$outdir/.commits")"
	elif [ -d "$series" ]; then
		printf '%s\n' "$file"
	else
		printf '%s #%d: %s\n' "$series_arg" "$i" "$(subject_of "$outdir/series/$file")"
	fi
}
# What kernels A and B are, in words.
new_desc=
if [ -n "$preB" ]; then new_desc="prebuilt ${preB%%:*}"; fi
if [ -n "$preA" ]; then
	base_desc="prebuilt ${preA%%:*}"
elif [ -n "$tree" ]; then
	base_desc="$tree_arg at $base ($(git -C "$tree" rev-parse --short=12 "$base^{commit}"))"
else
	base_desc=$(basename "$src")
fi
prov=(series="$name" source="$source_desc" base="$base_desc")
if [ -n "$new_desc" ]; then prov+=(new="$new_desc"); else prov+=(new:=null); fi
prov+=(patches:=[])
[ -z "$tree" ] || git -C "$tree" rev-list --reverse --no-merges "$base..$new" > "$outdir/.commits"
i=0
while read -r pid file; do
	prov+=("patches.$i.patch_id=$pid" "patches.$i.file=$file" "patches.$i.given=$(given_of $((i + 1)) "$file")")
	i=$((i + 1))
done < "$pids"
rm -f "$outdir/.commits"
prov+=(command="$ab_command" "reps:=${reps:-null}" suite="$(basename "$suite")"
	suite_sha256="$(kp_sha256_stdin < "$suite")" base_config="$config"
	compiler="$(if [ "$arch" = arm64 ]; then aarch64-linux-gnu-gcc --version; else gcc --version; fi | head -n 1)" thpbench_version="$tb_version")
# The host: the guest's env describes the guest, not the machine. Its
# hypervisor as the kernel detected it (thpbench list --hypervisor), not
# the cpuid signature systemd-detect-virt reads (a PVM host says "bhyve").
tb=$KP_TB
host_virt=$(kp_tb list --hypervisor) ||
	host_virt=unknown
prov+=(host.cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	host.nr_cpus:="$(nproc)" host.kernel="$(uname -r)" host.hostname="$(hostname)"
	host.virt="$host_virt")
# The kernel in directory $1 (release $2) as pairs under $3 (kernel,
# kernels.A), NUL-separated.
kernel_pairs()
{
	local cfg
	cfg=$(cfg_sha "$1")
	if [ "$cfg" = null ]; then cfg=config_sha256:=null; else cfg=config_sha256=$cfg; fi
	printf '%s\0' "$3.release=$2" "$3.tree=$(tree_of "$1")" "$3.$cfg" "$3.cache=$1"
}
mapfile -d '' kpairsA < <(kernel_pairs "$kA" "$relA" kernel)
mapfile -d '' kpairsB < <(kernel_pairs "$kB" "$relB" kernel)

# 3. Boots, interleaved A B A B ...
# One qemu run: kernel $1, boot $2, console $3, more kernel parameters $4,
# time limit $5; a profile boot (profile_boots) gives the initramfs $6,
# the vCPUs $7 and more boot.sh arguments after them.
qemu_run()
{
	local k=$1 i=$2 console=$3 more=$4 limit=$5 initrd=${6:-$outdir/initramfs.gz}
	local vcpus=${7:-$smp} img rel line
	shift $(( $# < 7 ? $# : 7 ))
	if [ "$k" = A ]; then img=$kA/bzImage rel=$relA; else img=$kB/bzImage rel=$relB; fi
	kp_step "$S/boot.sh" --kernel "$img" --initrd "$initrd" \
		--log "$console" --label "$rel" --boot "$i" \
		--accel "$accel" --mem "$mem" --smp "$vcpus" --timeout "$limit" --arch "$arch" \
		--append "$kparams$more" "$@" > "$outdir/.accel" ||
		kp_die "boot of kernel $k failed; console: $console"
	line=$(head -n 1 "$outdir/.accel")
	rm -f "$outdir/.accel"
	if [ "$accel" = auto ]; then
		line=${line#accel=}
		accel=${line%% *}
		accel_line=${line#"$accel" }
		accel_line=${accel_line#(}
		accel_line=${accel_line%)}
		kp_log "accelerator: $accel ($accel_line)"
		kp_accel_remember "$accel" "$accel_line"
	fi
}

# Results of kernel $2 out of console $4 (a kexec chain's step $6) into
# directory $1, named $3 in messages, meta.timings $5, more provenance
# pairs after them.
collect_into()
{
	local dir=$1 k=$2 what=$3 console=$4 timings=$5 sel=() status
	[ -z "$6" ] || sel=(--step "$6")
	shift 6
	mkdir -p "$dir"
	status=$("$S/extract-results.sh" "${sel[@]}" "$console" "$dir/results.json") ||
		kp_die "no complete results from kernel $k, $what (console: $console)"
	[ "$status" = status=0 ] ||
		kp_log "warning: thpbench in the guest exited with ${status#status=} (kernel $k, $what); see $console"
	local kpairs=("${kpairsA[@]}")
	[ "$k" = A ] || kpairs=("${kpairsB[@]}")
	kp_tb provenance "$dir/results.json" --timings "$timings" \
		"${prov[@]}" side="$k" "${kpairs[@]}" "$@"
}
# Kernel $1, boot $2 out of console $3 (a kexec chain's step $4).
collect()
{
	collect_into "$outdir/$1-$2" "$1" "boot $2" "$3" "$(kp_timings_word "$accel")" \
		"${4:-}" boot:="$2"
}

# Kernel parameters the series needs (e.g. a boot-time 1 GiB hugetlb pool:
# at run time a 3 GiB guest rarely has a free, movable, aligned 1 GiB).
# The default 6 GiB of guest memory is for that too: early allocations
# (memmap) are placed top-down, so only with RAM above 5 GiB does one
# aligned gigabyte (4-5 GiB) stay free for it. TCG allocates host memory
# only as the guest touches it.
kparams=
if [ -d "$series" ] && [ -f "$series/cmdline" ]; then
	kparams=$(sed 's/#.*//' "$series/cmdline" | tr -s ' \n' '  ')
	kp_log "kernel parameters from $series/cmdline: $kparams"
fi
accel_line="requested"
# The KVM probe costs up to a minute when KVM does not work (nested KVM
# here): its answer is kept for a day (accel_cached, common.sh).
# An arm64 guest on another host's CPU: only TCG can run it.
if [ "$accel" = auto ] && [ "$arch" = arm64 ] && [ "$(uname -m)" != aarch64 ]; then
	accel=tcg
	accel_line="arm64 guest on a $(uname -m) host: emulated"
	kp_log "accelerator: $accel ($accel_line)"
fi
if [ "$accel" = auto ] && cached_accel=$(kp_accel_cached); then
	accel=${cached_accel%% *}
	accel_line=${cached_accel#* }
	kp_log "accelerator: $accel ($accel_line)"
fi
# lava: the boots in rounds of $devices jobs at once, in the order
# A1 B1 A2 B2 ...; boot n (from 0) runs on device n mod $devices, except
# that with an even count the pair A_i B_i swaps devices every round
# (device drift hits both kernels). The console and LAVA's files of
# kernel K, boot I are in lava-K-I/.
lava_boots()
{
	local order=() n=0 w k i dev specs=() round
	for i in $(seq 1 "$boots"); do order+=("A $i" "B $i"); done
	for ((w = 0; w < ${#order[@]}; w += devices)); do
		specs=()
		for ((n = w; n < w + devices && n < ${#order[@]}; n++)); do
			k=${order[n]% *} i=${order[n]#* }
			round=$(( n / 2 ))
			dev=$(( (n + round) % devices ))
			[ $(( devices % 2 )) = 0 ] || dev=$(( n % devices ))
			if [ "$k" = A ]; then img=$kA/bzImage; else img=$kB/bzImage; fi
			specs+=(--job "$img,$k,$outdir/console-$k-$i.log,$outdir/lava-$k-$i,$lava_device")
			printf 'lava-dev%d\n' "$((dev + 1))" > "$outdir/.device-$k-$i"
			if [ -n "$lava_lab" ]; then
				kp_log "boot $i/$boots: kernel $k, a job for the LAVA server"
			else
				kp_log "boot $i/$boots: kernel $k on LAVA device lava-dev$((dev + 1))"
			fi
		done
		kp_step "$S/lava-boot.sh" "${specs[@]}" --initrd "$outdir/initramfs.gz" \
			--timeout "$timeout" --accel tcg ${kparams:+--append "$kparams"} \
			${lava_lab:+--lab "$lava_lab"} ||
			kp_die "a LAVA job failed (lava-K-I/lava.log)"
		for ((n = w; n < w + devices && n < ${#order[@]}; n++)); do
			k=${order[n]% *} i=${order[n]#* }
			# On a server its scheduler chose the device.
			[ ! -s "$outdir/lava-$k-$i/device" ] ||
				cp "$outdir/lava-$k-$i/device" "$outdir/.device-$k-$i"
			collect "$k" "$i" "$outdir/console-$k-$i.log"
			kp_tb provenance "$outdir/$k-$i/results.json" --key lava \
				device="$(cat "$outdir/.device-$k-$i")" devices:="$devices" \
				job="lava-$k-$i/job.yaml"
			rm -f "$outdir/.device-$k-$i"
		done
		took "LAVA round $((w / devices + 1)) ($devices at once)"
	done
}
if [ "$backend" = lava ]; then
	accel=tcg accel_line="LAVA qemu device ($(basename "$lava_device"))"
	[ -z "$lava_lab" ] || accel_line="LAVA server $(sed -n 's/^THPBENCH_LAVA_URL=//p' "$lava_lab"), qemu devices"
	lava_boots
elif [ "$kexec" = 1 ]; then
	seq=$(for _ in $(seq 1 "$boots"); do printf AB; done)
	kp_log "one guest: kernel A, then kexec into $(printf '%s' "${seq:1}" | sed 's/./& /g')(thpbench.kexec=$seq)"
	qemu_run A 1 "$outdir/console-kexec.log" " thpbench.kexec=$seq thpbench.step=0" \
		$((timeout * 2 * boots))
	took "boots (kexec chain)"
	for st in $(seq 0 $((2 * boots - 1))); do
		collect "${seq:$st:1}" $((st / 2 + 1)) "$outdir/console-kexec.log" "$st"
	done
else
	for i in $(seq 1 "$boots"); do
		for k in A B; do
			kp_log "boot $i/$boots: kernel $k ($(cat "$( [ "$k" = A ] && echo "$kA" || echo "$kB")/kernelrelease")), accel $accel"
			qemu_run "$k" "$i" "$outdir/console-$k-$i.log" "" "$timeout"
			collect "$k" "$i" "$outdir/console-$k-$i.log"
			took "boot $k-$i"
		done
	done
fi

# 3b. --profile: one more boot per kernel, profiled (docs/profiles.md).
# Under TCG the guest's clock is the host's, and a vCPU that stalls in
# qemu (a softmmu TLB refill after each flush, an MMIO exit) lets it run
# on: the next sample then stands for the whole stall, so a real-time
# profile of a TCG guest shows where qemu is slow (000's A: a 3 ms region
# got 1-6 samples). With -icount shift=N guest time advances 2^N ns per
# instruction executed, and a cpu-clock sample at 100 kHz (perf's most:
# cpu-clock's shortest period is 10 us) is one every 10000 / 2^N
# instructions: the kernel's own work. shift=0 gave A's region 5-6 samples
# (all at the same places in every repetition: icount is deterministic);
# shift=3, a sample every 1250 instructions. icount runs one TCG thread
# and an x86 guest with two vCPUs hangs bringing up the second under it
# (seen with qemu 7.2), so one vCPU. KVM: the same accelerator and vCPUs
# as the measured boots.
profile_boots()
{
	local k popts=() psmp=$smp pdesc
	if [ "$accel" = tcg ]; then
		popts=(--qemu-opt -icount --qemu-opt "shift=$PROFILE_ICOUNT_SHIFT")
		psmp=1
		pdesc="qemu -icount shift=$PROFILE_ICOUNT_SHIFT (guest time: $((1 << PROFILE_ICOUNT_SHIFT)) ns per instruction), 1 vCPU"
	else
		pdesc="qemu $accel, $smp vCPUs"
	fi
	for k in A B; do
		kp_log "profile boot: kernel $k ($(eval "echo \$rel$k")), $pdesc"
		qemu_run "$k" 1 "$outdir/console-profile-$k.log" "" "$timeout" \
			"$outdir/initramfs-profile.gz" "$psmp" "${popts[@]}"
		collect_into "$outdir/profile-$k" "$k" "profile boot" "$outdir/console-profile-$k.log" \
			"profile boot: $pdesc; not the measured boots' timings" "" profile_boot:=true
		took "profile boot $k"
	done
	profile_desc=$pdesc
}
profile_desc=''
[ "$profile" = 0 ] || profile_boots

# 4. Merge, compare, plot.
for k in A B; do
	bfiles=()
	for i in $(seq 1 "$boots"); do bfiles+=("$outdir/$k-$i/results.json"); done
	"$tb" merge "${bfiles[@]}" -o "$outdir/$k.json"
	[ "$boots" -lt 3 ] || "$tb" merge --boot-means "${bfiles[@]}" -o "$outdir/$k-boots.json"
done

{
	printf 'Kernel A/B: %s (%s)\n' "$name" "$source_desc"
	printf '  A = %s (%s)\n  B = %s (%s)\n' "$relA" "$(tree_of "$kA")" "$relB" \
		"$(if [ -s "$pids" ]; then cut -d" " -f2 "$pids" | paste -sd, - | sed 's/,/, /g'; else tree_of "$kB"; fi)"
	printf '  suite %s, %d boot(s) each, interleaved A B A B%s\n' "$(basename "$suite")" "$boots" \
		"$([ "$kexec" = 0 ] || echo ', one guest, kexec from each kernel into the next')"
	printf '  %s, accel=%s (%s), %s RAM, %s vCPUs\n' "$(basename "$QEMU_BIN")" "$accel" "$accel_line" "$mem" "$smp"
	[ -z "$profile_desc" ] ||
		printf '  profiles: one more boot per kernel, %s (profile-A/, profile-B/)\n' "$profile_desc"
	if [ "$accel" = tcg ]; then
		printf '  NOTE: TCG emulates the CPU: event counts (vmstat.*, page-faults) are\n'
		printf '  exact, but times and GB/s are emulated, not hardware timings; they\n'
		printf '  only compare the two kernels under the same emulator.\n'
	fi
	printf '\n'
} > "$outdir/header.txt"

cargs=() pargs=()
[ -z "$fail_on" ] || cargs=(--fail-on "$fail_on")
[ "$profile" = 0 ] ||
	pargs=(--profile-a "$outdir/profile-A/results.json" --profile-b "$outdir/profile-B/results.json")
rc=0
"$tb" compare "$outdir/A.json" "$outdir/B.json" "${cargs[@]}" "${pargs[@]}" > "$outdir/compare.out" 2>&1 || rc=$?
if [ "$rc" -ge 2 ]; then
	cat "$outdir/compare.out" >&2
	kp_die "thpbench compare failed (exit $rc); inputs kept in $outdir"
fi
cat "$outdir/header.txt" "$outdir/compare.out" > "$outdir/comparison.txt"
rm -f "$outdir/compare.out"
{
	sed 's/^/    /' "$outdir/header.txt"
	"$tb" compare "$outdir/A.json" "$outdir/B.json" --format md "${pargs[@]}" 2>/dev/null || true
} > "$outdir/comparison.md"
if [ "$boots" -ge 3 ]; then
	{
		cat "$outdir/header.txt"
		printf 'Across boots (one sample per boot: the mean of its repetitions)\n\n'
		"$tb" compare "$outdir/A-boots.json" "$outdir/B-boots.json" 2>&1 || true
	} > "$outdir/comparison-boots.txt"
fi
"$tb" plot "$outdir/A.json" "$outdir/B.json" -o "$outdir/plots" \
	> "$outdir/plot.log" 2>&1 || kp_log "warning: thpbench plot failed; see $outdir/plot.log"
# The profile chart from the profile boots (their other charts are of
# icount timings: not kept).
if [ "$profile" = 1 ]; then
	"$tb" plot "$outdir/profile-A/results.json" "$outdir/profile-B/results.json" \
		-o "$outdir/plots-profile" >> "$outdir/plot.log" 2>&1 ||
		kp_log "warning: thpbench plot of the profile boots failed; see $outdir/plot.log"
	for f in "$outdir"/plots-profile/*-profile.*; do
		[ ! -f "$f" ] || mv "$f" "$outdir/plots/"
	done
	rm -rf "$outdir/plots-profile"
fi
# The block for a cover letter: what changed, the environment, how to
# reproduce it, the charts (72 columns, plain text).
charts=()
for f in "$outdir"/plots/*-change.png "$outdir"/plots/*-dist.png "$outdir"/plots/*-profile.png; do
	[ ! -f "$f" ] || charts+=(--chart "plots/$(basename "$f")")
done
"$tb" compare "$outdir/A.json" "$outdir/B.json" --format cover "${charts[@]}" "${pargs[@]}" \
	> "$outdir/cover-letter.txt" 2>> "$outdir/plot.log" ||
	kp_log "warning: no cover letter (thpbench compare --format cover failed; see $outdir/plot.log)"
[ -z "$profile_desc" ] || {
	printf '\nProfiles: one more boot per kernel, each repetition profiled by perf\n'
	printf '(%s Hz); the timings above are from the measured boots, which\n' "$PROFILE_FREQ"
	printf 'were not profiled. Profile boots: %s.\n' "$profile_desc" | fold -s -w 72 | sed 's/ *$//'
} >> "$outdir/cover-letter.txt"
took "compare and plot"
# Coverage: kernel B again, with gcov, one boot (coverage.sh); its
# sentence goes into the cover letter.
if [ "$coverage" = 1 ]; then
	cov=(--kernel-src "$src" --config "$config" --jobs "$jobs" --mem "$mem"
		--timeout "$timeout" --out "$outdir/coverage")
	if [ -n "$tree" ]; then
		cov+=(--tree "$tree" --base "$base" --new "$new")
	else
		cov+=(--series "$outdir/series")
	fi
	kp_log "coverage: kernel B with gcov, one boot (log: $outdir/coverage.log)"
	kp_step "$S/coverage.sh" "$suite" "${cov[@]}" > "$outdir/coverage.log" 2>&1 ||
		kp_die "the coverage run failed; see $outdir/coverage.log"
	{ printf '\n'; cat "$outdir/coverage/cover-coverage.txt"; } >> "$outdir/cover-letter.txt"
	coverage_line=$(tail -n +2 "$outdir/coverage/cover-coverage.txt" | tr '\n' ' ')
	took coverage
fi
timings_line=$(for s in "${t_steps[@]}"; do printf '%s %s, ' "${s%=*}" "$(kp_secs "${s##*=}")"; done)
timings_line="${timings_line}total $(kp_secs $((SECONDS - t_begin)))"

# ab.json: the provenance with both kernels, and how the boots went.
tpairs=()
for ((i = 0; i < ${#t_steps[@]}; i++)); do
	tpairs+=("timings_s.$i.step=${t_steps[i]%=*}" "timings_s.$i.seconds:=${t_steps[i]##*=}")
done
emulated=false
[ "$accel" != tcg ] || emulated=true
if [ "$kexec" = 1 ]; then method="kexec chain in one guest"; else method="one qemu boot each"; fi
mapfile -d '' kA_pairs < <(kernel_pairs "$kA" "$relA" kernels.A)
mapfile -d '' kB_pairs < <(kernel_pairs "$kB" "$relB" kernels.B)
kp_tb provenance --print "${prov[@]}" "${kA_pairs[@]}" "${kB_pairs[@]}" \
	date="$(date -Iseconds)" boots:="$boots" order="A B A B ..." boot_method="$method" \
	qemu.version="$("$QEMU_BIN" --version | head -n 1)" arch="$arch" \
	qemu.accel="$accel" qemu.accel_reason="$accel_line" qemu.mem="$mem" qemu.smp:="$smp" \
	qemu.emulated_timings:="$emulated" compare_exit:="$rc" fail_on="$fail_on" \
	timings_s:=[] "${tpairs[@]}" > "$outdir/ab.json"

cat "$outdir/comparison.txt"
[ "$boots" -lt 3 ] || { printf '\n'; tail -n +"$(( $(wc -l < "$outdir/header.txt") + 1 ))" "$outdir/comparison-boots.txt"; }
[ -z "$coverage_line" ] || kp_log "coverage: $coverage_line($outdir/coverage/coverage.txt)"
kp_log "cover letter: $outdir/cover-letter.txt"
kp_log "took: $timings_line"
kp_log "everything is in $outdir"
[ "$rc" = 0 ] || kp_log "a verdict failed --fail-on $fail_on: exit 1"
exit "$rc"
