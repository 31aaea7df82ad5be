#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run the script tests from the repo root: tests/workloads/*.sh,
# tests/integration/*.sh and tests/kernel/test_*.sh (not the lib.sh and
# *_lib.sh helpers, not tests/kernel/e2e.sh, which boots kernels: make
# ab-e2e). Each runs
# under the interpreter its #! line names and exits 0 (pass), 77 (skip:
# e.g. needs root) or anything else (fail).
# Closing line: "integration: N passed, N failed, N skipped".
pass=0
fail=0
skip=0
failed=""
for t in tests/workloads/*.sh tests/integration/*.sh tests/kernel/test_*.sh; do
	[ -f "$t" ] || continue
	case $t in */lib.sh | *_lib.sh) continue ;; esac
	interp=sh
	head -n 1 "$t" | grep -q bash && interp=bash
	echo "=== $t"
	$interp "$t"
	rc=$?
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)); echo "--- skipped: $t" ;;
	*) fail=$((fail + 1)); failed="$failed $t"; echo "--- FAILED ($rc): $t" ;;
	esac
done
[ -n "$failed" ] && echo "failed:$failed"
echo "integration: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
