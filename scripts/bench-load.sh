#!/bin/bash
# Does a matrix depend on the host's load?  Runs one compare.sh matrix on
# this host as it is, then again beside CPU hogs (one per host CPU unless
# --hogs says), and prints for each: runs, their status, the ticks in which
# the cpu clock fell back to host time (clock_stalled_ticks), wall time;
# then how many runs' summary rows differ between the two (wall seconds
# aside).  Under the cpu clock a run is a function of its inputs: the
# answer should be 0 stalled ticks and 0 differing runs.  A benchmark that
# prints figures, not a test; start it on an otherwise idle host.
#
#   scripts/bench-load.sh [--hogs N] [--keep DIR] compare.sh options...
#   e.g. scripts/bench-load.sh --scenario all --fs ext4,xfs --modes patched,vanilla --repeat 1
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	echo "usage: scripts/bench-load.sh [--hogs N] [--keep DIR] compare.sh options..."
}
hogs_wanted=$(nproc)
keep=
while [ $# -gt 0 ]; do
	case "$1" in
	--hogs) need_arg "$@"; check_count --hogs "$2" 1 64; hogs_wanted=$2; shift 2 ;;
	--keep) need_arg "$@"; keep=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { usage >&2; die "give the matrix as compare.sh options"; }
for a in "$@"; do
	case "$a" in
	--results | --resume | --hosts | --job-list) die "'$a' is this benchmark's to choose (valid: the matrix's own options)" ;;
	esac
done
if [ -n "$keep" ]; then
	[ ! -e "$keep" ] || die "--keep folder '$keep' exists; give a new one"
	mkdir -p "$keep"
	work=$(cd "$keep" && pwd)
else
	work=$(mktemp -d "${RL_TMPDIR:-/tmp}/reclaimlab-bench-load.XXXXXX")
fi
hogs=()
stop_hogs() {
	[ "${#hogs[@]}" = 0 ] || kill "${hogs[@]}" 2>/dev/null || true
	hogs=()
}
cleanup() {
	stop_hogs
	[ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT

# a run's rows without the host-time ones, sorted
rows() { # RUNDIR
	grep -v $'^run.wall_seconds\t' "$1/$RL_DERIVED/summary.tsv" | sort
}

# one matrix: prints "LABEL runs ok stalled-ticks wall-s"
run_matrix() { # LABEL compare.sh-options...
	local label=$1
	shift
	local m=$work/$label start end runs=0 ok=0 stalled=0 st r
	start=$(date +%s)
	"$RL_TOP/scripts/compare.sh" "$@" --results "$m" >"$work/$label.log" 2>&1 ||
		note "compare.sh ended non-zero for the $label matrix (log $work/$label.log)"
	end=$(date +%s)
	for r in "$m"/runs/*/; do
		[ -n "$(run_status "$r")" ] || continue
		runs=$((runs + 1))
		[ "$(run_status "$r")" != ok ] || ok=$((ok + 1))
		st=$(run_fact "$r" clock_stalled_ticks)
		[[ "$st" =~ ^[0-9]{1,9}$ ]] || st=""
		if [ -n "$st" ] && [ "$st" != 0 ]; then
			stalled=$((stalled + st))
			echo "  $(basename "$r"): $st stalled ticks" >&2
		fi
	done
	printf '%-6s %5s %5s %14s %7s\n' "$label" "$runs" "$ok" "$stalled" "$((end - start))"
}
printf '%-6s %5s %5s %14s %7s\n' host runs ok stalled-ticks wall-s
run_matrix idle "$@"
for _ in $(seq "$hogs_wanted"); do
	sh -c 'while :; do :; done' &
	hogs+=($!)
done
run_matrix busy "$@"
stop_hogs

differ=0 compared=0
for r in "$work"/idle/runs/*/; do
	name=$(basename "$r")
	b=$work/busy/runs/$name
	[ -d "$b" ] || { echo "  $name: not in the busy matrix"; differ=$((differ + 1)); continue; }
	compared=$((compared + 1))
	if ! cmp -s <(rows "$r") <(rows "$b"); then
		differ=$((differ + 1))
		echo "  $name: rows differ: $(diff <(rows "$r") <(rows "$b") | grep -c '^[<>]') lines"
	fi
done
echo "runs compared: $compared; runs whose rows differ between idle and busy (wall seconds aside): $differ"
[ -z "$keep" ] || echo "matrices kept in $work"
