#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 32's confirmation A/B, simulated (tests/history/histconfirm.c):
# +5% at 3% CV with 2% night-to-night noise; a suspicious night runs the
# last good and the suspect kernel A B A B in that night (the runs share
# the night's offset) and compare's verdict decides. Prints, per
# suspicion rule and repetitions a kernel, the steps caught within 2
# nights of 50, A/A histories failed of 100 over 60 nights, confirmations
# a night and the extra runs each costs. Not a test: fixed seeds, a few
# seconds. Figures: docs/history.md.
#   tests/bench/history_confirm.sh [histconfirm options]   (--help)
set -e
case ${1:-} in
-h|--help)
	echo "usage: $0 [--reps-per-kernel K]... [--suspect watch|LEVEL]... [--confidence C] [--seeds N] [--aa-seeds N] [--boot-cv C]"
	echo "  the confirmation A/B of issue 32, simulated on histgen's night-noise model"
	exit 0 ;;
esac
cd "$(dirname "$0")/../.."
make -s tests/history/histconfirm
exec tests/history/histconfirm "$@"
