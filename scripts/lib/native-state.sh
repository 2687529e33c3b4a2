# shellcheck shell=bash
# What a native run (scripts/lib/native.sh) makes on the host, recorded
# before it is made, and undone: the state file of a run, the lock that
# makes native runs one at a time, the sweep of what a killed run left,
# and the release of a loop device by the run that attached it.  Why each
# rule is as it is: docs/native.md ("Nothing left behind").  Sourced by
# lib.sh; tests/t-68-native.sh tests each rule as root.
#
# The state file RL_NATIVE_STATE/RUN_ID.PID.state, a line a thing, written
# before the thing is made (so that a runner killed at any point leaves a
# record of all it made):
#   owner PID                the runner
#   run DIR MAJ:MIN INO      the run folder and its inode (a folder moved
#                            aside and made again under the name is not it)
#   name NAME                the run's cgroup and trace instance name
#   pids CGROUP              run.sh's pids cgroup of the run
#   step STEP                the step the run is in (the last one counts)
#   file PATH                a disk image about to be made (removed)
#   image PATH MAJ:MIN INO   that image, made: the identity of its loop
#                            devices (BACK-MAJ:MIN and BACK-INO)
#   loop NAME PATH           the loop device the run attached over PATH
#   queue NAME SETTING OLD   a queue setting of a loop device before the run
#   throttle NAME MM RBPS WBPS  the blkio throttle rules the run set
#
# The invariant that makes the sweep safe: a state file is written only by
# a runner that holds the lock (RL_NATIVE_STATE/lock, flock), and removed
# by that runner before it lets go of it (the lock is an open file, let go
# when the runner and every process it started are gone).  So a runner
# that holds the lock finds only state files of runs that are over.

# the state files of native runs: root's alone
RL_NATIVE_STATE=${RL_NATIVE_STATE:-/run/reclaimlab-native}
RL_NATIVE_MEMCG=/sys/fs/cgroup/memory
RL_NATIVE_BLKIO=/sys/fs/cgroup/blkio

# native_state_dir: make RL_NATIVE_STATE if it is not there; die unless it
# is root's alone (mode 0700, not a link)
native_state_dir() {
	[ -d "$RL_NATIVE_STATE" ] || mkdir -m 0700 "$RL_NATIVE_STATE" 2>/dev/null || [ -d "$RL_NATIVE_STATE" ] ||
		die "cannot create $RL_NATIVE_STATE (the native runs' state)"
	{ [ -O "$RL_NATIVE_STATE" ] && [ ! -L "$RL_NATIVE_STATE" ] && [ "$(stat -c %a "$RL_NATIVE_STATE")" = 700 ]; } ||
		die "$RL_NATIVE_STATE is not root's alone (mode 0700, not a link); remove it"
}

# native_lock: wait for the host's native lock, then sweep (under it) what
# runs that are over left.  The lock stays held by this process (and what
# it starts) until it exits: fd native_lock_fd.
native_lock() {
	native_state_dir
	exec {native_lock_fd}>>"$RL_NATIVE_STATE/lock"
	flock "$native_lock_fd" || die "cannot lock $RL_NATIVE_STATE/lock"
	native_sweep
}

# native_state_add STATE LINE: record LINE in the run's state file; fails
# (and the caller makes nothing) when it cannot be written
native_state_add() {
	printf '%s\n' "$2" >>"$1"
}

# native_file_id PATH: "MAJ:MIN INO" of PATH, as losetup names a loop
# device's backing file (BACK-MAJ:MIN, BACK-INO)
native_file_id() {
	stat -c '%Hd:%Ld %i' -- "$1"
}

# native_loop_devices_of "MAJ:MIN INO": the loop devices (loopN) whose
# backing file is that inode, bound now
native_loop_devices_of() {
	losetup -n -l -O NAME,BACK-MAJ:MIN,BACK-INO 2>/dev/null |
		awk -v id="$1" '$2 " " $3 == id { sub(/^\/dev\//, "", $1); print $1 }'
}

# native_loop_is NAME "MAJ:MIN INO": true if /dev/NAME is bound to that inode
native_loop_is() {
	[ "$(losetup -n -l -O BACK-MAJ:MIN,BACK-INO "/dev/$1" 2>/dev/null | awk '{ print $1, $2 }')" = "$2" ]
}

# native_restore_queue STATE NAME: NAME's queue settings as STATE recorded
# them before the run changed them, and no throttle rule of the run's on
# its device number (only a rule with the values the run set)
native_restore_queue() {
	local kind d f v r mm rules want
	while read -r kind d f v r; do
		[ "$d" = "$2" ] || continue
		case "$kind $f" in
		"queue max_sectors_kb" | "queue rotational" | "queue nr_requests")
			echo "$v" >"/sys/block/$2/queue/$f" 2>/dev/null || true
			;;
		"throttle "*)
			# "throttle NAME MM RBPS WBPS"
			mm=$f
			for rules in read_bps_device:$v write_bps_device:$r; do
				want=${rules#*:} rules=${rules%:*}
				[ "$want" != 0 ] || continue
				! grep -qx "$mm $want" "$RL_NATIVE_BLKIO/blkio.throttle.$rules" 2>/dev/null ||
					echo "$mm 0" >"$RL_NATIVE_BLKIO/blkio.throttle.$rules" 2>/dev/null || true
			done
			;;
		esac
	done <"$1"
}

