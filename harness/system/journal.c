// SPDX-License-Identifier: GPL-2.0-only
/* journal - the knob snapshot on disk (journal.h), a state file (state_file.h). */
#include "journal.h"
#include "state_file.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static const struct state_file journal_file = {
	.what = "settings journal",
	.fix = "restore the knobs by hand and delete it",
	.knob_shape = "needs string \"name\" and \"value\" (and \"root\", if any, a string)",
	.version = JOURNAL_VERSION,
	.time_key = "start_time",
	.time_utc = true,
	.time_optional = true,
};

static json_t *knob_out(size_t i, const void *arg)
{
	const struct journal *j = arg;
	const struct knob *k = &j->knobs.v[i];
	json_t *o = json_pack("{s:s, s:s}", "name", k->name, "value", k->value);

	/* Only a knob outside the journal's root names its own. */
	if (strcmp(k->root, j->root))
		json_object_set_new(o, "root", json_string(k->root));
	return o;
}

int journal_write(const char *path, const struct journal *j, char *err,
		  size_t errlen)
{
	const struct state_head head = {
		.root = j->root, .pid = j->pid, .time = j->start,
	};

	/* On disk before any knob changes (trust_replace syncs). */
	return state_file_write(path, &journal_file, &head, j->knobs.n,
				knob_out, j, err, errlen);
}

static int knob_in(json_t *k, const struct state_head *head, void *arg)
{
	struct journal *j = arg;
	const char *name, *value, *root = NULL;

	if (json_unpack(k, "{s:s, s:s, s?s}", "name", &name, "value", &value,
			"root", &root))
		return -1;
	snapshot_add(&j->knobs, root ? root : head->root, name, value);
	return 0;
}

int journal_read(const char *path, struct journal *j, char *err,
		 size_t errlen)
{
	struct state_head head;
	int r;

	memset(j, 0, sizeof(*j));
	r = state_file_read(path, &journal_file, &head, knob_in, j, err,
			    errlen);
	if (r <= 0) {
		journal_free(j);
		return r;
	}
	j->root = head.root;
	j->pid = head.pid;
	j->start = head.time;
	return 1;
}

void journal_free(struct journal *j)
{
	free(j->root);
	snapshot_free(&j->knobs);
	memset(j, 0, sizeof(*j));
}
