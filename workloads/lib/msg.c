// SPDX-License-Identifier: GPL-2.0-only
/*
 * Messages go to stderr with the program's name so that a harness log
 * holding several workloads' output says which one complained.
 */
#include "wl.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", program_invocation_short_name, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void wl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void wl_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	exit(WL_EXIT_USAGE);
}

void wl_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	exit(WL_EXIT_FAIL);
}

void wl_invalid(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("invalid measurement: ", fmt, ap);
	va_end(ap);
	exit(WL_EXIT_INVALID);
}

void wl_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	fputs(usage, stderr);
	exit(WL_EXIT_USAGE);
}

void wl_usage_exit(const char *usage)
{
	fputs(usage, stdout);
	exit(WL_EXIT_OK);
}

void wl_opt_fallback(int c, const char *usage)
{
	if (c == 'h')
		wl_usage_exit(usage);
	wl_usage_error(usage, "bad command line");
}

void wl_no_operands(int argc, char **argv, const char *usage)
{
	if (optind < argc)
		wl_usage_error(usage, "unexpected argument '%s'", argv[optind]);
}
