# shellcheck shell=bash disable=SC2034 # used by the scripts that source lib.sh
# The run folder: what one run (scripts/run.sh) leaves, its creation and
# whether it finished.  Sourced by lib.sh.
#
# Each file's writer and readers: docs/architecture.md, "The run folder".
# The host's part (the guest cannot reach it; the host's own record):
#   run.conf      what this run is and every setting, written once before
#                 boot (key=value): scenario, fs, profile and its values,
#                 mode and its knobs, repeat, params (all, resolved), clock,
#                 kernel release and series
#   cmdline       the kernel command line: what the kernel needs
#   job.env job.sh every setting the guest gets, and its command (copied
#                 into guest/ for init)
#   console.log   everything the kernel and the guest printed
#   status        how the run ended, written by rl-collect alone, last:
#                 "ok", "failed", "hung", "crashed", "splat", or, for a
#                 run not collected, "running", "interrupted",
#                 "not-measured" (run_status_mark), then key=value facts
#                 (exit_status, oom_kills, splats, knobs_absent,
#                 failed_step, reason, host_disk_full, ...); read through
#                 run_status and run_fact
#   host-failure  a native run's step that failed and why, and whether the
#                 run folder's filesystem filled up (key=value: step,
#                 reason, disk_full); rl-collect puts them in status
#   derived/      what the host derived from the raw files: splats (one
#                 "KIND: TITLE" line per kernel splat in console.log),
#                 splats.txt (each whole report), summary.tsv ("metric
#                 value" rows: what the run measured), waits-hist.tsv, ...
# The guest's part, guest/ ($RL_GUEST; its hostfs root, mode 0700): what
# the guest wrote, untrusted input that host tools read bounded, never
# following a link:
#   guest.log     the job's own output (also in console.log)
#   exit-status   the job's exit status
#   trace.txt, iostat.json, counters-*, knobs-absent, ...: the scenario's
#                 raw data

# Free space a run folder's filesystem must have before a guest starts:
# console log, traces and counters of one run stay well below it.
RL_MIN_FREE=${RL_MIN_FREE:-64M}

# check_run_folder_path PATH: the folder's name goes on the kernel command
# line (umid=rl-NAME___...) and into job.env: refuse what either would misread,
# before anything is created, and again for the folder a link led to.
check_run_folder_path() {
	[[ "$1" =~ ^[A-Za-z0-9._/+@~:-]+$ ]] ||
		die "run folder '$1' has a character a kernel command line cannot carry (valid: letters, digits and . _ / + @ ~ : -)"
}

