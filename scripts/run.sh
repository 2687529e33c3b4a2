#!/bin/bash
# Boot the reclaimlab UML kernel once, as an ordinary process, and run one
# command in the guest.  Everything the run produces goes into its run
# folder; the guest writes there through hostfs.
#
# Run folder:
#   run.conf      what this run is and its settings (key=value): scenario,
#                 fs, profile and its values, mode and its knobs, repeat,
#                 parameters, clock, kernel release and series
#   cmdline       the kernel command line
#   job.env job.sh what the guest init sources and runs
#   console.log   everything the kernel and the guest printed
#   guest.log     the job's own output (also in console.log)
#   exit-status   the job's exit status, written by the guest
#   derived/      what the host derived from the raw files (collect-run.sh,
#                 summarize-run.sh): splats (one "KIND: TITLE" line per kernel
#                 splat in console.log: oops, bug, warning, kasan, lockdep,
#                 hung_task, panic, ...), splats.txt (each whole report),
#                 summary.tsv, waits-hist.tsv, waits-cdf.tsv
#   status        written last: "ok", "failed", "hung", "crashed",
#                 "splat" or "interrupted", then key=value facts
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<USAGE
usage: scripts/run.sh [options] [--] [guest command...]
  --scenario NAME      run scenario NAME (scripts/compare.sh --list) on the
                       first --disk; its settings give --mem, --timeout, that
                       disk's profile and the swap, unless they are given
  --mode NAME          the scenario's mode: $RL_MODES (default patched)
  --set KEY=VALUE      a scenario parameter, type-checked; repeatable
  --repeat-number R    which repeat of a matrix this run is (run.conf; default 1)
  --disk FS[:PROFILE]  attach FS (one of: $RL_FILESYSTEMS) through a private
                       copy-on-write overlay, mounted at /mnt/FS; repeatable.
                       PROFILE is the emulated device: $RL_PROFILES
                       (default host), optionally with ,key=value
                       overrides of: $RL_PROFILE_KEYS (kB/s, us)
  --swap[=PROFILE]     attach the swap image and enable it
  --mem SIZE           guest memory, e.g. 512M (default: 512M)
  --timeout SECONDS    kill the guest after this long (default: 300)
  --out DIR            run folder (default: results/runs/<time>-<pid>)
  --time-travel[=cpu|inf-cpu]
                       boot in UML time-travel mode: idle time is skipped;
                       with cpu, the guest clock charges the guest's own work
                       from a cost model (patch 0011) and does not depend on
                       the host; with inf-cpu, CPU work is free
  --tt-cpu PRICES      prices of the cpu model, e.g. syscall_ns=200,fork_ns=90000
                       (names: $RL_TT_CPU_ITEMS)
  --cpu N|none         host CPU the guest runs on (default: a free one)
  --seed N             seed of the guest's random numbers under the cpu clock
                       (default 1): the same inputs and seed give the same run
  --append ARG         extra kernel command line argument; repeatable
  --job FILE           run this shell script in the guest
  --interactive        a shell in the guest on this terminal
  --kernel FILE        UML kernel (default: build/kernel/\$KERNEL_FLAVOR/linux)
  --wrap "CMD ARGS"    start the kernel as CMD ARGS KERNEL ARGS..., e.g.
                       --wrap "gdb -batch -x cmds --args" (see scripts/gdb.sh)
With no command, the guest runs 'true'.  The exit status is the guest
command's; 124 means the guest hung, 125 that it crashed or did not start.
USAGE
}

disks=""
swap=0
swap_profile=host
mem=512M
timeout=300
out=""
time_travel=0
extra_args=""
job_file=""
interactive=0
kernel=$RL_KERNEL
wrap=""
tt_cpu=""
cpu=auto
seed=1
scenario=""
mode=patched
sets=""
repeat_number=1
given=""

