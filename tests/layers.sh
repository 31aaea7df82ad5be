#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The layering of harness/ (harness/README.md), checked:
#   tests/layers.sh [HARNESS_DIR]
# 1. every .c/.h file lives in a layer folder;
# 2. every #include "..." names an existing header of its own folder
#    ("x.h") or of a lower layer ("stats/x.h"), never a higher or a peer
#    layer, never by "../";
# 3. no include circles (a header that, through others, includes itself);
# 4. where the objects are built, no call circles between modules and no
#    call into a higher layer (nm: which object defines what another uses).
# Prints one line per violation and exits 1 if there is any.
set -u
dir=${1:-harness}
# Rank of each layer, bottom up: a file may include its own folder and
# layers of a lower rank. Equal ranks are peers and may not include each
# other.
ranks='util 0
stats 1
results 2
system 2
measure 3
compare 4
plot 5
claims 5
history 6
bisect 6
cli 7'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "$ranks" > "$tmp/ranks"
fail=0

find "$dir" \( -name '*.c' -o -name '*.h' \) | sort > "$tmp/files"
# FILE LINE TARGET per include line; the target resolved to a path.
while read -r f; do
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
	sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
	while read -r line inc; do
		case $inc in
		*/*) t="$dir/$inc" ;;
		*) t="$(dirname "$f")/$inc" ;;
		esac
		echo "$f $line $inc $t"
	done
done < "$tmp/files" > "$tmp/incs"

awk -v dir="$dir" '
function layer(p,   r) {
	r = substr(p, length(dir) + 2)
	if (index(r, "/") == 0)
		return ""
	return substr(r, 1, index(r, "/") - 1)
}
FILENAME == ARGV[1] { rank[$1] = $2; next }
FILENAME == ARGV[2] {
	l = layer($1)
	if (!(l in rank)) {
		printf "%s: not in a layer folder (%s/LAYER/, see %s/README.md)\n", $1, dir, dir
		bad = 1
	}
	next
}
{
	f = $1; line = $2; inc = $3; t = $4
	if (inc ~ /(^|\/)\.\.(\/|$)/) {
		printf "%s:%s: includes \"%s\": name another layer by its folder, not by ../\n", f, line, inc
		bad = 1; next
	}
	if (system("test -f \"" t "\"") != 0) {
		printf "%s:%s: includes \"%s\": no such header (%s); another layer is named \"LAYER/%s\"\n", f, line, inc, t, inc
		bad = 1; next
	}
	a = layer(f); b = layer(t)
	if (a == b || !(a in rank) || !(b in rank))
		next
	if (rank[b] >= rank[a]) {
		printf "%s:%s: includes \"%s\": layer %s may include only lower layers, and %s is %s\n", f, line, inc, a, b, rank[b] == rank[a] ? "its peer" : "above it"
		bad = 1
	}
}
END { exit bad }
' "$tmp/ranks" "$tmp/files" "$tmp/incs" || fail=1

# FROM TO per include; tsort finds the loops.
circles() {
	what=$1
	tsort "$tmp/edges" > /dev/null 2> "$tmp/loops"
	if [ -s "$tmp/loops" ]; then
		echo "$what circle(s) (each printed as its members):"
		sed -n 's/^tsort: \([^:]*\)$/    \1/p' "$tmp/loops" |
			grep -v 'input contains a loop'
		fail=1
	fi
}
awk '{ print $1, $4 }' "$tmp/incs" | sed 's|/\./|/|g' | sort -u > "$tmp/edges"
circles include

# Calls, from the objects when they are built: which module defines each
# global symbol, which modules use it.
objs=$(find "$dir" -name '*.o' ! -path '*/static/*' | grep -v '/cli/main\.o$' | sort)
if [ -n "$objs" ]; then
	for o in $objs; do
		m=${o%.o}
		nm -g --defined-only "$o" | awk -v m="$m" 'NF == 3 { print "D", $3, m }'
		nm -u "$o" | awk -v m="$m" '{ print "U", $NF, m }'
	done > "$tmp/syms"
	awk '$1 == "D" { def[$2] = $3; next }
	     { use[NR] = $2 " " $3 }
	     END { for (i in use) { split(use[i], u, " ");
		   if ((u[1] in def) && def[u[1]] != u[2]) print u[2], def[u[1]], u[1] } }' \
		"$tmp/syms" | sort -u > "$tmp/calls"
	cut -d' ' -f1,2 "$tmp/calls" | sort -u > "$tmp/edges"
	circles call
	awk -v dir="$dir" '
	function layer(p,   r) {
		r = substr(p, length(dir) + 2)
		return substr(r, 1, index(r, "/") - 1)
	}
	FILENAME == ARGV[1] { rank[$1] = $2; next }
	{
		a = layer($1); b = layer($2)
		if (a != b && (a in rank) && (b in rank) && rank[b] >= rank[a]) {
			printf "%s.c calls %s() of %s.c: layer %s may call only lower layers\n", $1, $3, $2, a
			bad = 1
		}
	}
	END { exit bad }' "$tmp/ranks" "$tmp/calls" || fail=1
fi

if [ "$fail" = 0 ]; then
	echo "layers: $(wc -l < "$tmp/files") files, $(wc -l < "$tmp/incs") includes, layering and no circles ok"
fi
exit "$fail"
