# shellcheck shell=bash
# Helpers for the t-*.sh test files; sourced by tests/run-tests.sh.

TEST_TMP=${TEST_TMP:-$(mktemp -d "${TMPDIR:-/tmp}/reclaimlab-tests.XXXXXX")}
chmod 755 "$TEST_TMP"
trap 'rm -rf "$TEST_TMP"' EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_match FILE REGEX [what]: the file has a line matching REGEX
expect_match() {
	grep -qE -e "$2" "$1" || fail "${3:-$1} does not match /$2/; it has: $(head -c 600 "$1")"
}

# expect_fio_verified DIR NAME BYTES: rl_fio --verify-only NAME read BYTES
# back in DIR (NAME.verify.json) and every block's checksum held
expect_fio_verified() {
	python3 - "$1/$2.verify.json" "$3" <<'PY' || fail "fio's verify of $2: $(head -c 300 "$1/$2.verify.log" 2>/dev/null)"
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
assert job["error"] == 0, job["error"]
assert job["read"]["io_bytes"] == int(sys.argv[2]), job["read"]["io_bytes"]
print(sys.argv[1].rsplit("/", 1)[1], "verified", job["read"]["io_bytes"], "bytes")
PY
}

# guest RUNDIR [run.sh options] -- COMMAND: one boot; returns run.sh's status
guest() {
	local out=$1
	shift
	"$RL_TOP/scripts/run.sh" --out "$out" --timeout "${GUEST_TIMEOUT:-120}" "$@"
}

# shared_run NAME GUEST-OPTIONS... <JOB: one guest run that several tests
# of a file read; the first caller boots it, every caller gets its folder.
shared_run() {
	local run=$TEST_TMP/$1
	shift
	if [ ! -f "$run/status" ]; then
		cat >"$run.job.sh"
		guest "$run" "$@" --job "$run.job.sh" >/dev/null || true
	fi
	expect_match "$run/status" '^ok$' "${run##*/} run status"
	echo "$run"
}

# An unprivileged account for the tests that prove reclaimlab needs no root.
UNPRIV_USER=reclaimlab-test
# unprivileged_user_exists: add the test user if it is missing (root only);
# true if it is there after.  run-tests.sh calls it before its lanes; a
# useradd racing another's is fine if the user is there after.
unprivileged_user_exists() {
	id -u "$UNPRIV_USER" >/dev/null 2>&1 ||
		useradd --system --no-create-home --shell /usr/sbin/nologin "$UNPRIV_USER" ||
		id -u "$UNPRIV_USER" >/dev/null 2>&1
}
unprivileged() {
	if [ "$(id -u)" != 0 ]; then
		"$@"
		return
	fi
	unprivileged_user_exists || fail "cannot create user $UNPRIV_USER"
	setpriv --reuid="$UNPRIV_USER" --regid="$UNPRIV_USER" --init-groups \
		env HOME=/nonexistent PATH="$PATH" "$@"
}

# No process of this run may outlive it: UML helpers have the run id in argv.
expect_no_uml_left() {
	local run_id=$1 i
	# a killed guest's processes die of their parent-death signal; on a
	# loaded host (a KASAN guest beside) that took more than 5 s
	for i in $(seq 300); do
		pgrep -f "umid=rl-$run_id" >/dev/null || return 0
		[ "$i" = 300 ] || sleep 0.1
	done
	if pgrep -f "umid=rl-$run_id" >/dev/null; then
		pgrep -af "umid=rl-$run_id" >&2
		fail "UML processes of run $run_id are still alive"
	fi
}

# build_wait NAME: wait for the kernel that run-tests.sh builds in the
# background (debug, linux-6.1); fail with its log if the build failed.
build_wait() {
	local rc_file=$RL_BUILD/test-logs/$1-build.rc waited=0
	# not started by run-tests.sh (a test run by hand): use what is built
	[ -f "$RL_BUILD/test-logs/$1-build.log" ] || return 0
	while [ ! -f "$rc_file" ]; do
		[ "$waited" -lt 3600 ] || fail "the $1 kernel build did not finish in an hour"
		sleep 5
		waited=$((waited + 5))
	done
	echo "waited ${waited}s for the $1 kernel build"
	[ "$(cat "$rc_file")" = 0 ] ||
		fail "the $1 kernel build failed: $(tail -5 "$RL_BUILD/test-logs/$1-build.log")"
}

