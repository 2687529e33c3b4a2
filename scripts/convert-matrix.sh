#!/bin/bash
# Convert the run folders of a matrix saved before 2026-12 (issue 28) to
# the layout of one record per run, in place; the report of the matrix is
# the same before and after (tests/fixtures/report was converted by it).
#
#   scripts/convert-matrix.sh MATRIX
#
# What changes in each MATRIX/runs/NAME/ (docs/architecture.md, "The run
# folder"):
#   derived/summary.tsv  rows "run scenario fs profile mode repeat metric
#                        value" become "metric value": what the run is
#                        stays in run.conf alone (checked equal first); the
#                        rows that copied the status file (run.status,
#                        run.KEY for its facts, workload.oom_kills) and the
#                        knobs (knob.*, now run.conf's knobs= and the
#                        status's knobs_absent=) go
#   status               clock= goes (run.conf's clock= says it);
#                        knobs_absent= is added from the guest's knobs file
#                        (its KNOB=absent lines), read as the host reads a
#                        guest's file (rl-guest-read)
# rl-record convert does it (scripts/tools/lib/record.c, the one reader and
# writer of a run's record).  A folder already converted is left as it is.  Rather than convert, a
# matrix whose guest files are all there can be summarized again
# (scripts/summarize-run.sh on each run) for its summary rows.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: scripts/convert-matrix.sh MATRIX"
matrix=${1%/}
[ -d "$matrix/runs" ] || die "'$matrix' is not a matrix folder (no runs/)"
build_host_tools

n=0
for run in "$matrix"/runs/*/; do
	run=${run%/}
	[ -n "$(run_status "$run")" ] || continue
	"$RL_HOST_TOOLS/rl-record" convert "$run" >/dev/null || die "cannot convert $run (the message above)"
	n=$((n + 1))
done
note "converted $n run folders of $matrix to one record per run"
