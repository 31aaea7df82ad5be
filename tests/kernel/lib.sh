# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034
#
# Helpers for the light kernel A/B tests: exit 0 pass, 77 skip, else fail.
# Sourced by tests/kernel/test_*.sh.

REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
KP=$REPO_DIR/kernel-patches
T_NAME=$(basename "$0" .sh)
T_FAILS=0

skip() { echo "$T_NAME: SKIP: $*"; exit 77; }
fail() { echo "$T_NAME: FAIL: $*"; T_FAILS=$((T_FAILS + 1)); }
ok() { echo "$T_NAME: ok: $*"; }

t_tmp=$(mktemp -d)
# T_KEEP=1 keeps the scratch directory (named on stderr) for a look.
trap 'if [ -n "${T_KEEP:-}" ]; then echo "kept $t_tmp" >&2; else rm -rf "$t_tmp"; fi' EXIT

# Build the static init (its --emit mode is the real transfer encoder).
build_init()
{
	gcc -static -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
		-o "$t_tmp/init" "$KP/init/init.c" 2> "$t_tmp/init.err" ||
		skip "cannot link a static program ($(head -1 "$t_tmp/init.err"))"
}

finish()
{
	if [ "$T_FAILS" -ne 0 ]; then
		echo "$T_NAME: $T_FAILS check(s) failed"
		exit 1
	fi
	echo "$T_NAME: pass"
	exit 0
}
