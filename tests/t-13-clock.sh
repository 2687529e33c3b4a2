# shellcheck shell=bash
# The guest clock: HZ=1000, and time-travel=cpu (patch 0011) charging the
# guest's own work from a cost model, so that figures do not depend on what
# else the host does.
# run-tests: alone: it puts a CPU hog on every host CPU

t_kernel_runs_hz_1000() {
	local run=$TEST_TMP/hz
	guest "$run" -- 'zcat /proc/config.gz | grep "^CONFIG_HZ="' ||
		fail "guest failed: $(head -1 "$run/status")"
	expect_match "$run/guest/guest.log" '^CONFIG_HZ=1000$' "kernel config"
}

# expect_clock_not_stalled RUNDIR: the cpu clock never fell back to host time
expect_clock_not_stalled() {
	grep -q '^clock_stalled_ticks=0$' "$1/status" ||
		fail "the cpu clock stalled: $(grep '^clock_stalled_ticks=' "$1/status")"
}

# memcg_dd_cpu_clock RUNDIR [CPU]: memcg-dd, small, under the cpu clock
memcg_dd_cpu_clock() {
	local run=$1 cpu=${2:-auto}
	"$RL_TOP/scripts/run.sh" --out "$run" --time-travel=cpu --cpu "$cpu" --mem 1G \
		--timeout 600 --disk ext4:hdd --scenario memcg-dd --set WRITE_SIZE=24M --set MEMCG_VERSION=v1 >/dev/null ||
		fail "memcg-dd under the cpu clock failed: $(head -1 "$run/status")"
	expect_clock_not_stalled "$run"
	"$RL_TOP/scripts/summarize-run.sh" "$run"
}

# headline RUNDIR: the figures that must not move with the host's load
headline() {
	awk -F'\t' '$1 ~ /^tool\.v1-writer[12]\.(mbps|seconds)$|^waits\.events$|^run\.simulated_seconds$|^counter\.nr_reclaim_wait_dirty$/ { print $1, $2 }' \
		<(run_metrics "$1") | sort
}

t_cpu_clock_ignores_host_load() {
	local idle=$TEST_TMP/clock-idle busy=$TEST_TMP/clock-busy unpinned=$TEST_TMP/clock-unpinned a b
	memcg_dd_cpu_clock "$idle"
	start_cpu_hogs
	memcg_dd_cpu_clock "$busy"
	memcg_dd_cpu_clock "$unpinned" none
	stop_cpu_hogs
	a=$(headline "$idle")
	echo "idle, pinned:"
	echo "$a"
	grep -q '^tool.v1-writer1.mbps [0-9]' <<<"$a" || fail "no writer figures in the idle run"
	for run in "$busy" "$unpinned"; do
		b=$(headline "$run")
		echo "${run##*-}, with a CPU hog on every host CPU:"
		echo "$b"
		# a run is a function of its inputs: the same figures, to 2%
		paste -d' ' <(echo "$a") <(echo "$b") | awk '
			$1 != $3 { print "metric mismatch: " $0; bad = 1 }
			{ d = $2 - $4; if (d < 0) d = -d; m = ($2 > $4 ? $2 : $4);
			  if (m > 0 && d / m > 0.02) { print "differs by more than 2%: " $0; bad = 1 } }
			END { exit bad }' || fail "the cpu clock's figures moved with the host's load"
	done
}

# A loop that waits for time to pass without sleeping or entering the
# kernel: a shell spinning until timeout(1)'s alarm, due 1 s of guest time
# later.  Nothing settles, so without the cpu clock's stall watchdog the
# alarm never comes; with it the run finishes and says its clock stalled.
t_cpu_clock_moves_through_a_stall() {
	local run=$TEST_TMP/clock-stall
	"$RL_TOP/scripts/run.sh" --out "$run" --time-travel=cpu --timeout 120 -- \
		'timeout 1 sh -c "while :; do :; done"; echo "spin ended: $?"' >/dev/null ||
		fail "the spinning guest did not finish: $(head -1 "$run/status")"
	grep -E '^(wall_seconds|simulated_seconds|clock_stalled_ticks)=' "$run/status"
	expect_match "$run/guest/guest.log" '^spin ended: [0-9]+$' "the spin was stopped by its alarm"
	grep -q '^clock_stalled_ticks=[1-9][0-9]*$' "$run/status" ||
		fail "no stall recorded: $(grep '^clock_stalled_ticks=' "$run/status")"
	grep -q 'time-travel: cpu clock stalled' "$run/console.log" || fail "no stall message on the console"
}

