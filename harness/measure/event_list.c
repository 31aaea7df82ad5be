// SPDX-License-Identifier: GPL-2.0-only
#include "event_list.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "tlb_profile.h"
#include "util/util.h"

struct list_state {
	const char *csv;
	struct event_spec *arr;
	size_t cnt, cap;
	size_t items;		/* items read so far, for messages */
	unsigned int group;	/* the last group number given out */
	int members;		/* of the open group */
	bool in_group, tlb_seen;
	char *err;
	size_t errlen;
};

static struct event_spec *next_spec(struct list_state *ls)
{
	ls->arr = xgrow(ls->arr, sizeof(*ls->arr), &ls->cap, ls->cnt);
	return &ls->arr[ls->cnt];
}

/* The host's TLB profile, its groups numbered after the list's own. */
static int add_tlb_profile(struct list_state *ls)
{
	unsigned int base = ls->group;
	struct tlb_host h;
	size_t i;

	if (ls->in_group || ls->tlb_seen) {
		snprintf(ls->err, ls->errlen, "event list '%s': tlb %s", ls->csv,
			 ls->in_group ? "is a profile with groups of its own: "
			 "list it outside braces" : "is listed twice");
		return -1;
	}
	ls->tlb_seen = true;
	tlb_host_detect(&h);
	if (h.error[0]) {
		snprintf(ls->err, ls->errlen, "event list '%s': tlb: %s", ls->csv, h.error);
		return -1;
	}
	for (i = 0; i < h.profile->nev; i++) {
		const struct tlb_event *te = &h.profile->ev[i];
		struct event_spec *ev = next_spec(ls);

		if (event_encode(te->event, ev)) {
			snprintf(ls->err, ls->errlen, "tlb profile of %s: %s",
				 h.profile->model, ev->error);
			return -1;
		}
		snprintf(ev->stands_for, sizeof(ev->stands_for), "%s", te->event);
		snprintf(ev->name, sizeof(ev->name), "%s", tlb_role_metric(te->role));
		ev->group = base + te->group;
		if (ev->group > ls->group)
			ls->group = ev->group;
		ls->cnt++;
	}
	return 0;
}

/* Strip perf's "{" and "}" off an item, opening or closing a group. */
static int braces(struct list_state *ls, char **item, bool *closes)
{
	char *s = *item;
	size_t len;

	*closes = false;
	if (*s == '{') {
		if (ls->in_group) {
			snprintf(ls->err, ls->errlen, "event list '%s': groups do not nest", ls->csv);
			return -1;
		}
		ls->in_group = true;
		ls->members = 0;
		ls->group++;
		s = str_trim(s + 1);
	}
	len = strlen(s);
	if (strchr(s, '}') && (len == 0 || s[len - 1] != '}' ||
			       strchr(s, '}') != s + len - 1)) {
		snprintf(ls->err, ls->errlen, "event list '%s': '}' must end an item (no modifiers after a group)",
			 ls->csv);
		return -1;
	}
	if (len && s[len - 1] == '}') {
		if (!ls->in_group) {
			snprintf(ls->err, ls->errlen, "event list '%s': '}' without '{'", ls->csv);
			return -1;
		}
		s[len - 1] = '\0';
		s = str_trim(s);
		*closes = true;
	}
	*item = s;
	return 0;
}

static int add_item(struct list_state *ls, char *item)
{
	struct event_spec *ev;
	bool closes;

	ls->items++;
	if (braces(ls, &item, &closes))
		return -1;
	if (!*item) {
		snprintf(ls->err, ls->errlen, "event list '%s': item %zu is empty",
			 ls->csv, ls->items);
		return -1;
	}
	if (!strcmp(item, "tlb")) {
		if (add_tlb_profile(ls))
			return -1;
	} else {
		ev = next_spec(ls);
		if (event_encode(item, ev)) {
			snprintf(ls->err, ls->errlen, "%s", ev->error);
			return -1;
		}
		ev->group = ls->in_group ? ls->group : 0;
		ls->cnt++;
		if (ls->in_group && ++ls->members > EVENT_GROUP_MAX) {
			snprintf(ls->err, ls->errlen, "event list '%s': a group of more than %d events",
				 ls->csv, EVENT_GROUP_MAX);
			return -1;
		}
	}
	if (closes)
		ls->in_group = false;
	return 0;
}

int events_parse_list(const char *csv, struct event_spec **evs, size_t *n,
		      char *err, size_t errlen)
{
	char *copy = xstrdup(csv), *next = copy, *end;
	struct list_state ls = { .csv = csv, .err = err, .errlen = errlen };
	bool last = false;

	*evs = NULL;
	*n = 0;
	if (!*str_trim(copy)) {
		free(copy);
		return 0;
	}
	while (!last) {
		end = strchr(next, ',');
		if (end)
			*end = '\0';
		else
			last = true;
		if (add_item(&ls, str_trim(next)))
			goto fail;
		if (end)
			next = end + 1;
	}
	if (ls.in_group) {
		snprintf(err, errlen, "event list '%s': '{' is never closed", csv);
		goto fail;
	}
	free(copy);
	*evs = ls.arr;
	*n = ls.cnt;
	return 0;
fail:
	free(copy);
	free(ls.arr);
	return -1;
}

