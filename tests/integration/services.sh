#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The throwaway servers a `service =` case gets (system/res_service.c):
# redis and PostgreSQL start, answer the workloads (redis_bench,
# pg_bench) and every repetition's fork time, COW and tps are in
# results.json; the servers and their STATE/svc-* directories are gone
# after a plain exit, and after a kill -9 of the harness then
# `thpbench restore` (the servers outlive the harness until then), and
# after a SIGTERM of the harness (its own signal path undoes them).
# Only this test's own state dir and the pids its journal names are
# looked at.
. tests/integration/lib.sh
need_root
command -v redis-server > /dev/null || { echo "skip: no redis-server (scripts/install-deps.sh installs redis-server)"; exit 77; }
command -v redis-cli > /dev/null || { echo "skip: no redis-cli (redis-tools)"; exit 77; }
PGBIN=${THPBENCH_PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1)}
[ -x "$PGBIN/postgres" ] && [ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pgbench" ] ||
	{ echo "skip: no PostgreSQL server programs (postgres, initdb, pgbench; Debian postgresql-15)"; exit 77; }
[ -x workloads/redis_bench ] && [ -x workloads/pg_bench ] ||
	{ echo "skip: workloads/redis_bench or pg_bench not built (make; libhiredis-dev)"; exit 77; }
id nobody > /dev/null 2>&1 || { echo "skip: no user nobody to run the servers as"; exit 77; }

# The servers run as nobody: they must reach STATE/svc-*.
chmod 755 "$TMPD"
ST=$TMPD/state
export THPBENCH_STATE_DIR=$ST
run_pid=
cleanup() {
	[ -n "$run_pid" ] && kill -9 "$run_pid" 2>/dev/null
	$TB restore > /dev/null 2>&1
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

cat > "$TMPD/svc.conf" <<CONF
[suite]
name = services
repetitions = 2
warmup = 0
thp = current

[case redis]
workload = redis_bench
args = --keys 20000 --value 128 --socket {service}
service = redis
expect_huge = no

[case pg]
workload = pg_bench
args = --scale 1 --clients 2 --jobs 1 --time 1
service = postgres:huge_pages=off,shared_buffers=16M
expect_huge = no
CONF

# A kill -9 run: each server answers, then the workload sleeps.
cat > "$TMPD/kill.conf" <<'CONF'
[suite]
name = services-kill
repetitions = 1
warmup = 0
thp = current

[case redis]
workload = sh
args = -c "redis-cli -s {service} ping; sleep 60"
service = redis
expect_huge = no

[case pg]
workload = sh
args = -c "sleep 60"
service = postgres
expect_huge = no
CONF

restore_to() {
	n=0
	while :; do
		$TB restore > "$1" 2>&1
		rc=$?
		grep -q "another thpbench" "$1" && [ $n -lt 300 ] || return $rc
		sleep 1
		n=$((n + 1))
	done
}

svc_dirs() { ls -d "$ST"/svc-* 2>/dev/null; }
# Every value of metric $2 in case $1's runs, one a line.
vals() { jq -r --arg c "$1" --arg m "$2" '.cases[] | select(.id | startswith($c + "/")) | .runs[] | .metrics[$m]' "$3"; }
# $1 values of metric, each >= 0 (or > 0 with $5 = pos).
each() {
	v=$(vals "$2" "$3" "$4")
	[ "$(echo "$v" | grep -c .)" -eq "$1" ] || return 1
	echo "$v" | awk -v pos="${5:-}" '$1 == "null" || $1 < 0 || (pos && $1 <= 0) { bad = 1 } END { exit bad }'
}
# A zombie is gone: its parent (init, once the harness died) reaps it,
# or, where init does not, nobody - it holds no memory either way.
alive() {
	for p in $1; do
		s=$(ps -o stat= -p "$p" 2>/dev/null) && case $s in Z*) ;; *) return 0 ;; esac
	done
	return 1
}
none_alive() { ! alive "$1"; }

$TB run "$TMPD/svc.conf" --wait=300 -o "$TMPD/out" --progress none \
	> "$TMPD/run.log" 2>&1 &
