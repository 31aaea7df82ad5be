// SPDX-License-Identifier: GPL-2.0-only
/*
 * thpbench lava - what a LAVA job needs of thpbench and gives back
 * (configs/lava/README.md, docs/lava.md):
 *   lava cases RESULTS.json   the run's lava-test-case lines (results/lava.h)
 *   lava job [options]        a job definition (results/lava_job.h)
 *   lava results LOG -o FILE  results.json out of a job's log
 *                             (results/lava_log.h)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "results/lava.h"
#include "results/lava_job.h"
#include "results/lava_log.h"
#include "results/store.h"
#include "util/util.h"

static const char lava_usage[] =
	"usage: thpbench lava cases RESULTS.json\n"
	"       thpbench lava job --kernel URL|PATH --ramdisk URL|PATH --label L\n"
	"                         [--name NAME] [--device-type T] [--boot qemu|u-boot|grub|ipxe]\n"
	"                         [--arch amd64|arm64] [--no-kvm] [--cmdline \"...\"]\n"
	"                         [--timeout MIN] [--meta KEY=VALUE]... [-o FILE]\n"
	"       thpbench lava console LOG [-o FILE]\n"
	"       thpbench lava results LOG\n"
	"  cases: one LAVA test case per case of the run (pass: every\n"
	"  repetition ok; fail: one was not; skip: none ran) and one per case\n"
	"  and metric with the mean of the ok repetitions as its measurement\n"
	"  and its units (\"none\" where not known), as lava-test-case lines:\n"
	"  names and units hold only [A-Za-z0-9._-].\n"
	"  job: the job definition (JSON, which LAVA reads as YAML) that boots\n"
	"  KERNEL with thpbench's initramfs (mkinitramfs.sh --busybox) to its\n"
	"  shell and runs the suite as a test definition; defaults: name\n"
	"  thpbench, device type qemu, boot qemu, arch amd64, timeout 60.\n"
	"  console: what the device printed, one line a target entry of the\n"
	"  log (lava-run's stdout, or a server's output.yaml), for\n"
	"  extract-results.sh. results: every test case of the log as\n"
	"  \"DEFINITION CASE RESULT [MEASUREMENT UNITS]\", each a word of\n"
	"  [A-Za-z0-9._-]. Both say on stderr how many lines were not entries.\n"
	"  configs/lava/README.md, docs/lava.md.\n";

static FILE *open_out(const char *path)
{
	FILE *f = path ? fopen(path, "w") : stdout;

	if (!f)
		tb_err("lava: cannot write %s: %s", path, strerror(errno));
	return f;
}

static int close_out(FILE *f, const char *path)
{
	if (f == stdout)
		return fflush(f) ? TB_EXIT_ERROR : 0;
	if (fclose(f)) {
		tb_err("lava: cannot write %s: %s", path, strerror(errno));
		return TB_EXIT_ERROR;
	}
	return 0;
}

static int meta_arg(struct lava_job *j, char *kv)
{
	char *eq = strchr(kv, '=');

	if (!eq || j->nmeta >= LAVA_JOB_META_MAX) {
		tb_err("lava job: --meta %s: expected KEY=VALUE (at most %d)", kv, LAVA_JOB_META_MAX);
		return -1;
	}
	*eq = '\0';
	j->meta_key[j->nmeta] = kv;
	j->meta_val[j->nmeta++] = eq + 1;
	return 0;
}

/* One option with its value; 1 when it took two words, 0 one, -1 error. */
static int job_opt(struct lava_job *j, const char **out, int argc, char **argv, int i)
{
	const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
	const struct { const char *opt; const char **field; } str[] = {
		{ "--kernel", &j->kernel }, { "--ramdisk", &j->ramdisk },
		{ "--label", &j->label }, { "--name", &j->name },
		{ "--device-type", &j->device_type }, { "--arch", &j->arch },
		{ "--cmdline", &j->cmdline }, { "-o", out },
	};
	size_t k;
	long n;

	if (!strcmp(o, "--no-kvm")) {
		j->no_kvm = true;
		return 0;
	}
	if (!v) {
		tb_err("lava job: %s needs a value (thpbench lava --help)", o);
		return -1;
	}
	for (k = 0; k < ARRAY_SIZE(str); k++)
		if (!strcmp(o, str[k].opt)) {
			*str[k].field = v;
			return 1;
		}
	if (!strcmp(o, "--meta"))
		return meta_arg(j, argv[i + 1]) ? -1 : 1;
	if (!strcmp(o, "--boot") && lava_boot_parse(v) >= 0) {
		j->boot = lava_boot_parse(v);
		return 1;
	}
	if (!strcmp(o, "--timeout") && !parse_long(v, &n) && n > 0 && n <= 10080) {
		j->timeout_min = (int)n;
		return 1;
	}
	tb_err("lava job: bad option or value: %s %s (thpbench lava --help)", o, v);
	return -1;
}

