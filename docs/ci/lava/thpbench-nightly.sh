#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run by the LAVA test definition next to it, from the repository root:
#   sh docs/ci/lava/thpbench-nightly.sh KERNEL_ID DB
# Runs ./run.sh nightly, then hands each `history check --format lava`
# line (lava-test-case NAME --result R --measurement V --units U, NAME
# and U holding only [A-Za-z0-9._-]) to LAVA's lava-test-case helper,
# and reports nightly-gate: pass, or fail on a new confirmed regression.
set -u
# NIGHTLY and LAVA_OUT are for tests (tests/integration/ci_examples.sh).
kid=${1:-$(uname -r)}
db=${2:-results/history.sqlite}
out=${LAVA_OUT:-results/lava-nightly}
rm -rf "$out"
${NIGHTLY:-./run.sh nightly} --kernel-id "$kid" --db "$db" -o "$out"
rc=$?
if [ -f "$out/results.json" ]; then
	host=$(jq -r .env.hostname "$out/results.json")
	suite=$(jq -r .meta.suite "$out/results.json")
	./harness/thpbench history check --db "$db" --host "$host" \
		--suite "$suite" --format lava -o "$out/lava-cases.txt"
	# Each line is a command; words split on blanks, no other expansion.
	grep '^lava-test-case [A-Za-z0-9._/-]* ' "$out/lava-cases.txt" |
	while read -r cmd name rest; do
		# shellcheck disable=SC2086
		lava-test-case "$name" $rest
	done
fi
case $rc in
0) lava-test-case nightly-gate --result pass ;;
1) lava-test-case nightly-gate --result fail ;;
*) lava-test-case nightly-gate --result unknown ;;
esac
exit 0
