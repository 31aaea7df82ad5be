#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Performance bisection of a kernel git tree, each step decided by the
# statistics (thpbench bisect, harness/bisect/bisect_rule.h).
#
#   ./run.sh bisect --tree DIR --good REF --bad REF --suite S.conf
#                   --metric CASE:METRIC [options]
#   ./run.sh bisect --tree DIR --from-history DB CASE:METRIC --suite S.conf
#                   [--host H] [--history-suite NAME] [options]
#   ./run.sh bisect --resume DIR [--kexec [--initrd FILE]]
# options:
#   --config tinyconfig|defconfig|FILE   base configuration (default
#                       tinyconfig), kernel-patches/thpbench.config merged
#   --qemu              boot each kernel in qemu (the default)
#   --lava [--devices N] [--lava-lab FILE]   boot each kernel as a LAVA
#                       job (lava-run here, or the server of lava-lab.sh's
#                       FILE): N step commits a round at once, picked to
#                       split the suspect range into N + 1 parts
#                       (thpbench bisect next --devices N; docs/lava.md),
#                       each still decided by the same statistics; resume
#                       with --lava and any N
#   --kexec             boot each kernel on this machine by kexec (needs
#                       --config FILE with its configuration, root,
#                       systemd, kexec-tools; --initrd FILE if it needs one):
#                       thpbench-bisect.service measures each boot and
#                       boots the next; at the end the machine kexecs back
#                       into the kernel it ran at the start
#   --out DIR           results directory (new; default
#                       results/bisect-METRIC-DATE)
#   --reps N            repetitions per reference boot (default: the suite's)
#   --ref-boots N       boots of GOOD and BAD first (default 2), --ref-max-boots N (4)
#   --confidence C      of each step's verdict (default 0.99)
#   --max-reps N        repetitions per commit at most (60), --max-looks N
#                       boots per commit at most (4), --max-batch N (30)
#   --threshold T       GOOD vs BAD: smaller relative changes are noise (0.02)
#   --accel auto|kvm|tcg --mem SIZE --smp N --timeout SEC --jobs N
#
# First GOOD and BAD are measured (interleaved boots) until their change
# of METRIC is significant, or "nothing to bisect" (exit 3). Then each
# step builds one commit of the first-parent history GOOD..BAD (one
# checkout and object directory for all, build-kernel.sh --git-ref: a
# step is an incremental build; ccache when installed), boots it, runs
# the suite with the repetitions the rule asks for, and lets `thpbench
# bisect next` decide: good, bad, partial, more repetitions (another
# boot), or inconclusive at the caps. A commit that does not build or
# boot is skipped (git bisect's 125).
# The results directory is the state: after a crash or Ctrl-C,
# `--resume DIR` goes on with every finished boot kept (a --kexec one with
# --kexec and the --initrd it started with: the boot driver is never taken
# from the directory). The directory must be trusted (docs/bisect-trust.md):
# `thpbench bisect verify` checks it first. At the end:
# DIR/report.txt (printed), report.json, git-bisect.log, plots/.
# Exit: 0 first bad commit found; 1 no single commit (a range, a change
# spread over several commits, a level going back); 2 error; 3 nothing to
# bisect; 130 interrupted.
set -Eeuo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"
S=$KP_DIR/scripts
TB=$REPO_DIR/harness/thpbench
# THPBENCH_BUILD_KERNEL: a stand-in for build-kernel.sh (tests).
BUILD_KERNEL=${THPBENCH_BUILD_KERNEL:-$S/build-kernel.sh}
kp_trap_err

cmdline="./run.sh bisect $(printf '%q ' "$@")"
tree='' good='' bad='' suite='' metric_arg='' config=tinyconfig boot=qemu
kexec_initrd='' orig_release=''
outdir='' resume='' reps='' accel=auto mem=6G smp=2 timeout=1800
jobs=$(nproc) history_db='' history_series='' history_host='' history_suite=''
opts=() devices=1 lava_lab=''
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=${2:?}; shift 2 ;;
	--good) good=${2:?}; shift 2 ;;
	--bad) bad=${2:?}; shift 2 ;;
	--suite) suite=${2:?}; shift 2 ;;
	--metric) metric_arg=${2:?}; shift 2 ;;
	--config) config=${2:?}; shift 2 ;;
	--qemu) boot=qemu; shift ;;
	--kexec) boot=kexec; shift ;;
	--lava) boot=lava; shift ;;
	--devices) devices=${2:?}; shift 2 ;;
	--lava-lab) lava_lab=${2:?}; shift 2 ;;
	--initrd) kexec_initrd=${2:?}; shift 2 ;;
	--out) outdir=${2:?}; shift 2 ;;
	--resume) resume=${2:?}; shift 2 ;;
	--from-history) history_db=${2:?}; history_series=${3:?--from-history DB CASE:METRIC}; shift 3 ;;
	--host) history_host=${2:?}; shift 2 ;;
	--history-suite) history_suite=${2:?}; shift 2 ;;
	--reps) reps=${2:?}; shift 2 ;;
	--ref-boots) opts+=(--opt "ref_boots=${2:?}"); shift 2 ;;
	--ref-max-boots) opts+=(--opt "ref_max_boots=${2:?}"); shift 2 ;;
	--max-reps) opts+=(--opt "max_reps=${2:?}"); shift 2 ;;
	--max-looks) opts+=(--opt "max_looks=${2:?}"); shift 2 ;;
	--max-batch) opts+=(--opt "max_batch=${2:?}"); shift 2 ;;
	--confidence) opts+=(--opt "confidence=${2:?}"); shift 2 ;;
	--threshold) opts+=(--opt "threshold=${2:?}"); shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	--mem) mem=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--timeout) timeout=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	-h|--help) kp_help ;;
	*) kp_die "unknown argument '$1' (see --help)" ;;
	esac