# Under the cpu clock a run is a function of its inputs, and its folder's
# name is not one: it reaches the guest nowhere (fixed-length umid and
# links; not in job.env).  Two runs of one scenario in folders named apart
# give the same summary rows but the run's name and wall time.
#
# Neither run may stall: a stall is the watchdog moving the clock with
# host time because UML received 100 of its 10 ms host ticks while the
# work it did moved the clock by less than 1 ms, that is work the cost
# model does not count (the loops of issue 29, the host mapping syncs of
# patch 0030).  That is a defect of the model to find, as the tests below
# find them: a stall fails the test.
t_cpu_clock_run_does_not_depend_on_its_folder_name() {
	local a=$TEST_TMP/n run b=$TEST_TMP/a-much-longer-folder-name.xfs.vanilla@x.r1
	for run in "$a" "$b"; do
		rm -rf "$run"
		# memcg-dd on xfs: its OOM kills sit on a knife edge that memory
		# layouts move
		GUEST_TIMEOUT=600 guest "$run" --scenario memcg-dd --disk xfs --time-travel=cpu >/dev/null ||
			fail "${run##*/}: $(head -1 "$run/status")"
		expect_clock_not_stalled "$run"
		"$RL_HOST_TOOLS/rl-summarize" "$run" || fail "cannot summarize ${run##*/}"
		run_metrics "$run" | grep -v $'^run.wall_seconds\t' >"$run.rows"
	done
	grep -m3 -E $'^(run.simulated_seconds|iostat.ubda.wareq_sz_mean|workload.oom_kills)\t' "$a.rows"
	diff "$a.rows" "$b.rows" || fail "the folder's name changed the run's figures"
}

# Scheduling points settle the cpu clock (patch 0022): a kernel loop that
# neither idles nor returns to user space moves the clock by the work it
# does.  KUnit's time_travel_cpu suite, booted under the cpu clock: 1000
# cond_resched() calls in a kernel thread move it by 1000 resched_ns at
# least (at a normal boot the case checks that nothing is counted).
t_cpu_clock_moves_at_scheduling_points() {
	local run=$TEST_TMP/clock-resched
	guest "$run" --time-travel=cpu --append "kunit.enable=1 kunit.filter_glob=time_travel_cpu" -- true ||
		fail "guest failed: $(head -1 "$run/status")"
	python3 "$RL_KSRC/tools/testing/kunit/kunit.py" parse "$run/console.log" >"$run.kunit" 2>&1 ||
		fail "KUnit failures: $(grep -E 'FAILED|CRASHED|ERROR|Expected' "$run.kunit" | head -5 | tr '\n' ';')"
	grep -E 'tt_cpu_resched|time_travel_cpu' "$run.kunit"
	grep -qE '\[PASSED\] tt_cpu_resched_points_move_clock' "$run.kunit" ||
		fail "the scheduling-point case did not pass under the cpu clock"
}

# The loops of issue 29: memcg-dd on xfs with vanilla knobs reclaims for
# the writers' memcg charges, and retries them around OOM kills, in the
# kernel (millions of folios scanned between two returns to user space).
# It stalled the cpu clock for hundreds of watchdog ticks (figures that
# followed the host's load); settled at scheduling points it stalls for
# none.
t_cpu_clock_memcg_oom_retry_does_not_stall() {
	local run=$TEST_TMP/clock-memcg-xfs
	"$RL_TOP/scripts/run.sh" --out "$run" --time-travel=cpu --timeout 900 \
		--scenario memcg-dd --mode vanilla --disk xfs >/dev/null ||
		fail "memcg-dd on xfs under the cpu clock failed: $(head -1 "$run/status")"
	grep -E '^(wall_seconds|simulated_seconds|clock_stalled_ticks)=' "$run/status"
	expect_clock_not_stalled "$run"
}

# UML's host mapping syncs are work (patch 0030): an allocator larger than
# memory swaps, and before each return to user space um_tlb_sync() re-maps
# its pages in the host one call at a time, which no priced item counts.
# Without 0030 the watchdog took that for a stall (reclaim-plug, one pass:
# 142 stalled ticks, its figures following the host's load); with it, none.
t_cpu_clock_host_mapping_syncs_are_work() {
	local run=$TEST_TMP/clock-host-maps maps
	"$RL_TOP/scripts/run.sh" --out "$run" --time-travel=cpu --timeout 600 \
		--scenario reclaim-plug --disk ext4 --set PASSES=1 >/dev/null ||
		fail "reclaim-plug under the cpu clock failed: $(head -1 "$run/status")"
	grep -E '^(wall_seconds|simulated_seconds|clock_stalled_ticks)=' "$run/status"
	maps=$(sed -n 's/^host_maps \([0-9]*\)$/\1/p' "$run/guest/time-travel-cpu")
	echo "host mapping calls: ${maps:-none}"
	[[ "$maps" =~ ^[1-9][0-9]*$ ]] || fail "no host_maps count in guest/time-travel-cpu: $(head -3 "$run/guest/time-travel-cpu")"
	expect_clock_not_stalled "$run"
}
