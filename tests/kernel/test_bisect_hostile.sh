#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A bisection's results directory is untrusted input (issue 36): a lab
# keeps it on shared storage and `./run.sh bisect --resume DIR` reads it
# as root. A finished bisection with the stand-ins of bisect_lib.sh is
# copied, edited as a hostile neighbour would, and resumed. Checks:
# - row 1: a run directory named so that bash arithmetic would run a
#   command ($((10#NAME + 1)) evaluates array subscripts): nothing runs,
#   the resume is refused naming it; a stray runs/0004x too, with a clear
#   message instead of bash's "value too great for base";
# - row 2: .lock a symlink to a file: the file keeps its content (the
#   lock is taken on the directory), and a directory already locked is
#   refused;
# - row 4: plan.json's driver.boot set to kexec with a crafted pending
#   (the kernel and initrd from anywhere): no kexec runs, whether the
#   command line says --kexec or not; the driver, the kernel's directory
#   and the initrd must match what the command line and the kernel cache
#   say;
# - row 7: suite.conf a symlink to a root-only file: its bytes are in no
#   file of the directory (no initramfs packs it);
# - row 8: runs/ or initramfs/ a symlink to another directory: nothing is
#   created there;
# - escape codes in a commit subject reach bisect.sh's messages as '?'.
# The resumes need `thpbench bisect verify` (the C trust check).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bisect_lib.sh"

TB=$REPO_DIR/harness/thpbench
common=(--tree "$t_tmp/tree" --good "$(sha_of "$t_tmp/tree" 0)" --bad HEAD
	--suite "$t_tmp/suite.conf" --accel tcg --metric mremap:vmstat.thp_split_pmd)
"$BISECT" "${common[@]}" --out "$t_tmp/base" > "$t_tmp/base.out" 2>&1 ||
	{ fail "the base bisection: $(tail -n 3 "$t_tmp/base.out")"; finish; }
# bisect.sh --resume calls the C trust check first (the bisect-c branch).
"$TB" bisect verify "$t_tmp/base" > "$t_tmp/verify.out" 2>&1 ||
	skip "thpbench bisect verify is missing or refuses a plain bisection: $(head -n 1 "$t_tmp/verify.out")"

# A copy of the base bisection with no run kept (a resume measures again),
# nothing but plan.json, suite.conf and runs/.
fresh()
{
	rm -rf "${t_tmp:?}/$1"
	mkdir -p "$t_tmp/$1/runs"
	cp "$t_tmp/base/plan.json" "$t_tmp/base/suite.conf" "$t_tmp/$1/"
}
# resume NAME [ARGS]: bisect.sh --resume $t_tmp/NAME, in a directory of
# its own ($t_tmp/cwd-NAME), output in $t_tmp/NAME.out, exit status in rc.
resume()
{
	local d=$1
	shift
	mkdir -p "$t_tmp/cwd-$d"
	rc=0
	(cd "$t_tmp/cwd-$d" && "$BISECT" --resume "$t_tmp/$d" "$@") > "$t_tmp/$d.out" 2>&1 || rc=$?
}
says() { grep -q -- "$2" "$t_tmp/$1.out" || fail "$1: no \"$2\" in: $(tail -n 3 "$t_tmp/$1.out")"; }

# issue 36 row 1: a run name that bash arithmetic would execute.
fresh r1
mkdir -p "$t_tmp/r1/runs/9999+BASH_VERSINFO[\$(touch\${IFS}PWNED)]"
resume r1
[ -z "$(find "$t_tmp" -name PWNED)" ] || fail "row 1: a run directory's name ran a command (PWNED)"
[ "$rc" = 2 ] || fail "row 1: exit $rc, want 2"
says r1 "9999+BASH"
# issue 36 row 1: runs/0004x is refused by name, not by a bash error.
fresh r1b
mkdir "$t_tmp/r1b/runs/0004x"
resume r1b
[ "$rc" = 2 ] || fail "row 1: runs/0004x: exit $rc, want 2"
says r1b "0004x"
! grep -q "value too great" "$t_tmp/r1b.out" || fail "row 1: runs/0004x: bash's arithmetic error"
[ "$T_FAILS" -eq 0 ] && ok "row 1: run names that are no run number run nothing and are refused by name"

