# shellcheck shell=bash
# KUnit suites of the kernel patches, run by booting the lab kernel with
# kunit.enable=1 (they are built in and skipped at a normal boot).

t_kunit_suites_pass() {
	kunit_suites_pass "$TEST_TMP/kunit"
}
