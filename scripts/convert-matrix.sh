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
#                        value" become "run metric value": what the run is
#                        stays in run.conf alone (checked equal first); the
#                        rows that copied the status file (run.status,
#                        run.KEY for its facts, workload.oom_kills) and the
#                        knobs (knob.*, now run.conf's knobs= and the
#                        status's knobs_absent=) go
#   status               clock= goes (run.conf's clock= says it);
#                        knobs_absent= is added from the guest's knobs file
#                        (its KNOB=absent lines), read as the host reads a
#                        guest's file (rl-guest-read)
# A folder already converted is left as it is.  Rather than convert, a
# matrix whose guest files are all there can be summarized again
# (scripts/summarize-run.sh on each run) for its summary rows.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: scripts/convert-matrix.sh MATRIX"
matrix=${1%/}
[ -d "$matrix/runs" ] || die "'$matrix' is not a matrix folder (no runs/)"
build_host_tools

# convert_summary RUN: derived/summary.tsv in three columns
convert_summary() {
	local run=$1 sum=$1/$RL_DERIVED/summary.tsv keys k id=()
	[ -f "$sum" ] || return 0
	# converted already: three fields a row
	[ "$(head -1 "$sum" | awk -F'\t' '{ print NF }')" = 8 ] || return 0
	for k in scenario fs profile mode repeat; do
		id+=("$(conf_value "$run/run.conf" "$k")")
	done
	# the status file's keys, whose rows were copies of it
	keys=$(tail -n +2 "$run/status" | sed -n 's/^\([A-Za-z0-9_]\{1,200\}\)=.*/\1/p' | tr '\n' ' ')
	awk -F'\t' -v OFS='\t' -v id="${id[*]}" -v keys=" $keys" -v f="$sum" '
		NF != 8 { printf "%s line %d: not 8 fields\n", f, NR > "/dev/stderr"; bad = 1; exit 1 }
		$2 " " $3 " " $4 " " $5 " " $6 != id {
			printf "%s line %d: %s %s %s %s %s, but run.conf says %s\n", f, NR, $2, $3, $4, $5, $6, id > "/dev/stderr"
			bad = 1; exit 1
		}
		$7 == "run.status" || $7 == "workload.oom_kills" || $7 ~ /^knob\./ { next }
		$7 ~ /^run\./ && index(keys, " " substr($7, 5) " ") { next }
		{ print $1, $7, $8 }' "$sum" >"$sum.new" || { rm -f "$sum.new"; die "cannot convert $sum"; }
	mv "$sum.new" "$sum"
}

# convert_status RUN: no clock=, and knobs_absent= from the guest's knobs
convert_status() {
	local run=$1 st=$1/status absent
	[ -f "$st" ] || return 0
	grep -q '^knobs_absent=' "$st" && return 0
	absent=$("$RL_HOST_TOOLS/rl-guest-read" "$run/$RL_GUEST/knobs" 2>/dev/null |
		sed -n 's/^\([A-Za-z0-9_.]\{1,200\}\)=absent$/\1/p' | paste -sd, -)
	awk -v absent="$absent" '
		NR > 1 && /^clock=/ { next }
		{ print }
		NR > 1 && /^oom_kills=/ { print "knobs_absent=" absent }' "$st" >"$st.new"
	mv "$st.new" "$st"
}

n=0
for run in "$matrix"/runs/*/; do
	run=${run%/}
	[ -f "$run/status" ] || continue
	convert_summary "$run"
	convert_status "$run"
	n=$((n + 1))
done
note "converted $n run folders of $matrix to one record per run"
