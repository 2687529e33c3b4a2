# shellcheck shell=bash
# Writeback completion (patches 0014-0016): every completion's batch is
# traced and counted, the trace and the counters agree, the write-bio cap
# changes the bios the block layer sees, and the device profiles carry
# their largest request and rotational flag.

# One boot, four filesystems: each writes 24 MiB with the cap off and on.
completion_run() {
	shared_run completion --time-travel --mem 1G --disk ext4:hdd --disk xfs:hdd \
		--disk vfat:usb-stick --disk btrfs:ssd <<'JOB'
set -eu
. /reclaimlab/bin/rl-lib.sh
for fs in ext4 xfs vfat btrfs; do
	dev=$(awk -v m="/mnt/$fs" '$2 == m { sub("/dev/", "", $1); print $1 }' /proc/mounts)
	q=/sys/block/$dev/queue
	echo "$fs $dev $(cat $q/max_sectors_kb) $(cat $q/rotational)" >>/results/queues
	for cap in 0 1; do
		rl_sysctl vm.write_bio_cap $cap
		sync
		rl_counters_reset
		rl_trace_start writeback:writeback_end_batch block:block_bio_queue
		rl-dd write "/mnt/$fs/f$cap" --size 24M --bs 1M --seed $cap >/dev/null
		sync
		sleep 1
		rl_trace_stop "/results/trace-$fs-$cap.txt"
		rl_counters_snapshot "/results/counters-$fs-$cap"
	done
done
# xfs again with the cap on and its ioends chaining their bios (patch 0028)
rl_sysctl vm.iomap_chain_bios 1
sync
rl_trace_start writeback:writeback_end_batch
rl-dd write /mnt/xfs/fchain --size 24M --bs 1M --seed 2 >/dev/null
sync
sleep 1
rl_trace_stop /results/trace-xfs-chain.txt
JOB
}

# counter RUN FS CAP NAME: a debugfs counter after one write
counter() {
	sed -n "s/^$4://p" "$1/guest/counters-$2-$3.debug-vm"
}

# the folios of each writeback_end_batch event of a trace, one a line
batch_folios() {
	sed -n 's/.* writeback_end_batch: .* folios=\([0-9]*\) .*/\1/p' "$1"
}

t_completion_events_equal_counters() {
	local run fs cap events folios
	run=$(completion_run)
	for fs in ext4 xfs vfat btrfs; do
		for cap in 0 1; do
			events=$(grep -c ' writeback_end_batch: ' "$run/guest/trace-$fs-$cap.txt" || true)
			folios=$(batch_folios "$run/guest/trace-$fs-$cap.txt" | awk '{ n += $1 } END { print n + 0 }')
			echo "$fs cap=$cap: $events completions, $folios folios"
			[ "$events" -gt 0 ] || fail "$fs: no writeback_end_batch event for 24 MiB written"
			[ "$events" = "$(counter "$run" $fs $cap nr_writeback_end_batches)" ] ||
				fail "$fs: $events events traced, nr_writeback_end_batches is $(counter "$run" $fs $cap nr_writeback_end_batches)"
			[ "$folios" = "$(counter "$run" $fs $cap nr_writeback_end_folios)" ] ||
				fail "$fs: $folios folios traced, nr_writeback_end_folios is $(counter "$run" $fs $cap nr_writeback_end_folios)"
			# 24 MiB of data: at least 6144 pages' worth of folios ended
			awk '/ writeback_end_batch: / { for (i = 1; i <= NF; i++) if ($i ~ /^bytes=/) b += substr($i, 7) }
				END { exit !(b >= 24 * 1048576) }' "$run/guest/trace-$fs-$cap.txt" ||
				fail "$fs: the completions ended less than the 24 MiB written"
		done
	done
}

t_completion_units_per_filesystem() {
	local run
	run=$(completion_run)
	# ext4 ends per bio or per io_end, xfs per bio or ioend chain; vfat
	# (mpage) and btrfs per bio
	expect_match "$run/guest/trace-ext4-0.txt" ' unit=(bio|io_end) '
	expect_match "$run/guest/trace-xfs-0.txt" ' unit=(bio|ioend) '
	expect_match "$run/guest/trace-vfat-0.txt" ' unit=bio '
	expect_match "$run/guest/trace-btrfs-0.txt" ' unit=bio '
	! grep ' writeback_end_batch: ' "$run/guest/trace-vfat-0.txt" | grep -qv ' unit=bio ' ||
		fail "vfat completed writeback in a unit other than bio"
}

# largest write bio, in sectors, that the block layer saw in one trace
largest_write_bio() {
	sed -n 's/.* block_bio_queue: [0-9,]* W[A-Z]* [0-9]* + \([0-9]*\) .*/\1/p' "$1" | sort -n | tail -1
}

