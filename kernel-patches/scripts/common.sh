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

log() { printf '%s: %s\n' "$kp_prog" "$*" >&2; }
die() { printf '%s: error: %s\n' "$kp_prog" "$*" >&2; exit 2; }

need_cmd()
{
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "'$c' not found; run kernel-patches/scripts/install-deps.sh"
	done
}

sha256_stdin() { sha256sum | cut -c1-64; }

# Identity of a kernel source: the tarball's bytes, a git tree's commit and
# uncommitted diff, or (plain directory) every file's name, size and mtime.
tree_id()
{
	local src=$1
	if [ -f "$src" ]; then
		printf 'tar:%s\n' "$(sha256_stdin < "$src")"
	elif [ -d "$src/.git" ] || [ -f "$src/.git" ]; then
		printf 'git:%s:%s\n' "$(git -C "$src" rev-parse HEAD)" \
			"$(git -C "$src" diff HEAD | sha256_stdin)"
	elif [ -d "$src" ]; then
		printf 'dir:%s\n' "$(cd "$src" && find . -type f -printf '%P %s %T@\n' |
			LC_ALL=C sort | sha256_stdin)"
	else
		die "kernel source '$src' is neither a tarball nor a directory (--kernel-src)"
	fi
}

# A series is untrusted input. Its bounds (raise them for a bigger series):
# patches per series, and megabytes of an mbox or of a directory's patches.
SERIES_MAX_PATCHES=${THPBENCH_SERIES_MAX_PATCHES:-500}
SERIES_MAX_MB=${THPBENCH_SERIES_MAX_MB:-64}

# The patches of a series, in the order they apply, one per line. Only
# after series_check_names: a name with a newline would read as two.
series_patches()
{
	local dir=$1
	find "$dir" -maxdepth 1 -type f -name '*.patch' | LC_ALL=C sort
}

# Refuse the names of DIR's *.patch entries that no patch tool writes (git
# format-patch, quilt, b4 write letters, digits and ._+,=@~- ; a space is
# taken), and entries that are no regular file (a symlink is never
# followed). Dies naming the first offender, shown escaped.
series_check_names()
{
	local dir=$1 bad=''
	IFS= read -r -d '' bad < <(find "$dir" -maxdepth 1 -name '*.patch' \
		-name '*[!A-Za-z0-9._+,=@~ -]*' -printf '%f\0' -quit) || true
	[ -z "$bad" ] ||
		die "refusing patch file name $(printf '%q' "$bad" | head -c 200) in $dir: only letters, digits, space and ._+,=@~- (a newline or glob character is no patch tool's)"
	IFS= read -r -d '' bad < <(find "$dir" -maxdepth 1 -name '*.patch' ! -type f \
		-printf '%f\0' -quit) || true
	[ -z "$bad" ] ||
		die "refusing $(printf '%q' "$bad") in $dir: a *.patch that is not a regular file (a symlink is never followed)"
}

# Refuse a series of more than SERIES_MAX_PATCHES patches or SERIES_MAX_MB
# megabytes: WHAT names the input for the message.
series_check_size()
{
	local what=$1 npatch=$2 bytes=$3
	[ "$npatch" -le "$SERIES_MAX_PATCHES" ] ||
		die "$what holds $npatch patches, more than the limit of $SERIES_MAX_PATCHES (THPBENCH_SERIES_MAX_PATCHES raises it)"
	[ "$bytes" -le $((SERIES_MAX_MB * 1048576)) ] ||
		die "$what is $((bytes / 1048576)) MiB, more than the limit of $SERIES_MAX_MB MiB (THPBENCH_SERIES_MAX_MB raises it)"
}

