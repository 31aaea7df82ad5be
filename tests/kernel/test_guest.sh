#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# guest.sh without building or booting a kernel: a prebuilt "kernel"
# (--kernel IMG:CONFIG, a tiny file with a bzImage header), prebuilt
# static binaries (THPBENCH_AB_STATIC) and a stand-in qemu (THPBENCH_QEMU)
# that records its command line and answers with a real transfer block
# (init --emit) of a results file carrying a claim table. Checks: the
# topology reaches qemu (-smp, -m, numa=fake=N, the 1 GiB pool), the
# results come back stamped with it, the claim table is printed; bad
# options and a kernel without NUMA_EMU exit 2 and leave no results
# directory; nothing is left running.
. "$(dirname "$0")/lib.sh"

for c in jq cpio gzip readelf gcc pgrep; do
	command -v "$c" >/dev/null || skip "$c not installed"
done
[ -x "$REPO_DIR/harness/thpbench" ] || skip "harness/thpbench not built (make)"
build_init

static_standins thp_pthread
mkdir -p "$t_tmp/bin"
fake_bzimage "$t_tmp/k.img" 6.1.0-tb-base
printf 'CONFIG_NUMA=y\nCONFIG_NUMA_EMU=y\n' > "$t_tmp/config"
printf 'CONFIG_NUMA=y\n' > "$t_tmp/config-noemu"
printf '[suite]\nname = t\n[case c]\nworkload = thp_pthread\n' > "$t_tmp/suite.conf"
# What the guest "measured": no cases, one claim, the guest's cmdline.
jq -n '{ schema: "thpbench-results/1",
	 env: { kernel: "6.1.0-tb-base", numa_nodes: 2, nr_cpus: 2,
		cmdline: "console=ttyS0 numa=fake=2" },
	 meta: { claims: [ { id: "004-numa", comparison: "placement",
		claimed: "~0.5 always, ~0 never", measured: "0.50 vs 0.00",
		verdict: "reproduced" } ] },
	 cases: [] }' > "$t_tmp/answer.json"
cat > "$t_tmp/bin/fake-qemu" <<'FAKE'
#!/bin/bash
[ "${1:-}" = --version ] && { echo "QEMU emulator version 0.0 (fake)"; exit 0; }
printf '%s\n' "$@" > "$FAKE_ARGS"
printf 'Linux version 6.1.0-tb-base\r\n'
[ -z "${FAKE_HANG:-}" ] || while :; do sleep 0.2; done
"$FAKE_INIT" --emit "$FAKE_ANSWER" 0 | sed 's/$/\r/'
FAKE
chmod +x "$t_tmp/bin/fake-qemu"
export THPBENCH_QEMU=$t_tmp/bin/fake-qemu FAKE_INIT=$t_tmp/init FAKE_ANSWER=$t_tmp/answer.json \
	FAKE_ARGS=$t_tmp/qemu-args THPBENCH_AB_STATIC=$t_tmp/static THPBENCH_RESULTS_DIR=$t_tmp/results
guest=("$KP/scripts/guest.sh" "$t_tmp/suite.conf" --accel tcg)
leftovers() { pgrep -af -- "$t_tmp" | grep -v "^$$ " || true; }
ndirs() { find "$t_tmp/results" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l; }
arg_after() { awk -v f="$1" 'p { print; exit } $0 == f { p = 1 }' "$t_tmp/qemu-args"; }

rc=0
timeout 120 "${guest[@]}" --kernel "$t_tmp/k.img:$t_tmp/config" --nodes 2 --cpus 3 --mem 6G \
	--gib-pages 1 > "$t_tmp/out" 2> "$t_tmp/err" || rc=$?
