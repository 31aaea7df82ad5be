#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run a suite as a LAVA job on one kernel, with lava-run (LAVA's
# dispatcher, no server), and bring its results back (docs/lava.md).
#
#   ./run.sh lava SUITE.conf [--series DIR | --kernel IMG[:CONFIG]]
#                 [--reps N] [--device FILE] [--machine NAME] [--out DIR]
#                 [--db DB [--kernel-id ID] [--fail-on GATE]] [--jobs N]
#
#   --series DIR    the kernel is Debian's 6.1 with DIR's patches (kernel B
#                   of ./run.sh ab); default: without (kernel A)
#   --kernel IMG[:CONFIG]  a prebuilt bzImage instead
#   --reps N        thpbench run -r N in the guest
#   --device FILE   the lava-run device file (default
#                   configs/lava/devices/qemu-thpbench.yaml)
#   --machine NAME  the device's name: the history's machine identity
#                   (default lava-qemu)
#   --db DB         record the run in the history and check it, as a
#                   nightly does (scripts/nightly.sh --results): the gate's
#                   verdicts, JUnit and the report under OUT/nightly
#   --kernel-id ID  the kernel's id in the history (default its uname -r,
#                   which names the build: VERSION-tb-<cache key>)
#
# The job: the kernel and an initramfs holding busybox, the static harness
# and the suite are deployed to tmpfs, booted in qemu to init's shell,
# and LAVA's test shell runs /bin/thpbench-lava-test (a test case per
# case and per case and metric, with units), which then sends
# results.json over the console. Its log holds that block: the file
# every repetition's values are in (LAVA's test cases carry one mean per
# metric). In a new results/lava-SUITE-DATE[-N]/ (or --out): results.json,
# cases.txt (every LAVA test case), lava/ (job.yaml, lava.log),
# console.log, summary.txt.
# Exit: 0 ok; 1 the --db gate failed; 2 any error; 130 interrupted.
set -Eeuo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"
S=$KP_DIR/scripts
trap 'exit 2' ERR

suite='' series='' prebuilt='' reps='' outdir='' db='' kid='' fail_on=''
machine=lava-qemu jobs=$(nproc)
device=$REPO_DIR/configs/lava/devices/qemu-thpbench.yaml

while [ $# -gt 0 ]; do
	case $1 in
	--series) series=${2:?}; shift 2 ;;
	--kernel) prebuilt=${2:?}; shift 2 ;;
	--reps|-r) reps=${2:?}; shift 2 ;;
	--device) device=${2:?}; shift 2 ;;
	--machine) machine=${2:?}; shift 2 ;;
	--out) outdir=${2:?}; shift 2 ;;
	--db) db=${2:?}; shift 2 ;;
	--kernel-id) kid=${2:?}; shift 2 ;;
	--fail-on) fail_on=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	-h|--help) kp_help ;;
	-*) kp_die "unknown option '$1' (see --help)" ;;
	*) kp_one_suite "$1"; shift ;;
	esac
done
kp_suite_given
[ -z "$series" ] || [ -d "$series" ] || kp_die "--series $series: not a directory of patches"
[ -z "$series" ] || [ -z "$prebuilt" ] || kp_die "give --series or --kernel, not both"
[ -f "$device" ] || kp_die "--device $device: not found"
[ -z "$reps" ] || case $reps in *[!0-9]*|0) kp_die "--reps must be a whole number >= 1" ;; esac
"$S/install-deps.sh" --lava || kp_die "missing Debian packages (see above)"
kp_need_cmd lava-run busybox make gcc setsid
name=$(kp_tb suite get "$suite" name 2>/dev/null || basename "$suite" .conf)

kp_flow_outdir "$outdir" "lava-$(kp_release_slug "$name")"
kp_flow_traps console.log
kp_log "results directory: $outdir"

