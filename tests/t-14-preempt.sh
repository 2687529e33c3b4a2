# shellcheck shell=bash
# The preempt flavour (KERNEL_FLAVOR=preempt: CONFIG_PREEMPT, patches
# 0035-0036): under the cpu clock a kernel loop is preempted when an
# interrupt falls due in its middle, and a run stays a function of its
# inputs.  `make test` builds the flavour in the background.
# run-tests: alone: it puts a CPU hog on every host CPU

# preempt_kernel_ready: wait for the background build; fail without a kernel
preempt_kernel_ready() {
	build_wait preempt
	[ -x "$RL_BUILD/kernel/preempt/linux" ] ||
		fail "no preempt kernel; build it with 'make KERNEL_FLAVOR=preempt kernel'"
}

t_preempt_kernel_loop_is_preempted() {
	local run=$TEST_TMP/preempt-kunit
	preempt_kernel_ready
	KERNEL_FLAVOR=preempt guest "$run" --time-travel=cpu \
		--append "kunit.enable=1 kunit.filter_glob=time_travel_cpu" -- \
		'zcat /proc/config.gz | grep -E "^CONFIG_PREEMPT(_NONE)?="' ||
		fail "preempt guest failed: $(head -1 "$run/status")"
	expect_match "$run/guest/guest.log" '^CONFIG_PREEMPT=y$' "preempt kernel config"
	expect_match "$run/run.conf" '^flavor=preempt$'
	python3 "$RL_KSRC/tools/testing/kunit/kunit.py" parse "$run/console.log" >"$run.kunit" 2>&1 ||
		fail "KUnit failures: $(grep -E 'FAILED|CRASHED|ERROR|Expected' "$run.kunit" | head -5 | tr '\n' ';')"
	# passed, not skipped: the case skips itself only without the cpu clock
	grep -qE '\[PASSED\] tt_cpu_preempt_point_preempts_kernel_loop' "$run.kunit" ||
		fail "tt_cpu_preempt_point_preempts_kernel_loop did not pass: $(grep -E 'preempt_point' "$run.kunit" | head -3 | tr '\n' ';')"
	grep -E 'preempt_point_preempts_kernel_loop: [0-9]+ loops' "$run/console.log" ||
		fail "the KUnit case printed no figures"
}

# fs_completion_preempt RUNDIR: fs-completion on xfs in 2012-patched mode,
# small, on the preempt kernel under the cpu clock
fs_completion_preempt() {
	KERNEL_FLAVOR=preempt "$RL_TOP/scripts/run.sh" --out "$1" --time-travel=cpu --seed 1 \
		--timeout 600 --scenario fs-completion --mode 2012-patched --disk xfs:hdd \
		--set MEMCG_LIMIT=48M --set WRITE_SIZE=128M >/dev/null ||
		fail "fs-completion on the preempt kernel failed: $(head -1 "$1/status")"
	grep -q '^clock_stalled_ticks=0$' "$1/status" ||
		fail "the cpu clock stalled: $(grep '^clock_stalled_ticks=' "$1/status")"
	"$RL_TOP/scripts/summarize-run.sh" "$1" >/dev/null
}

# Interrupts now fall due in the middle of kernel code, where the
# modelled work puts them: the same inputs give the same rows, on an idle
# host and beside a CPU hog on every host CPU.
t_preempt_run_ignores_host_load() {
	local idle=$TEST_TMP/preempt-idle busy=$TEST_TMP/preempt-busy a b
	preempt_kernel_ready
	fs_completion_preempt "$idle"
	start_cpu_hogs
	fs_completion_preempt "$busy"
	stop_cpu_hogs
	# every row but the host's own wall time and load
	a=$(run_metrics "$idle" | grep -vE '^run\.(wall|host)')
	b=$(run_metrics "$busy" | grep -vE '^run\.(wall|host)')
	grep -qE '^waits\.task\.rl-dd\.reason\.dirty\.events	[1-9]' <<<"$a" ||
		fail "no dirty waits of the writer in the idle run"
	echo "$a" | grep -E 'rl-dd\.reason\.dirty\.(events|p50_usec|full_timeout_share)|simulated_seconds|xfs_ioend_requeues'
	diff <(echo "$a") <(echo "$b") >"$TEST_TMP/preempt-load.diff" ||
		fail "rows differ between an idle and a loaded host: $(head -6 "$TEST_TMP/preempt-load.diff" | tr '\n' ';')"
}
