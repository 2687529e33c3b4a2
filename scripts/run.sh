#!/bin/bash
# Boot the reclaimlab UML kernel once, as an ordinary process, and run one
# command in the guest.  Everything the run produces goes into its run
# folder; the guest writes there through hostfs.
#
# The run folder and what each of its files holds: scripts/lib/run-folder.sh.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	echo "usage: scripts/run.sh [options] [--] [guest command...]"
	run_options_usage
	cat <<USAGE
With no command, the guest runs 'true'.  The exit status is the guest
command's; 124 means the guest hung, 125 that it crashed or did not start.
USAGE
}

disks=""
swap=0
swap_profile=host
tools=1
trace_dat=0
blktrace=0
mem=512M
timeout=300
out=""
time_travel=0
extra_args=""
job_file=""
interactive=0
kernel=$RL_KERNEL
kernel_name=""
wrap=""
tt_cpu=""
cpu=auto
seed=""
scenario=""
mode=patched
sets=()
preset=""
repeat_number=1
given=""
native=0


# The options and which take a value: scripts/lib/run-options.sh
while [ $# -gt 0 ]; do
	case "$1" in
	-- | -h) ;;
	-*) run_option_check "$1"; ! run_option_takes_value "$1" || need_arg "$@" ;;
	esac
	case "$1" in
	--scenario) scenario=$2; shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	--set) sets+=("$2"); shift 2 ;;
	--preset) check_preset_name "$2"; preset=$2; shift 2 ;;
	--repeat-number) repeat_number=$2; shift 2 ;;
	--disk) disks="$disks $2"; shift 2 ;;
	--swap) swap=1; given="$given swap"; shift ;;
	--swap=*) swap=1; swap_profile=${1#--swap=}; given="$given swap"; shift ;;
	--no-tools) tools=0; shift ;;
	--trace-dat) trace_dat=1; shift ;;
	--blktrace) blktrace=1; shift ;;
	--mem) mem=$2; given="$given mem"; shift 2 ;;
	--timeout) timeout=$2; given="$given timeout"; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--time-travel) time_travel=basic; shift ;;
	--time-travel=inf-cpu) time_travel=inf-cpu; shift ;;
	--time-travel=cpu) time_travel=cpu; shift ;;
	--time-travel=basic) time_travel=basic; shift ;;
	--time-travel=*) die "unknown time-travel mode '${1#--time-travel=}' (valid: --time-travel, --time-travel=basic, --time-travel=cpu, --time-travel=inf-cpu)" ;;
	--tt-cpu) tt_cpu=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--append) extra_args="$extra_args $2"; shift 2 ;;
	--job) job_file=$2; shift 2 ;;
	--interactive) interactive=1; shift ;;
	--kernel) kernel=$2; shift 2 ;;
	--kernel-name) kernel_name=$2; shift 2 ;;
	--native) native=1; shift ;;
	--wrap) wrap=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; break ;;
	-*) die "option $1 is in scripts/lib/run-options.sh but not handled here" ;;
	*) break ;;
	esac
done

