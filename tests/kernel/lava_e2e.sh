#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# thpbench under LAVA's dispatcher, end to end (make lava-e2e; not in
# check: a kernel build the first time, then seven TCG boots; minutes).
# lava-run (Debian's lava-dispatcher 2023.01, no server) runs the jobs on
# the qemu device of configs/lava/devices/. Asserted:
#  - ./run.sh lava on kernel A: LAVA's deploy, boot and test-shell steps
#    pass; every case has a verdict and every measurement units;
#    results.json comes back whole (extract-results.sh's CRC) and has
#    every repetition;
#  - the history made from it (nightly --results, the device as machine)
#    gives the same history check series and verdicts as one made from a
#    local guest run of the same suite on the same kernel (./run.sh guest);
#  - ./run.sh ab 000 --backend lava --devices 2: thp_split_pmd 0 on A and
#    256 on B, as with the qemu backend, and each round's two jobs ran
#    at once (the LAVA rounds take less time than the same boots one
#    after another, --devices 1, whose figures are printed too);
#  - a LAVA lab of one host (lava-lab.sh: lava-server on a throwaway
#    PostgreSQL, gunicorn, the scheduler, a lava-worker, 2 qemu devices)
#    comes up; the same A/B with --lava-lab: its jobs submitted with
#    lavacli and read back through the REST API (every thpbench
#    measurement there has a unit), both devices used, 0 vs 256 splits;
#  - the lab is stopped on every way out, and no lava-run, lava-server,
#    lava-worker, gunicorn, postgres or qemu process is left after.
# Exit 0 pass, 1 fail, 2 when a flow itself failed.
E2E_NAME=lava-e2e
. "$(dirname "$0")/e2e_lib.sh"

out=$REPO_DIR/results/lava-e2e-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
t0=$SECONDS
suite=kernel-patches/000-mremap-thp-pmd-move/suite.conf
reps=3

# 1. One suite as a LAVA job, into a history.
./run.sh lava "$suite" --reps "$reps" --out "$out/lava" --db "$out/lava.sqlite" \
	--machine lava-qemu > "$out/lava.txt" 2>&1 ||
	{ tail -n 30 "$out/lava.txt"; echo "lava-e2e: ./run.sh lava failed"; exit 2; }
c=$out/lava/cases.txt
for s in validate execute-qemu login-action job; do
	grep -qx "lava $s pass" "$c" && ok "LAVA step $s passed" || fail "LAVA step $s did not pass ($c)"
done
grep -qx '0_thpbench mremap_thp_always pass' "$c" && ok "the case's verdict is in LAVA's results" ||
	fail "no verdict for mremap_thp_always in $c"
grep -qx '0_thpbench suite pass' "$c" || fail "the suite case did not pass"
nm=$(awk 'NF == 5' "$c" | wc -l)
nu=$(awk 'NF == 5 && $5 != "-"' "$c" | wc -l)
[ "$nm" -gt 10 ] && [ "$nm" = "$nu" ] && ok "$nm measurements, all with units" ||
	fail "$nm measurements, $nu with units"
grep -qx '0_thpbench mremap_thp_always.vmstat.thp_split_pmd pass 0 count' "$c" ||
	fail "kernel A's thp_split_pmd is not 0 count in LAVA's results"
n=$(jq '[.cases[].runs[] | select(.status == "ok")] | length' "$out/lava/results.json")
[ "$n" = "$reps" ] && ok "results.json from the job log has all $reps repetitions" ||
	fail "results.json from the job log has $n ok repetitions, not $reps"

# 2. The same suite on the same kernel in a local guest, into a history.
./run.sh guest "$suite" --reps "$reps" --nodes 1 --out "$out/guest" > "$out/guest.txt" 2>&1 ||
	{ tail -n 30 "$out/guest.txt"; echo "lava-e2e: ./run.sh guest failed"; exit 2; }
