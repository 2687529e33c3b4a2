#!/bin/bash
# Collect one run folder's raw data into derived/summary.tsv, one row per
# metric:
#   run scenario fs profile mode repeat metric value
# What the run is comes from its run.conf; reads only what the run wrote
# and can be run again at any time.
#   scripts/summarize-run.sh RUNDIR
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: scripts/summarize-run.sh RUNDIR"
dir=$1
[ -f "$dir/status" ] || die "'$dir' is not a run folder (no status file)"
[ -n "$(conf_value "$dir/run.conf" scenario)" ] ||
	die "'$dir' did not run a scenario (its run.conf names none: run.sh --scenario)"
TRACESTAT=$RL_HOST_TOOLS/rl-tracestat
[ -x "$TRACESTAT" ] || die "$TRACESTAT missing; run make host-tools"
prefix="${dir##*/}"
for key in scenario fs profile mode repeat; do
	prefix="$prefix	$(conf_value "$dir/run.conf" "$key")"
done
derived=$dir/$RL_DERIVED
mkdir -p "$derived"
# a summary that fails half-way leaves nothing behind
trap 'rm -f "$derived/summary.tsv.tmp"' EXIT

rows() { # METRIC-PREFIX: "key value" lines on stdin
	awk -v p="$prefix" -v m="$1" 'NF >= 2 && $2 ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ { print p "\t" m $1 "\t" $2 }'
}

{
	# how the run went
	sed -n '2,$p' "$dir/status" | tr '=' ' ' | grep -v '^run \|^oom_kills ' | rows "run."
	head -1 "$dir/status" | awk -v p="$prefix" '{ print p "\trun.status\t" $1 }'
	# one count of OOM kills, the status file's (console log)
	grep '^oom_kills ' <(tr '=' ' ' <"$dir/status") | rows "workload."
	# reclaim waits: all of them, and those of each task name
	if [ -f "$dir/trace.txt" ]; then
		# one pass of the one trace reader: totals, per task name, the
		# histogram, the CDF and (over the workload) waits per 0.1 s
		window=()
		if [ -f "$dir/workload-seconds" ]; then
			read -r t0 t1 _ <"$dir/workload-seconds"
			window=(--duration "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')"
				--series "$derived/waits-series.tsv" --window "$t0,$t1")
		fi
		"$TRACESTAT" --tsv --by-comm --hist "$derived/waits-hist.tsv" --cdf "$derived/waits-cdf.tsv" \
			"${window[@]}" "$dir/trace.txt" | grep -v '^task\.' | sed 's/^comm\./task./' | rows "waits."
		[ -f "$dir/trace.txt.overrun" ] && echo "trace_overrun $(cat "$dir/trace.txt.overrun")" | rows "run."
	fi
	# the debugfs counters, as grep -r . /debug/vm shows them
	[ -f "$dir/counters-after.debug-vm" ] && tr ':' ' ' <"$dir/counters-after.debug-vm" | rows "counter."
	# vmstat deltas over the workload
	if [ -f "$dir/counters-before.vmstat" ] && [ -f "$dir/counters-after.vmstat" ]; then
		join "$dir/counters-before.vmstat" "$dir/counters-after.vmstat" |
			awk '$3 - $2 != 0 { print $1, $3 - $2 }' | rows "vmstat."
	fi
	# iostat over the whole workload, per device
	if [ -f "$dir/iostat-summary.txt" ]; then
		awk -F= '/^device=/ { d = $2; next } NF == 2 && d != "" { print d "." $1, $2 }' \
			"$dir/iostat-summary.txt" | rows "iostat."
	fi
	# each workload tool's result line (op=... mbps=...)
	for out in "$dir"/*.out; do
		[ -f "$out" ] || continue
		w=$(basename "$out" .out)
		grep -h '^op=' "$out" | tr ' ' '\n' | awk -F= -v w="$w" 'NF == 2 { s[$1] += $2; n[$1]++ }
			END { for (k in s) if (k ~ /^(mbps|busy_mbps|seconds|first_write_s|bytes|bad_chunks|system_pct)$/) print w "." k, (k ~ /^(bytes|bad_chunks)$/) ? s[k] : s[k] / n[k] }' |
			rows "tool."
	done
	# knobs in effect (1/0, or absent)
	[ -f "$dir/knobs" ] && awk -F= -v p="$prefix" '{ print p "\tknob." $1 "\t" $2 }' "$dir/knobs"
} >"$derived/summary.tsv.tmp"
mv "$derived/summary.tsv.tmp" "$derived/summary.tsv"
