#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lava-boot.sh and thpbench lava against a stand-in lava-run (this test's
# own: it checks the job it is given and prints a job log made of lines
# from the real encoder, init --emit, as LAVA logs a device's console):
#  - two jobs run at once (both fake dispatchers are alive together), and
#    each job's results.json comes back byte for byte through the log
#    (thpbench lava console, extract-results.sh);
#  - the job has the kernel command line, the label, the prompt and the
#    test step, and no_kvm for --accel tcg; a label with a '+' (a kernel
#    release built from a git tree) still makes a job (its name a token);
#  - a job whose log says "job fail", or whose dispatcher exits non-zero,
#    fails the run (exit 2) naming its log; the other job's files remain;
#  - a --job with a seventh field (a comma in a path) is refused before any
#    job starts;
#  - lava results prints tokens only, whatever the log holds.
. "$(dirname "$0")/lib.sh"

command -v jq > /dev/null || skip "jq not installed"
build_init
tb=$REPO_DIR/harness/thpbench
[ -x "$tb" ] || skip "harness/thpbench not built"
lb=$KP/scripts/lava-boot.sh
fake=$t_tmp/bin
mkdir -p "$fake"
# The stand-in: lava-run --job-id ID --output-dir DIR --device FILE JOB.
# FAKE_FAIL=LABEL: that job's log ends in "job fail"; FAKE_EXIT=LABEL:
# its dispatcher exits 1. Each waits for the other (at most 5 s) through
# a marker file, so the test sees whether they overlapped.
cat > "$fake/lava-run" <<'SH'
#!/bin/bash
job=${@: -1}
label=$(jq -r '.metadata["thpbench.label"]' "$job")
touch "$FAKE_DIR/running-$label"
for _ in $(seq 1 50); do
	[ "$(ls "$FAKE_DIR"/running-* 2>/dev/null | wc -l)" -ge "$FAKE_JOBS" ] && break
	sleep 0.1
done
[ "$(ls "$FAKE_DIR"/running-* | wc -l)" -ge "$FAKE_JOBS" ] && touch "$FAKE_DIR/overlap-$label"
cp "$job" "$FAKE_DIR/job-$label.json"
log() { jq -cn --arg l "$1" --arg m "$2" '{dt: "t", lvl: $l, msg: $m}' >&2; }
log info "start: 0 validate"
log target "Linux version 6.1.0 ($label)"
while IFS= read -r line; do log target "$line"; done < "$FAKE_DIR/block-$label"
jq -cn --arg c "mremap \$(reboot)" '{dt: "t", lvl: "results", msg: {definition: "0_thpbench", case: $c, result: "pass", measurement: "15.5", units: "µs"}}' |
	sed 's/"measurement": *"15.5"/"measurement": ! "15.5"/' >&2
r=pass
[ "${FAKE_FAIL:-}" != "$label" ] || r=fail
jq -cn --arg r "$r" '{dt: "t", lvl: "results", msg: {definition: "lava", case: "job", result: $r}}' >&2
[ "${FAKE_EXIT:-}" != "$label" ] || exit 1
exit 0
SH
chmod +x "$fake/lava-run"
export PATH="$fake:$PATH" FAKE_DIR=$t_tmp/fd FAKE_JOBS=2
mkdir -p "$FAKE_DIR"
for k in A B; do
	printf '{"schema": "thpbench-results/1", "side": "%s", "pad": "%s"}\n' "$k" "$(head -c 3000 /dev/zero | tr '\0' x)" > "$t_tmp/$k.json"
	"$t_tmp/init" --emit "$t_tmp/$k.json" 0 > "$FAKE_DIR/block-$k"
	cp "$FAKE_DIR/block-$k" "$FAKE_DIR/block-$k+"
	fake_bzimage "$t_tmp/bz$k" "6.1.0-$k"
done
printf 'initramfs' > "$t_tmp/initrd.gz"

