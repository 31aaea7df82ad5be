/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tp_pin - keep tracepoint and software events registered for the whole
 * session.
 *
 * When the last perf event on a tracepoint is closed the kernel
 * unregisters its probe and waits for an RCU grace period
 * (tracepoint_synchronize_unregister() in perf_trace_event_unreg()): tens
 * of milliseconds per repetition here, which is what `perf stat -r` pays
 * with a tracepoint in its list. A software event (page-faults,
 * context-switches, ...; not cpu-clock or task-clock, which have their
 * own PMUs) turns a static key on when the first is opened and off when
 * the last is closed (perf_swevent_init(), sw_perf_event_destroy()), and
 * each flip patches the kernel's text with IPIs to every CPU. Holding
 * one disabled event per tracepoint and software event on the harness
 * itself keeps the probe registered and the key on, so the per-child
 * events open and close cheaply; the workload runs with them on, as it
 * does anyway while its own events are open. The pinned events never
 * count (disabled, never enabled) and are closed by tp_unpin().
 */
#ifndef THPBENCH_TP_PIN_H
#define THPBENCH_TP_PIN_H

#include <stddef.h>

#include "events.h"

/* Pin every tracepoint and software event in evs; returns how many are
 * pinned. */
size_t tp_pin(const struct event_spec *evs, size_t n);
void tp_unpin(void);

#endif
