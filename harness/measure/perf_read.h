/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf_read - what read() on a perf event fd returns, and how perf stat
 * turns it into the number it prints.
 *
 * The layout depends on the event's read_format (perf_event_open(2); the
 * kernel's perf_read_one() and perf_read_group()), every field a u64:
 *   without PERF_FORMAT_GROUP:
 *       value, [time_enabled], [time_running], [id], [lost]
 *   with PERF_FORMAT_GROUP (read on the leader; members in the order they
 *   were opened):
 *       nr, [time_enabled], [time_running], nr x { value, [id], [lost] }
 * A group has one enabled/running pair: its members are put on the PMU
 * and taken off together, so ratios inside a group compare the same time.
 *
 * Scaling, as perf stat does: when the PMU had fewer counters than events
 * it time-multiplexes them; an event then counted only `running` of the
 * `enabled` nanoseconds and perf reports value * enabled / running with
 * the share running / enabled beside it. A share of 0 (running == 0) is
 * "<not counted>": no value, never a 0 and never a guess.
 */
#ifndef THPBENCH_PERF_READ_H
#define THPBENCH_PERF_READ_H

#include <stddef.h>
#include <stdint.h>

struct perf_count {
	uint64_t value;
	uint64_t enabled, running;	/* ns; 0 when read_format lacks them */
};

/* Bytes read() returns for nr events (nr is 1 without GROUP). */
size_t perf_read_size(uint64_t read_format, size_t nr);

/*
 * Parse len bytes read from an fd with read_format into out[0..max).
 * Returns the number of counts (1 without GROUP, nr with it), or -1 when
 * the buffer is shorter or longer than its layout says, or nr > max.
 * Without TOTAL_TIME_ENABLED/RUNNING the times are 0 (nothing to scale by).
 */
int perf_read_parse(const void *buf, size_t len, uint64_t read_format,
		    struct perf_count *out, size_t max);

enum perf_counted {
	PERF_COUNTED_FULL,	/* ran the whole time it was enabled */
	PERF_COUNTED_SCALED,	/* multiplexed: value scaled up */
	PERF_NOT_ENABLED,	/* enabled == 0: never enabled, nothing to say */
	PERF_NOT_COUNTED,	/* enabled > 0, running == 0: "<not counted>" */
};

/*
 * The value perf stat prints and the share of the enabled time it was
 * counting (percent, 100 when not multiplexed). For PERF_NOT_ENABLED and
 * PERF_NOT_COUNTED, *value and *share_pct are left untouched.
 */
enum perf_counted perf_count_scale(const struct perf_count *c, double *value,
				   double *share_pct);

#endif
