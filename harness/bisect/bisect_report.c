// SPDX-License-Identifier: GPL-2.0-only
/* bisect_report - see bisect_report.h. */
#include "bisect_report.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/store_json.h"
#include "plot/plot_metrics.h"
#include "stats/metric_info.h"
#include "util/util.h"

#define W BISECT_TEXT_WIDTH

const char *bisect_fit(const char *s, size_t cols, char *buf, size_t len)
{
	size_t i, o = 0, c = 0, cut = 0, ccut = 0;

	if (!len)
		return buf;
	for (i = 0; s && s[i] && o + 4 < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if ((ch & 0xc0) != 0x80) {	/* a new code point */
			if (c == (cols > 3 ? cols - 3 : 0)) {
				cut = o;
				ccut = 1;
			}
			if (c == cols)
				break;
			c++;
		}
		buf[o++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
	}
	if (s && s[i] && ccut && cols >= 3) {
		memcpy(buf + cut, "...", 3);
		o = cut + 3;
	}
	buf[o] = 0;
	return buf;
}

static size_t *measured_order(const struct bisect_state *s, size_t *n)
{
	size_t *o = xcalloc(s->n + 1, sizeof(*o)), i, j, k = 0;

	for (i = 0; i < s->n; i++)
		if (s->c[i].first_run)
			o[k++] = i;
	for (i = 1; i < k; i++)	/* insertion sort by first run */
		for (j = i; j > 0 && s->c[o[j - 1]].first_run > s->c[o[j]].first_run; j--) {
			size_t t = o[j];

			o[j] = o[j - 1];
			o[j - 1] = t;
		}
	*n = k;
	return o;
}

void bisect_result_build(struct bisect_result *r, struct bisect_state *s)
{
	enum bisect_class *cls;

	memset(r, 0, sizeof(*r));
	r->s = s;
	bisect_state_eval(s, &r->a);
	r->order = measured_order(s, &r->norder);
	switch (r->a.kind) {
	case BA_NOTHING:
		r->outcome = "nothing";
		return;
	case BA_ERROR:
		r->outcome = "error";
		return;
	case BA_MEASURE:
		r->outcome = "incomplete";
		return;
	case BA_DONE:
		break;
	}
	cls = bisect_state_classes(s);
	bisect_plan_outcome(cls, s->n, &r->o);
	free(cls);
	r->have_o = true;
	r->outcome = bisect_outcome_name(r->o.kind);
}

void bisect_result_free(struct bisect_result *r)
{
	if (r->have_o)
		bisect_outcome_free(&r->o);
	free(r->order);
	memset(r, 0, sizeof(*r));
}

int bisect_result_exit(const struct bisect_result *r)
{
	if (r->a.kind == BA_NOTHING)
		return 3;
	if (!r->have_o)
		return 2;
	return r->o.kind == BO_FOUND ? 0 : 1;
}

/* ---- text ---- */

static const char *short_sha(const struct bisect_commit *c, char *buf)
{
	return bisect_short(c->sha, buf, 13);
}

static void line_fit(FILE *f, const char *prefix, const char *text)
{
	char buf[1024];

	fprintf(f, "%s%s\n", prefix,
		bisect_fit(text, W - strlen(prefix), buf, sizeof(buf)));
}

/* Words of text wrapped at W columns, each line after prefix. */
static void wrap(FILE *f, const char *prefix, const char *text)
{
	char buf[2048], *p, *word, *save = NULL;
	size_t col = 0, pl = strlen(prefix);

	bisect_fit(text, sizeof(buf) - 4, buf, sizeof(buf));
	for (p = buf; (word = strtok_r(p, " ", &save)); p = NULL) {
		size_t wl = strlen(word);

		if (col && col + 1 + wl > W) {
			fputc('\n', f);
			col = 0;
		}
		if (!col) {
			fputs(prefix, f);
			col = pl;
		} else {
			fputc(' ', f);
			col++;
		}
		fputs(word, f);
		col += wl;
	}
	if (col)
		fputc('\n', f);
}

/*
 * How the report shows the metric: in the unit that keeps the
 * references' numbers readable (plot_metric_scale: 1.2 s rather than
 * 1234567 us; "us" for micro, the text being ASCII), "" for a count;
 * *factor converts stored values to it.
 */
static const char *units(const struct bisect_state *s, double *factor)
{
	struct pm_scale sc;

	plot_metric_scale(s->metric, fmax(fabs(s->refs.good), fabs(s->refs.bad)), &sc);
	*factor = sc.factor;
	if (!strcmp(sc.unit, "count"))
		return "";
	return strncmp(sc.unit, "\xc2\xb5", 2) ? sc.unit : "us";
}

/* v in the report's unit, the number alone: 4 digits, 6 for a count. */
static void num(const struct bisect_state *s, char *buf, size_t len, double v)
{
	double f;
	const char *u = units(s, &f);

	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, *u ? "%.4g" : "%.6g", v * f);
}

