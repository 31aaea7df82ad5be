#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot one kernel with the thpbench initramfs as a LAVA job, run by
# lava-run (LAVA's dispatcher, no server), and keep what it printed.
#
#   lava-boot.sh --job KERNEL,LABEL,CONSOLE,DIR[,DEVICE[,INITRD]] [--job ...]
#                [--initrd INITRD] [--append PARAMS] [--timeout SEC]
#                [--accel tcg|kvm] [--lab LAB.ENV]
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
# configs/lava/devices/qemu-thpbench.yaml); INITRD: the job's own
# initramfs (default --initrd, which every job must then have). The
# fields are split at
# commas: no path may hold one. --accel kvm only drops the job's no_kvm:
# the device file decides what qemu gets (a KVM device is another file).
# --timeout: the test action's limit, in seconds (rounded up to minutes).
# --lab FILE: submit to a LAVA server instead (the lab.env lava-lab.sh
# writes: THPBENCH_LAVA_URL, THPBENCH_LAVA_TOKEN_FILE): each job goes in
# with lavacli (device type qemu; the scheduler picks the device, which
# DIR/device names), is waited for, and its log and test cases are read
# back through the REST API (/api/v0.2/jobs/N/logs/, .../tests/: DIR/
# lava.log and tests.json); the job's health must be Complete. The token
# stays in files of mode 600 (never on a command line).
# Exit: 0 when every job finished and LAVA's own "job" case passed; 2
# otherwise (each failed job's console tail is shown).
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"

initrd='' append='' timeout=1800 accel=tcg
default_device=$REPO_DIR/configs/lava/devices/qemu-thpbench.yaml
jobs=() lab=''

while [ $# -gt 0 ]; do
	case $1 in
	--job) jobs+=("${2:?}"); shift 2 ;;
	--initrd) initrd=${2:?}; shift 2 ;;
	--append) append=${2?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	--lab) lab=${2:?}; shift 2 ;;
	-h|--help) kp_help ;;
	*) kp_die "unknown argument '$1' (see --help)" ;;
	esac
done
[ ${#jobs[@]} -gt 0 ] || kp_usage
[ -z "$initrd" ] || [ -f "$initrd" ] || kp_die "--initrd $initrd: not found"
case $timeout in ''|*[!0-9]*) kp_die "--timeout must be a whole number of seconds" ;; esac
case $accel in tcg) nokvm=(--no-kvm) ;; kvm) nokvm=() ;; *) kp_die "--accel must be tcg or kvm" ;; esac
if [ -n "$lab" ]; then
	[ -f "$lab" ] || kp_die "--lab $lab: not found (lava-lab.sh start writes it)"
	url=$(sed -n 's/^THPBENCH_LAVA_URL=//p' "$lab")
	tokf=$(sed -n 's/^THPBENCH_LAVA_TOKEN_FILE=//p' "$lab")
	case $url in http://*/|https://*/) ;; *) kp_die "--lab $lab: no THPBENCH_LAVA_URL=http(s)://HOST/" ;; esac
	[ -f "$tokf" ] || kp_die "--lab $lab: token file '$tokf' not found"
	kp_need_cmd lavacli curl jq
	# lavacli's identity and curl's header, private to this run.
	auth=$(mktemp -d)
	trap 'rm -rf "$auth"' EXIT
	printf 'default:\n  uri: %sRPC2\n  username: admin\n  token: %s\n' "$url" "$(cat "$tokf")" \
		> "$auth/lavacli.yaml"
	printf 'Authorization: Token %s\n' "$(cat "$tokf")" > "$auth/header"
	chmod 600 "$auth/lavacli.yaml" "$auth/header"
else
	kp_need_cmd lava-run
fi

# GET the API's PATH into FILE.
api() { curl -sf -H @"$auth/header" "$url$1" -o "$2"; }

