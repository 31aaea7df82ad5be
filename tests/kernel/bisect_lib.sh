# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034
#
# Stand-ins for the bisection tests (test_bisect_flow.sh,
# test_bisect_kexec.sh), sourced after lib.sh: synthetic git histories
# whose file "level" says what each commit's kernel does
# (vmstat.thp_split_pmd per run; roi_usec 1 ms at level 0, 3 ms at 256,
# log-normal noise of FAKE_CV, default 5%); a stand-in build-kernel.sh
# (THPBENCH_BUILD_KERNEL) that fails where the tree has a file "broken"
# and sleeps 30 s while FAKE_SLOW exists; fake-results, which writes what
# `thpbench run` would for a kernel of that level; a stand-in qemu
# (THPBENCH_QEMU) that answers with a real transfer block (init --emit)
# of the suite run at the repetitions in the initramfs; prebuilt static
# binaries (THPBENCH_AB_STATIC). The build directory is $t_tmp
# (THPBENCH_BUILD_DIR): the stand-in's kernels, $t_tmp/kernels, are the
# kernel cache a kexec boot must come from.

for c in jq cpio gzip readelf gcc git setsid pgrep; do
	command -v "$c" >/dev/null || skip "$c not installed"
done
[ -x "$REPO_DIR/harness/thpbench" ] || skip "harness/thpbench not built (make)"
build_init
FIX=$REPO_DIR/tests/fixtures/compare

printf 'int main(void) { return 0; }\n' > "$t_tmp/prog.c"
gcc -static -o "$t_tmp/prog" "$t_tmp/prog.c" 2>/dev/null || skip "no static libc"
mkdir -p "$t_tmp/static/harness" "$t_tmp/static/workloads" "$t_tmp/bin" "$t_tmp/kernels"
cp "$t_tmp/prog" "$t_tmp/static/harness/thpbench"
cp "$t_tmp/prog" "$t_tmp/static/workloads/mremap"
cat > "$t_tmp/suite.conf" <<'EOF'
[suite]
name = t
repetitions = 6
thp = always

[case mremap]
workload = mremap
args = --size 512M
EOF

# A history: GOOD, then 15 commits; level[i] is commit i's level.
make_tree()
{
	local dir=$1 i subject
	shift
	local levels=("$@")
	rm -rf "$dir"
	git init -q "$dir"
	git -C "$dir" config user.name "Test Author"
	git -C "$dir" config user.email "author@example.org"
	for i in $(seq 0 15); do
		echo "${levels[$i]}" > "$dir/level"
		echo "change $i" > "$dir/harmless-$i"
		rm -f "$dir/broken"
		[ "$i" != 7 ] || echo "syntax error" > "$dir/broken"
		git -C "$dir" add -A
		subject="harmless change $i"
		[ "$i" != 0 ] || subject=base
		# Longer than bisect.sh's log line keeps of a subject.
		[ "$i" != 11 ] || subject="$subject, with a subject longer than a log line keeps (60)"
		git -C "$dir" commit -q -m "$subject"
	done
}
# level 0 up to commit 10, 256 from 11 on (the 000 patch as commit 11)
lv_step=(0 0 0 0 0 0 0 0 0 0 0 256 256 256 256 256)
lv_spread=(0 0 0 0 0 0 128 128 128 128 128 256 256 256 256 256)
lv_flat=(0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0)
make_tree "$t_tmp/tree" "${lv_step[@]}"
make_tree "$t_tmp/spread" "${lv_spread[@]}"
make_tree "$t_tmp/flat" "${lv_flat[@]}"
sha_of() { git -C "$1" rev-list --reverse HEAD | sed -n "$(($2 + 1))p"; }

cat > "$t_tmp/bin/fake-build" <<'FAKE'
#!/bin/bash
# Stand-in build-kernel.sh: a "kernel" per commit, its level in a file.
src='' ref=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel-src) src=$2; shift 2 ;;
	--git-ref) ref=$2; shift 2 ;;
	--*) shift 2 ;;
	*) shift ;;
	esac
done
sha=$(git -C "$src" rev-parse "$ref")
[ ! -f "$FAKE_SLOW" ] || sleep "$FAKE_SLEEP"
if git -C "$src" cat-file -e "$sha:broken" 2>/dev/null; then
	echo "mm/util.c:1:2: error: expected ';' before '}' token (stand-in)" >&2
	echo "build-kernel.sh: error: kernel build failed (bzImage)" >&2
	exit 2
