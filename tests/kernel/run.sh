#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the light kernel A/B tests (tests/kernel/test_*.sh: no kernel build,
# no qemu). Each exits 0 pass, 77 skip, anything else fail. Prints one
# closing line "kernel: N passed, N failed, N skipped"; fails if any failed.
dir=$(dirname "$0")
pass=0
fail=0
skip=0
for t in "$dir"/test_*.sh; do
	bash "$t"
	rc=$?
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)) ;;
	*) echo "FAILED: $t (exit $rc)" >&2; fail=$((fail + 1)) ;;
	esac
done
echo "kernel: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