# kunit_suites_pass RUNDIR: boot with kunit.enable=1 (KERNEL_FLAVOR picks
# the kernel); every suite of the series passes and no case fails.
kunit_suites_pass() {
	local run=$1 suite ran
	guest "$run" --append kunit.enable=1 -- true || fail "guest failed: $(run_status "$run")"
	# the kernel's own KTAP parser reads the console log
	python3 "$RL_KSRC/tools/testing/kunit/kunit.py" parse "$run/console.log" >"$run.kunit" 2>&1 ||
		fail "KUnit failures (kunit.py parse): $(grep -E 'FAILED|CRASHED|ERROR' "$run.kunit" | head -5 | tr '\n' ';')"
	cat "$run.kunit"
	for suite in ubd_model pageout_work writeback_2009_kupdate dirty_throttle reclaim_wait_rotated time_travel_cpu; do
		grep -qE "\[PASSED\] $suite( |$)" "$run.kunit" || fail "KUnit suite $suite did not pass"
	done
	ran=$(sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests: passed: \([0-9]*\)$/\1 \2/p' "$run.kunit")
	{ [ -n "$ran" ] && [ "${ran% *}" = "${ran#* }" ]; } || fail "not every KUnit case passed: ${ran:-no summary}"
	[ "${ran% *}" -ge 10 ] || fail "fewer KUnit cases than expected ran: ${ran% *}"
}

# run_metrics RUN: the run's record's metrics, "METRIC<TAB>VALUE" lines:
# the status's numbers, the summary's rows and run.status (rl-record
# metrics, record.h), so $1 is the metric and $2 its value
run_metrics() {
	"$RL_HOST_TOOLS/rl-record" metrics "$1"
}

# knob_applied RUN KNOB=VALUE: the run set KNOB to VALUE: the host's
# record names it (run.conf's knobs=, or a --job's RL_KNOBS in job.sh),
# the guest's kernel had it (the status's knobs_absent fact does not name it)
# and the run ended ok (a knob the guest could not apply fails it)
knob_applied() {
	[ "$(run_status "$1")" = ok ] || fail "${1##*/}: $(run_status "$1"), not ok, so $2 is not known applied"
	grep -qE "^knobs=(.* )?$2( |\$)|RL_KNOBS='(.* )?$2( |')" "$1/run.conf" "$1/job.sh" ||
		fail "${1##*/}: neither run.conf's knobs= nor the job's RL_KNOBS has $2"
	! grep -qE "^(.*,)?${2%%=*}(,|\$)" <<<"$(run_fact "$1" knobs_absent)" ||
		fail "${1##*/}: the guest's kernel lacks ${2%%=*}: knobs_absent=$(run_fact "$1" knobs_absent)"
}

# summary_value RUN METRIC: the metric's value in the run's record (a
# summary row, or a status fact such as workload.oom_kills)
summary_value() {
	run_metrics "$1" | awk -F'\t' -v m="$2" '$1 == m { print $2 }'
}

# start_cpu_hogs: a busy loop on every host CPU (CPU_HOGS holds their pids;
# an EXIT trap kills them if the test fails first); stop_cpu_hogs ends them
start_cpu_hogs() {
	CPU_HOGS=()
	for _ in $(seq "$(nproc)"); do
		sh -c 'while :; do :; done' &
		CPU_HOGS+=("$!")
	done
	# shellcheck disable=SC2064 # the pids are known now
	trap "kill ${CPU_HOGS[*]} 2>/dev/null || true" EXIT
}
stop_cpu_hogs() {
	kill "${CPU_HOGS[@]}"
	trap - EXIT
}