sh scripts/nightly.sh --results "$out/guest/results.json" --machine lava-qemu \
	--db "$out/guest.sqlite" -o "$out/guest-nightly" --suite "$suite" \
	--kernel-id "$(jq -r .env.kernel "$out/guest/results.json")" > "$out/guest-nightly.txt" 2>&1 ||
	fail "recording the guest run failed ($out/guest-nightly.txt)"
for h in lava guest; do
	./harness/thpbench history check --db "$out/$h.sqlite" --format lava -o "$out/$h-check.txt" \
		> /dev/null 2>&1
	awk '{ print $2, $4 }' "$out/$h-check.txt" | sort > "$out/$h-verdicts.txt"
done
if [ -s "$out/lava-verdicts.txt" ] && cmp -s "$out/lava-verdicts.txt" "$out/guest-verdicts.txt"; then
	ok "history check: the same $(wc -l < "$out/lava-verdicts.txt") series and verdicts from LAVA and from a local guest"
else
	fail "history check differs: $(diff "$out/lava-verdicts.txt" "$out/guest-verdicts.txt" | head -5 | tr '\n' ' ')"
fi

# 3. A/B with the LAVA backend: 2 devices, then 1 for the time it saves.
for d in 2 1; do
	./run.sh ab kernel-patches/000-mremap-thp-pmd-move --backend lava --devices "$d" \
		--boots 2 --reps "$reps" --out "$out/ab-$d" > "$out/ab-$d.txt" 2>&1 ||
		{ tail -n 30 "$out/ab-$d.txt"; echo "lava-e2e: ./run.sh ab --backend lava --devices $d failed"; exit 2; }
	secs=$(grep -o 'LAVA round [0-9]* ([0-9]* at once) [0-9]* \(min [0-9]* \)\{0,1\}s' "$out/ab-$d.txt" |
		awk '{ s = 0; for (i = 6; i <= NF; i++) { if ($(i+1) == "min") s += 60 * $i; else if ($(i+1) == "s") s += $i } tot += s } END { print tot + 0 }')
	eval "rounds_$d=$secs"
	echo "lava-e2e: --devices $d: LAVA rounds took $secs s in all ($(grep -o 'total .*' "$out/ab-$d.txt" | tail -n 1))"
done
row=$(grep -E '^\*? +[0-9]+ .* thp_split_pmd$' "$out/ab-2/comparison.txt" | head -n 1)
a=$(jq '[.cases[].runs[] | select(.status == "ok") | .metrics["vmstat.thp_split_pmd"]] | unique' "$out/ab-2/A.json" | tr -d ' \n')
b=$(jq '[.cases[].runs[] | select(.status == "ok") | .metrics["vmstat.thp_split_pmd"]] | unique' "$out/ab-2/B.json" | tr -d ' \n')
[ "$a" = "[0]" ] && [ "$b" = "[256]" ] && ok "A/B on LAVA: thp_split_pmd 0 vs 256 (${row:-compare row not found})" ||
	fail "A/B on LAVA: thp_split_pmd A $a, B $b (want [0] and [256])"
devs=$(jq -r '.meta.lava.device' "$out"/ab-2/A-*/results.json "$out"/ab-2/B-*/results.json | sort | uniq -c | tr -s ' \n' '  ')
echo "lava-e2e: devices of the 2-device A/B's boots: $devs"
[ "${rounds_2:-0}" -gt 0 ] && [ "$rounds_2" -lt "${rounds_1:-0}" ] &&
	ok "2 devices: the boots took $rounds_2 s against $rounds_1 s one at a time" ||
	fail "2 devices took ${rounds_2:-?} s, 1 device ${rounds_1:-?} s: the jobs did not overlap"

