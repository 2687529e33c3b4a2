#!/bin/bash
# One run of a matrix on one host: the job GNU parallel starts for each line
# of MATRIX/jobs.tsv, the one way compare.sh runs a run (on this machine or
# under --hosts).  parallel picks the host; this script runs on the machine
# that holds the matrix (parallel's ssh is scripts/parallel-ssh.sh) and
# reaches a remote host itself through RL_SSH, so that copying the run
# folder back is part of the job: a failed copy fails the job like a
# failed ssh, and parallel retries it on another host.
#
#   scripts/host-run.sh [--slot N] [--progress SEQ,SKIPPED,TOTAL,SLOTS,SINCE] LOGIN BUNDLE JOB-LINE
#
# LOGIN ':' is this machine: run.sh writes the run folder in place (BUNDLE
# is not used: compare.sh gives 'none' when no host needs one); --slot N
# (parallel's job slot, given when this machine is the only host) pins
# the guest to CPU N-1, modulo the CPUs.  On any other host, run.sh of the
# bundle BUNDLE (copied there by compare.sh) runs in a scratch folder; its
# folder is then copied back into the matrix, checked to hold only files
# and folders, and the scratch folder removed.  The run folder's file
# 'host' names the host that ran it.  A run with a final status is then
# summarized (summarize_run: scripts/summarize-run.sh).
#
# --progress: the job's number SEQ ({#}), the matrix's runs finished
# before (SKIPPED) and in all (TOTAL), the runs at once over all hosts
# (SLOTS) and when the scheduler started (SINCE, seconds since the epoch):
# the job says "run k of N" with the time left, estimated from the runs
# that ended (every slot is busy, so SEQ - SLOTS of them).
#
# Exits 0 once the run has a final status, whatever the guest did (a hung
# or crashed guest is a result), 1 if the host did not bring it to one,
# 130 if it was stopped.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

usage="usage: scripts/host-run.sh [--slot N] [--progress SEQ,SKIPPED,TOTAL,SLOTS,SINCE] LOGIN BUNDLE JOB-LINE (compare.sh starts it)"
slot="" progress=""
while [ $# -gt 3 ]; do
	case "$1" in
	--slot) need_arg "$@"; slot=$2; shift 2 ;;
	--progress) need_arg "$@"; progress=$2; shift 2 ;;
	*) die "$usage" ;;
	esac
