// SPDX-License-Identifier: GPL-2.0-only
/*
 * Golden output of `thpbench compare` in every format, on the results
 * files in tests/fixtures/compare/, plus exit codes and the A/A fixture.
 * Run from the repository root. THPBENCH_REGEN_GOLDEN=1 rewrites the
 * golden files instead of comparing (then read the diff by eye).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <math.h>

#include <jansson.h>

#include "cli/cmd_compare.h"
#include "compare/compare.h"
#include "results/store.h"

#define FIX "tests/fixtures/compare/"
#define GOLDEN FIX "golden/"

struct golden {
	const char *name;	/* golden/<name>.txt */
	int rc;
	const char *argv[12];
};

static const struct golden goldens[] = {
	{ "text", 0, { "compare", FIX "base.json", FIX "new.json" } },
	{ "ministat", 0, { "compare", FIX "base.json", FIX "new.json",
			   "--format", "ministat" } },
	{ "email", 0, { "compare", FIX "base.json", FIX "new.json",
			"--format", "email" } },
	{ "md", 0, { "compare", FIX "base.json", FIX "new.json", "--format",
		     "md" } },
	{ "csv", 0, { "compare", FIX "base.json", FIX "new.json", "--format",
		      "csv" } },
	{ "json", 0, { "compare", FIX "base.json", FIX "new.json", "--format",
		       "json", "-m", "split_usec", "-m", "gbps" } },
	{ "by-thp", 0, { "compare", FIX "thp.json", "--by", "thp" } },
	{ "by-thp-email", 0, { "compare", FIX "thp.json", "--by", "thp",
			       "--base", "always", "-f", "email" } },
	{ "by-label-ministat", 0, { "compare", FIX "label.json", "--by",
				    "label", "-f", "ministat", "-m",
				    "page-faults" } },
	{ "aa", 0, { "compare", FIX "aa_a.json", FIX "aa_b.json" } },
	{ "forced", 0, { "compare", FIX "base.json", FIX "envdiff.json",
			 "--force", "-m", "gbps", "-f", "email" } },
	{ "fail-on", 1, { "compare", FIX "base.json", FIX "new.json",
			  "--fail-on", "regression", "-m", "gbps",
			  "--confidence", "99", "--threshold", "gbps=4%" } },
	{ "cover", 0, { "compare", FIX "base.json", FIX "new.json", "--format",
			"cover", "--chart", "plots/ab-split-thp-always-change.png" } },
};

static int argc_of(const char *const *argv)
{
	int n = 0;

	while (argv[n])
		n++;
	return n;
}

static char *run_compare(const struct golden *g, int *rc)
{
	char *argv[12] = { 0 }, *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i, n = argc_of(g->argv);

	/* getopt_long permutes argv: hand it a copy */
	for (i = 0; i < n; i++)
		argv[i] = (char *)g->argv[i];
	*rc = compare_main(n, argv, f);
	fclose(f);
	return buf;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	fclose(f);
	return buf;
}

/*
 * The same output but for the last digits of numbers printed with all
 * 17 significant digits (%.17g): libm and GSL may round one ulp apart
 * on another architecture (arm64's fused multiply-add), which is no
 * change in what compare computes. Every other byte must be equal, and
 * each pair of numbers within 1e-12 relative.
 */
static int same_but_last_digits(const char *a, const char *b)
{
	while (*a || *b) {
		char *ea, *eb;
		double x, y;

		if ((*a >= '0' && *a <= '9') || *a == '-' || *a == '.') {
			x = strtod(a, &ea);
			y = strtod(b, &eb);
			if (ea == a || eb == b)
				goto plain;
			if (ea - a < 16 && eb - b < 16 && memcmp(a, b, (size_t)(ea - a)))
				return 0;	/* a short number: exact */
			if (fabs(x - y) > 1e-12 * fmax(fabs(x), fabs(y)))
				return 0;
			a = ea;
			b = eb;
			continue;
		}
plain:
		if (*a != *b)
			return 0;
		a++;
		b++;
	}
	return 1;
}

