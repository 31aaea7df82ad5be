#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# baremetal.sh without rebooting anything: stand-ins for systemctl, kexec
# and uname record what would happen and say which kernel "booted", and a
# stand-in thpbench run answers with fixture results (base.json on kernel
# A, new.json, which has a regression, on B; merge/compare/plot are the
# real ones). Checks: setup installs and enables the unit and boots A;
# each step runs the suite once into results/<side>-<n>, advances the
# state and kexecs the next kernel in A B A B order; after the last boot
# the kernels' boots are merged and compared (--fail-on regression: exit
# 1), and the unit is removed. A boot on the wrong kernel is retried once,
# then the run stops with exit 2, its results kept.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || skip "jq not installed"
[ -x "$REPO_DIR/harness/thpbench" ] || skip "harness/thpbench not built (make)"
FIX=$REPO_DIR/tests/fixtures/compare
bm=$KP/scripts/baremetal.sh
relA=6.1.0-tb-base relB=6.1.0-tb-000

mkdir -p "$t_tmp/bin" "$t_tmp/boot" "$t_tmp/units" "$t_tmp/answers"
touch "$t_tmp/boot/vmlinuz-$relA" "$t_tmp/boot/vmlinuz-$relB"
cp "$FIX/base.json" "$t_tmp/answers/$relA.json"
cp "$FIX/new.json" "$t_tmp/answers/$relB.json"
for c in systemctl kexec; do
	printf '#!/bin/sh\necho "%s $*" >> "$FAKE_DIR/calls"\n' "$c" > "$t_tmp/bin/$c"
done
printf '#!/bin/sh\n[ "$1" = -r ] && { echo "$FAKE_UNAME"; exit 0; }\nexec /bin/uname "$@"\n' > "$t_tmp/bin/uname"
cat > "$t_tmp/bin/thpbench" <<'FAKE'
#!/bin/bash
# run: the fixture for the label; anything else: the real thpbench.
if [ "$1" = run ]; then
	while [ $# -gt 0 ]; do
		case $1 in -o) out=$2; shift ;; --label) label=$2; shift ;; esac
		shift
	done
	echo "run $label" >> "$FAKE_DIR/calls"
	mkdir -p "$out" && cp "$FAKE_DIR/answers/$label.json" "$out/results.json"
	exit 0
fi
exec "$REAL_TB" "$@"
FAKE
chmod +x "$t_tmp/bin/"*
printf '[suite]\nname = t\n' > "$t_tmp/suite.conf"
export FAKE_DIR=$t_tmp REAL_TB=$REPO_DIR/harness/thpbench PATH=$t_tmp/bin:$PATH \
	THPBENCH_SYSTEMD_DIR=$t_tmp/units THPBENCH_BOOT_DIR=$t_tmp/boot
st=$t_tmp/state

FAKE_UNAME=6.18.0 "$bm" setup --kernel-a "$relA" --kernel-b "$relB" --suite "$t_tmp/suite.conf" \
	--boots 2 --state "$st" --thpbench "$t_tmp/bin/thpbench" --fail-on regression \
	> "$t_tmp/setup.out" 2>&1 || fail "setup failed: $(cat "$t_tmp/setup.out")"
grep -q "ExecStart=$bm step --state $st" "$t_tmp/units/thpbench-ab.service" 2>/dev/null ||
	fail "unit file missing or without the step command"
grep -q 'systemctl enable thpbench-ab.service' "$t_tmp/calls" || fail "unit not enabled"
tail -n 2 "$t_tmp/calls" | tr '\n' ' ' | grep -q "kexec -l $t_tmp/boot/vmlinuz-$relA .*systemctl kexec" ||
	fail "setup did not kexec into A: $(tail -n 2 "$t_tmp/calls")"

# Four boots: A B A B, each runs once and kexecs the next.
order=''
for want in A B A B; do
	if [ "$want" = A ]; then rel=$relA; else rel=$relB; fi
	: > "$t_tmp/calls"
	rc=0
	FAKE_UNAME=$rel "$bm" step --state "$st" > "$t_tmp/step.out" 2>&1 || rc=$?
	order="$order$want"
	grep -qx "run $rel" "$t_tmp/calls" || fail "boot $order: the suite did not run on $rel"
	if [ "${#order}" -lt 4 ]; then
		[ "$rc" = 0 ] || fail "boot $order: exit $rc"
		nxt=$relA; [ "$want" = B ] || nxt=$relB
		grep -q "kexec -l $t_tmp/boot/vmlinuz-$nxt" "$t_tmp/calls" || fail "boot $order: next kernel not $nxt"
	else
		[ "$rc" = 1 ] || fail "last boot: exit $rc, want 1 (--fail-on regression): $(tail -n 3 "$t_tmp/step.out")"
		grep -q kexec "$t_tmp/calls" && fail "last boot kexecs again"
	fi
done
for d in A-1 B-1 A-2 B-2; do
	[ "$(jq -r .meta.provenance.side "$st/results/$d/results.json" 2>/dev/null)" = "${d%-*}" ] ||
		fail "results/$d lacks its provenance"
done
[ "$(jq '[.cases[].runs[]] | length' "$st/A.json" 2>/dev/null)" = \
  "$(jq '[.cases[].runs[]] | length * 2' "$FIX/base.json")" ] || fail "A.json is not both A boots"
grep -q regression "$st/comparison.txt" 2>/dev/null || fail "no comparison after the last boot"
[ "$(cat "$st/compare-exit" 2>/dev/null)" = 1 ] || fail "compare-exit not 1"
[ -e "$t_tmp/units/thpbench-ab.service" ] && fail "unit left installed after the last boot"
[ "$T_FAILS" -eq 0 ] && ok "A B A B by kexec, results kept per boot, compared after the last, unit removed"

# The wrong kernel comes up: one retry, then stop.
st2=$t_tmp/state2
FAKE_UNAME=x "$bm" setup --kernel-a "$relA" --kernel-b "$relB" --suite "$t_tmp/suite.conf" \
	--boots 1 --state "$st2" --thpbench "$t_tmp/bin/thpbench" > /dev/null 2>&1 || fail "setup 2 failed"
: > "$t_tmp/calls"
rc=0
FAKE_UNAME=6.18.0 "$bm" step --state "$st2" > /dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] && grep -q "kexec -l $t_tmp/boot/vmlinuz-$relA" "$t_tmp/calls" || fail "wrong kernel: no retry of A"
rc=0
FAKE_UNAME=6.18.0 "$bm" step --state "$st2" > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "wrong kernel twice: exit $rc, want 2"
grep -q 'not 6.1.0-tb-base' "$st2/failed" 2>/dev/null || fail "no 'failed' note"
grep -q "run " "$t_tmp/calls" && fail "the suite ran on the wrong kernel"
[ "$T_FAILS" -eq 0 ] && ok "a boot on the wrong kernel is retried once, then the run stops"
finish
