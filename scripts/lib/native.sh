# shellcheck shell=bash disable=SC2034 # native_hung, native_state: run.sh's
# The native backend (run.sh --native, compare.sh --kernel NAME=native): a
# scenario on the running host kernel instead of a UML guest, into the same
# run folder (run.conf, guest/, console.log, status), so that collect,
# summarize and report read it as they read a guest's.  Needs root.  Why
# each piece is as it is: docs/native.md.  Sourced by lib.sh.
#
# What a run makes on the host, each recorded in its state file (below)
# before it is made, and undone by native_undo on every exit path, or by
# the next native run's sweep when the runner was killed with SIGKILL:
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

# the state files of running native runs: root's alone
RL_NATIVE_STATE=${RL_NATIVE_STATE:-/run/reclaimlab-native}
RL_NATIVE_MEMCG=/sys/fs/cgroup/memory
RL_NATIVE_BLKIO=/sys/fs/cgroup/blkio
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

# native_state_add STATE LINE: record LINE in the run's state file
native_state_add() {
	printf '%s\n' "$2" >>"$1"
}

# native_queue_set STATE DEV FILE VALUE: set /sys/block/DEV/queue/FILE to
# VALUE where the device takes it, the value it had recorded first (to be
# put back); prints "DEV FILE=WANTED: READ-BACK" (what took)
native_queue_set() {
	local f=/sys/block/$2/queue/$3 old now
	old=$(cat "$f" 2>/dev/null) || { echo "$2 $3=$4: no such setting"; return 0; }
	native_state_add "$1" "queue $2 $3 $old"
	echo "$4" >"$f" 2>/dev/null || true
	now=$(cat "$f" 2>/dev/null)
	echo "$2 $3=$4: ${now:-unreadable} (was $old)"
}

