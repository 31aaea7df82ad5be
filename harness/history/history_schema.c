// SPDX-License-Identifier: GPL-2.0-only
#include "history_schema.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

/*
 * Column types by role; the two engines differ only here. "@ID" is the
 * run id column, "@TIME" a point in time, "@REAL" a double; "@NOROWID"
 * clusters SQLite's biggest tables on their primary key (one b-tree
 * seek per row read, not two).
 */
static const char *const ddl_template[] = {
	"CREATE TABLE IF NOT EXISTS thpbench_schema (\n"
	"  version INTEGER NOT NULL\n"
	")",
	"CREATE TABLE IF NOT EXISTS runs (\n"
	"  id @ID,\n"
	"  content_hash TEXT NOT NULL UNIQUE,\n"
	"  time @TIME NOT NULL,\n"
	"  imported @TIME NOT NULL,\n"
	"  source TEXT,\n"
	"  host TEXT NOT NULL,\n"
	"  hostname TEXT,\n"
	"  host_fingerprint TEXT NOT NULL,\n"
	"  host_identity TEXT NOT NULL,\n"
	"  cpu_model TEXT,\n"
	"  microcode TEXT,\n"
	"  nr_cpus INTEGER,\n"
	"  mem_total_kb BIGINT,\n"
	"  numa_nodes INTEGER,\n"
	"  cmdline TEXT,\n"
	"  thp_defaults TEXT,\n"
	"  hugetlb_defaults TEXT,\n"
	"  governor TEXT,\n"
	"  kernel_id TEXT NOT NULL,\n"
	"  kernel_release TEXT NOT NULL,\n"
	"  kernel_version TEXT,\n"
	"  kernel_config_hash TEXT,\n"
	"  suite TEXT NOT NULL,\n"
	"  suite_hash TEXT NOT NULL,\n"
	"  series TEXT,\n"
	"  patch_ids TEXT,\n"
	"  tree_id TEXT,\n"
	"  thpbench_version TEXT\n"
	")",
	"CREATE TABLE IF NOT EXISTS cases (\n"
	"  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  case_id TEXT NOT NULL,\n"
	"  name TEXT,\n"
	"  workload TEXT NOT NULL,\n"
	"  args TEXT NOT NULL,\n"
	"  thp TEXT,\n"
	"  label TEXT,\n"
	"  PRIMARY KEY (run_id, case_id)\n"
	")",
	"CREATE TABLE IF NOT EXISTS reps (\n"
	"  run_id BIGINT NOT NULL,\n"
	"  case_id TEXT NOT NULL,\n"
	"  rep INTEGER NOT NULL,\n"
	"  seq INTEGER,\n"
	"  status TEXT NOT NULL,\n"
	"  reason TEXT,\n"
	"  PRIMARY KEY (run_id, case_id, rep),\n"
	"  FOREIGN KEY (run_id, case_id) REFERENCES cases(run_id, case_id) ON DELETE CASCADE\n"
	")@NOROWID",
	"CREATE TABLE IF NOT EXISTS rep_values (\n"
	"  run_id BIGINT NOT NULL,\n"
	"  case_id TEXT NOT NULL,\n"
	"  rep INTEGER NOT NULL,\n"
	"  metric TEXT NOT NULL,\n"
	"  value @REAL NOT NULL,\n"
	"  PRIMARY KEY (run_id, case_id, metric, rep),\n"
	"  FOREIGN KEY (run_id, case_id, rep) REFERENCES reps(run_id, case_id, rep) ON DELETE CASCADE\n"
	")@NOROWID",
	"CREATE TABLE IF NOT EXISTS night_metrics (\n"
	"  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  time @TIME NOT NULL,\n"
	"  host TEXT NOT NULL,\n"
	"  host_fingerprint TEXT NOT NULL,\n"
	"  kernel_id TEXT NOT NULL,\n"
	"  kernel_release TEXT NOT NULL,\n"
	"  suite TEXT NOT NULL,\n"
	"  suite_hash TEXT NOT NULL,\n"
	"  case_id TEXT NOT NULL,\n"
	"  metric TEXT NOT NULL,\n"
	"  better TEXT,\n"
	"  n INTEGER NOT NULL,\n"
	"  mean @REAL NOT NULL,\n"
	"  stddev @REAL,\n"
	"  median @REAL NOT NULL,\n"
	"  min @REAL NOT NULL,\n"
	"  max @REAL NOT NULL,\n"
	"  PRIMARY KEY (run_id, case_id, metric)\n"
	")",
	"CREATE INDEX IF NOT EXISTS night_metrics_series ON night_metrics "
	"(host, suite, suite_hash, case_id, metric, time)",
	"CREATE INDEX IF NOT EXISTS runs_host_time ON runs (host, suite, time)",
	/* Triage: one row per decision; the newest row of a change point rules. */
	"CREATE TABLE IF NOT EXISTS triage (\n"
	"  id @ID,\n"
	"  cp_id TEXT NOT NULL,\n"
	"  host TEXT NOT NULL,\n"
	"  suite TEXT NOT NULL,\n"
	"  suite_hash TEXT NOT NULL,\n"
	"  case_id TEXT NOT NULL,\n"
	"  metric TEXT NOT NULL,\n"
	"  night @TIME NOT NULL,\n"
	"  kernel_id TEXT NOT NULL,\n"
	"  state TEXT NOT NULL,\n"
	"  reason TEXT,\n"
	"  name TEXT NOT NULL,\n"
	"  fix TEXT,\n"
	"  decided @TIME NOT NULL\n"
	")",
	"CREATE INDEX IF NOT EXISTS triage_cp ON triage (cp_id, id)",
	/* Confirmations: the paired A/B run of a watch (history_confirmation.h). */
	"CREATE TABLE IF NOT EXISTS confirmations (\n"
	"  id @ID,\n"
	"  cp_id TEXT NOT NULL,\n"
	"  host TEXT NOT NULL,\n"
	"  suite TEXT NOT NULL,\n"
	"  suite_hash TEXT NOT NULL,\n"
	"  case_id TEXT NOT NULL,\n"
	"  metric TEXT NOT NULL,\n"
	"  night TEXT NOT NULL,\n"
	"  kernel_a TEXT NOT NULL,\n"
	"  kernel_b TEXT NOT NULL,\n"
	"  method TEXT NOT NULL,\n"
	"  verdict TEXT NOT NULL,\n"
	"  change @REAL,\n"
	"  lo @REAL,\n"
	"  hi @REAL,\n"
	"  p @REAL,\n"
	"  na BIGINT NOT NULL,\n"
	"  nb BIGINT NOT NULL,\n"
	"  recorded TEXT NOT NULL\n"
	")",
	"CREATE INDEX IF NOT EXISTS confirmations_cp ON confirmations (cp_id, id)",
	NULL,
};

