// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench restore - put back THP/hugetlb knobs a killed run left changed,
 * and try again those an earlier run could not put back (--forget: keep
 * their current values).
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cli_err.h"
#include "system/settings.h"
#include "util/util.h"

int cmd_restore(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sysfs-root", required_argument, NULL, 'R' },
		{ "state-dir", required_argument, NULL, 'S' },
		{ "forget", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *root = NULL, *state = NULL;
	struct settings_ctx ctx;
	char err[4096];
	int c, restored = 0;
	bool forget = false;
	size_t forgotten;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'R': root = optarg; break;
		case 'S': state = optarg; break;
		case 'F': forget = true; break;
		case 'h':
			printf("usage: thpbench restore [--sysfs-root DIR] [--state-dir DIR] [--forget]\n"
			       "  undoes the swap, mounts, loop devices and cgroups a killed run made\n"
			       "  (STATE/resources.json, docs/resources.md), puts back the knobs it\n"
			       "  left changed, and tries again those\n"
			       "  an earlier run could not (STATE/unrestored.json); --forget keeps\n"
			       "  their current values and drops that record\n");
			return 0;
		default:
			return TB_EXIT_ERROR;
		}
	}
	if (optind != argc) {
		tb_err("restore takes no arguments (\"%s\")", argv[optind]);
		return TB_EXIT_ERROR;
	}
	settings_init(&ctx, root, state);
	ctx.say.fn = cli_say;
	if (forget) {
		if (settings_forget_unrestored(&ctx, &forgotten, err, sizeof(err))) {
			tb_err("%s", err);
			settings_free(&ctx);
			return TB_EXIT_ERROR;
		}
		printf("thpbench: forgot %zu knob(s) an earlier run could not put back; they keep their current values\n",
		       forgotten);
		settings_free(&ctx);
		return 0;
	}
	if (settings_restore_journal(&ctx, &restored, err, sizeof(err))) {
		tb_err("%s", err);
		settings_free(&ctx);
		return TB_EXIT_ERROR;
	}
	if (restored)
		printf("thpbench: restored %d setting%s from %s/journal.json\n",
		       restored, restored == 1 ? "" : "s", ctx.state_dir);
	else if (ctx.res_undone)
		printf("thpbench: no knobs to put back (no journal in %s); the %d resource(s) above were undone\n",
		       ctx.state_dir, ctx.res_undone);
	else
		printf("thpbench: nothing to restore (no journal in %s)\n",
		       ctx.state_dir);
	settings_free(&ctx);
	return 0;
}
