#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ab.sh end to end without building or booting a kernel: two prebuilt
# "kernels" (--kernel-a/--kernel-b: tiny files with a bzImage header and a
# release string), prebuilt static binaries (THPBENCH_AB_STATIC) and a
# stand-in qemu (THPBENCH_QEMU) that answers with a real transfer block
# (init --emit) of a fixture results file: tests/fixtures/compare/base.json
# for kernel A, new.json (which has a regression) for kernel B. Checks:
# - `ab.sh ... --fail-on regression 2>&1 | cat` returns, exits 1, and
#   leaves no process behind; without --fail-on it exits 0;
# - the comparison says the timings are emulated; ab.json and every
#   results.json carry the provenance (series, config hash = sha256sum,
#   thpbench version) and meta.timings;
# - two runs started together get two results directories;
# - a prebuilt config lacking THP, two kernels with one release, and a
#   series without patches (003) exit 2 and leave no results directory.
. "$(dirname "$0")/lib.sh"

for c in jq cpio gzip readelf gcc pgrep; do
	command -v "$c" >/dev/null || skip "$c not installed"
done
[ -x "$REPO_DIR/harness/thpbench" ] || skip "harness/thpbench not built (make)"
build_init
FIX=$REPO_DIR/tests/fixtures/compare

static_standins mremap

fake_bzimage "$t_tmp/A.img" 6.1.0-tb-base
fake_bzimage "$t_tmp/B.img" 6.1.0-tb-fake-series
fake_bzimage "$t_tmp/B-same.img" 6.1.0-tb-base
( export KP_DIR=$KP; . "$KP/scripts/common.sh"; printf '%s\n' $KERNEL_NEEDS CONFIG_KEXEC_FILE=y ) > "$t_tmp/config"
grep -v TRANSPARENT_HUGEPAGE "$t_tmp/config" > "$t_tmp/config-nothp"
grep -v KEXEC "$t_tmp/config" > "$t_tmp/config-nokexec"
printf '[suite]\nname = t\n' > "$t_tmp/suite.conf"

