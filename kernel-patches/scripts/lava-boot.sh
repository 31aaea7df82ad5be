#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot one kernel with the thpbench initramfs as a LAVA job, run by
# lava-run (LAVA's dispatcher, no server), and keep what it printed.
#
#   lava-boot.sh --job KERNEL,LABEL,CONSOLE,DIR[,DEVICE] [--job ...]
#                --initrd INITRD [--append PARAMS] [--timeout SEC]
#                [--accel tcg|kvm]
#
# Each --job is one LAVA job, all of them at once (N devices: N kernels
# booting in parallel), each its own lava-run; the script waits for all.
# The initramfs must hold busybox (mkinitramfs.sh --busybox): LAVA's test
# shell drives the shell init starts (thpbench.shell=1). In each DIR:
#   job.yaml    the job (thpbench lava job: deploy to tmpfs, boot qemu,
#               the inline test definition /bin/thpbench-lava-test)
#   lava.log    the job log, lava-run's stderr (one entry a line)
#   cases.txt   every test case of the log (thpbench lava results)
# and CONSOLE: the device's console (thpbench lava console), which holds
# the framed results.json for extract-results.sh, as boot.sh's log does.
# DEVICE: the lava-run device file (default
# configs/lava/devices/qemu-thpbench.yaml). The fields are split at
# commas: no path may hold one. --accel kvm only drops the job's no_kvm:
# the device file decides what qemu gets (a KVM device is another file).
# --timeout: the test action's limit, in seconds (rounded up to minutes).
# Exit: 0 when every job finished and LAVA's own "job" case passed; 2
# otherwise (each failed job's console tail is shown).
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"

initrd='' append='' timeout=1800 accel=tcg
default_device=$REPO_DIR/configs/lava/devices/qemu-thpbench.yaml
jobs=()

while [ $# -gt 0 ]; do
	case $1 in
	--job) jobs+=("${2:?}"); shift 2 ;;
	--initrd) initrd=${2:?}; shift 2 ;;
	--append) append=${2?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	-h|--help) kp_help ;;
	*) kp_die "unknown argument '$1' (see --help)" ;;
	esac
done
[ ${#jobs[@]} -gt 0 ] && [ -n "$initrd" ] || kp_usage
[ -f "$initrd" ] || kp_die "--initrd $initrd: not found"
case $timeout in ''|*[!0-9]*) kp_die "--timeout must be a whole number of seconds" ;; esac
case $accel in tcg) nokvm=(--no-kvm) ;; kvm) nokvm=() ;; *) kp_die "--accel must be tcg or kvm" ;; esac
kp_need_cmd lava-run

# One job: write it, run it, read its log. Its status in DIR/rc.
one_job()
{
	local kernel=$1 label=$2 console=$3 dir=$4 device=$5 id rc=0
	# lava-run names its scratch directory and the overlay's /lava-ID by
	# the job id: unique among the jobs running at once on this host.
	id=$(( $$ * 100 + RANDOM % 100 ))
	kp_tb lava job --kernel "$(realpath "$kernel")" --ramdisk "$(realpath "$initrd")" \
		--label "$label" --cmdline "console=ttyS0,115200${append:+ $append}" \
		"${nokvm[@]}" --timeout $(( (timeout + 59) / 60 )) \
		--name "thpbench-$label" -o "$dir/job.yaml" || { echo 2 > "$dir/rc"; return; }
	lava-run --job-id "$id" --output-dir "$dir/lava-run" --device "$device" \
		"$dir/job.yaml" > "$dir/lava-run.out" 2> "$dir/lava.log" || rc=$?
	kp_tb lava console "$dir/lava.log" -o "$console" || true
	kp_tb lava results "$dir/lava.log" > "$dir/cases.txt" || true
	grep -qx 'lava job pass' "$dir/cases.txt" || [ "$rc" != 0 ] || rc=1
	echo "$rc" > "$dir/rc"
}

specs=()
for spec in "${jobs[@]}"; do
	IFS=, read -r kernel label console dir device extra <<< "$spec"
	[ -z "${extra:-}" ] || kp_die "--job $spec: more than five fields (a path with a comma?)"
	[ -n "$kernel" ] && [ -n "$label" ] && [ -n "$console" ] && [ -n "$dir" ] ||
		kp_die "--job $spec: expected KERNEL,LABEL,CONSOLE,DIR[,DEVICE]"
	device=${device:-$default_device}
	[ -f "$kernel" ] || kp_die "--job $spec: kernel $kernel not found"
	[ -f "$device" ] || kp_die "--job $spec: device $device not found (configs/lava/devices/)"
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	rm -f "$dir/rc"
	specs+=("$kernel,$label,$console,$dir,$device")
done
# This script is one process group (kp_step): a signal to it ends every
# lava-run and qemu below.
pids=()
for spec in "${specs[@]}"; do
	IFS=, read -r kernel label console dir device <<< "$spec"
	one_job "$kernel" "$label" "$console" "$dir" "$device" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
bad=0
for spec in "${specs[@]}"; do
	IFS=, read -r kernel label console dir device <<< "$spec"
	rc=$(cat "$dir/rc" 2>/dev/null || echo 2)
	[ "$rc" != 0 ] || continue
	tail -n 20 "$console" >&2 2>/dev/null || true
	kp_log "LAVA job for kernel $label failed (lava-run exit $rc); log: $dir/lava.log"
	bad=1
done
[ "$bad" = 0 ] || exit 2
