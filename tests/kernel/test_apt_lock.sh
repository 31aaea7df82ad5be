#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/apt-install.sh (used by both install-deps.sh) waits for the
# dpkg/apt lock instead of failing when another apt holds it: with a
# stand-in apt-get that reports the lock taken twice and then installs, it
# passes apt's own lock timeout, retries and exits 0; with one that never
# gets the lock it gives up after THPBENCH_APT_LOCK_WAIT seconds, exit 2.
. "$(dirname "$0")/lib.sh"

mkdir -p "$t_tmp/bin"
cat > "$t_tmp/bin/apt-get" <<'FAKE'
#!/bin/sh
echo "$*" >> "$FAKE_DIR/calls"
case " $* " in *" update "*) exit 0 ;; esac
n=$(cat "$FAKE_DIR/n" 2>/dev/null || echo 0)
echo $((n + 1)) > "$FAKE_DIR/n"
if [ "$FAKE_LOCKED" = always ] || [ "$n" -lt 2 ]; then
	echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2
	exit 100
fi
echo "installed $*"
FAKE
chmod +x "$t_tmp/bin/apt-get"
export FAKE_DIR=$t_tmp PATH=$t_tmp/bin:$PATH THPBENCH_APT_RETRY_S=0.2
ai=$REPO_DIR/scripts/apt-install.sh

rc=0
"$ai" foo bar > "$t_tmp/out" 2> "$t_tmp/err" || rc=$?
[ "$rc" = 0 ] || fail "lock held twice: exit $rc ($(cat "$t_tmp/err"))"
[ "$(cat "$t_tmp/n")" = 3 ] || fail "install tried $(cat "$t_tmp/n") times, want 3"
grep -q 'DPkg::Lock::Timeout=' "$t_tmp/calls" || fail "apt-get not given DPkg::Lock::Timeout"
grep -q 'install .*foo bar' "$t_tmp/calls" || fail "packages not passed: $(cat "$t_tmp/calls")"
grep -q 'waiting' "$t_tmp/err" || fail "no 'waiting' message"
[ "$T_FAILS" -eq 0 ] && ok "waits for the lock, then installs"

rm -f "$t_tmp/n"
rc=0
t0=$(date +%s)
# It waits at least the 2 s asked and then gives up by itself: the
# watchdog (exit 124) only catches one that never does; how much past 2 s
# it took is the machine's, printed.
FAKE_LOCKED=always THPBENCH_APT_LOCK_WAIT=2 timeout 300 "$ai" foo > /dev/null 2> "$t_tmp/err2" || rc=$?
t=$(( $(date +%s) - t0 ))
[ "$rc" = 2 ] || fail "lock never free: exit $rc, want 2 (124: it never gave up)"
grep -q 'Could not get lock' "$t_tmp/err2" || fail "apt's message not shown: $(cat "$t_tmp/err2")"
[ "$t" -ge 2 ] || fail "gave up after $t s, before the 2 s wait"
echo "$T_NAME: gave up after $t s (wait 2 s)"
[ "$T_FAILS" -eq 0 ] && ok "gives up with exit 2 and apt's message when the lock stays taken"
finish