/* v with its unit ("1.041 ms", "256"). */
static void val(const struct bisect_state *s, char *buf, size_t len, double v)
{
	double f;
	const char *u = units(s, &f);

	num(s, buf, len, v);
	if (*u && !isnan(v))
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", u);
}

static const char *change_word(const struct bisect_state *s)
{
	enum better b = metric_default_better(s->metric);
	double d = s->refs.diff;

	if (b == BETTER_NEUTRAL || d == 0)
		return "changed";
	return (d > 0) == (b == BETTER_LOWER) ? "regression" : "improvement";
}

static void text_header(FILE *f, const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	char sh[16], buf[160];

	snprintf(buf, sizeof(buf), "Bisection of %s, case %s", s->metric, s->case_name);
	line_fit(f, "", buf);
	snprintf(buf, sizeof(buf), "  GOOD %s  ", short_sha(&s->c[0], sh));
	line_fit(f, buf, s->c[0].subject);
	snprintf(buf, sizeof(buf), "  BAD  %s  ", short_sha(&s->c[s->n - 1], sh));
	line_fit(f, buf, s->c[s->n - 1].subject);
	fprintf(f, "  %zu commits after GOOD; %zu boots or skips recorded\n",
		s->n - 1, s->runs);
	if (s->unit_note)
		wrap(f, "  timings: ", s->unit_note);
	fputc('\n', f);
}

static void text_refs(FILE *f, const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	const struct bisect_refs *x = &s->refs;
	const struct bisect_commit *g = &s->c[0], *b = &s->c[s->n - 1];
	char m1[32], m2[32], l[32], h[32], buf[256];
	double uf;

	if (!s->refs_done)
		return;
	val(s, m1, sizeof(m1), x->good);
	val(s, m2, sizeof(m2), x->bad);
	fprintf(f, "References, GOOD vs BAD (%.4g%% interval):\n", 100 * x->level);
	snprintf(buf, sizeof(buf), "GOOD %s (%zu runs, %zu boots), BAD %s (%zu runs, %zu boots)",
		 m1, g->n, g->boots, m2, b->n, b->boots);
	wrap(f, "  ", buf);
	if (!isnan(x->rel))
		snprintf(buf, sizeof(buf), "change %+.1f%% [%+.1f%%, %+.1f%%]: %s",
			 100 * x->rel, 100 * x->rel_lo, 100 * x->rel_hi,
			 x->state == REFS_CHANGE ? change_word(s) :
			 bisect_refs_state_name(x->state));
	else {
		num(s, l, sizeof(l), x->diff_lo);
		num(s, h, sizeof(h), x->diff_hi);
		num(s, m1, sizeof(m1), x->diff);
		snprintf(buf, sizeof(buf), "change %s [%s, %s]%s%s: %s", m1, l, h,
			 *units(s, &uf) ? " " : "", units(s, &uf),
			 x->state == REFS_CHANGE ? change_word(s) :
			 bisect_refs_state_name(x->state));
	}
	wrap(f, "  ", buf);
	if (x->state == REFS_CHANGE) {
		snprintf(buf, sizeof(buf), "a step starts with %zu repetitions; %s",
			 x->first_reps, x->undecidable ?
			 "the references are too noisy for a step to decide within the caps: expect inconclusive steps (raise --max-reps, --max-looks)" :
			 "noise model fitted on the references");
		wrap(f, "  ", buf);
	}
	fputc('\n', f);
}

static void text_commit_detail(FILE *f, const struct bisect_commit *c)
{
	fprintf(f, "  %s\n", c->sha);
	line_fit(f, "  ", c->subject);
	if (*c->author)
		line_fit(f, "  Author: ", c->author);
	if (*c->date)
		line_fit(f, "  Date:   ", c->date);
	if (*c->patch_id)
		line_fit(f, "  patch-id: ", c->patch_id);
}

