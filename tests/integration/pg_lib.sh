# SPDX-License-Identifier: GPL-2.0-only
# A throwaway PostgreSQL cluster for the history tests (sourced after
# lib.sh): initdb in a directory, listening on a Unix socket in that
# directory only (no TCP), run by an unprivileged user (nobody when the
# test is root, else the test's own user), stopped on every exit path:
# the EXIT trap, and a watcher that stops it if the test is killed.
# huge_pages=off: with PostgreSQL's default (try) a server on the box
# takes hugetlb pages whenever a run has raised the pool, and the pool
# cannot shrink back while it holds them.
#
#   pg_available        the server binaries are installed
#   pg_start DIR        initdb DIR/data, start; 1 (and the log) on failure
#   pg_uri              the libpq URI of its "postgres" database
#   pg_stop             stop it (again is harmless)

PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
PG_DIR=

pg_available() {
	[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ]
}

pg_user() {
	if [ "$(id -u)" = 0 ]; then echo nobody; else id -un; fi
}

# Run a server command as the cluster's owner.
pg_as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u nobody -- "$@"
	else
		"$@"
	fi
}

pg_start() {
	PG_DIR=$1
	mkdir -p "$PG_DIR" || return 1
	chmod 700 "$PG_DIR"
	if [ "$(id -u)" = 0 ]; then
		chown nobody "$PG_DIR"
		# nobody must reach DIR; o+x lets it through without listing.
		chmod o+x "$(dirname "$PG_DIR")"
	fi
	trap 'pg_stop; rm -rf "$TMPD"' EXIT
	trap 'exit 130' INT TERM HUP
	if ! pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$(pg_user)" \
		--auth=trust --locale=C --encoding=UTF8 --no-sync \
		>"$PG_DIR/initdb.log" 2>&1; then
		echo "pg_start: initdb failed:"; cat "$PG_DIR/initdb.log"
		return 1
	fi
	if ! pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" \
		-w -t 60 -o "-c listen_addresses= -k $PG_DIR -c huge_pages=off" start >/dev/null; then
		echo "pg_start: the server did not start:"; cat "$PG_DIR/server.log"
		return 1
	fi
	# Killed tests run no trap: stop the server when this shell is gone.
	# Started from a subshell, so it is no job of this shell (`wait`).
	( (
		while kill -0 $$ 2>/dev/null; do sleep 1; done
		pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop
	) </dev/null >/dev/null 2>&1 & )
	return 0
}

pg_uri() {
	echo "postgresql:///postgres?host=$PG_DIR&user=$(pg_user)"
}

pg_stop() {
	[ -n "$PG_DIR" ] && [ -f "$PG_DIR/data/postmaster.pid" ] &&
		pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1
	PG_DIR=
	return 0
}