static int lava_job(int argc, char **argv)
{
	struct lava_job j = { .name = "thpbench", .device_type = "qemu", .arch = "amd64",
			      .timeout_min = 60 };
	const char *out = NULL;
	char err[512];
	FILE *f;
	int i, k;

	for (i = 1; i < argc; i += k + 1) {
		k = job_opt(&j, &out, argc, argv, i);
		if (k < 0)
			return TB_EXIT_ERROR;
	}
	if (!j.kernel || !j.ramdisk || !j.label) {
		tb_err("lava job: --kernel, --ramdisk and --label are required (thpbench lava --help)");
		return TB_EXIT_ERROR;
	}
	if (lava_job_check(&j, err, sizeof(err))) {
		tb_err("lava job: %s", err);
		return TB_EXIT_ERROR;
	}
	f = open_out(out);
	if (!f)
		return TB_EXIT_ERROR;
	if (lava_job_write(f, &j, err, sizeof(err))) {
		tb_err("lava job: %s", err);
		if (f != stdout)
			fclose(f);
		return TB_EXIT_ERROR;
	}
	return close_out(f, out);
}

static void put_target(const char *line, void *arg)
{
	fprintf(arg, "%s\n", line);
}

static void put_result(const struct lava_result *r, void *arg)
{
	char d[256], c[1024], res[32], u[64], m[64];
	double v;

	fprintf(arg, "%s %s %s", lava_token(r->definition, d, sizeof(d)),
		lava_token(r->name, c, sizeof(c)), lava_token(r->result, res, sizeof(res)));
	if (r->measurement) {
		if (parse_double(r->measurement, &v))
			snprintf(m, sizeof(m), "-");
		else
			fmt_shortest(v, m, sizeof(m));
		fprintf(arg, " %s %s", *m ? m : "-", r->units ? lava_token(r->units, u, sizeof(u)) : "-");
	}
	fputc('\n', arg);
}

/* lava console|results LOG [-o FILE] */
static int lava_read(int argc, char **argv, bool console)
{
	struct lava_log_stats st;
	struct lava_log_cb cb = { 0 };
	const char *out = NULL;
	FILE *in, *f;
	int rc;

	if (argc == 4 && !strcmp(argv[2], "-o"))
		out = argv[3];
	else if (argc != 2) {
		tb_err("lava %s: expected LOG [-o FILE] (thpbench lava --help)", argv[0]);
		return TB_EXIT_ERROR;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		tb_err("lava %s: cannot read %s: %s", argv[0], argv[1], strerror(errno));
		return TB_EXIT_ERROR;
	}
	f = open_out(out);
	if (!f) {
		fclose(in);
		return TB_EXIT_ERROR;
	}
	if (console)
		cb.target = put_target;
	else
		cb.result = put_result;
	cb.arg = f;
	rc = lava_log_read(in, &cb, &st);
	fclose(in);
	if (rc)
		tb_err("lava %s: reading %s: %s", argv[0], argv[1], strerror(errno));
	else if (!st.entries)
		tb_err("lava %s: %s has no LAVA log entry (lava-run's stdout or a job's output.yaml)",
		       argv[0], argv[1]);
	else if (st.unread)
		tb_warn("lava %s: %s: %zu lines were not log entries (the first: line %zu)",
			argv[0], argv[1], st.unread, st.first_unread);
	if (close_out(f, out) || rc || !st.entries)
		return TB_EXIT_ERROR;
	return 0;
}

static int lava_cases(int argc, char **argv)
{
	struct tb_results r;
	char err[512];

	if (argc != 2) {
		tb_err("lava cases: expected one RESULTS.json (thpbench lava --help)");
		return TB_EXIT_ERROR;
	}
	if (store_load(argv[1], &r, err, sizeof(err))) {
		tb_err("%s", err);
		return TB_EXIT_ERROR;
	}
	lava_cases_write(stdout, &r);
	results_free(&r);
	return fflush(stdout) ? TB_EXIT_ERROR : 0;
}

int cmd_lava(int argc, char **argv)
{
	if (argc < 2) {
		tb_err("lava: expected a sub-command (thpbench lava --help)");
		return TB_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(lava_usage, stdout);
		return 0;
	}
	if (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		fputs(lava_usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "cases"))
		return lava_cases(argc - 1, argv + 1);
	if (!strcmp(argv[1], "job"))
		return lava_job(argc - 1, argv + 1);
	if (!strcmp(argv[1], "console") || !strcmp(argv[1], "results"))
		return lava_read(argc - 1, argv + 1, !strcmp(argv[1], "console"));
	tb_err("lava: unknown sub-command \"%s\" (thpbench lava --help)", argv[1]);
	return TB_EXIT_ERROR;
}
