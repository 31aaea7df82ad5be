// SPDX-License-Identifier: GPL-2.0-only
/*
 * background - an idle interval after a repetition (background.h).
 */
#include "background.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static json_t *intervals(struct tb_case *c)
{
	json_t *a;

	if (!c->extra)
		c->extra = json_object();
	a = json_object_get(c->extra, BACKGROUND_KEY);
	if (!json_is_array(a)) {
		a = json_array();
		json_object_set_new(c->extra, BACKGROUND_KEY, a);
	}
	return a;
}

bool background_wanted(const struct tb_case *c)
{
	const json_t *a = c->extra ? json_object_get(c->extra, BACKGROUND_KEY) : NULL;

	return json_array_size(a) < BACKGROUND_PER_CASE;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

bool background_keeps(const char *metric)
{
	if (strncmp(metric, "vmstat.", 7) && strncmp(metric, "mthp.", 5))
		return false;
	return !ends_with(metric, ".before") && !ends_with(metric, ".after");
}

void background_measure(const struct run_spec *spec, const struct tb_run *run,
			struct tb_case *c)
{
	const struct metric *wall = metric_set_find(&run->metrics, "wall_usec");
	struct tb_run idle = { .huge = -1 };
	struct run_spec s = *spec;
	char secs[32], *argv[] = { "sleep", secs, NULL };
	double usec;
	json_t *o;
	size_t i;

	if (!wall || run->status != RUN_OK)
		return;
	usec = wall->value < BACKGROUND_MAX_USEC ? wall->value : BACKGROUND_MAX_USEC;
	if (usec < 0)
		usec = 0;
	snprintf(secs, sizeof(secs), "%.6f", usec / 1e6);
	s.path = "sleep";
	s.argv = argv;
	s.env_extra = NULL;
	s.nenv = 0;
	s.out_fd = -1;
	s.timeout_s = usec / 1e6 + 30;
	runner_run(&s, &idle);
	if (idle.status != RUN_OK) {
		tb_warn("%s: background interval (sleep %s) did not run: %s",
			c->id, secs, idle.reason ? idle.reason : run_status_name(idle.status));
	} else {
		o = json_object();
		for (i = 0; i < idle.metrics.n; i++) {
			const struct metric *m = &idle.metrics.v[i];

			if (background_keeps(m->name) || !strcmp(m->name, "wall_usec"))
				json_object_set_new(o, m->name, json_real(m->value));
		}
		json_array_append_new(intervals(c), o);
	}
	free(idle.reason);
	metric_set_free(&idle.metrics);
	metric_set_free(&idle.counted_pct);
	note_set_free(&idle.unsupported);
}

/* Swap devices on: /proc/swaps past its header line; -1 unreadable. */
static int swap_devices(void)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512];
	int n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

/*
 * zswap on at some time since boot: its parameter says Y now, or
 * /proc/vmstat's zswpout is not 0 (zswap stored pages). Once zswap has
 * been enabled the kernel swaps in 4 KiB pages only, whatever the mTHP
 * sizes (mm/memory.c alloc_swap_folio: zswap_never_enabled()), until a
 * reboot: the per-size swpin counters cannot move. 1, 0, or -1 when
 * neither file could be read. An enable that stored nothing is not seen.
 */
static int zswap_ever(void)
{
	FILE *f = fopen("/sys/module/zswap/parameters/enabled", "re");
	char line[256];
	int r = -1;

	if (f) {
		if (fgets(line, sizeof(line), f))
			r = line[0] == 'Y' || line[0] == '1';
		fclose(f);
		if (r == 1)
			return 1;
	}
	f = fopen("/proc/vmstat", "re");
	if (!f)
		return r;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "zswpout ", 8)) {
			r = strtoull(line + 8, NULL, 10) > 0;
			break;
		}
	fclose(f);
	return r;
}

json_t *background_meta(void)
{
	int z = zswap_ever();

	json_t *o = json_object();

	json_object_set_new(o, "per_case", json_integer(BACKGROUND_PER_CASE));
	json_object_set_new(o, "max_usec", json_real(BACKGROUND_MAX_USEC));
	json_object_set_new(o, "swap_devices", json_integer(swap_devices()));
	if (z >= 0)
		json_object_set_new(o, "zswap_since_boot", json_boolean(z));
	return o;
}
