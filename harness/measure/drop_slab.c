// SPDX-License-Identifier: GPL-2.0-only
#include "drop_slab.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/util.h"

int drop_slab_run(const char *sysctl_root, struct metric_set *out, char *err,
		  size_t errlen)
{
	char path[4096];
	double t0;

	if (!sysctl_root) {
		snprintf(err, errlen, "drop_slab = yes: no sysctl root in use (a fake "
			 "mm root: set THPBENCH_PROC_SYS_ROOT), nothing written");
		return -1;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/vm/drop_caches",
			     sysctl_root) >= sizeof(path)) {
		snprintf(err, errlen, "drop_slab = yes: the sysctl root is too long");
		return -1;
	}
	t0 = now_usec();
	if (write_file_str(path, "2")) {
		snprintf(err, errlen, "drop_slab = yes: writing 2 to %s: %s (needs "
			 "root)", path, strerror(errno));
		return -1;
	}
	metric_set_put(out, "drop_slab.usec", now_usec() - t0);
	return 0;
}
