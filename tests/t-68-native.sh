# shellcheck shell=bash
# The native backend (run.sh --native, docs/native.md): a scenario on the
# host's own kernel into a run folder that collect and summarize read as a
# guest's, and nothing of the run left on the host afterwards.  CI runs as
# root on a host with loop devices and the cgroup v1 memory controller:
# these tests fail, never skip, when a native run cannot be had there.
# run-tests: alone: native runs measure the host and use its loop devices and cgroups

# native RUNDIR [run.sh options]: one native run; returns run.sh's status
native() {
	local out=$1
	shift
	"$RL_TOP/scripts/run.sh" --native --out "$out" --timeout "${GUEST_TIMEOUT:-300}" "$@"
}

# expect_native_gone RUNDIR: nothing the native run in RUNDIR made is left
# on the host: no loop device backed by a file of its folder, no mount of
# its folder or of a loop device in a fresh mount namespace, no memory
# cgroup or trace instance of its name, no throttle rule of its devices,
# no state file, its devices' queue settings as it found them
expect_native_gone() {
	local run=$1 name dev mm f want
	name=reclaimlab-native-${run##*/}
	! losetup -a | grep -F "$run/" || fail "a loop device of $run is still attached"
	! unshare --mount cat /proc/self/mounts | grep -F -e "$run" -e "$name" ||
		fail "a mount of the run is left in the host's mount table"
	[ ! -e "/sys/fs/cgroup/memory/$name" ] || fail "the run's memory cgroup /sys/fs/cgroup/memory/$name is left"
	for f in /run/reclaimlab-native/*; do
		[[ "${f##*/}" != *"${run##*/}."* ]] || fail "the run's state file $f is left in /run/reclaimlab-native"
	done
	# tracefs where the host has not mounted it (mounting it again where it
	# is fails with EBUSY and would check nothing)
	! unshare --mount sh -c '{ [ -d /sys/kernel/tracing/instances ] || mount -t tracefs t /sys/kernel/tracing; } && ls /sys/kernel/tracing/instances' | grep -Fx "$name" ||
		fail "the run's trace instance $name is left"
	[ ! -e "$run/native-disks" ] || fail "the run's disk images are left: $(ls "$run/native-disks")"
	[ -f "$run/native-disks.txt" ] || return 0
	# shellcheck disable=SC2013 # one device name a line, no spaces
	for dev in $(awk '/ fs=/ { print $1 }' "$run/native-disks.txt"); do
		mm=$(cat "/sys/block/$dev/dev")
		! grep -h "^$mm " /sys/fs/cgroup/blkio/blkio.throttle.{read,write}_bps_device ||
			fail "a blkio throttle rule of /dev/$dev ($mm) is left"
		for f in max_sectors_kb nr_requests; do
			# a run killed before it wrote "found" never changed the setting
			want=$(sed -n "s/^$dev $f found \([0-9]*\)$/\1/p" "$run/native-disks.txt")
			if [ -z "$want" ]; then
				! grep -q "^$dev $f=" "$run/native-disks.txt" ||
					fail "/dev/$dev's $f was set without a record of what the run found"
				continue
			fi
			[ "$(cat "/sys/block/$dev/queue/$f")" = "$want" ] ||
				fail "/dev/$dev's $f is $(cat "/sys/block/$dev/queue/$f"), not the $want the run found"
		done
	done
	echo "nothing of ${run##*/} left on the host"
}

# memcg-dd on ext4 at a small size: ok, with summary rows, the kernel's
# messages of the run in console.log, the host's kernel in run.conf, and
# nothing left behind.
t_native_memcg_dd_ext4() {
	local run=$TEST_TMP/native-ext4 rows
	native "$run" --scenario memcg-dd --mode vanilla --disk ext4 --set WRITE_SIZE=32M ||
		fail "native memcg-dd failed ($?): $(cat "$run/status" 2>/dev/null); console: $(tail -5 "$run/console.log" 2>/dev/null)"
	expect_match "$run/status" '^ok$'
	expect_match "$run/run.conf" '^kernel=native$'
	expect_match "$run/run.conf" '^backend=native$'
	expect_match "$run/run.conf" "^kernel_release=$(uname -r)\$"
	expect_match "$run/run.conf" '^clock=host$'
	expect_match "$run/guest/kernel-release" "^$(uname -r)\$"
	# the kernel's own lines of the run: the marker the job wrote, and the
	# filesystem's mount of the run's loop device
	expect_match "$run/console.log" "reclaimlab-native: run ${run##*/} job\$"
	expect_match "$run/console.log" '^\[ *[0-9]+\.[0-9]+\] EXT4-fs \(loop[0-9]+\): mounted filesystem'
	expect_match "$run/guest/knobs-absent" '^vm\.pageout_work$'
	expect_match "$run/native-disks.txt" 'throttle read_bps=95000000 write_bps=95000000'
	"$RL_TOP/scripts/summarize-run.sh" "$run"
	rows=$(wc -l <"$run/$RL_DERIVED/summary.tsv")
	[ "$rows" -ge 20 ] || fail "only $rows summary rows"
	[ -n "$(summary_value "$run" tool.v1-writer1.mbps)" ] || fail "no writer throughput row"
	[ "$(summary_value "$run" workload.oom_kills)" = 0 ] || fail "OOM kills at a 32M write: $(summary_value "$run" workload.oom_kills)"
	[ -n "$(summary_value "$run" iostat.loop0.avgrq_sz_mean)$(grep -c 'iostat\.loop[0-9]*\.avgrq_sz_mean' "$run/$RL_DERIVED/summary.tsv")" ] ||
		fail "no iostat rows of the loop device"
	echo "writers $(summary_value "$run" tool.v1-writer1.mbps) and $(summary_value "$run" tool.v1-writer2.mbps) MB/s, $(summary_value "$run" waits.events) throttle events, $rows rows"
	expect_native_gone "$run"
}

# The run's trace instance is made whether or not the host has tracefs
# mounted at /sys/kernel/tracing (systemd and perf leave it mounted, and
# mounting it again there fails with EBUSY): one run in a mount namespace
# of the test's own with it mounted, one with it unmounted, on any host.
t_native_trace_instance_with_and_without_tracefs() {
	local run how
	for how in mounted unmounted; do
		run=$TEST_TMP/native-tracefs-$how
		# shellcheck disable=SC2016 # the inner shell's arguments
		unshare --mount --propagation private sh -c '
			if [ "$1" = mounted ]; then
				[ -d /sys/kernel/tracing/instances ] || mount -t tracefs tracefs /sys/kernel/tracing || exit 99
			else
				! mountpoint -q /sys/kernel/tracing || umount -l /sys/kernel/tracing || exit 99
			fi
			shift
			exec "$@"' sh "$how" "$RL_TOP/scripts/run.sh" --native --out "$run" \
			--timeout "${GUEST_TIMEOUT:-300}" --scenario memcg-dd --mode vanilla --disk ext4 \
			--set WRITE_SIZE=8M ||
			fail "native run with tracefs $how failed ($?): $(cat "$run/status" 2>/dev/null)"
		expect_match "$run/status" '^ok$'
		# the trace step is the one a mounted tracefs broke
		[ -e "$run/guest/trace.txt" ] || fail "tracefs $how: the run's trace instance gave no trace.txt"
		expect_native_gone "$run"
	done
}

# run.sh killed with SIGKILL mid-run leaves its loop device, cgroup and
# throttle rule; the next native run sweeps them (by the state file that
# names the run's folder and backing files), then runs.
t_native_kill9_swept() {
	local run=$TEST_TMP/native-kill9 next=$TEST_TMP/native-after-kill9 pid
	"$RL_TOP/scripts/run.sh" --native --out "$run" --scenario memcg-dd --mode vanilla --disk ext4 \
		--set WRITE_SIZE=1G --set MEMCG_LIMIT=64M >"$TEST_TMP/native-kill9.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		[ -s "$run/guest/v1-writer1.progress" ] && break
		sleep 0.1
	done
	[ -s "$run/guest/v1-writer1.progress" ] || fail "the writers did not start: $(cat "$TEST_TMP/native-kill9.log")"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	sleep 1
	losetup -a | grep -F "$run/" || fail "no loop device left by the killed run: the test would prove nothing"
	[ -d "/sys/fs/cgroup/memory/reclaimlab-native-${run##*/}" ] || fail "no cgroup left by the killed run"
	native "$next" --scenario memcg-dd --mode vanilla --disk ext4 --set WRITE_SIZE=8M >"$TEST_TMP/native-next.log" 2>&1 ||
		fail "the run after the kill failed: $(cat "$TEST_TMP/native-next.log")"
	expect_match "$TEST_TMP/native-next.log" "sweeping what native run $run left"
	expect_native_gone "$run"
	expect_native_gone "$next"
}

# A filesystem the host's kernel lacks (vfat here) is "not measured", with
# the reason, in a run folder the summary reads; a scenario asking for
# cgroup v2's memory controller too.
t_native_not_measured() {
	local run=$TEST_TMP/native-vfat v2=$TEST_TMP/native-v2 rc=0
	grep -qw vfat /proc/filesystems && fail "this host's kernel has vfat: the test needs a filesystem it lacks"
	native "$run" --scenario memcg-dd --mode vanilla --disk vfat || rc=$?
	[ "$rc" = 77 ] || fail "a vfat run exited $rc, not 77 (not measured)"
	expect_match "$run/status" '^not-measured$'
	expect_match "$run/status" '^reason=.*no vfat filesystem'
	expect_match "$run/run.conf" '^fs=vfat$'
	"$RL_TOP/scripts/summarize-run.sh" "$run"
	"$RL_HOST_TOOLS/rl-aggregate" rows "$run" >"$run.rows"
	expect_match "$run.rows" 'run\.status	not-measured$'
	expect_native_gone "$run"
	rc=0
	native "$v2" --scenario memcg-dd --mode vanilla --disk ext4 --set MEMCG_VERSION=v2 || rc=$?
	[ "$rc" = 77 ] || fail "a cgroup v2 run exited $rc, not 77 (not measured)"
	expect_match "$v2/status" '^reason=.*cgroup v2'
	expect_native_gone "$v2"
}

# Refused before anything runs, naming what is missing: a user who is not
# root, a mode other than vanilla, options of the UML kernel.
t_native_refusals() {
	local run=$TEST_TMP/native-refused out=$TEST_TMP/native-refused.out
	mkdir -p "$TEST_TMP/native-unpriv"
	chmod 0777 "$TEST_TMP/native-unpriv"
	! unprivileged "$RL_TOP/scripts/run.sh" --native --out "$TEST_TMP/native-unpriv/run" \
		--scenario memcg-dd --mode vanilla --disk ext4 2>"$out" || fail "a native run as $UNPRIV_USER was not refused"
	expect_match "$out" 'error: --native needs root'
	[ ! -e "$TEST_TMP/native-unpriv/run" ] || fail "a refused run left a run folder"
	! native "$run" --scenario memcg-dd --mode patched --disk ext4 2>"$out" || fail "mode patched was not refused"
	expect_match "$out" "mode 'patched' .*natively the valid mode is: vanilla"
	! native "$run" --scenario memcg-dd --mode vanilla --disk ext4 --swap 2>"$out" || fail "--swap was not refused"
	expect_match "$out" "does not change the host's swap"
	[ ! -e "$run" ] || fail "a refused run left a run folder"
	cat "$out"
}

# The host's log is shared: an OOM kill of another cgroup in the run's
# window is not the run's (rl-collect counts "Killed process" lines).
t_native_oom_kills_outside_the_run_not_counted() {
	local run=$TEST_TMP/native-oom-window mark='reclaimlab-native: run R starts'
	mkdir -p "$run"
	{
		echo "[1] Killed process 4 (before the window)"
		echo "[2] $mark"
		echo "[3] oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/other,task_memcg=/other,task=dd,pid=5,uid=0"
		echo "[3] Memory cgroup out of memory: Killed process 5 (dd) total-vm:1kB"
		echo "[4] oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/reclaimlab-native-R/w,task_memcg=/reclaimlab-native-R/w,task=dd,pid=6,uid=0"
		echo "[4] Memory cgroup out of memory: Killed process 6 (dd) total-vm:1kB"
		echo "[5] oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/reclaimlab-native-R2,task_memcg=/reclaimlab-native-R2/a,task=x,pid=7,uid=0"
		echo "[5] Memory cgroup out of memory: Killed process 7 (x) total-vm:1kB"
	} | native_run_messages "$mark" /reclaimlab-native-R >"$run/console.log"
	cat "$run/console.log"
	[ "$(grep -c 'Killed process ' "$run/console.log")" = 1 ] ||
		fail "expected the run's one kill (pid 6) counted, got: $(grep 'Killed' "$run/console.log")"
	grep -q 'Killed process 6 ' "$run/console.log" || fail "the run's own kill (pid 6) is not counted"
	printf 'run=native-oom-window\nclock=host\n' >"$run/run.conf"
	"$RL_HOST_TOOLS/rl-collect" "$run" 1 ended >/dev/null || true
	grep -qx 'oom_kills=1' "$run/status" || fail "rl-collect counted: $(grep oom_kills "$run/status")"
}

# native_state_unit DIR: a state of a pretend run in DIR (its own
# RL_NATIVE_STATE), over two images of DIR: A attached to a loop device as
# the run would have it, B attached to another device that the state names
# as the run's (a device name reused by another file since): prints
# "STATE LOOP_A LOOP_B"
native_state_unit() {
	local dir=$1 a b la lb
	mkdir -p "$dir/run/native-disks" "$dir/state"
	chmod 0700 "$dir/state"
	a=$dir/run/native-disks/ext4.img b=$dir/other.img
	truncate -s 16M "$a" "$b"
	la=$(losetup --show -f "$a") lb=$(losetup --show -f "$b")
	{
		echo "owner 999999999"
		echo "run $dir/run $(native_file_id "$dir/run")"
		echo "name reclaimlab-native-unit-${dir##*/}"
		echo "step loop"
		echo "file $a"
		echo "image $a $(native_file_id "$a")"
		echo "loop ${la#/dev/} $a"
		echo "loop ${lb#/dev/} $a"
		echo "queue ${lb#/dev/} nr_requests 4"
	} >"$dir/state/u.1.state"
	echo "$dir/state/u.1.state ${la#/dev/} ${lb#/dev/}"
}

# The state's undo, alone: a missing state file is nothing to undo; a loop
# device is detached only when it is bound to the run's image (by its
# inode), never by the name the state gives (another file's device now:
# neither detached nor its queue changed); a device still open is left to
# go at its last close (autoclear), and the state kept for the next sweep;
# a second undo of the same state does nothing more.
t_native_undo_only_what_is_the_runs() {
	local dir=$TEST_TMP/native-undo state la lb nr out
	native_undo "$TEST_TMP/no-such.state" || fail "undo of a missing state file failed"
	read -r state la lb < <(native_state_unit "$dir")
	nr=$(cat "/sys/block/$lb/queue/nr_requests")
	# A held open, as by a mount that has not gone yet
	exec {held}<"/dev/$la"
	out=$(native_undo "$state" 2>&1) || fail "undo failed: $out"
	echo "$out"
	grep -q "/dev/$la is still busy" <<<"$out" || fail "a busy device was not said to be busy: $out"
	[ -f "$state" ] || fail "the state was removed though /dev/$la was still bound"
	[ "$(losetup -n -O AUTOCLEAR "/dev/$la" | tr -d ' ')" = 1 ] || fail "/dev/$la is not marked autoclear"
	exec {held}<&-
	sleep 0.2
	[ -z "$(losetup -n -O BACK-FILE "/dev/$la" 2>/dev/null)" ] || fail "/dev/$la was not detached at its last close"
	native_undo "$state" || fail "the second undo failed"
	[ ! -f "$state" ] || fail "the state was kept after everything was undone"
	[ ! -e "$dir/run/native-disks" ] || fail "the run's image was not removed"
	[ "$(losetup -n -O BACK-FILE "/dev/$lb")" = "$dir/other.img" ] || { losetup -d "/dev/$lb"; fail "/dev/$lb, another file's, was detached"; }
	[ "$(cat "/sys/block/$lb/queue/nr_requests")" = "$nr" ] || { losetup -d "/dev/$lb"; fail "/dev/$lb's queue was changed"; }
	native_undo "$state" || fail "undo of a state undone before failed"
	losetup -d "/dev/$lb"
	echo "only the run's /dev/$la detached; /dev/$lb (another file's) left as it was"
}

# native_expect_left_nothing: no loop device over a file of TEST_TMP, no
# state file, no memory cgroup of a native run
native_expect_left_nothing() {
	! losetup -a | grep -F "$TEST_TMP/" || fail "a loop device over a test file is left"
	! ls /run/reclaimlab-native/*.state 2>/dev/null || fail "a native state file is left"
	! ls -d /sys/fs/cgroup/memory/reclaimlab-native-* 2>/dev/null || fail "a native run's memory cgroup is left"
	! grep -F "$TEST_TMP/" /proc/mounts || fail "a mount of a test folder is left"
}

# Issue 45's probe 1: a native run killed with SIGKILL once its loop device
# exists, then two native runs at once.  The sweep of the killed run's
# state is under the lock, once, by whichever run gets the lock first: both
# runs are ok, the killed run's status is final (interrupted, naming the
# step it was killed at), and nothing of the three is left.
t_native_two_runs_after_a_killed_one() {
	local d=$TEST_TMP/native-probe1 pid p1 p2 r1=0 r2=0 q
	mkdir -p "$d"
	"$RL_TOP/scripts/run.sh" --native --scenario memcg-dd --mode vanilla --disk ext4 \
		--set WRITE_SIZE=512M --out "$d/K" >"$d/K.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		losetup -a | grep -qF "$d/K/" && break
		sleep 0.05
	done
	losetup -a | grep -F "$d/K/" || fail "the first run attached no loop device: $(cat "$d/K.log")"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	native "$d/Q1" --scenario memcg-dd --mode vanilla --disk ext4 --set WRITE_SIZE=16M >"$d/Q1.log" 2>&1 &
	p1=$!
	native "$d/Q2" --scenario memcg-dd --mode vanilla --disk ext4 --set WRITE_SIZE=16M >"$d/Q2.log" 2>&1 &
	p2=$!
	wait "$p1" || r1=$?
	wait "$p2" || r2=$?
	cat "$d/Q1.log" "$d/Q2.log"
	for q in Q1 Q2; do
		expect_match "$d/$q/status" '^ok$' "$q's status"
	done
	[ "$r1$r2" = 00 ] || fail "the runs exited $r1 and $r2"
	[ "$(cat "$d/Q1.log" "$d/Q2.log" | grep -c "sweeping what native run $d/K left")" = 1 ] ||
		fail "the killed run was not swept exactly once"
	expect_match "$d/K/status" '^interrupted$' "the killed run's status"
	expect_match "$d/K/status" '^failed_step=[a-z]+$' "the killed run's step"
	grep -E '^(failed_step|reason)=' "$d/K/status"
	for q in K Q1 Q2; do
		expect_native_gone "$d/$q"
	done
	native_expect_left_nothing
}

# Issue 45's probe 2: a native run on a 100m tmpfs.  The matrix of the
# issue is refused before any run, naming the space; run.sh alone makes the
# image, finds the space short and ends in a final status naming the step;
# a run whose filesystem fills up under it (another writer) ends failed
# with host_disk_full and the loop device's "no space" errors in its
# console.  Nothing left in any case.
t_native_full_disk_final_status() {
	local fd=$TEST_TMP/native-fd out rc=0 pid
	mkdir -p "$fd"
	mount -t tmpfs -o size=100m tmpfs "$fd" || fail "cannot mount a tmpfs"
	# shellcheck disable=SC2064 # the folder is known now
	trap "umount -l '$fd' 2>/dev/null || true" EXIT
	out=$("$RL_TOP/scripts/compare.sh" --kernel host=native --scenario memcg-dd --fs ext4 --modes vanilla \
		--repeat 1 --set WRITE_SIZE=128M --timeout 120 --results "$fd/m" 2>&1) && fail "the matrix ran: $out"
	echo "$out"
	grep -q "kernel host is native: a run of memcg-dd writes 281.6 MiB into its disk's image.* the filesystem of '$fd/m' has 100.0 MiB free" <<<"$out" ||
		fail "no clear refusal: $out"
	[ ! -e "$fd/m" ] || fail "the refused matrix left a folder"
	native "$fd/r1" --scenario memcg-dd --mode vanilla --disk ext4 --set WRITE_SIZE=128M || rc=$?
	[ "$rc" = 125 ] || fail "run.sh exited $rc, not 125"
	cat "$fd/r1/status"
	expect_match "$fd/r1/status" '^failed$'
	expect_match "$fd/r1/status" '^failed_step=space$'
	expect_match "$fd/r1/status" '^reason=native space: not enough space: .* has [0-9.]+ MiB free after mkfs, the run needs 345.6 MiB'
	expect_native_gone "$fd/r1"
	rm -rf "$fd/r1"
	umount "$fd"
	# room for the run, then filled up by another writer while it writes
	mount -t tmpfs -o size=300m tmpfs "$fd"
	native "$fd/r2" --scenario memcg-dd --mode vanilla --disk ext4 --set WRITE_SIZE=64M >"$fd.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		[ -s "$fd/r2/guest/v1-writer1.progress" ] && break
		sleep 0.05
	done
	dd if=/dev/zero of="$fd/filler" bs=1M 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	rm -f "$fd/filler"
	cat "$fd.log" "$fd/r2/status"
	[ "$rc" != 0 ] || fail "the run that filled its disk exited 0"
	expect_match "$fd/r2/status" '^failed$'
	expect_match "$fd/r2/status" '^host_disk_full=1$'
	expect_match "$fd/r2/status" '^reason=host disk full: the filesystem of .* filled up during the run'
	expect_match "$fd/r2/console.log" 'critical space allocation error, dev loop[0-9]+'
	expect_native_gone "$fd/r2"
	umount "$fd"
	trap - EXIT
	native_expect_left_nothing
}

# A step of the run that fails ends in a final status naming it: mkfs.xfs
# refuses a 16M image (RL_DISK_SIZE), and nothing is left.
t_native_failed_step_named() {
	local run=$TEST_TMP/native-mkfs rc=0
	RL_DISK_SIZE=16M native "$run" --scenario memcg-dd --mode vanilla --disk xfs --set WRITE_SIZE=1M || rc=$?
	cat "$run/status"
	[ "$rc" = 125 ] || fail "exited $rc, not 125"
	expect_match "$run/status" '^failed$'
	expect_match "$run/status" '^failed_step=disks$'
	expect_match "$run/status" '^reason=native disks: mkfs of xfs failed'
	expect_match "$run/console.log" '^reclaimlab-native: native disks: mkfs of xfs failed'
	expect_native_gone "$run"
}

# A matrix of the lab's kernel and the host's: every native run alone, no
# guest and no other native run beside it (parallel's joblog: each job's
# start and run time), where --jobs 2 would have put one beside a guest
# (issue 45, item 6).  Both kernels' runs ok.
t_native_runs_alone_in_a_mixed_matrix() {
	local m=$TEST_TMP/native-mixed
	"$RL_TOP/scripts/compare.sh" --kernel lab=lab --kernel host=native --scenario memcg-dd --fs ext4 \
		--modes vanilla --repeat 2 --jobs 2 --set WRITE_SIZE=16M --results "$m" >"$m.log" 2>&1 ||
		fail "the mixed matrix failed: $(tail -5 "$m.log")"
	grep -E 'runs on|native runs next' "$m.log"
	for r in "$m"/runs/*; do
		expect_match "$r/status" '^ok$' "${r##*/}"
	done
	[ "$(find "$m/runs" -maxdepth 1 -name '*@host.r*' | wc -l)" = 2 ] || fail "not 2 native runs: $(ls "$m/runs")"
	# joblog: Seq Host Starttime JobRuntime ... Command (the run folder in it)
	awk -F'\t' '$1 != "Seq" {
		match($9, /runs\/[^\t]*/); name = substr($9, RSTART + 5, RLENGTH - 5); sub(/\t.*/, "", name)
		n++; nm[n] = name; s[n] = $3; e[n] = $3 + $4
	}
	END {
		for (i = 1; i <= n; i++) {
			printf "%s %.1f-%.1f\n", nm[i], s[i] - s[1], e[i] - s[1]
			if (nm[i] !~ /@host\./) continue
			for (j = 1; j <= n; j++)
				if (j != i && s[j] < e[i] && s[i] < e[j]) { print "beside " nm[i] ": " nm[j]; bad = 1 }
		}
		exit bad
	}' "$m/hosts.joblog" || fail "a native run ran beside another run"
	native_expect_left_nothing
}