need_arg() { [ $# -ge 2 ] || die "option $1 needs a value (see --help)"; }

while [ $# -gt 0 ]; do
	case "$1" in
	--scenario) need_arg "$@"; scenario=$2; shift 2 ;;
	--mode) need_arg "$@"; mode=$2; shift 2 ;;
	--set) need_arg "$@"; sets="$sets $2"; shift 2 ;;
	--repeat-number) need_arg "$@"; repeat_number=$2; shift 2 ;;
	--disk) need_arg "$@"; disks="$disks $2"; shift 2 ;;
	--swap) swap=1; given="$given swap"; shift ;;
	--swap=*) swap=1; swap_profile=${1#--swap=}; given="$given swap"; shift ;;
	--mem) need_arg "$@"; mem=$2; given="$given mem"; shift 2 ;;
	--timeout) need_arg "$@"; timeout=$2; given="$given timeout"; shift 2 ;;
	--out) need_arg "$@"; out=$2; shift 2 ;;
	--time-travel) time_travel=basic; shift ;;
	--time-travel=inf-cpu) time_travel=inf-cpu; shift ;;
	--time-travel=cpu) time_travel=cpu; shift ;;
	--time-travel=basic) time_travel=basic; shift ;;
	--time-travel=*) die "unknown time-travel mode '${1#--time-travel=}' (valid: --time-travel, --time-travel=basic, --time-travel=cpu, --time-travel=inf-cpu)" ;;
	--tt-cpu) need_arg "$@"; tt_cpu=$2; shift 2 ;;
	--cpu) need_arg "$@"; cpu=$2; shift 2 ;;
	--seed) need_arg "$@"; seed=$2; shift 2 ;;
	--append) need_arg "$@"; extra_args="$extra_args $2"; shift 2 ;;
	--job) need_arg "$@"; job_file=$2; shift 2 ;;
	--interactive) interactive=1; shift ;;
	--kernel) need_arg "$@"; kernel=$2; shift 2 ;;
	--wrap) need_arg "$@"; wrap=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "unknown option '$1' (valid: --scenario --mode --set --repeat-number --disk --swap --mem --timeout --out --time-travel --tt-cpu --cpu --seed --append --job --interactive --kernel --wrap --help)" ;;
	*) break ;;
	esac
done

