// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_coverage - which cases moved which THP event counter beyond the
 * background (compare_coverage.h).
 */
#include "compare_coverage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure/background.h"
#include "util/util.h"

/* What drives each kind: said when nothing moved it. */
struct known {
	const char *kind;
	enum compare_cov_family family;
	const char *path;
};

static const struct known known[] = {
	{ "thp_fault_alloc", COMPARE_COV_THP, "anonymous THP faults" },
	{ "thp_fault_fallback", COMPARE_COV_THP, "a THP fault with no huge page free" },
	{ "thp_fault_fallback_charge", COMPARE_COV_THP, "a THP fault over its memcg limit" },
	{ "thp_collapse_alloc", COMPARE_COV_THP, "khugepaged or MADV_COLLAPSE" },
	{ "thp_collapse_alloc_failed", COMPARE_COV_THP, "a collapse with no huge page free (memory_state = pinned, compact_unevictable_allowed 0; collapse --each)" },
	{ "thp_file_alloc", COMPARE_COV_THP, "shmem or page-cache large folios" },
	{ "thp_file_fallback", COMPARE_COV_THP, "shmem or page-cache large folios" },
	{ "thp_file_fallback_charge", COMPARE_COV_THP, "shmem THP over its memcg limit" },
	{ "thp_file_mapped", COMPARE_COV_THP, "a file THP mapped by PMD" },
	{ "thp_split_page", COMPARE_COV_THP, "a THP split (partial unmap, pressure)" },
	{ "thp_split_page_failed", COMPARE_COV_THP, "a THP split refused (pinned pages)" },
	{ "thp_deferred_split_page", COMPARE_COV_THP, "a partly unmapped THP queued" },
	{ "thp_underused_split_page", COMPARE_COV_THP, "the underused-THP shrinker" },
	{ "thp_split_pmd", COMPARE_COV_THP, "a huge PMD split" },
	{ "thp_scan_exceed_none_pte", COMPARE_COV_THP, "khugepaged past max_ptes_none" },
	{ "thp_scan_exceed_swap_pte", COMPARE_COV_THP, "khugepaged past max_ptes_swap" },
	{ "thp_scan_exceed_share_pte", COMPARE_COV_THP, "khugepaged past max_ptes_shared" },
	{ "thp_split_pud", COMPARE_COV_THP, "a PUD-mapped (DAX) THP split" },
	{ "thp_zero_page_alloc", COMPARE_COV_THP, "a read fault on untouched THP memory" },
	{ "thp_zero_page_alloc_failed", COMPARE_COV_THP, "the huge zero page not allocated (memory_state = pinned, drop_slab = yes; zero_page)" },
	{ "thp_swpout", COMPARE_COV_THP, "a THP swapped out whole" },
	{ "thp_swpout_fallback", COMPARE_COV_THP, "a THP split to be swapped out" },
	{ "thp_migration_success", COMPARE_COV_THP, "a THP migrated between nodes" },
	{ "thp_migration_fail", COMPARE_COV_THP, "a THP migration failed" },
	{ "thp_migration_split", COMPARE_COV_THP, "a THP split to be migrated" },
	{ "anon_fault_alloc", COMPARE_COV_MTHP, "anonymous mTHP faults" },
	{ "anon_fault_fallback", COMPARE_COV_MTHP, "an mTHP fault that fell back" },
	{ "anon_fault_fallback_charge", COMPARE_COV_MTHP, "an mTHP fault over its memcg limit" },
	{ "shmem_alloc", COMPARE_COV_MTHP, "shmem mTHP" },
	{ "shmem_fallback", COMPARE_COV_MTHP, "shmem mTHP that fell back" },
	{ "shmem_fallback_charge", COMPARE_COV_MTHP, "shmem mTHP over its memcg limit" },
	{ "split", COMPARE_COV_MTHP, "an mTHP split" },
	{ "split_deferred", COMPARE_COV_MTHP, "a partly unmapped mTHP queued" },
	{ "split_failed", COMPARE_COV_MTHP, "an mTHP split refused" },
	{ "swpin", COMPARE_COV_MTHP, "an mTHP swapped in whole" },
	{ "swpin_fallback", COMPARE_COV_MTHP, "an mTHP swapped in as small pages (swap --charge-fallback)" },
	{ "swpin_fallback_charge", COMPARE_COV_MTHP, "an mTHP swap-in over its memcg limit (swap --charge-fallback: memcg, defrag never)" },
	{ "swpout", COMPARE_COV_MTHP, "an mTHP swapped out whole" },
	{ "swpout_fallback", COMPARE_COV_MTHP, "an mTHP split to be swapped out" },
	{ "zswpout", COMPARE_COV_MTHP, "an mTHP written to zswap (configs/thp-zswap.conf: zswap on even once stops large-folio swap-in until a reboot, so this suite leaves it off)" },
	{ "compact_stall", COMPARE_COV_COMPACT, "direct compaction" },
	{ "compact_fail", COMPARE_COV_COMPACT, "direct compaction" },
	{ "compact_success", COMPARE_COV_COMPACT, "direct compaction" },
	{ "compact_daemon_wake", COMPARE_COV_COMPACT, "kcompactd" },
	{ "htlb_buddy_alloc_success", COMPARE_COV_HTLB, "a hugetlb page from the buddy allocator" },
	{ "htlb_buddy_alloc_fail", COMPARE_COV_HTLB, "a hugetlb page from the buddy allocator" },
	{ "numa_huge_pte_updates", COMPARE_COV_NUMA, "NUMA balancing of THPs" },
};