# native_disks STATE OUT: each disk of run.sh's $disks made as the lab
# makes its image (the catalogue's mkfs, on a sparse file of RL_DISK_SIZE
# in OUT/native-disks), then a loop device over it with its profile's
# request size, rotational flag, queue depth and bandwidths.  Sets
# native_list to "/dev/loopN:FS:OPTIONS ..." for native_init; what each
# device took goes to OUT/native-disks.txt.
# shellcheck disable=SC2154 # $disks is run.sh's
native_disks() {
	local state=$1 out=$2 d fs img dev name model mkfs kb rot qd rbw wbw mm size=${RL_DISK_SIZE:-6G} facts
	native_list=""
	facts=$out/native-disks.txt
	mkdir -m 0700 "$out/native-disks"
	for d in $disks; do
		fs=$(disk_fs "$d")
		img=$out/native-disks/$fs.img
		model=$(disk_model "$(disk_profile "$d")")
		native_state_add "$state" "file $img"
		read -r -a mkfs <<<"$(catalogue_field fs "$fs" 5)"
		truncate -s "$size" "$img" || die "cannot create $img"
		"${mkfs[@]}" "$img" >"$img.log" 2>&1 || die "mkfs of $fs failed: $(tail -2 "$img.log")"
		rm -f "$img.log"
		# direct IO to the backing file: the host's page cache holds the
		# run's pages once, charged to the run, not again under the loop
		dev=$(losetup --direct-io=on --show -f "$img") || die "losetup of $img failed"
		name=${dev#/dev/}
		native_state_add "$state" "loop $name $img"
		kb=$(model_value "$model" max_kb) rot=$(model_value "$model" rot) qd=$(model_value "$model" qd)
		rbw=$(model_value "$model" rbw) wbw=$(model_value "$model" wbw)
		mm=$(cat "/sys/block/$name/dev")
		{
			echo "$name fs=$fs backing=$img dio=$(cat "/sys/block/$name/loop/dio" 2>/dev/null) profile=$model"
			native_queue_set "$state" "$name" max_sectors_kb "${kb:-512}"
			native_queue_set "$state" "$name" rotational "${rot:-0}"
			native_queue_set "$state" "$name" nr_requests "${qd:-64}"
		} >>"$facts"
		# kB/s of 1000 bytes, as the profile gives them; 0 is unlimited
		if [ "${rbw:-0}" != 0 ] || [ "${wbw:-0}" != 0 ]; then
			[ -w "$RL_NATIVE_BLKIO/blkio.throttle.write_bps_device" ] ||
				die "--native needs cgroup v1's blkio throttle ($RL_NATIVE_BLKIO) for the profile's bandwidths"
			native_state_add "$state" "throttle $name $mm"
			[ "${rbw:-0}" = 0 ] || echo "$mm $((rbw * 1000))" >"$RL_NATIVE_BLKIO/blkio.throttle.read_bps_device"
			[ "${wbw:-0}" = 0 ] || echo "$mm $((wbw * 1000))" >"$RL_NATIVE_BLKIO/blkio.throttle.write_bps_device"
			echo "$name throttle read_bps=$((${rbw:-0} * 1000)) write_bps=$((${wbw:-0} * 1000)) (blkio v1, root group)" >>"$facts"
		fi
		native_list="$native_list $dev:$fs:$(catalogue_field fs "$fs" 4)"
	done
	native_list=${native_list# }
}

# model_value "name=P,k=v,..." KEY: the value of KEY in a disk model
model_value() {
	tr ',' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -1
}

# native_trace_instance add|remove NAME: make or remove the trace
# instance NAME (tracefs is not mounted on every host: a mount namespace
# of its own mounts it for the while)
native_trace_instance() {
	# shellcheck disable=SC2016 # the inner shell's arguments
	unshare --mount --propagation private sh -c '
		mount -t tracefs tracefs /sys/kernel/tracing || exit 1
		if [ "$0" = add ]; then mkdir "/sys/kernel/tracing/instances/$1"
		else [ ! -d "/sys/kernel/tracing/instances/$1" ] || rmdir "/sys/kernel/tracing/instances/$1"; fi' "$1" "$2"
}

# native_restore_device STATE DEV: the loop device DEV as the run found
# it: no throttle rule of its device number, its queue's settings as the
# state file recorded them before the run changed them
native_restore_device() {
	local dev rules kind d f v
	dev=$(cat "/sys/block/$2/dev" 2>/dev/null) || return 0
	for rules in read_bps_device write_bps_device; do
		! grep -q "^$dev " "$RL_NATIVE_BLKIO/blkio.throttle.$rules" 2>/dev/null ||
			echo "$dev 0" >"$RL_NATIVE_BLKIO/blkio.throttle.$rules" || true
	done
	while read -r kind d f v; do
		[ "$kind $d" = "queue $2" ] || continue
		case "$f" in
		max_sectors_kb | rotational | nr_requests) echo "$v" >"/sys/block/$2/queue/$f" 2>/dev/null || true ;;
		esac
	done <"$state"
}

# native_undo STATE: undo what the state file STATE records, whatever
# state the run was left in, then remove STATE.  Each thing is recognised
# by its marker, checked against the file: a loop device only while its
# backing file is the run's, the cgroups and trace instance by the run's
# name.  Safe to repeat.
native_undo() {
	local state=$1 kind a b name dev cg pids line state_lines
	[ -f "$state" ] || return 0
	name=$(sed -n 's/^name \(reclaimlab-native-[A-Za-z0-9._+@:-]*\)$/\1/p' "$state" | head -1)
	[ -n "$name" ] || { note "native state $state names no run; left as it is"; return 0; }
	cg=$RL_NATIVE_MEMCG/$name
	# the run's processes, if any outlived their pid namespace
	if [ -d "$cg" ]; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			pids=$(find "$cg" -name cgroup.procs -exec cat {} + 2>/dev/null | sort -u)
			[ -n "$pids" ] || break
			# shellcheck disable=SC2086 # pids
			kill -KILL $pids 2>/dev/null || true
			sleep 0.2
		done
	fi
	mapfile -t state_lines <"$state"
	# the loop devices still backed by the run's files: throttle rules
	# and queue settings first, while the device is still the run's
	for line in "${state_lines[@]}"; do
		read -r kind a b _ <<<"$line"
		{ [ "$kind" = loop ] && [[ "$a" =~ ^loop[0-9]+$ ]]; } || continue
		[ "$(cat "/sys/block/$a/loop/backing_file" 2>/dev/null)" = "$b" ] || continue
		native_restore_device "$state" "$a"
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			losetup -d "/dev/$a" 2>/dev/null && break
			sleep 0.5
		done
		[ "$(cat "/sys/block/$a/loop/backing_file" 2>/dev/null)" != "$b" ] ||
			note "loop device /dev/$a of $b is still busy; it goes when its last user does (autoclear)"
	done
	for line in "${state_lines[@]}"; do
		read -r kind a b _ <<<"$line"
		case "$kind" in
		throttle)
			# a device detached before its rules went (a runner
			# killed in its undo)
			[[ "$a" =~ ^loop[0-9]+$ ]] || continue
			[ -e "/sys/block/$a/loop/backing_file" ] || native_restore_device "$state" "$a"
			;;
		file)
			# a loop device attached before its line was written:
			# found by its backing file
			for dev in $(losetup -n -O NAME -j "$a" 2>/dev/null); do
				if [ "$(losetup -n -O BACK-FILE "$dev" 2>/dev/null)" = "$a" ]; then
					losetup -d "$dev" 2>/dev/null || true
				fi
			done
			if [[ "$a" == */native-disks/*.img ]]; then
				rm -f "$a"
				rmdir "${a%/*}" 2>/dev/null || true
			fi
			;;
		esac
	done
	# the cgroups, the scenario's below the scratch parent first
	if [ -d "$cg" ]; then
		find "$cg" -depth -type d -exec rmdir {} + 2>/dev/null || true
		[ ! -d "$cg" ] || note "cgroup $cg could not be removed"
	fi
	for line in "${state_lines[@]}"; do
		read -r kind a _ <<<"$line"
		if [ "$kind" = pids ] && [[ "$a" =~ ^/sys/fs/cgroup/(pids/)?reclaimlab-[A-Za-z0-9._+@:-]+$ ]]; then
			rmdir "$a" 2>/dev/null || true
		fi
	done
	native_trace_instance remove "$name" 2>/dev/null || note "trace instance $name could not be removed"
	rm -f "$state"
}

# native_sweep: undo what native runs killed with SIGKILL left: each state
# file whose owner process is gone.  The registry is root's: a folder
# anyone else could write to is refused.
native_sweep() {
	local state owner
	[ -d "$RL_NATIVE_STATE" ] || mkdir -m 0700 "$RL_NATIVE_STATE"
	{ [ -O "$RL_NATIVE_STATE" ] && [ ! -L "$RL_NATIVE_STATE" ] && [ "$(stat -c %a "$RL_NATIVE_STATE")" = 700 ]; } ||
		die "$RL_NATIVE_STATE is not root's alone (mode 0700, not a link); remove it"
	for state in "$RL_NATIVE_STATE"/*.state; do
		[ -f "$state" ] || continue
		owner=$(sed -n 's/^owner \([0-9]\{1,10\}\)$/\1/p' "$state" | head -1)
		{ [ -n "$owner" ] && kill -0 "$owner" 2>/dev/null; } && continue
		note "sweeping what native run $(sed -n 's/^run //p' "$state" | head -1) left (runner $owner gone)"
		native_undo "$state"
	done
}

# native_init ROOT OUT TRACE-NAME MEMCG KMSG-MARK DISK...: PID 1 of the
# run's mount and pid namespace, the guest's rootfs/init natively: a
# tmpfs root at ROOT with the guest's paths (/reclaimlab, /results = OUT's
# guest/, /mnt/FS, /tmp, /cgroup/memory = the scratch cgroup MEMCG,
# /sys/kernel/tracing = the run's trace instance) and the host's /usr and
# /etc read-only, the disks (/dev/loopN:FS:OPTIONS) mounted, the job run
# in a chroot there; its exit status in guest/exit-status.
native_init() {
	local root=$1 out=$2 trace=$3 memcg=$4 mark=$5 d dev fs opts l status=0
	shift 5
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
	: >"$root/tmp/rl-disks"
	for d in "$@"; do
		dev=${d%%:*} fs=${d#*:}
		opts=${fs#*:} fs=${fs%%:*}
		echo "$dev $fs $opts" >>"$root/tmp/rl-disks"
		mkdir -p "$root/mnt/$fs"
		mount -t "$fs" -o "$opts" "$dev" "$root/mnt/$fs" || {
			echo "reclaimlab-native: cannot mount $dev ($fs) on /mnt/$fs"
			status=125
		}
	done
	uname -r >"$root/results/kernel-release"
	if [ "$status" = 0 ]; then
		# the guest's environment, as rootfs/init and job.env give it
		# shellcheck disable=SC2016 # the chroot's shell expands them
		chroot "$root" /usr/bin/env -i PATH=/reclaimlab/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root TERM=dumb RL_TRACE_DAT=0 RL_BLKTRACE=0 \
			RL_MEMCG_V1_ROOT=/cgroup/memory RL_KMSG_MARK="$mark" /bin/sh -c '
			cd /results || exit 1
			# every setting of the run, as rootfs/init sources it
			. /results/job.env || exit 1
			( sh /results/job.sh; echo $? >/tmp/job-status ) 2>&1 | tee /results/guest.log
			cp /tmp/job-status /results/exit-status' || true
	else
		echo "$status" >"$root/results/exit-status"
	fi
	while read -r dev fs _; do
		umount "$root/mnt/$fs" 2>/dev/null || echo "reclaimlab-native: umount /mnt/$fs failed"
	done <"$root/tmp/rl-disks"
	sync
}

# native_boot OUT TMP RUN_ID TIMEOUT: run.sh's guest boot, natively: make
# the run's disks, cgroup and trace instance, run the job (native_init) in
# a mount and pid namespace of its own within TIMEOUT seconds, add the
# kernel's messages of the run to console.log, undo what it made.  Sets
# native_state (what native_undo undoes: run.sh's cleanup calls it too),
# uml_pid (the namespace's process group, which run.sh's stop_guest kills)
# and native_hung (1 if the watchdog ended the run).  A run this host
# cannot measure gets its status here
# ("not-measured" and the reason) and run.sh exits 77.
# shellcheck disable=SC2154 # guest_limit is run.sh's
native_boot() {
	local out=$1 tmp=$2 run_id=$3 timeout=$4 name why mark memcg mem_bytes native_lock
	name=$(native_name "$run_id")
	# one native run at a time on a host: the trace instance, /proc/vmstat
	# and the host's memory are the kernel's, not the run's, and two runs
	# would read each other's events (a matrix's runs wait their turn)
	native_sweep
	exec {native_lock}>>"$RL_NATIVE_STATE/lock"
	flock "$native_lock"
	native_sweep
	why=$(native_unmeasured)
	if [ -n "$why" ]; then
		echo "reclaimlab-native: not measured on $(uname -r): $why" >"$out/console.log"
		printf 'not-measured\nrun=%s\nexit_status=%s\nreason=%s\n' "$run_id" "$RL_NATIVE_UNMEASURED" "$why" >"$out/status"
		note "not measured natively: $why"
		exit "$RL_NATIVE_UNMEASURED"
	fi
	[ -x "$RL_NATIVE_TOOLS/rl-dd" ] ||
		make -s -C "$RL_TOP/rootfs/tools" OUT="$RL_NATIVE_TOOLS" >/dev/null ||
		die "cannot build the rl-* tools (make -C rootfs/tools)"
	native_state=$RL_NATIVE_STATE/$run_id.$$.state
	{
		echo "owner $$"
		echo "run $out"
		echo "name $name"
		[ -z "${guest_cgroup:-}" ] || echo "pids $guest_cgroup"
	} >"$native_state"
	memcg=$RL_NATIVE_MEMCG/$name
	mkdir "$memcg" || die "cannot create the run's memory cgroup $memcg"
	# SCN_MEM, the guest's memory: the limit of everything the run does
	mem_bytes=$(size_bytes "$mem")
	echo "$mem_bytes" >"$memcg/memory.limit_in_bytes"
	native_trace_instance add "$name" || die "cannot create the trace instance $name"
	native_disks "$native_state" "$out"
	mark="reclaimlab-native: run $run_id"
	# the start of the run's window in the kernel's log
	echo "$mark starts" >/dev/kmsg
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
	{
		echo "reclaimlab-native: the kernel's messages of the run ($(uname -r), dmesg):"
		dmesg | native_run_messages "$mark starts" "/$name"
	} >>"$out/console.log"
	native_undo "$native_state"
}