# issue 36 row 2: .lock a symlink to a file: the file is not truncated.
# (The base bisection but for its last boot: one boot to resume.)
cp -r "$t_tmp/base" "$t_tmp/r2"
rm -rf "$t_tmp/r2/runs/$(ls "$t_tmp/r2/runs" | tail -n 1)" "$t_tmp/r2/.lock"
cp /etc/passwd "$t_tmp/passwd.copy"
ln -s "$t_tmp/passwd.copy" "$t_tmp/r2/.lock"
resume r2
# bisect.sh never opens .lock; thpbench bisect verify refuses the link.
[ "$rc" = 0 ] || [ "$rc" = 2 ] || fail "row 2: exit $rc, want 0 or 2 ($(tail -n 3 "$t_tmp/r2.out"))"
cmp -s /etc/passwd "$t_tmp/passwd.copy" || fail "row 2: the file .lock links to was written"
# The lock is the directory's: a second bisect there is refused.
fresh r2b
exec 7< "$t_tmp/r2b"
flock -n 7 || fail "row 2: cannot lock $t_tmp/r2b"
resume r2b
exec 7<&-
[ "$rc" = 2 ] || fail "row 2: a locked directory: exit $rc, want 2"
says r2b "another bisect is running"
[ ! -d "$t_tmp/r2b/runs/0001" ] || fail "row 2: a locked directory was measured"
[ "$T_FAILS" -eq 0 ] && ok "row 2: .lock links nowhere it could write; the directory itself is the lock"

# issue 36 row 4: plan.json says kexec, pending names a kernel and initrd
# from anywhere. Stand-ins log every kexec and systemctl.
mkdir -p "$t_tmp/sys" "$t_tmp/systemd" "$t_tmp/evilk"
for c in kexec systemctl; do
	printf '#!/bin/bash\necho "%s $*" >> "%s/kexec.log"\n' "$c" "$t_tmp" > "$t_tmp/sys/$c"
done
chmod +x "$t_tmp/sys/"*
fake_bzimage "$t_tmp/evilk/bzImage" 6.6.6-evil
echo 6.6.6-evil > "$t_tmp/evilk/kernelrelease"
echo "secret initrd" > "$t_tmp/shadow.copy"
echo "CONFIG_THIS_MACHINE=y" > "$t_tmp/machine.config"
# kexec_plan NAME CONFIG INITRD: a fresh copy booting by kexec, its boot
# of run 0001 under way with the kernel in $t_tmp/evilk.
kexec_plan()
{
	fresh "$1"
	jq --arg c "$2" --arg i "$3" '.driver.boot = "kexec" | .driver.config = $c | .driver.initrd = $i' \
		"$t_tmp/base/plan.json" > "$t_tmp/$1/plan.json"
	mkdir "$t_tmp/$1/runs/.tmp-0001"
	sha_of "$t_tmp/tree" 0 > "$t_tmp/$1/runs/.tmp-0001/commit"
	printf '%s\n' 0001 "$(sha_of "$t_tmp/tree" 0)" 2 good 6.6.6-evil 0 "$t_tmp/evilk" \
		> "$t_tmp/$1/pending"
}
kexec_resume()
{
	: > "$t_tmp/kexec.log"
	PATH=$t_tmp/sys:$PATH THPBENCH_SYSTEMD_DIR=$t_tmp/systemd resume "$@"
	[ "$rc" = 2 ] || fail "row 4: $1: exit $rc, want 2"
	! grep -q '^kexec' "$t_tmp/kexec.log" || fail "row 4: $1: kexec ran: $(grep '^kexec' "$t_tmp/kexec.log")"
}
# The plan's driver alone, as at the time of the issue (tinyconfig).
kexec_plan r4 tinyconfig "$t_tmp/shadow.copy"
kexec_resume r4
says r4 "--kexec"
# --kexec given, the plan's configuration no machine's.
kexec_plan r4b tinyconfig ""
kexec_resume r4b --kexec
says r4b "config"
# --kexec, a machine configuration, the initrd not the command line's.
kexec_plan r4c "$t_tmp/machine.config" "$t_tmp/shadow.copy"
kexec_resume r4c --kexec
says r4c "initrd"
# All that matches; the kernel of pending is outside the kernel cache.
kexec_plan r4d "$t_tmp/machine.config" ""
kexec_resume r4d --kexec
says r4d "evilk"
# The same kernel through a symlink inside the kernel cache.
kexec_plan r4e "$t_tmp/machine.config" ""
ln -s "$t_tmp/evilk" "$FAKE_KERNELS/evil-link"
sed -i "7s|.*|$FAKE_KERNELS/evil-link|" "$t_tmp/r4e/pending"
kexec_resume r4e --kexec
rm -f "$FAKE_KERNELS/evil-link"
[ "$T_FAILS" -eq 0 ] && ok "row 4: no kexec from a plan or pending: the driver, the initrd and the kernel's directory are checked"

