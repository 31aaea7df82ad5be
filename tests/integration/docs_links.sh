#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The guide holds together in a clone: in README.md, docs/**/*.md and the
# READMEs of harness/, workloads/, kernel-patches/ and tests/bench/,
#  - every relative markdown link ([text](path), [text](path#anchor),
#    [id]: path) names a file or folder inside the repository, and an
#    anchor names a heading of the linked page (GitHub's slugs);
#  - every code span word that looks like a repository path (it starts
#    with one of the top folders, or is run.sh / Makefile, and holds no
#    placeholder characters such as < * { …) exists, relative to the
#    repository or to the file's folder, or is built from a
#    source beside it (workloads/mremap from mremap.c) or by a Makefile
#    rule that names it (harness/thpbench); one that climbs out with
#    ../ (`../shared/DESIGN.md`) must land inside the repository;
#    results/ and build/ are made by runs and builds, not checked;
#  - README.md is at most 300 lines and opens with the two commands for
#    a fresh machine, `./run.sh` and `./run.sh check` (.ci/run calls the
#    second).
# First it plants each defect in a scratch tree and must see each fail,
# so a checker that passes everything cannot pass here.
# Exit 0 pass, 1 fail. Needs nothing but sh, awk and coreutils.
# The markdown it plants holds literal backticks, never expansions:
# shellcheck disable=SC2016
cd "$(dirname "$0")/../.." || exit 1

TOPS='harness|workloads|kernel-patches|configs|scripts|docs|tests|results|build|\.ci'
# Paths of other trees that look like ours (a Linux tree's scripts/).
EXTERNAL='scripts/kconfig/merge_config.sh'

# refs FILE: one line per reference, "link LINE TARGET" or
# "path LINE WORD", tab-separated. Fenced and indented code blocks are
# skipped; a code span ends at its closing backtick or a blank line.
refs() {
	awk -v tops="$TOPS" '
	function flush_span(   n, i, w, words) {
		n = split(span, words, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			w = words[i]
			sub(/^\.\//, "", w)
			if (w ~ "^(" tops ")/[A-Za-z0-9._/+-]*$" || w == "run.sh" || w == "Makefile" || w ~ /^(\.\.\/)+[A-Za-z0-9._\/+-]+$/)
				printf "path\t%d\t%s\n", span_line, w
		}
		span = ""
	}
	BEGIN { fence = 0; incode = 0; prev_blank = 1; inblock = 0 }
	{
		line = $0
		if (line ~ /^[ \t]*(```|~~~)/) { fence = !fence; prev_blank = 0; next }
		if (fence) next
		if (line ~ /^[ \t]*$/) {
			if (incode) { incode = 0; span = "" }
			prev_blank = 1; inblock = 0; next
		}
		if (!incode && (line ~ /^(    |\t)/) && (prev_blank || inblock)) {
			inblock = 1; prev_blank = 0; next
		}
		para_start = prev_blank
		inblock = 0; prev_blank = 0
		prose = ""
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (c == "`") {
				if (incode) { incode = 0; flush_span() }
				else { incode = 1; span = ""; span_line = NR }
				prose = prose " "
				continue
			}
			if (incode) span = span c
			else prose = prose c
		}
		if (incode) span = span " "
		rest = prose
		while (match(rest, /\]\([^) \t]+\)/)) {
			t = substr(rest, RSTART + 2, RLENGTH - 3)
			printf "link\t%d\t%s\n", NR, t
			rest = substr(rest, RSTART + RLENGTH)
		}
		if (para_start && match(prose, /^ *\[[^]]+\]: +[^ \t]+/)) {
			t = prose
			sub(/^ *\[[^]]+\]: +/, "", t)
			sub(/[ \t].*/, "", t)
			printf "link\t%d\t%s\n", NR, t
		}
	}' "$1"
}