# 1. The kernel and the static binaries.
if [ -n "$prebuilt" ]; then
	img=${prebuilt%%:*} cfg=''
	[ "$img" = "$prebuilt" ] || cfg=${prebuilt#*:}
	[ -f "$img" ] || kp_die "--kernel: '$img' not found"
	rel=$(kp_bzimage_release "$img") || kp_die "--kernel: '$img' is not an x86 bzImage"
else
	sargs=()
	[ -z "$series" ] || sargs=(--series "$series")
	kp_step "$S/build-kernel.sh" --jobs "$jobs" "${sargs[@]}" > "$outdir/.kernel"
	kdir=$(cat "$outdir/.kernel")
	rm -f "$outdir/.kernel"
	img=$kdir/bzImage cfg=$kdir/config rel=$(cat "$kdir/kernelrelease")
fi
kp_static_dir x86_64

# 2. The initramfs: busybox for LAVA's test shell, the suite, its run.
rargs=() files=()
[ -z "$reps" ] || rargs=(--reps "$reps")
[ -z "$cfg" ] || files=(--file "$cfg:/boot/config-$rel")
"$S/mkinitramfs.sh" -o "$outdir/initramfs.gz" --suite "$suite" \
	--thpbench "$sdir/harness/thpbench" --workloads "$sdir/workloads" \
	--busybox "$(command -v busybox)" "${rargs[@]}" "${files[@]}"
cp "$suite" "$outdir/suite.conf"

# 3. The job.
t0=$(date +%s)
kp_log "LAVA job: kernel $rel on $(basename "$device") (lava-run)"
kp_step "$S/lava-boot.sh" --job "$img,$rel,$outdir/console.log,$outdir/lava,$device" \
	--initrd "$outdir/initramfs.gz" --accel tcg ||
	kp_die "the LAVA job failed (log: $outdir/lava/lava.log)"
t_job=$(( $(date +%s) - t0 ))
cp "$outdir/lava/cases.txt" "$outdir/cases.txt"

# 4. Results: the file the job carried, and what LAVA's cases say of it.
status=$("$S/extract-results.sh" "$outdir/console.log" "$outdir/results.json") ||
	kp_die "the job's log holds no complete results.json (console: $outdir/console.log)"
[ "$status" = status=0 ] ||
	kp_log "warning: thpbench in the guest exited with ${status#status=}"
kp_tb provenance "$outdir/results.json" --key lava --timings tcg \
	kernel="$rel" device="$machine" device_file="$(basename "$device")" \
	job=lava/job.yaml dispatcher="lava-run $(dpkg-query -W -f='${Version}' lava-dispatcher 2>/dev/null || echo unknown)"
# Every measurement has units (LAVA: required with one); the suite case
# passed or the run says why not.
if awk 'NF == 5 && $5 == "-" { bad = 1 } END { exit !bad }' "$outdir/cases.txt"; then
	kp_die "a LAVA measurement without units in $outdir/cases.txt"
fi
read -r npass nfail nskip nmeas < <(awk '$1 != "lava" && NF == 3 { c[$3]++ }
	$1 != "lava" && NF == 5 { m++ }
	END { printf "%d %d %d %d\n", c["pass"], c["fail"], c["skip"], m }' "$outdir/cases.txt")
{
	printf 'LAVA: kernel %s, device %s: %d cases pass, %d fail, %d skip; %d measurements with units; job %d s\n' \
		"$rel" "$machine" "$npass" "$nfail" "$nskip" "$nmeas" "$t_job"
	printf 'NOTE: TCG emulates the CPU: counts are exact, times are not.\n'
	kp_tb show "$outdir/results.json"
} > "$outdir/summary.txt"
cat "$outdir/summary.txt"

# 5. The history, as a nightly records and gates it.
rc=0
if [ -n "$db" ]; then
	nargs=(--results "$outdir/results.json" --machine "$machine" --db "$db" -o "$outdir/nightly"
		--suite "$suite" --kernel-id "${kid:-$rel}")
	[ -z "$fail_on" ] || nargs+=(--fail-on "$fail_on")
	(cd "$REPO_DIR" && sh scripts/nightly.sh "${nargs[@]}") || rc=$?
	[ "$rc" -le 1 ] || kp_die "recording the LAVA run in $db failed (exit $rc)"
fi
kp_log "everything is in $outdir"
exit "$rc"
