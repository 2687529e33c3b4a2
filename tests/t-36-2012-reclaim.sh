# shellcheck shell=bash
# The reclaim of 2012's kernels in the 2012-* modes: PG_reclaim folios kept
# on the inactive list (vm.reclaim_keep_pgreclaim, patch 0023),
# reclaim_wait() woken only by their rotation (vm.reclaim_wait_rotated,
# patch 0024; its KUnit suite reclaim_wait_rotated runs in t-15) and none
# of the writeback waits of 3.6 and 5.16 (vm.reclaim_wait_writeback_folio=0,
# patch 0027; vm.reclaim_throttle_writeback=0).

# fs-completion in the 2012-patched mode: a cgroup v1 writer on an ext4 hdd,
# cpu clock; prints the run folder
k2012_mode_run() {
	local run=$TEST_TMP/k2012-patched
	if [ ! -f "$run/status" ]; then
		"$RL_TOP/scripts/run.sh" --out "$run" --timeout 300 --time-travel=cpu --disk ext4:hdd \
			--scenario fs-completion --mode 2012-patched >/dev/null ||
			fail "the 2012-patched run failed: $(head -1 "$run/status")"
		"$RL_TOP/scripts/summarize-run.sh" "$run" >/dev/null || fail "summarize-run.sh failed on $run"
	fi
	echo "$run"
}

# The same scenario with the 2012-patched knobs but KNOB=VALUE, as a job (a
# mode is the catalogue's); prints the run folder
k2012_knob_run() { # NAME KNOB=VALUE
	local run=$TEST_TMP/$1 kv knobs="" mode
	if [ ! -f "$run/status" ]; then
		read -ra mode <<<"$(awk -F'\t' '$1 == "mode" && $2 == "2012-patched" { print $3 }' "$RL_TOP/scripts/catalogue.tsv")"
		for kv in "${mode[@]}"; do
			[ "${kv%%=*}" != "${2%%=*}" ] || kv=$2
			knobs="$knobs${knobs:+ }$kv"
		done
		[[ " $knobs " == *" $2 "* ]] || fail "the 2012-patched mode has no ${2%%=*}"
		cat >"$run.job.sh" <<JOB
export RL_FS=ext4 RL_KNOBS='$knobs' RL_SET=''
exec rl-scenario fs-completion
JOB
		guest "$run" --timeout 300 --time-travel=cpu --mem 1G --disk ext4:hdd --job "$run.job.sh" >/dev/null ||
			fail "the $1 run failed: $(head -1 "$run/status")"
	fi
	echo "$run"
}

# the writer's waits of reclaim wait reason REASON in a run's trace
writer_waits() { # RUN REASON
	grep -c "^ *rl-dd-[0-9]* .* mm_vmscan_reclaim_wait: .* reason=$2 " "$1/guest/trace.txt" || true
}

# vmstat's ITEM over a run's workload (counters-after less counters-before)
vmstat_delta() { # RUN ITEM
	echo $(($(sed -n "s/^$2 //p" "$1/guest/counters-after.vmstat") - \
		$(sed -n "s/^$2 //p" "$1/guest/counters-before.vmstat")))
}

# The 2012 modes run as 2012 reclaimed, and the 2012 trigger is back: the
# writer sleeps in reclaim_wait() (reason=dirty), not on 6.12's writeback
# waits.  Before these knobs the mode took 1 reason=dirty wait against 362
# reason=writeback ones and 38 waits on a folio's writeback.
t_2012_patched_writer_waits_dirty() {
	local run dirty
	run=$(k2012_mode_run)
	knob_applied "$run" vm.reclaim_keep_pgreclaim=1
	knob_applied "$run" vm.reclaim_wait_rotated=1
	knob_applied "$run" vm.reclaim_throttle_writeback=0
	knob_applied "$run" vm.reclaim_wait_writeback_folio=0
	dirty=$(writer_waits "$run" dirty)
	echo "writer's waits: dirty $dirty, writeback $(writer_waits "$run" writeback), wait_writeback $(writer_waits "$run" wait_writeback)"
	[ "$dirty" -ge 100 ] || fail "the writer took $dirty reason=dirty waits in 2012-patched (expected at least 100)"
	[ "$(writer_waits "$run" writeback)" = 0 ] || fail "the writer slept on VMSCAN_THROTTLE_WRITEBACK with vm.reclaim_throttle_writeback=0"
	[ "$(writer_waits "$run" wait_writeback)" = 0 ] || fail "the writer waited on a folio's writeback with vm.reclaim_wait_writeback_folio=0"
	[ "$(summary_value "$run" workload.oom_kills)" = 0 ] || fail "the writer was OOM-killed"
}

# vm.reclaim_keep_pgreclaim: reclaim puts the folios it tags PG_reclaim back
# on the inactive list instead of activating them.  The writer's reclaim
# activated some 70000 pages without the knob, 6 with it.
t_keep_pgreclaim_keeps_folios_inactive() {
	local on off a_on a_off
	on=$(k2012_mode_run)
	off=$(k2012_knob_run k2012-keep-off vm.reclaim_keep_pgreclaim=0)
	knob_applied "$off" vm.reclaim_keep_pgreclaim=0
	a_on=$(vmstat_delta "$on" pgactivate)
	a_off=$(vmstat_delta "$off" pgactivate)
	echo "pages activated: vm.reclaim_keep_pgreclaim=1 $a_on, 0 $a_off"
	[ "$a_off" -ge 10000 ] || fail "only $a_off pages activated with the knob off: the test tests nothing"
	[ $((a_on * 100)) -le "$a_off" ] || fail "$a_on pages activated with the knob on, more than 1% of $a_off"
}

# vm.reclaim_wait_writeback_folio (patch 0027): cgroup v1's folio wait is a
# knob apart from the 5.16 throttle.  Turned back on in the 2012-patched
# mode (the throttle still off), the ext4 writer, whose page cache is
# allocated with __GFP_FS, waits on folios under writeback again and still
# never on VMSCAN_THROTTLE_WRITEBACK.
t_folio_wait_is_a_knob_apart_from_the_throttle() {
	local run waits
	run=$(k2012_knob_run k2012-folio-wait vm.reclaim_wait_writeback_folio=1)
	knob_applied "$run" vm.reclaim_wait_writeback_folio=1
	knob_applied "$run" vm.reclaim_throttle_writeback=0
	waits=$(writer_waits "$run" wait_writeback)
	echo "writer's waits with the folio wait on: wait_writeback $waits, writeback $(writer_waits "$run" writeback)"
	[ "$waits" -ge 5 ] || fail "$waits waits on a folio's writeback with vm.reclaim_wait_writeback_folio=1 (expected at least 5)"
	[ "$(writer_waits "$run" writeback)" = 0 ] || fail "the writer slept on VMSCAN_THROTTLE_WRITEBACK with vm.reclaim_throttle_writeback=0"
}
