#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# How well `history check` finds the changes of synthetic nightly
# histories (tests/history/histeval: 92 histories a seed in twelve
# families, as issue 32 lists the failure modes: several noise shapes and
# levels, outlier nights, gaps, several steps, drifts, variance-only and
# host changes): hits, misses, false alarms and F1 per family and over
# all, A/A histories that raised an alarm, drift findings. Two seed
# ranges, printed apart: development (1..N, tune on these) and held-out
# (10001.., look only when a change is finished). Not a test: a measure
# to compare detectors. Figures: docs/history.md.
#   tests/bench/history_f1.sh [--dev N] [--held-out N] [--verbose]   (default 10 and 10)
set -e
case ${1:-} in
-h|--help)
	echo "usage: $0 [--dev N] [--held-out N] [--first S] [--verbose]"
	echo "  F1 and A/A of history check on synthetic histories, development and held-out seeds"
	exit 0 ;;
esac
cd "$(dirname "$0")/../.."
make -s tests/history/histeval
exec tests/history/histeval "$@"
