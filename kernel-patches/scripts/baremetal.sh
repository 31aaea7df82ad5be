#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel A/B on real hardware, where timings are real: kernels A and B,
# installed as usual (/boot/vmlinuz-REL, /boot/initrd.img-REL), are booted
# in turn, A B A B ... N times each; at every boot a systemd unit runs the
# suite, keeps the results in a state directory that survives reboots, and
# boots the next kernel; after the last boot it merges each kernel's boots
# and compares them.
#
#   baremetal.sh setup --kernel-a REL --kernel-b REL --suite FILE [--boots N]
#        [--method kexec|grub] [--entry-a ENTRY --entry-b ENTRY]
#        [--state DIR] [--thpbench PATH] [--fail-on regression] [--no-reboot]
#   baremetal.sh step [--state DIR]      what the unit runs at each boot
#   baremetal.sh status [--state DIR]
#   baremetal.sh abort [--state DIR]     disable the unit, keep the results
#
# --method kexec (default): `kexec -l /boot/vmlinuz-REL
# --initrd=/boot/initrd.img-REL --reuse-cmdline` then `systemctl kexec`
# (a clean shutdown, no firmware); grub: `grub-reboot ENTRY` (the title or
# id of each kernel's menu entry, --entry-a/--entry-b) then `systemctl
# reboot`. setup ends by booting kernel A (--no-reboot: not, e.g. to
# check the setup). A boot that comes up on another kernel than planned
# retries that boot once, then stops the run (see status).
# State (default /var/lib/thpbench-ab): plan, next, results/A-1/... B-N/,
# log, and at the end A.json, B.json, comparison.txt, compare-exit, plots/.
# Exit 0; 1 the final comparison failed --fail-on; 2 any error.
set -Eeuo pipefail

KP_DIR=$(cd "$(dirname "$0")/.." && pwd)
. "$KP_DIR/scripts/common.sh"
SELF=$KP_DIR/scripts/baremetal.sh
UNIT=thpbench-ab.service
BOOT_DIR=${THPBENCH_BOOT_DIR:-/boot}

cmd=${1:-}
case $cmd in -h|--help) kp_help ;; esac
[ $# -eq 0 ] || shift
state=/var/lib/thpbench-ab relA='' relB='' suite='' boots=3 method=kexec
entryA='' entryB='' tb=$REPO_DIR/harness/thpbench fail_on='' reboot=1
while [ $# -gt 0 ]; do
	case $1 in
	--state) state=${2:?}; shift 2 ;;
	--kernel-a) relA=${2:?}; shift 2 ;;
	--kernel-b) relB=${2:?}; shift 2 ;;
	--suite) suite=${2:?}; shift 2 ;;
	--boots) boots=${2:?}; shift 2 ;;
	--method) method=${2:?}; shift 2 ;;
	--entry-a) entryA=${2:?}; shift 2 ;;
	--entry-b) entryB=${2:?}; shift 2 ;;
	--thpbench) tb=${2:?}; shift 2 ;;
	--fail-on) fail_on=${2:?}; shift 2 ;;
	--no-reboot) reboot=0; shift ;;
	-h|--help) kp_help ;;
	*) kp_die "unknown argument '$1' (see --help)" ;;
	esac
done

say() { printf '%s %s\n' "$(date -Iseconds)" "$*" | tee -a "$state/log" >&2; }
get() { sed -n "s/^$1=//p" "$state/plan"; }
# Replace a small state file atomically and durably: a reboot follows.
put() { printf '%s\n' "$2" > "$state/$1.tmp"; sync "$state/$1.tmp" 2>/dev/null || sync; mv "$state/$1.tmp" "$state/$1"; sync; }

# Boot kernel $1 (A or B) next, by the planned method.
boot_kernel()
{
	local k=$1 rel entry
	rel=$(get "rel$k")
	if [ "$(get method)" = kexec ]; then
		kexec -l "$BOOT_DIR/vmlinuz-$rel" --initrd="$BOOT_DIR/initrd.img-$rel" --reuse-cmdline ||
			kp_die "kexec -l $BOOT_DIR/vmlinuz-$rel failed"
		say "loaded kernel $k ($rel); systemctl kexec"
		[ "$reboot" = 1 ] || return 0
		systemctl kexec
	else
		entry=$(get "entry$k")
		grub-reboot "$entry" || kp_die "grub-reboot '$entry' failed"
		say "next boot: kernel $k ($rel, grub entry '$entry'); systemctl reboot"
		[ "$reboot" = 1 ] || return 0
		systemctl reboot
	fi
}

disable_unit() { kp_boot_unit_remove "$UNIT"; }

