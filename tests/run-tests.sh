#!/bin/bash
# reclaimlab test runner: host unit tests of the C tools, then the t-*.sh
# test files in name order.  Each t_* function runs in a subshell with
# set -eu -o pipefail; its output goes to build/test-logs/<name>.log and is shown when
# it fails.  The last line is "N passed, N failed".
#
# Test files run RL_TEST_JOBS at a time (default: the host's CPUs), each
# file's tests in order; a file with a line "# run-tests: alone: WHY" runs
# with no other beside it (it runs matrices that use every CPU, measures
# the host, or fails under load).
#
#   tests/run-tests.sh            everything
#   tests/run-tests.sh PATTERN    only tests whose name matches PATTERN
#   tests/run-tests.sh unit       only the C unit tests
set -u
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$TESTS_DIR/../scripts/lib.sh"
# shellcheck source=tests/helpers.sh
. "$TESTS_DIR/helpers.sh"

pattern=${1:-.}
jobs=${RL_TEST_JOBS:-$(nproc)}
if ! [[ $jobs =~ ^[1-9][0-9]{0,2}$ ]]; then
	echo "run-tests: RL_TEST_JOBS=$jobs: want a number of test files at once, 1-999" >&2
	exit 2
fi
LOGS=$RL_BUILD/test-logs
mkdir -p "$LOGS"
# One runner at a time on a build folder: a second would remove the first's
# background-build logs (build_wait would then boot whatever kernel is
# there) and build the same kernel tree at once.  The lock goes with this
# shell's descriptor 8, so a runner killed with SIGKILL leaves none behind;
# the background builds keep it (their logs are the runner's), the test
# lanes close it, so a guest a test leaked cannot hold it after the runner.
exec 8>>"$LOGS/runner.lock"
if ! flock -n 8; then
	echo "run-tests: another tests/run-tests.sh is running on $RL_BUILD ($(head -c 200 "$LOGS/runner.who" 2>/dev/null | head -1 | tr -c '[:print:]' '?')); wait for it, or run from another checkout" >&2
	exit 2
fi
printf 'pid %s, pattern %s, started %s\n' "$$" "$pattern" "$(date -u +%FT%TZ)" >"$LOGS/runner.who"
# One line per test, "ok NAME" or "fail NAME", appended by every lane, and
# "done FILE" when a file's lane ends: in this run's own folder (helpers.sh
# made TEST_TMP), so that two runners at once do not count each other's.
TALLY=$TEST_TMP/tally REPORT_LOCK=$TEST_TMP/report.lock
: >"$TALLY"

# report ok|fail NAME [EXCERPT]: under a lock, so that another lane's line
# does not land inside a long excerpt
report() {
	local line
	if [ "$1" = ok ]; then
		line="ok - $2"
	else
		line="not ok - $2"
	fi
	{
		flock 9
		echo "$1 ${2%% (*}" >>"$TALLY" || echo "run-tests: cannot write $TALLY" >&2
		printf '%s\n%s' "$line" "${3:+$3$'\n'}"
	} 9>>"$REPORT_LOCK"
}

# A sanitizer's report in a unit test's output (ASan, LSan, UBSan)
SANITIZER_RE='ERROR: [A-Za-z]*Sanitizer|^SUMMARY: [A-Za-z]*Sanitizer|: runtime error: '

# run_unit_tests: the C unit tests of both tool sets; each test's ok/not ok
# line is counted, and a make check that fails (a build error, a test
# binary that crashed or that a sanitizer stopped: ASan, LSan and UBSan,
# which does not recover, exit non-zero) fails the lane by its exit
# status, with the sanitizers' lines and the log's end
run_unit_tests() {
	local line log=$LOGS/unit.log failed="" findings
	{
		make -s -C "$RL_TOP/rootfs/tools" check || failed="$failed rootfs/tools"
		make -s -C "$RL_TOP/scripts/tools" OUT="$RL_HOST_TOOLS" check || failed="$failed scripts/tools"
	} >"$log" 2>&1
	while read -r line; do
		case "$line" in
		"ok - "*) report ok "unit: ${line#ok - }" ;;
		"not ok - "*) report fail "unit: ${line#not ok - }" ;;
		esac
	done <"$log"
	findings=$(grep -E "$SANITIZER_RE" "$log" | head -10)
	if [ -n "$failed" ]; then
		report fail "unit: make check failed in$failed (build/test-logs/unit.log)" \
			"$({ [ -z "$findings" ] || printf 'sanitizer findings:\n%s\n...\n' "$findings"; tail -30 "$log"; } | sed 's/^/    /')"
	elif [ -n "$findings" ]; then
		# a report whose test still exited 0 (a sanitizer told to recover)
		report fail "unit: sanitizer findings although make check passed (build/test-logs/unit.log)" \
			"    ${findings//$'\n'/$'\n'    }"
	fi
}

run_test() {
	local name=$1 log=$LOGS/$1.log start rc
	start=$(date +%s)
	# a statement, not an if's condition or the left of ||: there, errexit
	# would be off in the test's subshell too, and a failing command in a
	# test would pass unnoticed (the runner itself runs without -e)
	(set -eu -o pipefail; "$name") >"$log" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		report ok "$name ($(($(date +%s) - start))s)"
	else
		report fail "$name ($(($(date +%s) - start))s)" "$(tail -25 "$log" | sed 's/^/    /')"
	fi
}

# selected FILE: the names of FILE's tests that the pattern selects
selected() {
	[ "$pattern" != unit ] || return 0
	grep -oE '^t_[a-z0-9_]+\(\)' "$1" | tr -d '()' | while read -r t; do
		[[ ! $t =~ $pattern ]] || echo "$t"
	done
}

