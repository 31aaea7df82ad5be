#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the kernel A/B flow needs, only those missing.
#
#   install-deps.sh           everything for ./run.sh ab (kernel builds, qemu)
#   install-deps.sh --light   only what tests/kernel/ needs (the 6.1 source
#                             archive, patch, cpio, a static libc)
# Exit 0 when all are present afterwards; 2 otherwise (not root, or apt
# failed), naming the packages.
set -euo pipefail

light=(linux-source-6.1 patch cpio xz-utils gzip libc6-dev gcc binutils)
full=("${light[@]}" make flex bison bc perl libelf-dev libssl-dev
	build-essential qemu-system-x86 jq git)

pkgs=("${full[@]}")
case ${1:-} in
--light) pkgs=("${light[@]}") ;;
'') ;;
*) echo "usage: $0 [--light]" >&2; exit 2 ;;
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
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}" > /tmp/install-deps.log 2>&1; then
	apt-get update > /dev/null 2>&1 || true
	apt-get install -y --no-install-recommends "${missing[@]}" >> /tmp/install-deps.log 2>&1 || {
		tail -n 20 /tmp/install-deps.log >&2
		echo "install-deps.sh: apt-get install ${missing[*]} failed (log: /tmp/install-deps.log)" >&2
		exit 2
	}
fi