# 4. The same A/B on a LAVA server: a lab of one host, 2 devices.
# In /tmp: the postgres user must reach its cluster, and a checkout may
# sit in a directory only root can enter (mktemp -d). Logs copied after.
lab=$(mktemp -d /tmp/thpbench-lab.XXXXXX)
chmod 755 "$lab"
trap 'kernel-patches/scripts/lava-lab.sh stop "$lab" > /dev/null 2>&1; cp "$lab"/*.log "$out/" 2>/dev/null; rm -rf "$lab"' EXIT
trap 'exit 130' INT TERM HUP
t_lab=$SECONDS
kernel-patches/scripts/lava-lab.sh start "$lab" --devices 2 > "$out/lab.txt" 2>&1 ||
	{ cat "$out/lab.txt"; echo "lava-e2e: the LAVA lab did not start"; exit 2; }
ok "LAVA lab up in $((SECONDS - t_lab)) s: $(grep -o 'http://[^ ]*' "$out/lab.txt" | head -n 1), 2 devices"
t_ab=$SECONDS
./run.sh ab kernel-patches/000-mremap-thp-pmd-move --backend lava --lava-lab "$lab/lab.env" \
	--devices 2 --boots 2 --reps "$reps" --out "$out/ab-server" > "$out/ab-server.txt" 2>&1 ||
	{ tail -n 30 "$out/ab-server.txt"; echo "lava-e2e: ./run.sh ab --lava-lab failed"; exit 2; }
echo "lava-e2e: A/B on the LAVA server took $((SECONDS - t_ab)) s"
a=$(jq '[.cases[].runs[] | select(.status == "ok") | .metrics["vmstat.thp_split_pmd"]] | unique' "$out/ab-server/A.json" | tr -d ' \n')
b=$(jq '[.cases[].runs[] | select(.status == "ok") | .metrics["vmstat.thp_split_pmd"]] | unique' "$out/ab-server/B.json" | tr -d ' \n')
[ "$a" = "[0]" ] && [ "$b" = "[256]" ] && ok "A/B on the LAVA server: thp_split_pmd 0 vs 256" ||
	fail "A/B on the LAVA server: thp_split_pmd A $a, B $b (want [0] and [256])"
nd=$(cat "$out"/ab-server/lava-*/device | sort -u | wc -l)
[ "$nd" = 2 ] && ok "the scheduler used both devices" || fail "jobs ran on $nd device(s)"
for t in "$out"/ab-server/lava-*/tests.json; do
	j=$(dirname "$t")
	nmeas=$(jq '[.results[] | select(.measurement != null and (.name | startswith("mremap")))] | length' "$t")
	nunit=$(jq '[.results[] | select(.measurement != null and (.name | startswith("mremap")) and .unit != "")] | length' "$t")
	split=$(jq -r '.results[] | select(.name == "mremap_thp_always.vmstat.thp_split_pmd") | "\(.measurement|tonumber) \(.unit)"' "$t")
	[ "$nmeas" -gt 10 ] && [ "$nmeas" = "$nunit" ] ||
		fail "$(basename "$j"): REST tests: $nmeas measurements, $nunit with a unit"
	case $(basename "$j") in
	lava-A-*) [ "$split" = "0 count" ] || fail "$(basename "$j"): REST thp_split_pmd '$split'" ;;
	lava-B-*) [ "$split" = "256 count" ] || fail "$(basename "$j"): REST thp_split_pmd '$split'" ;;
	esac
done
ok "REST read back: every thpbench measurement has a unit, thp_split_pmd as compare has it"
kernel-patches/scripts/lava-lab.sh stop "$lab" > /dev/null 2>&1 || fail "lava-lab.sh stop failed"

# 5. Nothing left running.
sleep 1
left=$(pgrep -fa 'lava-run|lava-worker|lava-scheduler|lava_server|gunicorn|postgres: |bin/postgres|qemu-system' || true)
[ -z "$left" ] && ok "no lava, gunicorn, postgres or qemu process left" || fail "left running: $left"
e2e_finish "$t0" "$out"