t_write_bio_cap_changes_bio_size() {
	local run fs max_kb off on
	run=$(completion_run)
	cat "$run/guest/queues"
	for fs in ext4 xfs vfat; do
		max_kb=$(awk -v fs=$fs '$1 == fs { print $3 }' "$run/guest/queues")
		off=$(largest_write_bio "$run/guest/trace-$fs-0.txt")
		on=$(largest_write_bio "$run/guest/trace-$fs-1.txt")
		echo "$fs: largest write bio $off sectors with the cap off, $on with it on (max_sectors_kb $max_kb)"
		if [ -z "$off" ] || [ -z "$on" ]; then
			fail "$fs: no write bio traced"
		fi
		[ "$on" -le $((max_kb * 2)) ] || fail "$fs: a $on-sector write bio with vm.write_bio_cap=1 (max $((max_kb * 2)))"
		[ "$off" -gt $((max_kb * 2)) ] || fail "$fs: no bio above max_sectors with the cap off: it tests nothing"
	done
}

# vm.iomap_chain_bios (patch 0028): with the write-bio cap on, an xfs ioend
# is one request and ends its 128 folios (512 KiB) alone; chained, the bios
# of one writeback pass end together.  24 MiB and a sync: 48 completions of
# 128 folios without the chain, 2 (4096 and 2048 folios) with it.
t_iomap_chain_bios_ends_bios_together() {
	local run one chain n_one n_chain
	run=$(completion_run)
	one=$(batch_folios "$run/guest/trace-xfs-1.txt" | sort -n | tail -1)
	chain=$(batch_folios "$run/guest/trace-xfs-chain.txt" | sort -n | tail -1)
	n_one=$(batch_folios "$run/guest/trace-xfs-1.txt" | wc -l)
	n_chain=$(batch_folios "$run/guest/trace-xfs-chain.txt" | wc -l)
	echo "xfs, write bios capped: $n_one completions of at most ${one:-no} folios; chained: $n_chain of at most ${chain:-no}"
	if [ -z "$one" ] || [ -z "$chain" ]; then
		fail "no xfs completion traced"
	fi
	[ "$one" -le 128 ] || fail "a completion of $one folios with capped bios and no chain: more than one 512 KiB request"
	[ "$chain" -ge 1024 ] || fail "the largest completion of chained bios has $chain folios (expected at least 1024)"
	[ $((n_chain * 8)) -le "$n_one" ] || fail "$n_chain completions with chained bios against $n_one without"
}

t_profiles_set_request_size_and_rotational() {
	local run
	run=$(completion_run)
	expect_match "$run/guest/queues" '^ext4 ubd[a-z] 512 1$' "hdd queue"
	expect_match "$run/guest/queues" '^vfat ubd[a-z] 120 1$' "usb-stick queue"
	expect_match "$run/guest/queues" '^btrfs ubd[a-z] 512 0$' "ssd queue"
}

# scenario_mode_run NAME MODE: fs-completion (a cgroup v1 writer) on an
# ext4 hdd in MODE; prints the run folder
scenario_mode_run() { # NAME MODE [KEY=VALUE]
	local run=$TEST_TMP/$1
	if [ ! -f "$run/status" ]; then
		"$RL_TOP/scripts/run.sh" --out "$run" --timeout 300 --time-travel=cpu --disk ext4:hdd \
			--scenario fs-completion --mode "$2" ${3:+--set "$3"} >/dev/null ||
			fail "the $2 run failed: $(head -1 "$run/status")"
		"$RL_TOP/scripts/summarize-run.sh" "$run" >/dev/null || fail "summarize-run.sh failed on $run"
	fi
	echo "$run"
}

# As vanilla, memcg v1 reclaim waits on folios under writeback and sleeps
# on VMSCAN_THROTTLE_WRITEBACK; in the unthrottled mode it does neither.
# A 24M memcg: at the scenario's 48M the folio waits came and went with
# unrelated changes of the guest's inputs (20 at 32M, 28 at 24M, 0 at
# 48M, cpu clock).
t_unthrottled_mode_skips_writeback_waits() {
	local on off k
	on=$(scenario_mode_run vanilla-24m vanilla MEMCG_LIMIT=24M)
	off=$(scenario_mode_run unthrottled-24m unthrottled MEMCG_LIMIT=24M)
	knob_applied "$off" vm.reclaim_throttle_writeback=0
	for k in nr_reclaim_wait_writeback nr_throttle_writeback; do
		echo "$k: vanilla $(summary_value "$on" counter.$k), unthrottled $(summary_value "$off" counter.$k)"
		[ "$(summary_value "$on" counter.$k)" -gt 0 ] || fail "no $k as vanilla: the test tests nothing"
		[ "$(summary_value "$off" counter.$k)" = 0 ] || fail "$k with vm.reclaim_throttle_writeback=0"
	done
}

