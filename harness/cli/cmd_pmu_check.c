// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_pmu_check - `thpbench pmu-check`: can this machine count the TLB
 * profile, and do its counters tell the truth (pmu_check.h)?
 *
 *   thpbench pmu-check --probe        open the profile here (each group,
 *                                     as a run would), say what opened
 *   thpbench pmu-check RESULTS.json   judge a run of configs/pmu-check.conf
 *
 * `./run.sh pmu-check` does both (scripts/pmu-check.sh). Exit codes:
 * 0 the profile opens / the counters behave; 1 they do not behave; 2 no
 * PMU here, cannot tell, or a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "measure/counters.h"
#include "measure/event_list.h"
#include "measure/events.h"
#include "measure/pmu_check.h"
#include "measure/tlb_profile.h"
#include "results/store.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fputs("usage: thpbench pmu-check --probe\n"
	      "       thpbench pmu-check RESULTS.json\n"
	      "  --probe        open the TLB profile (-e tlb) on this process, each\n"
	      "                 group as a run would: exit 0 when it opens, 2 when\n"
	      "                 there is no PMU to count it\n"
	      "  RESULTS.json   a run of configs/pmu-check.conf (a pointer chase over\n"
	      "                 N pages, 4 KiB and 2 MiB backing): exit 0 the TLB\n"
	      "                 counters behave, 1 they do not, 2 cannot tell\n"
	      "  ./run.sh pmu-check does both.\n"
	      "  THPBENCH_TLB_MODEL=KEY probes that model's profile (keys: thpbench\n"
	      "  list; docs/tlb-profiles.md).\n", f);
}

static const char *bare(const char *reason)
{
	return strncmp(reason, "<not supported>: ", 17) ? reason : reason + 17;
}

static int probe(void)
{
	struct event_spec *evs = NULL;
	struct counter_set cs;
	struct tlb_host h;
	char err[512];
	size_t i, n;
	int opened;

	if (tlb_model_check(err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	events_init();
	tlb_host_detect(&h);
	if (events_parse_list("tlb", &evs, &n, err, sizeof(err))) {
		tb_err("the TLB profile does not encode here: %s", err);
		return TB_EXIT_ERROR;
	}
	opened = counters_open(&cs, evs, n, 0);
	printf("TLB profile here: %s [%s, chosen by %s]%s%s%s\n", h.profile->model,
	       h.profile->key, h.chosen_by, h.profile->pmu[0] ? " (libpfm4 " : "",
	       h.profile->pmu, h.profile->pmu[0] ? ")" : "");
	printf("  notes: %s\n", h.profile->notes);
	for (i = 0; i < n; i++)
		printf("  %-22s %-5s %s%s%s\n", evs[i].name,
		       cs.c[i].fd >= 0 ? "opens" : "", evs[i].stands_for,
		       cs.c[i].fd >= 0 ? "" : ": ", cs.c[i].fd >= 0 ? "" : cs.c[i].reason);
	if (opened == (int)n)
		printf("every event of the profile opens here: run ./run.sh pmu-check "
		       "to see whether they count what they should\n");
	else if (opened == 0)
		printf("no PMU here: hardware events cannot be opened (%s); there is "
		       "nothing to check on this machine, and TLB claims are not "
		       "measurable on it\n", n ? bare(cs.c[0].reason) : "no events");
	else
		printf("%d of %zu events open: the rest cannot be counted here (above)\n",
		       opened, n);
	counters_close(&cs);
	free(evs);
	return opened == 0 ? TB_EXIT_ERROR : TB_EXIT_OK;
}

static int judge(const char *path)
{
	struct pmu_judgement j;
	struct tb_results r;
	struct pmu_data d;
	char err[1024];
	int rc;

	if (store_load(path, &r, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	if (pmu_data_from_results(&r, &d, err, sizeof(err))) {
		tb_err("%s: %s", path, err);
		results_free(&r);
		return TB_EXIT_ERROR;
	}
	pmu_judge(&d, &j);
	pmu_print(stdout, &d, &j);
	rc = j.verdict == PMU_BEHAVES ? TB_EXIT_OK :
	     j.verdict == PMU_MISBEHAVES ? TB_EXIT_VERDICT : TB_EXIT_ERROR;
	results_free(&r);
	return rc;
}

int cmd_pmu_check(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return TB_EXIT_OK;
	}
	if (argc != 2) {
		usage(stderr);
		return TB_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--probe"))
		return probe();
	if (argv[1][0] == '-') {
		tb_err("pmu-check: unknown option %s", argv[1]);
		usage(stderr);
		return TB_EXIT_ERROR;
	}
	return judge(argv[1]);
}
