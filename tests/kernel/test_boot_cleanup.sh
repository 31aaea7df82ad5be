#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# boot.sh with a stand-in qemu (THPBENCH_QEMU, a script that prints a
# console and then exits or hangs), so nothing boots:
# - piped (`boot.sh ... 2>&1 | cat`) it returns when the guest ends and
#   leaves no process behind (a follower that outlived it held the pipe
#   open for ever), and guest lines appear as they are printed, not when
#   the boot ends;
# - a Ctrl-C (SIGINT to its process group, as a terminal sends it) stops
#   the hanging guest within seconds, the script dies of SIGINT (130), and
#   again nothing is left running.
. "$(dirname "$0")/lib.sh"

for c in pgrep timeout tail sed; do
	command -v "$c" >/dev/null || skip "$c not installed"
done
mkdir -p "$t_tmp/bin"
fake=$t_tmp/bin/fake-qemu
cat > "$fake" <<'FAKE'
#!/bin/bash
# Stand-in for qemu-system-x86_64: a console, then exit or hang.
printf 'Linux version 6.1.0-fake\r\n'
printf 'guest early line\r\n'
# A status line redrawn in place (what thpbench prints on a terminal).
printf '\r\033[K[1/2] mremap rep 1/2\r\033[K[2/2] mremap rep 2/2\r\033[K\r\n'
printf 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\r\n'
case $FAKE_MODE in
hang) while :; do sleep 0.2; done ;;
*) # until the test has seen the early line (or a minute: a test gone wrong)
	i=0; while [ ! -e "$FAKE_GO" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	printf 'guest late line\r\n' ;;
esac
FAKE
chmod +x "$fake"
: > "$t_tmp/bzImage"
: > "$t_tmp/initrd"
export THPBENCH_QEMU=$fake FAKE_GO=$t_tmp/go
boot=("$KP/scripts/boot.sh" --kernel "$t_tmp/bzImage" --initrd "$t_tmp/initrd"
	--accel tcg --timeout 60)

# Processes whose command line names this test's directory.
leftovers() { pgrep -af -- "$t_tmp" | grep -v "^$$ " || true; }

# 1. Piped: returns, no leftovers, progress unbuffered.
FAKE_MODE=finish timeout 30 bash -c '"$@" 2>&1 | cat' _ "${boot[@]}" \
	--log "$t_tmp/c1.log" > "$t_tmp/out1" &
pipe_pid=$!
# The early line shows while the guest still runs: the stand-in waits for
# FAKE_GO, which comes only once the line is seen (or after 60 s, a fail).
for _ in $(seq 1 600); do
	grep -q 'guest| guest early line' "$t_tmp/out1" && break
	sleep 0.1
done
grep -q 'guest| guest early line' "$t_tmp/out1" ||
	fail "guest output not shown while the guest runs (buffered): '$(cat "$t_tmp/out1")'"
touch "$FAKE_GO"
rc=0
wait "$pipe_pid" || rc=$?
[ "$rc" = 0 ] || fail "piped boot.sh did not return by itself (exit $rc; 124 = still running after 30 s)"
grep -q 'guest| guest late line' "$t_tmp/out1" || fail "late guest line missing"
grep -q 'QUJDREVG' "$t_tmp/out1" && fail "base64 transfer lines echoed"
grep -q '^guest| \[1/2\] mremap rep 1/2$' "$t_tmp/out1" && grep -q '^guest| \[2/2\] mremap rep 2/2$' "$t_tmp/out1" ||
	fail "a redrawn status line is not one plain line per state: $(grep mremap "$t_tmp/out1" | cat -A | head -n 3)"
grep -q $'\e' "$t_tmp/out1" && fail "escape codes in the piped output"
grep -q '^guest| $' "$t_tmp/out1" && fail "empty guest lines in the piped output"
grep -q '^accel=tcg' "$t_tmp/out1" || fail "no accel= line on stdout"
left=$(settled leftovers)
[ -z "$left" ] || fail "processes left behind after the boot: $left"
[ "$T_FAILS" -eq 0 ] && ok "piped boot returns, progress live, nothing left running"

# 2. Ctrl-C: SIGINT to the process group stops the guest promptly.
# Job control: its own process group, SIGINT not ignored (as in a shell).
set -m
FAKE_MODE=hang "${boot[@]}" --log "$t_tmp/c2.log" > /dev/null 2> "$t_tmp/err2" &
bpid=$!
set +m
for _ in $(seq 1 50); do
	grep -q 'early line' "$t_tmp/c2.log" 2>/dev/null && break
	sleep 0.1
done
kill -INT -- "-$bpid"
t0=$(date +%s)
for _ in $(seq 1 100); do
	kill -0 "$bpid" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$bpid" 2>/dev/null; then
	fail "boot.sh still running 10 s after SIGINT"
	kill -KILL -- "-$bpid" 2>/dev/null
fi
rc=0
wait "$bpid" || rc=$?
[ "$rc" = 130 ] || fail "after SIGINT exit $rc, want 130 ($(cat "$t_tmp/err2"))"
left=$(settled leftovers)
[ -z "$left" ] || fail "processes left behind after SIGINT: $left"
[ "$T_FAILS" -eq 0 ] && ok "SIGINT stops the guest in $(( $(date +%s) - t0 )) s, nothing left"
# Never leave a stand-in running, whatever failed above.
for p in $(pgrep -f -- "$t_tmp"); do [ "$p" = $$ ] || kill -KILL "$p" 2>/dev/null; done
finish
