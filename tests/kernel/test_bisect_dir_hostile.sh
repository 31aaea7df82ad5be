#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A bisection's directory is untrusted input (issue 36): a finished
# bisection made with the project's stand-ins (bisect_lib.sh, a flat
# history: "nothing to bisect" after the references), then copied and
# edited as a hostile lab neighbour would, and read back by the C side:
# - issue 36 row 1/8 (trust check): `thpbench bisect verify DIR` is
#   silent, exit 0, on the real one; exit 2 naming the path for a run
#   named 0004x, a symlinked runs/ or initramfs/, a group-writable DIR,
#   a symlinked file; `bisect next` refuses the same (runs -> OTHERDIR:
#   nothing read or written there);
# - issue 36 row 3: report.txt.tmp and git-bisect.log.tmp as symlinks:
#   `bisect report` leaves their targets untouched; a symlinked plots/
#   is refused and nothing lands where it points;
# - issue 36 row 5: a commit listed twice in plan.json: `bisect next`
#   refuses (exit 2) instead of answering the same commit again;
#   `bisect driver DIR --boot qemu` refuses a plan that says kexec;
# - issue 36 row 6: a FIFO as runs/N/results.json, as commit, as
#   plan.json: `bisect next` exits 2 within seconds (timeout 10);
#   `thpbench compare FIFO`, `run FIFO` and `merge FIFO` too;
# - issue 36 row 7 (C part): a results.json whose first token is a
#   secret: the parse error names file, line and column, not the token;
#   `run -o` with a symlinked results.jsonl says so, not "(is the
#   results file system full?)".
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/bisect_lib.sh"

tb=$REPO_DIR/harness/thpbench
"$BISECT" --tree "$t_tmp/flat" --good "$(sha_of "$t_tmp/flat" 0)" --bad HEAD \
	--suite "$t_tmp/suite.conf" --accel tcg --metric mremap:vmstat.thp_split_pmd \
	--out "$t_tmp/b0" > "$t_tmp/b0.out" 2>&1
rc=$?
[ "$rc" = 3 ] || { fail "flat bisection: exit $rc, want 3 ($(tail -n 3 "$t_tmp/b0.out"))"; finish; }
n=0
fresh() { n=$((n + 1)); d=$t_tmp/c$n; cp -a "$t_tmp/b0" "$d"; }
# $1 what, then the command: exit 2 wanted, within 10 s, stderr naming $want.
want_refusal()
{
	local what=$1 rc
	shift
	timeout 10 "$@" > "$t_tmp/out" 2> "$t_tmp/err"
	rc=$?
	[ "$rc" = 2 ] || { fail "$what: exit $rc, want 2 (124: it blocked) ($(head -n 3 "$t_tmp/err"))"; return 1; }
	[ -z "${want:-}" ] || grep -qF -- "$want" "$t_tmp/err" ||
		{ fail "$what: the message does not name $want: $(head -n 3 "$t_tmp/err")"; return 1; }
	return 0
}

# issue 36 row 1 and 8: the trust check, `bisect verify`.
out=$("$tb" bisect verify "$t_tmp/b0" 2>&1) && [ -z "$out" ] ||
	fail "bisect verify of a real bisection: exit $?, output '$out'"
fresh; mkdir "$d/runs/0004x"
want=runs/0004x want_refusal "a run named 0004x" "$tb" bisect verify "$d"
fresh; mv "$d/runs" "$t_tmp/other$n"; ln -s "$t_tmp/other$n" "$d/runs"
want=runs want_refusal "runs -> OTHERDIR (verify)" "$tb" bisect verify "$d"
want=runs want_refusal "runs -> OTHERDIR (next)" "$tb" bisect next "$d"
fresh; mkdir -p "$t_tmp/elsewhere$n"; rm -rf "$d/initramfs"; ln -s "$t_tmp/elsewhere$n" "$d/initramfs"
want=initramfs want_refusal "initramfs -> OTHERDIR" "$tb" bisect verify "$d"
fresh; chmod g+w "$d"
want=$d want_refusal "a group-writable directory" "$tb" bisect verify "$d"
fresh; echo secret > "$t_tmp/secret$n"; rm "$d/runs/0001/commit"; ln -s "$t_tmp/secret$n" "$d/runs/0001/commit"
want=runs/0001/commit want_refusal "a symlinked commit file" "$tb" bisect verify "$d"
[ "$T_FAILS" -eq 0 ] && ok "issue 36 row 1/8: bisect verify refuses what it must, passes the real one"

# issue 36 row 3: no write through a link.
fresh
echo keep > "$t_tmp/target$n"
ln -s "$t_tmp/target$n" "$d/report.txt.tmp"
ln -s "$t_tmp/target$n" "$d/git-bisect.log.tmp"
want=".tmp is a symbolic link" want_refusal "report.txt.tmp -> FILE in DIR" "$tb" bisect report --no-plot "$d"
[ "$(cat "$t_tmp/target$n")" = keep ] || fail "report.txt.tmp -> FILE: the file was written through the link"
# Into -o OUTDIR, which the trust check of DIR does not walk: each file
# is made afresh and renamed, the links replaced, not written through.
o=$t_tmp/out$n; mkdir "$o"
ln -s "$t_tmp/target$n" "$o/report.txt.tmp"
ln -s "$t_tmp/target$n" "$o/git-bisect.log.tmp"
ln -s "$t_tmp/target$n" "$o/report.json"
"$tb" bisect report --no-plot -o "$o" "$t_tmp/b0" > /dev/null 2> "$t_tmp/err"
rc=$?
[ "$rc" = 3 ] || fail "report -o OUTDIR with planted links: exit $rc, want 3 ($(head -n 3 "$t_tmp/err"))"
[ "$(cat "$t_tmp/target$n")" = keep ] || fail "OUTDIR/report.txt.tmp -> FILE: the file was written through the link"
for f in report.txt git-bisect.log report.json; do
	[ -f "$o/$f" ] && [ ! -L "$o/$f" ] || fail "report -o: $f is not a new regular file ($(ls -la "$o"))"
