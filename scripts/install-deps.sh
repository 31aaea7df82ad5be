#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install the Debian packages thpbench needs to build, test and plot,
# only those that are missing. Needs root (apt-get) when something is.
# Usage: scripts/install-deps.sh [--check]   (--check: list missing, exit 1 if any)
set -e
case ${1:-} in
-h|--help)
	echo "usage: $0 [--check]"
	echo "  Install the Debian packages thpbench needs to build, test and plot,"
	echo "  only those that are missing (root, apt-get, when something is)."
	echo "  --check  list the missing ones and exit 1 if any, install nothing"
	exit 0 ;;
''|--check) ;;
*) echo "$0: unknown option \"$1\" (--help)" >&2; exit 2 ;;
esac
PKGS="build-essential g++ make pkg-config bc libpfm4-dev libnuma-dev libgsl-dev
libjansson-dev libinih-dev libcmocka-dev gnuplot-nox jq libxml2-utils file
clang libclang-rt-14-dev cppcheck valgrind libsqlite3-dev libpq-dev libssl-dev zlib1g-dev sqlite3
postgresql-15 chromium libyaml-libyaml-perl systemd xfsprogs e2fsprogs
redis-server redis-tools libhiredis-dev"
# kernel build and thpchallenge (configs/apps.conf): the 6.1 source and
# what its make needs, fio for the challenge
PKGS="$PKGS linux-source-6.1 flex bison libelf-dev fio"
# run --profile (measure/profile.h): perf record / perf script
PKGS="$PKGS linux-perf"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$1" = "--check" ]; then
	echo "missing Debian packages:$missing"
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "thpbench: missing Debian packages:$missing" >&2
	echo "thpbench: run as root, or: sudo apt-get install$missing" >&2
	exit 2
fi
echo "thpbench: installing$missing"
# shellcheck disable=SC2086
"$(dirname "$0")/apt-install.sh" $missing >/dev/null