/* First differing line, for a failure message that helps. */
static void report_diff(const char *want, const char *got, const char *name)
{
	int line = 1;

	while (*want && *want == *got) {
		line += *want == '\n';
		want++;
		got++;
	}
	fail_msg("%s differs from " GOLDEN "%s.txt at line %d:\n"
		 "  expected: %.80s\n  got:      %.80s\n"
		 "(THPBENCH_REGEN_GOLDEN=1 to rewrite, then review the diff)",
		 name, name, line, want, got);
}

static void test_golden(void **state)
{
	const char *regen = getenv("THPBENCH_REGEN_GOLDEN");
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		const struct golden *g = &goldens[i];
		char path[256], *got, *want;
		int rc;

		snprintf(path, sizeof(path), GOLDEN "%s.txt", g->name);
		got = run_compare(g, &rc);
		if (rc != g->rc)
			fail_msg("%s: exit code %d, expected %d", g->name, rc,
				 g->rc);
		if (regen && !strcmp(regen, "1")) {
			FILE *f = fopen(path, "w");

			assert_non_null(f);
			fputs(got, f);
			fclose(f);
		}
		want = slurp(path);
		if (!want)
			fail_msg("missing %s (THPBENCH_REGEN_GOLDEN=1 makes it)",
				 path);
		if (strcmp(want, got) && !same_but_last_digits(want, got))
			report_diff(want, got, g->name);
		free(want);
		free(got);
	}
}

static int display_width(const char *s, size_t n)
{
	int w = 0;
	size_t i;

	for (i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* The email format promises 72 columns and no trailing blanks. */
static void check_email_lines(const char *name, const char *out)
{
	const char *p = out;
	int line = 1;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (display_width(p, n) > 72)
			fail_msg("%s line %d is %d columns: %.*s", name, line,
				 display_width(p, n), (int)n, p);
		if (n && p[n - 1] == ' ')
			fail_msg("%s line %d ends in a blank", name, line);
		p += n + (p[n] == '\n');
		line++;
	}
}

static void test_email_width(void **state)
{
	static const size_t which[] = { 2, 7, 10, 12 };
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(which) / sizeof(which[0]); k++) {
		int rc;
		char *out = run_compare(&goldens[which[k]], &rc);

		check_email_lines(goldens[which[k]].name, out);
		free(out);
	}
}

/* A fixture as a kernel A/B run leaves it: its own release and config
 * digest, emulated timings, in a results directory with a long name. */
static void write_ab_side(const char *from, const char *to, const char *rel,
			  const char *digest)
{
	json_t *r = json_load_file(from, 0, NULL), *env, *meta;
	char cfg[80];

	assert_non_null(r);
	env = json_object_get(r, "env");
	meta = json_object_get(r, "meta");
	snprintf(cfg, sizeof(cfg), "sha256:%s", digest);
	json_object_set_new(env, "kernel", json_string(rel));
	json_object_set_new(env, "kernel_config", json_string(cfg));
	json_object_set_new(meta, "timings", json_string("emulated (qemu TCG): times are not hardware timings"));
	json_object_set_new(meta, "command", json_string(
		"/bin/thpbench run /etc/thpbench/suite.conf -o /tmp/out --label 6.1.192-tb-3f9a2c1e --progress lines -r 5"));
	assert_int_equal(json_dump_file(r, to, JSON_INDENT(1)), 0);
	json_decref(r);
}

