#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mkinitramfs.sh produces a gzip'd newc archive with /init, the harness,
# every workload, the suite and the argv/env files init reads; it refuses
# a dynamically linked workload (the guest has no libc) with exit 2.
. "$(dirname "$0")/lib.sh"

for c in cpio gzip readelf gcc; do
	command -v "$c" >/dev/null || skip "$c not installed"
done
build_init

printf 'int main(void) { return 0; }\n' > "$t_tmp/prog.c"
gcc -static -o "$t_tmp/prog" "$t_tmp/prog.c" || skip "no static libc"
mkdir -p "$t_tmp/wl"
cp "$t_tmp/prog" "$t_tmp/thpbench"
cp "$t_tmp/prog" "$t_tmp/wl/mremap"
cp "$t_tmp/prog" "$t_tmp/wl/clear_huge_page"
cp "$t_tmp/prog.c" "$t_tmp/wl/mremap.c"	# sources must be left out
printf '[suite]\nname = t\n' > "$t_tmp/suite.conf"

mk="$KP/scripts/mkinitramfs.sh"
if ! "$mk" -o "$t_tmp/out/initrd.gz" --suite "$t_tmp/suite.conf" \
	--thpbench "$t_tmp/thpbench" --workloads "$t_tmp/wl" \
	--init "$t_tmp/init" --reps 3 --file "$t_tmp/suite.conf:/boot/config-6.1.0-tb-base" -- --thp always 2> "$t_tmp/mk.err"; then
	fail "mkinitramfs.sh failed: $(cat "$t_tmp/mk.err")"
	finish
fi

gzip -dc "$t_tmp/out/initrd.gz" | cpio -t --quiet 2>/dev/null | sort > "$t_tmp/list"
for f in init bin/thpbench workloads/mremap workloads/clear_huge_page \
	etc/thpbench/suite.conf etc/thpbench/argv etc/thpbench/env \
	boot/config-6.1.0-tb-base \
	dev proc sys tmp; do
	grep -qx "$f" "$t_tmp/list" || fail "archive lacks $f"
done
grep -qx 'workloads/mremap.c' "$t_tmp/list" && fail "archive holds a workload source file"
if [ "$(id -u)" = 0 ]; then
	grep -qx 'dev/console' "$t_tmp/list" || fail "archive lacks dev/console (built as root)"
fi

mkdir "$t_tmp/x"
(cd "$t_tmp/x" && gzip -dc "$t_tmp/out/initrd.gz" | cpio -id --quiet 2>/dev/null)
cmp -s "$t_tmp/x/init" "$t_tmp/init" || fail "/init is not the init given"
[ -x "$t_tmp/x/init" ] || fail "/init is not executable"
want=$(printf '%s\n' /bin/thpbench run /etc/thpbench/suite.conf -o /tmp/out \
	--label @LABEL@ --progress lines -r 3 --thp always)
[ "$(cat "$t_tmp/x/etc/thpbench/argv")" = "$want" ] ||
	fail "argv is '$(tr '\n' ' ' < "$t_tmp/x/etc/thpbench/argv")'"
grep -qx 'THPBENCH_WORKLOADS=/workloads' "$t_tmp/x/etc/thpbench/env" ||
	fail "env does not point THPBENCH_WORKLOADS at /workloads"
ok "archive holds the expected files"

# --busybox: the binary, a link per applet it lists (in /bin and
# /usr/bin; a listed name with a slash is no applet), and LAVA's step.
printf '#include <stdio.h>\nint main(void) { puts("sh\\ncat\\nbusybox\\n../../etc/evil"); return 0; }\n' > "$t_tmp/bb.c"
gcc -static -o "$t_tmp/busybox" "$t_tmp/bb.c" || skip "no static libc"
rm -f "$t_tmp/wl/mremap.c"
if "$mk" -o "$t_tmp/out/bb.gz" --suite "$t_tmp/suite.conf" --thpbench "$t_tmp/thpbench" \
	--workloads "$t_tmp/wl" --init "$t_tmp/init" --busybox "$t_tmp/busybox" 2> "$t_tmp/bb.err"; then
	mkdir "$t_tmp/bb"
	(cd "$t_tmp/bb" && gzip -dc "$t_tmp/out/bb.gz" | cpio -id --quiet 2>/dev/null)
	cmp -s "$t_tmp/bb/bin/busybox" "$t_tmp/busybox" || fail "--busybox: /bin/busybox is not the one given"
	[ "$(readlink "$t_tmp/bb/bin/sh")" = busybox ] && [ "$(readlink "$t_tmp/bb/usr/bin/cat")" = ../../bin/busybox ] ||
		fail "--busybox: no applet links (bin/sh -> $(readlink "$t_tmp/bb/bin/sh"))"
	[ -e "$t_tmp/bb/etc/evil" ] || [ -L "$t_tmp/bb/etc/evil" ] && fail "--busybox: a listed name with a slash was linked"
	[ -x "$t_tmp/bb/bin/thpbench-lava-test" ] || fail "--busybox: no /bin/thpbench-lava-test"
	ok "--busybox: busybox, its applets, LAVA's step"
else
	fail "mkinitramfs.sh --busybox failed: $(cat "$t_tmp/bb.err")"
fi

# A dynamic workload must be refused, naming the file.
gcc -o "$t_tmp/wl/dyn" "$t_tmp/prog.c"
rc=0
"$mk" -o "$t_tmp/out/bad.gz" --suite "$t_tmp/suite.conf" \
	--thpbench "$t_tmp/thpbench" --workloads "$t_tmp/wl" \
	--init "$t_tmp/init" 2> "$t_tmp/bad.err" || rc=$?
[ "$rc" = 2 ] || fail "dynamic workload: exit $rc, want 2"
grep -q "wl/dyn' is dynamically linked" "$t_tmp/bad.err" ||
	fail "dynamic workload: message was '$(cat "$t_tmp/bad.err")'"
[ -e "$t_tmp/out/bad.gz" ] && fail "an archive was written despite the error"
ok "dynamic workload refused"
finish