run_lb()
{
	rm -f "$FAKE_DIR"/running-* "$FAKE_DIR"/overlap-*
	"$lb" --job "$t_tmp/bzA,A,$t_tmp/cA.log,$t_tmp/jA" --job "$t_tmp/bzB,B+,$t_tmp/cB.log,$t_tmp/jB" \
		--initrd "$t_tmp/initrd.gz" --append "numa=fake=2" --timeout 90 --accel tcg \
		> "$t_tmp/lb.out" 2> "$t_tmp/lb.err"
}

if run_lb; then ok "two jobs ran"; else fail "lava-boot.sh failed: $(tail -3 "$t_tmp/lb.err")"; fi
[ -f "$FAKE_DIR/overlap-A" ] && [ -f "$FAKE_DIR/overlap-B+" ] && ok "the two jobs ran at once" ||
	fail "the jobs did not overlap"
for k in A B; do
	"$KP/scripts/extract-results.sh" "$t_tmp/c$k.log" "$t_tmp/got$k.json" > /dev/null 2>&1 &&
		cmp -s "$t_tmp/$k.json" "$t_tmp/got$k.json" && ok "$k: results.json back byte for byte" ||
		fail "$k: results.json did not come back through the job log"
done
j=$FAKE_DIR/job-A.json
[ "$(jq -r '.actions[0].deploy.images.kernel.image_arg' "$j")" = '-kernel {kernel} -append "console=ttyS0,115200 numa=fake=2 thpbench.shell=1 thpbench.label=A"' ] &&
	ok "the job's kernel command line" || fail "kernel image_arg: $(jq -r '.actions[0].deploy.images.kernel.image_arg' "$j")"
[ "$(jq -r '.actions[1].boot.prompts[0]' "$j")" = 'thpbench-lava# ' ] || fail "the boot does not wait for init's prompt"
[ "$(jq -r '.actions[2].test.definitions[0].repository.run.steps[0]' "$j")" = /bin/thpbench-lava-test ] ||
	fail "the test step is not /bin/thpbench-lava-test"
[ "$(jq -r .context.no_kvm "$j")" = true ] || fail "--accel tcg did not set no_kvm"
[ "$(jq -r '.actions[2].test.timeout.minutes' "$j")" = 2 ] || fail "90 s did not round up to 2 minutes"
grep -qx '0_thpbench mremap___reboot_ pass 15.5 __s' "$t_tmp/jA/cases.txt" &&
	ok "lava results: tokens only, the ! tag read" || fail "cases.txt: $(head -3 "$t_tmp/jA/cases.txt" | tr '\n' '|')"

FAKE_FAIL=B+ run_lb && fail "a job whose log says job fail passed" || {
	grep -q "kernel B+ failed.*jB/lava.log" "$t_tmp/lb.err" && ok "job fail: exit 2 naming B's log" ||
		fail "job fail: $(tail -2 "$t_tmp/lb.err")"
	grep -q "kernel A failed" "$t_tmp/lb.err" && fail "A was blamed too"
	[ -s "$t_tmp/cA.log" ] || fail "A's console is gone after B failed"
}
FAKE_EXIT=A run_lb && fail "a dispatcher exiting 1 passed" ||
	{ grep -q "kernel A failed (lava-run exit 1)" "$t_tmp/lb.err" && ok "lava-run exit 1: exit 2 naming A" ||
		fail "lava-run exit 1: $(tail -2 "$t_tmp/lb.err")"; }
rm -f "$FAKE_DIR"/job-*
"$lb" --job "$t_tmp/bzA,A,$t_tmp/c,x,y,A.log,$t_tmp/jA" --initrd "$t_tmp/initrd.gz" > /dev/null 2> "$t_tmp/lb.err" &&
	fail "a comma in a path was taken" ||
	{ grep -q "more than six fields" "$t_tmp/lb.err" && ! ls "$FAKE_DIR"/job-* > /dev/null 2>&1 &&
		ok "a comma in a path: refused, no job started" || fail "comma: $(cat "$t_tmp/lb.err")"; }
finish
