#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the A/B guest initramfs.
#
#   mkinitramfs.sh -o FILE --suite SUITE.conf --thpbench BIN --workloads DIR
#                  [--init BIN] [--reps N] [--file SRC:DEST]...
#                  [--kexec SIDE:BZIMAGE:RELEASE]... [--arch x86_64|arm64]
#                  [--perf BIN] [--busybox BIN]
#                  [-- MORE THPBENCH RUN ARGS]
#
# --arch arm64: init is built by aarch64-linux-gnu-gcc, and every binary
# must be an arm64 one (make ARCH=arm64 static).
# The archive (gzip'd newc cpio) holds:
#   /init                   static init (kernel-patches/init/init.c; built
#                           with gcc -static when --init is not given)
#   /bin/thpbench           static harness
#   /workloads/NAME         every executable in DIR (must be static)
#   /etc/thpbench/suite.conf, /etc/thpbench/argv, /etc/thpbench/env
#   /dev /proc /sys /tmp    mount points (/dev/console too when run as root)
#   DEST                    each --file, executable when SRC is (e.g.
#                           /boot/config-RELEASE, which the
#                           harness hashes into env.kernel_config)
#   /boot/SIDE.bzImage      each --kexec kernel, /etc/thpbench/kernels lists
#                           "SIDE RELEASE"; the archive is then the payload
#                           followed by a one-file archive holding the
#                           payload as /boot/payload.cpio, so init can hand
#                           the same initramfs to the next kernel (init.c)
#   /usr/bin/perf + libs    with --perf BIN (thpbench run --profile in the
#                           guest): Debian's perf, which is dynamic, with
#                           every library ldd names and the loader at their
#                           host paths; env gets THPBENCH_PERF=/usr/bin/perf
#                           and THPBENCH_KALLSYMS=/boot (the harness then
#                           reads /boot/System.map-$(uname -r): give them
#                           with --file, the guest has no /proc/kallsyms)
#   /bin/busybox + applets  with --busybox BIN (a static busybox, Debian's
#                           busybox-static): a shell and its tools for a
#                           test driver (thpbench.shell=1, init.c), and
#                           /bin/thpbench-lava-test (kernel-patches/init/
#                           lava-test.sh), the steps of LAVA's test shell
# argv runs "thpbench run /etc/thpbench/suite.conf -o /tmp/out --label
# @LABEL@ --progress lines [-r N] [MORE...]"; init fills @LABEL@ from thpbench.label= on the
# kernel command line, so one archive serves kernels A and B alike.
# Exit 0, or 2 with a message naming the file that is missing or dynamic.
set -euo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"

out='' suite='' thpbench='' wldir='' init='' reps='' arch=x86_64 perf='' busybox=''
extra=()
files=()
kexecs=()

while [ $# -gt 0 ]; do
	case $1 in
	-o) out=${2:?}; shift 2 ;;
	--suite) suite=${2:?}; shift 2 ;;
	--thpbench) thpbench=${2:?}; shift 2 ;;
	--workloads) wldir=${2:?}; shift 2 ;;
	--init) init=${2:?}; shift 2 ;;
	--reps) reps=${2:?}; shift 2 ;;
	--file) files+=("${2:?}"); shift 2 ;;
	--kexec) kexecs+=("${2:?}"); shift 2 ;;
	--arch) arch=${2:?}; shift 2 ;;
	--perf) perf=${2:?}; shift 2 ;;
	--busybox) busybox=${2:?}; shift 2 ;;
	--) shift; extra=("$@"); break ;;
	-h|--help) kp_help ;;
	*) kp_die "unknown argument '$1' (see --help)" ;;
	esac
done
[ -n "$out" ] && [ -n "$suite" ] && [ -n "$thpbench" ] && [ -n "$wldir" ] || kp_usage
[ -f "$suite" ] || kp_die "suite '$suite' not found"
[ -x "$thpbench" ] || kp_die "thpbench binary '$thpbench' not found (build it with 'make static')"
[ -d "$wldir" ] || kp_die "workloads directory '$wldir' not found"
kp_need_cmd cpio gzip readelf
case $arch in
x86_64|x86) cc=gcc machine='X86-64' ;;
arm64|aarch64) cc=aarch64-linux-gnu-gcc machine=AArch64 ;;
*) kp_die "--arch must be x86_64 or arm64" ;;
esac

# A dynamic binary would fail in the guest with a bare ENOENT from execve
# (no loader there); say so here, where it can be fixed.
check_static()
{
	if readelf -l "$1" 2>/dev/null | grep -q 'Requesting program interpreter'; then
		kp_die "'$1' is dynamically linked; the guest has no libc (build with 'make static')"
	fi
	readelf -h "$1" 2>/dev/null | grep -q "Machine:.*$machine" ||
		kp_die "'$1' is not an $arch binary (--arch $arch; build it with 'make static', for arm64 'make ARCH=arm64 static')"
}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,workloads,etc/thpbench,dev,proc,sys,tmp,run}

if [ -z "$init" ]; then
	kp_need_cmd "$cc"
	init=$stage/init.bin
	"$cc" -static -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra \
		-o "$init" "$KP_DIR/init/init.c" ||
		kp_die "cannot build the static init from $KP_DIR/init/init.c (is the static libc, libc6-dev, installed?)"
fi
check_static "$init"
install -m 0755 "$init" "$stage/init"
rm -f "$stage/init.bin"

check_static "$thpbench"
install -m 0755 "$thpbench" "$stage/bin/thpbench"