# native_loop_release STATE NAME "MAJ:MIN INO": put the loop device NAME
# back as the run found it and detach it, if and only if it is bound to
# the run's image of that identity.  The device is held open from before
# the check to after the detach: while it is open it cannot be detached
# and bound to another file, so the device detached is the one checked
# (losetup -d of an open device marks it autoclear; it goes at the last
# close, ours, or that of a mount of it still going away).  Never retried
# by name.  Fails if the device is still bound to the image after.
native_loop_release() {
	local held
	# (a group's redirection: exec's own would be the shell's for good)
	{ exec {held}<"/dev/$2"; } 2>/dev/null || return 0
	if native_loop_is "$2" "$3"; then
		native_restore_queue "$1" "$2"
		losetup -d "/dev/$2" 2>/dev/null || note "losetup -d /dev/$2 failed"
	fi
	exec {held}<&-
	! native_loop_is "$2" "$3" || {
		note "loop device /dev/$2 is still busy; it goes when its last user does (autoclear)"
		return 1
	}
}

# native_undo STATE: undo what the state file STATE records, whatever
# state the run was left in, then remove STATE; a missing STATE is nothing
# to undo.  Each thing is recognised by its record: a loop device by its
# backing file's inode, the cgroups and trace instance by the run's name,
# an image by its path under the run's native-disks/.  Each step can be
# repeated (a signal that interrupts an undo starts it again).  STATE is
# kept, for the next run's sweep, if something could not be undone.
native_undo() {
	local state=$1 kind a b c line state_lines=() name cg pids left=0 dev
	mapfile -t state_lines 2>/dev/null <"$state" || return 0
	name=$(printf '%s\n' "${state_lines[@]}" | sed -n 's/^name \(reclaimlab-native-[A-Za-z0-9._+@:-]*\)$/\1/p' | head -1)
	[ -n "$name" ] || { note "native state $state names no run; left as it is"; return 0; }
	cg=$RL_NATIVE_MEMCG/$name
	# the run's processes, if any outlived their pid namespace (bounded:
	# SIGKILL takes effect when each leaves the kernel)
	if [ -d "$cg" ]; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			pids=$(find "$cg" -name cgroup.procs -exec cat {} + 2>/dev/null | sort -u)
			[ -n "$pids" ] || break
			# shellcheck disable=SC2086 # pids
			kill -KILL $pids 2>/dev/null || true
			sleep 0.2
		done
	fi
	# the loop devices bound to the run's images, each found by its backing
	# file's inode (a device the run attached before it could record it
	# too), put back and detached
	for line in "${state_lines[@]}"; do
		read -r kind a b c <<<"$line"
		{ [ "$kind" = image ] && [ -n "$c" ]; } || continue
		for dev in $(native_loop_devices_of "$b $c"); do
			native_loop_release "$state" "$dev" "$b $c" || left=1
		done
	done
	# the queue settings and throttle rules of devices the run had that are
	# bound to nothing now (a runner killed in its undo); a device bound to
	# another file is another's
	for line in "${state_lines[@]}"; do
		read -r kind a _ <<<"$line"
		case "$kind" in queue | throttle) ;; *) continue ;; esac
		[[ "$a" =~ ^loop[0-9]+$ ]] || continue
		[ -n "$(losetup -n -O BACK-FILE "/dev/$a" 2>/dev/null)" ] || native_restore_queue "$state" "$a"
	done
	for line in "${state_lines[@]}"; do
		read -r kind a _ <<<"$line"
		if [ "$kind" = file ] && [[ "$a" =~ ^/.*/native-disks/[a-z0-9]+\.img$ ]]; then
			rm -f "$a" "$a.log"
			rmdir "${a%/*}" 2>/dev/null || true
		fi
	done
	# the cgroups, the scenario's below the scratch parent first
	if [ -d "$cg" ]; then
		find "$cg" -depth -type d -exec rmdir {} + 2>/dev/null || true
		[ ! -d "$cg" ] || { note "cgroup $cg could not be removed"; left=1; }
	fi
	for line in "${state_lines[@]}"; do
		read -r kind a _ <<<"$line"
		if [ "$kind" = pids ] && [[ "$a" =~ ^/sys/fs/cgroup/(pids/)?reclaimlab-[A-Za-z0-9._+@:-]+$ ]]; then
			rmdir "$a" 2>/dev/null || true
		fi
	done
	native_trace_instance remove "$name" 2>/dev/null || { note "trace instance $name could not be removed"; left=1; }
	if [ "$left" = 0 ]; then
		rm -f "$state"
	else
		note "native state $state kept: the next native run sweeps what is left"
	fi
}

# native_sweep_status STATE: a killed run's status, if its folder still
# says "running": interrupted, with the step it was in.  Only the folder
# the state names by inode (a folder made again under its name is another
# attempt's).
native_sweep_status() {
	local dir id step owner
	read -r dir id < <(sed -n 's/^run //p' "$1" | head -1)
	[ -n "$dir" ] && [ -d "$dir" ] && [ ! -L "$dir" ] && [ -O "$dir" ] || return 0
	[ "$(native_file_id "$dir" 2>/dev/null)" = "$id" ] || return 0
	[ "$(run_status "$dir")" = running ] || return 0
	step=$(sed -n 's/^step \([a-z]*\)$/\1/p' "$1" | tail -1)
	owner=$(sed -n 's/^owner \([0-9]*\)$/\1/p' "$1" | head -1)
	run_status_mark "$dir" interrupted "failed_step=${step:-start}" \
		"reason=native ${step:-start}: the runner (pid $owner) ended without undoing its run (killed with SIGKILL?); swept by the next native run" ||
		true
}

# native_sweep: undo what runs that are over left: every state file, under
# the lock (the invariant above), the killed run's status made final
native_sweep() {
	local state
	for state in "$RL_NATIVE_STATE"/*.state; do
		[ -f "$state" ] || continue
		note "sweeping what native run $(sed -n 's/^run \([^ ]*\).*/\1/p' "$state" | head -1) left (runner $(sed -n 's/^owner //p' "$state" | head -1) gone)"
		native_sweep_status "$state"
		native_undo "$state"
	done
}