done
[ ! -e "$o/report.txt.tmp" ] && [ ! -L "$o/report.txt.tmp" ] || fail "report -o: report.txt.tmp left behind"
fresh; mkdir -p "$t_tmp/plots$n"; rm -rf "$d/plots"; ln -s "$t_tmp/plots$n" "$d/plots"
want=plots want_refusal "plots -> OTHERDIR" "$tb" bisect report "$d"
[ -z "$(ls -A "$t_tmp/plots$n")" ] || fail "plots -> OTHERDIR: files written there: $(ls "$t_tmp/plots$n")"
[ "$T_FAILS" -eq 0 ] && ok "issue 36 row 3: no file written through a planted link"

# issue 36 row 5: a commit listed twice.
fresh
jq '.commits[2] = .commits[1]' "$d/plan.json" > "$t_tmp/p.json" && cat "$t_tmp/p.json" > "$d/plan.json"
want="listed twice" want_refusal "a duplicate commit" "$tb" bisect next "$d"
fresh
jq '.driver.boot = "kexec"' "$d/plan.json" > "$t_tmp/p.json" && cat "$t_tmp/p.json" > "$d/plan.json"
want=kexec want_refusal "boot kexec in plan.json, qemu on the command line" "$tb" bisect driver "$d" --boot qemu
[ "$T_FAILS" -eq 0 ] && ok "issue 36 row 5: plan.json's commits unique, the boot from the command line"

# issue 36 row 6: a FIFO never blocks a reader.
fresh; rm "$d/runs/0001/results.json"; mkfifo "$d/runs/0001/results.json"
want=runs/0001/results.json want_refusal "FIFO as results.json (next)" "$tb" bisect next "$d"
want=runs/0001/results.json want_refusal "FIFO as results.json (report)" "$tb" bisect report "$d"
fresh; rm "$d/runs/0002/commit"; mkfifo "$d/runs/0002/commit"
want=runs/0002/commit want_refusal "FIFO as commit" "$tb" bisect next "$d"
fresh; rm "$d/plan.json"; mkfifo "$d/plan.json"
want=plan.json want_refusal "FIFO as plan.json" "$tb" bisect driver "$d"
mkfifo "$t_tmp/fifo"
want=$t_tmp/fifo want_refusal "compare FIFO" "$tb" compare "$t_tmp/fifo" "$t_tmp/b0/runs/0001/results.json"
want=$t_tmp/fifo want_refusal "run FIFO" "$tb" run "$t_tmp/fifo"
want=$t_tmp/fifo want_refusal "merge FIFO" "$tb" merge -o "$t_tmp/merged.json" "$t_tmp/fifo" "$t_tmp/b0/runs/0001/results.json"
[ "$T_FAILS" -eq 0 ] && ok "issue 36 row 6: FIFOs refused at once"

# issue 36 row 7 (C part): a parse error does not print the file.
fresh; printf 'SECRETTOKEN42:19000:0:99999:7:::\n' > "$d/runs/0001/results.json"
want=runs/0001/results.json want_refusal "results.json not JSON" "$tb" bisect next "$d"
! grep -q SECRETTOKEN "$t_tmp/err" || fail "the parse error prints the file's content: $(cat "$t_tmp/err")"
printf '{"schema": SECRETTOKEN42}\n' > "$t_tmp/secret.json"
"$tb" compare "$t_tmp/secret.json" "$t_tmp/b0/runs/0001/results.json" > /dev/null 2> "$t_tmp/err"
! grep -q SECRETTOKEN "$t_tmp/err" || fail "compare's parse error prints the file's content: $(cat "$t_tmp/err")"
grep -q 'secret.json:1:' "$t_tmp/err" || fail "compare's parse error names no file and line: $(cat "$t_tmp/err")"
# The small item beside it: a planted results.jsonl link is said as one
# (--wait: another run of the harness on this machine may hold the lock).
mkdir -p "$t_tmp/runout"; ln -s "$t_tmp/jsonl-target" "$t_tmp/runout/results.jsonl"
timeout 60 "$tb" run -r 1 --warmup 0 --wait=50 -o "$t_tmp/runout" -- /bin/true > /dev/null 2> "$t_tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q "refusing to follow it" "$t_tmp/err" && ! grep -q "file system full" "$t_tmp/err" &&
	[ ! -e "$t_tmp/jsonl-target" ] || fail "run -o with results.jsonl -> FILE: exit $rc, $(cat "$t_tmp/err")"
[ "$T_FAILS" -eq 0 ] && ok "issue 36 row 7: parse errors name the place, not the content"
finish
