#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run each cmocka unit-test binary given on the command line; print one
# closing line "unit: N passed, N failed" and fail if any binary failed.
pass=0
fail=0
for t in "$@"; do
	if "./$t"; then
		pass=$((pass + 1))
	else
		echo "FAILED: $t" >&2
		fail=$((fail + 1))
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
