# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the integration tests (sourced). They run against the real
# machine, so every test that may change settings saves THP "enabled"
# and restores it on any exit.

TB=./harness/thpbench
THP=/sys/kernel/mm/transparent_hugepage/enabled
nfail=0

ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else bad "$desc"; fi; }
# jqe FILTER FILE: jq -e, quietly (a redirect after check's arguments
# would silence check's own "ok:" line too).
jqe() { jq -e "$@" >/dev/null; }

need_root() {
	if [ "$(id -u)" != 0 ] || [ ! -w "$THP" ]; then
		echo "skip: needs root and a writable $THP"
		exit 77
	fi
}

# As root with a user nobody that can run $TB: not from a checkout under
# a directory only root may enter (mktemp -d makes one 0700), where the
# runs as nobody cannot test anything and are left out, said.
nobody_runs_tb() {
	[ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1 || return 1
	su nobody -s /bin/sh -c "test -x $TB" 2>/dev/null && return 0
	echo "skip: user nobody cannot execute $TB from $(pwd) (a directory above it closed to others): the runs as nobody are left out"
	return 1
}

thp_mode() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$THP"; }

# Remember THP "enabled" and put it back on every exit path.
guard_thp() {
	THP_SAVED=$(thp_mode)
	trap 'echo "$THP_SAVED" > "$THP"; rm -rf "$TMPD"' EXIT
	trap 'exit 130' INT TERM HUP
}

TMPD=$(mktemp -d)

finish() {
	[ "$nfail" -eq 0 ] && exit 0
	echo "$nfail check(s) failed"
	exit 1
}

# Smallest value of a metric over a case's ok runs: minimum FILE CASE_ID METRIC
minimum() {
	jq -r --arg id "$2" --arg m "$3" '
		[.cases[] | select(.id == $id) | .runs[] | select(.status == "ok")
		 | .metrics[$m] | select(. != null)] | min // "none"' "$1"
}
