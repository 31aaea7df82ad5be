// SPDX-License-Identifier: GPL-2.0-only
/*
 * res_journal - the resources a run made, on disk (resource.h): a state
 * file (state_file.h) whose root is the state dir.
 */
#include "resource.h"
#include "state_file.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#define RES_JOURNAL_VERSION 1

static const struct state_file res_file = {
	.what = "resource journal",
	.fix = "undo what it names by hand (swapoff, umount, losetup -d, kill a service's pid, rm -r its STATE/svc-* directory) and delete it",
	.knob_shape = "needs string \"kind\" (zram, loop, mount, cgroup, zswap, service) and strings dev, path, opt, boot_id, integers num, size, boolean added (each optional, each under 256 characters)",
	.version = RES_JOURNAL_VERSION,
	.time_key = "time",
	.time_utc = true,
	.time_optional = false,
};

static json_t *res_out(size_t i, const void *arg)
{
	const struct res_set *set = arg;
	const struct res *r = &set->v[i];

	return json_pack("{s:s, s:s, s:s, s:s, s:i, s:I, s:b, s:s}",
			 "kind", r->kind->name, "dev", r->dev, "path", r->path,
			 "opt", r->opt, "num", r->num, "size",
			 (json_int_t)r->size, "added", r->added, "boot_id",
			 r->boot_id);
}

int res_journal_write(const struct res_set *set, char *err, size_t errlen)
{
	const struct state_head head = {
		.root = (char *)set->env.state_dir, .pid = getpid(),
		.time = (long long)time(NULL),
	};

	return state_file_write(set->journal, &res_file, &head, set->n,
				res_out, set, err, errlen);
}

static int copy_field(char *dst, const char *s)
{
	if (!s)
		return 0;
	if (strlen(s) >= RES_PATH)
		return -1;
	strcpy(dst, s);
	return 0;
}

static int res_in(json_t *o, const struct state_head *head, void *arg)
{
	const char *kind, *dev = NULL, *path = NULL, *opt = NULL, *boot = NULL;
	struct res_set *set = arg;
	json_int_t num = -1, size = 0;
	int added = 0;
	struct res *r;

	(void)head;
	if (set->n >= RES_MAX ||
	    json_unpack(o, "{s:s, s?s, s?s, s?s, s?I, s?I, s?b, s?s !}",
			"kind", &kind, "dev", &dev, "path", &path, "opt", &opt,
			"num", &num, "size", &size, "added", &added,
			"boot_id", &boot))
		return -1;
	r = &set->v[set->n];
	memset(r, 0, sizeof(*r));
	r->kind = res_kind_find(kind);
	if (!r->kind || copy_field(r->dev, dev) || copy_field(r->path, path) ||
	    copy_field(r->opt, opt) || num < -1 || num > 1 << 22 || size < 0 ||
	    (boot && strlen(boot) >= sizeof(r->boot_id)))
		return -1;
	if (boot)
		strcpy(r->boot_id, boot);
	r->num = (int)num;
	r->size = size;
	r->added = added;
	set->n++;
	return 0;
}

int res_journal_read(const char *state_dir, struct res_set *set, char *err,
		     size_t errlen)
{
	struct state_head head;
	int r;

	r = state_file_read(set->journal, &res_file, &head, res_in, set, err,
			    errlen);
	if (r <= 0)
		return r;
	if (strcmp(head.root, state_dir)) {
		snprintf(err, errlen, "%s: the resource journal is for state dir %s, not %s; refusing it (undo by hand and delete it)",
			 set->journal, head.root, state_dir);
		free(head.root);
		set->n = 0;
		return -1;
	}
	free(head.root);
	return 1;
}
