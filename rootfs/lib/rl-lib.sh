# shellcheck shell=sh
# reclaimlab guest helpers, sourced by scenarios and test jobs in the guest:
#   . /reclaimlab/bin/rl-lib.sh
# Counters, tracing, memory cgroups and sysctl knobs, each in one place.

RL_DEBUG_VM=/sys/kernel/debug/vm
RL_XFS_REQUEUES=/sys/kernel/debug/xfs/ioend_requeues
RL_TRACING=/sys/kernel/tracing

# rl_fail REASON: record why the run failed (results/failure-reason, which
# the host puts in the run's status) and go on; rl_die also exits.
rl_fail() {
	echo "rl-lib: $*" >&2
	[ -z "${RL_OUT:-}" ] || echo "$*" >>"$RL_OUT/failure-reason"
	return 1
}

rl_die() {
	rl_fail "$@" || true
	exit 1
}

# rl_workload_status NAME STATUS: a workload's exit status.  Killed by
# SIGKILL (137) it is named in workloads-killed and the run goes on: the
# host's rl-collect, the one reader of the OOM killer's reports (the
# console), takes it for a result of the experiment when the kernel
# OOM-killed a process and fails the run otherwise.  Any other failure
# fails the run, with the reason.
rl_workload_status() {
	[ "$2" = 0 ] && return 0
	if [ "$2" = 137 ]; then
		echo "$1" >>"${RL_OUT:-/results}/workloads-killed"
		return 0
	fi
	rl_fail "$1 exited with status $2"
}

# The kernel's messages of this run.  A guest's kernel is the run's own:
# rl_dmesg_start empties its ring buffer and rl_dmesg prints it.  A native
# run (run.sh --native) shares the host's kernel, whose log is not the
# run's to clear: there RL_KMSG_MARK is set, rl_dmesg_start writes it to
# the kernel's log and rl_dmesg prints what came after its last copy.
rl_dmesg_start() {
	if [ -n "${RL_KMSG_MARK:-}" ]; then
		echo "$RL_KMSG_MARK" >/dev/kmsg
	else
		dmesg -c >/dev/null
	fi
}

rl_dmesg() {
	if [ -n "${RL_KMSG_MARK:-}" ]; then
		dmesg | awk -v m="$RL_KMSG_MARK" 'index($0, m) { n = 0; next } { line[++n] = $0 } END { for (i = 1; i <= n; i++) print line[i] }'
	else
		dmesg
	fi
}

# Reset every reclaim wait counter of the observability patch to zero; a
# kernel without the patch (another kernel of a matrix) has none, and its
# snapshots say so.
rl_counters_reset() {
	[ -d "$RL_DEBUG_VM" ] || return 0
	for f in "$RL_DEBUG_VM"/*; do
		echo 0 >"$f" || rl_die "cannot reset $f"
	done
	[ ! -f "$RL_XFS_REQUEUES" ] || echo 0 >"$RL_XFS_REQUEUES" || rl_die "cannot reset $RL_XFS_REQUEUES"
}

# Snapshot the counters as `grep -r . /debug/vm` shows them (and xfs's
# completion requeues of patch 0029 as xfs_ioend_requeues), plus /proc/vmstat.
rl_counters_snapshot() { # PREFIX: writes PREFIX.debug-vm and PREFIX.vmstat
	if [ -d "$RL_DEBUG_VM" ]; then
		{
			grep -r . "$RL_DEBUG_VM" | sed "s|^$RL_DEBUG_VM/||"
			[ ! -f "$RL_XFS_REQUEUES" ] || echo "xfs_ioend_requeues:$(cat "$RL_XFS_REQUEUES")"
		} | sort >"$1.debug-vm"
	else
		echo absent >"$1.debug-vm"
	fi
	cp /proc/vmstat "$1.vmstat"
}

# Start tracing the given events (default: every reclaim wait; upstream's
# mm_vmscan_throttled would count the reclaim_throttle() sleeps twice).
rl_trace_start() {
	echo 0 >"$RL_TRACING/tracing_on"
	echo >"$RL_TRACING/trace"
	echo "${RL_TRACE_BUFFER_KB:-16384}" >"$RL_TRACING/buffer_size_kb"
	echo >"$RL_TRACING/set_event"
	[ $# -gt 0 ] || set -- vmscan:mm_vmscan_reclaim_wait
	for e in "$@"; do
		echo "$e" >>"$RL_TRACING/set_event" || rl_die "no trace event $e"
	done
	echo 1 >"$RL_TRACING/tracing_on"
}

# Stop tracing; save the trace and the ring buffer's overrun count.
rl_trace_stop() { # FILE
	echo 0 >"$RL_TRACING/tracing_on"
	cat "$RL_TRACING/trace" >"$1"
	overrun=0
	for s in "$RL_TRACING"/per_cpu/cpu*/stats; do
		n=$(sed -n 's/^overrun: //p' "$s")
		overrun=$((overrun + ${n:-0}))
	done
	echo "$overrun" >"$1.overrun"
	# run.sh --trace-dat: the same events as trace.dat for trace-cmd report
	# and KernelShark; after the text, since extract consumes the buffer
	if [ "${RL_TRACE_DAT:-0}" = 1 ]; then
		trace-cmd extract -o "${1%.txt}.dat" >/dev/null 2>&1 ||
			rl_die "trace-cmd extract of ${1%.txt}.dat failed (no tools disk?)"
	fi
	echo >"$RL_TRACING/set_event"
}

