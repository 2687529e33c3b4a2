#!/bin/bash
# Collect one run folder's raw data into derived/summary.tsv, one row per
# metric, two tab-separated fields: METRIC VALUE (the run is its folder's;
# summaries until 2026-12-07 named it in a first field, which the record
# still reads); and beside it the trace's histogram, CDF, waits per 0.1 s, folios
# ended per 10 ms and waits by task and reason (waits-hist.tsv,
# waits-cdf.tsv, waits-series.tsv, completions-series.tsv,
# waits-by-task.tsv): rl-summarize (scripts/tools/summarize/summarize.c),
# the one reader of a run folder's raw files.  What the run is stays in its
# run.conf and how it ended in its status: the readers join the three
# (scripts/tools/lib/record.c), which refuses a summary of the eight-field
# rows written before 2026-12 (run scenario fs profile mode repeat metric
# value; scripts/convert-matrix.sh converts them).  Can be run again at any
# time.
# The one way a run is summarized: a matrix's job (scripts/host-run.sh,
# scripts/run-listed.sh), compare.sh --resume for a run finished but not
# summarized, the benchmarks and the tests all run this script.
#   scripts/summarize-run.sh RUNDIR
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: scripts/summarize-run.sh RUNDIR"
build_host_tools
[ -n "$(run_status "$1")" ] || die "'$1' is not a run folder (no status file)"
out=$("$RL_HOST_TOOLS/rl-summarize" "$1" 2>&1) || die "${out#rl-summarize: }"
