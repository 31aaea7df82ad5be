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
#   ./run.sh bisect --resume DIR
# options:
#   --config tinyconfig|defconfig|FILE   base configuration (default
#                       tinyconfig), kernel-patches/thpbench.config merged
#   --qemu              boot each kernel in qemu (the default)
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
# `--resume DIR` goes on with every finished boot kept. At the end:
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
opts=()
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

# The run number a --kexec boot is for (DIR/pending, see kexec_collect).
pending_num() { sed -n 1p "$outdir/pending" 2>/dev/null; }

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
load_plan()
{
	[ -f "$outdir/plan.json" ] || kp_die "--resume '$outdir': no plan.json there (not a bisection's results directory)"
	local f
	mapfile -d '' f < <(kp_tb bisect driver "$outdir")
	[ "${#f[@]}" = 12 ] || exit 2
	tree=${f[0]} good=${f[1]} bad=${f[2]} config=${f[3]} boot=${f[4]} accel=${f[5]}
	mem=${f[6]} smp=${f[7]} timeout=${f[8]} jobs=${f[9]} kexec_initrd=${f[10]}
	orig_release=${f[11]}
	suite=$outdir/suite.conf
	git -C "$tree" rev-parse --verify -q "$bad^{commit}" > /dev/null ||
		kp_die "$outdir/plan.json: tree $tree no longer has $bad"
	# A boot that did not finish is measured again (but for the one a
	# kexec is for: its run directory waits for this boot).
	find "$outdir/runs" -maxdepth 1 -name '.tmp-*' ! -name ".tmp-$(pending_num)" -exec rm -rf {} +
	kp_log "resuming $outdir ($(find "$outdir/runs" -mindepth 1 -maxdepth 1 | wc -l) boots or skips kept)"
}

if [ -n "$resume" ]; then
	[ -d "$resume" ] || kp_die "--resume '$resume': no such directory"
	outdir=$(cd "$resume" && pwd)
	load_plan
else
	new_plan
fi
exec 8> "$outdir/.lock"
flock -n 8 || kp_die "another bisect is running in $outdir"
# Packages are checked when a bisection starts, not at every resume.
[ -n "$resume" ] || "$S/install-deps.sh" || kp_die "missing Debian packages (see above)"
kp_need_cmd git setsid
[ "$boot" != qemu ] || [ -n "${THPBENCH_QEMU:-}" ] || kp_need_cmd qemu-system-x86_64
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
initramfs_for()
{
	initrd=$outdir/initramfs/r$1.gz
	[ ! -f "$initrd" ] || return 0
	if [ -n "${THPBENCH_AB_STATIC:-}" ]; then
		sdir=$THPBENCH_AB_STATIC
	else
		kp_static_dir
	fi
	mkdir -p "$outdir/initramfs"
	kp_step "$S/mkinitramfs.sh" -o "$initrd" --suite "$suite" \
		--thpbench "$sdir/harness/thpbench" --workloads "$sdir/workloads" --reps "$1" >&2
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
	mv "$1" "$outdir/runs/$2"
	kp_log "run $2: ${3:0:12} skipped ($5)"
}
# Run dir $1 (number $2) of commit $3 complete: its results.json gets
# the provenance (repetitions $4, role $5, release $6, timings $7: the
# binary writes it) and the directory its place.
finish_run()
{
	kp_tb provenance "$1/results.json" --timings "$7" bisect_commit="$3" role="$5" \
		kernel.release="$6" repetitions:="$4"
	mv "$1" "$outdir/runs/$2"
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
put_pending()
{
	printf '%s\n' "$@" > "$outdir/pending.tmp"
	sync "$outdir/pending.tmp" 2>/dev/null || sync
	mv "$outdir/pending.tmp" "$outdir/pending"
	sync
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
kexec_unit()
{
	kp_boot_unit_install "$UNIT" "thpbench bisect: measure this boot's kernel, then build and boot the next" \
		"$outdir" "$S/bisect.sh" --resume "$outdir"
	kp_log "installed $UNIT: each boot measures its kernel and boots the next"
}
kexec_unit_off() { kp_boot_unit_remove "$UNIT"; }
# This boot is the one pending says: measure, or boot again, or skip.
kexec_collect()
{
	local p num sha r role rel tries kdir rd now
	mapfile -t p < "$outdir/pending"
	num=${p[0]} sha=${p[1]} r=${p[2]} role=${p[3]} rel=${p[4]} tries=${p[5]} kdir=${p[6]}
	rd=$outdir/runs/.tmp-$num
	if [ -d "$outdir/runs/$num" ] || [ ! -d "$rd" ]; then
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

# One boot (or skip) of commit $1 at $2 repetitions, role $3, into the
# next runs/NNNN: built in runs/.tmp-NNNN and renamed when complete.
measure()
{
	local sha=$1 r=$2 role=$3 last num rd kdir subj tee_pid brc
	last=$(find "$outdir/runs" -mindepth 1 -maxdepth 1 -name '[0-9]*' -printf '%f\n' | sort -n | tail -n 1)
	num=$(printf '%04d' $((10#${last:-0} + 1)))
	rd=$outdir/runs/.tmp-$num
	rm -rf "$rd"
	mkdir -p "$rd"
	printf '%s\n' "$sha" > "$rd/commit"
	# A long subject ends in ".." (git cuts by characters): a plain cut
	# turned "(e2e commit 11)" into "(e2e commit 1", another commit.
	subj=$(git -C "$tree" log -1 --format='%<(60,trunc)%s' "$sha" | sed 's/ *$//')
	kp_log "run $num: $role ${sha:0:12} ($subj), $r repetitions: building"
	# The build's messages (progress, the log's tail on failure) show as
	# they come and are kept in build.err, for the reason of a skip.
	exec 4> >(tee "$rd/build.err" >&2)
	tee_pid=$!
	brc=0
	build_commit "$sha" > "$rd/kernel" 2>&4 || brc=$?
	exec 4>&-
	wait "$tee_pid" 2>/dev/null || true
	if [ "$brc" != 0 ]; then
		skip_run "$rd" "$num" "$sha" "$role" \
			"build: $(grep -m1 'error:' "$rd/build.err" | sed -E 's#[^ :]*/trees/[^/ ]+/##' | cut -c1-200 || echo 'kernel build failed')"
		return 0
	fi
	kdir=$(tail -n 1 "$rd/kernel")
	if [ "$boot" = kexec ]; then
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

if [ "$boot" = kexec ]; then
	if [ -z "$resume" ]; then
		kexec_unit
	elif [ -f "$outdir/pending" ]; then
		kexec_collect
	fi
fi
while :; do
	next=$("$TB" bisect next "$outdir") || kp_die "thpbench bisect next failed (see above)"
	read -r what sha r role <<< "$next"
	case $what in
	measure) measure "$sha" "$r" "$role" ;;
	done|nothing) break ;;
	*) kp_die "cannot bisect: see the line above" ;;
	esac
done
rc=0
"$TB" bisect report "$outdir" || rc=$?
kp_log "everything is in $outdir"
[ "$boot" != kexec ] || kexec_done "$rc"
exit "$rc"
