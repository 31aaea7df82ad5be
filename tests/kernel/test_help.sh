#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# --help of every kernel-patches/scripts entry point and of the thpbench
# verbs they call: the usage on stdout, nothing on stderr, exit 0; a
# usage error: the usage on stderr, nothing on stdout, exit 2.
set -u
. "$(dirname "$0")/lib.sh"
tb=$REPO_DIR/harness/thpbench
[ -x "$tb" ] || skip "harness/thpbench not built (make)"

help_ok()
{
	local what=$1 rc=0
	shift
	"$@" --help > "$t_tmp/out" 2> "$t_tmp/err" || rc=$?
	[ "$rc" = 0 ] && [ -s "$t_tmp/out" ] && [ ! -s "$t_tmp/err" ] ||
		fail "$what --help: exit $rc, $(wc -l < "$t_tmp/out") lines on stdout, stderr: $(head -c 200 "$t_tmp/err")"
}
usage_err()
{
	local what=$1 rc=0
	shift
	"$@" > "$t_tmp/out" 2> "$t_tmp/err" || rc=$?
	[ "$rc" = 2 ] && [ ! -s "$t_tmp/out" ] && [ -s "$t_tmp/err" ] ||
		fail "$what (a usage error): exit $rc, stdout: $(head -c 200 "$t_tmp/out")"
}

for s in "$KP"/scripts/*.sh; do
	case $(basename "$s") in common.sh) continue ;; esac
	help_ok "$(basename "$s")" bash "$s"
done
help_ok "baremetal.sh status" bash "$KP/scripts/baremetal.sh" status
for v in "bisect" "bisect plan" "bisect driver" "suite" "series" "provenance"; do
	# shellcheck disable=SC2086
	help_ok "thpbench $v" "$tb" $v
done
usage_err "ab.sh" bash "$KP/scripts/ab.sh"
usage_err "baremetal.sh" bash "$KP/scripts/baremetal.sh"
usage_err "extract-results.sh" bash "$KP/scripts/extract-results.sh" one
usage_err "install-deps.sh" bash "$KP/scripts/install-deps.sh" --bogus
usage_err "thpbench suite" "$tb" suite
usage_err "thpbench series" "$tb" series
[ "$T_FAILS" -eq 0 ] && ok "--help: stdout, exit 0, for every script and verb; usage errors: stderr, exit 2"
finish
