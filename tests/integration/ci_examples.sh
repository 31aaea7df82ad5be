#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The CI examples in docs/ci/ are what they claim to be:
# - gitlab-ci.yml and the LAVA definition parse as YAML (libyaml through
#   Perl's YAML::XS) and hold what GitLab / LAVA read (script, the JUnit
#   report path; metadata.format, run.steps); the nightly options they pass
#   exist
# - the Jenkinsfile's brackets balance outside strings and comments, and it
#   publishes the JUnit file nightly writes (no Groovy parser in Debian
#   without a JVM: this is a structural check only)
# - the LAVA script runs a (tiny) nightly and hands LAVA lava-test-case
#   lines whose arguments LAVA accepts (a stand-in lava-test-case checks
#   them: names and units without blanks, result pass|fail|skip|unknown,
#   numeric measurement)
# - the systemd service and timer pass `systemd-analyze verify` (installed
#   under this checkout's path) and the timer's calendar is valid.
. tests/integration/lib.sh
trap 'rm -rf "$TMPD"' EXIT

for tool in perl systemd-analyze jq; do
	command -v $tool >/dev/null || { echo "FAIL: $tool missing (scripts/install-deps.sh)"; exit 1; }
done
perl -MYAML::XS -e1 2>/dev/null ||
	{ echo "FAIL: Perl YAML::XS missing (libyaml-libyaml-perl; scripts/install-deps.sh)"; exit 1; }
D=docs/ci

# yq FILE PERL-EXPR: evaluate an expression over the parsed document $d.
yq() {
	perl -MYAML::XS=LoadFile -e 'my $d = LoadFile($ARGV[0]); my $v = eval $ARGV[1];
		die $@ if $@; print defined $v ? "$v\n" : "(undef)\n"' "$1" "$2"
}
parses() { yq "$1" 1 >/dev/null; }
calendar_ok() { systemd-analyze calendar "$1" >/dev/null; }

check "gitlab-ci.yml parses as YAML" parses $D/gitlab-ci.yml
check "  its job publishes the nightly JUnit file" test "$(yq $D/gitlab-ci.yml \
	'$d->{"thpbench-nightly"}{artifacts}{reports}{junit}')" = '$NIGHTLY_DIR/history-junit.xml'
check "  its script runs ./run.sh nightly" sh -c "perl -MYAML::XS=LoadFile -e \
	'print join(\"\\n\", @{LoadFile(\$ARGV[0])->{\"thpbench-nightly\"}{script}})' $D/gitlab-ci.yml |
	grep -q '^./run.sh nightly '"
check "lava/thpbench-nightly.yaml parses as YAML" parses $D/lava/thpbench-nightly.yaml
check "  a LAVA test definition" test "$(yq $D/lava/thpbench-nightly.yaml \
	'$d->{metadata}{format}')" = "Lava-Test Test Definition 1.0"
check "  with a name and run steps" test "$(yq $D/lava/thpbench-nightly.yaml \
	'$d->{metadata}{name} && @{$d->{run}{steps}}')" -ge 1
check "  whose script exists" test -f "$(yq $D/lava/thpbench-nightly.yaml \
	'(split / /, $d->{run}{steps}[0])[1]')"
check "otava.yaml parses as YAML" parses $D/otava.yaml
check "  its test reads night_metrics in time order" sh -c "perl -MYAML::XS=LoadFile -e 'print LoadFile(\$ARGV[0])->{tests}{\"box1-mremap-roi\"}{query}' $D/otava.yaml | grep -q 'ORDER BY time'"
check "the LAVA script is valid sh" sh -n $D/lava/thpbench-nightly.sh
sh scripts/nightly.sh --help >"$TMPD/help"
for opt in --kernel-id --db -o; do
	check "nightly takes $opt (used by the examples)" grep -q -- "^  *$opt " "$TMPD/help"
done