/* A.json and B.json in a new directory dir (a mkdtemp template). */
static void ab_pair(char *dir, char *a, char *b, size_t len)
{
	assert_non_null(mkdtemp(dir));
	snprintf(a, len, "%s/A.json", dir);
	snprintf(b, len, "%s/B.json", dir);
	write_ab_side(FIX "base.json", a, "6.1.192-tb-3f9a2c1e",
		      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
	write_ab_side(FIX "new.json", b, "6.1.192-tb-77aa01bc",
		      "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210");
}

/*
 * What an A/B run compares: long absolute paths in the command to
 * reproduce and two config digests that differ. 72 columns all the same,
 * each digest whole (12 hex digits, as git shortens ids), each path
 * broken only after a '/', and the command still the same command.
 */
static void test_email_ab(void **state)
{
	char dir[] = "/tmp/thpbench-ab-000-mremap-thp-pmd-move-20261201-101010-XXXXXX";
	char a[128], b[128], *out, *p;
	const char *argv[6] = { "compare", a, b, "--format", "email", NULL };
	struct golden g = { "ab", 0, { 0 } };
	int rc, i;

	(void)state;
	ab_pair(dir, a, b, sizeof(a));
	for (i = 0; argv[i]; i++)
		g.argv[i] = argv[i];
	out = run_compare(&g, &rc);
	assert_int_equal(rc, 0);
	check_email_lines("A/B email", out);
	assert_non_null(strstr(out, "sha256:0123456789ab vs sha256:fedcba987654"));
	assert_null(strstr(out, "0123456789abc\n"));
	/* The reproduce command: joined as a shell joins it, the original. */
	p = strstr(out, "Reproduce with:\n");
	assert_non_null(p);
	{
		char joined[512] = "", *q = joined, *s = p + strlen("Reproduce with:\n");
		char want[512];

		for (; *s && strncmp(s, "Measured with:", 14); s++) {
			if (s[0] == '\\' && s[1] == '\n') {
				s++;
				continue;
			}
			if (*s == '\n' || (*s == ' ' && q > joined && q[-1] == ' '))
				continue;
			if (q == joined && *s == ' ')
				continue;
			*q++ = *s;
		}
		*q = '\0';
		snprintf(want, sizeof(want), "thpbench compare %s %s --format email", a, b);
		assert_string_equal(joined, want);
	}
	free(out);
	remove(a);
	remove(b);
	rmdir(dir);
}

/* What sh prints running script. */
static char *run_sh(const char *script)
{
	char path[] = "/tmp/thpbench-sh-XXXXXX", cmd[64], *buf;
	int fd = mkstemp(path);
	FILE *f, *p;
	size_t n;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(script, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "sh %s", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	buf = calloc(1, 4096);
	n = fread(buf, 1, 4095, p);
	buf[n] = '\0';
	pclose(p);
	remove(path);
	return buf;
}

/* What ab.sh records for the cover format, with names made long. */
static void add_provenance(const char *path, const char *rel)
{
	json_t *r = json_load_file(path, 0, NULL), *p;

	assert_non_null(r);
	p = json_pack("{s:s, s:s, s:[{s:s, s:s}, {s:s, s:s}], s:s, s:s, s:s, s:s,"
		      " s:{s:s, s:i, s:s, s:s, s:s}, s:{s:s}}",
		"series", "v3-mm-mremap-split-huge-pmd-instead-of-moving-it-and-some-more-words",
		"base", "/home/someone/src/linux-with-a-long-directory-name at v6.1 (0123456789ab)",
		"patches",
		"file", "0001-mm-mremap-split-huge-pmd-instead-of-moving-it-when-the-range-is-aligned.patch",
		"given", "0001-mm-mremap-split-huge-pmd-instead-of-moving-it-when-the-range-is-aligned.patch",
		"file", "0002-x.patch", "given", "v3.mbx #2: [PATCH v3 2/2] mm: a subject line that goes on\x1b[31m",
		"command", "./run.sh ab /home/someone/src/patches/v3-20261130-mm-mremap-split-huge-pmd-instead-of-moving-it.mbx --suite kernel-patches/000-mremap-thp-pmd-move/suite.conf --reps 5",
		"suite", "suite.conf",
		"suite_sha256", "0abb26343600c26c961a2bc1a2de2ec7c98252b7fd9594842e368e68ee1ee50c",
		"thpbench_version", "v1.0-123-gabcdef012345",
		"host", "cpu", "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz, stepping and a long tail",
		"nr_cpus", 128, "kernel", "6.18.44", "hostname", "box", "virt", "kvm",
		"kernel", "release", rel);
	assert_non_null(p);
	json_object_set_new(json_object_get(r, "meta"), "provenance", p);
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(1)), 0);
	json_decref(r);
}

