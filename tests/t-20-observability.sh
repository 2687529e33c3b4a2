# shellcheck shell=bash
# Reclaim wait accounting (debugfs counters) and the mm_vmscan_reclaim_wait
# tracepoint: a writer under memory-cgroup pressure on a slow disk must make
# reclaim sleep, and the trace must account for every counted sleep.  The
# writer is fio-write's job; after a remount fio reads its blocks back.

# One guest run shared by the tests below.
observability_run() {
	# 1G: the global dirty limit must exceed the memcg limit, so the memcg
	# fills with dirty pages and reclaim has to wait for the slow disk.
	shared_run observe --time-travel --mem 1G --disk ext4:usb-stick <<'JOB'
set -eu
. /reclaimlab/bin/rl-lib.sh
rl_counters_reset
rl_counters_snapshot /results/before
RL_OUT=/results
rl_trace_start
cg=$(rl_memcg_create writer 48M v1)
rl_fio --memcg "$cg" writer fio-write.fio RL_FS_DIR=/mnt/ext4 BS=64k WRITE_SIZE=160M
rl_trace_stop /results/trace.txt
rl_counters_snapshot /results/after
cp /proc/zoneinfo /results/zoneinfo
rl_remount /mnt/ext4
rl_fio --verify-only writer fio-write.fio RL_FS_DIR=/mnt/ext4 BS=64k WRITE_SIZE=160M
# Resetting works, and only 0 may be written.
echo 0 >/sys/kernel/debug/vm/nr_throttle_writeback
cat /sys/kernel/debug/vm/nr_throttle_writeback >/results/after-reset
if echo 5 >/sys/kernel/debug/vm/nr_throttle_writeback 2>/dev/null; then
	echo accepted >/results/write5
else
	echo refused >/results/write5
fi
JOB
}

counter() { # FILE NAME: fails when FILE has no such counter
	local v
	v=$(sed -n "s/^$2://p" "$1")
	[[ "$v" =~ ^[0-9]+$ ]] || fail "$1: no counter $2 (got '$v')"
	echo "$v"
}

t_reclaim_wait_counters_move() {
	local run total=0 c n usec
	run=$(observability_run)
	echo "counters after the run:"
	cat "$run/guest/after.debug-vm"
	for c in nr_throttle_writeback nr_throttle_isolated nr_throttle_noprogress \
		nr_throttle_congested nr_reclaim_wait_dirty \
		nr_reclaim_wait_writeback nr_migrate_wait_writeback \
		nr_reclaim_throttle_write; do
		[ "$(counter "$run/guest/before.debug-vm" "$c")" = 0 ] || fail "$c not reset before the run"
		n=$(counter "$run/guest/after.debug-vm" "$c")
		usec=$(counter "$run/guest/after.debug-vm" "${c}_usec")
		# a counted sleep takes time, and time is only counted with a sleep
		if [ "$n" -gt 0 ] && [ "$usec" -le 0 ]; then
			fail "$c=$n but ${c}_usec=$usec"
		fi
		if [ "$n" = 0 ] && [ "$usec" != 0 ]; then
			fail "$c=0 but ${c}_usec=$usec"
		fi
		total=$((total + n))
	done
	[ "$total" -gt 0 ] || fail "no reclaim wait was counted"
	# the data written under reclaim, read back from the disk
	expect_fio_verified "$run/guest" writer $((160 << 20))
}

# For every reason and class, trace events == counter, in events and in usec;
# the class counters count the reclaim_wait() ("dirty") sleeps only.
t_trace_matches_counters() {
	local run sums name want got
	run=$(observability_run)
	[ "$(cat "$run/guest/trace.txt.overrun")" = 0 ] || fail "trace ring buffer overran"
	sums=$TEST_TMP/trace-sums
	awk '/ mm_vmscan_reclaim_wait: / {
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			f[kv[1]] = kv[2]
		}
		r = f["reason"] == "wait_writeback" ? "nr_reclaim_wait_writeback" : \
		    f["reason"] == "migrate_writeback" ? "nr_migrate_wait_writeback" : \
		    f["reason"] == "dirty" ? "nr_reclaim_wait_dirty" : \
		    "nr_throttle_" f["reason"]
		n[r]++; u[r] += f["usec_delayed"]
		if (f["reason"] == "dirty") { c = "nr_reclaim_throttle_" f["class"]; n[c]++; u[c] += f["usec_delayed"] }
	} END { for (k in n) print k, n[k], u[k] }' "$run/guest/trace.txt" >"$sums"
	echo "trace sums:"
	cat "$sums"
	[ -s "$sums" ] || fail "no mm_vmscan_reclaim_wait event in the trace"
	while read -r name; do
		# the reclaim wait counters; nr_pageout_work_* count works and
		# nr_writeback_end_* completions (tests/t-27), xfs_ioend_requeues
		# xfs completions put back (patch 0029), not waits
		case "$name" in *_usec | nr_pageout_work_* | nr_writeback_end_* | xfs_ioend_requeues) continue ;; esac
		want=$(counter "$run/guest/after.debug-vm" "$name")
		got=$(awk -v k="$name" '$1 == k { print $2 }' "$sums")
		[ "${got:-0}" = "$want" ] || fail "$name: counter $want, trace ${got:-0}"
		want=$(counter "$run/guest/after.debug-vm" "${name}_usec")
		got=$(awk -v k="$name" '$1 == k { print $3 }' "$sums")
		[ "${got:-0}" = "$want" ] || fail "${name}_usec: counter $want, trace ${got:-0}"
	done < <(cut -d: -f1 "$run/guest/after.debug-vm")
}

# zone= names the zone reclaim scanned for: the node's highest zone that has
# pages (memcg reclaim's mask allows ZONE_MOVABLE, which this guest lacks).
t_trace_names_the_scanned_zone() {
	local run want zones
	run=$(observability_run)
	# zones in index order; the last with managed pages is the one expected
	want=$(awk '/^Node 0, zone/ { z++ } $1 == "managed" && $2 > 0 { w = z - 1 } END { print w }' "$run/guest/zoneinfo")
	[ -n "$want" ] || fail "no populated zone in /proc/zoneinfo"
	zones=$(grep -o ' mm_vmscan_reclaim_wait: .* zone=[0-9]*' "$run/guest/trace.txt" | sed 's/.*zone=//' | sort | uniq -c)
	echo "zone $want expected; events per zone: $zones"
	[ -n "$zones" ] || fail "no mm_vmscan_reclaim_wait event in the trace"
	[ "$(echo "$zones" | awk '{ print $2 }')" = "$want" ] || fail "events name zones other than $want: $zones"
}

t_reclaim_wait_counter_reset() {
	local run
	run=$(observability_run)
	[ "$(cat "$run/guest/after-reset")" = 0 ] || fail "writing 0 did not reset the counter"
	[ "$(cat "$run/guest/write5")" = refused ] || fail "a non-zero write was accepted"
}

t_tracestat_reads_guest_trace() {
	local run out
	run=$(observability_run)
	out=$("$RL_HOST_TOOLS/rl-tracestat" --tsv "$run/guest/trace.txt")
	echo "$out" | head -20
	[ "$(echo "$out" | awk '$1 == "malformed" { print $2 }')" = 0 ] || fail "rl-tracestat found malformed lines"
	[ "$(echo "$out" | awk '$1 == "events" { print $2 }')" -gt 0 ] || fail "rl-tracestat counted no event"
}
