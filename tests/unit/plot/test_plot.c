// SPDX-License-Identifier: GPL-2.0-only
/*
 * plot: quoting and number formats of the gnuplot files, metric units
 * and axis choices, finding and running gnuplot (a fake one in a temp
 * directory), and the files plot_results()/plot_compare() write for
 * in-memory results: exact run values, no error-bar plot where no CI
 * exists, no chart for counters that never moved, the install line when
 * gnuplot is missing; a case dimension (the mTHP size) in the bars' names
 * and as the sides of --by mthp charts. Where a real gnuplot is installed,
 * the scripts for the edge cases must run without a word on stderr.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare/compare.h"
#include "plot/gnuplot.h"
#include "plot/plot.h"
#include "plot/plot_axis.h"
#include "plot/plot_gp.h"
#include "plot/plot_metrics.h"
#include "util/util.h"

/* What gp_text(f, arg, how) writes, as a string (static buffer). */
static const char *written(enum gp_quote how, const char *arg)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	gp_text(f, arg, how);
	fclose(f);
	return buf;
}

static const char *num(double v)
{
	static char buf[64];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	gp_num(f, v);
	fclose(f);
	return buf;
}

static void test_numbers(void **state)
{
	double third = 1.0 / 3;

	(void)state;
	assert_string_equal(num(0.1), "0.1");
	assert_string_equal(num(7501.56), "7501.56");
	assert_string_equal(num(262144), "262144");
	assert_string_equal(num(-2.5e-7), "-2.5e-07");
	assert_string_equal(num(NAN), "NaN");
	assert_string_equal(num(INFINITY), "NaN");
	/* Needs all 17 digits, and must read back as the same double. */
	assert_true(strtod(num(third), NULL) == third);
	assert_true(strtod(num(0.1 + 0.2), NULL) == 0.1 + 0.2);
	assert_string_equal(num(0.1 + 0.2), "0.30000000000000004");
}

static void test_quoting(void **state)
{
	(void)state;
	assert_string_equal(written(GP_SINGLE, "it's\nroi_usec"),
			    "'it''s roi_usec'");
	assert_string_equal(written(GP_DOUBLE, "a \"b\"\nc\\"),
			    "\"a \\\"b\\\"\\nc\\\\\"");
	/* Tic labels are formats for the position: % must be doubled. */
	assert_string_equal(written(GP_TIC, "50% more\nnew"),
			    "\"50%% more\\nnew\"");
	assert_string_equal(written(GP_DATA, "say \"x\"\tnow"),
			    "\"say 'x' now\"");
	/* Nothing gnuplot would execute or expand survives quoting. */
	assert_string_equal(written(GP_DOUBLE, "a`touch pwned`@m"),
			    "\"a\\140touch pwned\\140\\100m\"");
	assert_string_equal(written(GP_TIC, "`id`"), "\"\\140id\\140\"");
	assert_string_equal(written(GP_SINGLE, "x'\r`id`"), "'x'' `id`'");
	assert_string_equal(written(GP_COMMENT, "a\nb\\"), "a b\\ \n");
}

static void test_slug(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(gp_slug("mremap/thp=always", buf, sizeof(buf)),
			    "mremap-thp-always");
	assert_string_equal(gp_slug("clear_huge 2M", buf, sizeof(buf)),
			    "clear_huge-2M");
	assert_string_equal(gp_slug("a//  b", buf, sizeof(buf)), "a-b");
	assert_string_equal(gp_slug("", buf, sizeof(buf)), "chart");
	assert_string_equal(gp_slug("///", buf, sizeof(buf)), "chart");
	/* Neither a hidden file nor an option to gnuplot. */
	assert_string_equal(gp_slug("../etc", buf, sizeof(buf)), "_.-etc");
	assert_string_equal(gp_slug("-x", buf, sizeof(buf)), "_x");
	assert_string_equal(gp_slug("abcdef", buf, 4), "abc");
}

