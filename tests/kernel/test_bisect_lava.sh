#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# ./run.sh bisect --lava --devices N without building or booting a
# kernel: bisect_lib.sh's synthetic history (16 commits, the change at
# commit 11, commit 7 does not build), its stand-in build, and a
# stand-in lava-run that answers each job with the suite's results for
# the job's kernel at the repetitions in the job's initramfs (a real
# transfer block, init --emit, in a LAVA log). Checks:
#  - with 1, 2 and 3 devices the counter names commit 11 (found, exit 0)
#    and commit 7, where tried, is skipped;
#  - 2 devices take fewer LAVA rounds than 1, 3 no more than 2 (GOOD and
#    BAD boot together, then N step commits a round), and a round ran 3
#    jobs at once (the numbers printed);
#  - each run is a job of its own: results.json, lava/job.yaml naming
#    the commit's kernel; nothing left running.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect_lib.sh"

K=$(sha_of "$t_tmp/tree" 11)
BROKEN=$(sha_of "$t_tmp/tree" 7)
# A static stand-in busybox (mkinitramfs.sh --busybox lists its applets).
printf '#include <stdio.h>\nint main(void) { puts("sh"); return 0; }\n' > "$t_tmp/bb.c"
gcc -static -o "$t_tmp/bin/busybox" "$t_tmp/bb.c" || skip "no static libc"
cat > "$t_tmp/bin/lava-run" <<'FAKE'
#!/bin/bash
# Stand-in lava-run: the job's kernel and initramfs decide the results.
job=${@: -1}
kernel=$(jq -r '.actions[0].deploy.images.kernel.url' "$job" | sed 's#^file://##')
initrd=$(jq -r '.actions[0].deploy.images.ramdisk.url' "$job" | sed 's#^file://##')
label=$(jq -r '.metadata["thpbench.label"]' "$job")
echo "$(date +%s%N) $label" >> "$FAKE_KERNELS/lava-starts"
level=$(cat "$(dirname "$kernel")/level")
reps=$(gzip -dc "$initrd" | (cd "$(mktemp -d "$FAKE_KERNELS/cpio.XXXXXX")" && cpio -id --quiet etc/thpbench/argv && awk 'p == "-r" { print } { p = $0 }' etc/thpbench/argv))
out=$(mktemp "$FAKE_KERNELS/res.XXXXXX")
"$FAKE_BIN/fake-results" "$level" "$reps" "$label" "$out"
log() { jq -cn --arg l "$1" --arg m "$2" '{dt: "t", lvl: $l, msg: $m}' >&2; }
log target "Linux version $label"
"$FAKE_INIT" --emit "$out" 0 | while IFS= read -r line; do log target "$line"; done
rm -f "$out"
sleep 0.3
jq -cn '{dt: "t", lvl: "results", msg: {definition: "lava", case: "job", result: "pass"}}' >&2
FAKE
chmod +x "$t_tmp/bin/lava-run"
export PATH="$t_tmp/bin:$PATH" FAKE_BIN=$t_tmp/bin

common=(--tree "$t_tmp/tree" --good "$(sha_of "$t_tmp/tree" 0)" --bad HEAD
	--suite "$t_tmp/suite.conf" --metric mremap:vmstat.thp_split_pmd --lava)
for d in 1 2 3; do
	rm -f "$FAKE_KERNELS/lava-starts"
	rc=0
	"$BISECT" "${common[@]}" --devices "$d" --out "$t_tmp/l$d" > "$t_tmp/l$d.out" 2>&1 || rc=$?
	r=$t_tmp/l$d/report.json
	[ "$rc" = 0 ] && [ "$(jq -r .outcome "$r" 2>/dev/null)" = found ] &&
		[ "$(jq -r .first_bad.sha "$r")" = "$K" ] &&
		ok "$d device(s): commit 11 found" ||
		fail "$d device(s): exit $rc, $(jq -r '.outcome, .first_bad.sha' "$r" 2>/dev/null | tr '\n' ' ') ($(tail -n 3 "$t_tmp/l$d.out" | tr '\n' ' '))"
	# Commit 7, where the search tried it, is a skip (not every N does).
	for f in $(grep -lx "$BROKEN" "$t_tmp/l$d"/runs/*/commit 2>/dev/null); do
		[ -f "$(dirname "$f")/skip" ] || fail "$d device(s): commit 7 ran ($(dirname "$f"))"
	done
	eval "rounds_$d=$(sed -n 's/.*LAVA: \([0-9]*\) rounds.*/\1/p' "$t_tmp/l$d.out")"
	n=$(ls -d "$t_tmp/l$d"/runs/0* | wc -l)
	nj=$(ls "$t_tmp/l$d"/runs/0*/lava/job.yaml 2>/dev/null | wc -l)
	ns=$(ls "$t_tmp/l$d"/runs/0*/skip 2>/dev/null | wc -l)
	[ "$nj" = $((n - ns)) ] || fail "$d device(s): $n runs, $ns skips, $nj LAVA jobs"
done
echo "test_bisect_lava: LAVA rounds: ${rounds_1:-?} with 1 device, ${rounds_2:-?} with 2, ${rounds_3:-?} with 3"
[ -n "${rounds_1:-}" ] && [ -n "${rounds_2:-}" ] && [ -n "${rounds_3:-}" ] &&
	[ "$rounds_2" -lt "$rounds_1" ] && [ "$rounds_3" -le "$rounds_2" ] &&
	ok "fewer rounds with more devices: $rounds_1, $rounds_2, $rounds_3" ||
	fail "rounds: ${rounds_1:-?} with 1, ${rounds_2:-?} with 2, ${rounds_3:-?} with 3"
grep -q "booting 3 kernels at once" "$t_tmp/l3.out" && ok "a round booted 3 kernels at once" ||
	fail "no round of 3 jobs at once"
[ -z "$(settled leftovers)" ] || fail "processes left: $(leftovers)"
finish