# Brackets of the Jenkinsfile outside '...', "...", '''...''' and // comments.
balance=$(awk '
	{ line = $0; out = "" ; i = 1
	  while (i <= length(line)) {
		c = substr(line, i, 1); two = substr(line, i, 2); three = substr(line, i, 3)
		if (!q && three == "\047\047\047") { tq = !tq; i += 3; continue }
		if (tq) { i++; continue }
		if (!q && two == "//") break
		if (q) { if (c == "\\") i++; else if (c == q) q = ""; i++; continue }
		if (c == "\"" || c == "\047") { q = c; i++; continue }
		if (c == "{") b++; if (c == "}") b--; if (c == "(") p++; if (c == ")") p--
		if (b < 0 || p < 0) bad = 1
		i++
	  }
	}
	END { print (bad || b || p || q || tq) ? "unbalanced" : "ok" }' $D/Jenkinsfile)
check "the Jenkinsfile's brackets and strings balance" test "$balance" = ok
check "  it is a declarative pipeline" grep -q '^pipeline {' $D/Jenkinsfile
check "  it publishes the nightly JUnit file" grep -q 'junit testResults: "results/nightly-.*/history-junit.xml"' $D/Jenkinsfile

# systemd: the units as installed for this checkout.
mkdir -p "$TMPD/units"
for u in thpbench-nightly.service thpbench-nightly.timer; do
	sed "s|/opt/thpbench|$(pwd)|g" $D/systemd/$u >"$TMPD/units/$u"
done
check "systemd-analyze verify: service and timer" \
	systemd-analyze verify "$TMPD/units/thpbench-nightly.service" "$TMPD/units/thpbench-nightly.timer"
cal=$(sed -n 's/^OnCalendar=//p' $D/systemd/thpbench-nightly.timer)
check "the timer's OnCalendar ($cal) is a valid calendar" calendar_ok "$cal"
check "the service is a oneshot running ./run.sh nightly" \
	sh -c "grep -q '^Type=oneshot' $D/systemd/thpbench-nightly.service &&
		grep -q '^ExecStart=/opt/thpbench/run.sh nightly' $D/systemd/thpbench-nightly.service"

# The LAVA script end to end, with a tiny nightly and a stand-in helper.
if ! $TB history --help | grep -q '^  check'; then
	echo "note: no history check in this thpbench: the LAVA run is skipped"
	finish
fi
mkdir -p "$TMPD/bin"
cat >"$TMPD/bin/lava-test-case" <<'EOS'
#!/bin/sh
# Accept only what lava_test_shell's lava-test-case accepts.
name=$1; shift
case $name in ''|*[!A-Za-z0-9._/-]*) echo "bad name: $name" >>"$LAVA_LOG.bad"; exit 1 ;; esac
while [ $# -gt 0 ]; do
	case $1 in
	--result) case $2 in pass|fail|skip|unknown) ;; *) echo "bad result: $2" >>"$LAVA_LOG.bad" ;; esac; shift 2 ;;
	--measurement) echo "$2" | grep -Eq '^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$' ||
		echo "bad measurement: $2" >>"$LAVA_LOG.bad"; shift 2 ;;
	--units) case $2 in ''|*[!A-Za-z0-9._/%-]*) echo "bad units: $2" >>"$LAVA_LOG.bad" ;; esac; shift 2 ;;
	*) echo "unexpected: $1" >>"$LAVA_LOG.bad"; shift ;;
	esac
done
echo "$name" >>"$LAVA_LOG"
EOS
chmod +x "$TMPD/bin/lava-test-case"
export LAVA_LOG="$TMPD/lava.log"
PATH="$TMPD/bin:$PATH" LAVA_OUT="$TMPD/lava" \
	NIGHTLY="sh scripts/nightly.sh --suite tests/fixtures/nightly/tiny.conf" \
	sh $D/lava/thpbench-nightly.sh v6.18-rc1 "$TMPD/h.sqlite" >"$TMPD/lava.out" 2>&1
check "the LAVA script exits 0 (LAVA reads the results, not the exit)" test $? -eq 0
check "  it reported test cases" test "$(wc -l <"$LAVA_LOG")" -ge 2
check "  one per metric and the gate" grep -q '^nightly-gate$' "$LAVA_LOG"
check "  every argument as LAVA takes it" test ! -e "$LAVA_LOG.bad"
[ -e "$LAVA_LOG.bad" ] && cat "$LAVA_LOG.bad"
finish