fi
out=$FAKE_KERNELS/$sha
mkdir -p "$out"
rel=6.1.0-tb-g${sha:0:12}
head -c 2048 /dev/zero > "$out/bzImage"
printf 'HdrS' | dd of="$out/bzImage" bs=1 seek=514 conv=notrunc 2>/dev/null
echo "$rel" > "$out/kernelrelease"
git -C "$src" show "$sha:level" > "$out/level"
cp "$out/level" "$FAKE_KERNELS/release-$rel"
echo "build-kernel.sh: built ${sha:0:12} in 0 s" >&2
echo "$out"
FAKE
cat > "$t_tmp/bin/fake-results" <<'FAKE'
#!/bin/bash
# fake-results LEVEL REPS LABEL OUT: results.json of a suite run on a
# kernel of LEVEL (seeded from FAKE_SEED and a count of runs so far).
level=$1 reps=$2 label=$3 out=$4
n=$(cat "$FAKE_COUNTER" 2>/dev/null || echo 0)
echo $((n + 1)) > "$FAKE_COUNTER"
awk -v reps="$reps" -v level="$level" -v seed="$((FAKE_SEED + n))" -v cv="${FAKE_CV:-0.05}" 'BEGIN {
	srand(seed)
	for (i = 0; i < reps; i++) {
		z = sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand())
		printf "%d %.3f\n", level, 1000 * (1 + 2 * level / 256) * exp(cv * z)
	}
}' | jq -R 'split(" ") | { status: "ok", exit_code: 0, signal: 0, roi: true, huge: 1,
	metrics: { "vmstat.thp_split_pmd": (.[0] | tonumber), roi_usec: (.[1] | tonumber) } }' |
	jq -s '.' > "$out.runs"
jq --arg lab "$label" --slurpfile runs "$out.runs" '
	.cases = [ .cases[] | select(.name == "mremap") | .label = $lab
		| .runs = ($runs[0] | to_entries | map(.value + { seq: .key })) ]' \
	"$FAKE_BASE" > "$out"
rm -f "$out.runs"
FAKE
cat > "$t_tmp/bin/fake-qemu" <<'FAKE'
#!/bin/bash
# Stand-in qemu: the guest runs the suite at the initramfs' repetitions.
[ "${1:-}" = --version ] && { echo "QEMU emulator version 0.0 (fake)"; exit 0; }
while [ $# -gt 0 ]; do
	case $1 in
	-kernel) kernel=$2 ;;
	-initrd) initrd=$2 ;;
	-append) append=$2 ;;
	esac
	shift
done
label=$(printf '%s\n' $append | sed -n 's/^thpbench.label=//p')
level=$(cat "$(dirname "$kernel")/level")
reps=$(gzip -dc "$initrd" | (cd "$(mktemp -d "$FAKE_KERNELS/cpio.XXXXXX")" && cpio -id --quiet etc/thpbench/argv && awk 'p == "-r" { print } { p = $0 }' etc/thpbench/argv))
printf 'Linux version %s\r\nthpbench-init: label %s\r\n' "$label" "$label"
out=$(mktemp "$FAKE_KERNELS/res.XXXXXX")
"$(dirname "$0")/fake-results" "$level" "$reps" "$label" "$out"
sleep 0.05
"$FAKE_INIT" --emit "$out" 0 | sed 's/$/\r/'
rm -f "$out"
FAKE
chmod +x "$t_tmp/bin/fake-build" "$t_tmp/bin/fake-qemu" "$t_tmp/bin/fake-results"
export THPBENCH_QEMU=$t_tmp/bin/fake-qemu THPBENCH_BUILD_KERNEL=$t_tmp/bin/fake-build \
	FAKE_INIT=$t_tmp/init FAKE_KERNELS=$t_tmp/kernels FAKE_BASE=$FIX/base.json \
	FAKE_COUNTER=$t_tmp/boots FAKE_SEED=7 THPBENCH_AB_STATIC=$t_tmp/static \
	THPBENCH_RESULTS_DIR=$t_tmp/results FAKE_SLOW=$t_tmp/slow FAKE_SLEEP=30.$$ \
	THPBENCH_BUILD_DIR=$t_tmp
BISECT=$KP/scripts/bisect.sh
leftovers() { pgrep -af -- "$t_tmp" | grep -v "^$$ " || true; }
boots() { cat "$t_tmp/boots" 2>/dev/null || echo 0; }
