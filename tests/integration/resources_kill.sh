#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The swap, mounts and loop devices a run makes for its cases
# (system/resource.h) leave nothing behind however it ends: a kill -9
# then `thpbench restore`, a SIGTERM, and a plain exit. After each: no
# zram swap of ours in /proc/swaps (the host's own swap exactly as it
# was), no mount under our state dir, no loop device on our image, the
# resource journal gone, THP and zswap enabled as before. Then a planted journal
# naming what is not ours (/dev/shm, /etc/passwd, another boot's zram):
# restore leaves each alone and says so. Whatever happens here, the trap
# puts everything back.
. tests/integration/lib.sh
need_root
if [ ! -e /sys/class/zram-control/hot_add ] && [ ! -e /sys/block/zram0 ]; then
	echo "skip: no zram here (CONFIG_ZRAM)"; exit 77
fi
command -v mkfs.xfs > /dev/null || { echo "skip: no mkfs.xfs (xfsprogs)"; exit 77; }

THP_SAVED=$(thp_mode)
ST=$TMPD/state
export THPBENCH_STATE_DIR=$ST
SWAPS_BEFORE=$(cat /proc/swaps)
ZSW=/sys/module/zswap/parameters/enabled
ZSW_BEFORE=$(cat "$ZSW" 2>/dev/null || echo none)
ZSWAP_WANT=on
[ "$ZSW_BEFORE" = Y ] && ZSWAP_WANT=off
ZSWAP_LINE="zswap = $ZSWAP_WANT"
[ "$ZSW_BEFORE" = none ] && ZSWAP_LINE="# no zswap here"
# zswap switched on even once stops large-folio swap-in until a reboot
# (mm/memory.c: zswap_never_enabled()), which no restore undoes: only
# where it has been on since boot already, or with THPBENCH_TEST_ZSWAP=1.
# (The zswap entry's journal and undo: test_resource's fake tree.)
if [ "$ZSW_BEFORE" = N ] && [ "$(sed -n 's/^zswpout //p' /proc/vmstat)" = 0 ] &&
   [ "${THPBENCH_TEST_ZSWAP:-0}" != 1 ]; then
	echo "SKIP: zswap never on since boot: the case leaves it alone (THPBENCH_TEST_ZSWAP=1 switches it)"
	ZSW_BEFORE=none
	ZSWAP_LINE="# zswap left alone"
fi
run_pid=