static void test_metric_kind(void **state)
{
	(void)state;
	assert_int_equal(plot_metric_kind("roi_usec"), PM_PERF);
	assert_int_equal(plot_metric_kind("gbps"), PM_PERF);
	assert_int_equal(plot_metric_kind("task-clock"), PM_PERF);
	assert_int_equal(plot_metric_kind("wall_usec"), PM_PERF);
	assert_int_equal(plot_metric_kind("page-faults"), PM_COUNTER);
	assert_int_equal(plot_metric_kind("exceptions:page_fault_user"),
			 PM_COUNTER);
	assert_int_equal(plot_metric_kind("dTLB-load-misses"), PM_COUNTER);
	assert_int_equal(plot_metric_kind("tlb:tlb_flush"), PM_COUNTER);
	assert_int_equal(plot_metric_kind("minflt"), PM_COUNTER);
	assert_int_equal(plot_metric_kind("vmstat.thp_fault_alloc"),
			 PM_COUNTER);
	/* pgfault is a vmstat counter, not a thp_* one: not charted. */
	assert_int_equal(plot_metric_kind("vmstat.pgfault"), PM_OTHER);
	assert_int_equal(plot_metric_kind("maxrss_kb"), PM_OTHER);
	assert_string_equal(plot_metric_unit("roi_usec"), "µs");
	assert_string_equal(plot_metric_unit("task-clock"), "ns");
	assert_string_equal(plot_metric_unit("gbps"), "GB/s");
	assert_string_equal(plot_metric_unit("maxrss_kb"), "KiB");
	assert_string_equal(plot_metric_unit("tlb:tlb_flush"), "count");
	assert_string_equal(plot_metric_unit("something"), "");
}

static void scale_is(const char *name, double max, const char *unit,
		     double factor)
{
	struct pm_scale s;

	plot_metric_scale(name, max, &s);
	if (strcmp(s.unit, unit) || fabs(s.factor - factor) > factor * 1e-12)
		fail_msg("%s at %g: %s x%g, expected %s x%g", name, max,
			 s.unit, s.factor, unit, factor);
}

static void test_metric_scale(void **state)
{
	(void)state;
	scale_is("roi_usec", 256000, "ms", 1e-3);
	scale_is("roi_usec", 999, "µs", 1);
	scale_is("wall_usec", 5.3e6, "s", 1e-6);
	scale_is("task-clock", 4.3e6, "ms", 1e-6);
	scale_is("task-clock", 12, "ns", 1);
	scale_is("split_msec", 0.5, "ms", 1);	/* never finer than stored */
	scale_is("maxrss_kb", 1050080, "GiB", 1.0 / 1048576);
	scale_is("maxrss_kb", 4096, "MiB", 1.0 / 1024);
	scale_is("gbps", 24, "GB/s", 1);
}

static void test_metric_order(void **state)
{
	char *in[] = {
		"user_usec", "vmstat.thp_fault_alloc", "wall_usec", "zz_usec",
		"sys_usec", "task-clock", "roi_usec", "page-faults",
		"maxrss_kb",
	};
	char **out;
	size_t n, cut;

	(void)state;
	n = plot_metric_pick(in, ARRAY_SIZE(in), PM_PERF, 5, &out, &cut);
	/* The workload's own figures first, then the harness' timings. */
	assert_int_equal(n, 5);
	assert_int_equal(cut, 1);
	assert_string_equal(out[0], "roi_usec");
	assert_string_equal(out[1], "zz_usec");
	assert_string_equal(out[2], "wall_usec");
	assert_string_equal(out[3], "task-clock");
	assert_string_equal(out[4], "sys_usec");
	free(out);
	n = plot_metric_pick(in, ARRAY_SIZE(in), PM_COUNTER, 10, &out, &cut);
	assert_int_equal(n, 2);
	assert_string_equal(out[0], "page-faults");
	assert_string_equal(out[1], "vmstat.thp_fault_alloc");
	free(out);
}

