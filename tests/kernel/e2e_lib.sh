# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# What the kernel e2e checks share (sourced; make gcov-e2e, profile-e2e):
# the repo root as the working directory, ok/fail lines named after the
# script (E2E_NAME), and the closing verdict. Exit 0 pass, 1 fail; a
# script exits 2 itself when its flow failed.
set -uo pipefail
REPO_DIR=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO_DIR" || exit 2
e2e_fails=0
fail() { echo "$E2E_NAME: FAIL: $*"; e2e_fails=$((e2e_fails + 1)); }
ok() { echo "$E2E_NAME: ok: $*"; }
# e2e_finish T0 OUT: the time since T0 and where everything is, then exit.
e2e_finish()
{
	echo "$E2E_NAME: took $((SECONDS - $1)) s; everything is in $2"
	[ "$e2e_fails" = 0 ] || { echo "$E2E_NAME: $e2e_fails check(s) failed"; exit 1; }
	echo "$E2E_NAME: pass"
	exit 0
}
