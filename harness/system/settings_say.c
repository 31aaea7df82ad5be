// SPDX-License-Identifier: GPL-2.0-only
#include "settings_say.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/util.h"

void settings_say(const struct settings_sink *s, bool warning,
		  const char *fmt, ...)
{
	char msg[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s && s->fn)
		s->fn(s->arg, warning, msg);
	else if (warning)
		tb_warn("%s", msg);
	else
		tb_err("%s", msg);
}
