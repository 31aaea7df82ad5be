#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/pagecache: a file on an xfs and on an ext4 image the harness
# makes on a loop device for the case (mount = xfs:SIZE / ext4:SIZE),
# read and mmapped cold (POSIX_FADV_DONTNEED of its own pages) and warm.
# For the workload's own mapping: every 2 MiB smaps says is PMD-mapped
# (FilePmdMapped) was counted by thp_file_mapped (a lower bound) and the
# data reads back; with THP disabled for the process
# (PR_SET_THP_DISABLE) it says "not measurable here" (exit 3).

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/pagecache
need_bin "$bin"
TB=./harness/thpbench

"$bin" --help > "$tmp/help" && grep -q '^usage: pagecache' "$tmp/help" &&
	pass "--help prints usage, exit 0" || fail "--help"
env -u THPBENCH_MOUNT "$bin" > /dev/null 2>&1
[ $? -eq 2 ] && pass "no --dir and no THPBENCH_MOUNT: exit 2" ||
	fail "no --dir not refused with exit 2"

build_no_thp
mkdir "$tmp/dir"
"$tmp/no_thp" "$bin" --dir "$tmp/dir" --size 8M > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q 'not measurable here' "$tmp/err" &&
	pass "THP disabled for the process: exit 3, not measurable here" ||
	{ fail "THP disabled: exit $rc, wanted 3"; show_output; }

if [ "$(id -u)" != 0 ] || ! command -v mkfs.xfs > /dev/null; then
	skip_all "the loop-device filesystems need root and mkfs.xfs (xfsprogs)"
fi

cat > "$tmp/pc.conf" <<CONF
[suite]
name = pagecache-test
repetitions = 1
warmup = 0

[case xfs]
workload = $PWD/$bin
args = --dir {mount} --size 32M
mount = xfs:512M
thp = madvise
expect_huge = no

[case ext4]
workload = $PWD/$bin
args = --dir {mount} --size 32M
mount = ext4:256M
thp = madvise
expect_huge = no
CONF
$TB run "$tmp/pc.conf" -o "$tmp/out-run" --wait=300 --progress none \
	> "$tmp/run.log" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "the suite ran (exit 0)" ||
	{ fail "thpbench run exit $rc"; tail -20 "$tmp/run.log"; }

val() { sed -n "s/^$2 //p" "$1" | head -1; }
for c in xfs ext4; do
	log=$(ls "$tmp/out-run/logs/$c"_* 2>/dev/null | head -1)
	if [ -z "$log" ]; then
		fail "$c: no log"; continue
	fi
	if grep -q 'not measurable here' "$log"; then
		skip "$c: $(grep -o 'not measurable here.*' "$log" | head -1)"
		continue
	fi
	grep -qx ok "$log" && pass "$c: data verified, read and mmap" ||
		{ fail "$c: no 'ok'"; tail -5 "$log"; continue; }
	pmd=$(val "$log" file_pmd_kb)
	m=$(val "$log" thp_file_mapped)
	[ "${pmd:-0}" -ge 2048 ] && pass "$c: $pmd kB PMD-mapped page cache" ||
		fail "$c: file_pmd_kb '$pmd'"
	[ "${m:-0}" -ge $((${pmd:-0} / 2048)) ] &&
		pass "$c: thp_file_mapped rose by $m >= $((pmd / 2048))" ||
		fail "$c: thp_file_mapped '$m' < $((${pmd:-0} / 2048))"
done
losetup -a | grep -q '/img-' && fail "a loop device of the run is left" ||
	pass "no loop device of the run left"
finish
