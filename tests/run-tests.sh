#!/bin/bash
# reclaimlab test runner: host unit tests of the C tools, then the t-*.sh
# test files in name order.  Each t_* function runs in a subshell with
# set -eu -o pipefail; its output goes to build/test-logs/<name>.log and is shown when
# it fails.  The last line is "N passed, N failed".
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
passed=0
failed=0
failed_names=""
LOGS=$RL_BUILD/test-logs
mkdir -p "$LOGS"

record() {
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "ok - $2"
	else
		failed=$((failed + 1))
		failed_names="$failed_names $2"
		echo "not ok - $2"
	fi
}

run_unit_tests() {
	local line log=$LOGS/unit.log
	{
		make -s -C "$RL_TOP/rootfs/tools" check
		make -s -C "$RL_TOP/scripts/tools" OUT="$RL_HOST_TOOLS" check
	} >"$log" 2>&1
	while read -r line; do
		case "$line" in
		"ok - "*) record ok "unit: ${line#ok - }" ;;
		"not ok - "*) record fail "unit: ${line#not ok - }" ;;
		esac
	done <"$log"
	if grep -qE 'Error|error:|ERROR: (Address|Leak|Undefined)' "$log"; then
		record fail "unit: build and sanitizers"
		tail -30 "$log" | sed 's/^/    /'
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
		record ok "$name ($(($(date +%s) - start))s)"
	else
		record fail "$name ($(($(date +%s) - start))s)"
		tail -25 "$log" | sed 's/^/    /'
	fi
}

# The kernels only some tests boot build in the background at low priority
# while the other tests run (they leave most of the two cores idle): the
# debug kernel of t-80 (tests t_debug_flavour*) and 6.1 with the lab's UML
# patches of t-65 (t_kernels_61*).  The tests wait for theirs through
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
background_build linux-6.1 t_kernels_61 "$RL_TOP/scripts/build-kernel.sh" --kernel "6.1=series:$RL_TOP/kernel-patches/6.1"

if [[ unit =~ $pattern ]]; then
	run_unit_tests
fi
for f in "$TESTS_DIR"/t-*.sh; do
	# shellcheck disable=SC1090 # the test files are found at run time
	. "$f"
	for t in $(grep -oE '^t_[a-z0-9_]+\(\)' "$f" | tr -d '()'); do
		if [ "$pattern" = unit ] || ! [[ $t =~ $pattern ]]; then
			continue
		fi
		run_test "$t"
	done
done
[ -z "$failed_names" ] || echo "failed:$failed_names"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