# slugs FILE: GitHub's anchor for each heading of a markdown file.
slugs() {
	awk '
	/^[ \t]*(```|~~~)/ { fence = !fence; next }
	fence { next }
	/^#+[ \t]/ {
		h = $0
		sub(/^#+[ \t]+/, "", h)
		sub(/[ \t]+#*[ \t]*$/, "", h)
		h = tolower(h)
		gsub(/[^a-z0-9 _-]/, "", h)
		gsub(/ /, "-", h)
		print h
	}' "$1"
}

# inside ROOT PATH: PATH (which exists) lies inside ROOT.
inside() {
	case $(realpath -- "$2") in
	"$(realpath -- "$1")" | "$(realpath -- "$1")"/*) return 0 ;;
	esac
	return 1
}

# check_file ROOT FILE: a line per reference that does not resolve;
# exit status 1 when there is one.
check_file() {
	root=$1 f=$2 bad=0
	dir=$(dirname -- "$f")
	refs "$f" > "$tmp/refs" || return 1
	while IFS='	' read -r kind ln target; do
		case $kind in
		link)
			case $target in
			*://* | mailto:*) continue ;;
			esac
			file=${target%%#*}
			anchor=
			case $target in *'#'*) anchor=${target#*#} ;; esac
			if [ -z "$file" ]; then
				p=$f
			else
				p=$dir/$file
			fi
			if [ ! -e "$p" ]; then
				echo "$f:$ln: link $target: no $p"
				bad=1
			elif ! inside "$root" "$p"; then
				echo "$f:$ln: link $target: outside the repository"
				bad=1
			elif [ -n "$anchor" ] && [ -f "$p" ] && ! slugs "$p" | grep -qxF -- "$anchor"; then
				echo "$f:$ln: link $target: no heading #$anchor in $p"
				bad=1
			fi ;;
		path)
			case " $EXTERNAL " in *" $target "*) continue ;; esac
			case $target in
			../*)
				if [ ! -e "$dir/$target" ] || ! inside "$root" "$dir/$target"; then
					echo "$f:$ln: path \`$target\`: outside the repository"
					bad=1
				fi
				continue ;;
			esac
			p=$root/${target%/}
			if [ -e "$p" ] || [ -e "$p.c" ] || [ -e "$p.cc" ] || [ -e "$dir/$target" ]; then
				continue
			fi
			if [ -f "$root/Makefile" ] && grep -qF -- "$target" "$root/Makefile"; then
				continue
			fi
			case $target in
			results/* | build/*) continue ;;	# made by a run or a build
			esac
			echo "$f:$ln: path \`$target\`: no such file in the repository"
			bad=1 ;;
		esac
	done < "$tmp/refs"
	return $bad
}

# check_readme ROOT: at most 300 lines; the first code block, within the
# first 10 lines, is exactly the two commands.
check_readme() {
	r=$1/README.md
	n=$(wc -l < "$r")
	rrc=0
	if [ "$n" -gt 300 ]; then
		echo "$r: $n lines, more than 300: move the detail to docs/"
		rrc=1
	fi
	if ! awk '
		/^```/ { exit 1 }
		/^(    |\t)[^ \t]/ {
			if (NR > 10 || $0 != "    ./run.sh") exit 1
			if ((getline l) <= 0 || l != "    ./run.sh check") exit 1
			if ((getline l) > 0 && l !~ /^[ \t]*$/) exit 1
			ok = 1; exit 0
		}
		END { exit !ok }' "$r"; then
		echo "$r: does not open (first code block, within 10 lines) with exactly \`./run.sh\` and \`./run.sh check\`"
		rrc=1
	fi
	return $rrc
}

# The files the guide is made of, relative to ROOT.
doc_files() {
	(cd "$1" && {
		ls README.md
		find docs -name '*.md' 2>/dev/null
		ls harness/README.md harness/*/README.md workloads/README.md \
			kernel-patches/README.md kernel-patches/*/README.md \
			tests/bench/README.md 2>/dev/null
	} | sort -u)
}

# check_tree ROOT: every doc file and the README's shape.
check_tree() {
	trc=0
	for d in $(doc_files "$1"); do
		check_file "$1" "$1/$d" || trc=1
	done
	check_readme "$1" || trc=1
	return $trc
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# --- the checker must catch what it is for -------------------------------
fake=$tmp/repo
good_readme() {
	printf '# t\n\nOn a fresh machine:\n\n    ./run.sh\n    ./run.sh check\n\n'
}
plant() {	# plant NAME EXPECTED-MESSAGE: the fake tree must fail with it
	if out=$(check_tree "$fake" 2>&1); then
		echo "FAIL: self-test $1: a tree with it passed"
		fail=1
	elif ! printf '%s\n' "$out" | grep -qF -- "$2"; then
		echo "FAIL: self-test $1: expected '$2', got:"
		printf '%s\n' "$out" | sed 's/^/    /'
		fail=1
	fi
}
reset_fake() {
	rm -rf "$fake" "$tmp/outside.md"
	mkdir -p "$fake/docs" "$fake/harness/cli" "$fake/workloads"
	good_readme > "$fake/README.md"
	printf '# Topic\n\n## A section: `./x`\n\nSee [the README](../README.md) and [here](#a-section-x).\n' > "$fake/docs/topic.md"
	printf 'int main(void) { return 0; }\n' > "$fake/workloads/w.c"
	printf 'all: harness/thpbench\n' > "$fake/Makefile"
	printf 'x\n' > "$fake/harness/cli/main.c"
	printf 'x\n' > "$tmp/outside.md"
}

reset_fake
printf '[ok](docs/topic.md#a-section-x) [web](https://example.org/x) `workloads/w` `harness/thpbench` `configs/<suite>.conf` `results/x/y`\n\n```\n[not a link](nowhere.md) `harness/nowhere.c`\n```\n\n    indented `harness/nowhere.c` [x](nowhere.md)\n' >> "$fake/README.md"
if ! out=$(check_tree "$fake" 2>&1); then
	echo "FAIL: self-test: a sound tree was refused:"
	printf '%s\n' "$out" | sed 's/^/    /'
	fail=1
fi

reset_fake; echo 'See [gone](docs/gone.md).' >> "$fake/README.md"
plant "a broken link" "link docs/gone.md: no"
reset_fake; echo 'See [up](../../outside.md).' >> "$fake/docs/topic.md"
plant "a link out of the repository" "outside the repository"
reset_fake; echo 'See [there](topic.md#no-such-heading).' >> "$fake/docs/topic.md"
plant "a broken anchor" "no heading #no-such-heading"
reset_fake; printf 'Run `sh\ntests/integration/gone.sh` alone.\n' >> "$fake/docs/topic.md"
plant "a missing path in a code span over two lines" "path \`tests/integration/gone.sh\`"
reset_fake; echo 'Read `../shared/DESIGN.md` and `docs/DESIGN.md`.' >> "$fake/README.md"
plant "a missing path" "path \`docs/DESIGN.md\`"
reset_fake; echo 'Read `../shared/DESIGN.md`.' >> "$fake/README.md"
plant "a path out of the repository" "path \`../shared/DESIGN.md\`: outside the repository"
reset_fake; i=0; while [ $i -lt 300 ]; do echo x; i=$((i + 1)); done >> "$fake/README.md"
plant "a long README" "more than 300"
reset_fake; printf '# t\n\n    make\n    ./run.sh check\n' > "$fake/README.md"
plant "another opening" "does not open"
reset_fake; printf '# t\n\n    ./run.sh\n\n    ./run.sh check\n' > "$fake/README.md"
plant "the commands apart" "does not open"

# --- the repository's own guide ------------------------------------------
root=$(pwd)
if ! out=$(check_tree "$root" 2>&1); then
	printf '%s\n' "$out" | sed "s|$root/||g"
	echo "FAIL: the guide names what is not in the repository (fix the link or path)"
	fail=1
fi

if [ "$fail" -eq 0 ]; then
	echo "docs_links: ok ($(doc_files "$root" | wc -l) files)"
fi
exit $fail
