# shellcheck shell=bash
# The debug flavour (KERNEL_FLAVOR=debug: lockdep, KASAN, DEBUG_VM,
# DEBUG_LIST, DEBUG_OBJECTS, hung-task detection) built from the same
# series: the KUnit suites pass on it, and every scenario runs on ext4 with
# the patches on and zero splats (xfs and vfat are in the kernel too; a
# matrix on them takes another 2-3 minutes, too long for CI).  `make test`
# builds it, in the background while the other tests run.
# run-tests: alone: its matrix runs a guest on every CPU, and KASAN guests are slow

# The debug kernel repeats t-30's and t-70's guest checks: their helpers.
# shellcheck source=tests/t-30-pageout.sh
. "$TESTS_DIR/t-30-pageout.sh"
# shellcheck source=tests/t-70-reliability.sh
. "$TESTS_DIR/t-70-reliability.sh"

t_debug_flavour_kernel() {
	local run=$TEST_TMP/debug-kernel
	build_wait debug
	[ -x "$RL_BUILD/kernel/debug/linux" ] || fail "no debug kernel; build it with 'make KERNEL_FLAVOR=debug kernel'"
	[ -x "$RL_BUILD/kernel/normal/linux" ] || fail "the debug build replaced the normal kernel"
	KERNEL_FLAVOR=debug guest "$run" -- 'uname -r; zcat /proc/config.gz | grep -E "^CONFIG_(KASAN|PROVE_LOCKING|DEBUG_VM|DEBUG_LIST)=y"' ||
		fail "debug guest failed: $(head -1 "$run/status")"
	expect_match "$run/guest/guest.log" '^6\.12\.[0-9]+-reclaimlab-debug$'
	for opt in KASAN PROVE_LOCKING DEBUG_VM DEBUG_LIST; do
		expect_match "$run/guest/guest.log" "^CONFIG_$opt=y$"
	done
	expect_match "$run/run.conf" '^flavor=debug$'
}

t_debug_flavour_kunit() {
	build_wait debug
	KERNEL_FLAVOR=debug kunit_suites_pass "$TEST_TMP/debug-kunit"
}

t_debug_flavour_matrix_has_no_splats() {
	local m=$TEST_TMP/debug-matrix r n=0
	build_wait debug
	KERNEL_FLAVOR=debug "$RL_TOP/scripts/compare.sh" --scenario all --fs ext4 --modes patched --repeat 1 \
		--jobs 2 --results "$m" >"$TEST_TMP/debug-matrix.log" 2>&1 ||
		fail "the debug matrix failed: $(tail -5 "$TEST_TMP/debug-matrix.log")"
	tail -3 "$TEST_TMP/debug-matrix.log"
	for r in "$m"/runs/*; do
		n=$((n + 1))
		grep -q '^flavor=debug$' "$r/run.conf" || fail "$(basename "$r") did not run the debug kernel"
		if [ -s "$r/$RL_DERIVED/splats" ]; then
			cat "$r/$RL_DERIVED/splats.txt"
			fail "$(basename "$r"): $(head -1 "$r/$RL_DERIVED/splats")"
		fi
		[ "$(head -1 "$r/status")" = ok ] || fail "$(basename "$r"): $(head -1 "$r/status")"
	done
	[ "$n" = "$(rl_scenarios | wc -w)" ] || fail "$n runs, expected one per scenario"
	echo "$n runs on the debug kernel, zero splats"
}

# The umount of t-30 with works in flight, under lockdep and KASAN.
t_debug_flavour_umount_drains_pageout_works() {
	local run=$TEST_TMP/debug-umount
	build_wait debug
	KERNEL_FLAVOR=debug umount_with_pageout_works "$run"
	grep -q '^flavor=debug$' "$run/run.conf" || fail "did not run the debug kernel"
	umount_left_no_busy_inodes "$run"
}

# The two-disk test of t-30 (pageout congestion per device) under lockdep
# and KASAN, with zero splats.
t_debug_flavour_pageout_congestion_per_device() {
	local run=$TEST_TMP/debug-two-disks
	build_wait debug
	KERNEL_FLAVOR=debug two_disks_run "$run"
	grep -q '^flavor=debug$' "$run/run.conf" || fail "did not run the debug kernel"
	two_disks_check "$run"
	[ ! -s "$run/$RL_DERIVED/splats" ] || fail "splats: $(head -3 "$run/$RL_DERIVED/splats")"
}

# The late fork failure of t-70 under lockdep and KASAN.
t_debug_flavour_failed_fork_does_not_panic() {
	local run=$TEST_TMP/debug-forkfail
	build_wait debug
	KERNEL_FLAVOR=debug fork_fails_late "$run"
	grep -q '^flavor=debug$' "$run/run.conf" || fail "did not run the debug kernel"
}
