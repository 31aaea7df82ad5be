#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/fragment: THPs faulted, split and broken up with one page
# kept per --every (the split counters move, the kept memory is what
# --every says), --hold waits for a signal and dies with its parent;
# option checking.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/fragment
need_bin "$bin"

check_usage "$bin"
check_value_opt "$bin" --size
expect_rc 2 "--share 1.5 refused" "$bin" --share 1.5 &&
	expect_grep "$tmp/err" 'not a share' "--share: says why"
expect_rc 2 "--every 3K refused" "$bin" --every 3K
expect_rc 2 "--batch 3M refused" "$bin" --batch 3M

split_page() { awk '$1 == "thp_split_page" { print $2 }' /proc/vmstat; }

s0=$(split_page)
expect_rc 0 "break up 64 MiB" "$bin" --size 64M --batch 32M
s1=$(split_page)
expect_grep "$tmp/out" '^chunks 32$' "32 chunks of 2 MiB"
thps=$(awk '$1 == "thp_chunks" { print $2 }' "$tmp/out")
if [ "${thps:-0}" -eq 0 ]; then
	skip "no THP could be had here now; nothing to check"
else
	pass "$thps of them were THPs (MADV_HUGEPAGE or MADV_COLLAPSE)"
	expect_grep "$tmp/out" "^fragmented_kb $((thps * 2048))\$" "fragmented_kb is 2 MiB per THP"
	expect_grep "$tmp/out" "^kept_kb 128\$" "one 4 KiB page kept per 2 MiB chunk"
	if [ $((s1 - s0)) -ge "$thps" ]; then
		pass "thp_split_page rose by $((s1 - s0)) (>= $thps): split at once"
	else
		fail "thp_split_page rose by $((s1 - s0)), wanted >= $thps"
	fi
	expect_rc 0 "--every 64K" "$bin" --size 32M --batch 32M --every 64K
	thps=$(awk '$1 == "thp_chunks" { print $2 }' "$tmp/out")
	expect_grep "$tmp/out" "^kept_kb $((thps * 32 * 4 + (16 - thps) * 4))\$" \
		"one page kept per 64 KiB of each THP"
fi
check_metric_fd "metric fd" "chunks thp_chunks fragmented_kb kept_kb free_2m_before free_2m_after" \
	"$bin" --size 8M --batch 8M

# --hold: ready, then holds until TERM; and dies with its parent.
"$bin" --size 8M --batch 8M --hold >"$tmp/hold" 2>&1 &
h=$!
for _ in $(seq 50); do grep -q '^ready$' "$tmp/hold" && break; sleep 0.1; done
expect_grep "$tmp/hold" '^ready$' "--hold says ready"
if kill -0 "$h" 2>/dev/null; then pass "--hold keeps running"; else fail "--hold exited"; fi
kill -TERM "$h"
wait "$h"
rc=$?
if [ "$rc" -eq 0 ]; then pass "--hold ends with exit 0 on SIGTERM"; else fail "--hold: exit $rc on SIGTERM"; fi

bash -c "\"$bin\" --size 8M --batch 8M --hold > \"$tmp/child\" & echo \$! > \"$tmp/child.pid\"; sleep 30" &
parent=$!
for _ in $(seq 50); do grep -q '^ready$' "$tmp/child" 2>/dev/null && break; sleep 0.1; done
child=$(cat "$tmp/child.pid")
kill -KILL "$parent"
wait "$parent" 2>/dev/null
for _ in $(seq 50); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$child" 2>/dev/null; then
	fail "--hold outlived its parent (pid $child)"
	kill -KILL "$child"
else
	pass "--hold dies with its parent (PR_SET_PDEATHSIG)"
fi

# --pin: the kept pages are mlocked (VmLck, whole batches: MLOCK_ONFAULT
# locks the VMA and the pages present) while it holds; --all with --size
# is two stopping rules.
expect_rc 2 "--all with --size refused" "$bin" --all --size 64M
if [ "$(id -u)" = 0 ]; then
	"$bin" --size 64M --pin --hold >"$tmp/pin" 2>&1 &
	h=$!
	for _ in $(seq 100); do grep -q '^ready$' "$tmp/pin" && break; sleep 0.1; done
	lck=$(sed -n 's/^VmLck:[[:space:]]*\([0-9]*\).*/\1/p' /proc/$h/status 2>/dev/null)
	pk=$(sed -n 's/^pinned_kb //p' "$tmp/pin")
	[ "${lck:-0}" -ge "${pk:-1}" ] && [ "${pk:-0}" -gt 0 ] &&
		pass "--pin: VmLck $lck kB >= pinned_kb $pk while it holds" ||
		{ fail "--pin: VmLck '$lck' kB, pinned_kb '$pk'"; cat "$tmp/pin"; }
	kill -TERM "$h" 2>/dev/null
	wait "$h" 2>/dev/null
else
	skip "--pin: mlock of the kept pages needs root (RLIMIT_MEMLOCK)"
fi

# SIGTERM while it prepares (breaking up 8 GiB takes seconds): it stops
# within a second, never gets to 'ready' (it used to block the signal
# until then, also under PR_SET_PDEATHSIG).
"$bin" --size 8G --hold >"$tmp/prep" 2>&1 &
h=$!
sleep 0.3
if grep -q '^ready$' "$tmp/prep" || ! kill -0 "$h" 2>/dev/null; then
	skip "the preparation was over within 0.3 s here; SIGTERM during it not tested"
	kill -KILL "$h" 2>/dev/null
else
	kill -TERM "$h"
	for _ in $(seq 10); do kill -0 "$h" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$h" 2>/dev/null; then
		fail "--hold still preparing 1 s after SIGTERM (pid $h)"
		kill -KILL "$h"
	else
		pass "--hold stops within 1 s of SIGTERM while it prepares"
	fi
	wait "$h" 2>/dev/null
	if grep -q '^ready$' "$tmp/prep"; then
		fail "--hold went on to 'ready' after SIGTERM"
	else
		pass "--hold did not go on preparing after SIGTERM"
	fi
fi
finish