# The 2012 modes remount ext4 with dioread_lock: then it ends writeback
# per bio, never per io_end.  In a 512M memcg: with 2012-vanilla's reclaim
# (none of 6.12's writeback waits) the scenario's 48M writer is OOM-killed
# before its first completion, as the 2012 thread's writers were before
# the pageout work.
t_mount_knob_applies_dioread_lock() {
	local old new
	old=$(scenario_mode_run vanilla vanilla)
	new=$(scenario_mode_run 2012-vanilla-512m 2012-vanilla MEMCG_LIMIT=512M)
	knob_applied "$new" mount.ext4=nodioread_nolock
	knob_applied "$new" vm.write_bio_cap=1
	expect_match "$old/guest/trace.txt" ' writeback_end_batch: .* unit=io_end '
	! grep -q ' unit=io_end ' "$new/guest/trace.txt" || fail "ext4 ended writeback per io_end under dioread_lock"
	expect_match "$new/guest/trace.txt" ' writeback_end_batch: .* unit=bio '
	[ -s "$new/$RL_DERIVED/completions-series.tsv" ] || fail "no completions-series.tsv"
	# capped bios end alone: smaller batches, more often
	echo "folios per completion (p50): 6.12 $(summary_value "$old" completion.folios_p50), 2012 conditions $(summary_value "$new" completion.folios_p50)"
	[ "$(summary_value "$new" completion.folios_p50)" -lt "$(summary_value "$old" completion.folios_p50)" ] ||
		fail "the 2012 conditions did not make ext4's completions smaller"
}

# The mglru mode switches the multi-gen LRU on (built in, off by default)
# (a write the kernel refuses fails the run); the other modes leave it off.
t_mglru_mode_turns_on_the_multigen_lru() {
	local on off
	on=$(scenario_mode_run mglru mglru)
	off=$(scenario_mode_run vanilla vanilla)
	knob_applied "$on" sys.kernel.mm.lru_gen.enabled=y
	knob_applied "$on" vm.reclaim_wait_dirty=0
	! grep -q 'sys\.kernel\.mm\.lru_gen' "$off/run.conf" || fail "vanilla set the multi-gen LRU"
	[ "$(summary_value "$on" vmstat.pgsteal_file)" -gt 0 ] || fail "nothing reclaimed under the multi-gen LRU"
	# the report says which knobs the multi-gen LRU leaves without effect
	mkdir -p "$TEST_TMP/mglru-matrix/runs"
	cp -r "$on" "$TEST_TMP/mglru-matrix/runs/fs-completion.ext4.mglru.r1"
	cp -r "$off" "$TEST_TMP/mglru-matrix/runs/fs-completion.ext4.vanilla.r1"
	"$RL_TOP/scripts/report.sh" "$TEST_TMP/mglru-matrix" >/dev/null || fail "report.sh failed"
	expect_match "$TEST_TMP/mglru-matrix/report.md" '^- mglru: .*sys.kernel.mm.lru_gen.enabled=y — \*\*the multi-gen LRU is on: .*vm.reclaim_wait_dirty has no effect under it without patch 0020'
	! grep -q '^- vanilla: .*multi-gen LRU is on' "$TEST_TMP/mglru-matrix/report.md" || fail "the vanilla line claims the multi-gen LRU"
	# two runs that set it differently (y, a mask): on in both, still said
	cp -r "$on" "$TEST_TMP/mglru-matrix/runs/fs-completion.ext4.mglru.r2"
	sed -i 's/^repeat=1$/repeat=2/' "$TEST_TMP/mglru-matrix/runs/fs-completion.ext4.mglru.r2/run.conf"
	sed -i 's/sys\.kernel\.mm\.lru_gen\.enabled=y/sys.kernel.mm.lru_gen.enabled=0x0003/' "$TEST_TMP/mglru-matrix/runs/fs-completion.ext4.mglru.r2/run.conf"
	"$RL_TOP/scripts/report.sh" "$TEST_TMP/mglru-matrix" >/dev/null || fail "report.sh failed"
	expect_match "$TEST_TMP/mglru-matrix/report.md" '^- mglru: .*sys.kernel.mm.lru_gen.enabled=varies — \*\*the multi-gen LRU is on'
}

