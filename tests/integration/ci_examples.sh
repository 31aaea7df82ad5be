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
# The command the file documents, as one line: "otava SUBCOMMAND ...".
otava_cmd=$(sed -n 's/^#  *\(otava .*\)$/\1/p' $D/otava.yaml)
otava_test=$(echo "$otava_cmd" | awk '{ print $NF }')
check "  it documents one otava command line" test "$(echo "$otava_cmd" | grep -c .)" -eq 1
check "  the subcommand before --config-file (Otava drops a --config-file given before it)" \
	sh -c "echo '$otava_cmd' | grep -Eq '^otava analyze( [^ ]+)* --config-file docs/ci/otava.yaml '"
check "  the test it names ($otava_test) is in the file and reads night_metrics in time order" \
	sh -c "perl -MYAML::XS=LoadFile -e 'print LoadFile(\$ARGV[0])->{tests}{\$ARGV[1]}{query}' $D/otava.yaml '$otava_test' | grep -q 'FROM night_metrics.*ORDER BY time' -z"
check "  no postgres: block (the subcommand ignores it: connection from POSTGRES_*)" \
	test "$(yq $D/otava.yaml 'exists $d->{postgres} ? 1 : 0')" = 0
for v in HOSTNAME PORT USERNAME PASSWORD DATABASE; do
	check "  it says to set POSTGRES_$v" grep -q "POSTGRES_$v=" $D/otava.yaml
done
check "  --since given (Otava's default is the last 365 days)" sh -c "echo '$otava_cmd' | grep -q -- --since"
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

# The examples end to end, each night in a checkout cleaned or made afresh
# the way the CI does it, with a tiny nightly: the history must survive.
if ! $TB history --help | grep -q '^  check'; then
	echo "note: no history check in this thpbench: the end-to-end runs are skipped"
	finish
fi
REPO=$(pwd)
# checkout DIR: a git checkout of this project as a CI job sees it (the
# tree through committed symlinks, so nothing is built again), whose
# ./run.sh runs the nightly of the tiny suite.
checkout() {
	mkdir -p "$1" &&
	for d in harness scripts configs tests workloads docs; do
		ln -s "$REPO/$d" "$1/$d"
	done &&
	printf '#!/bin/sh\n[ "$1" = nightly ] || exit 2\nshift\nexec sh scripts/nightly.sh --suite tests/fixtures/nightly/tiny.conf "$@"\n' \
		>"$1/run.sh" &&
	chmod +x "$1/run.sh" &&
	git -C "$1" init -q && git -C "$1" add . &&
	git -C "$1" -c user.name=ci -c user.email=ci@localhost commit -qm checkout
}
runs_in() { n=$($TB history list --db "$1" --format json 2>/dev/null | jq length 2>/dev/null); echo "${n:-0}"; }

# GitLab: the job's variables and script as GitLab runs them, after its
# git clean -ffdx; /var/lib/thpbench (the runner's own disk) is here under
# $TMPD. Two nights must both be in the history.
G=$TMPD/gitlab
checkout "$G/builds/proj" || bad "make a checkout"
mkdir -p "$G/var-lib-thpbench"
perl -MYAML::XS=LoadFile -e 'my $j = LoadFile($ARGV[0])->{"thpbench-nightly"};
	print "export $_=\"$j->{variables}{$_}\"\n" for sort keys %{$j->{variables}};
	print "$_\n" for @{$j->{script}}' $D/gitlab-ci.yml |
	sed "s|/var/lib/thpbench|$G/var-lib-thpbench|g" >"$G/job.sh"
