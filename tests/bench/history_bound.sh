#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 18's replay figure (+5% at 3% CV with 2% night-to-night noise,
# caught within 3 nights, at most 5 in 100 A/A histories of 60 nights
# failing) against what rules that know more than a detector can reach:
# a Neyman-Pearson bound for any rule, rules that know the true level and
# spread, one that estimates them, and the gate itself, at 5 and 10
# repetitions (tests/history/histbound.c says how each is computed).
# Not a test: fixed seeds, about 25 s on 2 cores.
#   tests/bench/history_bound.sh [--reps R]... [--sims N] [--seeds N] [--aa-seeds N]
set -e
cd "$(dirname "$0")/../.."
[ -x tests/history/histbound ] || make -s tests/history/histbound
exec tests/history/histbound "$@"
