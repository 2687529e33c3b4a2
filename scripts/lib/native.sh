# shellcheck shell=bash disable=SC2034 # native_hung, native_state, native_step: run.sh's
# The native backend (run.sh --native, compare.sh --kernel NAME=native): a
# scenario on the running host kernel instead of a UML guest, into the same
# run folder (run.conf, guest/, console.log, status), so that collect,
# summarize and report read it as they read a guest's.  Needs root.  Why
# each piece is as it is: docs/native.md.  Sourced by lib.sh.
#
# What a run makes on the host, each recorded in its state file
# (native-state.sh) before it is made, and undone by native_undo on every
# exit path, or by the next native run's sweep when the runner was killed
# with SIGKILL:
#   a loop device      over RUN/native-disks/FS.img (the marker: its backing
#                      file, a path under the run folder), with its queue's
#                      max_sectors_kb, rotational and nr_requests (put back)
#                      and a blkio throttle rule on the root group (removed)
#   a memory cgroup    /sys/fs/cgroup/memory/reclaimlab-native-RUN_ID: the
#                      scratch parent of the scenario's own, limited to the
#                      run's memory (SCN_MEM or --mem)
#   a trace instance   /sys/kernel/tracing/instances/reclaimlab-native-RUN_ID
# Mounts are the run's own: a mount and pid namespace (unshare) whose root
# is a tmpfs (native_init); they end with its last process.

# the one mode natively: every other mode sets the series' knobs, which the
# host's kernel lacks (or, for mglru's, would change the host)
RL_NATIVE_MODES=vanilla
# a native run that was not measured exits with this status (automake's
# "skipped"); its status file says "not-measured" and why
RL_NATIVE_UNMEASURED=77
# the rl-* tools (static) as `make rootfs` builds them for the guest
RL_NATIVE_TOOLS=$RL_BUILD/rootfs/bin

# native_run_messages MARK CGROUP: the host kernel's messages (stdin)
# after the last MARK line, where the OOM killer's "Killed process" line
# of a task outside CGROUP (another workload of the host) is renamed, so
# that rl-collect, which counts those lines, counts the run's kills only.
# The kernel names the task's memcg first, in its "oom-kill:" line.
native_run_messages() {
	awk -v m="$1" -v cg="$2" '
	index($0, m) { n = 0; ours = 0; next }
	/oom-kill:/ {
		ours = index($0, "task_memcg=" cg "/") || index($0, "task_memcg=" cg ",")
	}
	/Killed process / && !ours { sub(/Killed process /, "Killed (outside the run) process ") }
	{ line[++n] = $0 }
	END { for (i = 1; i <= n; i++) print line[i] }'
}

# native_name RUN_ID: the name of the run's cgroup and trace instance
native_name() {
	echo "reclaimlab-native-$1"
}

# native_check_host: die unless this host can run a native run, naming
# what is missing: root, loop devices, the v1 memory controller, tracefs,
# the programs
native_check_host() {
	local p
	[ "$(id -u)" = 0 ] ||
		die "--native needs root: it makes loop devices, mounts, cgroups and blkio throttle rules on the host's kernel (run it as root, or run the lab's guest without --native)"
	for p in losetup unshare chroot mount umount dmesg setpriv; do
		command -v "$p" >/dev/null || die "--native needs '$p', which this host lacks"
	done
	losetup -f >/dev/null 2>&1 ||
		die "--native needs a free loop device and this host has none (losetup -f failed: no loop driver, /dev/loop-control, or all in use)"
	{ [ -f "$RL_NATIVE_MEMCG/memory.limit_in_bytes" ] && grep -q " $RL_NATIVE_MEMCG cgroup .*memory" /proc/mounts; } ||
		die "--native needs the cgroup v1 memory controller at $RL_NATIVE_MEMCG, which this host lacks"
	grep -qw tracefs /proc/filesystems || die "--native needs tracefs, which this host's kernel lacks"
}

