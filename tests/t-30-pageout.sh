# shellcheck shell=bash
# The pageout work: with vm.pageout_work=1 reclaim queues pageout works
# for the dirty pages a memcg writer leaves behind, the flusher runs them
# and the data is intact; with vm.pageout_work=0 none is queued.  The
# writer is fio-write's job (a crc32c in each block); fio's --verify_only
# reads it back after a remount.

pageout_run() {
	shared_run pageout --time-travel --mem 1G --disk ext4:hdd <<'JOB'
set -eu
. /reclaimlab/bin/rl-lib.sh
RL_OUT=/results
cg=$(rl_memcg_create writer 48M v1)
# writer KNOB [rl_fio options]: fio-write's job, into /mnt/ext4/kKNOB
writer() {
	k=$1
	shift
	rl_fio "$@" "writer-$k" fio-write.fio RL_FS_DIR=/mnt/ext4/k$k BS=64k WRITE_SIZE=128M
}
for knob in 1 0; do
	mkdir -p /mnt/ext4/k$knob
	rl_sysctl vm.pageout_work $knob
	rl_counters_reset
	rl_trace_start writeback:writeback_pageout_queue writeback:writeback_pageout_extend \
		writeback:writeback_pageout_exec vmscan:mm_vmscan_reclaim_wait
	writer $knob --memcg "$cg"
	sync
	rl_trace_stop /results/trace-$knob.txt
	rl_counters_snapshot /results/counters-$knob
	rl_remount /mnt/ext4
	writer $knob --verify-only
done
# the check sees a changed block: one byte of k1's file, on the disk
printf X | dd of=/mnt/ext4/k1/written bs=1 seek=1000000 conv=notrunc 2>/dev/null
rl_remount /mnt/ext4
if (RL_OUT=/tmp && writer 1 --verify-only); then
	echo "corrupted=verified"
else
	echo "corrupted=refused"
fi
cp /tmp/writer-1.verify.log /results/corrupted.verify.log
JOB
}

t_pageout_works_queued_and_run() {
	local run q x
	run=$(pageout_run)
	grep nr_pageout_work "$run/guest/counters-1.debug-vm"
	q=$(sed -n 's/^nr_pageout_work_queued://p' "$run/guest/counters-1.debug-vm")
	x=$(sed -n 's/^nr_pageout_work_executed://p' "$run/guest/counters-1.debug-vm")
	[ "$q" -gt 0 ] || fail "no pageout work was queued with vm.pageout_work=1"
	[ "$x" -gt 0 ] || fail "no pageout work was executed"
	[ "$(grep -c ' writeback_pageout_queue: ' "$run/guest/trace-1.txt")" -ge "$q" ] ||
		fail "fewer queue trace events than queued works"
	[ "$(grep -c ' writeback_pageout_exec: ' "$run/guest/trace-1.txt")" -gt 0 ] ||
		fail "no exec trace event"
	grep -m3 ' writeback_pageout_' "$run/guest/trace-1.txt"
}

t_pageout_off_queues_nothing() {
	local run
	run=$(pageout_run)
	[ "$(sed -n 's/^nr_pageout_work_queued://p' "$run/guest/counters-0.debug-vm")" = 0 ] ||
		fail "pageout works were queued with vm.pageout_work=0"
	! grep -q ' writeback_pageout_queue: ' "$run/guest/trace-0.txt" ||
		fail "queue trace events with vm.pageout_work=0"
}

t_pageout_data_intact() {
	local run k
	run=$(pageout_run)
	# every block of 128 MiB read back after the remount, its crc32c checked
	for k in 1 0; do
		expect_fio_verified "$run/guest" "writer-$k" $((128 << 20))
	done
	# a changed byte fails the verify, in fio's words
	expect_match "$run/guest/guest.log" '^corrupted=refused$' "the verify of a changed file"
	expect_match "$run/guest/corrupted.verify.log" 'crc32c: verify failed at file /mnt/ext4/k1/written offset 983040, length 65536' \
		"fio's message"
}

# umount_with_pageout_works RUNDIR [run.sh options]: a writer in a small
# memcg fills it with dirty pages of a slow USB stick, is killed, and the
# filesystem is unmounted at once, while pageout works for its inodes may
# still be queued or running; twelve times.
umount_with_pageout_works() {
	local run=$1
	shift
	cat >"$run.job" <<'JOB'
set -eu
. /reclaimlab/bin/rl-lib.sh
cg=$(rl_memcg_create writer 32M v2)
dev=$(awk '$2 == "/mnt/ext4" { print $1 }' /proc/mounts)
rl_counters_reset
for i in $(seq 12); do
	rl_memcg_run "$cg" rl-dd write /mnt/ext4/f$i --size 64M --bs 64k --seed "$i" >/dev/null 2>&1 &
	sleep 1
	# the writer, not the subshell that started it
	kill -9 $(cat "$cg/cgroup.procs") 2>/dev/null || true
	wait
	umount /mnt/ext4
	mount -t ext4 -o "$(rl_mount_options ext4)" "$dev" /mnt/ext4
done
rl_counters_snapshot /results/counters
JOB
	"$RL_TOP/scripts/run.sh" --out "$run" --timeout 600 --time-travel --mem 512M \
		--disk ext4:usb-stick --job "$run.job" "$@" >/dev/null ||
		fail "umount guest failed: $(head -1 "$run/status"); $(tail -3 "$run/guest/guest.log")"
}