static const char *const family_names[COMPARE_COV_NFAMILIES] = {
	"thp", "mthp", "compact", "htlb", "numa",
};

/*
 * The family, kind and size of a metric, or -1 when it is no THP event
 * counter: "vmstat.thp_split_pmd", "mthp.64K.split".
 */
static int parse_metric(const char *name, const char **kind, char *size,
			size_t sizelen)
{
	static const struct { const char *prefix; enum compare_cov_family f; } v[] = {
		{ "thp_", COMPARE_COV_THP }, { "compact_", COMPARE_COV_COMPACT },
		{ "htlb_", COMPARE_COV_HTLB }, { "numa_huge", COMPARE_COV_NUMA },
	};
	const char *dot;
	size_t i;

	if (!background_keeps(name))
		return -1;
	size[0] = '\0';
	if (!strncmp(name, "mthp.", 5)) {
		dot = strchr(name + 5, '.');
		if (!dot || dot == name + 5 || (size_t)(dot - name - 5) >= sizelen ||
		    !dot[1] || !strncmp(dot + 1, "nr_", 3))
			return -1;
		memcpy(size, name + 5, (size_t)(dot - name - 5));
		size[dot - name - 5] = '\0';
		*kind = dot + 1;
		return COMPARE_COV_MTHP;
	}
	*kind = name + 7;	/* "vmstat." */
	for (i = 0; i < ARRAY_SIZE(v); i++)
		if (!strncmp(*kind, v[i].prefix, strlen(v[i].prefix)))
			return (int)v[i].f;
	return -1;
}

static struct compare_cov_row *row_get(struct compare_coverage *cov,
				       enum compare_cov_family f, const char *kind)
{
	struct compare_cov_row *row;
	size_t i;

	for (i = 0; i < cov->n; i++)
		if (cov->rows[i].family == f && !strcmp(cov->rows[i].kind, kind))
			return &cov->rows[i];
	cov->rows = xgrow(cov->rows, sizeof(*cov->rows), &cov->cap, cov->n);
	row = &cov->rows[cov->n++];
	memset(row, 0, sizeof(*row));
	row->kind = xstrdup(kind);
	row->family = f;
	return row;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : 0;
}

/* Sample standard deviation; 0 below two values. */
static double sd_of(const double *x, size_t n)
{
	double m = mean_of(x, n), s = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return sqrt(s / (double)(n - 1));
}

/* The case's idle intervals' deltas of metric, scaled to wall usec. */
static size_t background_of(const struct tb_case *c, const char *metric,
			    double wall, double *out, size_t max)
{
	const json_t *a = c->extra ? json_object_get(c->extra, BACKGROUND_KEY) : NULL;
	const json_t *o, *w, *v;
	size_t i, n = 0;

	if (!(wall > 0) || !isfinite(wall))
		return 0;	/* no time to scale to */
	json_array_foreach(a, i, o) {
		if (n >= max)
			break;
		w = json_object_get(o, "wall_usec");
		v = json_object_get(o, metric);
		if (!json_is_number(w) || !json_is_number(v) ||
		    json_number_value(w) <= 0 || !isfinite(json_number_value(v)))
			continue;
		out[n++] = json_number_value(v) / json_number_value(w) * wall;
	}
	return n;
}

