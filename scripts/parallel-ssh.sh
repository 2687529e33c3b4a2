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
# as ssh does: the words are one command line for a shell (parallel's)
exec bash -c "$*"
