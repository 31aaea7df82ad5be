#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make unit-arm64-guest: the arm64 unit tests qemu-user cannot run
# (tests/unit/qemu-user.skip: perf_event_open, clone(CLONE_VM|CLONE_PIDFD),
# exec of an arm64 child), run in an arm64 guest: the cached arm64 kernel
# (build-kernel.sh --arch arm64), qemu-system-aarch64 -M virt, TCG.
#
#   tests/kernel/unit_guest.sh [--keep DIR] [--jobs N] [--smp N] [--all] [BINARY...]
#
# BINARY: tests/unit/LAYER/test_NAME, as built by make ARCH=arm64
# unit-bins in build/arm64; default: every binary qemu-user.skip names;
# --all: every unit binary there.
# The initramfs holds kernel-patches/init/init.c as /init, a static arm64
# busybox as /bin/sh and the tools the tests start (/bin/true, sleep,
# setsid: scripts/arm64-deps.sh puts busybox-static:arm64 in the sysroot),
# the cross toolchain's C library and the sysroot's shared libraries (the
# unit binaries are dynamic), and under /src the binaries, tests/fixtures,
# tests/run-unit.sh and perf's event JSON (THPBENCH_PERF_EVENTS). init runs
# tests/run-unit.sh there; its cmocka output and its closing line
# "unit: N passed, N failed" come back on the console, are printed here
# and decide the exit status with the status init reports
# (THPBENCH-RESULT-MISSING status=S: the run writes no results.json).
# Exit 0 all passed, 1 a test failed, 2 could not run, 77 skipped (no
# cross toolchain, qemu-system-aarch64 or kernel source).
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/../../kernel-patches" && pwd)
. "$KP_DIR/scripts/common.sh"
S=$KP_DIR/scripts
keep='' jobs=$(nproc) smp=2 all=''
bins=()
while [ $# -gt 0 ]; do
	case $1 in
	--keep) keep=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--all) all=1; shift ;;
	-h|--help) kp_help ;;
	-*) kp_die "unknown argument '$1' (see --help)" ;;
	*) bins+=("$1"); shift ;;
	esac
done
for c in qemu-system-aarch64 aarch64-linux-gnu-gcc cpio gzip; do
	command -v "$c" > /dev/null || { echo "SKIP: $c missing (scripts/arm64-deps.sh)"; exit 77; }
done
[ -f "$DEFAULT_KERNEL_SRC" ] || { echo "SKIP: $DEFAULT_KERNEL_SRC missing (linux-source-6.1)"; exit 77; }
"$REPO_DIR/scripts/arm64-deps.sh" || exit 2

