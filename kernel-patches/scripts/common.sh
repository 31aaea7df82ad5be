# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034
#
# Shared helpers for the kernel A/B scripts: messages, the build/cache
# location and the content hashes that key the kernel cache. Sourced, never
# run. Callers set KP_DIR (kernel-patches/) before sourcing.

KP_DIR=${KP_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
REPO_DIR=$(cd "$KP_DIR/.." && pwd)
# Big outputs (kernel trees, objects, images) stay out of the tracked tree:
# /build/ is git-ignored.
AB_BUILD_DIR=${THPBENCH_BUILD_DIR:-$REPO_DIR/build/ab}
DEFAULT_KERNEL_SRC=/usr/src/linux-source-6.1.tar.xz
# Bump when the build recipe changes in a way that changes the image, so
# cached kernels built the old way are not reused.
BUILD_RECIPE=3

kp_prog=$(basename "$0")

# Text from outside made safe for a terminal: a commit subject, a kernel
# id from a history database, a name found in a results directory. C0
# and C1 controls and DEL become '?', so an escape code can neither
# retitle or recolour the terminal nor a newline forge a line of output;
# other UTF-8 passes as it is.
kp_printable()
{
	local LC_ALL=C s=$*
	s=${s//$'\xc2'[$'\x80'-$'\x9f']/?}
	s=${s//[[:cntrl:]]/?}
	printf '%s' "$s"
}
# Every message goes through kp_printable: whatever it quotes.
kp_log() { printf '%s: %s\n' "$kp_prog" "$(kp_printable "$*")" >&2; }
kp_die() { printf '%s: error: %s\n' "$kp_prog" "$(kp_printable "$*")" >&2; exit 2; }

kp_need_cmd()
{
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			kp_die "'$c' not found; run kernel-patches/scripts/install-deps.sh"
	done
}

kp_sha256_stdin() { sha256sum | cut -c1-64; }

# Identity of a kernel source: the tarball's bytes, a git tree's commit and
# uncommitted diff, or (plain directory) every file's name, size and mtime.
kp_tree_id()
{
	local src=$1
	if [ -f "$src" ]; then
		printf 'tar:%s\n' "$(kp_sha256_stdin < "$src")"
	elif [ -d "$src/.git" ] || [ -f "$src/.git" ]; then
		printf 'git:%s:%s\n' "$(git -C "$src" rev-parse HEAD)" \
			"$(git -C "$src" diff HEAD | kp_sha256_stdin)"
	elif [ -d "$src" ]; then
		printf 'dir:%s\n' "$(cd "$src" && find . -type f -printf '%P %s %T@\n' |
			LC_ALL=C sort | kp_sha256_stdin)"
	else
		kp_die "kernel source '$src' is neither a tarball nor a directory (--kernel-src)"
	fi
}

# A series is untrusted input. Its bounds (raise them for a bigger series):
# patches per series, and megabytes of an mbox or of a directory's patches.
SERIES_MAX_PATCHES=${THPBENCH_SERIES_MAX_PATCHES:-500}
SERIES_MAX_MB=${THPBENCH_SERIES_MAX_MB:-64}

# The patches of a series, in the order they apply, one per line. Only
# after kp_series_check: a name with a newline would read as two.
kp_series_patches()
{
	local dir=$1
	find "$dir" -maxdepth 1 -type f -name '*.patch' | LC_ALL=C sort
}

# Refuse a series of more than SERIES_MAX_PATCHES patches or SERIES_MAX_MB
# megabytes: WHAT names the input for the message (an mbox, a git range;
# a directory's are checked by kp_series_check).
kp_series_check_size()
{
	local what=$1 npatch=$2 bytes=$3
	[ "$npatch" -le "$SERIES_MAX_PATCHES" ] ||
		kp_die "$what holds $npatch patches, more than the limit of $SERIES_MAX_PATCHES (THPBENCH_SERIES_MAX_PATCHES raises it)"
	[ "$bytes" -le $((SERIES_MAX_MB * 1048576)) ] ||
		kp_die "$what is $((bytes / 1048576)) MiB, more than the limit of $SERIES_MAX_MB MiB (THPBENCH_SERIES_MAX_MB raises it)"
}

# harness/thpbench, built first when it is not: the binary reads and
# writes the files (a series' headers, a bisection's plan, provenance),
# bash sequences make, qemu and kexec.
KP_TB=$REPO_DIR/harness/thpbench
kp_tb()
{
	kp_tb_built
	"$KP_TB" "$@"
}
# Built once, before anything calls kp_tb from several jobs at once (two
# makes writing one archive corrupt it).
kp_tb_built()
{
	[ -x "$KP_TB" ] || make -s -C "$REPO_DIR" harness/thpbench >&2 ||
		kp_die "cannot build harness/thpbench (make)"
}
# What the LAVA boot backend needs, checked before any kernel is built:
# busybox for the initramfs, and lava-run, or the lab file $1 that
# lava-lab.sh wrote (lava-boot.sh --lab reads it).
kp_lava_ready()
{
	kp_need_cmd busybox
	if [ -z "$1" ]; then
		kp_need_cmd lava-run
	else
		[ -f "$1" ] || kp_die "--lava-lab $1: not found (lava-lab.sh start writes it)"
	fi
}

# Check a series directory as untrusted input (names, size, every path
# and mode of every patch: thpbench series check) before anything is
# applied, and print the files it touches, relative to the tree, one per
# line, sorted. Dies on the first patch that fails, naming it and the line.
kp_series_check()
{
	kp_tb series check "$1" || exit 2
}

# `git patch-id --stable` of one patch file: the same change gives the same
# id whether it came from a directory, an mbox or a git range (commit
# message, headers, line numbers and whitespace do not count).
kp_patch_id()
{
	git patch-id --stable < "$1" | cut -d' ' -f1
}

# What the build sees of one patch: the added and removed lines of its
# diff (from the first "diff --git", or a "--- " line followed by "+++ "),
# up to the mail signature ("-- "). The message, bullets in it, the notes
# after "---" ("Changes in v2: ..."), the diffstat and the hunks' line
# numbers do not count; a whitespace change does (patch-id ignores it).
kp_patch_body()
{
	awk 'd && /^-- $/ { exit }
	     /^diff --git / { d = 1 }
	     !d && /^\+\+\+ / && prev ~ /^--- / { d = 1; print prev }
	     { prev = $0 }
	     d && /^(\+|-)/ { print }' "$1"
}

# Key of a series' content: patch-ids and bodies, in order.
kp_series_hash()
{
	local dir=$1 p
	kp_series_patches "$dir" | while read -r p; do
		printf '%s %s\n' "$(kp_patch_id "$p")" "$(kp_patch_body "$p" | kp_sha256_stdin)"
	done | kp_sha256_stdin
}

# A series name as a LOCALVERSION suffix: [a-z0-9.-], at most 40 chars
# (uname -r holds 64), so 000-a and 000-b get different releases.
kp_release_slug()
{
	printf '%s' "$1" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9.-' '-' |
		sed 's/--*/-/g; s/^-//; s/-$//' | cut -c1-40 | sed 's/-$//'
}

# Options of a config fragment ("CONFIG_X=y" lines) missing from a .config:
# printed one per line, nothing when all are there.
kp_config_missing()
{
	local frag=$1 config=$2 line
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		grep -qxF "$line" "$config" || printf '%s\n' "$line"
	done < "$frag"
}

# What the guest suite needs of any kernel, ours or prebuilt: THP and
# hugetlb, madvise, the vmstat counters, perf events, an initramfs, the
# serial console.
KERNEL_NEEDS="CONFIG_TRANSPARENT_HUGEPAGE=y CONFIG_HUGETLBFS=y CONFIG_ADVISE_SYSCALLS=y
CONFIG_VM_EVENT_COUNTERS=y CONFIG_PERF_EVENTS=y CONFIG_BLK_DEV_INITRD=y CONFIG_RD_GZIP=y
CONFIG_DEVTMPFS=y CONFIG_PROC_FS=y CONFIG_SYSFS=y CONFIG_SERIAL_8250_CONSOLE=y"
# The same for an arch (x86_64, arm64): arm64's console is the PL011.
kp_kernel_needs()
{
	case $1 in
	arm64) printf '%s\n' "${KERNEL_NEEDS/CONFIG_SERIAL_8250_CONSOLE=y/CONFIG_SERIAL_AMBA_PL011_CONSOLE=y}" ;;
	*) printf '%s\n' "$KERNEL_NEEDS" ;;
	esac
}

