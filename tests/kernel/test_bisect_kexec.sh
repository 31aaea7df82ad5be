#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bisect.sh --kexec (a bisection on this machine's own hardware) with
# stand-ins for kexec, systemctl and uname (a boot is a `bisect.sh
# --resume DIR`, as the unit runs it, with uname -r now the kexec'd
# kernel's), the build (bisect_lib.sh) and `thpbench run`
# (THPBENCH_RUN_TB). Checks:
# - the first run installs and enables thpbench-bisect.service (its
#   command --resume DIR --kexec: the boot driver is the unit's), loads
#   GOOD's image with --reuse-cmdline and boots it; every boot measures
#   its kernel and boots the next; the bisection names commit 11 with
#   commit 7 skipped; then the unit is gone and the machine kexecs back
#   into the kernel it ran at the start (/boot/vmlinuz-REL, its initrd);
#   the results say "bare metal";
# - a boot that comes up on the old kernel is booted again once;
# - GOOD coming up on another kernel twice stops the bisection (exit 2)
#   and takes the unit away;
# - --kexec without a machine configuration is refused (exit 2).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect_lib.sh"

FS=$t_tmp/state
mkdir -p "$FS" "$t_tmp/sys" "$t_tmp/systemd" "$t_tmp/boot"
ORIG=6.1.0-lab
echo "$ORIG" > "$FS/release"
: > "$t_tmp/boot/vmlinuz-$ORIG"
: > "$t_tmp/boot/initrd.img-$ORIG"
echo "CONFIG_THIS_MACHINE=y" > "$t_tmp/machine.config"
cat > "$t_tmp/sys/uname" <<'FAKE'
#!/bin/bash
[ "${1:-}" = -r ] && { cat "$FAKE_STATE/release"; exit 0; }
exec /bin/uname "$@"
FAKE
cat > "$t_tmp/sys/kexec" <<'FAKE'
#!/bin/bash
echo "kexec $*" >> "$FAKE_STATE/log"
[ "$1" = -l ] && echo "$2" > "$FAKE_STATE/loaded"
exit 0
FAKE
cat > "$t_tmp/sys/systemctl" <<'FAKE'
#!/bin/bash
# A kexec "reboots": uname -r becomes the loaded kernel's release, unless
# FAKE_STATE/wrong counts boots that come up on the old kernel.
echo "systemctl $*" >> "$FAKE_STATE/log"
[ "$1" = kexec ] || exit 0
w=$(cat "$FAKE_STATE/wrong" 2>/dev/null || echo 0)
if [ "$w" -gt 0 ]; then
	echo $((w - 1)) > "$FAKE_STATE/wrong"
	exit 0
fi
img=$(cat "$FAKE_STATE/loaded")
case $img in
*/vmlinuz-*) basename "$img" | sed 's/^vmlinuz-//' > "$FAKE_STATE/release" ;;
*) cat "$(dirname "$img")/kernelrelease" > "$FAKE_STATE/release" ;;
esac
FAKE
cat > "$t_tmp/bin/fake-tb" <<'FAKE'
#!/bin/bash
# Stand-in `thpbench run SUITE -r N -o DIR --label REL` on this machine.
[ "$1" = run ] || exit 2
while [ $# -gt 0 ]; do
	case $1 in
	-r) r=$2; shift ;;
	-o) out=$2; shift ;;
	--label) rel=$2; shift ;;
	esac
	shift
done
[ "$rel" = "$(uname -r)" ] || { echo "fake-tb: label $rel on $(uname -r)" >&2; exit 2; }
mkdir -p "$out"
"$(dirname "$0")/fake-results" "$(cat "$FAKE_KERNELS/release-$rel")" "$r" "$rel" "$out/results.json"
FAKE
chmod +x "$t_tmp/sys/"* "$t_tmp/bin/fake-tb"
export PATH=$t_tmp/sys:$PATH FAKE_STATE=$FS THPBENCH_SYSTEMD_DIR=$t_tmp/systemd \
	THPBENCH_BOOT_DIR=$t_tmp/boot THPBENCH_RUN_TB=$t_tmp/bin/fake-tb
K=$(sha_of "$t_tmp/tree" 11)
BROKEN=$(sha_of "$t_tmp/tree" 7)
UNIT=$t_tmp/systemd/thpbench-bisect.service
kx=(--kexec --config "$t_tmp/machine.config" --tree "$t_tmp/tree" --bad HEAD
	--suite "$t_tmp/suite.conf" --metric mremap:vmstat.thp_split_pmd)

# Boot after boot, as the unit runs it, until it is gone (at most $1).
boots_until_done()
{
	local i rc=0
	for i in $(seq 1 "$1"); do
		[ -f "$UNIT" ] || return 0
		rc=0
		"$BISECT" --resume "$2" --kexec >> "$t_tmp/boots.out" 2>&1 || rc=$?
		last_rc=$rc
		case $rc in 0|1|3) ;; *) return 0 ;; esac
	done
	fail "still bisecting after $1 boots"
}

