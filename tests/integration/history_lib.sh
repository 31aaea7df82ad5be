# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the history database tests (sourced after lib.sh).

# two_importers DB N: two `history import`s at once into DB, each with N
# nights of its own (tests/fixtures/compare/aa_a.json, aa_b.json re-dated)
# and thp.json in common; checks that both succeed. Logs: $TMPD/w1.log,
# $TMPD/w2.log.
two_importers() {
	F=tests/fixtures/compare
	i=1
	while [ $i -le "$2" ]; do
		d=$(printf '2026-01-%02d' $i)
		jq --arg t "${d}T02:00:00Z" '.env.started = $t' $F/aa_a.json >"$TMPD/a$i.json"
		jq --arg t "${d}T03:00:00Z" '.env.started = $t' $F/aa_b.json >"$TMPD/b$i.json"
		i=$((i + 1))
	done
	$TB history import --db "$1" "$TMPD"/a*.json $F/thp.json >"$TMPD/w1.log" 2>&1 &
	p1=$!
	$TB history import --db "$1" "$TMPD"/b*.json $F/thp.json >"$TMPD/w2.log" 2>&1 &
	p2=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
	check "two concurrent importers into one database both succeed" \
		test "$r1" -eq 0 -a "$r2" -eq 0
	[ "$r1" -eq 0 ] && [ "$r2" -eq 0 ] || cat "$TMPD/w1.log" "$TMPD/w2.log"
}