done
[ $# -eq 3 ] || die "$usage"
[ -z "$slot" ] || [[ "$slot" =~ ^[1-9][0-9]{0,4}$ ]] || die "bad --slot '$(printable "$slot")' (valid: a job slot, 1 or more)"
[ -z "$progress" ] || [[ "$progress" =~ ^[1-9][0-9]{0,8}(,[0-9]{1,12}){4}$ ]] ||
	die "bad --progress '$(printable "$progress")' (valid: SEQ,SKIPPED,TOTAL,SLOTS,SINCE, numbers)"
login=$1 bundle=$2
check_login "$login"
read_job_line "$3"
name=${job_dir##*/}
matrix=${job_dir%/runs/*}

# say_progress: "run k of N: NAME (elapsed, about X left)"
say_progress() {
	local seq skipped total slots since elapsed ended eta="?"
	IFS=, read -r seq skipped total slots since <<<"$progress"
	elapsed=$(($(date +%s) - since))
	ended=$((seq - slots))
	[ "$ended" -le 0 ] || eta="$(((total - skipped - ended) * elapsed / ended))s"
	note "run $((skipped + seq)) of $total: $name (elapsed ${elapsed}s, about $eta left)"
}
[ -z "$progress" ] || say_progress

# host_failed WHY: end this attempt as the host's failure, for parallel to
# retry elsewhere; MATRIX/hosts.log keeps the line (parallel shows only
# the last attempt's output, and its joblog only the last attempt)
host_failed() {
	note "$name on $login: $1"
	echo "$(date -Is) $name on $login: $1" >>"$matrix/hosts.log"
	exit 1
}

interrupted=0

# run_here: the run on this machine, into its folder in the matrix.
# Stopped, run.sh (in this process group) has the signal too, marks the
# run interrupted and stops its guest; this script waits for it.
run_here() {
	local cpu=()
	trap 'interrupted=1' INT TERM HUP
	[ -z "$slot" ] || cpu=(--cpu "$(((slot - 1) % $(nproc)))")
	run_job_here "$job_dir" "${job_opts[@]}" "${cpu[@]}" 2>"$matrix/$name.err" || true
	[ ! -d "$job_dir" ] || echo : >"$job_dir/host"
}

# scratch SCRATCH-LINE: "SCRATCH PID" of the run on the host, checked, or
# nothing if the host did not say
scratch() {
	local dir pid
	read -r dir pid <"$scratch_line" || return 0
	check_scratch "$dir"
	[[ "$pid" =~ ^[0-9]+$ ]] || die "$login gave '$pid' as the pid of run.sh"
	echo "$dir $pid"
}

# Stopped (compare.sh interrupted, parallel's --termseq): stop the guest on
# the host too (an ssh client killed here may leave its command running
# there), wait for run.sh to mark the run interrupted, keep what it left.
on_signal() {
	local dir pid
	interrupted=1
	read -r dir pid <<<"$(scratch)"
	[ -z "$pid" ] || on_host "$login" "kill -TERM $pid; while kill -0 $pid 2>/dev/null; do sleep 0.2; done" </dev/null || true
}

# run_on_host: the run on LOGIN, in a scratch folder there, its folder
# then copied back into the matrix
run_on_host() {
	local command ssh_pid dir
	[[ "$bundle" =~ ^[0-9a-f]{64}$ ]] || die "bad bundle '$bundle' (valid: a SHA-256 in hex)"
	command=$(remote_run_command "$bundle" "$name" "${job_opts[@]}")
	scratch_line=$(mktemp "$matrix/.$name.scratch.XXXXXX")
	incoming=""
	trap 'rm -rf "$scratch_line" ${incoming:+"$incoming"}' EXIT
	trap on_signal INT TERM HUP

	set_aside_attempt "$job_dir"
	on_host "$login" "$command" </dev/null >"$scratch_line" 2>"$matrix/$name.err" &
	ssh_pid=$!
	# a signal ends wait early; wait on until the ssh client is gone
	while ! wait "$ssh_pid"; do
		kill -0 "$ssh_pid" 2>/dev/null || break
	done

	read -r dir _ <<<"$(scratch)"
	if [ -z "$dir" ]; then
		host_failed "the run did not start; see $matrix/$name.err"
	fi
	incoming=$(mktemp -d "$matrix/.$name.incoming.XXXXXX")
	if ! (set -o pipefail; on_host "$login" "tar -c -C $dir $name" </dev/null |
		tar -x --no-same-owner --no-same-permissions -C "$incoming"); then
		host_failed "could not copy the run folder back"
	fi
	# a run folder is data: files and folders only (the guest can make
	# nothing else, hostfs confine), whatever the stream held
	if [ -n "$(find "$incoming" ! -type f ! -type d -print -quit)" ]; then
		host_failed "the copied run folder holds something other than files and folders; not kept"
	fi
	on_host "$login" "rm -rf $dir" </dev/null || note "$name on $login: could not remove its scratch folder $dir there"
	set_aside_attempt "$job_dir"
	mv "$incoming/$name" "$job_dir"
	echo "$login" >"$job_dir/host"
}

if [ "$login" = : ]; then
	run_here
else
	run_on_host
fi
[ "$interrupted" = 0 ] || exit 130
if ! run_finished "$job_dir"; then
	host_failed "no final status ($(run_status "$job_dir")); see $matrix/$name.err"
fi
summarize_run "$job_dir"
where=$login
[ "$where" != : ] || where="this machine"
note "finished $name on $where: $(run_status "$job_dir")"
