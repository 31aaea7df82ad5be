#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/layers.sh must catch what it promises to: each case below plants
# one violation in a small fake harness tree and expects a failure naming
# it; the clean tree must pass.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

tree() {
	rm -rf "$T/h"
	mkdir -p "$T/h/util" "$T/h/stats" "$T/h/results" "$T/h/system" "$T/h/cli"
	printf '#include "u2.h"\nint u(void);\n' > "$T/h/util/u.h"
	printf 'int u2(void);\n' > "$T/h/util/u2.h"
	printf '#include "u.h"\nint u(void) { return 1; }\n' > "$T/h/util/u.c"
	printf '#include "util/u.h"\nint s(void);\n' > "$T/h/stats/s.h"
	printf '#include "s.h"\nint s(void) { return u(); }\n' > "$T/h/stats/s.c"
	printf '#include "stats/s.h"\nint r(void) { return s(); }\n' > "$T/h/results/r.c"
	printf 'int k(void) { return 0; }\n' > "$T/h/system/k.c"
}

# expect WANT(0|1) TEXT-IN-OUTPUT WHAT
expect() {
	sh tests/layers.sh "$T/h" > "$T/out" 2>&1
	rc=$?
	if [ "$rc" -ne "$1" ] || ! grep -q -- "$2" "$T/out"; then
		echo "FAIL: $3: exit $rc, wanted $1 and \"$2\""
		cat "$T/out"
		fail=1
	fi
}

tree
expect 0 "no circles ok" "the clean tree"

tree
printf '#include "stats/s.h"\n' >> "$T/h/util/u.c"
expect 1 "util/u.c:3: includes \"stats/s.h\": layer util may include only lower layers, and stats is above it" "an upward include"

tree
printf '#include "system/k.h"\n' >> "$T/h/results/r.c"
printf 'int k(void);\n' > "$T/h/system/k.h"
expect 1 "and system is its peer" "a peer include"

tree
printf '#include "../stats/s.h"\n' >> "$T/h/results/r.c"
expect 1 "not by ../" "a ../ include"

tree
printf '#include "nothere.h"\n' >> "$T/h/stats/s.c"
expect 1 "no such header" "a missing header"

tree
printf '#include "u.h"\n' >> "$T/h/util/u2.h"
expect 1 "include circle" "u.h -> u2.h -> u.h"

tree
printf 'int x;\n' > "$T/h/loose.c"
expect 1 "not in a layer folder" "a file outside the layers"

# Calls: u.c calls s(), s.c calls u(): a circle through extern
# declarations, which the includes alone do not show.
tree
printf 'int s(void);\nint v(void) { return s(); }\n' >> "$T/h/util/u.c"
for c in "$T"/h/util/u.c "$T"/h/stats/s.c "$T"/h/results/r.c "$T"/h/system/k.c; do
	gcc -c -I"$T/h" "$c" -o "${c%.c}.o" || fail=1
done
expect 1 "call circle" "a call circle"
expect 1 "util/u.c calls s() of $T/h/stats/s.c" "a call upwards"

[ "$fail" = 0 ] && echo "layers self-test: 10 cases ok"
exit "$fail"
