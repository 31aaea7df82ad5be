/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tp_pin - keep tracepoint events registered for the whole session.
 *
 * When the last perf event on a tracepoint is closed the kernel
 * unregisters its probe and waits for an RCU grace period
 * (tracepoint_synchronize_unregister() in perf_trace_event_unreg()): tens
 * of milliseconds per repetition here, which is what `perf stat -r` pays
 * with a tracepoint in its list. Holding one disabled event per
 * tracepoint on the harness itself keeps the probe registered, so the
 * per-child events open and close cheaply. The pinned events never
 * count (disabled, never enabled) and are closed by tp_unpin().
 */
#ifndef THPBENCH_TP_PIN_H
#define THPBENCH_TP_PIN_H

#include <stddef.h>

#include "events.h"

/* Pin every tracepoint in evs; returns how many were pinned. */
size_t tp_pin(const struct event_spec *evs, size_t n);
void tp_unpin(void);

#endif