# A pattern must be a regex and select a test: a typo that selects
# nothing would otherwise pass as "0 passed, 0 failed".
[[ "" =~ $pattern ]]
if [ "$?" = 2 ]; then
	echo "run-tests: '$pattern' is not a regular expression (PATTERN is a bash regex on the t_* function names, or unit)" >&2
	exit 2
fi
any_selected() {
	local f
	[[ ! unit =~ $pattern ]] || return 0
	for f in "$TESTS_DIR"/t-*.sh; do
		[ -z "$(selected "$f")" ] || return 0
	done
	return 1
}
if ! any_selected; then
	echo "run-tests: no test matches '$pattern' (PATTERN is a bash regex on the t_* function names of tests/t-*.sh, or unit)" >&2
	exit 2
fi

# run_file FILE: its selected tests in order, with a TEST_TMP of its own
# (two files at once must not share shared_run folders or scratch names)
run_file() {
	local f=$1 t
	TEST_TMP=$TEST_TMP_ROOT/${f##*/}
	mkdir -p "$TEST_TMP"
	# the unprivileged tests' user reaches it, whatever the umask
	chmod 755 "$TEST_TMP"
	# shellcheck disable=SC1090 # the test files are found at run time
	. "$f"
	for t in $(selected "$f"); do
		run_test "$t"
	done
	echo "done ${f##*/}" >>"$TALLY"
}

# The kernels only some tests boot build in the background at low priority
# while the other tests run (they leave most of the two cores idle): the
# debug kernel of t-80 (tests t_debug_flavour*), the preempt kernel of t-14
# (t_preempt*) and 6.1 with the lab's UML patches of t-65 (t_kernels_61*).  The tests wait for theirs through
# build_wait in helpers.sh.
background_build() { # NAME TEST-PREFIX COMMAND...
	local name=$1 prefix=$2 tests
	shift 2
	rm -f "$LOGS/$name-build.rc" "$LOGS/$name-build.log"
	tests=$(grep -ohE "^${prefix}[a-z0-9_]*" "$TESTS_DIR"/t-*.sh)
	if [ "$pattern" != unit ] && grep -qE -e "$pattern" <<<"$tests"; then
		(
			nice -n 19 "$@" >"$LOGS/$name-build.log" 2>&1
			echo $? >"$LOGS/$name-build.rc"
		) &
	fi
}
background_build debug t_debug_flavour env KERNEL_FLAVOR=debug "$RL_TOP/scripts/build-kernel.sh"
background_build preempt t_preempt env KERNEL_FLAVOR=preempt "$RL_TOP/scripts/build-kernel.sh"
background_build linux-6.1 t_kernels_61 "$RL_TOP/scripts/build-kernel.sh" --kernel "6.1=series:$RL_TOP/kernel-patches/6.1"

# helpers.sh made TEST_TMP and removes it on exit; each file gets a folder
# in it.  A runner stopped takes its lanes along.
TEST_TMP_ROOT=$TEST_TMP
lanes=()
trap '[ "${#lanes[@]}" = 0 ] || kill "${lanes[@]}" 2>/dev/null; rm -rf "$TEST_TMP_ROOT"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# The tools the tests run, built once before any lane starts: the unit
# lane's make and the tests' compare.sh would otherwise relink them at once.
make -s -C "$RL_TOP/scripts/tools" OUT="$RL_HOST_TOOLS" >"$LOGS/host-tools.log" 2>&1 ||
	report fail "the host tools build" "$(tail -20 "$LOGS/host-tools.log" | sed 's/^/    /')"
# and the unprivileged tests' user, which three files at once would add
[ "$(id -u)" != 0 ] || unprivileged_user_exists || report fail "creating the test user $UNPRIV_USER"
# wait_lanes N: until fewer than N files run (N=1: none)
wait_lanes() {
	local pid alive
	while [ "${#lanes[@]}" -ge "$1" ]; do
		# only the lanes: the background kernel builds are jobs too
		wait -n "${lanes[@]}" || true
		alive=()
		for pid in "${lanes[@]}"; do
			! kill -0 "$pid" 2>/dev/null || alive+=("$pid")
		done
		lanes=("${alive[@]}")
	done
}
started=()
if [[ unit =~ $pattern ]]; then
	started+=(unit)
	(
		run_unit_tests
		echo "done unit" >>"$TALLY"
	) 8>&- &
	lanes+=("$!")
fi
for f in "$TESTS_DIR"/t-*.sh; do
	[ -n "$(selected "$f")" ] || continue
	started+=("${f##*/}")
	if grep -q '^# run-tests: alone' "$f"; then
		wait_lanes 1
		run_file "$f" 8>&- &
		lanes+=("$!")
		wait_lanes 1
	else
		wait_lanes "$jobs"
		run_file "$f" 8>&- &
		lanes+=("$!")
	fi
done
wait_lanes 1
# a lane that died (killed, out of memory) left its tests unreported
for f in "${started[@]}"; do
	grep -qx "done $f" "$TALLY" || report fail "$f: its tests did not all run (the runner's lane ended early)"
done
passed=$(grep -c '^ok ' "$TALLY")
failed=$(grep -c '^fail ' "$TALLY")
failed_names=$(sed -n 's/^fail //p' "$TALLY" | tr '\n' ' ')
[ -z "$failed_names" ] || echo "failed: $failed_names"
echo "$passed passed, $failed failed"
if [ "$((passed + failed))" = 0 ]; then
	echo "run-tests: no test ran for '$pattern'" >&2
	exit 1
fi
[ "$failed" = 0 ]
