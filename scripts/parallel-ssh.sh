#!/bin/bash
# GNU parallel's ssh under compare.sh --hosts: it runs the job here.
# parallel chooses each run's host (its slots, a failed run retried on a
# host it has not failed on) and starts the job as "SSH [-l USER] HOST --
# COMMAND"; the job, scripts/host-run.sh, runs on this machine and reaches
# the host itself, so that copying the run folder back is part of the job
# (parallel's own --return does not fail a job whose copy failed).
set -eu
# [-l USER] HOST: the job has them as its first argument ({sshlogin})
[ "${1:-}" != -l ] || shift 2
{ [ $# -ge 3 ] && [ "$2" = -- ]; } || {
	echo "reclaimlab: error: scripts/parallel-ssh.sh: unexpected arguments from parallel: $*" >&2
	exit 255
}
shift 2

# COMMAND is parallel's worker, which starts the job in a process group of
# its own.  parallel stops a job (--termseq) by signalling its ssh's process
# group, which here would kill the worker and leave the job running: so
# the worker gets a group of its own (set -m), and a signal to this script
# goes on to the job's group; then it waits for the worker to end.
set -m
# as ssh does: the words are one command line for the login shell, which
# it names in SHELL (parallel's worker runs the job with $SHELL; unset, it
# ran nothing and exited 0)
SHELL=$BASH
export SHELL
"$SHELL" -c "$*" &
worker=$!
stop_job() {
	local job
	for job in $(pgrep -P "$worker"); do
		kill -TERM -- "-$job" 2>/dev/null || true
	done
}
trap stop_job TERM INT HUP
while :; do
	rc=0
	wait "$worker" || rc=$?
	kill -0 "$worker" 2>/dev/null || exit "$rc"
done