/* "raw 0x1001008" for a raw PMU event, the perf type otherwise. */
static void encoding_text(const struct event_spec *ev, char *buf, size_t len)
{
	if (ev->unavailable[0])
		snprintf(buf, len, "PMU not here");
	else if (ev->attr.type == PERF_TYPE_RAW)
		snprintf(buf, len, "raw %#llx", (unsigned long long)ev->attr.config);
	else if (ev->source == EVSRC_PERF_NAME)
		snprintf(buf, len, "perf name");
	else
		snprintf(buf, len, "type %u %#llx", ev->attr.type,
			 (unsigned long long)ev->attr.config);
}

static void print_profile_events(FILE *f, const struct tlb_profile *p)
{
	struct event_spec ev;
	unsigned int group = 0;
	char enc[64];
	size_t i;

	for (i = 0; i < p->nev; i++) {
		const struct tlb_event *te = &p->ev[i];

		if (te->group != group) {
			group = te->group;
			fprintf(f, "  group %u%s:\n", group, group == 1 ?
				" (read together: the ratios divide these)" : "");
		}
		if (event_encode(te->event, &ev))
			snprintf(enc, sizeof(enc), "does not encode here");
		else
			encoding_text(&ev, enc, sizeof(enc));
		fprintf(f, "    %-22s %-16s %s\n", tlb_role_metric(te->role),
			enc, tlb_role_text(te->role));
		fprintf(f, "    %-22s %s\n", "", te->event);
	}
}

/* Whether the profile's leader opens here: the whole profile stands or
 * falls with the PMU. */
static void print_counts_here(FILE *f, const struct tlb_profile *p)
{
	struct event_spec ev;
	char reason[256];

	if (event_encode(p->ev[0].event, &ev)) {
		fprintf(f, "  here: %s\n", ev.error);
		return;
	}
	if (counter_probe(&ev, 0, reason, sizeof(reason)))
		fprintf(f, "  here: %s opens; these count\n", p->ev[0].event);
	else
		fprintf(f, "  here: %s: each is recorded as <not supported>; below is what a machine with this PMU counts\n",
			reason);
}

/* The keys THPBENCH_TLB_MODEL takes, with the libpfm4 PMU where it has one. */
static void print_models(FILE *f)
{
	size_t i, col = 4;

	fprintf(f, "  models with a profile (THPBENCH_TLB_MODEL=KEY thpbench list shows one; LIBPFM_FORCE_PMU=PMU for libpfm4's):\n   ");
	for (i = 0; i < tlb_profile_count(); i++) {
		const struct tlb_profile *p = tlb_profile_at(i);
		const char *pfm = p->pfm && strcmp(p->pfm, p->key) ? p->pfm : NULL;
		char item[64];
		int n = snprintf(item, sizeof(item), " %s%s%s%s", p->key,
				 pfm ? " (" : "", pfm ? pfm : "", pfm ? ")" : "");

		if (col + (size_t)n > 78) {
			fprintf(f, "\n   ");
			col = 4;
		}
		fputs(item, f);
		col += (size_t)n;
	}
	fprintf(f, "\n");
}

void events_print_tlb_profile(FILE *f)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU"), *dnames[8], *dtexts[8];
	const char *model = getenv("THPBENCH_TLB_MODEL");
	struct tlb_host h;
	size_t i, nd;

	tlb_host_detect(&h);
	fprintf(f, "TLB profile (-e tlb, or tlb in a suite's events): %s [%s]",
		h.profile->model, h.profile->key);
	if (model && *model)
		fprintf(f, "; chosen by THPBENCH_TLB_MODEL: that model's events, whatever this CPU is");
	else if (h.pmu[0])
		fprintf(f, "; libpfm4 PMU %s (%s)%s", h.pmu, h.desc,
			forced && *forced ? ", chosen by LIBPFM_FORCE_PMU: that "
			"model's encodings, whatever this CPU is" : "");
	if (!strcmp(h.chosen_by, "/proc/cpuinfo"))
		fprintf(f, "; found from /proc/cpuinfo");
	fprintf(f, "\n");
	fprintf(f, "  encoding: %s%s%s\n", h.profile->pmu[0] ? "libpfm4 names" :
		h.profile->perf_dir[0] ? "raw, from perf's JSON tools/perf/pmu-events/arch/" :
		"perf's generic names", h.profile->pmu[0] ? "" : h.profile->perf_dir,
		h.profile->perf_unit ? " (its cpu_core/cpu_atom Unit as named)" : "");
	fprintf(f, "  notes: %s\n", h.profile->notes);
	if ((forced && *forced) || (model && *model))
		fprintf(f, "  here: not opened (a model chosen by hand may not be this CPU's)\n");
	else
		print_counts_here(f, h.profile);
	print_profile_events(f, h.profile);
	nd = tlb_profile_derived(h.profile, dnames, dtexts, ARRAY_SIZE(dnames));
	fprintf(f, "  derived per run:\n");
	for (i = 0; i < nd; i++)
		fprintf(f, "    %-22s %s\n", dnames[i], dtexts[i]);
	print_models(f);
}