# native_check_run: die unless run.sh's options make sense on the host's
# kernel (run.sh's variables)
# shellcheck disable=SC2154 # the variables are run.sh's
native_check_run() {
	local bytes host d
	native_check_host
	[ -z "$scenario" ] || word_in "$mode" "$RL_NATIVE_MODES" ||
		die "mode '$mode' sets knobs of the lab's series ($(mode_knobs "$mode")), which the host's kernel lacks or which would change the host; natively the valid mode is: $RL_NATIVE_MODES"
	[ "$interactive" = 0 ] || die "--interactive is the guest's shell; --native runs a scenario or a job"
	[ -z "$wrap" ] || die "--wrap starts a UML kernel under a command; --native has no kernel to start"
	[ -z "$extra_args$tt_cpu" ] || die "--append and --tt-cpu are the UML kernel's; --native has no kernel command line"
	[ "$trace_dat$blktrace" = 00 ] || die "--trace-dat and --blktrace are not available with --native (the run traces through a trace instance of its own)"
	word_in swap "$given" && [ "$swap" = 1 ] && die "--swap: a native run does not change the host's swap"
	bytes=$(size_bytes "$mem") || die "bad --mem '$mem' (use a size like 512M or 1G)"
	host=$(awk '/^MemTotal:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo)
	{ [ "$bytes" -ge $((64 << 20)) ] && [ "$bytes" -le "$host" ]; } ||
		die "--mem $mem does not fit: natively it is a memory cgroup's limit, from 64M to this host's $(human_size "$host")"
	check_count --timeout "$timeout" 1 "$RL_MAX_TIMEOUT"
	[ -n "$disks" ] || die "--native needs a --disk: the run's filesystem is a loop device"
	for d in $disks; do
		word_in "$(disk_fs "$d")" "$RL_FILESYSTEMS" || die "unknown filesystem '$(disk_fs "$d")' (valid: $RL_FILESYSTEMS)"
		disk_model "$(disk_profile "$d")" >/dev/null
	done
	[ "$(wc -w <<<"$disks")" -le 8 ] || die "too many disks for --native (valid: at most 8)"
}

# native_check_room DIR KERNEL SCENARIO USE: die unless the filesystem of
# DIR (a matrix folder, or the nearest folder above it that is there) has
# the room a native run of SCENARIO needs at least: USE bytes (its
# SCN_DISK_USE) and a tenth more for metadata into the sparse image in its
# run folder, and RL_MIN_FREE; run.sh checks again after mkfs, with what
# mkfs took (native_space_check)
native_check_room() {
	local d=$1 need free
	while [ ! -d "$d" ]; do d=$(dirname "$d"); done
	need=$(($4 + $4 / 10 + $(size_bytes "$RL_MIN_FREE")))
	free=$(avail_bytes "$d")
	[ "${free:-0}" -ge "$need" ] ||
		die "kernel $2 is native: a run of $3 writes $(human_size $(($4 + $4 / 10))) into its disk's image, a file in its run folder (docs/native.md), and with RL_MIN_FREE=$RL_MIN_FREE needs $(human_size "$need") at least; the filesystem of '$1' has $(human_size "${free:-0}") free: give --results on a larger one, or smaller sizes"
}

# native_unmeasured: why this run cannot be measured on the host's kernel
# (a line), or nothing (run.sh's variables)
# shellcheck disable=SC2154 # the variables are run.sh's
native_unmeasured() {
	local d fs params
	for d in $disks; do
		fs=$(disk_fs "$d")
		grep -qE "[[:space:]]$fs\$" /proc/filesystems || {
			echo "the host's kernel $(uname -r) has no $fs filesystem (/proc/filesystems)"
			return 0
		}
	done
	[ -n "$scenario" ] || return 0
	if [ "$swap" = 1 ]; then
		echo "the scenario needs swap, and a native run does not change the host's swap"
		return 0
	fi
	params=" $(info_value "$scenario_data" params) "
	if [[ "$params" == *" MEMCG_VERSION=v2 "* ]]; then
		echo "the scenario asks for cgroup v2's memory controller (MEMCG_VERSION=v2), and this host has the memory controller on cgroup v1 only"
		return 0
	fi
}

# native_step STEP: the run is at STEP now (its state file records it, so
# that the sweep of a killed run names it; a failure names it too)
native_step() {
	native_step=$1
	[ -z "${native_state:-}" ] || [ ! -f "$native_state" ] ||
		native_state_add "$native_state" "step $1" || native_fail "cannot write the state file $native_state"
}

# native_fail REASON: the run ends at its step (native_step): REASON is
# kept for its final status, which run.sh's cleanup has rl-collect write
# (native_end) once what the run made is undone
native_fail() {
	native_failure=$1
	die "native ${native_step:-start}: $1"
}

# native_record STATE LINE: record LINE before making the thing it names;
# nothing is made when it cannot be recorded
native_record() {
	native_state_add "$1" "$2" || native_fail "cannot write the state file $1 (a full /run?)"
}

# native_queue_set STATE DEV FILE VALUE: set /sys/block/DEV/queue/FILE to
# VALUE where the device takes it, the value it had recorded first (to be
# put back); prints "DEV FILE found OLD" before anything changes (a run
# killed after it may have changed the setting; one killed before it has
# not) and "DEV FILE=WANTED: READ-BACK (was OLD)" after (what took)
native_queue_set() {
	local f=/sys/block/$2/queue/$3 old now
	old=$(cat "$f" 2>/dev/null) || { echo "$2 $3=$4: no such setting"; return 0; }
	echo "$2 $3 found $old"
	native_record "$1" "queue $2 $3 $old"
	echo "$4" >"$f" 2>/dev/null || true
	now=$(cat "$f" 2>/dev/null)
	echo "$2 $3=$4: ${now:-unreadable} (was $old)"
}

# native_space_check OUT IMAGE...: fail unless the filesystem of the run
# folder OUT can take what the run may still write into its images (sparse
# files there, which grow as the run's filesystems write) and RL_MIN_FREE
# for the run's own files.  A scenario declares what it writes on its first
# disk (SCN_DISK_USE; a tenth more for the filesystem's metadata and
# journal, as check_scenario_fits); without it, each image may grow to its
# whole size.  What mkfs wrote is already taken (measured here: ext4 67
# MiB, xfs 64 MiB, btrfs 4.6 MiB of a 6G image).
# shellcheck disable=SC2154 # scenario_data is run.sh's
native_space_check() {
	local out=$1 img need=0 use="" free what
	shift
	[ -z "${scenario:-}" ] || use=$(info_value "$scenario_data" disk_use)
	if [ -n "$use" ]; then
		need=$((use + use / 10))
		what="$(human_size "$need") that $scenario writes on its disk ($(info_value "$scenario_data" disk_use_desc), +10% for metadata)"
	else
		for img in "$@"; do
			need=$((need + $(stat -c %s "$img") - $(stat -c '%b * %B' "$img")))
		done
		what="$(human_size "$need") that the images may grow by (a job declares no disk use)"
	fi
	need=$((need + $(size_bytes "$RL_MIN_FREE")))
	free=$(avail_bytes "$out")
	[ "${free:-0}" -ge "$need" ] ||
		native_fail "not enough space: $out has $(human_size "${free:-0}") free after mkfs, the run needs $(human_size "$need"): $what, and RL_MIN_FREE=$RL_MIN_FREE for its files"
}

# native_disks STATE OUT: each disk of run.sh's $disks made as the lab
# makes its image (the catalogue's mkfs, on a sparse file of RL_DISK_SIZE
# in OUT/native-disks), the free space checked against what the run may
# write into them (native_space_check), then a loop device over each with
# its profile's request size, rotational flag, queue depth and bandwidths.
# Sets native_list to "loopN:FS:OPTIONS ..." (a device /dev/loopN) for native_init and
# native_devs to the loop devices' names; what each device took goes to
# OUT/native-disks.txt.
# shellcheck disable=SC2154 # $disks is run.sh's
native_disks() {
	local state=$1 out=$2 d fs img dev name model mkfs kb rot qd rbw wbw mm size=${RL_DISK_SIZE:-6G} facts imgs=()
	native_list="" native_devs=""
	facts=$out/native-disks.txt
	native_step disks
	mkdir -m 0700 "$out/native-disks" || native_fail "cannot create $out/native-disks"
	for d in $disks; do
		fs=$(disk_fs "$d")
		img=$out/native-disks/$fs.img
		native_record "$state" "file $img"
		read -r -a mkfs <<<"$(catalogue_field fs "$fs" 5)"
		truncate -s "$size" "$img" || native_fail "cannot create $img"
		native_record "$state" "image $img $(native_file_id "$img")"
		"${mkfs[@]}" "$img" >"$img.log" 2>&1 || native_fail "mkfs of $fs failed: $(tail -2 "$img.log" | tr '\n' ' ')"
		rm -f "$img.log"
		imgs+=("$img")
	done
	native_step space
	native_space_check "$out" "${imgs[@]}"
	native_step loop
	for d in $disks; do
		fs=$(disk_fs "$d")
		img=$out/native-disks/$fs.img
		model=$(disk_model "$(disk_profile "$d")")
		# direct IO to the backing file: the host's page cache holds the
		# run's pages once, charged to the run, not again under the loop.
		# A device attached before its line below is written is found by
		# the image's inode (native_undo).
		dev=$(losetup --direct-io=on --show -f "$img") || native_fail "losetup of $img failed"
		name=${dev#/dev/}
		native_record "$state" "loop $name $img"
		native_devs="$native_devs $name"
		kb=$(model_value "$model" max_kb) rot=$(model_value "$model" rot) qd=$(model_value "$model" qd)
		rbw=$(model_value "$model" rbw) wbw=$(model_value "$model" wbw)
		mm=$(cat "/sys/block/$name/dev") || native_fail "no /sys/block/$name/dev"
		{
			echo "$name fs=$fs backing=$img dio=$(cat "/sys/block/$name/loop/dio" 2>/dev/null) profile=$model"
			native_queue_set "$state" "$name" max_sectors_kb "${kb:-512}"
			native_queue_set "$state" "$name" rotational "${rot:-0}"
			native_queue_set "$state" "$name" nr_requests "${qd:-64}"
		} >>"$facts" || native_fail "cannot write $facts"
		# kB/s of 1000 bytes, as the profile gives them; 0 is unlimited
		rbw=$((${rbw:-0} * 1000)) wbw=$((${wbw:-0} * 1000))
		if [ "$rbw" != 0 ] || [ "$wbw" != 0 ]; then
			[ -w "$RL_NATIVE_BLKIO/blkio.throttle.write_bps_device" ] ||
				native_fail "--native needs cgroup v1's blkio throttle ($RL_NATIVE_BLKIO) for the profile's bandwidths"
			native_record "$state" "throttle $name $mm $rbw $wbw"
			[ "$rbw" = 0 ] || echo "$mm $rbw" >"$RL_NATIVE_BLKIO/blkio.throttle.read_bps_device" ||
				native_fail "cannot set the read throttle of $name"
			[ "$wbw" = 0 ] || echo "$mm $wbw" >"$RL_NATIVE_BLKIO/blkio.throttle.write_bps_device" ||
				native_fail "cannot set the write throttle of $name"
			echo "$name throttle read_bps=$rbw write_bps=$wbw (blkio v1, root group)" >>"$facts" ||
				native_fail "cannot write $facts"
		fi
		native_list="$native_list $name:$fs:$(catalogue_field fs "$fs" 4)"
	done
	native_list=${native_list# } native_devs=${native_devs# }
}

# model_value "name=P,k=v,..." KEY: the value of KEY in a disk model
model_value() {
	tr ',' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -1
}

# native_trace_instance add|remove NAME: make or remove the trace
# instance NAME (tracefs is not mounted on every host: a mount namespace
# of its own mounts it for the while; where it is mounted, as systemd
# and perf leave it, mounting it again there fails with EBUSY, so the
# host's mount is used)
native_trace_instance() {
	# shellcheck disable=SC2016 # the inner shell's arguments
	unshare --mount --propagation private sh -c '
		[ -d /sys/kernel/tracing/instances ] ||
			mount -t tracefs tracefs /sys/kernel/tracing || exit 1
		if [ "$0" = add ]; then mkdir "/sys/kernel/tracing/instances/$1"
		else [ ! -d "/sys/kernel/tracing/instances/$1" ] || rmdir "/sys/kernel/tracing/instances/$1"; fi' "$1" "$2"
}

# native_init_end OUT RC: native_init's exit: without the job's exit
# status, OUT/host-failure names the step it ended at
native_init_end() {
	[ -f "$1/$RL_GUEST/exit-status" ] ||
		printf 'step=%s\nreason=native %s: %s\n' "$native_init_step" "$native_init_step" \
			"${native_init_why:-the namespace of the run ended with status $2 before the job left an exit status (console.log)}" \
			>>"$1/host-failure" || true
}

# native_init ROOT OUT TRACE-NAME MEMCG KMSG-MARK DISK...: PID 1 of the
# run's mount and pid namespace, the guest's rootfs/init natively: a
# tmpfs root at ROOT with the guest's paths (/reclaimlab, /results = OUT's
# guest/, /mnt/FS, /tmp, /cgroup/memory = the scratch cgroup MEMCG,
# /sys/kernel/tracing = the run's trace instance) and the host's /usr and
# /etc read-only, then the guest's own job step (rootfs/lib/rl-job.sh, the
# one copy rootfs/init runs too): the disks (loopN:FS:OPTIONS) mounted at
# ROOT/mnt/FS, job.env read and job.sh run in a chroot there, the disks
# unmounted; its exit status in guest/exit-status.  Where it ends
# without one (a mount that failed, a step of its own that failed, a job
# that left none), OUT/host-failure names the step.
native_init() {
	local root=$1 out=$2 trace=$3 memcg=$4 mark=$5 d l
	shift 5
	# the trap runs after native_init has returned, its locals gone
	native_init_step=namespace native_init_why="" native_init_out=$out
	trap 'native_init_end "$native_init_out" $?' EXIT
	mount -t tmpfs -o mode=0755,size=64m reclaimlab-native "$root"
	mkdir -p "$root"/{usr,etc,dev,proc,sys,tmp,mnt,root,results,cgroup/memory,reclaimlab/bin,reclaimlab/scenarios}
	chmod 1777 "$root/tmp"
	for d in usr etc; do
		mount --rbind "/$d" "$root/$d"
		mount -o remount,bind,ro "$root/$d"
	done
	for l in bin sbin lib lib32 lib64; do
		if [ -L "/$l" ]; then
			ln -s "$(readlink "/$l")" "$root/$l"
		elif [ -d "/$l" ]; then
			mkdir "$root/$l" && mount --rbind "/$l" "$root/$l" && mount -o remount,bind,ro "$root/$l"
		fi
	done
	# the host's device nodes (the loop devices, /dev/kmsg), read-only,
	# with a /dev/shm of the run's own
	mount --bind /dev "$root/dev"
	mount -o remount,bind,ro "$root/dev"
	mount -t tmpfs -o mode=1777,size=16m shm "$root/dev/shm"
	mount -t proc proc "$root/proc"
	mount -t sysfs sysfs "$root/sys"
	mount -t tracefs tracefs "$root/sys/kernel/tracing"
	mount --bind "$root/sys/kernel/tracing/instances/$trace" "$root/sys/kernel/tracing"
	mount --bind "$memcg" "$root/cgroup/memory"
	mount --bind "$out/$RL_GUEST" "$root/results"
	cp "$RL_NATIVE_TOOLS"/rl-* "$RL_TOP"/rootfs/lib/* "$root/reclaimlab/bin/"
	cp "$RL_TOP"/rootfs/scenarios/* "$root/reclaimlab/scenarios/"
	chmod 0755 "$root"/reclaimlab/bin/*
	uname -r >"$root/results/kernel-release"
	# the guest's own job step (rootfs/lib/rl-job.sh, the checkout's, as
	# rootfs/init runs it): the disks mounted from here under the root, then
	# the job run in the chroot with the copy installed there
	# shellcheck source=rootfs/lib/rl-job.sh
	. "$RL_TOP/rootfs/lib/rl-job.sh"
	RL_JOB_NAME=reclaimlab-native
	native_init_step=mount
	if rl_job_mount_disks "$root" "$@"; then
		native_init_step=job
		native_init_why="the job left no exit status (killed?)"
		# the guest's environment, as rootfs/init and job.env give it
		chroot "$root" /usr/bin/env -i PATH=/reclaimlab/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root TERM=dumb RL_TRACE_DAT=0 RL_BLKTRACE=0 \
			RL_MEMCG_V1_ROOT=/cgroup/memory RL_KMSG_MARK="$mark" /bin/sh -c \
			'. /reclaimlab/bin/rl-job.sh && rl_job_settings /results && rl_job_run /results' || true
	else
		native_init_why="$rl_job_failed (console.log)"
		printf 'step=mount\nreason=native mount: %s\n' "$native_init_why" >>"$out/host-failure"
		echo 125 >"$root/results/exit-status"
	fi
	rl_job_unmount_disks "$root"
}

# native_boot OUT TMP RUN_ID TIMEOUT: run.sh's guest boot, natively: wait
# for the host's native lock and sweep what runs that are over left, make
# the run's cgroup, trace instance and disks, run the job (native_init) in
# a mount and pid namespace of its own within TIMEOUT seconds, undo what
# it made, add the kernel's messages of the run to console.log.  Sets
# native_state (what native_undo undoes: run.sh's cleanup calls it too),
# native_step (the step the run is at: done at the end), uml_pid (the
# namespace's process group, which run.sh's stop_guest kills) and
# native_hung (1 if the watchdog ended the run).  A step that fails ends
# the run through native_fail, and run.sh's cleanup gives it its final
# status (native_end).  A run this host cannot measure gets its status
# here ("not-measured" and the reason) and run.sh exits 77.
# shellcheck disable=SC2154 # guest_limit is run.sh's
native_boot() {
	local out=$1 tmp=$2 run_id=$3 timeout=$4 name why mark memcg mem_bytes kmsg full dev
	name=$(native_name "$run_id")
	native_failure="" native_disk_full=""
	# one native run at a time on a host: the trace instance, /proc/vmstat
	# and the host's memory are the kernel's, not the run's, and two runs
	# would read each other's events (a matrix's runs wait their turn);
	# the sweep is under the lock (native-state.sh)
	native_step lock
	native_lock
	why=$(native_unmeasured)
	if [ -n "$why" ]; then
		echo "reclaimlab-native: not measured on $(uname -r): $why" >"$out/console.log"
		run_status_mark "$out" not-measured "exit_status=$RL_NATIVE_UNMEASURED" "reason=$why"
		note "not measured natively: $why"
		exit "$RL_NATIVE_UNMEASURED"
	fi
	native_step tools
	[ -x "$RL_NATIVE_TOOLS/rl-dd" ] ||
		make -s -C "$RL_TOP/rootfs/tools" OUT="$RL_NATIVE_TOOLS" >/dev/null ||
		native_fail "cannot build the rl-* tools (make -C rootfs/tools)"
	native_step state
	native_state=$RL_NATIVE_STATE/$run_id.$$.state
	{
		echo "owner $$"
		echo "run $out $(native_file_id "$out")"
		echo "name $name"
		[ -z "${guest_cgroup:-}" ] || echo "pids $guest_cgroup"
	} >"$native_state" || native_fail "cannot write the state file $native_state (a full /run?)"
	native_step cgroup
	memcg=$RL_NATIVE_MEMCG/$name
	mkdir "$memcg" || native_fail "cannot create the run's memory cgroup $memcg"
	# SCN_MEM, the guest's memory: the limit of everything the run does
	mem_bytes=$(size_bytes "$mem")
	echo "$mem_bytes" >"$memcg/memory.limit_in_bytes" || native_fail "cannot limit $memcg to $mem"
	native_step trace
	native_trace_instance add "$name" || native_fail "cannot create the trace instance $name"
	native_disks "$native_state" "$out"
	native_step job
	mark="reclaimlab-native: run $run_id"
	# the start of the run's window in the kernel's log
	echo "$mark starts" >/dev/kmsg || native_fail "cannot write the run's mark to /dev/kmsg"
	mkdir -m 0700 "$tmp/root"
	# shellcheck disable=SC2016,SC2086 # the inner shell's; $list is words
	setsid "${guest_limit[@]}" sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$memcg" \
		setpriv --pdeathsig KILL unshare --mount --pid --kill-child --propagation private \
		bash -c 'set -eu && . "$0/scripts/lib.sh" && native_init "$@"' "$RL_TOP" \
		"$tmp/root" "$out" "$name" "$memcg" "$mark job" $native_list \
		</dev/null >"$out/console.log" 2>&1 &
	uml_pid=$!
	native_hung=0
	{
		wait_guest "$uml_pid" "$timeout" || native_hung=1
		stop_guest
	} 2>/dev/null
	# The kernel's messages of the run, kept in TMP (RL_TMPDIR, not the run
	# folder's filesystem) until the undo has freed the images' space: a
	# run folder's filesystem that filled up is told by the loop devices'
	# write errors (BLK_STS_NOSPC) or by its free space now
	native_step messages
	kmsg=$tmp/kmsg
	dmesg | native_run_messages "$mark starts" "/$name" >"$kmsg" || true
	full=""
	for dev in $native_devs; do
		! grep -q "critical space allocation error, dev $dev," "$kmsg" || full="$full $dev"
	done
	if [ -n "$full" ] || [ "$(avail_bytes "$out")" -lt $((1 << 20)) ]; then
		native_disk_full="the filesystem of $out filled up during the run: the disks' images there could not grow${full:+ (write errors of no space on${full})}"
	fi
	native_step undo
	native_undo "$native_state"
	{
		echo "reclaimlab-native: the kernel's messages of the run ($(uname -r), dmesg):"
		cat "$kmsg"
	} >>"$out/console.log" || native_fail "cannot append the kernel's messages to $out/console.log"
	if [ -n "$native_disk_full" ]; then
		note "host disk full: $native_disk_full"
		printf 'disk_full=1\nreason=host disk full: %s\n' "$native_disk_full" >>"$out/host-failure" ||
			native_fail "cannot write $out/host-failure"
	fi
	native_step over
}

# native_end OUT RC WALL: the final status of a native run that ended at a step
# of its own (native_step, native_failure): OUT/host-failure names the
# step and why, and whether the run folder's filesystem filled up, then
# rl-collect writes the status (collect-run.sh).  Called by run.sh's
# cleanup, after the undo: a full disk has its space back.  Returns
# collect-run.sh's status (125 for a step that failed).
native_end() {
	local out=$1 rc=$2 full=${native_disk_full:-} step=$native_step why
	native_step=over
	why="native $step: ${native_failure:-ended with status $rc (the error above)}"
	[ -n "$full" ] || [ "$(avail_bytes "$out")" -ge $((1 << 20)) ] ||
		full="the filesystem of $out is full"
	{
		printf 'step=%s\nreason=%s\n' "$step" "$why"
		[ -z "$full" ] || printf 'disk_full=1\n'
	} >>"$out/host-failure" 2>/dev/null || true
	echo "reclaimlab-native: $why" >>"$out/console.log" 2>/dev/null || true
	"$RL_TOP/scripts/collect-run.sh" "$out" "$3" ended
}