nwl=0
for w in "$wldir"/*; do
	[ -f "$w" ] && [ -x "$w" ] || continue
	case $w in *.c|*.cc|*.o|*.d|*.a|*.h|*.md) continue ;; esac
	check_static "$w"
	install -m 0755 "$w" "$stage/workloads/$(basename "$w")"
	nwl=$((nwl + 1))
done
[ "$nwl" -gt 0 ] || kp_die "no workload programs in '$wldir' (run 'make static' first)"

# perf is dynamic (Debian builds it so): it goes in with its libraries at
# the paths its loader looks in. The same binary as on the host, not a
# second perf built from the kernel tree: one version to trust.
add_perf()
{
	local lib
	[ "$arch" = x86_64 ] || [ "$arch" = x86 ] ||
		kp_die "--perf: only for the x86_64 guest (an arm64 perf would come from Debian's arm64 linux-perf, not installed here)"
	[ -x "$perf" ] || kp_die "--perf $perf: not an executable (apt-get install linux-perf)"
	kp_need_cmd ldd
	install -D -m 0755 "$perf" "$stage/usr/bin/perf"
	for lib in $(ldd "$perf" | awk '/=> \// { print $3 } /^[[:space:]]*\// { print $1 }'); do
		install -D -m 0755 "$(readlink -f "$lib")" "$stage$lib"
	done
}
[ -z "$perf" ] || add_perf

# Every applet as a link in /bin, as busybox --install would make them:
# LAVA's scripts call sh, cat, sed, find... by name, some by /usr/bin path.
add_busybox()
{
	local a list
	check_static "$busybox"
	# A foreign-architecture busybox cannot list its applets here.
	list=$("$busybox" --list) ||
		kp_die "--busybox $busybox: cannot run it to list its applets"
	install -m 0755 "$busybox" "$stage/bin/busybox"
	mkdir -p "$stage/usr/bin" "$stage/sbin" "$stage/usr/sbin"
	for a in $list; do
		case $a in busybox|*/*|'') continue ;; esac
		[ -e "$stage/bin/$a" ] || ln -s busybox "$stage/bin/$a"
		[ -e "$stage/usr/bin/$a" ] || ln -s ../../bin/busybox "$stage/usr/bin/$a"
	done
	install -m 0755 "$KP_DIR/init/lava-test.sh" "$stage/bin/thpbench-lava-test"
}
[ -z "$busybox" ] || add_busybox

install -m 0644 "$suite" "$stage/etc/thpbench/suite.conf"
for fd in "${files[@]}"; do
	fsrc=${fd%%:*}
	fdst=${fd#*:}
	case $fdst in /*) ;; *) kp_die "--file $fd: DEST must be an absolute path" ;; esac
	[ -f "$fsrc" ] || kp_die "--file $fd: $fsrc not found"
	install -D -m "$([ -x "$fsrc" ] && echo 0755 || echo 0644)" "$fsrc" "$stage$fdst"
done
{
	# --progress lines: the serial console is a terminal, but its output
	# lands in a log and on the host's screen line by line; no \r status
	# line, no escape codes.
	printf '%s\n' /bin/thpbench run /etc/thpbench/suite.conf -o /tmp/out \
		--label @LABEL@ --progress lines
	[ -z "$reps" ] || printf '%s\n' -r "$reps"
	[ ${#extra[@]} -eq 0 ] || printf '%s\n' "${extra[@]}"
} > "$stage/etc/thpbench/argv"
printf '%s\n' PATH=/bin THPBENCH_WORKLOADS=/workloads HOME=/tmp TMPDIR=/tmp \
	> "$stage/etc/thpbench/env"
[ -z "$perf" ] || printf '%s\n' THPBENCH_PERF=/usr/bin/perf THPBENCH_KALLSYMS=/boot \
	>> "$stage/etc/thpbench/env"

# The kernel opens /dev/console before /init runs; init also mounts
# devtmpfs and reopens it, so the node is a convenience when not root.
if [ "$(id -u)" = 0 ]; then
	mknod -m 600 "$stage/dev/console" c 5 1
fi

for kx in "${kexecs[@]}"; do
	side=${kx%%:*}
	rest=${kx#*:}
	img=${rest%%:*}
	rel=${rest#*:}
	case $side in [A-Z]) ;; *) kp_die "--kexec $kx: SIDE must be one capital letter" ;; esac
	[ -f "$img" ] || kp_die "--kexec $kx: $img not found"
	[ -n "$rel" ] && [ "$rel" != "$rest" ] || kp_die "--kexec $kx: no RELEASE"
	install -D -m 0644 "$img" "$stage/boot/$side.bzImage"
	printf '%s %s\n' "$side" "$rel" >> "$stage/etc/thpbench/kernels"
done

newc() { (cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet); }
mkdir -p "$(dirname "$out")"
if [ ${#kexecs[@]} -eq 0 ]; then
	newc "$stage" | gzip -9 > "$out.tmp"
else
	wrap=$(mktemp -d)
	trap 'rm -rf "$stage" "$wrap"' EXIT
	mkdir -p "$wrap/boot"
	newc "$stage" > "$wrap/boot/payload.cpio"
	{ cat "$wrap/boot/payload.cpio"; newc "$wrap"; } | gzip -9 > "$out.tmp"
fi
mv "$out.tmp" "$out"
kp_log "wrote $out ($nwl workloads, $(du -k "$out" | cut -f1) KiB)"
