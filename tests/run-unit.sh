#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run each cmocka unit-test binary given on the command line; print one
# closing line "unit: N passed, N failed" (", N skipped" when some were)
# and fail if any binary failed.
# THPBENCH_UNIT_RUNNER: a command to run each binary under (make
# unit-arm64: qemu-aarch64-static). THPBENCH_UNIT_SKIP: a file of lines
# "tests/unit/LAYER/test_NAME  REASON": those are not run, the reason is
# printed (what qemu-user cannot give them).
pass=0
fail=0
skipped=0
for t in "$@"; do
	if [ -n "${THPBENCH_UNIT_SKIP:-}" ]; then
		why=$(awk -v t="$t" '!/^#/ && $1 == t { $1 = ""; sub(/^ +/, ""); print; exit }' "$THPBENCH_UNIT_SKIP")
		if [ -n "$why" ]; then
			echo "SKIPPED: $t: $why"
			skipped=$((skipped + 1))
			continue
		fi
	fi
	# shellcheck disable=SC2086
	if ${THPBENCH_UNIT_RUNNER:-} "./$t"; then
		pass=$((pass + 1))
	else
		echo "FAILED: $t" >&2
		fail=$((fail + 1))
	fi
done
if [ "$skipped" -gt 0 ]; then
	echo "unit: $pass passed, $fail failed, $skipped skipped"
else
	echo "unit: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
