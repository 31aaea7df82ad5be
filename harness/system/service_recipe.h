/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * service_recipe - what a suite case's `service =` asks for, parsed once
 * for the suite check (measure/case_res_spec.c) and for starting it
 * (res_service.c), so both agree on the grammar:
 *
 *   service = redis
 *           | postgres[:OPT[,OPT]]
 *   OPT:      huge_pages=on|off|try          (default off)
 *             shared_buffers=SIZE            (1M..64G, default 128M)
 *
 * No other program, option or value; an option twice is refused (the
 * second would silently win). Nothing of the string reaches a shell: the
 * server's command line is built from the parsed fields alone.
 */
#ifndef THPBENCH_SERVICE_RECIPE_H
#define THPBENCH_SERVICE_RECIPE_H

#include <stddef.h>
#include <stdint.h>

enum svc_prog { SVC_REDIS = 1, SVC_POSTGRES };
enum svc_huge { SVC_HUGE_OFF = 0, SVC_HUGE_ON, SVC_HUGE_TRY };

#define SVC_SHARED_BUFFERS_DEF (128ULL << 20)
#define SVC_SHARED_BUFFERS_MIN (1ULL << 20)
#define SVC_SHARED_BUFFERS_MAX (64ULL << 30)

struct svc_recipe {
	enum svc_prog prog;
	enum svc_huge huge_pages;	/* postgres only */
	uint64_t shared_buffers;	/* bytes; postgres only */
};

/* Parse spec into r. 0, or -1 with err saying what is wrong and what
 * would be right. */
int svc_recipe_parse(const char *spec, struct svc_recipe *r, char *err,
		     size_t errlen);

/* "redis", "postgres"; "on", "off", "try". */
const char *svc_prog_name(enum svc_prog p);
const char *svc_huge_name(enum svc_huge h);

#endif
