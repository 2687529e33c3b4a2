# shellcheck shell=bash
# KUnit suites of the kernel patches, run by booting the lab kernel with
# kunit.enable=1 (they are built in and skipped at a normal boot).

t_kunit_suites_pass() {
	local run=$TEST_TMP/kunit suite
	guest "$run" --append kunit.enable=1 -- true || fail "guest failed: $(head -1 "$run/status")"
	sed 's/^\[[^]]*\] //' "$run/console.log" | grep -E '^\s*(not )?ok [0-9]+ ' >"$TEST_TMP/kunit.ktap" || true
	cat "$TEST_TMP/kunit.ktap"
	for suite in ubd_model pageout_work dirty_throttle; do
		grep -qE "^\s*ok [0-9]+ $suite$" "$TEST_TMP/kunit.ktap" ||
			fail "KUnit suite $suite did not pass"
	done
	if grep -qE '^\s*not ok ' "$TEST_TMP/kunit.ktap"; then
		fail "failing KUnit cases: $(grep -E '^\s*not ok ' "$TEST_TMP/kunit.ktap" | tr '\n' ';')"
	fi
	[ "$(grep -cE '^\s+ok [0-9]+ ' "$TEST_TMP/kunit.ktap")" -ge 10 ] ||
		fail "fewer KUnit cases than expected ran"
}