static void test_axis(void **state)
{
	const double thp[] = { 14800, 15011, 256000, 257320 };
	const double near[] = { 5, 6, 7 };
	const double zeros[] = { 0, 0 };
	const double neg[] = { -3, 4 };
	/* Two means 17x apart; a CI reaching below 0 must not undo log. */
	const double ci[] = { 100, 1700, -50, 1800 };
	const double spread[] = { 7488, 7561 };
	const double faults[] = { 262144, 262100 };
	struct gp_axis ax;

	(void)state;
	gp_axis_fit(&ax, "roi_usec", thp, 4, 4);
	assert_true(ax.log);
	assert_string_equal(ax.unit, "ms");
	assert_true(ax.lo == 10 && ax.hi == 1000);

	gp_axis_fit(&ax, "roi_usec", near, 3, 3);
	assert_false(ax.log);
	assert_true(ax.lo == 0 && ax.hi > 7 && ax.hi < 8);

	/* gnuplot warns about an empty range [0:0]: never write one. */
	gp_axis_fit(&ax, "page-faults", zeros, 2, 2);
	assert_false(ax.log);
	assert_true(ax.hi > ax.lo);

	gp_axis_fit(&ax, "x", neg, 2, 2);
	assert_true(ax.lo < -3 && ax.hi > 4);

	gp_axis_fit(&ax, "tlb:tlb_flush", ci, 4, 2);
	assert_true(ax.log);
	assert_true(ax.lo == 10 && ax.hi == 10000);
	assert_string_equal(ax.format, "%.0s%c");

	/* Thousands of faults read as thousands on a linear axis. */
	gp_axis_fit(&ax, "page-faults", faults, 2, 2);
	assert_string_equal(ax.unit, "count (thousands)");
	assert_true(ax.lo == 0 && ax.factor == 1e-3 && ax.hi > 262.144 &&
		    ax.hi < 300);
	gp_axis_fit(&ax, "page-faults", spread, 2, 2);
	assert_string_equal(ax.unit, "count");

	/* A distribution hugs its values. */
	gp_axis_fit_spread(&ax, "roi_usec", spread, 2);
	assert_false(ax.log);
	assert_true(ax.lo > 7.4 && ax.lo < 7.488 && ax.hi > 7.561 &&
		    ax.hi < 7.7);
}

static char tmpdir[64];

static int make_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_plot.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int rm_tmp(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	unsetenv("THPBENCH_GNUPLOT");
	return system(cmd) ? -1 : 0;
}