run_pid=$!
wait "$run_pid"
rc=$?
run_pid=
R=$TMPD/out/results.json
check "exit: the run exits 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -20 "$TMPD/run.log"
check "redis: both repetitions ok" [ "$(jq '[.cases[] | select(.id | startswith("redis/")) | .runs[] | select(.status == "ok")] | length' "$R")" -eq 2 ]
check "redis: every key SET and read back (keys 20000, twice)" [ "$(vals redis keys "$R" | grep -cx 20000)" -eq 2 ]
check "redis: fork_usec per repetition (latest_fork_usec, >= 0)" each 2 redis fork_usec "$R"
check "redis: cow_bytes per repetition (rdb_last_cow_size, >= 0)" each 2 redis cow_bytes "$R"
check "redis: set_ops_s and get_ops_s per repetition (> 0)" sh -c "$(command -v jq) -e '[.cases[] | select(.id | startswith(\"redis/\")) | .runs[] | .metrics.set_ops_s > 0 and .metrics.get_ops_s > 0] | length == 2 and all' '$R' > /dev/null"
check "redis: GETs were timed during each save" each 2 redis save_gets "$R" pos
check "redis: the socket was the service's (env THPBENCH_SERVICE_SOCKET in $ST/svc-*)" \
	sh -c "jq -r '.cases[] | select(.id | startswith(\"redis/\")) | .env[]' '$R' | grep -q '^THPBENCH_SERVICE_SOCKET=$ST/svc-[0-9]*-[0-9]*/redis.sock$'"
check "pg: both repetitions ok" [ "$(jq '[.cases[] | select(.id | startswith("pg/")) | .runs[] | select(.status == "ok")] | length' "$R")" -eq 2 ]
check "pg: tps per repetition (> 0)" each 2 pg tps "$R" pos
check "pg: transactions per repetition (> 0)" each 2 pg transactions "$R" pos
check "pg: the server says huge_pages off, as asked (0, twice)" [ "$(vals pg huge_pages "$R" | grep -cx 0)" -eq 2 ]
check "pg: shared_buffers 16M, as asked (16384 kB, twice)" [ "$(vals pg shared_buffers_kb "$R" | grep -cx 16384)" -eq 2 ]
PIDS=$(jq -r '.cases[].env[]? | select(startswith("THPBENCH_SERVICE_PID=")) | sub(".*="; "")' "$R")
check "exit: two server pids recorded" [ "$(echo "$PIDS" | grep -c .)" -eq 2 ]
check "exit: the servers are gone" none_alive "$PIDS"
check "exit: no $ST/svc-* directory left" [ -z "$(svc_dirs)" ]
check "exit: the resource journal is gone" [ ! -e "$ST/resources.json" ]

$TB run "$TMPD/kill.conf" --wait=300 -o "$TMPD/out-kill" --progress none \
	> "$TMPD/run-kill.log" 2>&1 &
run_pid=$!
i=0
while [ $i -lt 300 ] && kill -0 "$run_pid" 2>/dev/null &&
	! grep -rqs PONG "$TMPD/out-kill/logs"; do
	sleep 0.1
	i=$((i + 1))
done
check "kill: redis answered the workload (PONG)" grep -rqs PONG "$TMPD/out-kill/logs"
J=$ST/resources.json
check "kill: both services journalled" [ "$(jq '[.knobs[] | select(.kind == "service")] | length' "$J" 2>/dev/null)" = 2 ]
SPIDS=$(jq -r '.knobs[] | select(.kind == "service") | .num' "$J" 2>/dev/null)
# The postmaster's backends too (children of the journalled pids).
ALL="$SPIDS $(for p in $SPIDS; do ps -o pid= --ppid "$p"; done)"
kill -9 "$run_pid"
wait "$run_pid" 2>/dev/null
run_pid=
check "kill: the servers outlive the harness" alive "$SPIDS"
check "kill: their directories too" [ "$(svc_dirs | grep -c .)" -eq 2 ]
restore_to "$TMPD/restore.txt"
check "kill: thpbench restore exits 0" [ $? -eq 0 ]
check "kill: restore says it undid them" grep -q 'undid [0-9]* resource' "$TMPD/restore.txt"
check "kill: no server process (nor postgres backend) left" none_alive "$ALL"
check "kill: no $ST/svc-* directory left" [ -z "$(svc_dirs)" ]
check "kill: the resource journal is gone" [ ! -e "$J" ]

# SIGTERM: the harness undoes them itself (the signal path: system calls).
$TB run "$TMPD/kill.conf" --wait=300 -o "$TMPD/out-term" --progress none \
	> "$TMPD/run-term.log" 2>&1 &
run_pid=$!
i=0
while [ $i -lt 300 ] && kill -0 "$run_pid" 2>/dev/null &&
	! grep -rqs PONG "$TMPD/out-term/logs"; do
	sleep 0.1
	i=$((i + 1))
done
SPIDS=$(jq -r '.knobs[] | select(.kind == "service") | .num' "$J" 2>/dev/null)
check "term: both servers up and journalled" [ "$(echo "$SPIDS" | grep -c .)" -eq 2 ]
kill -TERM "$run_pid"
wait "$run_pid" 2>/dev/null
run_pid=
check "term: no server process left" none_alive "$SPIDS"
check "term: no $ST/svc-* directory left" [ -z "$(svc_dirs)" ]
check "term: the resource journal is gone" [ ! -e "$J" ]
finish
