#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/pmu_hw (make pmu-e2e's known instruction count): options, the
# metric fd, and the count it promises: expected_instructions is 2 x
# --iters on arm64 and x86-64 (the loop is assembly there), 0 elsewhere.
# The count itself is checked against a PMU in tests/kernel/pmu_e2e.sh.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/pmu_hw
need_bin "$bin"

check_usage "$bin"
check_value_opt "$bin" --iters count
check_metric_fd "metric fd" "iters expected_instructions roi_usec" "$bin" --iters 123457
case $(uname -m) in
x86_64|aarch64) want=246914 ;;
*) want=0 ;;
esac
[ "$(metric_value "$tmp/metrics" expected_instructions)" = "$want" ] &&
	pass "expected_instructions $want for --iters 123457 on $(uname -m)" ||
	fail "expected_instructions $(metric_value "$tmp/metrics" expected_instructions), wanted $want"
expect_grep "$tmp/out" '^ok$' "prints ok"

finish
