#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The steps of the thpbench LAVA test definition, in the guest
# (/bin/thpbench-lava-test; configs/lava/README.md): LAVA's test shell
# types this one command at the guest's shell (init.c, thpbench.shell=1).
#
#  1. runs the suite as the A/B guest does (init --run: the argv file,
#     its label from the kernel command line);
#  2. hands LAVA one test case per suite case (pass, fail or skip) and one
#     per case and metric with its mean, --measurement V --units U
#     (thpbench lava cases: the names and units hold only [A-Za-z0-9._-]);
#     then "suite" (pass when the run exited 0);
#  3. sends results.json over the console in init's framed base64
#     (THPBENCH-RESULT-BEGIN ... END, a CRC and the length): every
#     repetition's values and the environment, which LAVA's test cases
#     cannot carry, reach the job log, where `thpbench history import
#     --lava LOG` takes them (docs/lava.md says why this path).
# lava-test-case comes from LAVA's overlay (on PATH in the test shell).
# Exits 0: the verdicts are in the cases, not in this exit status.
/init --run
st=$?
out=/tmp/out/results.json
if [ -f "$out" ] && /bin/thpbench lava cases "$out" > /tmp/lava-cases; then
	# Each line is "lava-test-case NAME --result R [--measurement V --units U]";
	# words split on blanks only, no other expansion.
	while read -r cmd name rest; do
		[ "$cmd" = lava-test-case ] || continue
		# shellcheck disable=SC2086
		lava-test-case "$name" $rest
	done < /tmp/lava-cases
fi
if [ "$st" = 0 ]; then
	lava-test-case suite --result pass
else
	lava-test-case suite --result fail
fi
/init --emit "$out" "$st"
exit 0
