// SPDX-License-Identifier: GPL-2.0-only
#include "perf_read.h"

#include <linux/perf_event.h>
#include <string.h>

/* Older uapi headers lack it (6.0+); the kernel ignores what it does not know. */
#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

static size_t header_words(uint64_t fmt)
{
	return !!(fmt & PERF_FORMAT_GROUP) +
	       !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	       !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);
}

static size_t entry_words(uint64_t fmt)
{
	return 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
}

size_t perf_read_size(uint64_t read_format, size_t nr)
{
	if (!(read_format & PERF_FORMAT_GROUP))
		nr = 1;
	return (header_words(read_format) + nr * entry_words(read_format)) *
	       sizeof(uint64_t);
}

/* The single layout: value first, then the times (perf_read_one()). */
static int parse_one(const uint64_t *w, size_t words, uint64_t fmt,
		     struct perf_count *out)
{
	size_t i = 1;

	if (words != header_words(fmt) + entry_words(fmt))
		return -1;
	out->value = w[0];
	out->enabled = fmt & PERF_FORMAT_TOTAL_TIME_ENABLED ? w[i++] : 0;
	out->running = fmt & PERF_FORMAT_TOTAL_TIME_RUNNING ? w[i] : 0;
	return 1;
}

int perf_read_parse(const void *buf, size_t len, uint64_t read_format,
		    struct perf_count *out, size_t max)
{
	uint64_t w[512], enabled = 0, running = 0, nr;
	size_t words = len / sizeof(uint64_t), i = 1, k;

	if (len % sizeof(uint64_t) || words > sizeof(w) / sizeof(w[0]) ||
	    words == 0 || max == 0)
		return -1;
	memcpy(w, buf, len);	/* the caller's buffer need not be aligned */
	if (!(read_format & PERF_FORMAT_GROUP))
		return parse_one(w, words, read_format, out);
	nr = w[0];
	if (nr == 0 || nr > max ||
	    words != header_words(read_format) + nr * entry_words(read_format))
		return -1;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		enabled = w[i++];
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		running = w[i++];
	for (k = 0; k < nr; k++, i += entry_words(read_format)) {
		out[k].value = w[i];
		out[k].enabled = enabled;
		out[k].running = running;
	}
	return (int)nr;
}

enum perf_counted perf_count_scale(const struct perf_count *c, double *value,
				   double *share_pct)
{
	if (c->enabled == 0)
		return PERF_NOT_ENABLED;
	if (c->running == 0)
		return PERF_NOT_COUNTED;
	if (c->running >= c->enabled) {
		*value = (double)c->value;
		*share_pct = 100;
		return PERF_COUNTED_FULL;
	}
	*value = (double)c->value * ((double)c->enabled / (double)c->running);
	*share_pct = 100 * (double)c->running / (double)c->enabled;
	return PERF_COUNTED_SCALED;
}
