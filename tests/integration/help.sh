#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# --help everywhere (GNU convention, issue 29): every entry point a user
# runs prints its help to stdout, nothing to stderr, and exits 0 -
# ./run.sh help, --help and -h (which list the commands, at once: nothing
# installed or built first), ./run.sh COMMAND --help for each command,
# scripts/*.sh, kernel-patches/scripts/*.sh (not common.sh, which is
# sourced), tests/bench/overhead.sh (./run.sh bench), every thpbench
# command and every history and bisect subcommand. The thpbench
# commands are read from `thpbench --help` and the history ones from
# `thpbench history --help`, so that a new one is checked too. Changes
# nothing; runs as any user.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

# helps DESC CMD...: exit 0, something on stdout, nothing on stderr. The
# timeout only ends a help that hangs (reading stdin, say).
helps() {
	desc=$1
	shift
	timeout 300 "$@" < /dev/null > "$TMPD/out" 2> "$TMPD/err"
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$TMPD/out" ] && [ ! -s "$TMPD/err" ]; then
		ok "$desc"
		return
	fi
	bad "$desc: exit $rc, $(wc -c < "$TMPD/out") bytes on stdout, stderr: $(head -c 200 "$TMPD/err" | tr '\n' ' ')"
}

for h in help --help -h; do
	helps "./run.sh $h" ./run.sh $h
done
./run.sh --help > "$TMPD/usage" 2>&1
for c in check bench ab bisect guest lava nightly pmu-check run compare merge \
	show plot restore list history SUITE help; do
	check "./run.sh --help lists $c" grep -q -- "^  .*\\b$c\\b" "$TMPD/usage"
done
# Help is instant: it runs no make (a make would need this directory's
# Makefile; a copy of run.sh alone has none).
mkdir "$TMPD/bare"
cp run.sh "$TMPD/bare/"
helps "./run.sh --help needs nothing built" sh "$TMPD/bare/run.sh" --help

for c in check test bench ab bisect guest lava nightly pmu-check run compare \
	merge show plot restore list history quick; do
	helps "./run.sh $c --help" ./run.sh $c --help
done

for s in scripts/*.sh kernel-patches/scripts/*.sh tests/bench/overhead.sh; do
	case $s in */common.sh) continue ;; esac
	helps "$s --help" "$s" --help
done

helps "thpbench --help" $TB --help
helps "thpbench -h" $TB -h
cmds=$($TB --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
check "thpbench --help lists its commands ($(echo $cmds | wc -w))" [ "$(echo $cmds | wc -w)" -ge 10 ]
for c in $cmds; do
	helps "thpbench $c --help" $TB "$c" --help
	helps "thpbench $c -h" $TB "$c" -h
done
subs=$($TB history --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
check "thpbench history --help lists its subcommands ($(echo $subs | wc -w))" [ "$(echo $subs | wc -w)" -ge 8 ]
for s in $subs; do
	helps "thpbench history $s --help" $TB history "$s" --help
done
for s in next report; do
	helps "thpbench bisect $s --help" $TB bisect "$s" --help
done
finish