# The release (uname -r) a bzImage will report: the x86 boot header keeps
# a pointer to the version string at 0x20e (relative to 0x200).
kp_bzimage_release()
{
	local img=$1 off
	[ "$(dd if="$img" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || return 1
	off=$(od -An -tu2 -j 526 -N 2 "$img" | tr -d ' ')
	[ -n "$off" ] && [ "$off" -gt 0 ] || return 1
	dd if="$img" bs=1 skip=$((off + 512)) count=128 2>/dev/null |
		tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}

# Create a new directory BASE, or BASE-2, BASE-3 ... when taken (mkdir is
# atomic: two runs started in the same second get two directories).
kp_unique_dir()
{
	local base=$1 d=$1 n=1
	mkdir -p "$(dirname "$base")"
	until mkdir "$d" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -lt 1000 ] || kp_die "cannot create a directory named $base-N"
		d=$base-$n
	done
	printf '%s\n' "$d"
}

# ---- Untrusted directories (a bisection's results directory, issue 36):
# what is read or written there must be what it says, not a link that
# takes the read or the write elsewhere. WHAT names the knob for the
# message.
# PATH is a regular file, not a symlink (nor a FIFO that would block).
kp_plain_file()
{
	[ -f "$1" ] && [ ! -L "$1" ] ||
		kp_die "$1 is not a regular file (a symlink, a FIFO or missing): ${2:-refused}"
}
# PATH is a directory, not a symlink to one.
kp_plain_dir()
{
	[ -d "$1" ] && [ ! -L "$1" ] ||
		kp_die "$1 is not a plain directory (a symlink or missing): ${2:-refused}"
}
# PATH, no symlink itself, resolves to a directory or file directly
# inside directory ROOT (ROOT resolved too; ../ and links in between
# resolve first): prints the resolved path; else says why and fails (in
# $(...): x=$(kp_inside P R WHAT) || exit 2).
kp_inside()
{
	local path=$1 root=$2 what=$3 r p
	r=$(realpath -e -- "$root" 2>/dev/null) || kp_die "$what: $root does not exist"
	[ ! -L "$path" ] && p=$(realpath -e -- "$path" 2>/dev/null) && [ "$(dirname "$p")" = "$r" ] ||
		kp_die "$what: $path is not in $r (only its own entries, no symlink)"
	printf '%s\n' "$p"
}


