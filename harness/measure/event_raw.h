/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * event_raw - perf's raw event syntax, for CPUs whose events libpfm4 has
 * no table for (Zen 5, Emerald/Granite Rapids, hybrid Alder Lake, arm64):
 *   rHEX                      PERF_TYPE_RAW, config = HEX (perf's "r1a8");
 *                             on arm64 the PMUv3 event number ("r34")
 *   PMU/term=value,.../       an x86 core event on the PMU named PMU
 *                             (cpu, cpu_core, cpu_atom): terms event
 *                             (12 bits, AMD's high 4 at config 35:32),
 *                             umask, cmask (8 bits each), inv, edge
 *                             (0 or 1; a bare "inv" is 1), as perf's
 *                             /sys/bus/event_source/devices/cpu/format.
 * The PMU's type is read from <sysfs>/PMU/type, <sysfs> being
 * $THPBENCH_PMU_SYSFS (tests) or /sys/bus/event_source/devices. "cpu"
 * without that file is PERF_TYPE_RAW (x86's core PMU always is); another
 * PMU without it encodes with ev->unavailable saying the PMU is not on
 * this machine, so a run records each such event <not supported> with
 * that reason instead of opening it on the wrong PMU.
 */
#ifndef THPBENCH_EVENT_RAW_H
#define THPBENCH_EVENT_RAW_H

#include "events.h"

/* 1: name is raw syntax, encoded into ev; 0: not raw syntax (try the
 * next kind); -1: raw syntax with a bad term (ev->error says which). */
int event_raw_encode(const char *name, struct event_spec *ev);

#endif
