#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# workloads/zero_page (the huge zero page): with use_zero_page 1 every
# read-faulted 2 MiB range maps the huge zero page (pagemap: one frame,
# KPF_ZERO_PAGE - not thp_zero_page_alloc, which moves only when the
# kernel allocates the zero folio, not per mapping) and the writes make
# THPs that thp_fault_alloc counts; with 0 the reads make the THPs. The
# setting the machine has is tested; as root the other one too, written
# directly and restored on every exit path. No THP for the process (4 KiB
# zero pages) is exit 3; metric fd and ROI protocols, options, memory.

[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "$(dirname "$0")/lib.sh"

bin=./workloads/zero_page
need_bin "$bin"
knob=/sys/kernel/mm/transparent_hugepage/use_zero_page
ranges=16
size=32M

[ -r $knob ] || skip_all "no $knob: no THP in this kernel"
[ "$(id -u)" -eq 0 ] || skip_all "needs root: pagemap frame numbers tell the huge zero page"

val() { sed -n "s/^$1 //p" "$tmp/out"; }

# at_least NAME MIN DESC
at_least() {
	local v
	v=$(val "$1")
	if [ "${v:-0}" -ge "$2" ]; then
		pass "$3: $1 $v >= $2"
	else
		fail "$3: $1 '$v', wanted >= $2"
	fi
}

run_setting() {
	local uzp=$1 mode fb rc w
	mode=$(thp_enabled)
	fb=$(vmstat_count thp_fault_fallback)
	"$bin" --size $size >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$(thp_enabled)" != "$mode" ] || [ "$(cat $knob)" != "$uzp" ]; then
		skip "use_zero_page $uzp: THP settings changed during the run"
		return
	fi
	if [ "$mode" = never ]; then
		if [ $rc -eq 3 ]; then
			pass "use_zero_page $uzp, THP never: exit 3"
		else
			fail "use_zero_page $uzp, THP never: exit $rc, wanted 3"
			show_output
		fi
		return
	fi
	if [ $rc -eq 3 ] && [ "$uzp" = 0 ] && thp_refused "$fb"; then
		skip "use_zero_page 0: no THPs to be had now (exit 3, thp_fault_fallback moved)"
		return
	fi
	if [ $rc -ne 0 ]; then
		fail "use_zero_page $uzp: exit $rc"
		show_output
		return
	fi
	pass "use_zero_page $uzp: read, wrote, verified (exit 0)"
	expect_grep "$tmp/out" "^use_zero_page $uzp\$" "use_zero_page $uzp: the setting reported"
	if [ "$uzp" = 1 ]; then
		expect_grep "$tmp/out" "^zero_ranges $ranges\$" \
			"use_zero_page 1: all $ranges read-faulted ranges map the huge zero page (pagemap)"
		expect_grep "$tmp/out" '^zero_pfns 1$' "use_zero_page 1: all map the same frame"
		expect_grep "$tmp/out" '^read_thp_ranges 0$' "use_zero_page 1: no read made a THP"
		w=$(val write_thp_ranges)
		at_least thp_fault_alloc_write "${w:-1}" "use_zero_page 1: the writes' $w THPs (pagemap)"
	else
		expect_grep "$tmp/out" '^zero_ranges 0$' "use_zero_page 0: no range maps the huge zero page"
		expect_grep "$tmp/out" "^read_thp_ranges $ranges\$" "use_zero_page 0: every read made a THP"
		at_least thp_fault_alloc_read $ranges "use_zero_page 0: the reads' THPs"
	fi
	expect_grep "$tmp/out" '^write_fault_p99_usec [0-9.]+$' "use_zero_page $uzp: write latency reported"
}

orig=$(cat $knob)
run_setting "$orig"
other=$((1 - orig))
if echo "$other" >$knob 2>/dev/null; then
	at_exit "echo $orig >$knob"
	run_setting "$other"
	echo "$orig" >$knob
else
	skip "use_zero_page $other: $knob is not writable"
fi

if build_no_thp; then
	expect_rc 3 "THP disabled for the process: exit 3" \
		"$tmp/no_thp" "$bin" --size 8M &&
		expect_grep "$tmp/err" 'only 0 of 4 read-faulted' \
			"exit 3 says how many ranges were huge"
	expect_rc 0 "--min-huge 0 accepts 4 KiB zero pages" \
		"$tmp/no_thp" "$bin" --size 8M --min-huge 0 &&
		expect_grep "$tmp/out" '^zero_ranges 0$' "--min-huge 0: reports zero_ranges 0"
else
	skip "exit 3 without THP (no C compiler to build the prctl helper)"
fi

check_metric_fd "zero page run" \
	"roi_usec use_zero_page ranges zero_ranges zero_pfns read_thp_ranges write_thp_ranges read_usec write_usec read_fault_p50_usec read_fault_p99_usec write_fault_p50_usec write_fault_p99_usec thp_zero_page_alloc thp_fault_alloc_read thp_fault_alloc_write thp_fault_fallback_write thp_split_pmd_write rss_kb" \
	"$bin" --size 4M --min-huge 0
check_roi "zero page run" "$bin" --size 4M --min-huge 0

check_usage "$bin"
check_value_opt "$bin" --size
expect_rc 2 "--size 3M (not 2M steps) refused" "$bin" --size 3M
expect_rc 2 "--min-huge over the ranges refused" "$bin" --size 4M --min-huge 3
check_too_big "$bin" --size 4T

finish