static void text_suspects(FILE *f, const struct bisect_state *s,
			  const struct bisect_jump *j)
{
	size_t k;
	char sh[16], pre[64];

	for (k = j->first; k <= j->last; k++) {
		const struct bisect_commit *c = &s->c[k];

		snprintf(pre, sizeof(pre), "  %s %-12s ", short_sha(c, sh),
			 c->cls == BC_SKIP ? "skipped" : bisect_class_name(c->cls));
		line_fit(f, pre, c->subject);
	}
}

static void text_found(FILE *f, const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	const struct bisect_jump *j = &r->o.jumps[0];
	const struct bisect_commit *c = &s->c[j->to], *p = &s->c[j->from];
	char sh[16], m1[32], m2[32], buf[256];

	fputs("First bad commit:\n", f);
	text_commit_detail(f, c);
	val(s, m1, sizeof(m1), j->from == 0 ? s->refs.good : p->step.mean);
	val(s, m2, sizeof(m2), j->to == s->n - 1 ? s->refs.bad : c->step.mean);
	snprintf(buf, sizeof(buf), "%s %s at its parent %s (good), %s here (bad)",
		 s->metric, m1, short_sha(p, sh), m2);
	wrap(f, "  ", buf);
}

static void text_jumps(FILE *f, const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	size_t i;
	char sh[16], buf[256];

	for (i = 0; i < r->o.njumps; i++) {
		const struct bisect_jump *j = &r->o.jumps[i];

		if (j->first == j->last)
			snprintf(buf, sizeof(buf), "%zu. level %.1f -> %.1f at %s:",
				 i + 1, j->from_level, j->to_level,
				 short_sha(&s->c[j->to], sh));
		else
			snprintf(buf, sizeof(buf), "%zu. level %.1f -> %.1f at one of %zu commits:",
				 i + 1, j->from_level, j->to_level,
				 j->last - j->first + 1);
		line_fit(f, "", buf);
		text_suspects(f, s, j);
	}
}

static void text_outcome(FILE *f, const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	char buf[512];

	if (r->a.kind == BA_NOTHING) {
		snprintf(buf, sizeof(buf), "Nothing to bisect: GOOD vs BAD is %s of %s (see the references below).",
			 s->refs.state == REFS_NO_CHANGE ?
			 "no change beyond the noise threshold" :
			 "no significant change after the most boots allowed",
			 s->metric);
		wrap(f, "", buf);
	} else if (r->a.kind == BA_ERROR) {
		wrap(f, "Cannot bisect: ", r->a.why);
	} else if (!r->have_o) {
		snprintf(buf, sizeof(buf), "Not finished (%s): resume with ./run.sh bisect --resume %s",
			 r->a.why, s->dir);
		wrap(f, "", buf);
	} else if (r->o.kind == BO_FOUND) {
		text_found(f, r);
	} else if (r->o.kind == BO_RANGE) {
		snprintf(buf, sizeof(buf), "No single first bad commit: skipped or inconclusive commits lie between the last good and the first bad one. It is one of these %zu:",
			 r->o.jumps[0].last - r->o.jumps[0].first + 1);
		wrap(f, "", buf);
		text_suspects(f, s, &r->o.jumps[0]);
	} else {
		wrap(f, "", r->o.kind == BO_SPREAD ?
		     "The change is spread over several commits: the level (0 = GOOD's, 1 = BAD's) moves in steps:" :
		     "The level goes back somewhere (0 = GOOD's, 1 = BAD's): more than one change, or a noisy step; the bisection's single-change assumption does not hold. Each move:");
		text_jumps(f, r);
	}
	fputc('\n', f);
}

/* Positions print with 2 decimals: -0.004 is "0.00", not "-0.00". */
static double no_minus_zero(double v)
{
	return fabs(v) < 0.005 ? 0 : v;
}

