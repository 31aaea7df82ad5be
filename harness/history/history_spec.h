/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * history_spec - what a --db spec names (a PostgreSQL URI or an SQLite
 * file), and how it may be shown: a PostgreSQL URI may hold a password,
 * and nothing thpbench prints or writes (messages, index.html) shows it.
 *
 * The secrets of a spec are the password of its user info (user:PASSWORD@,
 * up to the last '@', since an unescaped '@' in a password is a common
 * slip), a password=... query parameter, each percent-decoded too, and
 * the pieces of each between '@' and '/' (libpq, misreading an unescaped
 * '@', takes the first piece as the password and puts the rest into the
 * host name of its error message). An SQLite path has none. No libpq
 * here: a static build has none.
 */
#ifndef THPBENCH_HISTORY_SPEC_H
#define THPBENCH_HISTORY_SPEC_H

#include <stdbool.h>
#include <stddef.h>

/* True when spec names a PostgreSQL server ("postgresql://", "postgres://")
 * rather than an SQLite file. */
bool history_db_spec_is_pg(const char *spec);

/* spec as it may be shown: every secret replaced by "***". */
void history_db_spec_show(const char *spec, char *buf, size_t len);

/* text (e.g. libpq's error message) with every secret of spec replaced
 * by "***", into buf. */
void history_redact(const char *spec, const char *text, char *buf,
		    size_t len);

#endif
