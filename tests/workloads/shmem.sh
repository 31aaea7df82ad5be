#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/shmem: shmem THPs in a memfd (shmem_enabled=advise, set by
# the harness as a knob), in a tmpfs the harness mounts with
# huge=within_size (mount = tmpfs:...), and 64K mTHPs in a memfd
# (mthp = 64K, mthp_shmem = advise). For the workload's own file: every
# chunk that is a large folio after the first touch (pagemap) was
# allocated then, so thp_file_alloc (2M) or the size's shmem_alloc (64K)
# rose by at least as many (the workload fails otherwise; checked again
# here from its output). With shmem THP off it says "not measurable here"
# (exit 3).

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/shmem
need_bin "$bin"
TB=./harness/thpbench

"$bin" --help > "$tmp/help" && grep -q '^usage: shmem' "$tmp/help" &&
	pass "--help prints usage, exit 0" || fail "--help"
"$bin" --memfd --dir /tmp > /dev/null 2>&1
[ $? -eq 2 ] && pass "--memfd with --dir is a usage error (exit 2)" ||
	fail "--memfd --dir not refused with exit 2"

shm=/sys/kernel/mm/transparent_hugepage/shmem_enabled
if grep -qE '\[(never|deny)\]' "$shm" && [ "$(id -u)" = 0 ]; then
	"$bin" --memfd --size 8M > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 3 ] && grep -q 'not measurable here' "$tmp/err" &&
		pass "shmem_enabled never: exit 3, not measurable here" ||
		{ fail "shmem_enabled never: exit $rc, wanted 3"; show_output; }
fi

[ "$(id -u)" = 0 ] || skip_all "the harness runs (knobs, a tmpfs mount) need root"

cat > "$tmp/shmem.conf" <<CONF
[suite]
name = shmem-test
repetitions = 1
warmup = 0

[case memfd]
workload = $PWD/$bin
args = --memfd --size 16M
set = transparent_hugepage/shmem_enabled=advise
thp = madvise
expect_huge = no

[case tmpfs]
workload = $PWD/$bin
args = --dir {mount} --size 16M
mount = tmpfs:huge=within_size,size=64M
thp = madvise
expect_huge = no

[case memfd64]
workload = $PWD/$bin
args = --memfd --size 16M --chunk 64K
thp = madvise
mthp = 64K
mthp_shmem = advise
expect_huge = no
CONF
$TB run "$tmp/shmem.conf" -o "$tmp/out-run" --wait=300 --progress none \
	> "$tmp/run.log" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "the suite ran (exit 0)" ||
	{ fail "thpbench run exit $rc"; tail -20 "$tmp/run.log"; }

val() { sed -n "s/^$2 //p" "$1" | head -1; }
check_case() {
	log=$(ls "$tmp/out-run/logs/$1"_* 2>/dev/null | head -1)
	if [ -z "$log" ]; then
		fail "$1: no log"; return
	fi
	if grep -q 'not measurable here' "$log"; then
		skip "$1: $(grep -o 'not measurable here.*' "$log" | head -1)"
		return
	fi
	grep -qx ok "$log" && pass "$1: data verified" ||
		{ fail "$1: no 'ok'"; tail -5 "$log"; return; }
	large=$(val "$log" large)
	c=$(val "$log" "$2")
	[ "${large:-0}" -ge 1 ] && pass "$1: $large chunks are large folios" ||
		fail "$1: no large folios"
	[ "${c:-0}" -ge "${large:-1}" ] && pass "$1: $2 rose by $c >= $large" ||
		fail "$1: $2 rose by '$c' < large $large"
}
check_case memfd thp_file_alloc
check_case tmpfs thp_file_alloc
check_case memfd64 shmem_alloc
! grep -q ' /run/thpbench/mnt-' /proc/self/mountinfo &&
	pass "no tmpfs mount of the run left" || fail "a tmpfs mount of the run is left"
finish