[ "$rc" = 0 ] || fail "guest.sh: exit $rc ($(tail -n 3 "$t_tmp/err"))"
[ "$(arg_after -smp)" = 3 ] || fail "qemu -smp $(arg_after -smp), want 3 (3 CPUs do not split into 2 sockets)"
[ "$(arg_after -m)" = 6G ] || fail "qemu -m $(arg_after -m), want 6G"
append=$(arg_after -append)
case $append in *numa=fake=2*) ;; *) fail "no numa=fake=2 in -append: $append" ;; esac
case $append in *"hugepagesz=1G hugepages=1"*) ;; *) fail "no 1 GiB pool in -append: $append" ;; esac
grep -q '004-numa .*reproduced' "$t_tmp/out" || fail "the claim table was not printed"
grep -q 'NUMA nodes emulated' "$t_tmp/out" || fail "the table does not say the nodes are emulated"
out=$(find "$t_tmp/results" -mindepth 1 -maxdepth 1 -type d | head -n 1)
if [ -f "$out/results.json" ]; then
	[ "$(jq -r .meta.guest.nodes "$out/results.json")" = 2 ] || fail "meta.guest.nodes is not 2"
	[ "$(jq -r .meta.guest.gib_pages "$out/results.json")" = 1 ] || fail "meta.guest.gib_pages is not 1"
	jq -r .meta.timings "$out/results.json" | grep -q '^emulated' || fail "meta.timings is not emulated"
	[ -s "$out/summary.txt" ] || fail "no summary.txt"
else
	fail "no results.json in $out"
fi
[ "$T_FAILS" -eq 0 ] && ok "topology reaches qemu, results come back stamped, the table is printed"

# CPUs that split into the nodes: one socket per node (each its own LLC).
"${guest[@]}" --kernel "$t_tmp/k.img:$t_tmp/config" --nodes 2 --cpus 4 > /dev/null 2>&1 ||
	fail "--nodes 2 --cpus 4 failed"
[ "$(arg_after -smp)" = 4,sockets=2 ] || fail "--nodes 2 --cpus 4: qemu -smp $(arg_after -smp), want 4,sockets=2"

# One node: no numa=fake at all.
rc=0
"${guest[@]}" --kernel "$t_tmp/k.img:$t_tmp/config-noemu" --nodes 1 > /dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "--nodes 1 on a kernel without NUMA_EMU: exit $rc, want 0"
grep -q 'numa=fake' "$t_tmp/qemu-args" && fail "--nodes 1 still passed numa=fake"

# Ctrl-C during the boot: stopped at once, exit 130, nothing left running
# (the console is kept: the directory stays).
set -m
FAKE_HANG=1 env --default-signal=INT "${guest[@]}" --kernel "$t_tmp/k.img:$t_tmp/config" \
	--out "$t_tmp/int" > "$t_tmp/int.out" 2>&1 &
gpid=$!
set +m
for _ in $(seq 1 100); do
	grep -q 'Linux version' "$t_tmp/int/console.log" 2>/dev/null && break
	sleep 0.1
done
interrupt_job "$gpid" "guest.sh during a boot"
[ "$int_rc" = 130 ] || fail "guest.sh after SIGINT: exit $int_rc, want 130 ($(tail -n 2 "$t_tmp/int.out"))"

# Refusals: exit 2, no results directory.
n0=$(ndirs)
for bad in "--nodes 0" "--cpus x" "--mem 4Q" "--gib-pages -1" "--accel hvf" "--frobnicate"; do
	rc=0
	# shellcheck disable=SC2086
	"${guest[@]}" --kernel "$t_tmp/k.img:$t_tmp/config" $bad > /dev/null 2> "$t_tmp/err" || rc=$?
	[ "$rc" = 2 ] || fail "$bad: exit $rc, want 2"
done
rc=0
"${guest[@]}" --kernel "$t_tmp/k.img:$t_tmp/config-noemu" --nodes 2 > /dev/null 2> "$t_tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "a kernel without NUMA_EMU for 2 nodes: exit $rc, want 2"
grep -q 'CONFIG_NUMA_EMU' "$t_tmp/err" || fail "the refusal does not name CONFIG_NUMA_EMU"
[ "$(ndirs)" = "$n0" ] || fail "a refused run left a results directory"
left=$(settled leftovers)
[ -z "$left" ] || fail "processes left behind: $left"
finish
