#!/bin/bash
# Write MATRIX/report.md, MATRIX/report.html and MATRIX/plots/ from the
# saved run folders of a comparison matrix (scripts/compare.sh).  Reruns
# nothing; can be run again at any time, and the same runs give the same
# report.  The report is rl-report's (scripts/tools/report/): runs not ok
# are listed and left out of every table and plot; statistics and the
# scenarios' "# Check:" verdicts come from aggregate-*.c; gnuplot draws.
#
#   scripts/report.sh MATRIX
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
export LC_ALL=C

usage() {
	cat <<USAGE
usage: scripts/report.sh MATRIX
  Regenerates MATRIX/report.md, MATRIX/report.html and MATRIX/plots/ from
  MATRIX/runs/*/ (the folder scripts/compare.sh wrote, e.g.
  results/compare-20261130-201500).
USAGE
}

[ $# -eq 1 ] || { usage >&2; die "give one matrix folder (see --help)"; }
case "$1" in -h | --help) usage; exit 0 ;; esac
matrix=${1%/}
[ -n "$matrix" ] || matrix=/
[ -e "$matrix" ] || die "matrix folder '$matrix' does not exist (valid: a folder made by scripts/compare.sh)"
[ -d "$matrix" ] || die "'$matrix' is not a folder (valid: a folder made by scripts/compare.sh)"
[ -w "$matrix" ] || die "cannot write the report: '$matrix' is not writable"
build_host_tools

plots=(--png-term pngcairo)
if ! command -v gnuplot >/dev/null; then
	note "gnuplot not found: the report will have no plots (install gnuplot-nox)"
	plots=(--no-plots)
elif ! gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1; then
	plots=(--png-term png)
fi

# written beside the matrix's files, then moved in: a failed report
# leaves the last good one
new=$matrix/.report.new
rm -rf "$new"
trap 'rm -rf "$new" "$new.err"' EXIT
if ! runs=$("$RL_HOST_TOOLS/rl-report" --matrix "$matrix" --scenarios "$RL_TOP/rootfs/scenarios" \
	--fs-order "$RL_FILESYSTEMS" --mode-order "$RL_MODES" "${plots[@]}" --out "$new" 2>"$new.err"); then
	die "$(sed 's/^rl-report: //' "$new.err" | tail -1)"
fi
# gnuplot's complaints, if a plot could not be drawn
[ ! -s "$new.err" ] || note "$(cat "$new.err")"
[ ! -s "$new/plots/gnuplot.err" ] || note "gnuplot: $(tail -2 "$new/plots/gnuplot.err" | tr '\n' ' ')"
rm -f "$new/plots/gnuplot.err"
rm -rf "$matrix/plots"
mv "$new/plots" "$matrix/plots"
mv "$new/report.html" "$matrix/report.html"
mv "$new/report.md" "$matrix/report.md"
note "wrote $matrix/report.md and report.html ($runs; $(find "$matrix/plots" -name '*.svg' | wc -l) plots)"
