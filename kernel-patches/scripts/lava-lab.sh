#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A LAVA lab of one host, thrown away after: lava-server on a PostgreSQL
# of its own, gunicorn, the scheduler and a lava-worker on loopback, N
# qemu devices (configs/lava/devices/qemu-thpbench.jinja2). No systemd:
# every daemon is started here, in a process group of its own, and
# stopped by "stop" (or by the next "start" in the same DIR).
#
#   lava-lab.sh start DIR [--devices N] [--port P]
#   lava-lab.sh stop DIR
#
# DIR (new or a stopped lab's) holds everything: pg/ (the database
# cluster, owned by the postgres user, TCP on 127.0.0.1 only), devices/
# (the device dictionaries), media/ (job outputs), worker/, the logs,
# pids (one process group a line) and lab.env, which lava-boot.sh and
# ab.sh --lava-lab read:
#   THPBENCH_LAVA_URL=http://127.0.0.1:P/
#   THPBENCH_LAVA_TOKEN_FILE=DIR/token (the admin's API token, mode 600)
#   THPBENCH_LAVA_DEVICES=N
# Nothing outside DIR is written but lava-dispatcher's own scratch
# directory (/var/lib/lava/dispatcher/tmp/JOB, removed after each job).
# Settings go to lava-server through its environment (DATABASE_URL,
# LAVA_SETTINGS_*), never /etc/lava-server. Ports: P (default 18080) for
# the API, P + 1 for PostgreSQL.
# Exit: 0; 2 a step failed (its log named; a failed start stops the rest).
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"

cmd=${1:-}
case $cmd in
-h|--help) kp_help ;;
start|stop) ;;
*) kp_usage ;;
esac
dir=${2:-}
[ -n "$dir" ] || kp_usage
shift 2
ndev=2 port=18080
while [ $# -gt 0 ]; do
	case $1 in
	--devices) ndev=${2:?}; shift 2 ;;
	--port) port=${2:?}; shift 2 ;;
	*) kp_die "unknown argument '$1' (see --help)" ;;
	esac
done
case $ndev in ''|*[!0-9]*|0) kp_die "--devices must be a whole number >= 1" ;; esac
case $port in ''|*[!0-9]*) kp_die "--port must be a number" ;; esac
[ "$port" -ge 1024 ] && [ "$port" -lt 65535 ] || kp_die "--port must be 1024..65534"
pgport=$((port + 1))
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)

stop_lab()
{
	local pg
	if [ -f "$dir/pids" ]; then
		while read -r pg; do kp_end_group "$pg"; done < "$dir/pids"
		rm -f "$dir/pids"
	fi
	if [ -f "$dir/pg/data/postmaster.pid" ] && [ -n "$pgbin" ]; then
		su postgres -s /bin/sh -c "'$pgbin/pg_ctl' -D '$dir/pg/data' -m fast -w stop" \
			> /dev/null 2>&1 || true
	fi
}

if [ "$cmd" = stop ]; then
	[ -d "$dir" ] || exit 0
	dir=$(cd "$dir" && pwd)
	stop_lab
	kp_log "lab in $dir stopped"
	exit 0
fi

[ "$(id -u)" = 0 ] || kp_die "start: run as root (lava-worker runs lava-run, which boots qemu as root)"
kp_need_cmd lava-server lava-worker gunicorn3 lavacli curl
[ -n "$pgbin" ] || kp_die "no PostgreSQL server (apt-get install postgresql)"
id postgres > /dev/null 2>&1 || kp_die "no postgres user (apt-get install postgresql)"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
stop_lab
rm -rf "$dir/pg" "$dir/devices" "$dir/media" "$dir/worker" "$dir/token" "$dir/lab.env"
mkdir -p "$dir/pg" "$dir/devices" "$dir/media" "$dir/worker"
chown postgres: "$dir/pg"
su postgres -s /bin/sh -c "test -w '$dir/pg'" ||
	kp_die "start: the postgres user cannot reach $dir/pg (a parent directory of mode 700?): give a DIR it can enter, e.g. under /tmp"
trap 'rc=$?; [ "$rc" = 0 ] || stop_lab' EXIT

# Started in a group of its own, its group id kept in DIR/pids.
daemon()
{
	local log=$1
	shift
	setsid "$@" > "$log" 2>&1 < /dev/null &
	echo $! >> "$dir/pids"
}
step() { "$@" >> "$dir/setup.log" 2>&1 || kp_die "start: '$*' failed (log: $dir/setup.log)"; }