static void add_hit(struct compare_cov_row *row, const struct compare_cov_hit *h)
{
	row->hits = xgrow(row->hits, sizeof(*row->hits), &row->cap, row->nhits);
	row->hits[row->nhits++] = *h;
}

/* One case, one metric: a hit when it moved beyond the background. */
static void judge(struct compare_coverage *cov, size_t ci, const char *metric,
		  double wall, double *buf, size_t max)
{
	const struct tb_case *c = &cov->res->cases[ci];
	struct compare_cov_hit h = { .case_idx = ci };
	struct compare_cov_row *row;
	const char *kind;
	int f = parse_metric(metric, &kind, h.size, sizeof(h.size));

	if (f < 0)
		return;
	row = row_get(cov, (enum compare_cov_family)f, kind);
	row->exposed = true;
	h.nruns = case_metric_values(c, metric, buf, max);
	if (!h.nruns)
		return;
	h.mean = mean_of(buf, h.nruns);
	h.nbg = background_of(c, metric, wall, buf, max);
	h.background = mean_of(buf, h.nbg);
	h.spread = sd_of(buf, h.nbg);
	h.excess = h.mean - h.background;
	if (h.background > row->bg_max)
		row->bg_max = h.background;
	h.moved = isfinite(h.excess) && h.excess >= COMPARE_COV_MIN_EVENTS &&
		  h.excess > COMPARE_COV_K * h.spread;
	row->cells = xgrow(row->cells, sizeof(*row->cells), &row->ccap, row->ncells);
	row->cells[row->ncells++] = h;
	if (h.moved)
		add_hit(row, &h);
}

static void judge_case(struct compare_coverage *cov, size_t ci)
{
	const struct tb_case *c = &cov->res->cases[ci];
	size_t n, i, max = c->nruns + BACKGROUND_PER_CASE + 64;
	double *buf, wall;
	char **names;

	if (!case_ok_runs(c))
		return;
	cov->cases_ok++;
	if (json_array_size(c->extra ? json_object_get(c->extra, BACKGROUND_KEY) : NULL))
		cov->cases_bg++;
	buf = xcalloc(max, sizeof(*buf));
	n = case_metric_values(c, "wall_usec", buf, max);
	wall = mean_of(buf, n);
	n = case_metric_names(c, &names);
	for (i = 0; i < n; i++)
		judge(cov, ci, names[i], wall, buf, max);
	free(names);
	free(buf);
}

static bool is_swap_kind(const char *kind)
{
	return strstr(kind, "swpout") || strstr(kind, "swpin") ||
	       !strcmp(kind, "thp_scan_exceed_swap_pte");
}