gitlab_night() {
	( cd "$G/builds/proj" && git clean -ffdxq &&
	  export GITLAB_CI=true CI_PROJECT_DIR="$G/builds/proj" CI_PIPELINE_ID=$1 &&
	  sh -e "$G/job.sh" ) >"$G/night$1.out" 2>&1
}
gitlab_night 101
check "GitLab: the job's first night passes (exit 0)" test $? -eq 0
gitlab_night 102
check "  the second, after git clean -ffdx, too" test $? -eq 0
db=$(sed -n 's/^export THPBENCH_DB="\(.*\)"$/\1/p' "$G/job.sh")
case $db in /*) ;; *) db=$G/builds/proj/$db ;; esac
check "  its history keeps both nights ($(runs_in "$db"))" test "$(runs_in "$db")" -eq 2
check "  and is outside the checkout" sh -c "case '$db' in '$G/builds/proj'/*) exit 1 ;; esac"
( cd "$G/builds/proj" && GITLAB_CI=true CI_PROJECT_DIR="$G/builds/proj" \
	./run.sh nightly --db results/history.sqlite -o results/n ) >"$G/inside.out" 2>&1
check "  a history inside the checkout is refused under GitLab CI (exit 2)" test $? -eq 2
check "    saying why, before the run" sh -c "grep -q 'inside the checkout' '$G/inside.out' && test ! -e '$G/builds/proj/results/n'"

# LAVA: a fresh checkout for every job, a stand-in lava-test-case.
mkdir -p "$TMPD/bin"
cat >"$TMPD/bin/lava-test-case" <<'EOS'
#!/bin/sh
# Accept only what lava_test_shell's lava-test-case accepts; log "NAME RESULT".
name=$1; shift
case $name in ''|*[!A-Za-z0-9._/-]*) echo "bad name: $name" >>"$LAVA_LOG.bad"; exit 1 ;; esac
result=
while [ $# -gt 0 ]; do
	case $1 in
	--result) result=$2; case $2 in pass|fail|skip|unknown) ;; *) echo "bad result: $2" >>"$LAVA_LOG.bad" ;; esac; shift 2 ;;
	--measurement) echo "$2" | grep -Eq '^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$' ||
		echo "bad measurement: $2" >>"$LAVA_LOG.bad"; shift 2 ;;
	--units) case $2 in ''|*[!A-Za-z0-9._/%-]*) echo "bad units: $2" >>"$LAVA_LOG.bad" ;; esac; shift 2 ;;
	*) echo "unexpected: $1" >>"$LAVA_LOG.bad"; shift ;;
	esac
done
echo "$name $result" >>"$LAVA_LOG"
EOS
chmod +x "$TMPD/bin/lava-test-case"
export LAVA_LOG="$TMPD/lava.log"
L=$TMPD/lava
lava_default_db=$(yq $D/lava/thpbench-nightly.yaml '$d->{params}{THPBENCH_DB}')
# lava_job N DB: job N in a checkout of its own, the definition's run step.
lava_job() {
	checkout "$L/job$1" || return 1
	( cd "$L/job$1" && PATH="$TMPD/bin:$PATH" sh docs/ci/lava/thpbench-nightly.sh v6.18-rc$1 "$2" ) \
		>"$L/job$1.out" 2>&1
}
lava_job 0 "$lava_default_db"
check "LAVA: with the definition's default THPBENCH_DB (\"$lava_default_db\") nothing runs" \
	sh -c "grep -q '^nightly-history fail$' '$LAVA_LOG' && test ! -e '$L/job0/results/lava-nightly'"
: >"$LAVA_LOG"
lava_job 1 results/history.sqlite
check "  a history in the checkout is refused (nightly-history fail)" \
	sh -c "grep -q '^nightly-history fail$' '$LAVA_LOG' && test ! -e '$L/job1/results/history.sqlite'"
: >"$LAVA_LOG"
mkdir -p "$L/persistent"
lava_job 2 "$L/persistent/h.sqlite"
check "  job 2 (exit 0; LAVA reads the results, not the exit)" test $? -eq 0
lava_job 3 "$L/persistent/h.sqlite"
check "  job 3, in a fresh checkout, sees job 2's night: 2 in the history" \
	test "$(runs_in "$L/persistent/h.sqlite")" -eq 2
check "  each reported the gate" test "$(grep -c '^nightly-gate pass$' "$LAVA_LOG")" -eq 2
check "  and a test case per metric" test "$(grep -vc '^nightly-' "$LAVA_LOG")" -ge 2
check "  every argument as LAVA takes it" test ! -e "$LAVA_LOG.bad"
[ -e "$LAVA_LOG.bad" ] && cat "$LAVA_LOG.bad"

# Jenkins and systemd: their default history is outside the checkout.
check "Jenkins: the default THPBENCH_DB is outside the workspace" \
	grep -q "name: 'THPBENCH_DB', defaultValue: '/var/lib/thpbench/history.sqlite'" $D/Jenkinsfile
check "systemd: the history in its StateDirectory, old nights pruned (--keep)" \
	sh -c "grep -q '^StateDirectory=thpbench$' $D/systemd/thpbench-nightly.service &&
		grep -q '^Environment=THPBENCH_DB=/var/lib/thpbench/' $D/systemd/thpbench-nightly.service &&
		grep -q '^ExecStart=.* --keep [0-9]' $D/systemd/thpbench-nightly.service"
finish