# Everything back even when a check failed: the harness's own restore,
# then by hand whatever of ours is still there.
cleanup() {
	[ -n "$run_pid" ] && kill -9 "$run_pid" 2>/dev/null
	$TB restore > /dev/null 2>&1
	grep -o " $ST/mnt-[^ ]*" /proc/self/mountinfo | while read -r m; do
		umount -l "$m"; done
	for img in "$ST"/img-*; do
		[ -e "$img" ] && losetup -j "$img" -O NAME -n | xargs -r -n1 losetup -d
	done
	for d in $(sed -n 's|^\(/dev/zram[0-9]*\) .*|\1|p' /proc/swaps); do
		echo "$SWAPS_BEFORE" | grep -q "^$d " || swapoff "$d"
	done
	[ "$ZSW_BEFORE" != none ] && echo "$ZSW_BEFORE" > "$ZSW"
	echo "$THP_SAVED" > "$THP"
	rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

target=always
[ "$THP_SAVED" = always ] && target=never
cat > "$TMPD/res.conf" <<CONF
[suite]
name = resources-kill
repetitions = 1
warmup = 0

[case swap-xfs]
workload = sh
args = -c "stat -f -c fs=%T {mount}; echo swap=\$THPBENCH_SWAP; sleep \$SLEEP"
swap = zram:64M
$ZSWAP_LINE
expect_huge = no
mount = xfs:320M

[case tmpfs]
workload = sh
args = -c "grep -c ' {mount} .*huge=within_size' /proc/self/mountinfo; sleep \$SLEEP"
mount = tmpfs:huge=within_size,size=64M
expect_huge = no
CONF

# Made: two mounts of ours, a loop device on our image, our zram swap on.
all_made() {
	[ "$(grep -c " $ST/mnt-" /proc/self/mountinfo)" -eq 2 ] &&
	losetup -a | grep -q "$ST/img-" &&
	[ "$(grep -c '^/dev/zram' /proc/swaps)" -gt "$(echo "$SWAPS_BEFORE" | grep -c '^/dev/zram')" ]
}

start_run() {
	SLEEP=$1 $TB run "$TMPD/res.conf" --thp "$target" --wait=300 \
		-o "$TMPD/out-$2" --progress none > "$TMPD/run-$2.log" 2>&1 &
	run_pid=$!
	i=0
	while ! all_made && [ $i -lt 3000 ] && kill -0 "$run_pid" 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
}

nothing_left() {
	check "$1: the host's swap is as it was, none of ours" \
		[ "$(cat /proc/swaps)" = "$SWAPS_BEFORE" ]
	check "$1: no mount under the state dir" \
		[ "$(grep -c " $ST/" /proc/self/mountinfo)" -eq 0 ]
	check "$1: no loop device on our image" \
		[ -z "$(losetup -a | grep "$ST/")" ]
	check "$1: no image or mount point left" \
		[ -z "$(ls "$ST" | grep -E '^(img|mnt)-')" ]
	check "$1: the resource journal is gone" [ ! -e "$ST/resources.json" ]
	check "$1: THP enabled is back to $THP_SAVED" [ "$(thp_mode)" = "$THP_SAVED" ]
	[ "$ZSW_BEFORE" = none ] || check "$1: zswap enabled is back to $ZSW_BEFORE" \
		[ "$(cat "$ZSW" 2>/dev/null || echo none)" = "$ZSW_BEFORE" ]
}

export SLEEP
start_run 60 kill
check "kill: the run made swap, an xfs loop mount and a tmpfs mount" all_made
check "kill: they are journalled" grep -q '"kind": "loop"' "$ST/resources.json"
kill -9 "$run_pid"
wait "$run_pid" 2>/dev/null
run_pid=
check "kill: the resources outlive the harness" all_made
[ "$ZSW_BEFORE" != none ] && check "kill: zswap was switched for the case" \
	[ "$(cat "$ZSW")" != "$ZSW_BEFORE" ]
$TB restore > "$TMPD/restore.txt" 2>&1
check "kill: thpbench restore exits 0" [ $? -eq 0 ]
check "kill: restore says it undid them" grep -Eq 'undid [45] resource' "$TMPD/restore.txt"
nothing_left kill

start_run 60 term
check "term: all made" all_made
kill -TERM "$run_pid"
wait "$run_pid" 2>/dev/null
run_pid=
nothing_left term

start_run 0 exit
wait "$run_pid"
rc=$?
run_pid=
check "exit: the run exits 0" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -5 "$TMPD/run-exit.log"
check "exit: the workload saw an xfs mount at {mount}" \
	grep -rq 'fs=xfs' "$TMPD/out-exit/logs"
check "exit: and a zram swap device in THPBENCH_SWAP" \
	grep -rq 'swap=/dev/zram' "$TMPD/out-exit/logs"
check "exit: the tmpfs mount had huge=within_size" \
	grep -rqx '1' "$TMPD/out-exit/logs"
nothing_left exit

# A planted (or stale) journal naming what is not ours: the real root
# mount, /dev/shm, a loop device and a zram device of another boot.
# restore says it leaves each alone and touches none of them.
mounts_before=$(wc -l < /proc/self/mountinfo)
mkdir -p "$ST"
cat > "$ST/resources.json" <<JSON
{"version": 1, "root": "$ST", "pid": 1, "time": 1, "knobs": [
 {"kind": "zram", "dev": "/dev/zram0", "num": 0, "size": 1, "boot_id": "not-this-boot"},
 {"kind": "loop", "dev": "/dev/loop0", "num": 0, "path": "/etc/passwd"},
 {"kind": "mount", "path": "/dev/shm"},
 {"kind": "mount", "path": "$ST/mnt-1/../../.."}]}
JSON
$TB restore > "$TMPD/hostile.txt" 2>&1
check "hostile: restore exits 0" [ $? -eq 0 ]
check "hostile: it says it left them alone" \
	[ "$(grep -c 'left alone' "$TMPD/hostile.txt")" -eq 4 ]
check "hostile: no mount went away" \
	[ "$(wc -l < /proc/self/mountinfo)" -eq "$mounts_before" ]
check "hostile: /dev/shm still mounted" grep -q ' /dev/shm ' /proc/self/mountinfo
check "hostile: /etc/passwd still there" [ -s /etc/passwd ]
check "hostile: the journal is dropped" [ ! -e "$ST/resources.json" ]
echo '{"version": 1, "root": "/", "pid": 1, "time": 1, "knobs": []}' > "$ST/resources.json"
$TB restore > "$TMPD/other.txt" 2>&1
check "hostile: another state dir's journal is refused (exit 2)" [ $? -eq 2 ]
check "hostile: and said" grep -q "not $ST" "$TMPD/other.txt"
rm -f "$ST/resources.json"
finish
