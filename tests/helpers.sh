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
unprivileged() {
	if [ "$(id -u)" != 0 ]; then
		"$@"
		return
	fi
	id -u "$UNPRIV_USER" >/dev/null 2>&1 ||
		useradd --system --no-create-home --shell /usr/sbin/nologin "$UNPRIV_USER" ||
		fail "cannot create user $UNPRIV_USER"
	setpriv --reuid="$UNPRIV_USER" --regid="$UNPRIV_USER" --init-groups \
		env HOME=/nonexistent PATH="$PATH" "$@"
}

# No process of this run may outlive it: UML helpers have the run id in argv.
expect_no_uml_left() {
	local run_id=$1
	if pgrep -f "umid=rl-$run_id" >/dev/null; then
		pgrep -af "umid=rl-$run_id" >&2
		fail "UML processes of run $run_id are still alive"
	fi
}
