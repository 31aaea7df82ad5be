#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run by the LAVA test definition next to it, from the repository root:
#   sh docs/ci/lava/thpbench-nightly.sh KERNEL_ID DB
# Runs ./run.sh nightly, then hands each `history check --format lava`
# line (lava-test-case NAME --result R --measurement V --units U, NAME
# and U holding only [A-Za-z0-9._-]) to LAVA's lava-test-case helper,
# and reports nightly-gate: pass, or fail on a new confirmed regression.
#
# DB must outlive the job: LAVA checks this repository out afresh for
# every job (and often deploys a fresh root file system too), so a
# history inside the checkout would start empty every night and never
# gate. DB is a postgresql:// URI (the usual choice: one server for the
# lab) or an absolute path on storage that survives the job, outside
# this checkout; anything else is refused: nightly-history fails, and
# nothing runs.
set -u
# NIGHTLY and LAVA_OUT are for tests (tests/integration/ci_examples.sh).
kid=${1:-$(uname -r)}
db=${2:-}
out=${LAVA_OUT:-results/lava-nightly}

refuse() {
	echo "thpbench-nightly: $*" >&2
	lava-test-case nightly-history --result fail
	lava-test-case nightly-gate --result unknown
	exit 0
}
case $db in
'') refuse "THPBENCH_DB is not set: give a postgresql:// URI, or an absolute path that outlives the job" ;;
postgres://*|postgresql://*) ;;
/*)
	case $(realpath -m -- "$db")/ in
	"$(realpath -m -- "$(pwd)")"/*)
		refuse "THPBENCH_DB $db is inside this checkout, which the next job will not see: every night would start with an empty history" ;;
	esac ;;
*) refuse "THPBENCH_DB $db is relative, inside this checkout, which the next job will not see: give a postgresql:// URI or an absolute path that outlives the job" ;;
esac

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
