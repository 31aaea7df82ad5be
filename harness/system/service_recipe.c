// SPDX-License-Identifier: GPL-2.0-only
/* service_recipe - the `service =` grammar (service_recipe.h). */
#include "service_recipe.h"
#include "util/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define USAGE "redis | postgres[:huge_pages=on|off|try,shared_buffers=SIZE]"

const char *svc_prog_name(enum svc_prog p)
{
	return p == SVC_REDIS ? "redis" : p == SVC_POSTGRES ? "postgres" : "?";
}

const char *svc_huge_name(enum svc_huge h)
{
	return h == SVC_HUGE_ON ? "on" : h == SVC_HUGE_TRY ? "try" : "off";
}

static int pg_opt(char *opt, struct svc_recipe *r, bool *seen_huge,
		  bool *seen_sb, char *err, size_t errlen)
{
	char *val = strchr(opt, '=');

	if (!val) {
		snprintf(err, errlen, "\"%.64s\" is not OPT=VALUE (%s)",
			 opt, USAGE);
		return -1;
	}
	*val++ = '\0';
	if (!strcmp(opt, "huge_pages")) {
		if (*seen_huge) {
			snprintf(err, errlen, "huge_pages given twice");
			return -1;
		}
		*seen_huge = true;
		if (!strcmp(val, "on"))
			r->huge_pages = SVC_HUGE_ON;
		else if (!strcmp(val, "try"))
			r->huge_pages = SVC_HUGE_TRY;
		else if (!strcmp(val, "off"))
			r->huge_pages = SVC_HUGE_OFF;
		else {
			snprintf(err, errlen, "huge_pages \"%.32s\" is not on, off or try",
				 val);
			return -1;
		}
		return 0;
	}
	if (!strcmp(opt, "shared_buffers")) {
		if (*seen_sb) {
			snprintf(err, errlen, "shared_buffers given twice");
			return -1;
		}
		*seen_sb = true;
		if (parse_size(val, &r->shared_buffers) ||
		    r->shared_buffers < SVC_SHARED_BUFFERS_MIN ||
		    r->shared_buffers > SVC_SHARED_BUFFERS_MAX) {
			snprintf(err, errlen, "shared_buffers \"%.32s\" is not a size from 1M to 64G",
				 val);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "unknown postgres option \"%.32s\" (huge_pages, shared_buffers)",
		 opt);
	return -1;
}

int svc_recipe_parse(const char *spec, struct svc_recipe *r, char *err,
		     size_t errlen)
{
	bool seen_huge = false, seen_sb = false;
	char buf[256], *opts, *o, *save = NULL;

	memset(r, 0, sizeof(*r));
	r->shared_buffers = SVC_SHARED_BUFFERS_DEF;
	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "longer than %zu characters",
			 sizeof(buf) - 1);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	opts = strchr(buf, ':');
	if (opts)
		*opts++ = '\0';
	if (!strcmp(buf, "redis")) {
		r->prog = SVC_REDIS;
		if (opts) {
			snprintf(err, errlen, "redis takes no options (%s)",
				 USAGE);
			return -1;
		}
		return 0;
	}
	if (strcmp(buf, "postgres")) {
		snprintf(err, errlen, "\"%.64s\" is not a service (%s)",
			 buf, USAGE);
		return -1;
	}
	r->prog = SVC_POSTGRES;
	if (!opts)
		return 0;
	if (!*opts || opts[strlen(opts) - 1] == ',' || strstr(opts, ",,")) {
		snprintf(err, errlen, "an empty option after \"postgres:\" (%s)",
			 USAGE);
		return -1;
	}
	for (o = strtok_r(opts, ",", &save); o; o = strtok_r(NULL, ",", &save))
		if (pg_opt(o, r, &seen_huge, &seen_sb, err, errlen))
			return -1;
	return 0;
}