# Create a memory cgroup with a limit, v1 or v2; prints its path.
rl_memcg_create() { # NAME LIMIT v1|v2
	case "$3" in
	v2)
		# io too: cgroup writeback, and with it per-memcg dirty
		# throttling, needs both controllers.  One version per boot:
		# the memory controller does not come back from a v1 hierarchy
		# while its removed cgroups still hold page cache.
		echo "+memory +io" >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
			rl_die "cannot enable the memory controller for cgroup v2 (was it used with v1 in this boot?)"
		mkdir -p "/sys/fs/cgroup/$1"
		echo "$2" >"/sys/fs/cgroup/$1/memory.max" 2>/dev/null ||
			rl_die "cannot set memory.max of $1 to '$2' (valid: a size such as 32M, or max)"
		echo "/sys/fs/cgroup/$1"
		;;
	v1)
		# RL_MEMCG_V1_ROOT: a native run's scratch cgroup of the host's
		# v1 memory hierarchy (run.sh --native), which the host made;
		# a guest mounts the hierarchy itself.
		memcg_root=${RL_MEMCG_V1_ROOT:-/cgroup/memory}
		if [ -z "${RL_MEMCG_V1_ROOT:-}" ]; then
			# The memory controller can move to a v1 hierarchy only
			# while no v2 cgroup uses it.
			echo -memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
			mkdir -p /cgroup/memory
			grep -q ' /cgroup/memory ' /proc/mounts ||
				mount -t cgroup -o memory memory /cgroup/memory ||
				rl_die "cannot mount the v1 memory controller"
		fi
		mkdir -p "$memcg_root/$1"
		echo "$2" >"$memcg_root/$1/memory.limit_in_bytes" 2>/dev/null ||
			rl_die "cannot set memory.limit_in_bytes of $1 to '$2' (valid: a size such as 32M)"
		echo "$memcg_root/$1"
		;;
	*) rl_die "unknown cgroup version '$3' (valid: v1 v2)" ;;
	esac
}

# The disks the job step mounted: RL_DISKS_TABLE, "DEVICE FS OPTIONS"
# lines, the options the host's catalogue gives FS (its writer's file,
# rl-job.sh, says where)
# shellcheck source=rootfs/lib/rl-job.sh
. /reclaimlab/bin/rl-job.sh

# rl_mount_options FS: the options every mount of FS uses
rl_mount_options() {
	awk -v fs="$1" '$2 == fs { print $3; found = 1 } END { exit !found }' "$RL_DISKS_TABLE" ||
		rl_die "no mount options for '$1' in $RL_DISKS_TABLE"
}

# Run a command inside a memory cgroup made by rl_memcg_create.  (A
# subshell's $$ is its parent's pid, so the child moves itself, then execs.)
rl_memcg_run() { # PATH COMMAND...
	if [ -z "$1" ] || [ ! -d "$1" ]; then rl_die "no memory cgroup '$1' to run $2 in"; fi
	procs=$1/cgroup.procs
	[ -f "$procs" ] || procs=$1/tasks
	shift
	sh -c 'echo $$ >"$1" && shift && exec "$@"' rl_memcg_run "$procs" "$@"
}