static void write_exec(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

static void test_find(void **state)
{
	char buf[512], fake[256], bin[128], *path = getenv("PATH");
	char *saved = path ? xstrdup(path) : NULL;

	(void)state;
	setenv("THPBENCH_GNUPLOT", "/nonexistent/gnuplot", 1);
	assert_int_equal(gnuplot_find(buf, sizeof(buf)), -1);
	setenv("THPBENCH_GNUPLOT", "", 1);
	assert_int_equal(gnuplot_find(buf, sizeof(buf)), -1);
	snprintf(fake, sizeof(fake), "%s/mygnuplot", tmpdir);
	write_exec(fake, "#!/bin/sh\nexit 0\n");
	setenv("THPBENCH_GNUPLOT", fake, 1);
	assert_int_equal(gnuplot_find(buf, sizeof(buf)), 0);
	assert_string_equal(buf, fake);

	unsetenv("THPBENCH_GNUPLOT");
	snprintf(bin, sizeof(bin), "%s/bin", tmpdir);
	mkdir(bin, 0755);
	setenv("PATH", bin, 1);
	assert_int_equal(gnuplot_find(buf, sizeof(buf)), -1);
	snprintf(fake, sizeof(fake), "%s/gnuplot", bin);
	write_exec(fake, "#!/bin/sh\nexit 0\n");
	snprintf(buf, sizeof(buf), "/nonexistent:%s", bin);
	setenv("PATH", buf, 1);
	assert_int_equal(gnuplot_find(buf, sizeof(buf)), 0);
	assert_string_equal(buf, fake);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

static void test_run(void **state)
{
	char fake[128], script[128], want[256], *out;
	int rc;

	(void)state;
	snprintf(fake, sizeof(fake), "%s/fakegp", tmpdir);
	write_exec(fake, "#!/bin/sh\necho \"in $(pwd) run $*\" >&2\n"
		   "read x && echo stdin not empty\nexit 3\n");
	snprintf(script, sizeof(script), "%s/sub", tmpdir);
	mkdir(script, 0755);
	snprintf(script, sizeof(script), "%s/sub/chart.gp", tmpdir);
	rc = gnuplot_run(fake, script, &out);
	assert_int_equal(rc, 3);
	/* In the script's directory, by its base name, stdin empty. */
	snprintf(want, sizeof(want), "in %s/sub run chart.gp\n", tmpdir);
	assert_string_equal(out, want);
	free(out);

	rc = gnuplot_run("/nonexistent/gnuplot", script, &out);
	assert_int_equal(rc, 127);
	assert_non_null(strstr(out, "cannot run /nonexistent/gnuplot"));
	free(out);
}

static struct tb_case *add_named_case(struct tb_results *r, const char *name,
				      const char *thp)
{
	struct tb_case *c = results_add_case(r);
	char id[64];

	snprintf(id, sizeof(id), "%s/thp=%s", name, thp);
	c->id = xstrdup(id);
	c->name = xstrdup(name);
	c->workload = xstrdup("mremap");
	c->thp = xstrdup(thp);
	c->label = xstrdup("base");
	c->settings = json_object();
	return c;
}

static struct tb_case *add_case(struct tb_results *r, const char *thp)
{
	return add_named_case(r, "mremap", thp);
}

static void add_run(struct tb_case *c, enum run_status st, double roi,
		    double split, double faults)
{
	struct tb_run *run = case_add_run(c);

	run->status = st;
	run->huge = -1;
	metric_set_put(&run->metrics, "roi_usec", roi);
	metric_set_put(&run->metrics, "vmstat.thp_split_pmd", split);
	if (!isnan(faults))
		metric_set_put(&run->metrics, "vmstat.thp_fault_alloc", faults);
}

static char *slurp(const char *dir, const char *name)
{
	char path[256], *s = xmalloc(65536);
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("%s not written", path);
	n = fread(s, 1, 65535, f);
	s[n] = '\0';
	fclose(f);
	return s;
}

static bool has_file(const struct plot_set *ps, const char *dir,
		     const char *name)
{
	char path[256];
	size_t i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (i = 0; i < ps->nfiles; i++)
		if (!strcmp(ps->files[i], path))
			return true;
	return false;
}

/* With a real gnuplot: the script runs and prints nothing. */
static void gnuplot_clean(const char *dir, const char *name)
{
	char gp[4096], path[256], *out;
	int rc;

	if (gnuplot_find(gp, sizeof(gp)))
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = gnuplot_run(gp, path, &out);
	if (rc || *out)
		fail_msg("gnuplot %s: rc %d: %s", path, rc, out);
	free(out);
}

static void test_results_edge_cases(void **state)
{
	struct tb_results r = { 0 };
	struct plot_set ps = { 0 };
	struct tb_case *a, *b;
	char err[512], dir[128], *s;

	(void)state;
	unsetenv("THPBENCH_GNUPLOT");
	/* One ok run per case: no CI anywhere. */
	a = add_case(&r, "always");
	add_run(a, RUN_OK, 14812.5, 0, NAN);
	add_run(a, RUN_FAILED, 99999, 0, NAN);
	b = add_case(&r, "never");
	add_run(b, RUN_OK, 256104.25, 0, NAN);
	snprintf(dir, sizeof(dir), "%s/one/deeper", tmpdir);
	assert_int_equal(plot_results(&r, dir, &ps, err, sizeof(err)), 0);
	/* The never-moving counter gives no counters chart. */
	assert_int_equal(ps.nscripts, 1);
	assert_true(has_file(&ps, dir, "mremap.gp"));
	assert_true(has_file(&ps, dir, "mremap.dat"));
	assert_true(has_file(&ps, dir, "mremap.runs.dat"));
	assert_false(has_file(&ps, dir, "mremap-counters.gp"));

	s = slurp(dir, "mremap.runs.dat");
	assert_non_null(strstr(s, "0 \"always\" 1 14812.5\n"
				  "1 \"never\" 1 256104.25\n"));
	assert_null(strstr(s, "99999"));
	free(s);
	s = slurp(dir, "mremap.dat");
	assert_non_null(strstr(s, "0 \"always\" 1 14812.5 NaN NaN NaN "
				  "14812.5 14812.5 14812.5\n"));
	free(s);
	s = slurp(dir, "mremap.gp");
	/* No CI: an errorbar plot of NaNs would make gnuplot warn. */
	assert_null(strstr(s, "yerrorbars"));
	assert_non_null(strstr(s, "set logscale y"));
	assert_non_null(strstr(s, "set xtics (\"always\" 0, \"never\" 1)"));
	free(s);
	gnuplot_clean(dir, "mremap.gp");
	plot_set_free(&ps);
	results_free(&r);
}

static void test_no_ok_runs(void **state)
{
	struct tb_results r = { 0 };
	struct plot_set ps = { 0 };
	struct tb_case *a;
	char err[512], dir[128];

	(void)state;
	a = add_case(&r, "always");
	add_run(a, RUN_FAILED, 1, 1, 1);
	snprintf(dir, sizeof(dir), "%s/none", tmpdir);
	assert_int_equal(plot_results(&r, dir, &ps, err, sizeof(err)), 0);
	assert_int_equal(ps.nscripts, 0);
	assert_int_equal(ps.nfiles, 0);
	plot_set_free(&ps);
	results_free(&r);
}

static void test_unwritable(void **state)
{
	struct tb_results r = { 0 };
	struct plot_set ps = { 0 };
	char err[512], dir[128];

	(void)state;
	add_run(add_case(&r, "always"), RUN_OK, 1, 0, NAN);
	snprintf(dir, sizeof(dir), "%s/file", tmpdir);
	write_exec(dir, "");
	assert_int_equal(plot_results(&r, dir, &ps, err, sizeof(err)), -1);
	assert_non_null(strstr(err, dir));
	plot_set_free(&ps);
	results_free(&r);
}

static void test_render_without_gnuplot(void **state)
{
	struct tb_results r = { 0 };
	struct plot_set ps = { 0 };
	char err[512], dir[128], msg[1024] = "";
	FILE *f;

	(void)state;
	add_run(add_case(&r, "always"), RUN_OK, 1, 0, 3);
	snprintf(dir, sizeof(dir), "%s/nogp", tmpdir);
	assert_int_equal(plot_results(&r, dir, &ps, err, sizeof(err)), 0);
	assert_int_equal(ps.nscripts, 2);	/* timings and counters */
	setenv("THPBENCH_GNUPLOT", "/nonexistent", 1);
	f = fmemopen(msg, sizeof(msg), "w");
	assert_int_equal(plot_render(&ps, f), PLOT_NO_GNUPLOT);
	fclose(f);
	unsetenv("THPBENCH_GNUPLOT");
	assert_string_equal(msg, GNUPLOT_INSTALL_HINT "\n");
	assert_non_null(strstr(msg, "apt-get install gnuplot-nox"));
	assert_int_equal(ps.nimages, 0);
	plot_set_free(&ps);
	results_free(&r);
}

/* What `thpbench run` calls: lines the user can act on, never an exit. */
static void test_results_dir(void **state)
{
	struct tb_results r = { 0 };
	char dir[128], out[4096] = "", gp[4096], want[1024];
	FILE *f;

	(void)state;
	add_run(add_case(&r, "always"), RUN_OK, 1, 0, NAN);
	snprintf(dir, sizeof(dir), "%s/run", tmpdir);
	setenv("THPBENCH_GNUPLOT", "/nonexistent", 1);
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(plot_results_dir(&r, dir, f), 0);
	fclose(f);
	unsetenv("THPBENCH_GNUPLOT");
	snprintf(want, sizeof(want), GNUPLOT_INSTALL_HINT "\n"
		 "chart script: %s/mremap.gp\n", dir);
	assert_string_equal(out, want);
	if (!gnuplot_find(gp, sizeof(gp))) {
		f = fmemopen(out, sizeof(out), "w");
		assert_int_equal(plot_results_dir(&r, dir, f), 0);
		fclose(f);
		snprintf(want, sizeof(want), "chart: %s/mremap.png\n"
			 "chart: %s/mremap.svg\n", dir, dir);
		assert_string_equal(out, want);
	}
	snprintf(dir, sizeof(dir), "%s/file", tmpdir);
	write_exec(dir, "");
	f = fmemopen(out, sizeof(out), "w");
	assert_int_equal(plot_results_dir(&r, dir, f), -1);
	fclose(f);
	results_free(&r);
}

/* A counter that is 0 in base: no relative change, so it is drawn in the
 * count panel as two bars, 0 and its mean, with their numbers; the timing
 * stays in the % panel; no warning. */
static void test_compare_base_zero(void **state)
{
	struct tb_results ra = { 0 }, rb = { 0 };
	struct plot_set ps = { 0 };
	struct comparison c;
	struct compare_opts o;
	struct tb_case *a, *b;
	char err[512], dir[128], *s, *p, la[16], lb[16];
	double ma, mb, ba, bb;
	int i;

	(void)state;
	a = add_case(&ra, "always");
	b = add_case(&rb, "always");
	for (i = 0; i < 4; i++) {
		add_run(a, RUN_OK, 1000 + i, 0, 0);
		add_run(b, RUN_OK, 900 - i, 0, 512 + i);
	}
	ra.env = json_pack("{s:s}", "kernel", "6.1.0");
	rb.env = json_pack("{s:s}", "kernel", "6.1.0-new");
	compare_opts_init(&o);
	assert_int_equal(compare_build(&c, &ra, &rb, &o, err, sizeof(err)), 0);
	snprintf(dir, sizeof(dir), "%s/ab", tmpdir);
	assert_int_equal(plot_compare(&c, dir, &ps, err, sizeof(err)), 0);
	assert_int_equal(ps.nscripts, 2);
	s = slurp(dir, "ab-mremap-always-change.dat");
	/* roi_usec in block 0 (%), the counter in block 1 (counts); split
	 * never moved. */
	assert_non_null(strstr(s, "\n0 \"roi_usec\" 3 \"improvement\" "));
	p = strstr(s, "# block 1:");
	assert_non_null(p);
	p = strstr(p, "\n0 \"vmstat.thp_fault_alloc\" ");
	assert_non_null(p);
	/* row metric code verdict mean_base mean_new bar_base bar_new labels */
	assert_int_equal(sscanf(p, "\n0 \"vmstat.thp_fault_alloc\" %*d \"changed\" %lf %lf %lf %lf %15s %15s",
				&ma, &mb, &ba, &bb, la, lb), 6);
	assert_true(ma == 0 && mb == 513.5 && ba == 0 && bb == 1);
	assert_string_equal(la, "\"0\"");
	assert_string_equal(lb, "\"514\"");
	assert_null(strstr(s, "thp_split_pmd"));
	free(s);
	s = slurp(dir, "ab-mremap-always-change.gp");
	if (!strstr(s, "\"vmstat.thp_fault_alloc\\nΔ+514, changed\" 0"))
		fail_msg("no row label with the change in: %.300s", strstr(s, "thp_fault_alloc\\n") ? strstr(s, "thp_fault_alloc\\n") : s);
	assert_non_null(strstr(s, "'improvement' at screen"));
	free(s);
	s = slurp(dir, "ab-mremap-always-dist.dat");
	assert_non_null(strstr(s, "\"base\" 4 1003 0\n"));
	assert_non_null(strstr(s, "\"new\" 4 897 0\n"));
	free(s);
	gnuplot_clean(dir, "ab-mremap-always-change.gp");
	gnuplot_clean(dir, "ab-mremap-always-dist.gp");
	compare_free(&c);
	plot_set_free(&ps);
	results_free(&ra);
	results_free(&rb);
}

/*
 * Case names that differ but slug alike ("x y", "x/y") would name their
 * A/B charts the same: the later pair gets "-2", a pair in between with
 * another name does not count, and nothing is overwritten.
 */
static void test_compare_same_slug(void **state)
{
	static const char *const names[] = { "x y", "other", "x/y" };
	static const char *const stems[] = {
		"ab-x-y-always", "ab-other-always", "ab-x-y-always-2",
	};
	struct tb_results ra = { 0 }, rb = { 0 };
	struct plot_set ps = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512], dir[128], name[128], *s;
	size_t i;
	int k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct tb_case *a = add_named_case(&ra, names[i], "always");
		struct tb_case *b = add_named_case(&rb, names[i], "always");

		/* Each pair's own base mean, to tell whose file is whose. */
		for (k = 0; k < 3; k++) {
			add_run(a, RUN_OK, 1000 * (double)(i + 1) + k, 0, NAN);
			add_run(b, RUN_OK, 900 * (double)(i + 1) + k, 0, NAN);
		}
	}
	ra.env = json_pack("{s:s}", "kernel", "6.1.0");
	rb.env = json_pack("{s:s}", "kernel", "6.1.0-new");
	compare_opts_init(&o);
	assert_int_equal(compare_build(&c, &ra, &rb, &o, err, sizeof(err)), 0);
	assert_int_equal(c.npairs, 3);
	snprintf(dir, sizeof(dir), "%s/same-slug", tmpdir);
	assert_int_equal(plot_compare(&c, dir, &ps, err, sizeof(err)), 0);
	assert_int_equal(ps.nscripts, 6);
	for (i = 0; i < ARRAY_SIZE(stems); i++) {
		char want[64];

		snprintf(name, sizeof(name), "%s-dist.dat", stems[i]);
		s = slurp(dir, name);
		snprintf(want, sizeof(want), "\"base\" 2 %zu 0\n",
			 1000 * (i + 1) + 1);
		if (!strstr(s, want))
			fail_msg("%s: no line %s in:\n%s", name, want, s);
		free(s);
		snprintf(name, sizeof(name), "%s-change.gp", stems[i]);
		assert_true(has_file(&ps, dir, name));
	}
	compare_free(&c);
	plot_set_free(&ps);
	results_free(&ra);
	results_free(&rb);
}