# Every file a patch makes patch(1) -p1 touch, one per line, or "!LINE:
# REASON" lines for what no series may do: a path that is absolute, has a
# ".." (or "." or empty) component, is quoted, or holds a character no
# Linux source name has ([A-Za-z0-9._/+,-] only); a symlink or submodule
# mode; a binary or context diff. Every header patch(1) or git reads is
# checked (---, +++, ***, Index:, diff --git, rename/copy from/to), outside
# the hunks (counted from their @@ lines, so a removed "-- x" line is text).
patch_paths()
{
	LC_ALL=C awk '
	function bad(why) { gsub(/[^ -~]/, "?", why); printf "!%d: %s\n", NR, why }
	# NAME as the patch gives it; STRIP: a -p1 prefix comes off.
	function path(name, strip,   n, c, i, out) {
		if (name == "/dev/null") return
		if (name ~ /^"/) { bad("quoted file name " name); return }
		if (name ~ /^\//) { bad("absolute path " name); return }
		if (name ~ /[^A-Za-z0-9._\/+,-]/) { bad("file name with a character no Linux source name has: " name); return }
		n = split(name, c, "/")
		for (i = 1; i <= n; i++)
			if (c[i] == ".." || c[i] == "." || c[i] == "") {
				bad("path with a \"" c[i] "\" component: " name); return
			}
		if (strip && n < 2) { bad("no a/ or b/ prefix to strip: " name); return }
		out = ""
		for (i = 1 + strip; i <= n; i++) out = out (out == "" ? "" : "/") c[i]
		print out
	}
	function mode(m) {
		if (m != "100644" && m != "100755")
			bad("file mode " m (m == "120000" ? " (a symlink)" : m == "160000" ? " (a submodule)" : "") ": only regular files")
	}
	function first_word(s) { sub(/[ \t].*/, "", s); return s }
	old > 0 || new > 0 {
		c = substr($0, 1, 1)
		if (c == "\\") next
		if (c == " " || $0 == "") { old--; new--; next }
		if (c == "-") { old--; next }
		if (c == "+") { new--; next }
		old = new = 0		# a short hunk: patch(1) reads on as headers
	}
	/^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@/ {
		split($2, a, ","); old = (2 in a) ? a[2] : 1
		split($3, b, ","); new = (2 in b) ? b[2] : 1
		next
	}
	/^(---|\+\+\+|\*\*\*) / { path(first_word(substr($0, 5)), 1); next }
	/^Index: / { path(first_word(substr($0, 8)), 1); next }
	/^diff --git / {
		rest = substr($0, 12)
		if (rest ~ /^"/ || split(rest, w, " ") != 2) { bad("diff --git line with a quoted name or a space: " rest); next }
		path(w[1], 1); path(w[2], 1); next
	}
	/^(rename|copy) (from|to) / { rest = $0; sub(/^[a-z]+ [a-z]+ /, "", rest); path(rest, 0); next }
	/^(old mode|new mode|deleted file mode|new file mode) / { mode($NF); next }
	/^index [0-9a-f]+\.\.[0-9a-f]+ [0-9]+$/ { mode($3); next }
	/^\*\*\*\*\*\*\*\*/ { bad("a context diff: only unified diffs (git format-patch, diff -u)"); next }
	/^GIT binary patch$/ || /^Binary files / { bad("a binary patch"); next }
	' "$1"
}

# Check a series directory as untrusted input (names, size, every path
# and mode of every patch) before anything is applied, and print the files
# it touches, relative to the tree, one per line, sorted. Dies on the first
# patch that fails, naming it and the line.
series_check()
{
	local dir=$1 p out bytes n=0 bytes_all=0
	series_check_names "$dir"
	while IFS= read -r p; do
		n=$((n + 1))
		bytes=$(stat -c %s "$p")
		bytes_all=$((bytes_all + bytes))
	done < <(series_patches "$dir")
	series_check_size "series $dir" "$n" "$bytes_all"
	while IFS= read -r p; do
		out=$(patch_paths "$p")
		if grep -q '^!' <<< "$out"; then
			die "refusing the series: $(basename "$p"):$(grep -m1 '^!' <<< "$out" | cut -c2-) (nothing was applied)"
		fi
		printf '%s\n' "$out"
	done < <(series_patches "$dir") | LC_ALL=C sort -u | sed '/^$/d'
}

# `git patch-id --stable` of one patch file: the same change gives the same
# id whether it came from a directory, an mbox or a git range (commit
# message, headers, line numbers and whitespace do not count).
patch_id()
{
	git patch-id --stable < "$1" | cut -d' ' -f1
}

# What the build sees of one patch: the added and removed lines of its
# diff (from the first "diff --git", or a "--- " line followed by "+++ "),
# up to the mail signature ("-- "). The message, bullets in it, the notes
# after "---" ("Changes in v2: ..."), the diffstat and the hunks' line
# numbers do not count; a whitespace change does (patch-id ignores it).
patch_body()
{
	awk 'd && /^-- $/ { exit }
	     /^diff --git / { d = 1 }
	     !d && /^\+\+\+ / && prev ~ /^--- / { d = 1; print prev }
	     { prev = $0 }
	     d && /^(\+|-)/ { print }' "$1"
}

# Key of a series' content: patch-ids and bodies, in order.
series_hash()
{
	local dir=$1 p
	series_patches "$dir" | while read -r p; do
		printf '%s %s\n' "$(patch_id "$p")" "$(patch_body "$p" | sha256_stdin)"
	done | sha256_stdin
}

# A series name as a LOCALVERSION suffix: [a-z0-9.-], at most 40 chars
# (uname -r holds 64), so 000-a and 000-b get different releases.
release_slug()
{
	printf '%s' "$1" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9.-' '-' |
		sed 's/--*/-/g; s/^-//; s/-$//' | cut -c1-40 | sed 's/-$//'
}

# Options of a config fragment ("CONFIG_X=y" lines) missing from a .config:
# printed one per line, nothing when all are there.
config_missing()
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

# The release (uname -r) a bzImage will report: the x86 boot header keeps
# a pointer to the version string at 0x20e (relative to 0x200).
bzimage_release()
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
unique_dir()
{
	local base=$1 d=$1 n=1
	mkdir -p "$(dirname "$base")"
	until mkdir "$d" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -lt 1000 ] || die "cannot create a directory named $base-N"
		d=$base-$n
	done
	printf '%s\n' "$d"
}

# Hold the lock FILE on fd 9 for the rest of the calling (sub)shell,
# saying so when it has to wait.
take_lock()
{
	local file=$1 what=$2
	mkdir -p "$(dirname "$file")"
	exec 9>"$file"
	if ! flock -n 9; then
		log "waiting for $what (lock $file)"
		flock 9
	fi
}

# The calling script's usage: its header comment from line 4 to the first
# line that is not a comment, on stderr; exit 2.
header_usage()
{
	awk 'NR < 4 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0" >&2
	exit 2
}

# Does the kernel tree DIR define Kconfig symbol SYM (without CONFIG_)?
kconfig_defines()
{
	grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config[[:space:]]+$2[[:space:]]*\$" "$1"
}

# N seconds as "42 s" or "6 min 13 s".
secs()
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
end_group()
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
step()
{
	local rc=0
	setsid "$@" &
	child=$!
	wait "$child" || rc=$?
	end_group "$child"
	child=''
	return "$rc"
}

# The static harness and workloads for a guest initramfs, built in a copy
# so the user's dynamic binaries stay as they are, once per state of the
# sources (and compiler): $AB_BUILD_DIR/static/<key>/, under a lock,
# reused by every later run. Needs $jobs.
# The sources: tracked and new files that are there (a deleted tracked
# file is not).
static_sources()
{
	(cd "$REPO_DIR" && git ls-files -co --exclude-standard -- Makefile harness workloads |
		LC_ALL=C sort | while IFS= read -r f; do [ ! -f "$f" ] || printf '%s\n' "$f"; done)
}
# Sets sdir (not a $(...): a signal would wait for the subshell).
static_dir()
{
	local key
	key=$( (cd "$REPO_DIR" && static_sources | tr '\n' '\0' | xargs -0 sha256sum
		gcc --version | head -n 1) | sha256_stdin | cut -c1-16)
	sdir=$AB_BUILD_DIR/static/$key
	if [ ! -f "$sdir/ok" ]; then
		take_lock "$AB_BUILD_DIR/static.lock" "another run building static thpbench"
		if [ ! -f "$sdir/ok" ]; then
			rm -rf "$sdir"
			mkdir -p "$sdir"
			(cd "$REPO_DIR" && static_sources | cpio -pdm --quiet "$sdir") ||
				die "cannot copy the sources to $sdir"
			log "building static thpbench and workloads ($sdir)"
			step make -C "$sdir" -j"${jobs:-$(nproc)}" static > "$sdir/build.log" 2>&1 || {
				tail -n 20 "$sdir/build.log" >&2
				die "'make static' failed; log: $sdir/build.log"
			}
			touch "$sdir/ok"
		fi
		exec 9>&-
	else
		log "static thpbench: cached ($sdir)"
	fi
}

# The KVM probe costs up to a minute when KVM does not work (nested KVM
# here): boot.sh's answer is kept for a day per host kernel, /dev/kvm and
# qemu in $AB_BUILD_DIR/accel-probe (lines: key, accel, why).
accel_probe_key()
{
	printf '%s %s %s' "$(uname -r)" "$(stat -c '%t:%T' /dev/kvm 2>/dev/null || echo no-kvm)" \
		"$("${THPBENCH_QEMU:-qemu-system-x86_64}" --version | head -n 1)"
}
# "ACCEL WHY" when a fresh answer for this host is kept; else fail.
accel_cached()
{
	local f=$AB_BUILD_DIR/accel-probe
	[ -n "$(find "$f" -mmin -1440 2>/dev/null)" ] &&
		[ "$(head -n 1 "$f")" = "$(accel_probe_key)" ] || return 1
	printf '%s %s; probed within a day, %s\n' "$(sed -n 2p "$f")" "$(sed -n 3p "$f")" "$f"
}
# Keep boot.sh's answer: accel_remember ACCEL WHY.
accel_remember()
{
	mkdir -p "$AB_BUILD_DIR"
	printf '%s\n%s\n%s\n' "$(accel_probe_key)" "$1" "$2" > "$AB_BUILD_DIR/accel-probe"
}

# A oneshot systemd unit that runs at every boot (the bare-metal flows,
# baremetal.sh and bisect.sh --kexec): boot_unit_install NAME DESCRIPTION
# DIR COMMAND... writes $UNIT_DIR/NAME (THPBENCH_SYSTEMD_DIR, default
# /etc/systemd/system) to run COMMAND while DIR exists, its output
# appended to DIR/log, and enables it; boot_unit_remove NAME undoes it.
# The words of COMMAND and DIR may hold only [A-Za-z0-9._/+=-] (systemd
# would split or expand anything else).
boot_unit_install()
{
	local name=$1 desc=$2 dir=$3 w unit_dir=${THPBENCH_SYSTEMD_DIR:-/etc/systemd/system}
	shift 3
	for w in "$dir" "$@"; do
		case $w in ''|*[!A-Za-z0-9._/+=-]*)
			die "a boot unit cannot name '$(printf '%q' "$w" | head -c 200)': only letters, digits and ._/+=- (move it to a plainer path)" ;;
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
boot_unit_remove()
{
	[ -n "$1" ] || return 0
	systemctl disable "$1" > /dev/null 2>&1 || true
	rm -f "${THPBENCH_SYSTEMD_DIR:-/etc/systemd/system}/$1"
	systemctl daemon-reload > /dev/null 2>&1 || true
}

# The results directory of a flow: OUT (--out, which must not exist yet)
# or a new $THPBENCH_RESULTS_DIR/NAME-DATE[-N] (default results/), unique
# even for two runs in one second. Sets outdir, absolute.
flow_outdir()
{
	local out=$1 name=$2
	if [ -n "$out" ]; then
		[ ! -e "$out" ] || die "--out '$out' exists; give a new directory"
		mkdir -p "$out"
	else
		out=$(unique_dir "${THPBENCH_RESULTS_DIR:-$REPO_DIR/results}/$name-$(date +%Y%m%d-%H%M%S)")
	fi
	outdir=$(cd "$out" && pwd)
}

# On every way out of a flow: end the step in progress and all it started
# (step); a run that stops (a failure or an interrupt) before $outdir
# holds anything matching KEEP (its consoles: something to look at)
# leaves no results directory. A signal ends the flow with that signal,
# so its caller sees an interrupted run. flow_traps KEEP arms them.
flow_finish()
{
	local rc=${1:-$?}
	trap - ERR
	if [ -n "$child" ]; then
		end_group "$child"
		wait "$child" 2>/dev/null || true
		child=''
	fi
	if [ "$rc" -ge 2 ] && ! compgen -G "$outdir/$FLOW_KEEP" > /dev/null; then
		rm -rf "$outdir"
	fi
}
flow_on_signal()
{
	trap - "$1"
	log "interrupted (SIG$1)"
	flow_finish 130
	trap - EXIT
	kill -s "$1" $$
	exit 130
}
flow_traps()
{
	local sig
	FLOW_KEEP=$1
	trap flow_finish EXIT
	for sig in INT TERM HUP; do
		# shellcheck disable=SC2064
		trap "flow_on_signal $sig" "$sig"
	done
}
