#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot one kernel with the thpbench initramfs in qemu and keep its console.
#
#   boot.sh --kernel BZIMAGE --initrd INITRD --log LOG [--label L]
#           [--boot N] [--accel auto|kvm|tcg] [--mem SIZE] [--smp N]
#           [--timeout SEC] [--append PARAMS] [--quiet]
#           [--arch x86_64|arm64] [--qemu-opt OPT]...
#
# --arch arm64: qemu-system-aarch64 -M virt, -cpu max (pauth-impdef: the
# emulated pointer authentication is otherwise the slowest thing in a TCG
# guest), console ttyAMA0; --accel auto is TCG there unless the host is
# arm64. --qemu-opt adds one qemu argument (e.g. -icount shift=0, which
# makes qemu's PMU count instructions: make pmu-e2e).
# --accel auto (the default) uses KVM only if a probe boot under KVM
# reaches /init ("thpbench-init: probe ok") within 60 s; nested KVM can
# exist and still fail ("emulation failure", hangs), so /dev/kvm alone
# proves nothing. Otherwise TCG (emulation, much slower, and its timings
# are not hardware timings). The first line on stdout is "accel=kvm" or
# "accel=tcg" and why. The console (serial, ttyS0) goes to LOG; lines that
# are not base64 are echoed to stderr prefixed "guest| " unless --quiet.
# Exit: qemu's status (0 when the guest rebooted at the end), 124 on
# timeout, 2 on usage errors.
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"

kernel='' initrd='' logf='' label=guest nboot=0 accel=auto mem=6G smp=2
timeout=1800 quiet=0 append='' arch=x86_64
qopts=()

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?}; shift 2 ;;
	--initrd) initrd=${2:?}; shift 2 ;;
	--log) logf=${2:?}; shift 2 ;;
	--label) label=${2:?}; shift 2 ;;
	--boot) nboot=${2:?}; shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--append) append=${2?}; shift 2 ;;
	--quiet) quiet=1; shift ;;
	--arch) arch=${2:?}; shift 2 ;;
	--qemu-opt) qopts+=("${2:?}"); shift 2 ;;
	-h|--help) kp_help ;;
	*) kp_die "unknown argument '$1' (see --help)" ;;
	esac
done
[ -n "$kernel" ] && [ -n "$initrd" ] && [ -n "$logf" ] || kp_usage
[ -f "$kernel" ] || kp_die "kernel image '$kernel' not found"
[ -f "$initrd" ] || kp_die "initramfs '$initrd' not found"
case $accel in auto|kvm|tcg) ;; *) kp_die "--accel must be auto, kvm or tcg" ;; esac
case $arch in
x86_64|x86) arch=x86_64 QEMU=${THPBENCH_QEMU:-qemu-system-x86_64} console=ttyS0 machine=() ;;
arm64|aarch64) arch=arm64 QEMU=${THPBENCH_QEMU:-qemu-system-aarch64} console=ttyAMA0 machine=(-M virt)
	if [ "$accel" = auto ] && [ "$(uname -m)" != aarch64 ]; then accel=tcg; arm64_tcg=1; fi ;;
*) kp_die "--arch must be x86_64 or arm64" ;;
esac
kp_need_cmd "$QEMU" timeout tail sed

# Everything this script starts ends before it exits, on every path: qemu
# runs under `timeout --foreground` in the background and the script waits
# for it (bash runs a trap only between commands, and `wait` is one it can
# interrupt), so a Ctrl-C or TERM stops qemu at once; the console follower
# ends by itself within a fraction of a second of qemu (tail --pid) and is
# waited for. After a signal the script dies of that signal, so its caller
# sees an interrupted run, not a finished one.
qemu_pid='' follow_pid=''
stop_children()
{
	local n=0
	if [ -n "$qemu_pid" ]; then
		kill -TERM "$qemu_pid" 2>/dev/null || true
		while kill -0 "$qemu_pid" 2>/dev/null && [ "$n" -lt 20 ]; do
			sleep 0.25
			n=$((n + 1))
		done
		pkill -KILL -P "$qemu_pid" 2>/dev/null || true
		kill -KILL "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	[ -z "$follow_pid" ] || wait "$follow_pid" 2>/dev/null || true
	qemu_pid='' follow_pid=''
}
on_signal()
{
	trap - "$1" EXIT
	kp_log "interrupted (SIG$1): stopping qemu"
	stop_children
	kill -s "$1" $$
	exit 130
}
trap stop_children EXIT
for sig in INT TERM HUP; do
	# shellcheck disable=SC2064
	trap "on_signal $sig" "$sig"
