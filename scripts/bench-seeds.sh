#!/bin/bash
# How many seeds a verdict needs: one scenario/fs/mode with seeds 1..N
# (compare.sh --repeat N), then, for n = 3..N, the 95% interval that the
# report's verdicts would use over the first n seeds, with its width, and
# the wall time a run took.  A benchmark that prints figures, not a test.
#
#   scripts/bench-seeds.sh SCENARIO FS MODE N [compare.sh options]
#   scripts/bench-seeds.sh --runs MATRIX SCENARIO FS MODE   (no guest: a matrix's runs)
#
# The metrics are those the scenario's checks read on their left side: a
# count (workload.oom_kills, waits.*.events, counter.*) as its check is
# written, the share of seeds in which it held (Wilson); any other as
# "METRIC >= 0", the bootstrap interval of its median.  A check that
# compares two cells is left out (one cell here).  Identical seeds give
# no interval: width 0.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	echo "usage: scripts/bench-seeds.sh SCENARIO FS MODE N [compare.sh options]"
	echo "       scripts/bench-seeds.sh --runs MATRIX SCENARIO FS MODE"
}
matrix=
if [ "${1:-}" = --runs ]; then
	[ $# = 5 ] || { usage >&2; die "--runs takes MATRIX SCENARIO FS MODE"; }
	matrix=$2
	shift 2
fi
case "${1:-}" in -h | --help) usage; exit 0 ;; esac
[ $# -ge 3 ] || { usage >&2; die "give SCENARIO FS MODE (and N)"; }
scn=$1 fs=$2 mode=$3
shift 3
scn_file=$RL_TOP/rootfs/scenarios/$scn.scn
[ -f "$scn_file" ] || die "no scenario '$scn' (valid: scripts/compare.sh --list)"
build_host_tools
total=
if [ -z "$matrix" ]; then
	n=${1:-}
	case "$n" in '' | *[!0-9]*) die "N must be a number of seeds, 3 or more" ;; esac
	[ "$n" -ge 3 ] || die "N must be 3 or more (a verdict needs 3 runs)"
	shift
	matrix=$RL_RESULTS/bench-seeds-$scn-$fs-$mode-$(date +%Y%m%d-%H%M%S)
	start=$(date +%s)
	"$RL_TOP/scripts/compare.sh" --scenario "$scn" --fs "$fs" --modes "$mode" \
		--repeat "$n" --results "$matrix" "$@" || note "compare.sh failed; figures of the runs that finished"
	total=$(($(date +%s) - start))
fi
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
# the runs' records joined into rows (run scenario fs profile mode kernel
# repeat metric value): run.conf, status and summary (rl-aggregate rows)
if ! "$RL_HOST_TOOLS/rl-aggregate" rows "$matrix/runs/$scn.$fs.$mode".r*/ >"$rows" 2>/dev/null || [ ! -s "$rows" ]; then
	die "no summarized run of $scn.$fs.$mode in $matrix/runs"
fi
seeds=$(awk -F'\t' '$7 > m { m = $7 } END { print m + 0 }' "$rows")
[ "$seeds" -ge 3 ] || note "$scn.$fs.$mode has $seeds seeds summarized: an interval needs 3"

# the checks, one cell's: selectors dropped, a count as written, any other
# metric against 0
checks=()
declare -A seen=()
while read -ra words; do
	metric=${words[0]} op='' right=''
	for w in "${words[@]:1}"; do
		case "$w" in fs=* | mode=*) ;; *) if [ -z "$op" ]; then op=$w; else right=$right$w; fi ;; esac
	done
	case "$right" in '' | *[!0-9.eE+-]*) continue ;; esac # a metric: two cells
	case "$metric" in
	workload.oom_kills | counter.* | waits.*.events) c="$metric $op $right" ;;
	*) c="$metric >= 0" ;;
	esac
	[ -n "${seen[$c]:-}" ] || checks+=("$c")
	seen[$c]=1
done < <("$RL_HOST_TOOLS/rl-scenario-info" --checks "$scn_file")
[ "${#checks[@]}" -gt 0 ] || die "$scn has no check on one cell's metric"

echo "== $scn fs=$fs mode=$mode: $seeds seeds ($matrix) =="
awk -F'\t' '$8 == "run.wall_seconds" { print $9 }' "$rows" | sort -g |
	awk '{ v[++n] = $1 } END { if (!n) { print "wall time per run: not recorded"; exit }
	      printf "wall time per run: median %.1f s, min %.1f, max %.1f (%d runs)\n",
	      v[int((n + 1) / 2)], v[1], v[n], n }'
[ -z "$total" ] || echo "whole matrix: $total s wall, compare.sh and its report"
# a count's verdict, or whether a median's seeds were all alike
printf '%-58s %5s %3s %-10s %-22s %-9s %s\n' check seeds n median "95% interval" width verdict
for ((k = 3; k <= seeds; k++)); do
	args=()
	for c in "${checks[@]}"; do args+=(--check "$c"); done
	awk -F'\t' -v k="$k" '$7 <= k' "$rows" |
		"$RL_HOST_TOOLS/rl-aggregate" check --scenario "$scn" "${args[@]}" 2>/dev/null |
		awk -F'\t' -v k="$k" 'NR > 1 && $4 != "not measured" {
			lo = hi = "-"; note = $12
			if (match(note, /\[95% CI [^,]*, [^]]*\]/)) {
				split(substr(note, RSTART + 8, RLENGTH - 9), b, ", "); lo = b[1]; hi = b[2]
			} else if (match(note, /\(95% CI [0-9.]*-[0-9.]*\)/)) {
				split(substr(note, RSTART + 8, RLENGTH - 9), b, "-"); lo = b[1]; hi = b[2]
			} else if (note ~ /no interval/) {
				lo = hi = $5
			}
			w = lo == "-" ? "-" : sprintf("%.4g", hi - lo)
			v = $2 ~ / >= 0$/ ? (note ~ /no interval/ ? "identical seeds" : "") : $4
			printf "%-58s %5s %3s %-10s %-22s %-9s %s\n", $2, k, $6, $5, "[" lo ", " hi "]", w, v
		}'
done | sort -s -k1,3