setup()
{
	local k rel
	[ -n "$relA" ] && [ -n "$relB" ] && [ -n "$suite" ] || kp_usage
	[ "$relA" != "$relB" ] || kp_die "kernels A and B are both '$relA'"
	case $boots in ''|*[!0-9]*|0) kp_die "--boots must be a positive number" ;; esac
	case $fail_on in ''|regression) ;; *) kp_die "--fail-on takes 'regression'" ;; esac
	[ -f "$suite" ] || kp_die "suite '$suite' not found"
	[ -x "$tb" ] || kp_die "thpbench '$tb' not found or not executable (make, or --thpbench)"
	case $method in
	kexec) command -v kexec > /dev/null ||
			kp_die "kexec not found: apt-get install kexec-tools (answer 'no' to letting it handle reboots: the unit does the kexec)"
		kp_need_cmd systemctl
		for rel in "$relA" "$relB"; do
			[ -f "$BOOT_DIR/vmlinuz-$rel" ] || kp_die "$BOOT_DIR/vmlinuz-$rel not found: install kernel $rel first"
		done ;;
	grub) kp_need_cmd grub-reboot systemctl
		[ -n "$entryA" ] && [ -n "$entryB" ] || kp_die "--method grub needs --entry-a and --entry-b (grub menu titles or ids)" ;;
	*) kp_die "--method must be kexec or grub" ;;
	esac
	if [ -f "$state/plan" ] && [ "$(cat "$state/next" 2>/dev/null || echo 0)" -lt "$(get boots)" ]; then
		kp_die "$state holds a run in progress ('$0 status'; '$0 abort' to stop it)"
	fi
	mkdir -p "$state/results"
	state=$(cd "$state" && pwd)
	cp "$suite" "$state/suite.conf"
	{
		printf 'relA=%s\nrelB=%s\nboots=%s\nmethod=%s\nentryA=%s\nentryB=%s\n' \
			"$relA" "$relB" "$boots" "$method" "$entryA" "$entryB"
		printf 'seq=%s\nthpbench=%s\nfail_on=%s\nversion=%s\n' \
			"$(for _ in $(seq 1 "$boots"); do printf AB; done)" "$(cd "$(dirname "$tb")" && pwd)/$(basename "$tb")" \
			"$fail_on" "$(git -C "$REPO_DIR" describe --always --dirty 2>/dev/null || echo unknown)"
	} > "$state/plan"
	put next 0
	put tries 0
	kp_boot_unit_install "$UNIT" "thpbench kernel A/B: run the suite at this boot, then boot the next kernel" \
		"$state" "$SELF" step --state "$state"
	say "set up: $(get seq | sed 's/./& /g')(A = $relA, B = $relB), state $state"
	boot_kernel A
}

# The comparison after the last boot.
finish()
{
	local k files rc=0 fo=()
	for k in A B; do
		files=()
		for f in "$state"/results/"$k"-*/results.json; do files+=("$f"); done
		"$(get thpbench)" merge "${files[@]}" -o "$state/$k.json"
	done
	[ -z "$(get fail_on)" ] || fo=(--fail-on "$(get fail_on)")
	"$(get thpbench)" compare "$state/A.json" "$state/B.json" "${fo[@]}" \
		> "$state/comparison.txt" 2>&1 || rc=$?
	put compare-exit "$rc"
	"$(get thpbench)" plot "$state/A.json" "$state/B.json" -o "$state/plots" \
		> "$state/plot.log" 2>&1 || true
	disable_unit
	say "done: $state/comparison.txt (compare exit $rc)"
	cat "$state/comparison.txt"
	[ "$rc" -le 1 ] || kp_die "thpbench compare failed (exit $rc)"
	return "$rc"
}

boot_step()
{
	local i seq k rel now n out
	[ -f "$state/plan" ] || kp_die "no run set up in $state ('$0 setup ...')"
	i=$(cat "$state/next")
	seq=$(get seq)
	if [ "$i" -ge "${#seq}" ]; then
		finish
		return
	fi
	k=${seq:$i:1}
	rel=$(get "rel$k")
	now=$(uname -r)
	if [ "$now" != "$rel" ]; then
		if [ "$(cat "$state/tries")" -ge 1 ]; then
			say "boot $((i + 1)): running $now, planned kernel $k ($rel) again; stopping (results kept)"
			put failed "boot $((i + 1)) came up on $now, not $rel"
			disable_unit
			return 2
		fi
		put tries 1
		say "boot $((i + 1)): running $now, not kernel $k ($rel); booting it again"
		boot_kernel "$k"
		return 0
	fi
	put tries 0
	n=$(printf '%s' "${seq:0:$((i + 1))}" | tr -cd "$k" | wc -c)
	out=$state/results/$k-$n
	rm -rf "$out"
	say "boot $((i + 1))/${#seq}: kernel $k ($rel), boot $n: running the suite"
	kp_step "$(get thpbench)" run "$state/suite.conf" -o "$out" --label "$rel" ||
		say "warning: thpbench run exited $? (kernel $k, boot $n)"
	[ -f "$out/results.json" ] || kp_die "no $out/results.json"
	"$(get thpbench)" provenance "$out/results.json" --timings "hardware (bare metal)" \
		side="$k" boot:="$n" step:="$((i + 1))" kernel.release="$rel" \
		boot_method="$(get method)" thpbench_version="$(get version)" ||
		kp_die "cannot stamp $out/results.json"
	sync
	put next $((i + 1))
	if [ $((i + 1)) -lt "${#seq}" ]; then
		boot_kernel "${seq:$((i + 1)):1}"
	else
		finish
	fi
}

status()
{
	[ -f "$state/plan" ] || { echo "no run in $state"; return 0; }
	echo "plan: $(get seq | sed 's/./& /g')(A = $(get relA), B = $(get relB), $(get method))"
	echo "next boot: $(( $(cat "$state/next") + 1 )) of $(get boots | awk '{ print $1 * 2 }')"
	[ ! -f "$state/failed" ] || echo "stopped: $(cat "$state/failed")"
	ls "$state/results"
	[ ! -f "$state/compare-exit" ] || echo "finished: $state/comparison.txt (compare exit $(cat "$state/compare-exit"))"
}

case $cmd in
setup) setup ;;
step) boot_step ;;
status) status ;;
abort) disable_unit; [ ! -d "$state" ] || put failed "aborted"; echo "unit disabled; results kept in $state" ;;
*) kp_usage ;;
esac
