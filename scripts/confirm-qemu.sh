#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The confirmation runner of `./run.sh nightly --confirm qemu`: boot the
# last good kernel (A) and the suspect (B) alternately, A B A B, in qemu,
# run the suite in each guest, and leave each kernel's merged runs in
# DIR/A.json and DIR/B.json (kernel-patches/scripts/ab.sh does the boots).
#
#   scripts/confirm-qemu.sh --kernel-a ID --kernel-b ID --suite FILE -o DIR
#
#   ID      a kernel id as the history has it: the lab's kernels are found
#           by id in $THPBENCH_KERNELS (default $THPBENCH_BUILD_DIR/kernels,
#           the A/B kernel cache: ID/bzImage and ID/config)
#   THPBENCH_CONFIRM_BOOTS  boots per kernel (default 2: A B A B)
#   THPBENCH_CONFIRM_REPS   repetitions per boot (default 8: 16 a kernel,
#                           the simulation's setting, tests/bench/history_confirm.sh)
#   THPBENCH_CONFIRM_ACCEL  auto (default), kvm or tcg
# DIR must not exist; ab.sh's whole run is kept in DIR/ab. Exit 0 done,
# 2 a kernel not found or the run failed.
set -u
ka= kb= suite= out=
die() { echo "confirm-qemu: $*" >&2; exit 2; }
need() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernel-a) need "$@"; ka=$2; shift 2 ;;
	--kernel-b) need "$@"; kb=$2; shift 2 ;;
	--suite) need "$@"; suite=$2; shift 2 ;;
	-o) need "$@"; out=$2; shift 2 ;;
	-h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) die "unknown option \"$1\" (--help lists them)" ;;
	esac
done
[ -n "$ka" ] && [ -n "$kb" ] && [ -n "$suite" ] && [ -n "$out" ] ||
	die "give --kernel-a ID --kernel-b ID --suite FILE -o DIR"
[ -f "$suite" ] || die "no suite $suite"
kernels=${THPBENCH_KERNELS:-${THPBENCH_BUILD_DIR:-build/ab}/kernels}
img() { # ID: the image and its config, IMG:CONFIG
	case $1 in
	''|.*|*[!A-Za-z0-9._+:@~^-]*) die "kernel id \"$1\": not a name in $kernels (A-Z a-z 0-9 . _ + : @ ~ ^ -, not starting with .)" ;;
	esac
	[ -f "$kernels/$1/bzImage" ] ||
		die "kernel $1: no $kernels/$1/bzImage (THPBENCH_KERNELS names the directory of the lab's kernels by id)"
	if [ -f "$kernels/$1/config" ]; then
		printf '%s:%s' "$kernels/$1/bzImage" "$kernels/$1/config"
	else
		printf '%s' "$kernels/$1/bzImage"
	fi
}
a=$(img "$ka") || exit 2
b=$(img "$kb") || exit 2
[ ! -e "$out" ] || die "$out exists: give a new directory"
mkdir -p "$out" || die "cannot create $out"
set -- --boots "${THPBENCH_CONFIRM_BOOTS:-2}" --reps "${THPBENCH_CONFIRM_REPS:-8}" \
	--accel "${THPBENCH_CONFIRM_ACCEL:-auto}"
kernel-patches/scripts/ab.sh --kernel-a "$a" --kernel-b "$b" --suite "$suite" \
	--name "confirm-$ka-$kb" --out "$out/ab" "$@" >"$out/ab.log" 2>&1 ||
	{ tail -n 20 "$out/ab.log" >&2; die "the A B A B run failed ($out/ab.log)"; }
cp "$out/ab/A.json" "$out/A.json" && cp "$out/ab/B.json" "$out/B.json" ||
	die "the A B A B run left no A.json and B.json in $out/ab"
echo "confirm-qemu: A ($ka) and B ($kb), ${THPBENCH_CONFIRM_BOOTS:-2} boots each: $out"