static char *reason_for(const struct compare_coverage *cov,
			const struct compare_cov_row *row)
{
	const json_t *bg = json_object_get(cov->res->meta, BACKGROUND_KEY);
	const json_t *swaps = json_object_get(bg, "swap_devices");
	const json_t *nodes = json_object_get(cov->res->env, "numa_nodes");
	const char *path = NULL;
	char buf[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (known[i].family == row->family && !strcmp(known[i].kind, row->kind))
			path = known[i].path;
	if (!row->exposed)
		return xstrdup("not exposed by this kernel");
	if (is_swap_kind(row->kind) && json_is_integer(swaps) &&
	    !json_integer_value(swaps))
		snprintf(buf, sizeof(buf), "not measurable here: no swap device on (the path: %s)",
			 path ? path : "swap");
	else if (row->family == COMPARE_COV_MTHP && !strncmp(row->kind, "swpin", 5) &&
		 json_is_true(json_object_get(bg, "zswap_since_boot")))
		/* alloc_swap_folio() takes 4 KiB pages once zswap was ever on. */
		snprintf(buf, sizeof(buf),
			 "not measurable here: zswap has been on since boot, and then the kernel swaps in 4 KiB pages only (until a reboot)");
	else if (row->family == COMPARE_COV_THP && !strcmp(row->kind, "thp_split_pud"))
		/* Anonymous and shmem THPs are PMD-sized at most. */
		snprintf(buf, sizeof(buf),
			 "not measurable here: needs a PUD-mapped (1 GiB) THP, which only DAX makes (a devdax or fsdax device)");
	else if ((strstr(row->kind, "migration") || row->family == COMPARE_COV_NUMA) &&
		 json_is_integer(nodes) && json_integer_value(nodes) == 1)
		snprintf(buf, sizeof(buf),
			 "not measurable here: one NUMA node (the path: %s; ./run.sh guest configs/thp-paths-numa.conf --nodes 2)",
			 path ? path : "NUMA");
	else if (row->bg_max > 0)
		snprintf(buf, sizeof(buf), "moved by the background only (up to %.3g a repetition)",
			 row->bg_max);
	else
		snprintf(buf, sizeof(buf), "no case here drives it%s%s",
			 path ? ": " : "", path ? path : "");
	return xstrdup(buf);
}

static int cmp_row(const void *a, const void *b)
{
	const struct compare_cov_row *x = a, *y = b;

	if (x->family != y->family)
		return (int)x->family - (int)y->family;
	return strcmp(x->kind, y->kind);
}

void compare_coverage_build(const struct tb_results *r,
			    struct compare_coverage *cov)
{
	size_t i;

	memset(cov, 0, sizeof(*cov));
	cov->res = r;
	for (i = 0; i < r->ncases; i++)
		judge_case(cov, i);
	/* Known kinds the run never recorded: not this kernel's. Only those
	 * of a family it did record (no mTHP sizes asked: none listed). */
	for (i = 0; i < ARRAY_SIZE(known); i++) {
		size_t j;

		for (j = 0; j < cov->n; j++)
			if (cov->rows[j].family == known[i].family)
				break;
		if (j < cov->n)
			row_get(cov, known[i].family, known[i].kind);
	}
	if (cov->n)
		qsort(cov->rows, cov->n, sizeof(*cov->rows), cmp_row);
	for (i = 0; i < cov->n; i++)
		if (!cov->rows[i].nhits)
			cov->rows[i].reason = reason_for(cov, &cov->rows[i]);
}

void compare_coverage_count(const struct compare_coverage *cov,
			    enum compare_cov_family f, size_t *moved,
			    size_t *total)
{
	size_t i;

	*moved = *total = 0;
	for (i = 0; i < cov->n; i++) {
		if (cov->rows[i].family != f || !cov->rows[i].exposed)
			continue;
		(*total)++;
		*moved += cov->rows[i].nhits > 0;
	}
}

/* A name from the file, printable: control bytes shown as '?'. */
static void put_clean(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

static void put_count(FILE *f, double v)
{
	if (fabs(v) >= 1000)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.3g", v);
}

static void text_hits(FILE *f, const struct compare_coverage *cov,
		      const struct compare_cov_row *row)
{
	size_t i;

	for (i = 0; i < row->nhits; i++) {
		const struct compare_cov_hit *h = &row->hits[i];

		if (i)
			fprintf(f, "%-30s %-8s", "", "");
		fputc(' ', f);
		put_clean(f, cov->res->cases[h->case_idx].id);
		if (h->size[0]) {
			fputc(' ', f);
			put_clean(f, h->size);
		}
		fputs(": ", f);
		put_count(f, h->excess);
		if (h->background > 0) {
			fputs(" (", f);
			put_count(f, h->mean);
			fputs(" less ", f);
			put_count(f, h->background);
			fputs(" background)", f);
		}
		if (!h->nbg)
			fputs(" (no background recorded)", f);
		fputc('\n', f);
	}
}

static void text_summary(FILE *f, const struct compare_coverage *cov)
{
	size_t m[COMPARE_COV_NFAMILIES], t[COMPARE_COV_NFAMILIES];
	int i;

	for (i = 0; i < COMPARE_COV_NFAMILIES; i++)
		compare_coverage_count(cov, (enum compare_cov_family)i, &m[i], &t[i]);
	fprintf(f, "THP event kinds moved beyond the background: %zu of %zu "
		"(vmstat thp_*: %zu of %zu; per-size mTHP stats: %zu of %zu)\n",
		m[COMPARE_COV_THP] + m[COMPARE_COV_MTHP],
		t[COMPARE_COV_THP] + t[COMPARE_COV_MTHP], m[COMPARE_COV_THP],
		t[COMPARE_COV_THP], m[COMPARE_COV_MTHP], t[COMPARE_COV_MTHP]);
	fprintf(f, "also: compact_*: %zu of %zu; htlb_*: %zu of %zu; numa_huge_*: %zu of %zu\n",
		m[COMPARE_COV_COMPACT], t[COMPARE_COV_COMPACT], m[COMPARE_COV_HTLB],
		t[COMPARE_COV_HTLB], m[COMPARE_COV_NUMA], t[COMPARE_COV_NUMA]);
}

void compare_coverage_text(FILE *f, const struct compare_coverage *cov)
{
	size_t i;

	fprintf(f, "Path coverage: the THP event counters each case moved, per repetition,\n"
		"beyond the background (the same interval idle; %zu of %zu cases measured it)\n\n",
		cov->cases_bg, cov->cases_ok);
	fprintf(f, "%-30s %-8s %s\n", "counter", "kind", "moved by: case [size]: events a repetition");
	for (i = 0; i < cov->n; i++) {
		const struct compare_cov_row *row = &cov->rows[i];

		if (!row->exposed)
			continue;
		fprintf(f, "%-30s %-8s", row->kind, family_names[row->family]);
		if (row->nhits)
			text_hits(f, cov, row);
		else
			fputs(" -\n", f);
	}
	fputs("\nNothing moved:\n", f);
	for (i = 0; i < cov->n; i++)
		if (!cov->rows[i].nhits)
			fprintf(f, "  %-30s %-8s %s\n", cov->rows[i].kind,
				family_names[cov->rows[i].family], cov->rows[i].reason);
	fputc('\n', f);
	text_summary(f, cov);
}

/* JSON has no NaN or infinity (a hostile file's figures may give them). */
static json_t *real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *hit_json(const struct compare_coverage *cov,
			const struct compare_cov_hit *h)
{
	return json_pack("{s:s, s:o, s:b, s:o, s:o, s:o, s:o, s:I, s:I}",
			 "case", cov->res->cases[h->case_idx].id,
			 "size", h->size[0] ? json_string(h->size) : json_null(),
			 "moved", h->moved,
			 "per_rep", real(h->excess), "mean", real(h->mean),
			 "background", real(h->background),
			 "background_sd", real(h->spread),
			 "runs", (json_int_t)h->nruns, "intervals", (json_int_t)h->nbg);
}

json_t *compare_coverage_json(const struct compare_coverage *cov)
{
	json_t *root = json_object(), *rows = json_array(), *fam = json_object();
	size_t i, j, m, t;

	for (i = 0; i < cov->n; i++) {
		const struct compare_cov_row *row = &cov->rows[i];
		json_t *hits = json_array();
		json_t *cells = json_array();

		for (j = 0; j < row->nhits; j++)
			json_array_append_new(hits, hit_json(cov, &row->hits[j]));
		for (j = 0; j < row->ncells; j++)
			json_array_append_new(cells, hit_json(cov, &row->cells[j]));
		json_array_append_new(rows, json_pack("{s:s, s:s, s:b, s:o, s:o, s:o}",
			"counter", row->kind, "kind", family_names[row->family],
			"exposed", row->exposed, "moved_by", hits, "cases", cells,
			"reason", row->reason ? json_string(row->reason) : json_null()));
	}
	for (i = 0; i < COMPARE_COV_NFAMILIES; i++) {
		compare_coverage_count(cov, (enum compare_cov_family)i, &m, &t);
		json_object_set_new(fam, family_names[i],
				    json_pack("{s:I, s:I}", "moved", (json_int_t)m,
					      "exposed", (json_int_t)t));
	}
	json_object_set_new(root, "schema", json_string(COMPARE_COV_SCHEMA));
	json_object_set_new(root, "k", json_real(COMPARE_COV_K));
	json_object_set_new(root, "min_events", json_real(COMPARE_COV_MIN_EVENTS));
	json_object_set_new(root, "cases", json_integer((json_int_t)cov->cases_ok));
	json_object_set_new(root, "cases_with_background",
			    json_integer((json_int_t)cov->cases_bg));
	json_object_set_new(root, "families", fam);
	json_object_set_new(root, "counters", rows);
	return root;
}

void compare_coverage_free(struct compare_coverage *cov)
{
	size_t i;

	for (i = 0; i < cov->n; i++) {
		free(cov->rows[i].kind);
		free(cov->rows[i].hits);
		free(cov->rows[i].cells);
		free(cov->rows[i].reason);
	}
	free(cov->rows);
	memset(cov, 0, sizeof(*cov));
}
