#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# thp_zero_page_alloc after drop_caches (what `drop_slab = yes` does for a
# case, harness/measure/drop_slab.h): the huge zero folio, once nobody
# maps it, is freed by its shrinker; "2" in /proc/sys/vm/drop_caches runs
# every shrinker; workloads/zero_page's read faults then allocate it
# again, and thp_zero_page_alloc moves by at least 1.
#
# The folio is the machine's: another process mapping it keeps it, and
# then nothing is allocated. That is told from our own mappings: the
# frame (pagemap, zero_pfn) before and after. Counter unmoved and frame
# unchanged: kept by someone else (skip, the host decided). Counter
# unmoved but a new frame: a zero folio made without being counted (fail).
# CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y never frees it: skip.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/zero_page
need_bin "$bin"
knob=/sys/kernel/mm/transparent_hugepage/use_zero_page
dc=/proc/sys/vm/drop_caches

[ -r $knob ] || skip_all "no $knob: no THP in this kernel"
[ "$(id -u)" -eq 0 ] || skip_all "needs root: pagemap frames, drop_caches"
[ "$(cat $knob)" = 1 ] || skip_all "use_zero_page is $(cat $knob), not 1"
[ "$(thp_enabled)" != never ] || skip_all "THP enabled is never"
for cfg in /proc/config.gz "/boot/config-$(uname -r)"; do
	[ -r "$cfg" ] || continue
	if { zcat -f "$cfg" 2>/dev/null || cat "$cfg"; } |
		grep -q '^CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y'; then
		skip_all "CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y: the zero folio is never freed"
	fi
	break
done

val() { sed -n "s/^$1 //p" "$tmp/out"; }

# One run of 4 MiB: two read faults on the huge zero page.
run_once() {
	"$bin" --size 4M >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -ne 0 ]; then
		[ $rc -eq 3 ] && skip_all "zero_page: not measurable now (exit 3)"
		fail "zero_page --size 4M: exit $rc"
		show_output
		finish
	fi
}

run_once
before=$(val zero_pfn)
[ -n "$before" ] || { fail "zero_page printed no zero_pfn"; show_output; finish; }
pass "first run maps the huge zero folio at frame $before"
echo 2 >$dc || skip_all "cannot write 2 to $dc"
run_once
after=$(val zero_pfn)
alloc=$(val thp_zero_page_alloc)
if [ "${alloc:-0}" -ge 1 ]; then
	pass "after drop_caches: thp_zero_page_alloc $alloc >= 1 (frame $before -> $after)"
elif [ "$after" = "$before" ]; then
	skip "the huge zero folio was kept (another process maps it): thp_zero_page_alloc 0, frame $after unchanged"
else
	fail "a new huge zero folio (frame $before -> $after) but thp_zero_page_alloc '$alloc'"
fi
finish
