// SPDX-License-Identifier: GPL-2.0-only
/* cli_session_opt - options run and coverage share (cli_session_opt.h). */
#include "cli_session_opt.h"

#include "measure/progress.h"
#include "util/util.h"

static int whole(const char *opt, const char *arg, long min)
{
	long v;

	if (parse_long(arg, &v) || v < min || v > 1000000)
		tb_die("%s: \"%s\" is not a whole number >= %ld", opt, arg, min);
	return (int)v;
}

bool cli_session_opt(int c, const char *arg, struct session_opts *o)
{
	long v;

	switch (c) {
	case CLI_OPT_OUTDIR: o->outdir = arg; return true;
	case CLI_OPT_THP: o->thp = arg; return true;
	case CLI_OPT_REPS: o->reps = whole("-r", arg, 1); return true;
	case CLI_OPT_WARMUP: o->warmup = whole("--warmup", arg, 0); return true;
	case CLI_OPT_SEED:
		if (parse_long(arg, &v) || v < 0)
			tb_die("--seed: \"%s\" is not a whole number", arg);
		o->seed = (unsigned long)v;
		o->seed_set = true;
		return true;
	case CLI_OPT_WAIT:
		o->wait_s = -1;
		if (arg && (parse_double(arg, &o->wait_s) || o->wait_s < 0 ||
			    o->wait_s > 1e7))
			tb_die("--wait: \"%s\" is not a number of seconds", arg);
		return true;
	case CLI_OPT_PROGRESS:
		v = progress_mode_parse(arg);
		if (v < 0)
			tb_die("--progress: \"%s\" is not auto, tty, lines or none", arg);
		o->progress = (enum progress_mode)v;
		return true;
	}
	return false;
}