mkdir -p "$t_tmp/bin" "$t_tmp/answers"
cp "$FIX/base.json" "$t_tmp/answers/6.1.0-tb-base.json"
cp "$FIX/new.json" "$t_tmp/answers/6.1.0-tb-fake-series.json"
cat > "$t_tmp/bin/fake-qemu" <<'FAKE'
#!/bin/bash
# Stand-in qemu: the guest "runs" and sends the answer for its label.
[ "${1:-}" = --version ] && { echo "QEMU emulator version 0.0 (fake)"; exit 0; }
while [ $# -gt 0 ]; do [ "$1" = -append ] && append=$2; shift; done
label=$(printf '%s\n' $append | sed -n 's/^thpbench.label=//p')
# A kernel built here (release unknown in advance) answers FAKE_ANSWER.
[ -f "$FAKE_ANSWERS/$label.json" ] || [ -z "${FAKE_ANSWER:-}" ] || cp "$FAKE_ANSWER" "$FAKE_ANSWERS/$label.json"
chain=$(printf '%s\n' $append | sed -n 's/^thpbench.kexec=//p')
printf 'Linux version %s\r\nthpbench-init: label %s\r\n' "$label" "$label"
[ -z "${FAKE_HANG:-}" ] || while :; do sleep 0.2; done
sleep 0.3
if [ -z "$chain" ]; then
	"$FAKE_INIT" --emit "$FAKE_ANSWERS/$label.json" 0 | sed 's/$/\r/'
	exit 0
fi
# A kexec chain: one block per step, each from the kernel of that step.
for st in $(seq 0 $((${#chain} - 1))); do
	case ${chain:$st:1} in A) label=$FAKE_REL_A ;; *) label=$FAKE_REL_B ;; esac
	printf 'thpbench-init: kexec into %s, step %d\r\n' "$label" "$st"
	"$FAKE_INIT" --emit "$FAKE_ANSWERS/$label.json" 0 | sed "s/ step=0\$/ step=$st/; s/\$/\r/"
done
FAKE
chmod +x "$t_tmp/bin/fake-qemu"
# The host a PVM guest: its kernel says so, its cpuid says "bhyve bhyve"
# (which systemd-detect-virt reported, and the cover letter with it).
mkdir -p "$t_tmp/host/dev" "$t_tmp/host/proc"
printf '6,0,0,-;Linux version 6.12.0\n6,1,0,-;Hypervisor detected: PVM\n' > "$t_tmp/host/dev/kmsg"
printf 'processor\t: 0\nflags\t\t: fpu hypervisor\n' > "$t_tmp/host/proc/cpuinfo"
export THPBENCH_PLATFORM_ROOT=$t_tmp/host
export FAKE_REL_A=6.1.0-tb-base FAKE_REL_B=6.1.0-tb-fake-series
export THPBENCH_QEMU=$t_tmp/bin/fake-qemu FAKE_INIT=$t_tmp/init FAKE_ANSWERS=$t_tmp/answers \
	THPBENCH_AB_STATIC=$t_tmp/static THPBENCH_RESULTS_DIR=$t_tmp/results
ab=("$KP/scripts/ab.sh" --kernel-a "$t_tmp/A.img:$t_tmp/config"
	--kernel-b "$t_tmp/B.img:$t_tmp/config" --suite "$t_tmp/suite.conf"
	--accel tcg --name fake-series)
leftovers() { pgrep -af -- "$t_tmp" | grep -v "^$$ " || true; }
ndirs() { find "$t_tmp/results" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | wc -l; }

# 1. The gate, through a pipe.
rc=0
timeout 120 bash -c '"$@" 2>&1 | cat; exit "${PIPESTATUS[0]}"' _ "${ab[@]}" --fail-on regression \
	> "$t_tmp/out1" || rc=$?
[ "$rc" = 1 ] || fail "--fail-on regression: exit $rc, want 1 ($(tail -n 5 "$t_tmp/out1"))"
grep -q 'regression' "$t_tmp/out1" || fail "the comparison was not printed"
grep -q 'times and GB/s are emulated' "$t_tmp/out1" || fail "no 'emulated' note in the printed comparison"
left=$(settled leftovers)
[ -z "$left" ] || fail "processes left behind: $left"
out=$(find "$t_tmp/results" -mindepth 1 -maxdepth 1 -type d | head -n 1)
j=$out/ab.json
if [ -f "$j" ]; then
	want=$(sha256sum < "$t_tmp/config" | cut -c1-64)
	[ "$(jq -r .kernels.A.config_sha256 "$j")" = "$want" ] || fail "ab.json config hash is not sha256sum's"
	[ "$(jq -r .series "$j")" = fake-series ] || fail "ab.json series: $(jq -c .series "$j")"
	[ "$(jq -r .thpbench_version "$j")" != null ] || fail "ab.json lacks thpbench_version"
	[ "$(jq -r .qemu.emulated_timings "$j")" = true ] || fail "ab.json does not say emulated"
	[ "$(jq -r '[.timings_s[].step] | join(",")' "$j")" = "static harness,initramfs,boot A-1,boot B-1,compare and plot" ] ||
		fail "ab.json timings_s: $(jq -c .timings_s "$j")"
	for r in "$out"/A-1/results.json "$out"/B-1/results.json; do
		[ "$(jq -r .meta.provenance.series "$r")" = fake-series ] || fail "$r lacks meta.provenance"
		jq -r .meta.timings "$r" | grep -q '^emulated' || fail "$r: meta.timings not emulated"
	done
	[ "$(jq -r .meta.provenance.kernel.release "$out/B-1/results.json")" = 6.1.0-tb-fake-series ] ||
		fail "B's results name another kernel"
	grep -q 'emulated' "$out/comparison.md" || fail "comparison.md does not say emulated"
	# Provenance: the host, the suite's hash, the compiler, the command.
	[ "$(jq -r .host.kernel "$j")" = "$(uname -r)" ] && [ "$(jq -r .host.hostname "$j")" = "$(hostname)" ] &&
		[ "$(jq -r .host.nr_cpus "$j")" = "$(nproc)" ] && [ "$(jq -r .host.cpu "$j")" != "" ] ||
		fail "ab.json host: $(jq -c .host "$j")"
	[ "$(jq -r .host.virt "$j")" = PVM ] ||
		fail "ab.json host.virt: $(jq -r .host.virt "$j"), not what the host's kernel detected (PVM)"
	[ "$(jq -r .suite_sha256 "$j")" = "$(sha256sum < "$t_tmp/suite.conf" | cut -c1-64)" ] ||
		fail "ab.json suite_sha256 is not the suite's"
	jq -r .compiler "$j" | grep -q '^gcc' || fail "ab.json compiler: $(jq -c .compiler "$j")"
	[ "$(jq -r .command "$j")" = "$(printf '%s ' "${ab[@]}" --fail-on regression | sed 's/ $//')" ] ||
		fail "ab.json command: $(jq -r .command "$j")"
	[ "$(jq -r .meta.provenance.host.cpu "$out/B-1/results.json")" = "$(jq -r .host.cpu "$j")" ] ||
		fail "results.json lacks the host"
	# The cover letter: 72 columns of plain text, the verdict table of
	# what changed only, the environment in one line, the command, the
	# charts.
	cl=$out/cover-letter.txt
	if [ -s "$cl" ]; then
		w=$(LC_ALL=C.UTF-8 wc -L < "$cl")
		[ "$w" -le 72 ] || fail "cover-letter.txt is $w columns wide"
		LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' < "$cl") && fail "control characters in cover-letter.txt"
		grep -q ' $' "$cl" && fail "cover-letter.txt has trailing blanks"
		grep -q '^Kernel A/B with thpbench: fake-series$' "$cl" || fail "cover letter: no title"
		grep -q '^  gbps .* -6\.7%$' "$cl" && grep -q 'p < 0.0001: regression' "$cl" ||
			fail "cover letter: the regression (gbps) is not in its table"
		grep -q '^  split_usec .*-18\.8%$' "$cl" || fail "cover letter: the improvement is not in its table"
		grep -q '^  wall_usec\|^  page-faults' "$cl" && fail "cover letter: unchanged metrics in the table"
		[ "$(grep -c '^Environment: ' "$cl")" = 1 ] &&
			grep -q '^Environment: .*, [0-9]* CPUs, \(VM (.*)\|bare metal\); emulated timings (TCG)$' "$cl" ||
			fail "cover letter: environment line: $(grep -A1 '^Environment' "$cl")"
		grep -A1 '^Environment: ' "$cl" | tr '\n' ' ' | grep -q 'VM (PVM)' ||
			fail "cover letter: the host's hypervisor is not PVM: $(grep -A1 '^Environment' "$cl")"
		# The command, read by a shell as pasted, is the run's command.
		got=$(eval "set -- $(sed -n '/^Reproduce:$/,/^$/p' "$cl" | sed '1d')"; printf '%s\n' "$@")
		[ "$got" = "$(printf '%s\n' "${ab[@]}" --fail-on regression)" ] ||
			fail "cover letter: the command reads as: $got"
		for c in $(sed -n '/^Charts: /,$p' "$cl" | sed 's/^Charts: //; s/,/ /g'); do
			[ -f "$out/$c" ] || fail "cover letter names $c, which is not there"
		done
		grep -q '^Charts: plots/ab-.*-change\.png' "$cl" || fail "cover letter names no change chart"
	else
		fail "no cover-letter.txt"
	fi
else
	fail "no ab.json in $out"
fi
[ "$T_FAILS" -eq 0 ] && ok "--fail-on regression exits 1 through a pipe, provenance recorded, nothing left"

# 2. No gate: a regression is reported, exit 0.
rc=0
"${ab[@]}" > /dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "without --fail-on: exit $rc, want 0"

# 3. Two at once: two directories, both complete.
n0=$(ndirs)
"${ab[@]}" > "$t_tmp/p1" 2>&1 & p1=$!
"${ab[@]}" > "$t_tmp/p2" 2>&1 & p2=$!
r1=0; r2=0
wait "$p1" || r1=$?
wait "$p2" || r2=$?
[ "$r1" = 0 ] && [ "$r2" = 0 ] || fail "concurrent runs: exits $r1 and $r2 ($(tail -n 3 "$t_tmp/p1" "$t_tmp/p2"))"
[ "$(ndirs)" = $((n0 + 2)) ] || fail "concurrent runs made $(( $(ndirs) - n0 )) directories, want 2"
[ "$T_FAILS" -eq 0 ] && ok "two runs at once: two results directories"

# 3b. The kexec chain (one guest, A B A B): every step's results, per side.
rc=0
"${ab[@]}" --kexec --boots 2 --out "$t_tmp/kx" > "$t_tmp/kx.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "--kexec: exit $rc ($(tail -n 3 "$t_tmp/kx.out"))"
for d in A-1 B-1 A-2 B-2; do
	[ -s "$t_tmp/kx/$d/results.json" ] || fail "--kexec: no $d/results.json"
done
[ "$(jq -r .meta.provenance.kernel.release "$t_tmp/kx/B-2/results.json" 2>/dev/null)" = 6.1.0-tb-fake-series ] ||
	fail "--kexec: B-2 is not kernel B's"
[ "$(jq '[.cases[].runs[]] | length' "$t_tmp/kx/A.json" 2>/dev/null)" = \
  "$(jq '[.cases[].runs[]] | length * 2' "$FIX/base.json")" ] || fail "--kexec: A.json lacks a boot's runs"
gzip -dc "$t_tmp/kx/initramfs.gz" | cpio -t --quiet 2>/dev/null > "$t_tmp/kx.list"
for f in boot/A.bzImage boot/B.bzImage etc/thpbench/kernels; do
	grep -qx "$f" "$t_tmp/kx.list" || fail "--kexec initramfs lacks $f"
done
# The second archive, after the payload's trailer (cpio -t stops there).
gzip -dc "$t_tmp/kx/initramfs.gz" | grep -aq 'boot/payload\.cpio' ||
	fail "--kexec initramfs lacks boot/payload.cpio"
[ "$T_FAILS" -eq 0 ] && ok "--kexec: one guest, four steps, results per kernel and boot"

# 3c. Ctrl-C during a boot (SIGINT to the process group, as a terminal
# sends it): the guest stops at once, ab.sh exits 130, nothing is left.
# Job control: the run gets its own process group and, unlike a plain
# background command, does not start with SIGINT ignored; env resets it
# too, for a test run that itself started with SIGINT ignored (a shell's
# background job: then no trap or job control can undo it).
set -m
FAKE_HANG=1 env --default-signal=INT "${ab[@]}" --out "$t_tmp/int" > "$t_tmp/int.out" 2>&1 &
apid=$!
set +m
for _ in $(seq 1 100); do
	grep -q 'thpbench-init: label' "$t_tmp/int/console-A-1.log" 2>/dev/null && break
	sleep 0.1
done
interrupt_job "$apid" "ab.sh during a boot"
[ "$int_rc" = 130 ] || fail "ab.sh after SIGINT: exit $int_rc, want 130 ($(tail -n 2 "$t_tmp/int.out"))"
left=$(settled leftovers)
[ -z "$left" ] || fail "processes left after SIGINT: $left"
[ "$T_FAILS" -eq 0 ] && ok "Ctrl-C during a boot: stopped at once, exit 130, nothing left"

# 3d. Ctrl-C during a kernel build (a stand-in tree whose bzImage step
# runs two sleeps, as make runs gcc): make and everything it started
# stop, the build lock is free for the next run, exit 130, and no results
# directory is left (nothing was booted).
fake_kernel_tree "$t_tmp/linux"
fake_series "$t_tmp/fake-series"
hang=$((7000000 + $$))
bdir=$t_tmp/build-int
n0=$(ndirs)
set -m
FAKE_BUILD_HANG=$hang THPBENCH_BUILD_DIR=$bdir env --default-signal=INT \
	"$KP/scripts/ab.sh" "$t_tmp/fake-series" --kernel-src "$t_tmp/linux" \
	--suite "$t_tmp/suite.conf" --accel tcg --name fake-series > "$t_tmp/bint.out" 2>&1 &
apid=$!
set +m
for _ in $(seq 1 200); do
	pgrep -f "sleep $hang" > /dev/null && break
	sleep 0.1
done
pgrep -f "sleep $hang" > /dev/null || fail "the stand-in build never started ($(tail -n 3 "$t_tmp/bint.out"))"
interrupt_job "$apid" "ab.sh during a build"
[ "$int_rc" = 130 ] || fail "SIGINT during a build: exit $int_rc, want 130 ($(tail -n 2 "$t_tmp/bint.out"))"
left=$(settled pgrep -af "sleep $hang")
[ -z "$left" ] || fail "the build kept running after SIGINT: $left"
flock -n "$bdir/build.lock" true || fail "build.lock still held after SIGINT"
[ "$(ndirs)" = "$n0" ] || fail "SIGINT before the first boot left a results directory"
pkill -KILL -f "sleep $hang" 2>/dev/null
[ "$T_FAILS" -eq 0 ] && ok "Ctrl-C during a kernel build: make and its children stop, lock free, no directory"

# 3e. --tree with the author's git tree and an O= directory: A from base,
# B = base + base..new, built in one object directory (B compiles only the
# patched file), the author's tree untouched.
repo=$t_tmp/linux-git
cp -a "$t_tmp/linux" "$repo"
git -C "$repo" init -q
git -C "$repo" add -A
git -C "$repo" -c user.name=t -c user.email=t@l commit -qm base
git -C "$repo" tag base
sed -i 's/^int mremap;/int mremap = 1;/' "$repo/mm/mremap.c"
git -C "$repo" -c user.name=t -c user.email=t@l commit -qam "mm: one line"
rc=0
FAKE_ANSWER=$FIX/base.json THPBENCH_BUILD_DIR=$t_tmp/build-tree \
	"$KP/scripts/ab.sh" --tree "$repo" --base base --new HEAD O="$t_tmp/tree-obj" \
	--suite "$t_tmp/suite.conf" --accel tcg --out "$t_tmp/tree-run" > "$t_tmp/tree.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "--tree O=: exit $rc ($(tail -n 5 "$t_tmp/tree.out"))"
[ "$(sed -n 's/^  CC *//p' "$t_tmp/tree-run/build-B.log" 2>/dev/null)" = mm/mremap.o ] ||
	fail "--tree O=: B compiled '$(sed -n 's/^  CC *//p' "$t_tmp/tree-run/build-B.log" 2>/dev/null | paste -sd' ')', want mm/mremap.o"
[ -f "$t_tmp/tree-obj/mm/mremap.o" ] || fail "--tree O=: no objects in the O= directory"
grep -q 'took: series [0-9]* s, kernel A (built) [0-9]* s, kernel B (built) [0-9]* s, .*total' "$t_tmp/tree.out" ||
	fail "--tree: no timings line ($(grep took: "$t_tmp/tree.out"))"
[ -z "$(git -C "$repo" status --porcelain --ignored)" ] || fail "--tree: the author's tree changed"
grep -q "^       [0-9a-f]* mm: one line$" "$t_tmp/tree-run/cover-letter.txt" ||
	fail "--tree: the cover letter does not name the commit: $(sed -n 3,5p "$t_tmp/tree-run/cover-letter.txt")"
want_cmd="$KP/scripts/ab.sh $(printf '%q ' --tree "$repo" --base base --new HEAD O="$t_tmp/tree-obj" --suite "$t_tmp/suite.conf" --accel tcg)"
[ "$(jq -r .command "$t_tmp/tree-run/ab.json")" = "${want_cmd% }" ] ||
	fail "--tree: the command to reproduce (less this run's --out): $(jq -r .command "$t_tmp/tree-run/ab.json")"
[ "$(jq -r '.patches[0].given' "$t_tmp/tree-run/ab.json")" = "$(git -C "$repo" log -1 --format='%h %s')" ] ||
	fail "--tree: ab.json patches: $(jq -c .patches "$t_tmp/tree-run/ab.json")"
[ "$T_FAILS" -eq 0 ] && ok "--tree O=: B built incrementally in the author's O=, tree untouched"

# 4. Refusals before any boot: exit 2, nothing left in results/.
refuse()
{
	local what=$1 pat=$2 rc=0 n
	shift 2
	n=$(ndirs)
	"$@" > "$t_tmp/r.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$what: exit $rc, want 2"
	grep -q "$pat" "$t_tmp/r.out" || fail "$what: no '$pat' in: $(tail -n 3 "$t_tmp/r.out")"
	[ "$(ndirs)" = "$n" ] || fail "$what: left a results directory"
}
refuse "config without THP" "lacks what the suite needs: CONFIG_TRANSPARENT_HUGEPAGE=y" \
	"$KP/scripts/ab.sh" --kernel-a "$t_tmp/A.img:$t_tmp/config-nothp" \
	--kernel-b "$t_tmp/B.img:$t_tmp/config" --suite "$t_tmp/suite.conf" --accel tcg
refuse "one release twice" "both report '6.1.0-tb-base'" \
	"$KP/scripts/ab.sh" --kernel-a "$t_tmp/A.img" --kernel-b "$t_tmp/B-same.img" \
	--suite "$t_tmp/suite.conf" --accel tcg
refuse "--kexec without KEXEC_FILE" "has no CONFIG_KEXEC_FILE=y" \
	"$KP/scripts/ab.sh" --kernel-a "$t_tmp/A.img:$t_tmp/config-nokexec" \
	--kernel-b "$t_tmp/B.img:$t_tmp/config" --suite "$t_tmp/suite.conf" --accel tcg --kexec
refuse "series 003" "no patches in .*003-split-thp: see its README" \
	"$KP/scripts/ab.sh" "$KP/003-split-thp"
[ "$T_FAILS" -eq 0 ] && ok "refusals exit 2 and leave no results directory"
finish