# 1. A whole bisection by kexec.
rc=0
"$BISECT" "${kx[@]}" --good "$(sha_of "$t_tmp/tree" 0)" --out "$t_tmp/k1" > "$t_tmp/k1.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "first run: exit $rc ($(tail -n 3 "$t_tmp/k1.out"))"
[ -f "$UNIT" ] && grep -q "ExecStart=.*/bisect.sh --resume $t_tmp/k1 --kexec$" "$UNIT" ||
	fail "no unit that resumes $t_tmp/k1"
grep -q "^systemctl enable thpbench-bisect.service" "$FS/log" || fail "the unit was not enabled"
grep -q "^kexec -l $t_tmp/kernels/$(sha_of "$t_tmp/tree" 0)/bzImage --reuse-cmdline$" "$FS/log" ||
	fail "GOOD's image was not loaded with --reuse-cmdline: $(grep kexec "$FS/log")"
[ "$(sed -n 2p "$t_tmp/k1/pending")" = "$(sha_of "$t_tmp/tree" 0)" ] || fail "pending is not GOOD's boot"
# The third boot comes up on the old kernel once.
"$BISECT" --resume "$t_tmp/k1" --kexec >> "$t_tmp/boots.out" 2>&1
"$BISECT" --resume "$t_tmp/k1" --kexec >> "$t_tmp/boots.out" 2>&1
echo 1 > "$FS/wrong"
boots_until_done 40 "$t_tmp/k1"
r=$t_tmp/k1/report.json
[ "$last_rc" = 0 ] || fail "last boot: exit $last_rc ($(tail -n 5 "$t_tmp/boots.out"))"
[ "$(jq -r .first_bad.sha "$r" 2>/dev/null)" = "$K" ] ||
	fail "kexec: first bad $(jq -r .first_bad.sha "$r" 2>/dev/null), want commit 11 $K ($(tail -n 5 "$t_tmp/boots.out"))"
[ "$(jq -r --arg b "$BROKEN" '.steps[] | select(.sha == $b) | .class' "$r" 2>/dev/null)" = skip ] ||
	fail "kexec: commit 7 is not skipped"
grep -q "booting it again" "$t_tmp/boots.out" || fail "the boot on the old kernel was not retried"
[ ! -f "$UNIT" ] || fail "the unit is still there"
[ "$(grep '^kexec -l' "$FS/log" | tail -n 1)" = "kexec -l $t_tmp/boot/vmlinuz-$ORIG --reuse-cmdline --initrd=$t_tmp/boot/initrd.img-$ORIG" ] ||
	fail "not back to $ORIG: $(grep '^kexec -l' "$FS/log" | tail -n 1)"
[ "$(cat "$FS/release")" = "$ORIG" ] || fail "running $(cat "$FS/release") at the end"
jq -r .meta.timings "$t_tmp/k1/runs/0001/results.json" | grep -q "bare metal" ||
	fail "the results do not say bare metal"
[ ! -f "$t_tmp/k1/pending" ] || fail "pending left"
[ "$T_FAILS" -eq 0 ] && ok "--kexec: boot after boot, names commit 11, 7 skipped, one retried boot, back to $ORIG, unit gone"

# 2. GOOD never comes up: stop, unit gone.
: > "$FS/log"
echo 2 > "$FS/wrong"
rc=0
"$BISECT" "${kx[@]}" --good "$(sha_of "$t_tmp/tree" 0)" --out "$t_tmp/k2" > "$t_tmp/k2.out" 2>&1 || rc=$?
"$BISECT" --resume "$t_tmp/k2" --kexec >> "$t_tmp/k2.out" 2>&1
rc=0
"$BISECT" --resume "$t_tmp/k2" --kexec >> "$t_tmp/k2.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "GOOD twice on another kernel: exit $rc, want 2"
grep -q "came up on .* (twice)" "$t_tmp/k2.out" || fail "no reason given: $(tail -n 3 "$t_tmp/k2.out")"
[ ! -f "$UNIT" ] || fail "the unit stayed after the bisection stopped"
[ "$T_FAILS" -eq 0 ] && ok "--kexec: GOOD never boots: exit 2, the unit taken away"

# 3. Refusals.
rc=0
"$BISECT" --kexec --tree "$t_tmp/tree" --good HEAD~3 --bad HEAD --suite "$t_tmp/suite.conf" \
	--metric mremap:roi_usec > "$t_tmp/r.out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "give --config FILE" "$t_tmp/r.out" || fail "--kexec with tinyconfig: exit $rc"
[ "$T_FAILS" -eq 0 ] && ok "--kexec without a machine configuration is refused"
finish
