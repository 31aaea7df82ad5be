// SPDX-License-Identifier: GPL-2.0-only
#include "cli_err.h"

#include <stdbool.h>
#include <string.h>

#include "util/util.h"

static void each_line(const char *msg, bool warning)
{
	while (msg && *msg) {
		int len = (int)strcspn(msg, "\n");

		if (warning)
			tb_warn("%.*s", len, msg);
		else
			tb_err("%.*s", len, msg);
		msg += len;
		msg += *msg == '\n';
	}
}

void cli_err(const char *msg)
{
	each_line(msg, false);
}

void cli_warn(const char *msg)
{
	each_line(msg, true);
}

void cli_say(void *arg, bool warning, const char *msg)
{
	(void)arg;
	if (warning)
		cli_warn(msg);
	else
		cli_err(msg);
}