static void text_step(FILE *f, const struct bisect_state *s, size_t k,
		      size_t nstep)
{
	const struct bisect_commit *c = &s->c[k];
	char sh[16], id[16], m[32], l[32], h[32], pos[64], buf[256];
	double uf;
	bool ref = k == 0 || k == s->n - 1;

	if (ref)
		snprintf(id, sizeof(id), "%s", k ? "BAD" : "GOOD");
	else
		snprintf(id, sizeof(id), "%zu", nstep);
	if (c->skip && !ref) {
		snprintf(buf, sizeof(buf), "%5s %s  skip  ", id, short_sha(c, sh));
		line_fit(f, buf, c->skip);
		return;
	}
	if (ref || !c->decided_step)
		snprintf(pos, sizeof(pos), "%s", ref ? (k ? "1" : "0") : "-");
	else
		snprintf(pos, sizeof(pos), "%.2f [%.2f, %.2f]", no_minus_zero(c->step.theta),
			 no_minus_zero(c->step.theta_lo), no_minus_zero(c->step.theta_hi));
	fprintf(f, "%5s %s  %-12s %4zu %5zu  %s\n", id, short_sha(c, sh),
		ref ? "reference" : bisect_class_name(c->cls), c->n, c->boots, pos);
	if (ref || !c->decided_step)
		return;
	num(s, m, sizeof(m), c->step.mean);
	num(s, l, sizeof(l), c->step.mean_lo);
	num(s, h, sizeof(h), c->step.mean_hi);
	snprintf(buf, sizeof(buf), "mean %s [%s, %s]%s%s", m, l, h,
		 *units(s, &uf) ? " " : "", units(s, &uf));
	line_fit(f, "                    ", buf);
}

static void text_steps(FILE *f, const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	size_t i, nstep = 0;
	double lvl = 1 - 2 * (1 - s->opts.confidence) / (double)s->opts.max_looks;

	fprintf(f, "Steps (position: 0 = GOOD's level, 1 = BAD's; %.4g%% intervals):\n",
		100 * lvl);
	fputs(" step commit        verdict      reps boots  position\n", f);
	for (i = 0; i < r->norder; i++) {
		size_t k = r->order[i];

		if (k != 0 && k != s->n - 1)
			nstep++;
		text_step(f, s, k, nstep);
	}
	fputc('\n', f);
	{
		char buf[512];

		snprintf(buf, sizeof(buf), "A verdict is wrong with probability at most %.3g%% under the rule's assumptions (normal noise and boot effects; up to %zu boot%s and %zu repetitions per commit). Partial: between the two levels (margin %.2f).",
			 100 * (1 - s->opts.confidence), s->opts.max_looks,
			 s->opts.max_looks == 1 ? "" : "s",
			 s->opts.max_reps, s->opts.margin);
		wrap(f, "", buf);
	}
}

void bisect_report_text(FILE *f, const struct bisect_result *r)
{
	text_header(f, r);
	text_outcome(f, r);
	text_refs(f, r);
	if (r->norder)
		text_steps(f, r);
}

/* ---- json ---- */

static json_t *jnum(double v)
{
	return store_num(v);
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *commit_json(const struct bisect_state *s, size_t k)
{
	const struct bisect_commit *c = &s->c[k];
	json_t *o = json_pack("{s:I,s:s,s:s,s:s,s:s,s:s,s:s,s:I,s:I}",
			      "index", (json_int_t)k, "sha", c->sha,
			      "subject", c->subject, "author", c->author,
			      "date", c->date, "patch_id", c->patch_id,
			      "class", bisect_class_name(c->cls),
			      "repetitions", (json_int_t)c->n,
			      "boots", (json_int_t)c->boots);

	json_object_set_new(o, "skip", jstr(c->skip));
	if (c->decided_step)
		json_object_set_new(o, "step", json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I}",
			"verdict", bisect_verdict_name(c->step.verdict),
			"position", jnum(c->step.theta),
			"position_lo", jnum(c->step.theta_lo),
			"position_hi", jnum(c->step.theta_hi),
			"mean", jnum(c->step.mean), "mean_lo", jnum(c->step.mean_lo),
			"mean_hi", jnum(c->step.mean_hi), "level", jnum(c->step.level),
			"df", jnum(c->step.df), "next_reps", (json_int_t)c->step.next_reps));
	return o;
}

static json_t *refs_json(const struct bisect_state *s)
{
	const struct bisect_refs *x = &s->refs;

	if (!s->refs_done)
		return json_null();
	return json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:I,s:b,s:{s:s,s:o,s:o,s:o}}",
		"state", bisect_refs_state_name(x->state),
		"good_mean", jnum(x->good), "bad_mean", jnum(x->bad),
		"change", jnum(x->rel), "change_lo", jnum(x->rel_lo),
		"change_hi", jnum(x->rel_hi), "diff", jnum(x->diff),
		"diff_lo", jnum(x->diff_lo), "diff_hi", jnum(x->diff_hi),
		"level", jnum(x->level), "first_reps", (json_int_t)x->first_reps,
		"undecidable", x->undecidable,
		"noise", "scale", bisect_scale_name(x->noise.scale),
		"sd_good", jnum(x->noise.sw_good), "sd_bad", jnum(x->noise.sw_bad),
		"sd_boot", jnum(x->noise.sb));
}

