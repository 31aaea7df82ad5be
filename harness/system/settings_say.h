/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * settings_say - where the settings code's messages go: what it says
 * while it goes on (a crashed run's knobs restored, waiting for the lock,
 * a knob that would not go back), as opposed to the error of a function
 * that fails, which it returns in err/errlen.
 *
 * A caller that prints (the cli) gives a sink, and the messages reach
 * it without the "thpbench: " prefix; the library prints nothing then.
 * With no sink (fn NULL) they go to stderr through tb_warn()/tb_err().
 * That is the one exception to "the library does not print"
 * (history_db.h), kept for where no cli is left to print: settings_end
 * from the atexit hook and the signal path (settings_guard.h) after a
 * tb_die() or a signal, and `thpbench run` until it gives a sink; and
 * settings_guard.c's two warnings that the workload's pid cannot be
 * recorded (settings_set_child runs in the measuring loop, which holds
 * no settings_ctx).
 */
#ifndef THPBENCH_SETTINGS_SAY_H
#define THPBENCH_SETTINGS_SAY_H

#include <stdbool.h>

/* One message: warning, else an error (something failed, said, and the
 * caller goes on or fails later). msg is valid during the call only. */
typedef void (*settings_say_fn)(void *arg, bool warning, const char *msg);

struct settings_sink {
	settings_say_fn fn;	/* NULL: tb_warn()/tb_err() */
	void *arg;
};

/* Format and hand a message to s (NULL: as a sink with no fn). */
void settings_say(const struct settings_sink *s, bool warning,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