done

# ---- Processes: every step in its own process group, ended on every exit.
# fd 3: the terminal's stderr, for messages from a trap that may run while
# a step's stderr goes to a log.
exec 3>&2
stop_step()
{
	[ -n "$child" ] || return 0
	kp_end_group "$child"
	wait "$child" 2>/dev/null || true
	child=''
}
# An error in a --kexec bisection also takes the unit away, so that the
# machine does not go through it at every boot (130: Ctrl-C, resumable).
finish()
{
	local rc=$?
	trap - ERR
	stop_step
	if [ "$boot" = kexec ] && [ "$rc" -ge 2 ] && [ "$rc" != 130 ] &&
		[ -n "${UNIT:-}" ] && [ -f "${THPBENCH_SYSTEMD_DIR:-/etc/systemd/system}/$UNIT" ]; then
		kp_log "error: $UNIT disabled; --resume $outdir when fixed"
		kexec_unit_off
	fi
}
on_signal()
{
	trap - "$1" ERR
	kp_log "interrupted (SIG$1): stopping; --resume $outdir goes on from here" 2>&3
	stop_step
	trap - EXIT
	exit 130
}
trap finish EXIT
for sig in INT TERM HUP; do
	# shellcheck disable=SC2064
	trap "on_signal $sig" "$sig"
done