static json_t *jumps_json(const struct bisect_result *r)
{
	json_t *a = json_array();
	size_t i, k;

	for (i = 0; r->have_o && i < r->o.njumps; i++) {
		const struct bisect_jump *j = &r->o.jumps[i];
		json_t *sus = json_array();

		for (k = j->first; k <= j->last; k++)
			json_array_append_new(sus, json_string(r->s->c[k].sha));
		json_array_append_new(a, json_pack("{s:s,s:s,s:o,s:o,s:o}",
			"last_at_old_level", r->s->c[j->from].sha,
			"first_at_new_level", r->s->c[j->to].sha,
			"from_level", jnum(j->from_level), "to_level", jnum(j->to_level),
			"suspects", sus));
	}
	return a;
}

static json_t *opts_json(const struct bisect_state *s)
{
	const struct bisect_opts *o = &s->opts;

	return json_pack("{s:o,s:I,s:I,s:I,s:I,s:o,s:o,s:o,s:I,s:I,s:I}",
		"confidence", jnum(o->confidence), "max_looks", (json_int_t)o->max_looks,
		"max_reps", (json_int_t)o->max_reps, "min_batch", (json_int_t)o->min_batch,
		"max_batch", (json_int_t)o->max_batch, "margin", jnum(o->margin),
		"threshold", jnum(o->threshold), "ref_confidence", jnum(o->ref_confidence),
		"ref_boots", (json_int_t)o->ref_boots,
		"ref_max_boots", (json_int_t)o->ref_max_boots,
		"ref_reps", (json_int_t)s->ref_reps);
}

json_t *bisect_report_json(const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	json_t *steps = json_array(), *first_bad = json_null();
	size_t i;

	for (i = 0; i < r->norder; i++)
		json_array_append_new(steps, commit_json(s, r->order[i]));
	if (r->have_o && r->o.kind == BO_FOUND)
		first_bad = commit_json(s, r->o.jumps[0].to);
	return json_pack("{s:s,s:s,s:s,s:o,s:s,s:o,s:o,s:I,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
		"schema", BISECT_REPORT_SCHEMA, "metric", s->metric,
		"case", s->case_name, "tree", jstr(s->tree),
		"outcome", r->outcome, "why", json_string(r->a.why),
		"timings", jstr(s->unit_note),
		"commits", (json_int_t)s->n, "runs", (json_int_t)s->runs,
		"good", commit_json(s, 0), "bad", commit_json(s, s->n - 1),
		"first_bad", first_bad, "jumps", jumps_json(r),
		"references", refs_json(s), "steps", steps, "options", opts_json(s));
}

/* ---- git bisect log ---- */

void bisect_report_gitlog(FILE *f, const struct bisect_result *r)
{
	const struct bisect_state *s = r->s;
	size_t i;
	char buf[128];

	fprintf(f, "# thpbench bisect of %s\n", bisect_fit(s->metric, 60, buf, sizeof(buf)));
	fprintf(f, "git bisect start %s %s\n", s->c[s->n - 1].sha, s->c[0].sha);
	for (i = 0; i < r->norder; i++) {
		const struct bisect_commit *c = &s->c[r->order[i]];

		if (r->order[i] == 0 || r->order[i] == s->n - 1)
			continue;
		switch (c->cls) {
		case BC_GOOD:
			fprintf(f, "git bisect good %s\n", c->sha);
			break;
		case BC_BAD:
			fprintf(f, "git bisect bad %s\n", c->sha);
			break;
		case BC_UNTESTED:
		case BC_MEASURING:
			break;
		default:
			fprintf(f, "# %s: %s\ngit bisect skip %s\n",
				bisect_class_name(c->cls),
				bisect_fit(c->skip ? c->skip : "neither level", 60,
					   buf, sizeof(buf)), c->sha);
		}
	}
	if (r->have_o && r->o.kind == BO_FOUND)
		fprintf(f, "# first bad commit: [%s]\n", s->c[r->o.jumps[0].to].sha);
}