# Hold the lock FILE on fd 9 for the rest of the calling (sub)shell,
# saying so when it has to wait.
kp_take_lock()
{
	local file=$1 what=$2
	mkdir -p "$(dirname "$file")"
	exec 9>"$file"
	if ! flock -n 9; then
		kp_log "waiting for $what (lock $file)"
		flock 9
	fi
}

# The calling script's usage: its header comment from line 4 to the first
# line that is not a comment. kp_help (for -h, --help): on stdout, exit 0;
# kp_usage (a usage error): on stderr, exit 2.
kp_header() { awk 'NR < 4 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; }
kp_help() { kp_header; exit 0; }
# A flow's one SUITE argument (guest, coverage, lava): the word given, once;
# after the options, that there is one and it is a file.
kp_one_suite() { [ -z "$suite" ] || kp_die "one suite at a time ('$suite' and '$1')"; suite=$1; }
kp_suite_given() { [ -n "$suite" ] || kp_usage; [ -f "$suite" ] || kp_die "suite '$suite' not found"; }
kp_usage() { kp_header >&2; exit 2; }

# Does the kernel tree DIR define Kconfig symbol SYM (without CONFIG_)?
kp_kconfig_defines()
{
	grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config[[:space:]]+$2[[:space:]]*\$" "$1"
}

# N seconds as "42 s" or "6 min 13 s".
kp_secs()
{
	if [ "$1" -lt 60 ]; then
		printf '%d s' "$1"
	else
		printf '%d min %d s' $(($1 / 60)) $(($1 % 60))
	fi
}

# ---- What the flow scripts (ab.sh, bisect.sh) share: their steps as
# process groups, the static guest harness, the accelerator probe.

# A step's process group ($child while it runs), ended on every way out
# by the caller's traps (end_group "$child").
child=''
# End process group $1: TERM, up to 5 s to go, then KILL.
kp_end_group()
{
	local pg=$1 n=0
	kill -0 -- "-$pg" 2>/dev/null || return 0
	kill -TERM -- "-$pg" 2>/dev/null || true
	while kill -0 -- "-$pg" 2>/dev/null && [ "$n" -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -KILL -- "-$pg" 2>/dev/null || true
}
# Run a step in a process group of its own and wait for it. A signal is
# acted on at once (bash runs traps only between commands, and `wait` is
# one it can interrupt), and the whole group is ended on every way out:
# make with its gcc and ld, qemu with the console follower. (Started with
# `&` by a shell without job control, a step would ignore SIGINT, and a
# TERM to its pid alone would leave make compiling and holding the build
# lock.) setsid does not fork here: an asynchronous command of a shell
# without job control is never a group leader, so $! is the group's id.
kp_step()
{
	local rc=0
	setsid "$@" &
	child=$!
	wait "$child" || rc=$?
	kp_end_group "$child"
	child=''
	return "$rc"
}

# The static harness and workloads for a guest initramfs, built in a copy
# so the user's dynamic binaries stay as they are, once per state of the
# sources (and compiler): $AB_BUILD_DIR/static/<key>/, under a lock,
# reused by every later run. Needs $jobs.
# The sources: tracked and new files that are there (a deleted tracked
# file is not).
kp_static_sources()
{
	(cd "$REPO_DIR" && git ls-files -co --exclude-standard -- Makefile mk harness workloads |
		LC_ALL=C sort | while IFS= read -r f; do [ ! -f "$f" ] || printf '%s\n' "$f"; done)
}
# Sets sdir (not a $(...): a signal would wait for the subshell).
# kp_static_dir [ARCH]: arm64 cross-builds (make ARCH=arm64, the sysroot
# of scripts/arm64-deps.sh) into static/arm64-<key>.
kp_static_dir()
{
	local key arch=${1:-x86_64} cc=gcc margs=() pre=''
	if [ "$arch" = arm64 ]; then
		cc=aarch64-linux-gnu-gcc pre=arm64-
		margs=(ARCH=arm64 THPBENCH_IN_CROSS=1 ARM64_SYSROOT="$REPO_DIR/build/arm64-sysroot")
	fi
	key=$( (cd "$REPO_DIR" && kp_static_sources | tr '\n' '\0' | xargs -0 sha256sum
		"$cc" --version | head -n 1) | kp_sha256_stdin | cut -c1-16)
	sdir=$AB_BUILD_DIR/static/$pre$key
	if [ ! -f "$sdir/ok" ]; then
		kp_take_lock "$AB_BUILD_DIR/static.lock" "another run building static thpbench"
		if [ ! -f "$sdir/ok" ]; then
			rm -rf "$sdir"
			mkdir -p "$sdir"
			(cd "$REPO_DIR" && kp_static_sources | cpio -pdm --quiet "$sdir") ||
				kp_die "cannot copy the sources to $sdir"
			kp_log "building static thpbench and workloads ($sdir)"
			kp_step make -C "$sdir" -j"${jobs:-$(nproc)}" "${margs[@]}" static > "$sdir/build.log" 2>&1 || {
				tail -n 20 "$sdir/build.log" >&2
				kp_die "'make static' failed; log: $sdir/build.log"
			}
			touch "$sdir/ok"
		fi
		exec 9>&-
	else
		kp_log "static thpbench: cached ($sdir)"
	fi
}

# The KVM probe costs up to a minute when KVM does not work (nested KVM
# here): boot.sh's answer is kept for a day per host kernel, /dev/kvm and
# qemu in $AB_BUILD_DIR/accel-probe (lines: key, accel, why).
kp_accel_probe_key()
{
	printf '%s %s %s' "$(uname -r)" "$(stat -c '%t:%T' /dev/kvm 2>/dev/null || echo no-kvm)" \
		"$("${THPBENCH_QEMU:-qemu-system-x86_64}" --version | head -n 1)"
}
# "ACCEL WHY" when a fresh answer for this host is kept; else fail.
kp_accel_cached()
{
	local f=$AB_BUILD_DIR/accel-probe
	[ -n "$(find "$f" -mmin -1440 2>/dev/null)" ] &&
		[ "$(head -n 1 "$f")" = "$(kp_accel_probe_key)" ] || return 1
	printf '%s %s; probed within a day, %s\n' "$(sed -n 2p "$f")" "$(sed -n 3p "$f")" "$f"
}
# Keep boot.sh's answer: accel_remember ACCEL WHY.
kp_accel_remember()
{
	mkdir -p "$AB_BUILD_DIR"
	printf '%s\n%s\n%s\n' "$(kp_accel_probe_key)" "$1" "$2" > "$AB_BUILD_DIR/accel-probe"
}

# A oneshot systemd unit that runs at every boot (the bare-metal flows,
# baremetal.sh and bisect.sh --kexec): boot_unit_install NAME DESCRIPTION
# DIR COMMAND... writes $UNIT_DIR/NAME (THPBENCH_SYSTEMD_DIR, default
# /etc/systemd/system) to run COMMAND while DIR exists, its output
# appended to DIR/log, and enables it; boot_unit_remove NAME undoes it.
# The words of COMMAND and DIR may hold only [A-Za-z0-9._/+=-] (systemd
# would split or expand anything else).
kp_boot_unit_install()
{
	local name=$1 desc=$2 dir=$3 w unit_dir=${THPBENCH_SYSTEMD_DIR:-/etc/systemd/system}
	shift 3
	for w in "$dir" "$@"; do
		case $w in ''|*[!A-Za-z0-9._/+=-]*)
			kp_die "a boot unit cannot name '$(printf '%q' "$w" | head -c 200)': only letters, digits and ._/+=- (move it to a plainer path)" ;;
		esac
	done
	mkdir -p "$unit_dir"
	cat > "$unit_dir/$name" <<EOF
[Unit]
Description=$desc
After=multi-user.target
ConditionPathExists=$dir

[Service]
Type=oneshot
ExecStart=$*
StandardOutput=append:$dir/log
StandardError=append:$dir/log

[Install]
WantedBy=multi-user.target
EOF
	systemctl daemon-reload
	systemctl enable "$name" > /dev/null
}
kp_boot_unit_remove()
{
	[ -n "$1" ] || return 0
	systemctl disable "$1" > /dev/null 2>&1 || true
	rm -f "${THPBENCH_SYSTEMD_DIR:-/etc/systemd/system}/$1"
	systemctl daemon-reload > /dev/null 2>&1 || true
}

# The results directory of a flow: OUT (--out, which must not exist yet)
# or a new $THPBENCH_RESULTS_DIR/NAME-DATE[-N] (default results/), unique
# even for two runs in one second. Sets outdir, absolute.
kp_flow_outdir()
{
	local out=$1 name=$2
	if [ -n "$out" ]; then
		[ ! -e "$out" ] || kp_die "--out '$out' exists; give a new directory"
		mkdir -p "$out"
	else
		out=$(kp_unique_dir "${THPBENCH_RESULTS_DIR:-$REPO_DIR/results}/$name-$(date +%Y%m%d-%H%M%S)")
	fi
	outdir=$(cd "$out" && pwd)
}

# On every way out of a flow: end the step in progress and all it started
# (step); a run that stops (a failure or an interrupt) before $outdir
# holds anything matching KEEP (its consoles: something to look at)
# leaves no results directory. A signal ends the flow with that signal,
# so its caller sees an interrupted run. flow_traps KEEP arms them.
kp_flow_finish()
{
	local rc=${1:-$?}
	trap - ERR
	if [ -n "$child" ]; then
		kp_end_group "$child"
		wait "$child" 2>/dev/null || true
		child=''
	fi
	if [ "$rc" -ge 2 ] && ! compgen -G "$outdir/$FLOW_KEEP" > /dev/null; then
		rm -rf "$outdir"
	fi
}
kp_flow_on_signal()
{
	trap - "$1"
	kp_log "interrupted (SIG$1)"
	kp_flow_finish 130
	trap - EXIT
	kill -s "$1" $$
	exit 130
}
kp_flow_traps()
{
	local sig
	FLOW_KEEP=$1
	trap kp_flow_finish EXIT
	for sig in INT TERM HUP; do
		# shellcheck disable=SC2064
		trap "kp_flow_on_signal $sig" "$sig"
	done
}

# A command failing where nothing expects it is an error (2), never a
# gate's 1; kp_die has already said why when the status is 2.
kp_on_err()
{
	[ "$1" = 2 ] || kp_log "error: line $2: a command failed (exit $1)"
	exit 2
}
kp_trap_err() { trap 'kp_on_err $? $LINENO' ERR; }

# What the timings of a guest on accelerator $1 (kvm, tcg) are, for
# meta.timings of its results.
kp_timings_word()
{
	case $1 in
	tcg) echo "emulated (qemu TCG): times are not hardware timings" ;;
	*) echo "qemu $1 guest" ;;
	esac
}