done

# Start qemu on the kernel; $1 accel, $2 extra command line, $3 log,
# $4 limit. Sets qemu_pid (timeout's pid; timeout passes signals on).
qemu_start()
{
	local acc=$1 extra=$2 out=$3 limit=$4 cpu=max accopt=tcg,thread=multi
	[ "$arch" = x86_64 ] || cpu=max,pauth-impdef=on
	# -icount (exact instruction counts) runs one TCG thread only.
	case " ${qopts[*]} " in *" -icount "*) accopt=tcg,thread=single ;; esac
	if [ "$acc" = kvm ]; then
		cpu=host
		accopt=kvm
	fi
	timeout --foreground -k 10 "$limit" "$QEMU" "${machine[@]}" \
		-accel "$accopt" -cpu "$cpu" -m "$mem" -smp "$smp" \
		-kernel "$kernel" -initrd "$initrd" "${qopts[@]}" \
		-append "console=$console panic=-1 $extra" \
		-display none -monitor none -serial stdio -no-reboot -nodefaults \
		< /dev/null > "$out" 2>&1 &
	qemu_pid=$!
}

qemu_wait()
{
	local rc=0
	wait "$qemu_pid" || rc=$?
	qemu_pid=''
	return "$rc"
}

qemu_boot() { qemu_start "$@"; qemu_wait; }

# Echo the console as it grows, line by line (sed -u reads and writes
# unbuffered), minus the base64 lines of the result transfer. What a
# terminal would redraw in place (a status line rewritten after \r,
# escape sequences) becomes plain lines, one per state shown, so a log
# or a `tee` gets no control characters.
follow_console()
{
	tail -n +1 -s 0.2 --pid="$1" -f "$2" 2>/dev/null |
		sed -u -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\r$//' -e 's/\r\r*/\n/g' |
		sed -u -e 's/[\x01-\x08\x0b-\x1f\x7f]//g' -e '/^[[:space:]]*$/d' -e '/^[A-Za-z0-9+\/=]\{1,76\}$/d' -e 's/^/guest| /' >&2
}

if [ "$accel" = auto ]; then
	if [ ! -w /dev/kvm ]; then
		accel=tcg
		why="/dev/kvm absent or not writable"
	else
		probe=$(mktemp)
		if qemu_boot kvm "thpbench.probe=1" "$probe" 60 &&
			grep -aq 'thpbench-init: probe ok' "$probe"; then
			accel=kvm
			why="probe boot under KVM reached /init"
		else
			accel=tcg
			why="probe boot under KVM failed: $(grep -a -m1 -i 'error\|failure\|fail' "$probe" || echo 'no /init within 60 s')"
		fi
		rm -f "$probe"
	fi
elif [ -n "${arm64_tcg:-}" ]; then
	why="arm64 guest on a $(uname -m) host"
else
	why="requested"
fi
echo "accel=$accel ($why)"

mkdir -p "$(dirname "$logf")"
: > "$logf"
rc=0
qemu_start "$accel" "$append thpbench.label=$label thpbench.boot=$nboot" "$logf" "$timeout"
if [ "$quiet" = 0 ]; then
	follow_console "$qemu_pid" "$logf" &
	follow_pid=$!
fi
qemu_wait || rc=$?
stop_children
[ "$rc" -ne 124 ] || kp_log "guest timed out after $timeout s ($logf)"
exit "$rc"
