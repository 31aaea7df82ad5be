/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commands - the thpbench sub-commands. Each takes the arguments after
 * its own name (argv[0] is the sub-command) and returns the exit code
 * (util.h enum tb_exit).
 */
#ifndef THPBENCH_COMMANDS_H
#define THPBENCH_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
/* `thpbench bisect plan|driver` (cmd_bisect_plan.c). */
int cmd_bisect_plan(int argc, char **argv);
int cmd_bisect_driver(int argc, char **argv);
/* `thpbench bisect rounds` (cmd_bisect_rounds.c). */
int cmd_bisect_rounds(int argc, char **argv);
int cmd_pmu_check(int argc, char **argv);
int cmd_series(int argc, char **argv);
int cmd_suite(int argc, char **argv);
int cmd_provenance(int argc, char **argv);
int cmd_show(int argc, char **argv);
/* `thpbench lava cases|job|results` (cmd_lava.c). */
int cmd_lava(int argc, char **argv);
/* The path coverage table (cmd_coverage.c). */
int cmd_coverage(int argc, char **argv);
/* The kernel lines a run ran, and a series' (cmd_kernel_coverage.c). */
int cmd_kernel_coverage(int argc, char **argv);
/* The analysis rows of `thpbench history` (cmd_history_check.c). */
int cmd_history_check(int argc, char **argv);
int cmd_history_plot(int argc, char **argv);
int cmd_history_report(int argc, char **argv);
/* `thpbench history triage` (cmd_history_triage.c). */
int cmd_history_triage(int argc, char **argv);
/* `thpbench history confirm` (cmd_history_confirm.c). */
int cmd_history_confirm(int argc, char **argv);
/* `thpbench history range` (cmd_history_range.c). */
int cmd_history_range(int argc, char **argv);

#endif
