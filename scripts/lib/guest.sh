# shellcheck shell=bash disable=SC2034 # used by the scripts that source lib.sh
# What a guest needs of the host: sizes, memory, clocks, a CPU, a private
# TMPDIR and a watchdog.  Sourced by lib.sh.

# size_bytes SIZE: "512M" -> 536870912 (K, M, G, T suffixes, powers of
# 1024; none = bytes); fails with no output on anything else.
size_bytes() {
	local n=${1%[kKmMgGtT]} shift=0
	case "$1" in
	*[kK]) shift=10 ;;
	*[mM]) shift=20 ;;
	*[gG]) shift=30 ;;
	*[tT]) shift=40 ;;
	esac
	[[ "$n" =~ ^[0-9]{1,18}$ ]] || return 1
	# at most 2^62 bytes, so that nothing downstream overflows
	[ "$((10#$n))" -le $(((1 << 62) >> shift)) ] || return 1
	echo $((10#$n << shift))
}

# human_size BYTES: "1.5 GiB", "200.0 MiB"
human_size() {
	awk -v b="$1" 'BEGIN { if (b >= 2^30) printf "%.1f GiB\n", b / 2^30; else printf "%.1f MiB\n", b / 2^20 }'
}

# avail_bytes DIR: bytes an ordinary user may still write on DIR's filesystem
avail_bytes() {
	df -P -B1 "$1" 2>/dev/null | awk 'NR == 2 { print $4 }'
}

# check_guest_mem SIZE: die unless a guest of SIZE memory can run here.
check_guest_mem() {
	local bytes host shm=${RL_TMPDIR:-/dev/shm} shm_free
	# the TMPDIR's path reaches the kernel command line (hostfs=, ubd)
	[[ "$shm" =~ ^/[A-Za-z0-9._/+@~:-]*$ ]] ||
		die "bad RL_TMPDIR '$(printable "$shm")' (valid: an absolute path of letters, digits and . _ / + @ ~ : -)"
	local what=${RL_MEM_SOURCE:---mem}
	bytes=$(size_bytes "$1") || die "bad $what '$1' (use a size like 512M or 1G)"
	[ "$bytes" -ge $((64 << 20)) ] || die "$what $1 is too small for a guest (valid: 64M or more)"
	host=$(awk '/^MemTotal:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo)
	[ "$bytes" -le "$host" ] ||
		die "--mem $1 does not fit: this host has $(human_size "$host") of memory"
	# UML's memory is a file in TMPDIR: the guest dies of SIGBUS if it cannot grow
	shm_free=$(avail_bytes "$shm")
	[ -n "$shm_free" ] || die "cannot read the free space of '$shm' (set RL_TMPDIR to a writable tmpfs)"
	[ "$bytes" -le "$shm_free" ] ||
		die "--mem $1 does not fit: '$shm' (guest memory and disk overlays) has $(human_size "$shm_free") free; use a smaller --mem or RL_TMPDIR"
}

# The longest watchdog a run may set (a week of host time): --timeout past
# it is refused before any arithmetic on it
RL_MAX_TIMEOUT=604800

# Guest clocks (run.sh --time-travel=MODE): basic follows host wall time
# while the guest computes, cpu charges a cost model, inf-cpu charges nothing.
RL_CLOCKS="basic cpu inf-cpu"
RL_DEFAULT_CLOCK=cpu

# clock_args MODE TT_CPU SEED: the kernel arguments of guest clock MODE
# (none for 0, the host's clock), each after a space; TT_CPU: the prices
# of the cpu model
clock_args() {
	case "$1" in
	basic) echo " time-travel" ;;
	inf-cpu) echo " time-travel=inf-cpu" ;;
	# The cpu clock promises that a run is a function of its inputs: that
	# also needs the same random numbers (rng-seed=, patch 0012: ext4 starts
	# its lazy init after a random delay), the same address space layouts in
	# the guest (norandmaps) and of the UML process itself (setarch -R, in
	# run.sh), and the same wall clock (2026-01-01 00:00 UTC at boot: file
	# time stamps change what filesystems write); measured, each of these
	# moved the figures.
	cpu) echo " time-travel=cpu${2:+ tt-cpu=$2} rng-seed=$3 norandmaps time-travel-start=1767225600000000000" ;;
	esac
}

# Prices of the time-travel=cpu cost model (patch 0011), as tt-cpu= names them.
RL_TT_CPU_ITEMS="syscall_ns copy_ns_per_kb fault_ns alloc_ns scan_ns_per_folio reclaim_ns_per_folio io_ns_per_kb switch_ns fork_ns resched_ns"

# check_tt_cpu PRICES: die unless "name=ns,name=ns" names known prices with
# whole numbers of at most 10 ms each (what the kernel accepts).
check_tt_cpu() {
	local kv
	[ -n "$1" ] || return 0
	for kv in ${1//,/ }; do
		if ! word_in "${kv%%=*}" "$RL_TT_CPU_ITEMS" || ! [[ "$kv" =~ ^[a-z_]+=[0-9]{1,8}$ ]] ||
			[ "${kv#*=}" -gt 10000000 ]; then
			die "bad --tt-cpu price '$kv' (valid: NAME=NS with NS at most 10000000; names: $RL_TT_CPU_ITEMS)"
		fi
	done
}

# check_host_cpu N|auto|none: die unless N is a CPU of this host
check_host_cpu() {
	case "$1" in
	auto | none) ;;
	*)
		if ! [[ "$1" =~ ^[0-9]{1,4}$ ]] || [ "$1" -ge "$(nproc)" ]; then
			die "bad --cpu '$1' (valid: 0 to $(($(nproc) - 1)), auto or none)"
		fi
		;;
	esac
}