# issue 36 row 7: suite.conf a symlink to a root-only file.
{ cat "$t_tmp/suite.conf"; echo "# SECRET-36-$$"; } > "$t_tmp/shadow.suite"
chmod 0600 "$t_tmp/shadow.suite"
fresh r7
ln -sf "$t_tmp/shadow.suite" "$t_tmp/r7/suite.conf"
resume r7
[ "$rc" = 2 ] || fail "row 7: exit $rc, want 2"
while IFS= read -r -d '' f; do
	{ gzip -dc "$f" 2>/dev/null || cat "$f"; } | grep -aq "SECRET-36-$$" &&
		fail "row 7: ${f#"$t_tmp/"} holds the file suite.conf links to"
done < <(find "$t_tmp/r7" -type f -print0)
[ "$T_FAILS" -eq 0 ] && ok "row 7: a symlinked suite.conf is refused, its target packed nowhere"

# issue 36 row 8: runs/ or initramfs/ a symlink to another directory.
fresh r8
mkdir "$t_tmp/other8"
rmdir "$t_tmp/r8/runs"
ln -s "$t_tmp/other8" "$t_tmp/r8/runs"
resume r8
[ "$rc" = 2 ] || fail "row 8: runs/ a symlink: exit $rc, want 2"
[ -z "$(ls -A "$t_tmp/other8")" ] || fail "row 8: created in the directory runs/ links to: $(ls -A "$t_tmp/other8")"
fresh r8b
mkdir "$t_tmp/other8b"
ln -s "$t_tmp/other8b" "$t_tmp/r8b/initramfs"
resume r8b
[ "$rc" = 2 ] || fail "row 8: initramfs/ a symlink: exit $rc, want 2"
[ -z "$(ls -A "$t_tmp/other8b")" ] || fail "row 8: created in the directory initramfs/ links to: $(ls -A "$t_tmp/other8b")"
[ "$T_FAILS" -eq 0 ] && ok "row 8: symlinked runs/ and initramfs/ are refused, nothing written through them"

# Escape codes in a commit subject (GOOD's, which does not build: the
# bisection stops after its first message): '?' in bisect.sh's messages.
git init -q "$t_tmp/esc"
for i in 0 1; do
	echo "$i" > "$t_tmp/esc/level"
	[ "$i" = 1 ] || echo broken > "$t_tmp/esc/broken"
	git -C "$t_tmp/esc" add -A
	git -C "$t_tmp/esc" -c user.name=T -c user.email=t@example.org commit -q \
		-m "$(printf 'evil \033]0;title\007 \033[31mred\302\233m %s' "$i")"
	rm -f "$t_tmp/esc/broken"
done
"$BISECT" "${common[@]/"$t_tmp/tree"/"$t_tmp/esc"}" --good HEAD~1 --out "$t_tmp/esc-out" > "$t_tmp/esc.out" 2>&1 || true
grep -q "^bisect.sh: .*evil ?]0;title? ?\[31mred?m 0" "$t_tmp/esc.out" ||
	fail "escapes: no sanitised subject in: $(grep -a evil "$t_tmp/esc.out" | head -n 2 | od -c | head -n 4)"
! grep "^bisect.sh: " "$t_tmp/esc.out" | LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]\|\302[\200-\237]')" ||
	fail "escapes: a control character in bisect.sh's messages"
[ "$T_FAILS" -eq 0 ] && ok "escape codes in a commit subject reach bisect.sh's messages as '?'"
finish