kp_log "PostgreSQL on 127.0.0.1:$pgport ($dir/pg)"
step su postgres -s /bin/sh -c "'$pgbin/initdb' -D '$dir/pg/data' -U lavaserver --auth=trust"
step su postgres -s /bin/sh -c "'$pgbin/pg_ctl' -D '$dir/pg/data' -l '$dir/pg/log' -w \
	-o '-p $pgport -c listen_addresses=127.0.0.1 -k $dir/pg' start"
step su postgres -s /bin/sh -c "'$pgbin/createdb' -h 127.0.0.1 -p $pgport -U lavaserver lavaserver"

export DATABASE_URL=postgres://lavaserver@127.0.0.1:$pgport/lavaserver
export SECRET_KEY=thpbench-throwaway-$RANDOM$RANDOM
export ALLOWED_HOSTS=127.0.0.1,localhost
export LAVA_SETTINGS_DEVICES_PATH=$dir/devices
export LAVA_SETTINGS_MEDIA_ROOT=$dir/media/
export DJANGO_SETTINGS_MODULE=lava_server.settings.prod
# The same environment for anyone who looks at this lab afterwards.
printf 'export %s\n' "DATABASE_URL=$DATABASE_URL" "SECRET_KEY=$SECRET_KEY" \
	"ALLOWED_HOSTS=$ALLOWED_HOSTS" "LAVA_SETTINGS_DEVICES_PATH=$dir/devices" \
	"LAVA_SETTINGS_MEDIA_ROOT=$dir/media/" \
	"DJANGO_SETTINGS_MODULE=$DJANGO_SETTINGS_MODULE" > "$dir/server.env"
kp_log "lava-server: migrate, an admin, a worker, $ndev qemu devices"
step lava-server manage migrate --noinput
step lava-server manage users add --superuser --staff --passwd "$(head -c 12 /dev/urandom | base64)" admin
(umask 077 && lava-server manage tokens add --user admin 2>> "$dir/setup.log" | tail -n 1 > "$dir/token")
[ -s "$dir/token" ] || kp_die "start: no API token (log: $dir/setup.log)"
wtoken=$(lava-server manage workers add w1 2>> "$dir/setup.log" | sed -n 's/^Token: *//p')
[ -n "$wtoken" ] || kp_die "start: no worker token (log: $dir/setup.log)"
step lava-server manage device-types add qemu
for i in $(seq 1 "$ndev"); do
	d=$(printf 'qemu-%02d' "$i")
	cp "$REPO_DIR/configs/lava/devices/qemu-thpbench.jinja2" "$dir/devices/$d.jinja2"
	step lava-server manage devices add --device-type qemu --worker w1 "$d"
done

kp_log "gunicorn on 127.0.0.1:$port, the scheduler, lava-worker w1"
(cd "$dir" && daemon "$dir/gunicorn.log" gunicorn3 lava_server.wsgi --bind "127.0.0.1:$port" \
	--workers 2 --timeout 120)
daemon "$dir/scheduler.out" lava-server manage lava-scheduler --level DEBUG --log-file "$dir/scheduler.log"
printf '%s\n' "$wtoken" > "$dir/worker.token"
chmod 600 "$dir/worker.token"
daemon "$dir/worker.out" lava-worker --name w1 --url "http://127.0.0.1:$port/" \
	--token-file "$dir/worker.token" --worker-dir "$dir/worker" --log-file "$dir/worker.log" --level DEBUG

# Up when the API answers and the worker is online.
for _ in $(seq 1 60); do
	if curl -sf "http://127.0.0.1:$port/api/v0.2/workers/w1/" 2>/dev/null | grep -q '"state":"Online"'; then
		printf '%s\n' "THPBENCH_LAVA_URL=http://127.0.0.1:$port/" \
			"THPBENCH_LAVA_TOKEN_FILE=$dir/token" "THPBENCH_LAVA_DEVICES=$ndev" > "$dir/lab.env"
		kp_log "lab up: http://127.0.0.1:$port/ ($ndev devices; $dir/lab.env)"
		exit 0
	fi
	sleep 1
done
kp_die "start: the worker is not online after 60 s (logs: $dir/gunicorn.log, $dir/worker.log)"
