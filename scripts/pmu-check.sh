#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# ./run.sh pmu-check [-o DIR]: can this machine count the TLB profile, and
# do its counters count what they should? Opens the profile first (no PMU:
# says so, exit 2, nothing run); then runs configs/pmu-check.conf (results
# in DIR, default results/pmu-check-DATE) and judges it. Exit 0 the
# counters behave, 1 they do not, 2 no PMU / cannot tell / error.
set -u
cd "$(dirname "$0")/.."
tb=./harness/thpbench
out=results/pmu-check-$(date +%Y%m%d-%H%M%S)
usage="usage: ./run.sh pmu-check [-o DIR]"
case ${1:-} in
-h|--help)
	echo "$usage"
	awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, "  "); print }' "$0"
	exit 0 ;;
-o) [ $# -eq 2 ] || { echo "$usage" >&2; exit 2; }
    out=$2 ;;
'') ;;
*) echo "$usage" >&2; exit 2 ;;
esac
"$tb" pmu-check --probe || exit $?
echo
"$tb" run configs/pmu-check.conf -o "$out" || exit 2
echo
"$tb" pmu-check "$out/results.json"