/*
 * The cover letter block of an A/B run (what ab.sh writes to
 * cover-letter.txt): 72 columns with long names everywhere, only the
 * metrics that changed, the environment in one line saying "emulated
 * timings (TCG)", the kernels and every patch as given, the command to
 * reproduce (whole once a shell reads it) and the charts.
 */
static void test_cover_ab(void **state)
{
	char dir[] = "/tmp/thpbench-cover-XXXXXX", a[128], b[128], *out, *p, *env;
	const char *argv[] = { "compare", a, b, "--format", "cover", "--chart",
			       "plots/ab-split-thp-always-change.png", NULL };
	struct golden g = { "cover-ab", 0, { 0 } };
	int rc, i;

	(void)state;
	ab_pair(dir, a, b, sizeof(a));
	add_provenance(a, "6.1.192-tb-3f9a2c1e");
	add_provenance(b, "6.1.192-tb-77aa01bc");
	for (i = 0; argv[i]; i++)
		g.argv[i] = argv[i];
	out = run_compare(&g, &rc);
	assert_int_equal(rc, 0);
	check_email_lines("cover", out);
	assert_null(strchr(out, '\x1b'));	/* a subject's escape code */
	assert_non_null(strstr(out, "Kernel A/B with thpbench:"));
	assert_non_null(strstr(out, "v3-mm-mremap-split-huge-pmd-instead-of-moving-it-and-some-more-words\n"));
	assert_non_null(strstr(out, "  A: 6.1.192-tb-3f9a2c1e:"));
	assert_non_null(strstr(out, "/home/someone/src/linux-with-a-long-directory-name at v6.1"));
	assert_non_null(strstr(out, "  B: 6.1.192-tb-77aa01bc: A + 2 patches\n"));
	assert_non_null(strstr(out, "v3.mbx #2: [PATCH v3 2/2] mm: a subject"));
	/* Changed: split_usec (improvement), gbps (regression); the rest not. */
	assert_non_null(strstr(out, "\n  split_usec "));
	assert_non_null(strstr(out, "\n  gbps "));
	assert_null(strstr(out, "\n  wall_usec "));
	assert_null(strstr(out, "\n  page-faults "));
	/* The environment: one line, the CPU as people say it. */
	env = strstr(out, "\nEnvironment: ");
	assert_non_null(env);
	p = strchr(env + 1, '\n');
	assert_non_null(p);
	assert_true(strncmp(env, "\nEnvironment: Xeon Platinum 8375C, 128 CPUs, VM", 47) == 0);
	assert_true(strncmp(p - 24, ", emulated timings (TCG)", 24) == 0 ||
		    strncmp(p - 24, "; emulated timings (TCG)", 24) == 0);
	assert_non_null(strstr(out, "(sha256:0abb26343600)"));
	assert_non_null(strstr(out, "\nCharts: plots/ab-split-thp-always-change.png\n"));
	/* The command, as a shell reads the pasted lines. */
	p = strstr(out, "\nReproduce:\n");
	assert_non_null(p);
	{
		char script[1024], *words;
		size_t n = strcspn(p + 12, "\n");
		const char *end = strstr(p + 12, "\n\n");

		n = end ? (size_t)(end - (p + 12)) : n;
		snprintf(script, sizeof(script), "set -- %.*s\nprintf '[%%s]' \"$@\"\n", (int)n, p + 12);
		words = run_sh(script);
		assert_string_equal(words, "[./run.sh][ab][/home/someone/src/patches/v3-20261130-mm-mremap-split-huge-pmd-instead-of-moving-it.mbx]"
			"[--suite][kernel-patches/000-mremap-thp-pmd-move/suite.conf][--reps][5]");
		free(words);
	}
	free(out);
	remove(a);
	remove(b);
	rmdir(dir);
}