# --- validate everything before anything starts ---
if [ -n "$scenario" ]; then
	word_in "$scenario" "$(rl_scenarios)" || die "unknown scenario '$scenario' (valid: $(rl_scenarios))"
	word_in "$mode" "$RL_MODES" || die "unknown mode '$mode' (valid: $RL_MODES)"
	[[ "$repeat_number" =~ ^[1-9][0-9]{0,5}$ ]] || die "bad --repeat-number '$repeat_number' (valid: 1 to 999999)"
	[ -n "$disks" ] || die "--scenario $scenario needs a --disk for its filesystem"
	{ [ -z "$job_file" ] && [ $# -eq 0 ]; } || die "give either --scenario or a job, not both"
	for kv in $sets; do
		[[ "$kv" =~ ^[A-Z_][A-Z0-9_]*=[$RL_SET_VALUE_CHARS]+$ ]] ||
			die "bad --set '$kv' (valid: KEY=VALUE, the value of letters, digits and . _ : + , / -)"
	done
	# shellcheck disable=SC2086 # KEY=VALUE words
	scenario_data=$(scenario_info "$scenario" $sets) || exit 1
	# the scenario's settings where no option gave them
	word_in mem "$given" || mem=$(info_value "$scenario_data" mem)
	word_in timeout "$given" || timeout=$(info_value "$scenario_data" timeout)
	mem=${mem:-512M} timeout=${timeout:-600}
	if ! word_in swap "$given" && [ -n "$(info_value "$scenario_data" swap)" ]; then
		swap=1 swap_profile=$(info_value "$scenario_data" swap)
	fi
	first=${disks# }
	first=${first%% *}
	if [ "${first%%:*}" = "$first" ]; then
		scn_profile=$(info_value "$scenario_data" profile)
		disks=" $first:${scn_profile:-host}${disks# "$first"}"
	fi
elif [ "$mode$sets$repeat_number" != patched1 ]; then
	die "--mode, --set and --repeat-number belong to --scenario"
fi
[ -x "$kernel" ] || die "kernel $kernel not found; build it with 'make kernel'"
[ -r "$RL_ROOTFS" ] || die "rootfs $RL_ROOTFS not found; build it with 'make rootfs'"
[ -x "$RL_SPLATS" ] || die "$RL_SPLATS not found; build it with 'make rootfs'"
check_guest_mem "$mem"
if ! [[ "$timeout" =~ ^[1-9][0-9]*$ ]]; then
	die "bad --timeout '$timeout' (use a positive number of seconds)"
fi
[ -z "$job_file" ] || [ -r "$job_file" ] || die "job file '$job_file' not readable"
[ -z "$tt_cpu" ] || [ "$time_travel" = cpu ] || die "--tt-cpu sets prices of --time-travel=cpu, which is not on"
check_tt_cpu "$tt_cpu"
[[ "$seed" =~ ^[0-9]{1,18}$ ]] || die "bad --seed '$seed' (valid: a whole number)"
case "$cpu" in
auto | none) ;;
*)
	if ! [[ "$cpu" =~ ^[0-9]{1,4}$ ]] || [ "$cpu" -ge "$(nproc)" ]; then
		die "bad --cpu '$cpu' (valid: 0 to $(($(nproc) - 1)), auto or none)"
	fi
	;;
esac
[ -z "$job_file" ] || [ $# -eq 0 ] || die "give either --job or a command, not both"

check_disks "$disks" "$swap" "$swap_profile"

if [ -z "$out" ]; then
	out=$RL_RESULTS/runs/$(date +%Y%m%d-%H%M%S)-$$
fi
case "$out" in
/*) check_run_folder_path "$out" ;;
*) check_run_folder_path "$PWD/$out" ;;
esac
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
	die "run folder '$out' exists and is not empty; results are never overwritten"
fi
created_out=0
[ -e "$out" ] || created_out=1
mkdir -p "$out" 2>/dev/null || die "cannot create run folder '$out'"
[ -w "$out" ] || die "run folder '$out' is not writable"
out_free=$(avail_bytes "$out")
if [ "${out_free:-0}" -lt "$(size_bytes "$RL_MIN_FREE")" ]; then
	[ "$created_out" = 0 ] || rmdir "$out" 2>/dev/null || true
	die "the filesystem of run folder '$out' has $(human_size "${out_free:-0}") free, less than the $RL_MIN_FREE a run needs (RL_MIN_FREE)"
fi
out=$(cd "$out" && pwd -P)
check_run_folder_path "$out"
run_id=${out##*/}

# --- per-run private state: umid, TMPDIR (UML's memory file), overlays ---
sweep_stale_tmpdirs
tmp=$(mktemp -d "${RL_TMPDIR:-/dev/shm}/reclaimlab.XXXXXX") ||
	die "cannot create a private TMPDIR under ${RL_TMPDIR:-/dev/shm}"
echo $$ >"$tmp/owner"
uml_pid=""
status=""

stop_guest() {
	# UML forks helper processes; they share its process group.
	if [ -n "$uml_pid" ]; then
		kill -KILL -- "-$uml_pid" 2>/dev/null || true
		wait "$uml_pid" 2>/dev/null || true
	fi
	uml_pid=""
}

cleanup() {
	stop_guest
	rm -rf "$tmp"
}

on_signal() {
	stop_guest
	[ -n "$status" ] || printf 'interrupted\nrun=%s\n' "$run_id" >"$out/status"
	note "interrupted; run folder kept: $out"
	cleanup
	exit 130
}
trap cleanup EXIT
trap on_signal INT TERM HUP

args="mem=$mem initrd=$RL_ROOTFS umid=rl-$run_id uml_dir=$tmp/uml"
# hostfs=: every hostfs mount of the guest resolves beneath the run folder,
# and "confine" refuses symlinks, device nodes, owner changes and set-id
# bits there (patch 0009): the guest reaches the host through this folder
# only, and leaves nothing in it that host tools would follow out.
# The guest sees the run folder as $tmp/run, a link of fixed length: the
# folder's own path would vary the length of every process's environment
# in the guest (hostfs= goes to init's), which moves page boundaries and
# with them the cpu clock's figures.
ln -s "$out" "$tmp/run"
args="$args hostfs=$tmp/run,confine reclaimlab.run=$tmp/run"
if [ "$interactive" = 1 ]; then
	# a quiet console: kernel messages go to console.log (rootfs/init)
	args="$args con0=fd:0,fd:1 con=null reclaimlab.interactive=1 loglevel=1"
else
	args="$args con0=null,fd:1 con=null"
fi
case "$time_travel" in
basic) args="$args time-travel" ;;
inf-cpu) args="$args time-travel=inf-cpu" ;;
# The cpu clock promises that a run is a function of its inputs: that also
# needs the same random numbers (rng-seed=, patch 0012: ext4 starts its lazy
# init after a random delay), the same address space layouts in the guest
# (norandmaps) and of the UML process itself (setarch -R, below), and the
# same wall clock (2026-01-01 00:00 UTC at boot: file time stamps change
# what filesystems write); measured, each of these moved the figures.
cpu) args="$args time-travel=cpu${tt_cpu:+ tt-cpu=$tt_cpu} rng-seed=$seed norandmaps time-travel-start=1767225600000000000" ;;
esac
# One host CPU per guest: the kernel and its ptrace'd processes hand over
# to each other on it (a null system call: 12 to 18 us of wall time pinned,
# 61 us unpinned on an idle host; scripts/bench-clock.sh ops).
[ "$cpu" != auto ] || cpu=$(free_host_cpu)
echo "$cpu" >"$tmp/cpu"
# The guest dies with this script, even of SIGKILL (its helpers die with
# it, UML sets their parent-death signal).
pin="setpriv --pdeathsig KILL setarch $(uname -m) -R"
[ "$cpu" = none ] || pin="$pin taskset -c $cpu"
guest_disks=""
ubd=0
letters=abcdefghijklmnop
models=""
for d in $disks; do
	fs=${d%%:*}
	profile=host
	[ "$fs" = "$d" ] || profile=${d#*:}
	args="$args ubd$ubd=$tmp/$fs.cow,$RL_IMAGES/$fs.img ubd.model=$ubd,$(disk_model "$profile")"
	guest_disks="$guest_disks ubd${letters:$ubd:1}:$fs:$(catalogue_field fs "$fs" 4)"
	models="$models ubd${letters:$ubd:1}:$fs:$profile"
	ubd=$((ubd + 1))
done
guest_swap=""
if [ "$swap" = 1 ]; then
	args="$args ubd$ubd=$tmp/swap.cow,$RL_IMAGES/swap.img ubd.model=$ubd,$(disk_model "$swap_profile")"
	guest_swap=ubd${letters:$ubd:1}
	models="$models ubd${letters:$ubd:1}:swap:$swap_profile"
fi
args="$args$extra_args"

{
	echo "RL_DISKS='${guest_disks# }'"
	echo "RL_SWAP='$guest_swap'"
	echo "RL_RUN_ID='$run_id'"
} >"$out/job.env"
if [ -n "$scenario" ]; then
	first=${disks# }
	first=${first%% *}
	scenario_job "$scenario" "${first%%:*}" "$mode" "$(info_value "$scenario_data" params)" >"$out/job.sh"
elif [ -n "$job_file" ]; then
	cp "$job_file" "$out/job.sh"
elif [ $# -gt 0 ]; then
	printf '%s\n' "$*" >"$out/job.sh"
else
	echo true >"$out/job.sh"
fi
echo "$args" >"$out/cmdline"
{
	echo "run=$run_id"
	echo "kernel=$kernel"
	echo "flavor=$RL_FLAVOR"
	echo "mem=$mem"
	echo "disks=${models# }"
	echo "time_travel=$time_travel"
	echo "tt_cpu=$tt_cpu"
	echo "seed=$seed"
	echo "host_cpu=$cpu"
	echo "timeout=$timeout"
	echo "tmpdir=$tmp"
	echo "umid=rl-$run_id"
	echo "wrap=$wrap"
	echo "started=$(date -Is)"
	# what the run is, so that later stages need nothing but this folder
	echo "kernel_release=$(cat "$(dirname "$kernel")/include/config/kernel.release" 2>/dev/null)"
	echo "series=$(cat "$(dirname "$kernel")/reclaimlab-series" 2>/dev/null)"
	echo "clock=${time_travel/#0/host}"
	echo "scenario=$scenario"
	if [ -n "$scenario" ]; then
		first=${models# }
		first=${first%% *}
		echo "fs=$(cut -d: -f2 <<<"$first")"
		echo "profile=$(cut -d: -f3 <<<"$first")"
		echo "profile_values=$(disk_model "$(cut -d: -f3 <<<"$first")")"
		echo "mode=$mode"
		echo "knobs=$(mode_knobs "$mode")"
		echo "repeat=$repeat_number"
		echo "params=$(info_value "$scenario_data" params)"
		echo "sets=$(info_value "$scenario_data" set)"
	fi
} >"$out/run.conf"
printf 'running\nrun=%s\n' "$run_id" >"$out/status"

start=$(date +%s.%N)
# shellcheck disable=SC2086 # $wrap and $args are lists of words
if [ "$interactive" = 1 ]; then
	TMPDIR=$tmp $pin $wrap "$kernel" $args || true
else
	TMPDIR=$tmp setsid $pin $wrap "$kernel" $args </dev/null >"$out/console.log" 2>&1 &
	uml_pid=$!
	deadline=$(($(date +%s) + timeout))
	# bash's own "Aborted" line for a kernel that panicked is noise here:
	# the console log and the status say what happened.
	{
		while kill -0 "$uml_pid" 2>/dev/null; do
			if [ "$(date +%s)" -ge "$deadline" ]; then
				status=hung
				break
			fi
			sleep 0.05
		done
		stop_guest
	} 2>/dev/null
fi
wall=$(echo "$(date +%s.%N) - $start" | bc)

# --- collect: splats and the status, from what the guest left ---
rc=0
"$RL_TOP/scripts/collect-run.sh" "$out" "$wall" "${status:-ended}" || rc=$?
exit "$rc"
