#!/bin/bash
# Run one line of a job list (scripts/compare.sh --job-list FILE): run.sh
# into the line's run folder with the line's options, then the run's
# summary rows.  A batch system runs the lines, e.g. a Slurm array, where
# the line is the array task's:
#
#   scripts/compare.sh --scenario memcg-dd --fs ext4 --results /shared/m --job-list /shared/m.jobs
#   sbatch --array=1-$(wc -l </shared/m.jobs) --wrap 'scripts/run-listed.sh /shared/m.jobs'
#   scripts/compare.sh --resume /shared/m      (once the array is done: the report)
#
#   scripts/run-listed.sh FILE [N]      N: the line (default $SLURM_ARRAY_TASK_ID)
# Exits 0 once the run has a final status, whatever the guest did, and 1
# if it has none.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

{ [ $# -ge 1 ] && [ $# -le 2 ]; } || die "usage: scripts/run-listed.sh JOB-LIST [LINE] (LINE: default \$SLURM_ARRAY_TASK_ID)"
list=$1
n=${2:-${SLURM_ARRAY_TASK_ID:-}}
[ -r "$list" ] || die "job list '$list' not readable"
lines=$(wc -l <"$list")
{ [[ "$n" =~ ^[1-9][0-9]{0,8}$ ]] && [ "$n" -le "$lines" ]; } ||
	die "bad line number '$n' (valid: 1 to $lines, the lines of $list; or set SLURM_ARRAY_TASK_ID)"
read_job_line "$(sed -n "${n}p" "$list")"
cpu=()
# a batch job's CPUs are the ones the batch system gave it, not
# necessarily those run.sh would pick
[ -z "${SLURM_JOB_ID:-}" ] || cpu=(--cpu none)
run_job_here "$job_dir" "${job_opts[@]}" "${cpu[@]}" || die "the run in $job_dir has no final status"
summarize_run "$job_dir"
note "$job_dir: $(run_status "$job_dir")"