# create_run_folder DIR: make DIR the folder of a new run and print its
# physical path; or die before a guest starts, leaving nothing behind: a
# path the command line cannot carry, a folder that holds anything (results
# are never overwritten), no write access, less than RL_MIN_FREE free.
create_run_folder() {
	local out=$1 created=0 free
	case "$out" in
	/*) check_run_folder_path "$out" ;;
	*) check_run_folder_path "$PWD/$out" ;;
	esac
	if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
		die "run folder '$out' exists and is not empty; results are never overwritten"
	fi
	[ -e "$out" ] || created=1
	[ "$created" = 1 ] || [ -O "$out" ] ||
		die "run folder '$out' is not yours (owner $(stat -c %U "$out")); name a folder of your own"
	mkdir -p "$out" 2>/dev/null || die "cannot create run folder '$out'"
	[ -w "$out" ] || die "run folder '$out' is not writable"
	free=$(avail_bytes "$out")
	size_bytes "$RL_MIN_FREE" >/dev/null || die "bad RL_MIN_FREE '$(printable "$RL_MIN_FREE")' (valid: a size like 64M)"
	if [ "${free:-0}" -lt "$(size_bytes "$RL_MIN_FREE")" ]; then
		[ "$created" = 0 ] || rmdir "$out" 2>/dev/null || true
		die "the filesystem of run folder '$out' has $(human_size "${free:-0}") free, less than the $RL_MIN_FREE a run needs (RL_MIN_FREE)"
	fi
	out=$(cd "$out" && pwd -P)
	check_run_folder_path "$out"
	# another user's empty folder could get links planted in it where the
	# host writes (status.tmp, derived/)
	[ -O "$out" ] || die "run folder '$out' is not yours (owner $(stat -c %U "$out")); name a folder of your own"
	echo "$out"
}

# hostfs_args TMP DIR: link TMP/run to DIR (the run's guest/ folder) and
# print the kernel arguments that give the guest DIR and nothing else.
# hostfs=: every hostfs mount of the guest resolves beneath DIR, and
# "confine" (patch 0009) lets the guest mount only DIR itself, refuses
# symlinks, device nodes, owner changes and set-id bits there, and drops
# group and other permission bits from what it creates or chmods: the
# guest reaches the host through this folder only, and nobody but the
# run's user can leave anything in it for host tools to follow.  The guest
# sees DIR as TMP/run, a link of fixed length: the folder's own path would
# vary the length of every process's environment in the guest (hostfs=
# goes to init's), which moves page boundaries and with them the cpu
# clock's figures.
hostfs_args() {
	ln -s "$2" "$1/run" &&
	echo "hostfs=$1/run,confine"
}

# run_umid RUN_ID: UML's umid of the run: "rl-RUN_ID", cut or padded with
# "_" to 63 characters (UML's longest).  It is on the kernel command line,
# whose length moves the cpu clock's figures (as the fixed-length links of
# hostfs_args and guest_input avoid), so a run's figures do not depend on
# its folder's name; each run's own uml_dir keeps two runs apart even where
# the cut makes their umids equal.
run_umid() {
	local umid="rl-$1"
	umid=${umid:0:63}
	while [ "${#umid}" -lt 63 ]; do
		umid="${umid}_"
	done
	echo "$umid"
}

# kernel_conf KERNEL: run.conf's lines of the kernel binary KERNEL's build:
# its release, source (package and version, or git tree and commit) and
# series (hash of the applied patch series)
kernel_conf() {
	if [ "$1" = native ]; then
		# run.sh --native: the host's running kernel
		echo "kernel_release=$(uname -r)"
		echo "kernel_source=host $(uname -v)"
		echo "series="
		return 0
	fi
	echo "kernel_release=$(cat "$(dirname "$1")/include/config/kernel.release" 2>/dev/null)"
	echo "kernel_source=$(cat "$(dirname "$1")/reclaimlab-source" 2>/dev/null)"
	echo "series=$(cat "$(dirname "$1")/reclaimlab-series" 2>/dev/null)"
}

# run_status DIR: the run's status word (running, interrupted, ok,
# failed, hung, crashed, splat, not-measured); nothing if there is no
# status file.  The scripts read a status only through these two, which
# ask the run record (rl-record, scripts/tools/lib/record.c) as the C
# tools do; its one writer is rl-collect (run_status_mark for the words of
# a run that is not collected).
run_status() {
	[ -x "$RL_HOST_TOOLS/rl-record" ] || build_host_tools
	"$RL_HOST_TOOLS/rl-record" status "$1"
}

# run_fact DIR KEY: the value of the status fact KEY (exit_status,
# clock_stalled_ticks, host_disk_full, failed_step, ...); nothing if absent
run_fact() {
	[ -x "$RL_HOST_TOOLS/rl-record" ] || build_host_tools
	"$RL_HOST_TOOLS/rl-record" fact "$1" "$2"
}

# run_status_mark DIR running|interrupted|not-measured [KEY=VALUE]...: the
# status of a run that is not collected, written by the status's one
# writer (rl-collect --mark): one starting, one a signal stopped, one the
# host could not measure; its facts exit_status=, failed_step=, reason=
run_status_mark() {
	[ -x "$RL_HOST_TOOLS/rl-collect" ] || build_host_tools
	"$RL_HOST_TOOLS/rl-collect" --mark "$2" "$1" "${@:3}"
}

# run_finished DIR: true if the run in DIR has a final status (a matrix
# redoes any other)
run_finished() {
	local s
	s=$(run_status "$1")
	[ -n "$s" ] && [ "$s" != running ] && [ "$s" != interrupted ]
}

# set_aside_attempt DIR: move what an earlier, unfinished attempt at a run
# left in DIR out of the way, to DIR.interrupted.TIME (the report counts
# such folders but leaves them out), before the run starts again
set_aside_attempt() {
	[ ! -e "$1" ] || mv "$1" "$1.interrupted.$(date +%s)"
}

# write_run_conf: run.conf of the run scripts/run.sh is starting, from its
# settings (run.sh's variables); every later stage reads these keys.
# shellcheck disable=SC2154 # the variables are run.sh's
write_run_conf() {
	echo "run=$run_id"
	echo "kernel=$kernel"
	echo "backend=$([ "$kernel" = native ] && echo native || echo uml)"
	echo "kernel_name=$kernel_name"
	echo "flavor=$RL_FLAVOR"
	echo "mem=$mem"
	echo "disks=$(disk_models "$disks" "$swap" "$swap_profile")"
	echo "tools=$(tools_conf "$tools")"
	echo "trace_dat=$trace_dat"
	echo "blktrace=$blktrace"
	echo "tt_cpu=$tt_cpu"
	echo "seed=$seed"
	echo "host_cpu=$cpu"
	echo "timeout=$timeout"
	echo "tmpdir=$tmp"
	echo "umid=$(run_umid "$run_id")"
	echo "wrap=$wrap"
	echo "started=$(date -Is)"
	# what the run is, so that later stages need nothing but this folder
	kernel_conf "$kernel"
	# the guest clock, once: host (no time-travel), basic, cpu or inf-cpu
	echo "clock=${time_travel/#0/host}"
	echo "scenario=$scenario"
	[ -z "$scenario" ] ||
		scenario_conf "$(first_disk "$disks")" "$mode" "$repeat_number" "$scenario_data"
}
