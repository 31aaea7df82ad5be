// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench list - what can be run and counted here.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "events.h"
#include "plan.h"
#include "settings.h"
#include "util.h"

static void list_dir(const char *dir, const char *suffix, bool want_exec)
{
	struct dirent **names;
	char path[PATH_MAX * 2];
	int i, n = scandir(dir, &names, NULL, alphasort);

	if (n < 0) {
		printf("  (cannot read %s)\n", dir);
		return;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name), slen = strlen(suffix);
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (name[0] != '.' && !stat(path, &st) && S_ISREG(st.st_mode) &&
		    (!want_exec || !access(path, X_OK)) &&
		    len > slen && !strcmp(name + len - slen, suffix))
			printf("  %s\n", path);
		free(names[i]);
	}
	free(names);
}

static void list_workloads(void)
{
	char *probe = workload_path("mremap"), *slash;

	printf("Workloads:\n");
	slash = strrchr(probe, '/');
	if (slash) {
		*slash = '\0';
		list_dir(probe, "", true);
	} else {
		printf("  (not built: run make)\n");
	}
	free(probe);
}

static void list_settings(void)
{
	struct settings_ctx ctx;
	char modes[8][16], cur[64] = "?";
	int i, n;

	settings_init(&ctx, NULL, NULL);
	n = thp_modes_available(ctx.root, modes, 8);
	knob_read(ctx.root, "transparent_hugepage/enabled", cur, sizeof(cur));
	printf("\nTHP modes (%s/transparent_hugepage/enabled):", ctx.root);
	for (i = 0; i < n; i++)
		printf(" %s%s", modes[i], strcmp(modes[i], cur) ? "" : " (current)");
	printf("\n  can change settings: %s\n", geteuid() == 0 &&
	       settings_writable(&ctx) ? "yes" : "no (not root): current mode only");
}

int cmd_list(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		tb_err("list takes no arguments");
		return TB_EXIT_ERROR;
	}
	list_workloads();
	printf("\nSuites:\n");
	list_dir("configs", ".conf", false);
	list_settings();
	printf("\nEvents:\n");
	events_init();
	events_print_usable();
	return 0;
}
