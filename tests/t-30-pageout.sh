# shellcheck shell=bash
# The pageout work: with vm.pageout_work=1 reclaim queues pageout works
# for the dirty pages a memcg writer leaves behind, the flusher runs them
# and the data is intact; with vm.pageout_work=0 none is queued.

pageout_run() {
	shared_run pageout --time-travel --mem 1G --disk ext4:hdd <<'JOB'
set -eu
. /reclaimlab/bin/rl-lib.sh
cg=$(rl_memcg_create writer 48M v1)
for knob in 1 0; do
	rl_sysctl vm.pageout_work $knob
	rl_counters_reset
	rl_trace_start writeback:writeback_pageout_queue writeback:writeback_pageout_extend \
		writeback:writeback_pageout_exec vmscan:mm_vmscan_reclaim_wait
	rl_memcg_run "$cg" rl-dd write /mnt/ext4/f$knob --size 128M --bs 64k --seed $knob \
		>/results/writer-$knob.out
	sync
	rl_trace_stop /results/trace-$knob.txt
	rl_counters_snapshot /results/counters-$knob
	rl_verify_after_remount /mnt/ext4/f$knob 128M $knob
done
JOB
}

t_pageout_works_queued_and_run() {
	local run q x
	run=$(pageout_run)
	grep nr_pageout_work "$run/counters-1.debug-vm"
	q=$(sed -n 's/^nr_pageout_work_queued://p' "$run/counters-1.debug-vm")
	x=$(sed -n 's/^nr_pageout_work_executed://p' "$run/counters-1.debug-vm")
	[ "$q" -gt 0 ] || fail "no pageout work was queued with vm.pageout_work=1"
	[ "$x" -gt 0 ] || fail "no pageout work was executed"
	[ "$(grep -c ' writeback_pageout_queue: ' "$run/trace-1.txt")" -ge "$q" ] ||
		fail "fewer queue trace events than queued works"
	[ "$(grep -c ' writeback_pageout_exec: ' "$run/trace-1.txt")" -gt 0 ] ||
		fail "no exec trace event"
	grep -m3 ' writeback_pageout_' "$run/trace-1.txt"
}

t_pageout_off_queues_nothing() {
	local run
	run=$(pageout_run)
	[ "$(sed -n 's/^nr_pageout_work_queued://p' "$run/counters-0.debug-vm")" = 0 ] ||
		fail "pageout works were queued with vm.pageout_work=0"
	! grep -q ' writeback_pageout_queue: ' "$run/trace-0.txt" ||
		fail "queue trace events with vm.pageout_work=0"
}

t_pageout_data_intact() {
	local run
	run=$(pageout_run)
	cat "$run/verify.out"
	[ "$(grep -c 'bad_chunks=0 ' "$run/verify.out")" = 2 ] ||
		fail "data written under reclaim does not verify after remount"
}
