// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PostgreSQL backend of a static thpbench (make static: the kernel
 * A/B initramfs, a machine without the libraries): libpq cannot be linked
 * statically without LDAP, GSSAPI and TLS, and nothing in a guest writes
 * to a lab's server. The history works there on an SQLite file.
 */
#include "history/history_backend.h"

int hdb_pg_open(const char *uri, struct history_db *db)
{
	(void)uri;
	return hdb_fail(db, "--db postgresql://...: this thpbench is a static build without "
			"the PostgreSQL client; use an SQLite file (--db PATH), or the "
			"dynamic build (make)");
}
