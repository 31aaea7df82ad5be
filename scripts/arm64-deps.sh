#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The arm64 cross build's tools and libraries (make ARCH=arm64, make
# unit-arm64, ./run.sh ab --arch arm64), only what is missing.
# Usage: scripts/arm64-deps.sh [--check] [SYSROOT]   (default build/arm64-sysroot)
#
# The tools (gcc-aarch64-linux-gnu, qemu-user-static, qemu-system-arm) are
# installed with apt-get. The arm64 -dev libraries are not: an installed
# libgsl-dev:arm64 or libpq-dev:arm64 conflicts with the amd64 one the
# native build needs (multiarch: same header paths, different contents), so
# they are fetched with `apt-get download` (the arm64 architecture is added
# to dpkg once, which installs nothing) and unpacked with `dpkg -x` into
# SYSROOT, which the Makefile's ARCH=arm64 block points the compiler at.
# The C library comes from the cross toolchain (libc6-dev-arm64-cross).
# --check: say what is missing, exit 1 if anything is; install nothing.
# Exit 0 ready; 1 (--check) something missing; 2 not root, or apt failed.
set -e
check=
case ${1:-} in
-h|--help)
	awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"
	exit 0 ;;
--check) check=1; shift ;;
-*) echo "$0: unknown option \"$1\" (--help)" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
sysroot=${1:-$here/build/arm64-sysroot}

TOOLS="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static qemu-system-arm"
# The -dev packages of LDLIBS_HARNESS, cmocka and the workloads (hiredis:
# redis_bench); busybox-static: /bin/sh of make unit-arm64-guest; their runtime libraries
# (and libpq's Kerberos/LDAP/GnuTLS chain) follow by apt-cache depends.
LIBS="libjansson-dev libpfm4-dev libnuma-dev libgsl-dev libinih-dev libcmocka-dev
libsqlite3-dev libssl-dev zlib1g-dev libpq-dev libhiredis-dev busybox-static"
# What the cross toolchain already brings (its own, matching, libc).
FROM_TOOLCHAIN='^(gcc-[0-9]+-base|libc-dev-bin|libc6|libc6-dev|libcrypt-dev|libgcc-s1|libstdc\+\+6|linux-libc-dev|rpcsvc-proto|libnsl-dev|libtirpc-dev)$'

missing=
for p in $TOOLS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
stamp=$sysroot/.ok
want=$(printf '%s\n' "$LIBS" | tr -s ' \n' ' ')
[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] || libs_missing=1
if [ -n "$check" ]; then
	[ -z "$missing" ] || echo "missing Debian packages:$missing"
	[ -z "${libs_missing:-}" ] || echo "missing arm64 sysroot: $sysroot (scripts/arm64-deps.sh)"
	[ -z "$missing$libs_missing" ]
	exit
fi
[ -n "$missing$libs_missing" ] || exit 0
if [ "$(id -u)" != 0 ]; then
	echo "arm64-deps: run as root (apt-get) to install:$missing${libs_missing:+ the arm64 libraries into $sysroot}" >&2
	exit 2
fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "arm64-deps: adding the arm64 architecture to dpkg (for apt-get download)" >&2
	dpkg --add-architecture arm64
	apt-get -qq update || { echo "arm64-deps: apt-get update failed" >&2; exit 2; }
fi
if [ -n "$missing" ]; then
	echo "arm64-deps: installing$missing" >&2
	# shellcheck disable=SC2086
	"$here/scripts/apt-install.sh" $missing >/dev/null
fi
[ -n "${libs_missing:-}" ] || exit 0

# shellcheck disable=SC2086
pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances --no-pre-depends \
	$(printf '%s:arm64 ' $LIBS) 2>/dev/null |
	sed -n 's/^\([^ <][^ ]*\):arm64$/\1/p' | LC_ALL=C sort -u | grep -Ev "$FROM_TOOLCHAIN")
[ -n "$pkgs" ] || { echo "arm64-deps: apt-cache knows no arm64 packages (apt-get update?)" >&2; exit 2; }
dl=$(mktemp -d)
chmod 755 "$dl"
trap 'rm -rf "$dl"' EXIT
echo "arm64-deps: fetching $(echo "$pkgs" | wc -l) arm64 packages into $sysroot" >&2
# shellcheck disable=SC2046
(cd "$dl" && apt-get download -qq $(printf '%s:arm64 ' $pkgs)) ||
	{ echo "arm64-deps: apt-get download failed" >&2; exit 2; }
rm -rf "$sysroot"
mkdir -p "$sysroot"
for d in "$dl"/*.deb; do
	dpkg -x "$d" "$sysroot"
done
# -dev symlinks that point at an absolute /lib path are made relative, so
# the linker finds the sysroot's library, not the host's.
find "$sysroot" -type l | while IFS= read -r l; do
	t=$(readlink "$l")
	case $t in /*) ln -sfn "$sysroot$t" "$l" ;; esac
done
printf '%s' "$want" > "$stamp"
echo "arm64-deps: $sysroot ready" >&2