#define NSTMT ARRAY_SIZE(ddl_template)

struct type_map {
	const char *id, *time, *real, *norowid;
};

static const struct type_map types[] = {
	[HDB_SQLITE] = { "INTEGER PRIMARY KEY", "TEXT", "REAL", " WITHOUT ROWID" },
	[HDB_PG] = { "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
		     "TIMESTAMPTZ", "DOUBLE PRECISION", "" },
};

/* Replace each @ROLE of t with its type; the result is malloc'ed. */
static char *expand(const char *t, const struct type_map *m)
{
	size_t cap = strlen(t) * 2 + 256, n = 0;
	char *out = xmalloc(cap);

	while (*t) {
		const char *sub = NULL;
		size_t skip = 1;

		if (!strncmp(t, "@ID", 3))
			sub = m->id, skip = 3;
		else if (!strncmp(t, "@TIME", 5))
			sub = m->time, skip = 5;
		else if (!strncmp(t, "@REAL", 5))
			sub = m->real, skip = 5;
		else if (!strncmp(t, "@NOROWID", 8))
			sub = m->norowid, skip = 8;
		if (sub) {
			size_t l = strlen(sub);

			if (n + l + 1 >= cap)
				out = xrealloc(out, cap = (n + l + 1) * 2);
			memcpy(out + n, sub, l);
			n += l;
		} else {
			if (n + 2 >= cap)
				out = xrealloc(out, cap *= 2);
			out[n++] = *t;
		}
		t += skip;
	}
	out[n] = 0;
	return out;
}

const char *const *history_schema_ddl(enum hdb_dialect d)
{
	static char *cache[2][NSTMT];
	size_t i;

	if (!cache[d][0])
		for (i = 0; ddl_template[i]; i++)
			cache[d][i] = expand(ddl_template[i], &types[d]);
	return (const char *const *)cache[d];
}

const char *history_schema_time_text(enum hdb_dialect d, const char *col,
				     char *buf, size_t len)
{
	if (d == HDB_PG)
		snprintf(buf, len,
			 "to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')",
			 col);
	else
		snprintf(buf, len, "%s", col);
	return buf;
}