# ---- The run directories, runs/NNNN (4 to 9 digits, no more leading
# zeros than %04d gives: the names the C reader takes, bisect_state.c) and
# runs/.tmp-NNNN (a boot under way). The names come from an untrusted
# directory: each is matched against that pattern before anything
# (arithmetic above all: bash evaluates the array subscripts and command
# substitutions in a name inside $((...))) touches it, and any other name
# is refused. Sets run_names, tmp_names and next_num (the number the next
# run gets, as %04d).
is_run_name()
{
	[[ $1 =~ ^[0-9]{4,9}$ ]] && [ "$1" != 0000 ] && [ "$(printf '%04d' "$((10#$1))")" = "$1" ]
}
scan_runs()
{
	local e name last=0
	run_names=() tmp_names=()
	kp_plain_dir "$outdir/runs" "a bisection's runs/ is a directory of its own"
	while IFS= read -r -d '' e; do
		name=${e#? }
		if is_run_name "$name"; then
			run_names+=("$name")
			[ "$((10#$name))" -le "$last" ] || last=$((10#$name))
		elif [[ $name =~ ^\.tmp-([0-9]{4,9})$ ]] && is_run_name "${BASH_REMATCH[1]}"; then
			tmp_names+=("$name")
		else
			kp_die "$outdir/runs/$name: not a run directory (runs/NNNN, 4 to 9 digits, or .tmp-NNNN); move it out of runs/ and --resume again"
		fi
		[ "${e%% *}" = d ] || kp_die "$outdir/runs/$name is not a directory (a symlink or a file); move it out of runs/ and --resume again"
	done < <(find "$outdir/runs" -mindepth 1 -maxdepth 1 -printf '%y %f\0')
	[ "$last" -lt 999999999 ] || kp_die "$outdir/runs: run number $last is the last there can be"
	next_num=$(printf '%04d' $((last + 1)))
}

# ---- A new bisection: what to bisect, into plan.json.
resolve_history()
{
	local case_id m
	[ -n "$tree" ] || kp_die "--from-history needs --tree DIR (the git tree the kernels came from)"
	case_id=${history_series%%:*}
	m=${history_series#*:}
	[ "$case_id" != "$history_series" ] && [ -n "$case_id" ] && [ -n "$m" ] ||
		kp_die "--from-history DB CASE:METRIC: '$history_series' has no ':' (e.g. mremap/thp=always:roi_usec)"
	local hargs=(--db "$history_db" --case "$case_id" --metric "$m") kind
	[ -z "$history_host" ] || hargs+=(--host "$history_host")
	[ -z "$history_suite" ] || hargs+=(--suite "$history_suite")
	# The binary picks the change point and its kernels (history range:
	# KIND, GOOD, BAD, NUL-ended); the script reads no history JSON.
	{ IFS= read -r -d '' kind && IFS= read -r -d '' good && IFS= read -r -d '' bad; } \
		< <("$TB" history range "${hargs[@]}") ||
		kp_die "no range to bisect from $history_db (the reason is above; --host and --history-suite pick one series)"
	metric_arg=$history_series
	kp_log "from the history: $kind of $m, last good $good, first bad $bad"
}

# The commits GOOD..BAD, first parent, in history order, GOOD first, as
# git prints them (thpbench bisect plan --commits reads them).
commit_lines()
{
	git -C "$tree" log -1 --format='%H%x1f%aI%x1f%an <%ae>%x1f%s' "$1"
	git -C "$tree" log --first-parent --reverse --format='%H%x1f%aI%x1f%an <%ae>%x1f%s' "$1..$2"
}
patch_id_lines() { git -C "$tree" log --first-parent -p "$1..$2" | git patch-id --stable; }

new_plan()
{
	local g b n
	[ -z "$history_db" ] || resolve_history
	[ -n "$tree" ] && [ -n "$good$bad" ] && [ -n "$suite" ] && [ -n "$metric_arg" ] || kp_usage
	git -C "$tree" rev-parse --git-dir > /dev/null 2>&1 || kp_die "--tree '$tree' is not a git tree"
	tree=$(cd "$tree" && pwd)
	g=$(git -C "$tree" rev-parse --verify -q "$good^{commit}") || kp_die "--good '$good' is not a commit of $tree"
	b=$(git -C "$tree" rev-parse --verify -q "$bad^{commit}") || kp_die "--bad '$bad' is not a commit of $tree"
	[ "$g" != "$b" ] || kp_die "--good and --bad are one commit ($g)"
	good_ref=$good
	bad_ref=$bad
	good=$g
	bad=$b
	git -C "$tree" merge-base --is-ancestor "$g" "$b" ||
		kp_die "--good $good is not an ancestor of --bad $bad (for an improvement, still give the older kernel as --good)"
	[ -f "$suite" ] || kp_die "suite '$suite' not found (--suite)"
	# The suite's own repetitions (and the whole file checked) before
	# anything is created.
	[ -n "$reps" ] || reps=$(kp_tb suite get "$suite" repetitions) || exit 2
	case $config in tinyconfig|defconfig) ;; *)
		[ -f "$config" ] || kp_die "--config '$config' not found"
		config=$(cd "$(dirname "$config")" && pwd)/$(basename "$config") ;;
	esac
	if [ "$boot" = kexec ]; then
		case $config in tinyconfig|defconfig)
			kp_die "--kexec boots this machine's own system: give --config FILE with this machine's configuration (e.g. make localyesconfig: what mounts root built in), and --initrd FILE if it needs one" ;;
		esac
		[ -z "$kexec_initrd" ] || [ -f "$kexec_initrd" ] || kp_die "--initrd '$kexec_initrd' not found"
		[ -z "$kexec_initrd" ] || kexec_initrd=$(cd "$(dirname "$kexec_initrd")" && pwd)/$(basename "$kexec_initrd")
		[ "$(id -u)" = 0 ] || [ -n "${THPBENCH_SYSTEMD_DIR:-}" ] || kp_die "--kexec boots this machine: run as root"
		kp_need_cmd kexec systemctl
	fi
	if [ -n "$outdir" ]; then
		[ ! -e "$outdir" ] || kp_die "--out '$outdir' exists; give a new directory (or --resume it)"
		mkdir -p "$outdir"
	else
		outdir=$(kp_unique_dir "${THPBENCH_RESULTS_DIR:-$REPO_DIR/results}/bisect-$(kp_release_slug "${metric_arg#*:}")-$(date +%Y%m%d-%H%M%S)")
	fi
	outdir=$(cd "$outdir" && pwd)
	orig_release=$(uname -r)
	# The binary checks and writes the plan (the case in the suite, every
	# option's range, the commits git lists); refused, nothing is left.
	kp_tb bisect plan "$outdir" --tree "$tree" --good "$g" --bad "$b" \
		--good-ref "$good_ref" --bad-ref "$bad_ref" --suite "$suite" --metric "$metric_arg" \
		--commits <(commit_lines "$g" "$b") --patch-ids <(patch_id_lines "$g" "$b") \
		--reps "$reps" "${opts[@]}" --config "$config" --boot "$boot" \
		--accel "$accel" --mem "$mem" --smp "$smp" --timeout "$timeout" --jobs "$jobs" \
		--initrd "$kexec_initrd" --orig-release "$orig_release" \
		--version "$(git -C "$REPO_DIR" describe --always --dirty 2>/dev/null || echo unknown)" \
		--command "$cmdline" || { rm -rf "$outdir"; exit 2; }
	mkdir -p "$outdir/runs"
	cp "$suite" "$outdir/suite.conf"
	n=$(git -C "$tree" rev-list --first-parent --count "$g..$b")
	kp_log "results directory: $outdir"
	kp_log "bisecting ${metric_arg#*:} of case ${metric_arg%%:*} over $n commits ($good_ref..$bad_ref, first parent)"
}

# ---- Resuming: what the plan says (thpbench bisect driver checks it).
# The directory is untrusted input (issue 36): `thpbench bisect verify`
# checks it as a whole (owner, mode, no symlink, regular files, run
# names) before anything in it is read; what bash itself uses is checked
# again where it is used. The boot driver is the command line's: the
# plan's must match it, never the other way round (a plan saying kexec
# would reboot this machine into whatever pending names).
load_plan()
{
	[ -f "$outdir/plan.json" ] || kp_die "--resume '$outdir': no plan.json there (not a bisection's results directory)"
	kp_tb bisect verify "$outdir" || exit 2
	local f
	mapfile -d '' f < <(kp_tb bisect driver "$outdir")
	[ "${#f[@]}" = 12 ] || exit 2
	tree=${f[0]} good=${f[1]} bad=${f[2]} config=${f[3]} accel=${f[5]}
	mem=${f[6]} smp=${f[7]} timeout=${f[8]} jobs=${f[9]}
	orig_release=${f[11]}
	check_driver "${f[4]}" "${f[10]}"
	suite=$outdir/suite.conf
	kp_plain_file "$suite" "the bisection's copy of its suite"
	[ ! -e "$outdir/pending" ] && [ ! -L "$outdir/pending" ] ||
		kp_plain_file "$outdir/pending" "a boot under way is a file written by bisect.sh"
	[ ! -e "$outdir/initramfs" ] && [ ! -L "$outdir/initramfs" ] ||
		kp_plain_dir "$outdir/initramfs" "the initramfs images are kept in a directory of the bisection's own"
	git -C "$tree" rev-parse --verify -q "$bad^{commit}" > /dev/null ||
		kp_die "$outdir/plan.json: tree $tree no longer has $bad"
}
# Plan's boot driver $1 and initrd $2 against the command line's.
check_driver()
{
	if [ "$1" != "$boot" ]; then
		case $1 in
		kexec) kp_die "$outdir/plan.json: this bisection boots by kexec; the command line does not say so: resume it as it started, --resume $outdir --kexec [--initrd FILE] (the boot driver is never taken from the directory)" ;;
		*) kp_die "$outdir/plan.json: this bisection boots in $1, the command line says --$boot: resume it without --$boot" ;;
		esac
	fi
	[ "$boot" = kexec ] || return 0
	case $config in tinyconfig|defconfig|'')
		kp_die "$outdir/plan.json: a --kexec bisection with the configuration '$config': it boots this machine, with its own configuration (--config FILE); start a new bisection" ;;
	esac
	[ -f "$config" ] || kp_die "$outdir/plan.json: the configuration $config is not there"
	if [ -n "$kexec_initrd" ]; then
		[ -f "$kexec_initrd" ] || kp_die "--initrd '$kexec_initrd' not found"
		kexec_initrd=$(cd "$(dirname "$kexec_initrd")" && pwd)/$(basename "$kexec_initrd")
	fi
	[ "$2" = "$kexec_initrd" ] ||
		kp_die "$outdir/plan.json: the initrd is '$2', the command line's '$kexec_initrd': resume with the --initrd the bisection started with (it is never taken from the directory)"
	# Back to this release at the end: a file name in $BOOT_DIR.
	[[ $orig_release =~ ^[A-Za-z0-9._+-]{1,64}$ ]] ||
		kp_die "$outdir/plan.json: the release to go back to is no release name: '$orig_release'"
}

if [ -n "$resume" ]; then
	[ -d "$resume" ] || kp_die "--resume '$resume': no such directory"
	outdir=$(cd "$resume" && pwd -P)
	load_plan
else
	new_plan
fi
# The lock is the directory itself: flock on a descriptor of it opens no
# file by name in it, so no .lock symlink can make it truncate or create
# a file elsewhere (opening "$outdir/.lock" for writing would follow a
# link; bash has no O_NOFOLLOW). A file system whose flock needs a file
# open for writing (NFS emulates it with fcntl locks) refuses it: then
# the lock is a file of our own build directory keyed by the directory's
# device and inode, which keeps two bisections of it apart on this
# machine.
exec 8< "$outdir"
lrc=0
flock -n -E 75 8 2>/dev/null || lrc=$?
if [ "$lrc" != 0 ] && [ "$lrc" != 75 ]; then
	exec 8<&-
	lrc=0
	mkdir -p "$AB_BUILD_DIR/locks"
	exec 8>> "$AB_BUILD_DIR/locks/bisect-$(stat -c '%d-%i' "$outdir").lock"
	flock -n -E 75 8 || lrc=$?
	[ "$lrc" = 0 ] || [ "$lrc" = 75 ] || kp_die "cannot lock $outdir (flock on it or on $AB_BUILD_DIR/locks failed)"
fi
[ "$lrc" = 0 ] || kp_die "another bisect is running in $outdir"
scan_runs
if [ -n "$resume" ]; then
	# A boot that did not finish is measured again (but for the one a
	# kexec is for: its run directory waits for this boot). The names
	# were checked (scan_runs) and pending's first line is compared, not
	# matched as a pattern.
	pnum=''
	[ ! -f "$outdir/pending" ] || pnum=$(head -c 64 "$outdir/pending" | head -n 1)
	for t in "${tmp_names[@]}"; do
		[ "$t" = ".tmp-$pnum" ] || rm -rf "${outdir:?}/runs/$t"
	done
	kp_log "resuming $outdir (${#run_names[@]} boots or skips kept)"
fi
# Packages are checked when a bisection starts, not at every resume.
[ -n "$resume" ] || "$S/install-deps.sh" || kp_die "missing Debian packages (see above)"
kp_need_cmd git setsid
[ "$boot" != qemu ] || [ -n "${THPBENCH_QEMU:-}" ] || kp_need_cmd qemu-system-x86_64
[[ $devices =~ ^[1-9][0-9]?$ ]] || kp_die "--devices must be 1..99"
[ "$devices" = 1 ] || [ "$boot" = lava ] || kp_die "--devices: only with --lava"
[ -z "$lava_lab" ] || [ "$boot" = lava ] || kp_die "--lava-lab: only with --lava"
[ "$boot" != lava ] || kp_lava_ready "$lava_lab"
[ -x "$TB" ] || kp_die "harness/thpbench is not built (make)"

# ---- Building one commit (kernel-patches/README.md, "Building one
# commit"): every commit of the tree in one kept checkout and object
# directory, so a step recompiles what differs from the one before; each
# image cached by content. Prints the kernel's cache directory; fails
# when it does not build.
build_commit()
{
	kp_step "$BUILD_KERNEL" --kernel-src "$tree" --git-ref "$1" --config "$config" \
		--jobs "$jobs"
}

# ---- Booting one kernel in qemu with the suite at REPS repetitions.
# The initramfs for $1 repetitions, made once, in $initrd.
initrd=''
# Made in a new private directory (mktemp -d) and renamed into place: no
# name in initramfs/ is written through (a link there would take the write
# elsewhere); the suite packed is a regular file, no link to one.
initramfs_for()
{
	local tmpd
	initrd=$outdir/initramfs/r$1.gz
	if [ -e "$initrd" ] || [ -L "$initrd" ]; then
		kp_plain_file "$initrd" "an initramfs of this bisection's own"
		return 0
	fi
	if [ -n "${THPBENCH_AB_STATIC:-}" ]; then
		sdir=$THPBENCH_AB_STATIC
	else
		kp_static_dir
	fi
	[ -e "$outdir/initramfs" ] || mkdir "$outdir/initramfs"
	kp_plain_dir "$outdir/initramfs" "the initramfs images are kept in a directory of the bisection's own"
	kp_plain_file "$suite" "the bisection's copy of its suite"
	tmpd=$(mktemp -d "$outdir/initramfs/.tmp-XXXXXX")
	local bb=()
	[ "$boot" != lava ] || bb=(--busybox "$(command -v busybox)")
	kp_step "$S/mkinitramfs.sh" -o "$tmpd/r$1.gz" --suite "$suite" \
		--thpbench "$sdir/harness/thpbench" --workloads "$sdir/workloads" --reps "$1" \
		"${bb[@]}" >&2
	mv -T "$tmpd/r$1.gz" "$initrd"
	rmdir "$tmpd"
}
if [ "$accel" = auto ] && cached=$(kp_accel_cached); then
	accel=${cached%% *}
	kp_log "accelerator: $accel (${cached#* })"
fi
# Boot kernel dir $1 with initramfs $2 into run dir $3; fail when no
# complete results came back.
boot_qemu()
{
	local kdir=$1 initrd=$2 rd=$3 rel line
	rel=$(cat "$kdir/kernelrelease")
	kp_step "$S/boot.sh" --kernel "$kdir/bzImage" --initrd "$initrd" --log "$rd/console.log" \
		--label "$rel" --accel "$accel" --mem "$mem" --smp "$smp" --timeout "$timeout" \
		> "$rd/accel" || return 1
	line=$(head -n 1 "$rd/accel")
	if [ "$accel" = auto ]; then
		line=${line#accel=}
		accel=${line%% *}
		line=${line#"$accel" }
		line=${line#(}
		kp_accel_remember "$accel" "${line%)}"
		kp_log "accelerator: $accel (${line%)})"
	fi
	"$S/extract-results.sh" "$rd/console.log" "$rd/results.json" > "$rd/status" || return 1
}

# Give up on run dir $1 (number $2) of commit $3, role $4: a skip saying
# why ($5). GOOD or BAD cannot be skipped: the bisection stops.
skip_run()
{
	[ "$4" = step ] || kp_die "$4 commit ${3:0:12}: $5; cannot bisect (run $1)"
	printf '%s\n' "$5" > "$1/skip"
	mv -T "$1" "$outdir/runs/$2"
	kp_log "run $2: ${3:0:12} skipped ($5)"
}
# Run dir $1 (number $2) of commit $3 complete: its results.json gets
# the provenance (repetitions $4, role $5, release $6, timings $7: the
# binary writes it) and the directory its place.
finish_run()
{
	kp_tb provenance "$1/results.json" --timings "$7" bisect_commit="$3" role="$5" \
		kernel.release="$6" repetitions:="$4"
	mv -T "$1" "$outdir/runs/$2"
}

# ---- Booting this machine by kexec (--kexec): the step's kernel is
# loaded and booted; thpbench-bisect.service resumes the bisection at the
# next boot, measures there what DIR/pending says the boot is for, and
# goes on. A boot that comes up on another kernel is tried once more,
# then skipped. At the end the unit goes and the machine kexecs back into
# the kernel it ran when the bisection started.
UNIT=thpbench-bisect.service
BOOT_DIR=${THPBENCH_BOOT_DIR:-/boot}
# What runs the suite on this machine (THPBENCH_RUN_TB: a stand-in, tests).
RUN_TB=${THPBENCH_RUN_TB:-$TB}
# pending: the run number, commit, repetitions, role, release, tries and
# kernel directory of the boot under way, one per line.
# Written new (noclobber: O_EXCL, so a pending.tmp link left there is
# refused, never written through), then renamed over pending.
put_pending()
{
	rm -f "$outdir/pending.tmp"
	(set -C && printf '%s\n' "$@" > "$outdir/pending.tmp") ||
		kp_die "cannot write $outdir/pending.tmp"
	sync "$outdir/pending.tmp" 2>/dev/null || sync
	mv "$outdir/pending.tmp" "$outdir/pending"
	sync
}
# The kernel directory $1 of a kexec boot: one of the kernel cache's
# ($AB_BUILD_DIR/kernels/KEY, where build-kernel.sh puts each image), no
# symlink, its bzImage and kernelrelease regular files. Prints it
# resolved. pending names it, and pending is in an untrusted directory.
kexec_kernel_dir()
{
	local d
	d=$(kp_inside "$1" "$AB_BUILD_DIR/kernels" "the kernel to boot by kexec") || exit 2
	kp_plain_file "$d/bzImage" "a kernel image of the kernel cache"
	kp_plain_file "$d/kernelrelease" "a kernel of the kernel cache"
	printf '%s\n' "$d"
}
# Load IMAGE (release REL, INITRD or none) and boot it; exit RC (0).
kexec_go()
{
	local args=(-l "$1" --reuse-cmdline)
	[ -z "$3" ] || args+=(--initrd="$3")
	kexec "${args[@]}" || kp_die "kexec -l $1 failed"
	kp_log "booting $2 by kexec (log: $outdir/log)"
	sync
	systemctl kexec || kp_die "systemctl kexec failed"
	exit "${4:-0}"
}
# The unit's command line says --kexec and the --initrd: a resume takes
# the boot driver from it, never from the directory.
kexec_unit()
{
	local initrd_arg=()
	[ -z "$kexec_initrd" ] || initrd_arg=(--initrd "$kexec_initrd")
	kp_boot_unit_install "$UNIT" "thpbench bisect: measure this boot's kernel, then build and boot the next" \
		"$outdir" "$S/bisect.sh" --resume "$outdir" --kexec "${initrd_arg[@]}"
	kp_log "installed $UNIT: each boot measures its kernel and boots the next"
}
kexec_unit_off() { kp_boot_unit_remove "$UNIT"; }
# This boot is the one pending says: measure, or boot again, or skip.
# pending is read from an untrusted directory: every line is matched
# against what bisect.sh writes there before it is used.
kexec_collect()
{
	local p num sha r role rel tries kdir rd now
	kp_plain_file "$outdir/pending" "a boot under way is a file written by bisect.sh"
	[ "$(stat -c %s "$outdir/pending")" -le 8192 ] || kp_die "$outdir/pending: too long for what bisect.sh writes there"
	mapfile -t -n 8 p < "$outdir/pending"
	[ "${#p[@]}" = 7 ] || kp_die "$outdir/pending: ${#p[@]} lines, not the 7 bisect.sh writes"
	num=${p[0]} sha=${p[1]} r=${p[2]} role=${p[3]} rel=${p[4]} tries=${p[5]} kdir=${p[6]}
	is_run_name "$num" && [[ $sha =~ ^[0-9a-f]{40}$ ]] && [[ $r =~ ^[1-9][0-9]{0,5}$ ]] &&
		[[ $role =~ ^(good|bad|step)$ ]] && [[ $rel =~ ^[A-Za-z0-9._+-]{1,64}$ ]] &&
		[[ $tries =~ ^[01]$ ]] ||
		kp_die "$outdir/pending is not what bisect.sh writes there (run number, commit, repetitions, role, release, tries, kernel directory); remove it and --resume again"
	kdir=$(kexec_kernel_dir "$kdir") || exit 2
	[ "$(cat "$kdir/kernelrelease")" = "$rel" ] ||
		kp_die "$outdir/pending: release $rel, but $kdir/kernelrelease says another"
	rd=$outdir/runs/.tmp-$num
	if [ -d "$outdir/runs/$num" ] || [ ! -d "$rd" ] || [ -L "$rd" ]; then
		rm -f "$outdir/pending"	# done before a crash
		return 0
	fi
	now=$(uname -r)
	if [ "$now" != "$rel" ]; then
		if [ "$tries" -lt 1 ]; then
			put_pending "$num" "$sha" "$r" "$role" "$rel" 1 "$kdir"
			kp_log "run $num: this boot runs $now, not $rel: booting it again"
			kexec_go "$kdir/bzImage" "$rel" "$kexec_initrd"
		fi
		rm -f "$outdir/pending"
		skip_run "$rd" "$num" "$sha" "$role" "boot: came up on $now, not $rel (twice)"
		return 0
	fi
	kp_log "run $num: $role ${sha:0:12} booted ($rel): the suite, $r repetitions"
	kp_step "$RUN_TB" run "$suite" -r "$r" -o "$rd/out" --label "$rel" > "$rd/run.log" 2>&1 ||
		kp_log "warning: thpbench run exited $? (see $rd/run.log)"
	rm -f "$outdir/pending"
	if [ ! -f "$rd/out/results.json" ]; then
		skip_run "$rd" "$num" "$sha" "$role" "run: no results.json (run.log)"
		return 0
	fi
	mv "$rd/out/results.json" "$rd/results.json"
	finish_run "$rd" "$num" "$sha" "$r" "$role" "$rel" "hardware (bare metal, booted by kexec)"
}
# The bisection is over (exit status $1): the unit goes, and the machine
# goes back to the kernel it ran at the start.
kexec_done()
{
	local orig initrd=''
	kexec_unit_off
	orig=$orig_release
	[ "$(uname -r)" != "$orig" ] || return 0
	if [ ! -f "$BOOT_DIR/vmlinuz-$orig" ]; then
		kp_log "$BOOT_DIR/vmlinuz-$orig not found: staying on $(uname -r)"
		return 0
	fi
	[ ! -f "$BOOT_DIR/initrd.img-$orig" ] || initrd=$BOOT_DIR/initrd.img-$orig
	kp_log "back to $orig"
	kexec_go "$BOOT_DIR/vmlinuz-$orig" "$orig" "$initrd" "$1"
}

# Commit $1 at $2 repetitions, role $3 (a line of `bisect next`), built
# into runs/.tmp-$4: 0 with its kernel directory in $rd/kernel's last
# line, 1 when it did not build (then a skip, runs/$4).
build_run()
{
	local sha=$1 r=$2 role=$3 num=$4 subj tee_pid brc=0
	[[ $sha =~ ^[0-9a-f]{40}$ ]] && [[ $r =~ ^[1-9][0-9]{0,5}$ ]] && [[ $role =~ ^(good|bad|step)$ ]] ||
		kp_die "thpbench bisect next: '$sha $r $role' is no commit, repetitions and role"
	rd=$outdir/runs/.tmp-$num
	rm -rf "$rd"
	mkdir "$rd"
	printf '%s\n' "$sha" > "$rd/commit"
	# A long subject ends in ".." (git cuts by characters): a plain cut
	# turned "(e2e commit 11)" into "(e2e commit 1", another commit.
	subj=$(git -C "$tree" log -1 --format='%<(60,trunc)%s' "$sha" | sed 's/ *$//')
	kp_log "run $num: $role ${sha:0:12} ($subj), $r repetitions: building"
	# The build's messages (progress, the log's tail on failure) show as
	# they come and are kept in build.err, for the reason of a skip.
	exec 4> >(tee "$rd/build.err" >&2)
	tee_pid=$!
	build_commit "$sha" > "$rd/kernel" 2>&4 || brc=$?
	exec 4>&-
	wait "$tee_pid" 2>/dev/null || true
	[ "$brc" != 0 ] || return 0
	skip_run "$rd" "$num" "$sha" "$role" \
		"build: $(grep -m1 'error:' "$rd/build.err" | sed -E 's#[^ :]*/trees/[^/ ]+/##' | cut -c1-200 || echo 'kernel build failed')"
	return 1
}

# One boot (or skip) of commit $1 at $2 repetitions, role $3, into the
# next runs/NNNN: built in runs/.tmp-NNNN and renamed when complete.
measure()
{
	local sha=$1 r=$2 role=$3 num rd kdir
	scan_runs
	num=$next_num
	build_run "$sha" "$r" "$role" "$num" || return 0
	kdir=$(tail -n 1 "$rd/kernel")
	if [ "$boot" = kexec ]; then
		kdir=$(kexec_kernel_dir "$kdir") || exit 2
		put_pending "$num" "$sha" "$r" "$role" "$(cat "$kdir/kernelrelease")" 0 "$kdir"
		kexec_go "$kdir/bzImage" "$(cat "$kdir/kernelrelease")" "$kexec_initrd"
	fi
	kp_log "run $num: booting $(cat "$kdir/kernelrelease") ($accel)"
	initramfs_for "$r"
	if ! boot_qemu "$kdir" "$initrd" "$rd"; then
		skip_run "$rd" "$num" "$sha" "$role" "boot: no complete results from the guest (console.log)"
		return 0
	fi
	finish_run "$rd" "$num" "$sha" "$r" "$role" "$(cat "$kdir/kernelrelease")" "$(kp_timings_word "$accel")"
}

# ---- A round of LAVA jobs (--lava): every line of `bisect next
# --devices N` built in turn into runs/.tmp-NNNN (consecutive numbers),
# then booted at once (lava-boot.sh), then each finished in order.
lava_round()
{
	local line what sha r role num n rd kdir specs=() todo=() t lab=()
	scan_runs
	n=$((10#$next_num))
	for line in "$@"; do
		read -r what sha r role <<< "$line"
		num=$(printf '%04d' "$n")
		n=$((n + 1))
		build_run "$sha" "$r" "$role" "$num" || continue
		kdir=$(tail -n 1 "$rd/kernel")
		initramfs_for "$r"
		specs+=(--job "$kdir/bzImage,$(cat "$kdir/kernelrelease"),$rd/console.log,$rd/lava,,$initrd")
		todo+=("$num $sha $r $role $kdir")
	done
	[ ${#todo[@]} -gt 0 ] || return 0
	kp_log "booting ${#todo[@]} kernels at once as LAVA jobs"
	[ -z "$lava_lab" ] || lab=(--lab "$lava_lab")
	kp_step "$S/lava-boot.sh" "${specs[@]}" "${lab[@]}" --timeout "$timeout" --accel tcg ||
		kp_log "a LAVA job failed: its run is skipped (runs/.tmp-NNNN/lava/lava.log)"
	for t in "${todo[@]}"; do
		read -r num sha r role kdir <<< "$t"
		rd=$outdir/runs/.tmp-$num
		if ! "$S/extract-results.sh" "$rd/console.log" "$rd/results.json" > "$rd/status" 2>/dev/null; then
			skip_run "$rd" "$num" "$sha" "$role" "boot: no complete results from the LAVA job (lava/lava.log)"
			continue
		fi
		finish_run "$rd" "$num" "$sha" "$r" "$role" "$(cat "$kdir/kernelrelease")" tcg
	done
	lava_rounds=$((lava_rounds + 1))
}
lava_rounds=0

if [ "$boot" = kexec ]; then
	if [ -z "$resume" ]; then
		kexec_unit
	elif [ -f "$outdir/pending" ]; then
		kexec_collect
	fi
fi
while :; do
	next=$("$TB" bisect next "$outdir" --devices "$devices") || kp_die "thpbench bisect next failed (see above)"
	read -r what sha r role <<< "$next"
	case $what in
	measure)
		if [ "$boot" = lava ]; then
			mapfile -t lines <<< "$next"
			lava_round "${lines[@]}"
		else
			measure "$sha" "$r" "$role"
		fi ;;
	done|nothing) break ;;
	*) kp_die "cannot bisect: see the line above" ;;
	esac
done
rc=0
"$TB" bisect report "$outdir" || rc=$?
[ "$boot" != lava ] || kp_log "LAVA: $lava_rounds rounds of up to $devices jobs at once (this invocation)"
kp_log "everything is in $outdir"
[ "$boot" != kexec ] || kexec_done "$rc"
exit "$rc"
