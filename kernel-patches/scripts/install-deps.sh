#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the kernel A/B flow needs, only those missing.
#
#   install-deps.sh           everything for ./run.sh ab (kernel builds, qemu)
#   install-deps.sh --light   only what tests/kernel/ needs (the 6.1 source
#                             archive, patch, cpio, a static libc)
#   install-deps.sh --lava    everything, and LAVA (dispatcher, server,
#                             lavacli), PostgreSQL and a static busybox
#                             (./run.sh lava, ab --backend lava,
#                             lava-lab.sh, make lava-e2e)
# Exit 0 when all are present afterwards; 2 otherwise (not root, or apt
# failed), naming the packages.
set -euo pipefail

light=(linux-source-6.1 patch cpio xz-utils gzip libc6-dev gcc binutils git)
full=("${light[@]}" make flex bison bc perl libelf-dev libssl-dev
	build-essential qemu-system-x86 jq lcov)

lava=("${full[@]}" lava-dispatcher lavacli busybox-static lava-server postgresql curl)

pkgs=("${full[@]}")
case ${1:-} in
--light) pkgs=("${light[@]}") ;;
--lava) pkgs=("${lava[@]}") ;;
-h|--help) sed -n '4,13{s/^# \{0,1\}//; p}' "$0"; exit 0 ;;
'') ;;
*) echo "usage: $0 [--light|--lava]" >&2; exit 2 ;;
esac

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: missing packages: ${missing[*]}; run as root or: apt-get install ${missing[*]}" >&2
	exit 2
fi
echo "install-deps.sh: installing ${missing[*]}" >&2
"$(dirname "$0")/../../scripts/apt-install.sh" "${missing[@]}" ||
	{ echo "install-deps.sh: apt-get install ${missing[*]} failed" >&2; exit 2; }
