/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lava_log - the one reader of a LAVA job log: what lava-run prints on
 * stdout (one entry a line) and what a server keeps as output.yaml and
 * serves at /api/v0.2/jobs/N/logs/ (the same entries, each line a YAML
 * list item "- {...}").
 *
 * An entry is a YAML flow mapping that is JSON but for one thing: LAVA
 * tags some strings with YAML's non-specific tag ("endtc": ! "422",
 * "measurement": ! "1048576.0"). The tag is dropped (outside strings
 * only) and the line parsed as JSON. Keys read: "lvl" and "msg".
 *   lvl "target": msg is one line the device printed (its console) ->
 *     cb->target(line). The text is the device's: hostile, passed on as
 *     it is (cut at the first NUL); the caller validates what it takes
 *     (the results block has a length and a CRC, extract-results.sh).
 *   lvl "results": msg {definition, case, result[, measurement, units]}
 *     -> cb->result(). Strings only (a measurement as LAVA wrote it, a
 *     number or a string holding one); a result missing definition, case
 *     or result is counted as unread.
 * Every other entry (debug, info, input, feedback...) is skipped. A line
 * that is not an entry (blank lines, YAML document markers aside) is not
 * fatal: the device's bytes reach the log, and one odd line must not
 * lose the rest. It is counted (*unread) and the first one's number kept
 * (*first_unread) so the caller can say which.
 * Lines longer than LAVA_LOG_LINE_MAX are unread too.
 * Returns 0, or -1 with errno when the file cannot be read.
 */
#ifndef THPBENCH_LAVA_LOG_H
#define THPBENCH_LAVA_LOG_H

#include <stddef.h>
#include <stdio.h>

#define LAVA_LOG_LINE_MAX (1024 * 1024)

struct lava_result {
	const char *definition;
	const char *name;		/* the test case */
	const char *result;		/* pass, fail, skip, unknown */
	const char *measurement;	/* NULL when none */
	const char *units;		/* NULL when none */
};

struct lava_log_cb {
	void (*target)(const char *line, void *arg);
	void (*result)(const struct lava_result *r, void *arg);
	void *arg;
};

struct lava_log_stats {
	size_t entries;		/* lines read as entries */
	size_t unread;		/* lines that were not */
	size_t first_unread;	/* line number of the first, 0 when none */
};

int lava_log_read(FILE *f, const struct lava_log_cb *cb, struct lava_log_stats *st);

#endif