# One job on the lab's server: submit, wait, read back.
server_job()
{
	local dir=$1 id health
	id=$(XDG_CONFIG_HOME=$auth lavacli jobs submit "$dir/job.yaml" 2> "$dir/submit.err") ||
		{ echo 2 > "$dir/rc"; return; }
	case $id in ''|*[!0-9]*) echo 2 > "$dir/rc"; return ;; esac
	echo "$id" > "$dir/job-id"
	XDG_CONFIG_HOME=$auth lavacli jobs wait --polling 5 "$id" > /dev/null 2>&1 || true
	api "api/v0.2/jobs/$id/" "$dir/job.json" && api "api/v0.2/jobs/$id/logs/" "$dir/lava.log" &&
		api "api/v0.2/jobs/$id/tests/?limit=100000" "$dir/tests.json" ||
		{ echo 2 > "$dir/rc"; return; }
	jq -r '.actual_device // empty' "$dir/job.json" > "$dir/device"
	health=$(jq -r .health "$dir/job.json")
	[ "$health" = Complete ] || { echo 1 > "$dir/rc"; return; }
	echo 0 > "$dir/rc"
}

# One job: write it, run it, read its log. Its status in DIR/rc.
one_job()
{
	local kernel=$1 label=$2 console=$3 dir=$4 device=$5 ramdisk=$6 id rc=0
	# lava-run names its scratch directory and the overlay's /lava-ID by
	# the job id: unique among the jobs running at once on this host.
	id=$(( $$ * 100 + RANDOM % 100 ))
	kp_tb lava job --kernel "$(realpath "$kernel")" --ramdisk "$(realpath "$ramdisk")" \
		--label "$label" --cmdline "console=ttyS0,115200${append:+ $append}" \
		"${nokvm[@]}" --timeout $(( (timeout + 59) / 60 )) \
		--name "thpbench-$(printf '%s' "$label" | tr -c 'A-Za-z0-9._-' '_')" \
		-o "$dir/job.yaml" || { echo 2 > "$dir/rc"; return; }
	if [ -n "$lab" ]; then
		server_job "$dir"
		rc=$(cat "$dir/rc")
	else
		lava-run --job-id "$id" --output-dir "$dir/lava-run" --device "$device" \
			"$dir/job.yaml" > "$dir/lava-run.out" 2> "$dir/lava.log" || rc=$?
	fi
	kp_tb lava console "$dir/lava.log" -o "$console" || true
	kp_tb lava results "$dir/lava.log" > "$dir/cases.txt" || true
	grep -qx 'lava job pass' "$dir/cases.txt" || [ "$rc" != 0 ] || rc=1
	echo "$rc" > "$dir/rc"
}

specs=()
for spec in "${jobs[@]}"; do
	IFS=, read -r kernel label console dir device rd extra <<< "$spec"
	[ -z "${extra:-}" ] || kp_die "--job $spec: more than six fields (a path with a comma?)"
	[ -n "$kernel" ] && [ -n "$label" ] && [ -n "$console" ] && [ -n "$dir" ] ||
		kp_die "--job $spec: expected KERNEL,LABEL,CONSOLE,DIR[,DEVICE[,INITRD]]"
	device=${device:-$default_device}
	rd=${rd:-$initrd}
	[ -n "$rd" ] || kp_die "--job $spec: no INITRD and no --initrd"
	[ -f "$rd" ] || kp_die "--job $spec: initramfs $rd not found"
	[ -f "$kernel" ] || kp_die "--job $spec: kernel $kernel not found"
	[ -f "$device" ] || kp_die "--job $spec: device $device not found (configs/lava/devices/)"
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	rm -f "$dir/rc"
	specs+=("$kernel,$label,$console,$dir,$device,$rd")
done
# This script is one process group (kp_step): a signal to it ends every
# lava-run and qemu below.
kp_tb_built
pids=()
for spec in "${specs[@]}"; do
	IFS=, read -r kernel label console dir device rd <<< "$spec"
	one_job "$kernel" "$label" "$console" "$dir" "$device" "$rd" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
bad=0
for spec in "${specs[@]}"; do
	IFS=, read -r kernel label console dir device rd <<< "$spec"
	rc=$(cat "$dir/rc" 2>/dev/null || echo 2)
	[ "$rc" != 0 ] || continue
	tail -n 20 "$console" >&2 2>/dev/null || true
	kp_log "LAVA job for kernel $label failed (lava-run exit $rc); log: $dir/lava.log"
	bad=1
done
[ "$bad" = 0 ] || exit 2