# --- validate everything before anything starts ---
if [ -n "$scenario" ]; then
	check_scenario_run "$scenario" "$mode" "$repeat_number"
	[ -n "$disks" ] || die "--scenario $scenario needs a --disk for its filesystem"
	{ [ -z "$job_file" ] && [ $# -eq 0 ]; } || die "give either --scenario or a job, not both"
	# the --set words checked, their values resolved: rl-scenario-info's
	scenario_data=$(scenario_info "$scenario" "$preset" "${sets[@]}") || exit 1
	# the scenario's settings where no option gave them
	word_in mem "$given" || mem=$(info_value "$scenario_data" mem)
	word_in timeout "$given" || timeout=$(info_value "$scenario_data" timeout)
	mem=${mem:-512M} timeout=${timeout:-600}
	if ! word_in swap "$given" && [ -n "$(info_value "$scenario_data" swap)" ]; then
		swap=1 swap_profile=$(info_value "$scenario_data" swap)
	fi
	disks=$(with_first_profile "$disks" "$(scenario_profile "$scenario_data" "$(disk_fs "$(first_disk "$disks")")")")
elif [ "$mode/$preset/$repeat_number" != patched//1 ] || [ "${#sets[@]}" != 0 ]; then
	die "--mode, --set, --preset and --repeat-number belong to --scenario"
fi
[ "$trace_dat$blktrace" = 00 ] || tools_attached "$tools" ||
	die "--trace-dat and --blktrace need the tools disk (trace-cmd, blktrace): drop --no-tools, or build it with 'make guest-tools'"
[ -z "$kernel_name" ] || check_kernel_name "$kernel_name" --kernel-name
[ -x "$RL_HOST_TOOLS/rl-collect" ] || build_host_tools
if [ "$native" = 1 ]; then
	# the host's kernel and clock: no UML kernel, memory file or overlays
	native_check_run
	kernel=native time_travel=0 cpu=none
else
	[ -x "$kernel" ] || die "kernel $kernel not found; build it with 'make kernel'"
	[ -r "$RL_ROOTFS" ] || die "rootfs $RL_ROOTFS not found; build it with 'make rootfs'"
	check_guest_mem "$mem"
fi
check_count --timeout "$timeout" 1 "$RL_MAX_TIMEOUT"
[ -z "$job_file" ] || [ -r "$job_file" ] || die "job file '$job_file' not readable"
[ -z "$tt_cpu" ] || [ "$time_travel" = cpu ] || die "--tt-cpu sets prices of --time-travel=cpu, which is not on"
check_tt_cpu "$tt_cpu"
# repeat R of a matrix samples the kernel's random choices with seed R
[[ "$repeat_number" =~ ^[1-9][0-9]{0,5}$ ]] || die "bad --repeat-number '$repeat_number' (valid: 1 to 999999)"
seed=${seed:-$repeat_number}
check_count --seed "$seed" 0 999999999999999999
check_host_cpu "$cpu"
[ -z "$job_file" ] || [ $# -eq 0 ] || die "give either --job or a command, not both"

# a native run's disks are loop devices over new files (native_check_run)
[ "$native" = 1 ] || check_disks "$disks" "$swap" "$swap_profile"
[ "$native" = 1 ] || check_overlay_room "$mem" "$disks" "$swap" "$([ -z "$scenario" ] || info_value "$scenario_data" disk_use)"

out=$(create_run_folder "${out:-$RL_RESULTS/runs/$(date +%Y%m%d-%H%M%S)-$$}")
run_id=${out##*/}

# --- per-run private state: umid, TMPDIR (UML's memory file), overlays ---
tmp=$(private_tmpdir)
uml_pid=""
status=""

stop_guest() {
	# UML forks helper processes; they share its process group.  The
	# kernel is waited for, the rest of the group die of the same SIGKILL
	# a moment later: waited for too (bounded: 10 s), so that nothing of
	# the guest (a holder of a matrix's lock, fd 9) outlives this script
	if [ -n "$uml_pid" ]; then
		kill -KILL -- "-$uml_pid" 2>/dev/null || true
		wait "$uml_pid" 2>/dev/null || true
		for _ in $(seq 200); do
			kill -0 -- "-$uml_pid" 2>/dev/null || break
			sleep 0.05
		done
	fi
	uml_pid=""
}

cleanup() {
	local rc=$? end_rc
	stop_guest
	[ -z "${native_state:-}" ] || native_undo "$native_state"
	[ -z "${guest_cgroup:-}" ] || rmdir "$guest_cgroup" 2>/dev/null || true
	# a native run that ended at a step of its own (native_fail, or any
	# error of the script there): its final status names the step
	if [ "${native_step:-over}" != over ] && [ "$(run_status "$out")" = running ]; then
		end_rc=0
		native_end "$out" "$rc" "$(echo "$(date +%s.%N) - ${start:-$(date +%s.%N)}" | bc)" || end_rc=$?
		rm -rf "$tmp"
		exit "$end_rc"
	fi
	rm -rf "$tmp"
}

on_signal() {
	stop_guest
	[ -n "$status" ] || run_status_mark "$out" interrupted || true
	note "interrupted; run folder kept: $out"
	cleanup
	exit 130
}
trap cleanup EXIT
trap on_signal INT TERM HUP

args="mem=$mem initrd=$(guest_input "$tmp" "$RL_ROOTFS") umid=$(run_umid "$run_id") uml_dir=$tmp/uml"
# the guest's hostfs root: private to this user, so no other local user
# can plant anything in it for the host's readers to follow
mkdir -m 0700 "$out/$RL_GUEST"
args="$args $(hostfs_args "$tmp" "$out/$RL_GUEST")"
if [ "$interactive" = 1 ]; then
	# a quiet console: kernel messages go to console.log (rootfs/init)
	args="$args con0=fd:0,fd:1 con=null loglevel=1"
else
	args="$args con0=null,fd:1 con=null"
fi
args="$args$(clock_args "$time_travel" "$tt_cpu" "$seed")$(disk_args "$tmp" "$disks" "$swap" "$swap_profile")$(tools_args "$tmp" "$tools")$extra_args"
# One host CPU per guest: the kernel and its ptrace'd processes hand over
# to each other on it (a null system call: 12 to 18 us of wall time pinned,
# 61 us unpinned on an idle host; scripts/bench-clock.sh ops).
[ "$cpu" != auto ] || cpu=$(free_host_cpu)
echo "$cpu" >"$tmp/cpu"
guest_process_limit "$run_id"
# The guest dies with this script, even of SIGKILL (its helpers die with
# it, UML sets their parent-death signal).
pin="setpriv --pdeathsig KILL setarch $(uname -m) -R"
[ "$cpu" = none ] || pin="$pin taskset -c $cpu"

# job.env: every setting the guest gets, the one channel into it (the
# kernel command line carries what the kernel needs: memory, disks, their
# models, hostfs, the clock); sourced by the guest's init
{
	echo "RL_DISKS='$(guest_disks "$disks")'"
	echo "RL_SWAP='$(guest_swap "$disks" "$swap")'"
	echo "RL_TOOLS='$(guest_tools "$tools")'"
	echo "RL_INTERACTIVE=$interactive"
	echo "export RL_TRACE_DAT=$trace_dat RL_BLKTRACE=$blktrace"
	# a scenario's: its filesystem, its mode's knobs and every parameter,
	# resolved and type-checked by rl-scenario-info (run.conf's params=);
	# rl-scenario applies them and checks none of them again
	[ -z "$scenario" ] ||
		scenario_env "$(disk_fs "$(first_disk "$disks")")" "$mode" "$(info_value "$scenario_data" params)"
} >"$out/job.env"
# job.sh: the command
if [ -n "$scenario" ]; then
	echo "exec rl-scenario $scenario" >"$out/job.sh"
elif [ -n "$job_file" ]; then
	cp "$job_file" "$out/job.sh"
elif [ $# -gt 0 ]; then
	printf '%s\n' "$*" >"$out/job.sh"
else
	echo true >"$out/job.sh"
fi
# the guest reads its own copies; the host's stay out of its reach
cp "$out/job.env" "$out/job.sh" "$out/$RL_GUEST/"
chmod 0600 "$out/$RL_GUEST/job.env" "$out/$RL_GUEST/job.sh"
echo "$args" >"$out/cmdline"
write_run_conf >"$out/run.conf"
run_status_mark "$out" running

start=$(date +%s.%N)
# shellcheck disable=SC2086 # $wrap and $args are lists of words
if [ "$native" = 1 ]; then
	native_boot "$out" "$tmp" "$run_id" "$timeout"
	[ "$native_hung" = 0 ] || status=hung
elif [ "$interactive" = 1 ]; then
	TMPDIR=$tmp "${guest_limit[@]}" $pin $wrap "$kernel" $args || true
	# a shell left with exit or poweroff -f (as the banner says): no job
	# status to wait for
	status=interactive
else
	TMPDIR=$tmp setsid "${guest_limit[@]}" $pin $wrap "$kernel" $args </dev/null >"$out/console.log" 2>&1 &
	uml_pid=$!
	# bash's own "Aborted" line for a kernel that panicked is noise here:
	# the console log and the status say what happened.
	{
		wait_guest "$uml_pid" "$timeout" || status=hung
		stop_guest
	} 2>/dev/null
fi
wall=$(echo "$(date +%s.%N) - $start" | bc)

# --- collect: splats and the status, from what the guest left ---
rc=0
"$RL_TOP/scripts/collect-run.sh" "$out" "$wall" "${status:-ended}" || rc=$?
exit "$rc"