# Patch 0020: under the multi-gen LRU the series' waits after a batch
# apply too.  memcg-dd's two writers on xfs into a 100M memcg: with the
# patched knobs reclaim_wait() sleeps for reason dirty (37 times, cpu
# clock; 0 before the patch, whose MGLRU eviction never called it), with
# the vanilla ones never.
t_mglru_patched_mode_waits_for_dirty_folios() {
	local m=$TEST_TMP/mglru-patched on off
	"$RL_TOP/scripts/compare.sh" --scenario memcg-dd --fs xfs --modes mglru,mglru-patched --repeat 1 \
		--results "$m" >"$m.log" 2>&1 || fail "the matrix failed: $(tail -5 "$m.log")"
	on=$m/runs/memcg-dd.xfs.mglru-patched.r1
	off=$m/runs/memcg-dd.xfs.mglru.r1
	knob_applied "$on" sys.kernel.mm.lru_gen.enabled=y
	knob_applied "$on" vm.reclaim_wait_dirty=1
	echo "reason=dirty sleeps: mglru $(summary_value "$off" counter.nr_reclaim_wait_dirty)," \
		"mglru-patched $(summary_value "$on" counter.nr_reclaim_wait_dirty);" \
		"pageout works queued: $(summary_value "$off" counter.nr_pageout_work_queued)," \
		"$(summary_value "$on" counter.nr_pageout_work_queued);" \
		"OOM kills: $(summary_value "$off" workload.oom_kills), $(summary_value "$on" workload.oom_kills)"
	[ "$(summary_value "$on" counter.nr_reclaim_wait_dirty)" -gt 0 ] ||
		fail "reclaim_wait() never slept under the multi-gen LRU with vm.reclaim_wait_dirty=1"
	[ "$(summary_value "$off" counter.nr_reclaim_wait_dirty)" = 0 ] ||
		fail "reclaim_wait() slept with vm.reclaim_wait_dirty=0"
	[ "$(summary_value "$on" counter.nr_pageout_work_queued)" -gt 0 ] || fail "no pageout work queued under the multi-gen LRU"
}

# fs.xfs.ioend_trylock (patch 0029) with fs.xfs.delalloc_written (0031): an
# xfs completion that finds the inode lock taken requeues itself and is
# counted.  The try-lock alone never acts on 6.12: writeback maps delalloc
# in as unwritten extents (since 5.8), and the conversion at completion
# waits for the lock; with written extents (as before 5.8) the completion
# has only the size update left, which tries the lock.  On the guest's one
# CPU without kernel preemption the writer never holds the lock where a
# completion could run, so a second task holds it across a sleep: setting
# a 60000-byte xattr keeps the xfs inode lock (ILOCK_EXCL) while the
# value's remote blocks are written synchronously
# (xfs_attr_rmtval_set_value()), the way the 2012 writer held it on
# another CPU.  Per pair of knobs: 32 MiB dirty, then a sync beside the
# setfattr loop.
t_xfs_ioend_trylock_requeues_when_the_inode_lock_is_taken() {
	local run knobs requeues sets
	run=$(shared_run xfs-trylock --time-travel=cpu --mem 1G --disk xfs:hdd <<'JOB'
set -eu
. /reclaimlab/bin/rl-lib.sh
value=$(head -c 60000 /dev/zero | tr '\0' a)
for knobs in 1:0 0:1 1:1; do
	rl_sysctl fs.xfs.ioend_trylock "${knobs%:*}"
	rl_sysctl fs.xfs.delalloc_written "${knobs#*:}"
	# after rl_sysctl, which sets f itself
	f=/mnt/xfs/f-${knobs%:*}${knobs#*:}
	rl-dd write "$f" --size 32M --bs 1M >/dev/null
	echo 0 >"$RL_XFS_REQUEUES"
	rm -f /tmp/synced /tmp/stop
	(
		# the sets that ended while the writeback ran
		n=0
		while [ ! -e /tmp/stop ]; do
			setfattr -n user.big -v "$value" "$f"
			[ -e /tmp/synced ] || n=$((n + 1))
		done
		echo "$n" >"/results/setfattr-$knobs"
	) &
	setter=$!
	sync
	touch /tmp/synced /tmp/stop
	wait $setter
	echo "$knobs $(cat "$RL_XFS_REQUEUES") $(cat "/results/setfattr-$knobs")" >>/results/requeues
done
JOB
)
	while read -r knobs requeues sets; do
		echo "ioend_trylock:delalloc_written $knobs: $requeues completions requeued, $sets xattr sets during the sync"
		[ "$sets" -gt 0 ] || fail "$knobs: no xattr set ended during the sync: nothing held the inode lock"
		case $knobs in
		1:1) [ "$requeues" -gt 0 ] || fail "no completion requeued with both knobs on and the inode lock taken" ;;
		*) [ "$requeues" = 0 ] || fail "$requeues requeues with ioend_trylock:delalloc_written $knobs" ;;
		esac
	done <"$run/guest/requeues"
	[ "$(wc -l <"$run/guest/requeues")" = 3 ] || fail "$(wc -l <"$run/guest/requeues") of 3 knob pairs measured"
}