# umount_left_no_busy_inodes RUNDIR: the checks on that run
umount_left_no_busy_inodes() {
	local run=$1 c
	grep -E '^nr_pageout_work_(queued|executed|skipped|cancelled):' "$run/guest/counters.debug-vm"
	c=$(sed -n 's/^nr_pageout_work_queued://p' "$run/guest/counters.debug-vm")
	[ "$c" -gt 0 ] || fail "no pageout work was queued, the umounts tested nothing"
	c=$(awk -F: '/^nr_pageout_work_(skipped|cancelled):/ { n += $2 } END { print n + 0 }' "$run/guest/counters.debug-vm")
	[ "$c" -gt 0 ] || fail "no umount met a pageout work (none cancelled or skipped)"
	# the kernel's messages are on the console, not in the job's output
	! grep -i 'busy inodes' "$run/console.log" || fail "inodes outlived their umount"
	[ ! -s "$run/$RL_DERIVED/splats" ] || fail "splats: $(head -3 "$run/$RL_DERIVED/splats")"
}

t_umount_drains_pageout_works() {
	local run=$TEST_TMP/umount
	umount_with_pageout_works "$run"
	umount_left_no_busy_inodes "$run"
}

# Pageout work congestion is per device (patch 0005/0006): many small files
# on a slow USB stick fill its flusher's queue and its writers are throttled
# for it; a writer on an hdd beside it queues works on its own device and is
# never throttled for the stick's queue.  t-80 runs it on the debug kernel.
# The hdd writes at 30 MB/s, not 95, and its writer's memcg is 32M as the
# stick's: at full speed the flusher kept up and how many works the writer
# queued swung with the slightest change of timing (0 to 103 over a sleep
# before the job, the tools disk, a kernel built elsewhere); at 30 MB/s it
# queued 140 to 160 on three builds of the kernel.
# two_disks_run RUN: the two-disk guest (KERNEL_FLAVOR picks the kernel)
two_disks_run() {
	local run=$1
	cat >"$run.job" <<'JOB'
set -eu
. /reclaimlab/bin/rl-lib.sh
slow=$(rl_memcg_create slow 32M v2)
fast=$(rl_memcg_create fast 32M v2)
rl_trace_start vmscan:mm_vmscan_reclaim_wait writeback:writeback_pageout_queue
rl_memcg_run "$slow" sh -c 'for i in $(seq 1500); do rl-dd write /mnt/ext4/s$i --size 64k --bs 64k >/dev/null || exit 1; done' &
rl_memcg_run "$fast" sh -c 'echo $$ >/results/fast.pid; exec rl-dd write /mnt/xfs/f --size 512M --bs 64k' >/results/fast.out &
wait
rl_trace_stop /results/trace.txt
JOB
	"$RL_TOP/scripts/run.sh" --out "$run" --time-travel=cpu --mem 1G --timeout 300 \
		--disk ext4:usb-stick --disk xfs:hdd,wbw=30000 --job "$run.job" >/dev/null ||
		fail "two-disk guest failed: $(head -1 "$run/status")"
}

# two_disks_check RUN: the stick's writers were throttled for its queue,
# the hdd writer queued works and was never throttled for the stick's
two_disks_check() {
	local run=$1 p slow fast_queued fast_thr
	cat "$run/guest/fast.out"
	p=$(cat "$run/guest/fast.pid")
	[[ $p =~ ^[0-9]+$ ]] || fail "no pid of the hdd writer"
	# the stick's writers only: kswapd takes writeback throttles of its own
	slow=$(grep '^ *rl-dd-[0-9]* .* reason=writeback ' "$run/guest/trace.txt" | grep -vc "^ *rl-dd-$p " || true)
	fast_queued=$(grep -c "^ *rl-dd-$p .* writeback_pageout_queue: " "$run/guest/trace.txt" || true)
	fast_thr=$(grep -c "^ *rl-dd-$p .* reason=writeback " "$run/guest/trace.txt" || true)
	echo "stick writers' congestion throttles: $slow; hdd writer: $fast_queued works queued, $fast_thr congestion throttles"
	[ "$slow" -gt 0 ] || fail "the stick's queue never congested, nothing to compare"
	[ "$fast_queued" -gt 0 ] || fail "the hdd writer queued no pageout work"
	[ "$fast_thr" = 0 ] || fail "the hdd writer was throttled for the stick's pageout works"
}

t_pageout_congestion_per_device() {
	two_disks_run "$TEST_TMP/two-disks"
	two_disks_check "$TEST_TMP/two-disks"
}
