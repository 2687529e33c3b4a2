#!/bin/bash
# One run of a matrix on one host: the job GNU parallel starts for each line
# of MATRIX/jobs.tsv under compare.sh --hosts.  parallel picks the host;
# this script runs on the machine that holds the matrix (parallel's ssh is
# scripts/parallel-ssh.sh) and reaches the host itself through RL_SSH, so
# that copying the run folder back is part of the job: a failed copy fails
# the job like a failed ssh, and parallel retries it on another host.
#
#   scripts/host-run.sh LOGIN BUNDLE JOB-LINE
#
# LOGIN ':' is this machine: run.sh writes the run folder in place (BUNDLE
# is not used: compare.sh gives 'none' when no host needs one).  On any
# other host, run.sh of the bundle BUNDLE (copied there by compare.sh) runs
# in a scratch folder; its folder is then copied back into the matrix,
# checked to hold only files and folders, and the scratch folder removed.
# The run folder's file 'host' names the host that ran it.  Exits 0 once
# the run has a final status, whatever the guest did (a hung or crashed
# guest is a result), 1 if the host did not bring it to one.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: scripts/host-run.sh LOGIN BUNDLE JOB-LINE (compare.sh --hosts starts it)"
login=$1 bundle=$2
check_login "$login"
read_job_line "$3"
name=${job_dir##*/}
matrix=${job_dir%/runs/*}

# host_failed WHY: end this attempt as the host's failure, for parallel to
# retry elsewhere; MATRIX/hosts.log keeps the line (parallel shows only
# the last attempt's output, and its joblog only the last attempt)
host_failed() {
	note "$name on $login: $1"
	echo "$(date -Is) $name on $login: $1" >>"$matrix/hosts.log"
	exit 1
}

interrupted=0
if [ "$login" = : ]; then
	# stopped: run.sh (in this process group) has the signal too, marks
	# the run interrupted and stops its guest; this script waits for it
	trap 'interrupted=1' INT TERM HUP
	finished=1
	run_job_here "$job_dir" "${job_opts[@]}" 2>"$matrix/$name.err" || finished=0
	[ ! -d "$job_dir" ] || echo : >"$job_dir/host"
	[ "$interrupted" = 0 ] || exit 130
	[ "$finished" = 1 ] || host_failed "no final status ($(run_status "$job_dir")); see $matrix/$name.err"
	"$RL_TOP/scripts/summarize-run.sh" "$job_dir" || note "could not summarize $name"
	note "finished $name on this machine: $(run_status "$job_dir")"
	exit 0
fi

[[ "$bundle" =~ ^[0-9a-f]{64}$ ]] || die "bad bundle '$bundle' (valid: a SHA-256 in hex)"
command=$(remote_run_command "$bundle" "$name" "${job_opts[@]}")
scratch_line=$(mktemp "$matrix/.$name.scratch.XXXXXX")
incoming=""
trap 'rm -rf "$scratch_line" ${incoming:+"$incoming"}' EXIT

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
# a run folder is data: files and folders only (the guest can make nothing
# else, hostfs confine), whatever the stream held
if [ -n "$(find "$incoming" ! -type f ! -type d -print -quit)" ]; then
	host_failed "the copied run folder holds something other than files and folders; not kept"
fi
on_host "$login" "rm -rf $dir" </dev/null || note "$name on $login: could not remove its scratch folder $dir there"
set_aside_attempt "$job_dir"
mv "$incoming/$name" "$job_dir"
echo "$login" >"$job_dir/host"
[ "$interrupted" = 0 ] || exit 130
if ! run_finished "$job_dir"; then
	host_failed "no final status ($(run_status "$job_dir")); see $matrix/$name.err"
fi
"$RL_TOP/scripts/summarize-run.sh" "$job_dir" || note "could not summarize $name"
note "finished $name on $login: $(run_status "$job_dir")"
