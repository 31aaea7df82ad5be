// SPDX-License-Identifier: GPL-2.0-only
/*
 * cover format: the block a patch author pastes into a cover letter.
 * Plain text, at most 72 columns (compare_email.h): what was compared
 * (the series and its patches as the author named them, kernel A and B),
 * the verdict table of the metrics that changed only, the environment in
 * one line (host CPU, VM or bare metal, and "emulated timings (TCG)"
 * where the guest was emulated), the command that reproduces it and the
 * chart files. A kernel A/B run (ab.sh) records what the block names in
 * each results file's meta.provenance; without it the block names the
 * files compared and their machine.
 */
#include "compare_format.h"
#include "compare_profile.h"
#include "compare_email.h"
#include "compare_print.h"

#include <string.h>

/* meta.provenance of the new side (the old one's when it has none). */
static const json_t *provenance(const struct comparison *c)
{
	const json_t *p = json_object_get(c->rb->meta, "provenance");

	if (!json_is_object(p))
		p = json_object_get(c->ra->meta, "provenance");
	return json_is_object(p) ? p : NULL;
}

static const char *str_of(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A patch as the author named it: the file, or the mail or commit it
 * came from, as ab.sh recorded it. */
static const char *patch_name(const json_t *patch)
{
	const char *given = str_of(patch, "given");

	return given ? given : str_of(patch, "file");
}

/* The release a side booted (meta.provenance.kernel), else env.kernel. */
static void release_of(const struct tb_results *r, char *buf, size_t len)
{
	const char *rel = str_of(json_object_get(json_object_get(r->meta,
							  "provenance"), "kernel"),
				 "release");

	if (rel)
		snprintf(buf, len, "%s", rel);
	else
		compare_env_str(r, "kernel", buf, len);
}

static void cover_kernels(FILE *out, const struct comparison *c,
			  const json_t *p)
{
	const json_t *pa = json_object_get(c->ra->meta, "provenance");
	const json_t *patches = json_object_get(p, "patches"), *it;
	const char *base = str_of(pa, "base");
	char ra[128], rb[128], buf[600];
	size_t i, n = json_array_size(patches);

	release_of(c->ra, ra, sizeof(ra));
	release_of(c->rb, rb, sizeof(rb));
	snprintf(buf, sizeof(buf), "%s%s%s", ra, base ? ": " : "",
		 base ? base : "");
	compare_email_wrap(out, "  A: ", "     ", buf);
	if (!n) {
		const char *what = str_of(p, "new");

		snprintf(buf, sizeof(buf), "%s%s%s", rb, what ? ": " : "",
			 what ? what : "");
		compare_email_wrap(out, "  B: ", "     ", buf);
		return;
	}
	snprintf(buf, sizeof(buf), "%s: A + %zu patch%s", rb, n,
		 n == 1 ? "" : "es");
	compare_email_wrap(out, "  B: ", "     ", buf);
	json_array_foreach(patches, i, it) {
		const char *name = patch_name(it);

		if (name)
			compare_email_wrap(out, "       ", "         ", name);
	}
}

static void cover_title(FILE *out, const struct comparison *c,
			const json_t *p)
{
	char buf[600];
	const char *series = str_of(p, "series");

	if (series) {
		snprintf(buf, sizeof(buf), "Kernel A/B with thpbench: %s", series);
		compare_email_wrap(out, "", "  ", buf);
		fputc('\n', out);
		cover_kernels(out, c, p);
		return;
	}
	snprintf(buf, sizeof(buf), "thpbench: %s vs %s", c->opts.base_path,
		 c->opts.new_path ? c->opts.new_path : "");
	compare_email_wrap(out, "", "  ", buf);
}

/* Metrics of pair p shown in a table: not 0 everywhere. */
static size_t shown(const struct compare_pair *p, bool changed)
{
	size_t i, n = 0;

	for (i = 0; i < p->nm; i++)
		if (!compare_metric_hidden(&p->m[i]) &&
		    verdict_is_change(p->m[i].verdict) == changed)
			n++;
	return n;
}

static void cover_pair(FILE *out, const struct comparison *c,
		       const struct compare_pair *p, bool ab)
{
	char head[600];
	size_t i, rest = shown(p, false);

	snprintf(head, sizeof(head), "%s: %s (n=%zu) vs %s (n=%zu)", p->title,
		 ab ? "A" : p->a_name, case_ok_runs(p->a),
		 ab ? "B" : p->b_name, case_ok_runs(p->b));
	fputc('\n', out);
	compare_email_wrap(out, "", "  ", head);
	compare_email_head(out, ab ? "A" : "base", ab ? "B" : "new");
	for (i = 0; i < p->nm; i++)
		if (!compare_metric_hidden(&p->m[i]) &&
		    verdict_is_change(p->m[i].verdict))
			compare_email_row(out, c, &p->m[i]);
	if (rest) {
		snprintf(head, sizeof(head), "and %zu more metric%s without a change "
			 "(no change, inconclusive or too few runs)", rest,
			 rest == 1 ? "" : "s");
		compare_email_wrap(out, "  ", "  ", head);
	}
	compare_profile_cover(out, c, p, ab);
}

static void cover_table(FILE *out, const struct comparison *c, bool ab)
{
	char buf[600], lvl[16];
	size_t i, changed = 0, rest = 0;

	for (i = 0; i < c->npairs; i++) {
		changed += shown(&c->pairs[i], true);
		rest += shown(&c->pairs[i], false);
	}
	fputc('\n', out);
	if (!changed) {
		snprintf(
			buf, sizeof(buf),
			"No metric changed: %zu compared in %zu "
			"case%s, each no change, inconclusive or too few runs, "
			"at %s%% confidence (%s).",
			rest, c->npairs, c->npairs == 1 ? "" : "s",
			compare_fmt_level(c->opts.confidence, lvl, sizeof(lvl)),
			compare_fmt_test_desc(&c->opts));
		compare_email_wrap(out, "", "", buf);
		return;
	}
	snprintf(buf, sizeof(buf), "What changed, at %s%% confidence (%s, "
		 "Bonferroni per family of metrics). Columns: mean ±stddev in %% "
		 "of the mean; change: ratio of the geometric means - 1, or "
		 "Δ, the difference, where a value is 0.",
		 compare_fmt_level(c->opts.confidence, lvl, sizeof(lvl)),
		 compare_fmt_test_desc(&c->opts));
	compare_email_wrap(out, "", "", buf);
	for (i = 0; i < c->npairs; i++)
		if (shown(&c->pairs[i], true))
			cover_pair(out, c, &c->pairs[i], ab);
}

/* A CPU model as people say it: no (R), (TM), "CPU", "Processor" or
 * clock ("Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz" -> "Intel Xeon Gold
 * 6338"). */
static void short_cpu(const char *in, char *out, size_t len)
{
	static const char *const drop[] = { "(R)", "(r)", "(TM)", "(tm)" };
	static const char *const words[] = { "CPU", "Processor" };
	char tmp[256], *w, *save = NULL;
	size_t i, o = 0;

	snprintf(tmp, sizeof(tmp), "%s", in);
	if ((w = strchr(tmp, '@')))
		*w = '\0';
	for (i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
		while ((w = strstr(tmp, drop[i])))
			memmove(w, w + strlen(drop[i]), strlen(w + strlen(drop[i])) + 1);
	*out = '\0';
	for (w = strtok_r(tmp, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		bool skip = false;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			skip |= !strcmp(w, words[i]);
		if (!skip && o + strlen(w) + 2 < len)
			o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", w);
	}
}

/* "emulated timings (TCG)" for a guest under TCG, else meta.timings. */
static const char *timings_words(const struct comparison *c)
{
	const char *t = str_of(c->rb->meta, "timings");

	if (!t)
		t = str_of(c->ra->meta, "timings");
	if (t && !strncmp(t, "emulated", 8))
		return "emulated timings (TCG)";
	return t;
}

/* The environment in one line: host CPU and count, VM or bare metal,
 * and what kind of timings these are. What gives way to fit 72 columns:
 * the vendor ("Intel", "AMD"), then the hypervisor's name, then the
 * model's last words. */
static void cover_environment(FILE *out, const struct comparison *c,
			      const json_t *p)
{
	static const char label[] = "Environment: ";
	const json_t *host = json_object_get(p, "host");
	const char *virt = str_of(host, "virt"), *t = timings_words(c), *cpu;
	char short_model[160], n[32], model[256], where[64], line[512];
	int step;

	if (host) {
		const json_t *nc = json_object_get(host, "nr_cpus");

		snprintf(model, sizeof(model), "%s", str_of(host, "cpu") ? str_of(host, "cpu") : "?");
		if (json_is_integer(nc))
			snprintf(n, sizeof(n), "%lld", (long long)json_integer_value(nc));
		else
			snprintf(n, sizeof(n), "%s", json_is_string(nc) ? json_string_value(nc) : "?");
	} else {
		compare_env_str(c->ra, "cpu", model, sizeof(model));
		compare_env_str(c->ra, "nr_cpus", n, sizeof(n));
	}
	short_cpu(model, short_model, sizeof(short_model));
	cpu = short_model;
	for (step = 0;; step++) {
		if (!virt)
			*where = '\0';
		else if (!strcmp(virt, "none"))
			snprintf(where, sizeof(where), ", bare metal");
		else
			snprintf(where, sizeof(where), ", VM%s%s%s", step < 2 ? " (" : "",
				 step < 2 ? virt : "", step < 2 ? ")" : "");
		snprintf(line, sizeof(line), "%s%s, %s CPUs%s%s%s", label,
			 *cpu ? cpu : "?", n, where, t ? "; " : "", t ? t : "");
		if (compare_fmt_width(line) <= COMPARE_EMAIL_COLS)
			break;
		if (step == 0 && (!strncmp(cpu, "Intel ", 6) || !strncmp(cpu, "AMD ", 4)))
			cpu = strchr(cpu, ' ') + 1;
		else if (step >= 2 && strrchr(cpu, ' '))
			*strrchr(cpu, ' ') = '\0';
		else if (step >= 2)
			break;	/* one word left: wrapping keeps it whole */
	}
	fputc('\n', out);
	compare_email_wrap(out, "", "  ", line);
}

void compare_print_cover(const struct comparison *c, FILE *out)
{
	const json_t *p = provenance(c);
	const char *cmd = str_of(p, "command"), *suite = str_of(p, "suite_sha256");
	char buf[600];
	size_t i;

	cover_title(out, c, p);
	cover_table(out, c, p && str_of(p, "series"));
	cover_environment(out, c, p);
	if (suite || str_of(p, "thpbench_version")) {
		snprintf(buf, sizeof(buf), "suite %s%s%s%s, thpbench %s",
			 str_of(p, "suite") ? str_of(p, "suite") : "",
			 suite ? " (sha256:" : "", suite ? suite : "", suite ? ")" : "",
			 str_of(p, "thpbench_version") ? str_of(p, "thpbench_version") : "?");
		compare_email_wrap(out, "  ", "  ", buf);
	}
	fputs("\nReproduce:\n", out);
	compare_email_command(out, cmd		     ? cmd
				   : c->opts.command ? c->opts.command
						     : "thpbench compare");
	if (!c->opts.ncharts)
		return;
	fputc('\n', out);
	*buf = '\0';
	for (i = 0; i < c->opts.ncharts; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? ", " : "", c->opts.charts[i]);
	compare_email_wrap(out, "Charts: ", "  ", buf);
}