static void test_side_tics(void **state)
{
	char a[64], b[64];

	(void)state;
	plot_side_tics("thp=always", "thp=never", a, b, sizeof(a));
	assert_string_equal(a, "always");
	assert_string_equal(b, "never");
	/* Two kernel releases: their differing tails. */
	plot_side_tics("6.1.158-tb-base", "6.1.158-tb-000", a, b, sizeof(a));
	assert_string_equal(a, "base");
	assert_string_equal(b, "000");
	/* Too long even then: as the header calls them. */
	plot_side_tics("6.1.158-tb-base", "6.1.158-tb-000-mremap-thp-pmd-move",
		       a, b, sizeof(a));
	assert_string_equal(a, "base");
	assert_string_equal(b, "new");
	plot_side_tics("short", "other", a, b, sizeof(a));
	assert_string_equal(a, "short");
	assert_string_equal(b, "other");
}

/* Emulated timings are said on the A/B charts; the tics do not overlap. */
static void test_compare_emulated(void **state)
{
	struct tb_results ra = { 0 }, rb = { 0 };
	struct plot_set ps = { 0 };
	struct comparison c;
	struct compare_opts o;
	struct tb_case *a, *b;
	char err[512], dir[128], *s;
	int i;

	(void)state;
	a = add_case(&ra, "always");
	b = add_case(&rb, "always");
	free(a->label);
	free(b->label);
	a->label = xstrdup("6.1.158-tb-base");
	b->label = xstrdup("6.1.158-tb-000-mremap-thp-pmd-move");
	for (i = 0; i < 4; i++) {
		add_run(a, RUN_OK, 1000 + i, 0, 0);
		add_run(b, RUN_OK, 2000 - i, 256, 0);
	}
	ra.env = json_pack("{s:s}", "kernel", "6.1.158-tb-base");
	rb.env = json_pack("{s:s}", "kernel", "6.1.158-tb-000-mremap-thp-pmd-move");
	ra.meta = json_pack("{s:s}", "timings", "emulated (qemu TCG): times are not hardware timings");
	rb.meta = json_incref(ra.meta);
	compare_opts_init(&o);
	o.by = COMPARE_FILES;
	assert_int_equal(compare_build(&c, &ra, &rb, &o, err, sizeof(err)), 0);
	snprintf(dir, sizeof(dir), "%s/emu", tmpdir);
	assert_int_equal(plot_compare(&c, dir, &ps, err, sizeof(err)), 0);
	s = slurp(dir, "ab-mremap-always-dist.gp");
	assert_non_null(strstr(s, "timings: emulated (qemu TCG)"));
	assert_non_null(strstr(s, "set xtics (\"base\" 0, \"new\" 1)"));
	free(s);
	s = slurp(dir, "ab-mremap-always-change.gp");
	assert_non_null(strstr(s, "timings: emulated (qemu TCG)"));
	free(s);
	gnuplot_clean(dir, "ab-mremap-always-change.gp");
	gnuplot_clean(dir, "ab-mremap-always-dist.gp");
	compare_free(&c);
	plot_set_free(&ps);
	results_free(&ra);
	results_free(&rb);
}