# Set a sysctl knob by its dotted name; a missing knob is an error.
rl_sysctl() { # NAME VALUE
	f=/proc/sys/$(echo "$1" | tr . /)
	[ -f "$f" ] || rl_die "unknown knob $1 (no $f)"
	echo "$2" >"$f"
}

# Remove a memory cgroup once its tasks have exited.
rl_memcg_remove() { # PATH
	rmdir "$1" 2>/dev/null || true
}

# rl_remount DIR: unmount the filesystem mounted at DIR and mount it again
# with its catalogue options, so that pages read afterwards come from the
# disk, not from the page cache.
rl_remount() {
	dev=$(awk -v m="$1" '$2 == m { print $1 }' /proc/mounts)
	fstype=$(awk -v m="$1" '$2 == m { print $3 }' /proc/mounts)
	[ -n "$dev" ] || rl_die "$1 is not a mount point"
	sync
	umount "$1" || rl_die "cannot unmount $1"
	mount -t "$fstype" -o "$(rl_mount_options "$fstype")" "$dev" "$1" ||
		rl_die "cannot mount $dev again"
}

# Data integrity of an rl-dd writer's file (FILE at the top of its
# filesystem): remount, then rl-dd verify, which regenerates the content
# from the seed.
rl_verify_after_remount() { # FILE SIZE SEED
	rl_remount "$(dirname "$1")"
	rl-dd verify "$1" --size "$2" --seed "$3" >>"${RL_OUT:-/results}/verify.out"
}

# rl_fio [--memcg PATH] [--verify-only] NAME JOB [VAR=VALUE...]: run
# fio's job file JOB, shipped beside the scenario files
# (/reclaimlab/scenarios/JOB), with each VAR=VALUE in its environment (the
# job file reads them as ${VAR}), in the memory cgroup PATH if one is given.
# fio's JSON goes to NAME.fio.json (the host's summary: fio.JOBNAME.*
# rows), its messages to NAME.fio.log.  fio is on the tools disk; without
# it the run fails saying so.  Returns fio's exit status.
#
# Data integrity: a job that writes with verify= (a checksum in each
# block) reads FIO_DO_VERIFY as do_verify: 0 here, 1 with --verify-only,
# which runs the same job again to read every block back and check it
# (after rl_remount, from the disk): its JSON goes to NAME.verify.json, not
# a source of summary rows, and a block that does not verify is the run's
# failure, in fio's words.
rl_fio() {
	fio_cg=""
	fio_verify=0
	fio_out=fio
	while :; do
		case $1 in
		--memcg) fio_cg=$2 && shift 2 ;;
		--verify-only) fio_verify=1 fio_out=verify && shift ;;
		*) break ;;
		esac
	done
	fio_name=$1 fio_job=/reclaimlab/scenarios/$2
	shift 2
	command -v fio >/dev/null ||
		rl_die "fio not found: the guest has no tools disk (scripts/build-guest-tools.sh)"
	[ -f "$fio_job" ] || rl_die "no fio job file $fio_job"
	for fio_kv; do
		case $fio_kv in
		[A-Za-z_]*=*) ;;
		*) rl_die "rl_fio: bad environment word '$fio_kv' (valid: NAME=VALUE)" ;;
		esac
	done
	set -- env "$@" FIO_DO_VERIFY=$fio_verify fio --output-format=json
	[ "$fio_verify" = 0 ] || set -- "$@" --verify_only
	set -- "$@" --output="$RL_OUT/$fio_name.$fio_out.json" "$fio_job"
	fio_log=$RL_OUT/$fio_name.$fio_out.log
	fio_rc=0
	if [ -n "$fio_cg" ]; then
		rl_memcg_run "$fio_cg" "$@" 2>"$fio_log" || fio_rc=$?
	else
		"$@" 2>"$fio_log" || fio_rc=$?
	fi
	if [ "$fio_rc" != 0 ] && [ "$fio_verify" = 1 ]; then
		rl_fail "fio's verify of $fio_name failed (status $fio_rc): $(grep -m1 'verify' "$fio_log" || tail -1 "$fio_log")" || true
	fi
	return "$fio_rc"
}
