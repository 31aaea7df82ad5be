#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install Debian packages with apt-get, waiting (up to 10 minutes) for the
# dpkg/apt lock when another apt or unattended-upgrades holds it, instead
# of failing at once. Used by scripts/install-deps.sh and
# kernel-patches/scripts/install-deps.sh.
# Usage: scripts/apt-install.sh PKG...   (root)
# Exit 0 installed; 2 apt-get failed (its last lines are shown) or the
# lock stayed taken.
case ${1:-} in
-h|--help)
	echo "usage: $0 PKG...   (root)"
	awk 'NR > 2 && !/^#/ { exit } NR > 2 && !/^# Usage/ { sub(/^# ?/, "  "); print }' "$0"
	exit 0 ;;
esac
[ $# -gt 0 ] || { echo "usage: $0 PKG..." >&2; exit 2; }
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
wait_s=${THPBENCH_APT_LOCK_WAIT:-600}
retry_s=${THPBENCH_APT_RETRY_S:-5}

# apt-get with the lock timeout (apt >= 1.9.11 waits itself); older apt,
# and the lists lock of `update`, fail with "Could not get lock": retry.
apt_locked()
{
	t0=$(date +%s)
	while :; do
		apt-get -o DPkg::Lock::Timeout="$wait_s" "$@" > "$log" 2>&1 && return 0
		grep -q 'Could not get lock\|Unable to acquire the dpkg frontend lock\|is another process using it' "$log" ||
			return 1
		[ $(($(date +%s) - t0)) -lt "$wait_s" ] || return 1
		echo "apt-install: another apt holds the lock; waiting" >&2
		sleep "$retry_s"
	done
}

apt_locked -qq update || true
if ! apt_locked install -y -qq --no-install-recommends "$@"; then
	tail -n 20 "$log" >&2
	echo "apt-install: apt-get install $* failed" >&2
	exit 2
fi