A=$REPO_DIR/build/arm64
SYSROOT=$REPO_DIR/build/arm64-sysroot
PERF=$REPO_DIR/build/perf-events/linux-source-6.1/tools/perf/pmu-events/arch
TOOLCHAIN_LIB=/usr/aarch64-linux-gnu/lib
[ -z "$all" ] || mapfile -t bins < <(cd "$A" && find tests/unit -name 'test_*' -type f -perm -u+x | LC_ALL=C sort)
[ ${#bins[@]} -gt 0 ] ||
	mapfile -t bins < <(awk '!/^#/ && NF { print $1 }' "$REPO_DIR/tests/unit/qemu-user.skip")
for b in "${bins[@]}"; do
	case $b in tests/unit/*/test_*) ;; *) kp_die "'$b' is not tests/unit/LAYER/test_NAME" ;; esac
	[ -x "$A/$b" ] || kp_die "$A/$b missing: make ARCH=arm64 unit-bins"
done
[ -x "$SYSROOT/bin/busybox" ] || kp_die "$SYSROOT/bin/busybox missing (scripts/arm64-deps.sh fetches busybox-static:arm64)"
[ -d "$PERF/arm64" ] || kp_die "$PERF missing: make build/perf-events/.ok-x86-arm64"
[ -f "$TOOLCHAIN_LIB/ld-linux-aarch64.so.1" ] || kp_die "$TOOLCHAIN_LIB/ld-linux-aarch64.so.1 missing (libc6-arm64-cross)"

t0=$SECONDS
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
kdir=$("$S/build-kernel.sh" --arch arm64 --jobs "$jobs") || exit 2

st=$work/root
rm -rf "$st"
mkdir -p "$st"/{bin,lib/aarch64-linux-gnu,src/tests,src/perf-events,etc/thpbench,dev,proc,sys,tmp,run}
aarch64-linux-gnu-gcc -static -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra \
	-o "$st/init" "$KP_DIR/init/init.c" || kp_die "cannot build the static arm64 init"
install -m 0755 "$SYSROOT/bin/busybox" "$st/bin/busybox"
# The applets the tests' shell scripts use; busybox --install in the guest
# would need a writable /bin before /bin/sh exists.
for a in sh true false sleep setsid cat echo kill env test [ printf mkdir rm ls date; do
	ln -s busybox "$st/bin/$a"
done
# Runtime libraries only (SONAME files and their targets), not -dev links.
cp -a "$TOOLCHAIN_LIB"/*.so* "$st/lib/aarch64-linux-gnu/"
ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$st/lib/ld-linux-aarch64.so.1"
for d in "$SYSROOT/usr/lib/aarch64-linux-gnu" "$SYSROOT/lib/aarch64-linux-gnu"; do
	[ -d "$d" ] || continue
	find "$d" -maxdepth 1 -name '*.so.*' -exec cp -aL -t "$st/lib/aarch64-linux-gnu/" {} +
done
(cd "$A" && printf '%s\n' "${bins[@]}" tests/run-unit.sh | cpio -pdm --quiet "$st/src")
cp -a "$A/tests/fixtures" "$st/src/tests/"
# --all: what the other tests read (suites, golden files, configs).
[ -z "$all" ] || (cd "$A" && find tests configs harness kernel-patches -type f ! -name '*.o' ! -name '*.d' ! -name '*.a' |
	cpio -pdmu --quiet "$st/src")
cp -a "$PERF/arm64" "$PERF/x86" "$st/src/perf-events/"
# shellcheck disable=SC2016
# The guest kernel has no RTC driver: its clock would start at 1970, and
# results dated 2026 would be "in the future" (history import refuses
# those), so the host's time is set first.
printf '%s\n' /bin/sh -c "date -s @$(date +%s) > /dev/null; cd /src && exec sh tests/run-unit.sh \"\$@\"" sh "${bins[@]}" \
	> "$st/etc/thpbench/argv"
printf '%s\n' PATH=/bin HOME=/tmp TMPDIR=/tmp LD_LIBRARY_PATH=/lib/aarch64-linux-gnu \
	THPBENCH_PERF_EVENTS=/src/perf-events > "$st/etc/thpbench/env"
(cd "$st" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 > "$work/unit.gz"

echo "unit-arm64-guest: ${#bins[@]} binaries, initramfs $(du -k "$work/unit.gz" | cut -f1) KiB, kernel $kdir"
rc=0
"$S/boot.sh" --arch arm64 --kernel "$kdir/bzImage" --initrd "$work/unit.gz" \
	--log "$work/unit.log" --accel tcg --smp "$smp" --mem 2G --timeout 900 \
	--quiet > /dev/null || rc=$?
# The guest's console from the first test's output to init's status line.
tr -d '\r' < "$work/unit.log" | sed -n '/^\[==========\]\|^SKIPPED:\|^FAILED:\|^\[ \|^unit: /p'
status=$(tr -d '\r' < "$work/unit.log" | sed -n 's/^THPBENCH-RESULT-MISSING status=\([0-9]*\).*/\1/p' | tail -n 1)
line=$(tr -d '\r' < "$work/unit.log" | grep '^unit: ' | tail -n 1 || true)
echo "unit-arm64-guest: $((SECONDS - t0)) s${keep:+ (console: $work/unit.log)}"
[ "$rc" -eq 0 ] || { tail -n 20 "$work/unit.log"; kp_die "the guest did not finish (boot.sh exit $rc)"; }
[ -n "$line" ] && [ -n "$status" ] ||
	{ tail -n 20 "$work/unit.log"; kp_die "no 'unit:' line or init status on the console"; }
[ "$status" = 0 ]
