// SPDX-License-Identifier: GPL-2.0-only
#include "claims_events.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

struct text {
	char buf[1024];
	size_t len;
};

static void add(struct text *t, const char *s)
{
	if (t->len < sizeof(t->buf))
		t->len += (size_t)snprintf(t->buf + t->len, sizeof(t->buf) - t->len,
					   "%s", s);
}

/* "metric = event" for a counted metric, its inputs' for a derived one
 * (one level down: the profile's derived figures use events or figures
 * derived from events only). */
static bool name_one(struct text *t, const json_t *prof, const char *metric,
		     int depth)
{
	const json_t *ev = json_object_get(json_object_get(prof, "events"), metric);
	const json_t *d = json_object_get(json_object_get(prof, "derived"), metric);
	const json_t *from;
	size_t i;

	if (json_is_string(ev)) {
		add(t, metric);
		add(t, " = ");
		add(t, json_string_value(ev));
		return true;
	}
	if (!json_is_object(d) || depth > 2)
		return false;
	add(t, metric);
	add(t, " (");
	add(t, json_string_value(json_object_get(d, "is")));
	add(t, ": ");
	json_array_foreach(json_object_get(d, "from"), i, from) {
		if (i)
			add(t, ", ");
		if (!name_one(t, prof, json_string_value(from), depth + 1))
			add(t, json_string_value(from));
	}
	add(t, ")");
	return true;
}

void claims_name_events(json_t *o, const char *metric, const json_t *env)
{
	const json_t *prof = json_object_get(env, "tlb_profile");
	const char *model = json_string_value(json_object_get(prof, "model"));
	struct text t = { .len = 0 };

	if (strncmp(metric, "tlb.", 4) || !json_is_object(prof) || !model)
		return;
	add(&t, "on ");
	add(&t, model);
	add(&t, ": ");
	if (!name_one(&t, prof, metric, 0)) {
		add(&t, "no event counts ");
		add(&t, metric);
		add(&t, " on this model");
	}
	json_object_set_new(o, "events", json_string(t.buf));
}