/* A case "alloc" run per mTHP size and THP mode, its dimension recorded. */
static struct tb_case *add_size_case(struct tb_results *r, const char *size,
				     const char *thp)
{
	struct tb_case *c = add_named_case(r, "alloc", thp);
	char id[64];

	free(c->id);
	snprintf(id, sizeof(id), "alloc/mthp=%s/thp=%s", size, thp);
	c->id = xstrdup(id);
	c->dims = json_pack("{ss}", "mthp", size);
	return c;
}

/*
 * The mTHP size as a case dimension in charts: one chart for the case's
 * sizes and modes, a bar per size and mode named by both; --by mthp gives
 * one A/B chart per THP mode, 16K against 64K, its sides named by size.
 */
static void test_size_dimension(void **state)
{
	static const char *const sizes[] = { "16K", "64K" };
	static const char *const modes[] = { "always", "never" };
	struct tb_results r = { 0 };
	struct plot_set ps = { 0 };
	struct comparison c;
	struct compare_opts o;
	char err[512], dir[128], *s;
	size_t i, m;
	int k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		for (m = 0; m < ARRAY_SIZE(modes); m++) {
			struct tb_case *cs = add_size_case(&r, sizes[i], modes[m]);

			for (k = 0; k < 3; k++)
				add_run(cs, RUN_OK, 1000 * (double)(2 * i + m + 1) + k,
					0, 64 * (double)(i + 1));
		}
	snprintf(dir, sizeof(dir), "%s/sizes", tmpdir);
	assert_int_equal(plot_results(&r, dir, &ps, err, sizeof(err)), 0);
	assert_true(has_file(&ps, dir, "alloc.gp"));
	assert_true(has_file(&ps, dir, "alloc-counters.gp"));
	s = slurp(dir, "alloc.runs.dat");
	/* Each bar's runs are its own case's: 16K always 1000.., 64K never 4000.. */
	assert_non_null(strstr(s, "0 \"16K always\" 1 1000\n"));
	assert_non_null(strstr(s, "1 \"16K never\" 1 2000\n"));
	assert_non_null(strstr(s, "2 \"64K always\" 1 3000\n"));
	assert_non_null(strstr(s, "3 \"64K never\" 3 4002\n"));
	free(s);
	s = slurp(dir, "alloc.gp");
	if (!strstr(s, "set xtics (\"16K\\nalways\" 0, \"16K\\nnever\" 1, "
		    "\"64K\\nalways\" 2, \"64K\\nnever\" 3)"))
		fail_msg("no tics by size and mode in: %.400s", strstr(s, "set xtics") ? strstr(s, "set xtics") : s);
	free(s);
	gnuplot_clean(dir, "alloc.gp");
	gnuplot_clean(dir, "alloc-counters.gp");
	plot_set_free(&ps);

	compare_opts_init(&o);
	o.by = COMPARE_BY_MTHP;
	assert_int_equal(compare_build(&c, &r, &r, &o, err, sizeof(err)), 0);
	assert_int_equal(c.npairs, 2);
	snprintf(dir, sizeof(dir), "%s/by-size", tmpdir);
	assert_int_equal(plot_compare(&c, dir, &ps, err, sizeof(err)), 0);
	assert_int_equal(ps.nscripts, 4);
	/* Within THP never: 16K (2000..) is the base, 64K (4000..) the new. */
	s = slurp(dir, "ab-alloc-never-dist.dat");
	assert_non_null(strstr(s, "\"base\" 3 2002 0\n"));
	assert_non_null(strstr(s, "\"new\" 3 4002 0\n"));
	free(s);
	s = slurp(dir, "ab-alloc-never-dist.gp");
	assert_non_null(strstr(s, "\"alloc thp=never: distributions\\n"
			       "base: mthp=16K, n = 3 · new: mthp=64K, n = 3"));
	assert_non_null(strstr(s, "set xtics (\"16K\" 0, \"64K\" 1)"));
	free(s);
	gnuplot_clean(dir, "ab-alloc-always-change.gp");
	gnuplot_clean(dir, "ab-alloc-never-dist.gp");
	compare_free(&c);
	plot_set_free(&ps);
	results_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_tics),
		cmocka_unit_test(test_compare_emulated),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_slug),
		cmocka_unit_test(test_metric_kind),
		cmocka_unit_test(test_metric_scale),
		cmocka_unit_test(test_metric_order),
		cmocka_unit_test(test_axis),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_results_edge_cases),
		cmocka_unit_test(test_no_ok_runs),
		cmocka_unit_test(test_unwritable),
		cmocka_unit_test(test_render_without_gnuplot),
		cmocka_unit_test(test_results_dir),
		cmocka_unit_test(test_compare_base_zero),
		cmocka_unit_test(test_compare_same_slug),
		cmocka_unit_test(test_size_dimension),
	};

	return cmocka_run_group_tests(tests, make_tmp, rm_tmp);
}