static int run_args(int n, const char **args)
{
	char *argv[16] = { 0 }, *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i, rc;

	for (i = 0; i < n; i++)
		argv[i] = (char *)args[i];
	rc = compare_main(n, argv, f);
	fclose(f);
	free(buf);
	return rc;
}

static void test_exit_codes(void **state)
{
	const char *envdiff[] = { "compare", FIX "base.json", FIX "envdiff.json" };
	const char *one[] = { "compare", FIX "base.json" };
	const char *thr[] = { "compare", FIX "base.json", FIX "new.json", "-t", "2" };
	const char *conf[] = { "compare", FIX "base.json", FIX "new.json", "-c", "40" };
	const char *fmt[] = { "compare", FIX "base.json", FIX "new.json", "-f", "xml" };
	const char *missing[] = { "compare", FIX "nonexistent.json", FIX "new.json" };
	const char *base[] = { "compare", FIX "base.json", FIX "new.json", "--base", "x" };
	const char *ok[] = { "compare", FIX "base.json", FIX "new.json",
			     "--fail-on", "regression", "-m", "split_usec" };

	(void)state;
	/* different machine and THP defrag: refused unless --force */
	assert_int_equal(run_args(3, envdiff), 2);
	assert_int_equal(run_args(2, one), 2);
	/* "2" could be 2% or 200%: refused */
	assert_int_equal(run_args(5, thr), 2);
	assert_int_equal(run_args(5, conf), 2);
	assert_int_equal(run_args(5, fmt), 2);
	assert_int_equal(run_args(3, missing), 2);
	assert_int_equal(run_args(5, base), 2);
	/* an improvement alone does not fail the gate */
	assert_int_equal(run_args(7, ok), 0);
}

/*
 * THP modes (or labels) of one run are not a before and after: the human
 * formats say which side is better or worse, never "regression" (thp.json
 * has thp=never 50x the faults and 17x the mremap time of always).
 */
static void test_by_words(void **state)
{
	static const char *const fmts[] = { "text", "email", "md", "ministat" };
	const char *bases[] = { "always", "never" };
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		for (k = 0; k < 2; k++) {
			struct golden g = { "by", 0, { "compare", FIX "thp.json",
				"--by", "thp", "--base", bases[k], "-f", fmts[i] } };
			int rc;
			char *out = run_compare(&g, &rc);

			assert_int_equal(rc, 0);
			if (strstr(out, "regression") || strstr(out, "improvement"))
				fail_msg("--by thp --base %s -f %s: %s", bases[k],
					 fmts[i], out);
			assert_non_null(strstr(out, k ? "better" : "worse"));
			free(out);
		}
}

/* A/A on fixture data with realistic noise: never a verdict of change. */
static void test_aa_fixture(void **state)
{
	struct tb_results a, b;
	struct comparison c;
	struct compare_opts o;
	char err[512];
	size_t i, j, metrics = 0;

	(void)state;
	assert_int_equal(store_load(FIX "aa_a.json", &a, err, sizeof(err)), 0);
	assert_int_equal(store_load(FIX "aa_b.json", &b, err, sizeof(err)), 0);
	compare_opts_init(&o);
	assert_int_equal(compare_build(&c, &a, &b, &o, err, sizeof(err)), 0);
	for (i = 0; i < c.npairs; i++)
		for (j = 0; j < c.pairs[i].nm; j++) {
			enum verdict v = c.pairs[i].m[j].verdict;

			metrics++;
			if (v != VERDICT_NO_CHANGE && v != VERDICT_INCONCLUSIVE)
				fail_msg("A/A %s %s: %s", c.pairs[i].title,
					 c.pairs[i].m[j].name, verdict_name(v));
		}
	assert_int_equal(c.npairs, 4);
	assert_true(metrics >= 10);
	compare_free(&c);
	results_free(&a);
	results_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_by_words),
		cmocka_unit_test(test_email_width),
		cmocka_unit_test(test_email_ab),
		cmocka_unit_test(test_cover_ab),
		cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_aa_fixture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