# Host processes a guest may have at once: each guest address space is a
# host process (400 sleeps in a guest made 136 and rising); a scenario's
# guest has a few dozen.  RL_MAX_GUEST_PROCS overrides it (16 to 65536).
RL_MAX_GUEST_PROCS=${RL_MAX_GUEST_PROCS:-1024}

# guest_process_limit RUN_ID: set the array guest_limit to the command
# words that start the kernel under a bound on its host processes, and
# guest_cgroup to the cgroup it made (to remove after the run), if any.
# Root (whose processes RLIMIT_NPROC does not bind) gets a pids cgroup of
# the run's own where the host has a writable pids controller; another
# user an RLIMIT_NPROC of its processes now plus the bound.  Where neither
# can be had the run goes on unbounded, with a note.
# sweep_guest_cgroups BASE: remove what a run.sh killed with SIGKILL left:
# its pids cgroup, named reclaimlab-RUN-PID, once that PID is gone and the
# cgroup is empty (rmdir refuses a cgroup with processes).
sweep_guest_cgroups() {
	local cg pid
	for cg in "$1"/reclaimlab-*-[0-9]*; do
		if [ ! -d "$cg" ] || [ -L "$cg" ] || [ ! -f "$cg/pids.max" ]; then
			continue
		fi
		pid=${cg##*-}
		case "$pid" in '' | *[!0-9]*) continue ;; esac
		[ "${#pid}" -le 10 ] || continue
		kill -0 "$pid" 2>/dev/null || rmdir "$cg" 2>/dev/null || true
	done
}

guest_process_limit() {
	local base mine
	guest_limit=()
	guest_cgroup=""
	check_count RL_MAX_GUEST_PROCS "$RL_MAX_GUEST_PROCS" 16 65536
	if [ "$(id -u)" = 0 ]; then
		for base in /sys/fs/cgroup/pids /sys/fs/cgroup; do
			[ -w "$base/cgroup.procs" ] || continue
			sweep_guest_cgroups "$base"
			guest_cgroup=$base/reclaimlab-$1-$$
			if mkdir "$guest_cgroup" 2>/dev/null && echo "$RL_MAX_GUEST_PROCS" >"$guest_cgroup/pids.max" 2>/dev/null; then
				# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
				guest_limit=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$guest_cgroup")
				return 0
			fi
			rmdir "$guest_cgroup" 2>/dev/null || true
			guest_cgroup=""
		done
		note "no writable pids cgroup: the guest's host processes are not bounded"
		return 0
	fi
	mine=$(pgrep -c -u "$(id -u)" || true)
	guest_limit=(prlimit --nproc=$((mine + RL_MAX_GUEST_PROCS)) --)
}
# free_host_cpu: a host CPU that no other running guest of this user is
# pinned to (each run leaves its CPU in its TMPDIR), else the least used.
free_host_cpu() {
	local n c best=0 best_use=-1 use f
	n=$(nproc)
	for c in $(seq 0 $((n - 1))); do
		use=0
		for f in "${RL_TMPDIR:-/dev/shm}"/reclaimlab.*/cpu; do
			# this user's guests only, and a few bytes of each: another
			# user's file could be a fifo or gigabytes
			[ -f "$f" ] && [ -O "$f" ] && [ ! -L "$f" ] &&
				[ "$(head -c 8 "$f" 2>/dev/null)" = "$c" ] && use=$((use + 1))
		done
		if [ "$best_use" -lt 0 ] || [ "$use" -lt "$best_use" ]; then
			best=$c
			best_use=$use
		fi
	done
	echo "$best"
}

# sweep_stale_tmpdirs: what a runner killed with SIGKILL left (its guest
# died with it: run.sh's pdeathsig), TMPDIRs whose owner process is gone,
# guest memory and overlays of gigabytes in /dev/shm.
sweep_stale_tmpdirs() {
	local stale owner
	for stale in "${RL_TMPDIR:-/dev/shm}"/reclaimlab.*/owner; do
		[ -O "$stale" ] || continue
		# another runner's sweep may have removed it since the glob
		owner=$(head -c 20 "$stale" 2>/dev/null) || continue
		[[ "$owner" =~ ^[0-9]+$ ]] || continue
		kill -0 "$owner" 2>/dev/null || rm -rf "${stale%/owner}"
	done
}

# private_tmpdir: a new TMPDIR of this process for one guest (UML's memory
# file, its umid, the disk overlays), after the sweep of what runners
# killed before left
private_tmpdir() {
	local tmp
	sweep_stale_tmpdirs
	tmp=$(mktemp -d "${RL_TMPDIR:-/dev/shm}/reclaimlab.XXXXXX") ||
		die "cannot create a private TMPDIR under ${RL_TMPDIR:-/dev/shm}"
	echo $$ >"$tmp/owner"
	echo "$tmp"
}

# wait_guest PID SECONDS: wait for the guest process PID to end; false if
# it still runs after SECONDS (the watchdog)
wait_guest() {
	local deadline=$(($(date +%s) + $2))
	while kill -0 "$1" 2>/dev/null; do
		[ "$(date +%s)" -lt "$deadline" ] || return 1
		sleep 0.05
	done
}
