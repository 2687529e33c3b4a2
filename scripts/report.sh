#!/bin/bash
# Write MATRIX/report.md and MATRIX/plots/*.svg + *.png from the saved run
# folders of a comparison matrix (scripts/compare.sh).  Reruns nothing; can
# be run again at any time, and the same runs give the same report.md.
#
#   scripts/report.sh MATRIX
#
# Runs whose status is not ok are listed with their status and left out of
# every table and plot.  The statistics and the scenario checks ("# Check:"
# header lines of rootfs/scenarios/*.scn) come from rl-aggregate.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
export LC_ALL=C

usage() {
	cat <<USAGE
usage: scripts/report.sh MATRIX
  Regenerates MATRIX/report.md and MATRIX/plots/ from MATRIX/runs/*/ (the
  folder scripts/compare.sh wrote, e.g. results/compare-20261130-201500).
USAGE
}

[ $# -eq 1 ] || { usage >&2; die "give one matrix folder (see --help)"; }
case "$1" in -h | --help) usage; exit 0 ;; esac
matrix=${1%/}
[ -n "$matrix" ] || matrix=/
[ -e "$matrix" ] || die "matrix folder '$matrix' does not exist (valid: a folder made by scripts/compare.sh)"
[ -d "$matrix" ] || die "'$matrix' is not a folder (valid: a folder made by scripts/compare.sh)"

rundirs=()
if [ -d "$matrix/runs" ]; then
	for d in "$matrix"/runs/*; do
		# leftovers of an interrupted attempt that --resume redid are not runs
		case "${d##*/}" in *.interrupted.*) continue ;; esac
		[ -f "$d/status" ] && rundirs+=("$d")
	done
fi
[ ${#rundirs[@]} -gt 0 ] ||
	die "'$matrix' has no runs (valid: a folder with runs/SCENARIO.FS.MODE.rN/status, as scripts/compare.sh writes)"
[ -w "$matrix" ] || die "cannot write the report: '$matrix' is not writable"

AGG=$RL_HOST_TOOLS/rl-aggregate
build_host_tools
have_gnuplot=1
command -v gnuplot >/dev/null || {
	have_gnuplot=0
	note "gnuplot not found: the report will have no plots (install gnuplot-nox)"
}
png_term=pngcairo
[ "$have_gnuplot" = 0 ] || gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1 || png_term=png

tmp=$(mktemp -d "${TMPDIR:-/tmp}/reclaimlab-report.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
newplots=$matrix/.plots.new
rm -rf "$newplots"
mkdir -p "$newplots"

# --- the runs -------------------------------------------------------------

# runs.tsv: name scenario fs mode repeat status (in name order)
for d in "${rundirs[@]}"; do
	name=${d##*/}
	IFS=. read -r s f m r <<<"$name"
	st=$(head -1 "$d/status")
	st=${st:-unknown}
	[ -f "$d/$RL_DERIVED/summary.tsv" ] || [ "$st" != ok ] || st="ok-but-unsummarized"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$s" "$f" "$m" "${r#r}" "$st"
	# the status file decides, also for rl-aggregate: its run.status row
	# is replaced by the status file's first line
	[ ! -f "$d/$RL_DERIVED/summary.tsv" ] || awk -F'\t' -v OFS='\t' -v st="$st" '
		NR == 1 { p = $1 OFS $2 OFS $3 OFS $4 OFS $5 OFS $6 }
		$7 != "run.status" { print }
		END { if (p != "") print p, "run.status", st }' "$d/$RL_DERIVED/summary.tsv" >>"$tmp/all.tsv"
done >"$tmp/runs.tsv"
touch "$tmp/all.tsv"
rundir() { echo "$matrix/runs/$1"; }

# conf KEY: a value of matrix.conf, read without running it
conf() {
	conf_value "$matrix/matrix.conf" "$1"
}

# ordered LIST-OF-KNOWN VALUES...: known ones in that order, then the rest
ordered() {
	local known=$1 v
	shift
	for v in $known; do word_in "$v" "$*" && echo "$v"; done
	for v in $(printf '%s\n' "$@" | sort -u); do word_in "$v" "$known" || echo "$v"; done
}

words() { # LIST: its words on one line
	echo "$1" | tr '\n' ' ' | sed 's/  */ /g; s/^ //; s/ $//'
}
col() { # N: unique values of column N of runs.tsv
	cut -f"$1" "$tmp/runs.tsv" | sort -u
}
# shellcheck disable=SC2046 # word lists
scenarios=$(ordered "$(conf scenarios)" $(col 2))
# shellcheck disable=SC2046
all_fs=$(ordered "$RL_FILESYSTEMS" $(col 3))
# shellcheck disable=SC2046
all_modes=$(ordered "$RL_MODES" $(col 4))
# the mode the others are compared with
ref_mode=vanilla
word_in vanilla "$all_modes" || ref_mode=$(echo "$all_modes" | head -1)

ok_runs() { # SCENARIO FS MODE: names of the ok runs
	awk -F'\t' -v s="$1" -v f="$2" -v m="$3" '$2 == s && $3 == f && $4 == m && $6 == "ok" { print $1 }' "$tmp/runs.tsv"
}
not_ok_count() { # SCENARIO FS MODE
	awk -F'\t' -v s="$1" -v f="$2" -v m="$3" '$2 == s && $3 == f && $4 == m && $6 != "ok" { n++ } END { print n + 0 }' "$tmp/runs.tsv"
}
has_runs() { # SCENARIO FS MODE: any run at all, ok or not
	awk -F'\t' -v s="$1" -v f="$2" -v m="$3" '$2 == s && $3 == f && $4 == m { found = 1 } END { exit !found }' "$tmp/runs.tsv"
}
run_metric() { # RUN METRIC: its value in the run's summary.tsv
	awk -F'\t' -v m="$2" '$7 == m { v = $8 } END { print v }' "$(rundir "$1")/$RL_DERIVED/summary.tsv" 2>/dev/null
}

# --- numbers from rl-aggregate --------------------------------------------

scn_file() { echo "$RL_TOP/rootfs/scenarios/$1.scn"; }

for s in $scenarios; do
	scn=()
	[ -f "$(scn_file "$s")" ] && scn=(--scn "$(scn_file "$s")")
	"$AGG" groups --scenario "$s" "${scn[@]}" "$tmp/all.tsv" >"$tmp/$s.groups" 2>>"$tmp/agg.err"
	: >"$tmp/$s.pairs"
	for m in $all_modes; do
		[ "$m" != "$ref_mode" ] || continue
		"$AGG" compare --by mode "$m" "$ref_mode" --scenario "$s" "${scn[@]}" "$tmp/all.tsv" 2>>"$tmp/agg.err" |
			sed 1d >>"$tmp/$s.pairs"
	done
	: >"$tmp/$s.checks"
	[ ${#scn[@]} = 0 ] ||
		"$AGG" check "${scn[@]}" "$tmp/all.tsv" 2>>"$tmp/agg.err" | sed 1d >"$tmp/$s.checks"
done
malformed_note=$(sed -n 's/^rl-aggregate: //p' "$tmp/agg.err" | sort -u | head -3)

# --- formatting -------------------------------------------------------------

# An awk function library: fmt(v) prints numbers for people.
AWK_FMT='
function fmt(v,   a) {
	if (v == "" || v == "-") return "-"
	a = v < 0 ? -v : v
	if (a >= 1000 || a == int(a)) return sprintf("%.0f", v)
	if (a >= 100) return sprintf("%.1f", v)
	return sprintf("%.3g", v)
}'

# metric_table SCENARIO METRIC...: fs | mode | runs | one column per metric,
# median over the ok runs (min-max when more than one), "n.s." when the
# difference to the reference mode is not significant.
metric_table() {
	local s=$1 f m ok bad
	shift
	printf '| fs | mode | runs |'
	printf ' %s |' "$@"
	printf '\n|---|---|---|'
	printf -- '---|%.0s' "$@"
	printf '\n'
	for f in $all_fs; do
		for m in $all_modes; do
			has_runs "$s" "$f" "$m" || continue
			ok=$(ok_runs "$s" "$f" "$m" | wc -l)
			bad=$(not_ok_count "$s" "$f" "$m")
			awk -F'\t' -v f="$f" -v m="$m" -v ok="$ok" -v bad="$bad" -v metrics="$*" \
				-v ref="$ref_mode" "$AWK_FMT"'
				FILENAME ~ /groups$/ && $2 == f && $4 == m { med[$5] = $7; lo[$5] = $8; hi[$5] = $9; n[$5] = $6 }
				FILENAME ~ /pairs$/ && $2 == f && $5 == m && $9 == ref && $14 == "n.s." { ns[$4] = 1 }
				END {
					runs = ok (bad > 0 ? " (+" bad " not ok)" : "")
					printf "| %s | %s | %s |", f, m, runs
					k = split(metrics, ms, " ")
					for (i = 1; i <= k; i++) {
						x = ms[i]
						if (!(x in med)) { printf " - |"; continue }
						c = fmt(med[x])
						if (n[x] > 1 && lo[x] != hi[x]) c = c " (" fmt(lo[x]) "–" fmt(hi[x]) ")"
						if (x in ns) c = c " n.s."
						printf " %s |", c
					}
					printf "\n"
				}' "$tmp/$s.groups" "$tmp/$s.pairs"
		done
	done
}

# metrics_like SCENARIO REGEX: metrics of the scenario's groups matching
metrics_like() {
	awk -F'\t' -v re="$2" 'NR > 1 && $5 ~ re { print $5 }' "$tmp/$1.groups" | sort -u
}

# header_block SCENARIO KEY: a field of the scenario's header (title,
# Measures, Headline, Thread, Compare), from the one reader of scenarios
header_block() {
	local f
	f=$(scn_file "$1")
	[ -f "$f" ] || return 0
	"$RL_HOST_TOOLS/rl-scenario-info" --field "$2" "$f" 2>/dev/null || true
}

scenario_title() {
	local t
	t=$(header_block "$1" title)
	echo "${t:-$1}"
}

# knob_line MODE RUN...: "knob=value, ..." of the runs' knobs files
knob_line() {
	local m=$1
	shift
	local r
	for r in "$@"; do
		[ -f "$(rundir "$r")/knobs" ] && cat "$(rundir "$r")/knobs"
	done | awk -F= -v m="$m" '
		{
			if (!($1 in seen)) { order[++n] = $1; seen[$1] = 1; v[$1] = $2 }
			else if (v[$1] != $2) v[$1] = "varies"
		}
		END {
			if (!n) { print "- " m ": no knobs file"; exit }
			absent = 0
			for (i = 1; i <= n; i++) { line = line (i > 1 ? ", " : "") order[i] "=" v[order[i]]; absent += v[order[i]] == "absent" }
			if (absent == n)
				print "- " m ": " line " — **all absent: this kernel has none of these knobs, so the " m " runs ran the kernel'"'"'s default behaviour" (m != "vanilla" ? " (" m " == vanilla)" : "") "**"
			else
				print "- " m ": " line
		}'
}

# --- plots ----------------------------------------------------------------

# render NAME WIDTH HEIGHT SCRIPT: plots/NAME.svg and .png from a gnuplot
# script without terminal and output
render() {
	local name=$1 w=$2 h=$3 script=$4
	[ "$have_gnuplot" = 1 ] || return 1
	(
		cd "$newplots"
		{
			echo "set terminal svg size $w,$h dynamic noenhanced font 'Sans,11' background rgb 'white'"
			echo "set output '$name.svg'"
			cat "$script"
		} | gnuplot 2>>"$tmp/gnuplot.err" &&
			{
				echo "set terminal $png_term size $w,$h noenhanced font 'Sans,10'"
				echo "set output '$name.png'"
				cat "$script"
			} | gnuplot 2>>"$tmp/gnuplot.err"
	) || true
	if [ ! -s "$newplots/$name.svg" ] || [ ! -s "$newplots/$name.png" ]; then
		note "gnuplot failed for $name: $(tail -2 "$tmp/gnuplot.err" | tr '\n' ' ')"
		rm -f "$newplots/$name.svg" "$newplots/$name.png"
		return 1
	fi
}

fs_color() { # FS: a fixed colour index, the same in every plot
	local i=1 f
	for f in $all_fs; do
		[ "$f" = "$1" ] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo 8
}

# plot_hist SCENARIO MODE: usec_delayed histogram, one bar per fs and bucket
plot_hist() {
	local s=$1 m=$2 f r data=$tmp/hist.$1.$2 cols=0 script=$tmp/hist.$1.$2.gp
	: >"$data.cols"
	for f in $all_fs; do
		files=()
		for r in $(ok_runs "$s" "$f" "$m"); do
			[ -s "$(rundir "$r")/$RL_DERIVED/waits-hist.tsv" ] && files+=("$(rundir "$r")/$RL_DERIVED/waits-hist.tsv")
		done
		[ ${#files[@]} -gt 0 ] || continue
		awk -F'\t' -v f="$f" '
			FNR == 1 { next }
			{ k = FNR - 1; lab[k] = ($2 == "inf") ? $1 "+" : $1 "-" $2; c[k] += $3; t += $3; nk = k > nk ? k : nk }
			END { if (!t) exit; print f " (" t " waits, " runs " runs)"; for (k = 1; k <= nk; k++) print lab[k] "\t" c[k] / t }' \
			runs="${#files[@]}" "${files[@]}" >"$data.$f"
		[ -s "$data.$f" ] || continue
		cols=$((cols + 1))
		echo "$f" >>"$data.cols"
	done
	[ "$cols" -gt 0 ] || return 1
	# one table: bucket, then a fraction column per fs
	{
		mapfile -t colfiles < <(sed "s|^|$data.|" "$data.cols")
		printf 'bucket'
		head -qn1 "${colfiles[@]}" | while IFS= read -r title; do printf '\t%s' "$title"; done
		printf '\n'
		paste "${colfiles[@]}" |
			awk -F'\t' 'NR > 1 { printf "%s", $1; for (i = 2; i <= NF; i += 2) printf "\t%s", $i; printf "\n" }'
	} >"$data"
	{
		echo "set title '$s, $m: reclaim wait durations (usec_delayed), share of waits per bucket'"
		echo "set xlabel 'wait duration, ms'"
		echo "set ylabel 'share of waits'"
		echo "set yrange [0:*]"
		echo "set datafile separator tab"
		echo "set style data histograms"
		echo "set style histogram clustered gap 1"
		echo "set style fill solid 0.8 border -1"
		echo "set key top left"
		echo "set grid ytics"
		printf 'plot '
		local i=2 sep=""
		while read -r f; do
			printf "%s'%s' using %d:xtic(1) title columnheader(%d) lc %d" "$sep" "$data" "$i" "$i" "$(fs_color "$f")"
			sep=", "
			i=$((i + 1))
		done <"$data.cols"
		printf '\n'
	} >"$script"
	render "$s.$m.hist" 900 450 "$script"
}

# plot_cdf SCENARIO MODE: CDF of usec_delayed over all ok runs, per fs.
# Each run's waits-cdf.tsv steps times its waits.events give its samples.
plot_cdf() {
	local s=$1 m=$2 f r n nw script=$tmp/cdf.$1.$2.gp plots=""
	for f in $all_fs; do
		: >"$tmp/cdf.$s.$m.$f.samples"
		for r in $(ok_runs "$s" "$f" "$m"); do
			n=$(run_metric "$r" waits.events)
			if [ -z "$n" ] || [ ! -s "$(rundir "$r")/$RL_DERIVED/waits-cdf.tsv" ]; then continue; fi
			awk -F'\t' -v n="$n" 'FNR > 1 { c = int(($2 - p) * n + 0.5); p = $2; if (c > 0) print $1 "\t" c }' \
				"$(rundir "$r")/$RL_DERIVED/waits-cdf.tsv" >>"$tmp/cdf.$s.$m.$f.samples"
		done
		[ -s "$tmp/cdf.$s.$m.$f.samples" ] || continue
		sort -n "$tmp/cdf.$s.$m.$f.samples" | awk -F'\t' '
			{ if ($1 != last && NR > 1) { u[++k] = last; c[k] = cum } cum += $2; last = $1 }
			END { u[++k] = last; c[k] = cum; print 0 "\t" 0; for (i = 1; i <= k; i++) print u[i] / 1000 "\t" c[i] / cum }' \
			>"$tmp/cdf.$s.$m.$f"
		nw=$(awk -F'\t' '{ t += $2 } END { print t + 0 }' "$tmp/cdf.$s.$m.$f.samples")
		plots="$plots${plots:+, }'$tmp/cdf.$s.$m.$f' using 1:2 with steps lw 2 lc $(fs_color "$f") title '$f ($nw waits)'"
	done
	[ -n "$plots" ] || return 1
	{
		echo "set title '$s, $m: CDF of reclaim wait durations (usec_delayed), all ok runs'"
		echo "set xlabel 'wait duration, ms'"
		echo "set ylabel 'share of waits at most this long'"
		echo "set yrange [0:1.02]"
		echo "set xrange [0:*]"
		echo "set key bottom right"
		echo "set grid"
		echo "plot $plots"
	} >"$script"
	render "$s.$m.cdf" 900 450 "$script"
}

# plot_throughput SCENARIO MODE: MB/s of every writer over time, a panel
# per fs; repeats are dashed differently
plot_throughput() {
	local s=$1 m=$2 f r p w data nfs=0 script=$tmp/tp.$1.$2.gp panels=$tmp/tp.$1.$2.panels
	: >"$panels"
	for f in $all_fs; do
		local plots="" wi=0
		for w in $(for r in $(ok_runs "$s" "$f" "$m"); do ls "$(rundir "$r")"; done | sed -n 's/\.progress$//p' | sort -u); do
			wi=$((wi + 1))
			for r in $(ok_runs "$s" "$f" "$m"); do
				p=$(rundir "$r")/$w.progress
				[ -s "$p" ] || continue
				data=$tmp/tp.$r.$w
				# (t_prev, MB/s over [t_prev, t]) drawn as steps, from (0, 0)
				awk -F'\t' 'NF >= 2 && $1 > t + 0 { printf "%.3f\t%.3f\n", t, ($2 - b) / ($1 - t) / 1e6; t = $1; b = $2 }
					END { if (t > 0) printf "%.3f\t0\n", t }' "$p" >"$data"
				[ -s "$data" ] || continue
				plots="$plots${plots:+, }'$data' using 1:2 with steps lw 2 lc $wi dt ${r##*.r} title '$w ${r##*.}'"
			done
		done
		[ -n "$plots" ] || continue
		nfs=$((nfs + 1))
		{
			echo "set title '$f'"
			echo "plot $plots"
		} >>"$panels"
	done
	[ "$nfs" -gt 0 ] || return 1
	local rows=$(((nfs + 1) / 2)) cols=2
	[ "$nfs" -gt 1 ] || cols=1
	{
		echo "set multiplot layout $rows,$cols title '$s, $m: writer throughput over time (MB/s; r1 solid, r2 dashed, ...)'"
		echo "set xlabel 'seconds since the writer started'"
		echo "set ylabel 'MB/s'"
		echo "set yrange [0:*]"
		echo "set offsets 0, 0, graph 0.1, 0"
		echo "set key outside below horizontal"
		echo "set grid"
		cat "$panels"
		echo "unset multiplot"
	} >"$script"
	render "$s.$m.throughput" 1000 $((320 * rows + 40)) "$script"
}

# plot_waits SCENARIO MODE: reclaim waits per second and stalled ms per
# second over the workload, mean over the ok runs, a line per fs (each
# run's derived/waits-series.tsv, 0.1 s bins, summed into the plot's bins)
plot_waits() {
	local s=$1 m=$2 f r d bin=0.1 maxdur script=$tmp/waits.$1.$2.gp p1="" p2=""
	maxdur=$(for f in $all_fs; do for r in $(ok_runs "$s" "$f" "$m"); do
		[ -f "$(rundir "$r")/workload-seconds" ] && awk '{ print $2 - $1 }' "$(rundir "$r")/workload-seconds"
	done; done | sort -n | tail -1)
	[ -n "$maxdur" ] || return 1
	bin=$(awk -v d="$maxdur" 'BEGIN { print d <= 10 ? 0.1 : d <= 300 ? 1 : 10 }')
	for f in $all_fs; do
		: >"$tmp/waits.$s.$m.$f.raw"
		local nr=0
		for r in $(ok_runs "$s" "$f" "$m"); do
			d=$(rundir "$r")/$RL_DERIVED
			[ -f "$d/waits-series.tsv" ] || continue
			nr=$((nr + 1))
			awk -F'\t' -v bin="$bin" 'NR > 1 { print int($1 / bin + 1e-6) "\t" $2 "\t" $3 }' \
				"$d/waits-series.tsv" >>"$tmp/waits.$s.$m.$f.raw"
		done
		[ "$nr" -gt 0 ] || continue
		awk -F'\t' -v nr="$nr" -v bin="$bin" '
			{ c[$1] += $2; u[$1] += $3; if ($1 > max) max = $1 }
			END {
				for (b = 0; b <= max; b++) printf "%.2f\t%.2f\t%.2f\n", b * bin, c[b] / nr / bin, u[b] / 1000 / nr / bin
				printf "%.2f\t0\t0\n", (max + 1) * bin	# closes the last bin
			}' \
			"$tmp/waits.$s.$m.$f.raw" >"$tmp/waits.$s.$m.$f"
		p1="$p1${p1:+, }'$tmp/waits.$s.$m.$f' using 1:2 with steps lw 2 lc $(fs_color "$f") title '$f'"
		p2="$p2${p2:+, }'$tmp/waits.$s.$m.$f' using 1:3 with steps lw 2 lc $(fs_color "$f") title '$f'"
	done
	[ -n "$p1" ] || return 1
	{
		echo "set multiplot layout 2,1 title '$s, $m: reclaim waits over the workload (mean of the ok runs, ${bin} s bins)'"
		echo "set xlabel 'seconds since the workload started'"
		echo "set key top right"
		echo "set grid"
		echo "set yrange [0:*]"
		echo "set offsets 0, 0, graph 0.1, 0"
		echo "set ylabel 'waits per second'"
		echo "plot $p1"
		echo "set ylabel 'stalled ms per second'"
		echo "plot $p2"
		echo "unset multiplot"
	} >"$script"
	render "$s.$m.waits" 900 640 "$script"
}

# --- the report -----------------------------------------------------------

count_status() { cut -f6 "$tmp/runs.tsv" | sort | uniq -c | sort -k1,1nr -k2 | awk '{ printf "%s%d %s", (NR > 1 ? ", " : ""), $1, $2 }'; }
nruns=$(wc -l <"$tmp/runs.tsv")
nok=$(awk -F'\t' '$6 == "ok"' "$tmp/runs.tsv" | wc -l)
kernels=$(for d in "${rundirs[@]}"; do [ -f "$d/kernel-release" ] && cat "$d/kernel-release"; done | sort -u | paste -sd, - | sed 's/,/, /g')
started=$(for d in "${rundirs[@]}"; do [ -f "$d/run.conf" ] && sed -n 's/^started=//p' "$d/run.conf"; done | sort)
first_start=$(echo "$started" | head -1)
last_start=$(echo "$started" | tail -1)
interrupted=$(find "$matrix/runs" -mindepth 1 -maxdepth 1 -name '*.interrupted.*' 2>/dev/null | wc -l)

all_absent_modes=""
for m in $all_modes; do
	k=$(awk -F'\t' -v m="$m" '$4 == m { print $1 }' "$tmp/runs.tsv" | while read -r r; do
		[ ! -f "$(rundir "$r")/knobs" ] || cat "$(rundir "$r")/knobs"
	done | sort -u)
	[ -n "$k" ] && ! echo "$k" | grep -qv '=absent$' && all_absent_modes="$all_absent_modes $m"
done
all_absent_modes=${all_absent_modes# }

{
	echo "# reclaimlab report: ${matrix##*/}"
	echo
	echo "- Kernel: ${kernels:-unknown}"
	if [ "$first_start" = "$last_start" ]; then
		echo "- Runs started: ${first_start:-unknown}"
	else
		echo "- Runs started: $first_start to $last_start"
	fi
	echo "- Matrix: scenarios $(words "$scenarios"); filesystems $(words "$all_fs"); modes $(words "$all_modes");" \
		"repeat $(conf repeat | sed 's/^$/?/'); profile $(conf profile | sed "s/^\$/each scenario's own/");" \
		"memory $(conf mem | sed "s/^\$/each scenario's own/"); timeout $(conf timeout | sed "s/^\$/each scenario's own/");" \
		"--set $(conf sets | sed 's/^$/none/')"
	echo "- Guest clock: $(conf clock | sed 's/^$/basic (not recorded: a matrix from before the clock option)/') (scripts/run.sh --help, --time-travel)"
	stalled=$(for st in "$matrix"/runs/*/status; do
		[ -f "$st" ] || continue
		n=$(sed -n 's/^clock_stalled_ticks=\([1-9][0-9]\{0,17\}\)$/\1/p' "$st")
		[ -z "$n" ] || printf '%s (%s ticks), ' "$(basename "$(dirname "$st")")" "$n"
	done | sed 's/, $//')
	[ -z "$stalled" ] || echo "- Clock stalls: the cpu clock of $stalled stalled and was moved with host time, 10 ms per 10 ms tick: those runs are not a function of their inputs alone"
	echo "- Runs: $nruns ($(count_status))$([ "$interrupted" = 0 ] || echo "; $interrupted interrupted attempts that a resume redid are not counted")"
	[ -z "$malformed_note" ] || echo "- Summary rows: $malformed_note"
	echo "- Regenerate with \`scripts/report.sh THIS-FOLDER\` or \`make report RESULTS=THIS-FOLDER\`: it reads the saved run folders only."
	echo
	if [ -n "$all_absent_modes" ]; then
		if [ "$all_absent_modes" = "$(words "$all_modes")" ]; then
			echo "> **Every knob is absent** in every mode ($all_absent_modes): this kernel has none of the patched knobs, so all runs ran the same kernel behaviour. **patched == vanilla**: any difference between the modes is run-to-run noise."
		else
			echo "> **Knobs absent** in mode(s) $all_absent_modes: those runs ran the kernel's default behaviour, the same as vanilla."
		fi
		echo
	fi

	echo "## Checks at a glance"
	echo
	echo "| scenario | reproduced | not reproduced | not measured |"
	echo "|---|---|---|---|"
	for s in $scenarios; do
		awk -F'\t' -v s="$s" '{ c[$4]++ } END { printf "| %s | %d | %d | %d |\n", s, c["reproduced"], c["not reproduced"], c["not measured"] }' "$tmp/$s.checks"
	done
	echo

	if [ "$nok" != "$nruns" ]; then
		echo "## Runs not ok (left out of every table and plot)"
		echo
		echo "| run | status | details |"
		echo "|---|---|---|"
		awk -F'\t' '$6 != "ok" { print $1 "\t" $6 }' "$tmp/runs.tsv" | while IFS=$'\t' read -r r st; do
			details=$(sed -n '2,$p' "$(rundir "$r")/status" | grep -E '^(exit_status|oom_kills|splats|splat_kinds|simulated_seconds)=' | paste -sd' ' -)
			err=""
			[ -s "$matrix/$r.err" ] && err=$(tail -1 "$matrix/$r.err" | sed 's/^reclaimlab: //; s#;[^;]*/[^ ;]*$##')
			[ "$st" != ok-but-unsummarized ] || err="no summary.tsv: run scripts/summarize-run.sh on it"
			echo "| $r | $st | ${details:--}${err:+; $err} |"
		done
		echo
	fi

	for s in $scenarios; do
		echo "## $(scenario_title "$s")"
		echo
		[ -f "$(scn_file "$s")" ] || echo "(no rootfs/scenarios/$s.scn: no description and no checks)"
		for key in Measures Headline; do
			text=$(header_block "$s" "$key")
			[ -z "$text" ] || echo "**$key:** $text"
			[ -z "$text" ] || echo
		done

		# setup, from the first run of the scenario
		first=$(awk -F'\t' -v s="$s" '$2 == s { print $1; exit }' "$tmp/runs.tsv")
		d=$(rundir "$first")
		mem=$(conf_value "$d/run.conf" mem)
		tmo=$(conf_value "$d/run.conf" timeout)
		prof=$(conf_value "$d/run.conf" profile)
		model=$(conf_value "$d/run.conf" profile_values)
		model=${model#name=*,}
		model=${model//,/ }
		echo "**Setup:** guest memory ${mem:-?}, timeout ${tmo:-?} s; device profile **${prof:-?}**" \
			"(${model:-?}; bandwidths in kB/s, times in µs)."
		echo
		sets=" $(conf sets) "
		params=$(grep -v '^SCN_' "$d/params" 2>/dev/null | while IFS= read -r kv; do
			case "$sets" in *" $kv "*) echo "$kv (--set)" ;; *) echo "$kv" ;; esac
		done | paste -sd',' - | sed 's/,/, /g')
		echo "**Parameters:** ${params:-none recorded}"
		echo
		echo "**Knobs:**"
		echo
		for m in $all_modes; do
			mapfile -t mode_runs < <(awk -F'\t' -v s="$s" -v m="$m" '$2 == s && $4 == m { print $1 }' "$tmp/runs.tsv")
			[ ${#mode_runs[@]} = 0 ] || knob_line "$m" "${mode_runs[@]}"
		done
		echo

		echo "### Checks"
		echo
		text=$(header_block "$s" Thread)
		[ -z "$text" ] || echo "**Thread's figures:** $text"
		echo
		text=$(header_block "$s" Compare)
		[ -z "$text" ] || echo "**Expected:** $text"
		echo
		if [ -s "$tmp/$s.checks" ]; then
			echo "| verdict | check | where | measured (median, runs, spread) |"
			echo "|---|---|---|---|"
			awk -F'\t' "$AWK_FMT"'
				function side(med, n, sp) {
					if (n == "-") return fmt(med)
					if (n == 0) return "no data"
					return fmt(med) " (n=" n ", spread " fmt(sp) ")"
				}
				{
					m = side($5, $6, $7) " " $8 " " side($9, $10, $11)
					if ($12 != "-") m = m "; " $12
					printf "| %s | `%s` | %s | %s |\n", $4, $2, $3, m
				}' "$tmp/$s.checks"
		else
			echo "No checks: the scenario file has no \`# Check:\` lines."
		fi
		echo

		echo "### Reclaim waits"
		echo
		echo "Median over the ok runs (min–max when they differ); n.s.: the difference to $ref_mode is not significant (smaller than either spread)."
		echo
		# shellcheck disable=SC2046
		waits_metrics=$( { printf '%s\n' waits.events waits.p50_usec waits.p90_usec waits.full_timeout_share waits.stalled_ms_per_s
			metrics_like "$s" '^waits\.task\..*\.(events|full_timeout_share)$'
			cut -f2 "$tmp/$s.checks" | awk '{ print $1 }' | grep '^waits\.' ; } | awk '!seen[$0]++' )
		# shellcheck disable=SC2086
		metric_table "$s" $waits_metrics
		echo

		echo "### Workload"
		echo
		# shellcheck disable=SC2046
		work_metrics=$( { metrics_like "$s" '^tool\..*\.mbps$' | grep -v '^tool\.verify\.'
			echo workload.oom_kills
			metrics_like "$s" '^tool\..*\.bad_chunks$'
			echo run.simulated_seconds
			cut -f2 "$tmp/$s.checks" | awk '{ print $1 }' | grep -v '^waits\.' ; } | awk '!seen[$0]++' )
		# shellcheck disable=SC2086
		metric_table "$s" $work_metrics
		echo

		devs=$(metrics_like "$s" '^iostat\..*\.util_mean$' | sed 's/^iostat\.//; s/\.util_mean$//')
		if [ -n "$devs" ]; then
			echo "### iostat (means over the workload)"
			echo
			for dev in $devs; do
				[ "$(echo "$devs" | wc -l)" = 1 ] || { echo "Device $dev:"; echo; }
				# no complete sampling interval: iostat measured nothing
				if ! awk -F'\t' -v m="iostat.$dev.intervals" '$5 == m && $9 > 0 { found = 1 } END { exit !found }' "$tmp/$s.groups"; then
					echo "No complete iostat interval in any run (the workloads were shorter than the sampling interval)."
					echo
					continue
				fi
				metric_table "$s" "iostat.$dev.avgrq_sz_mean" "iostat.$dev.avgqu_sz_mean" \
					"iostat.$dev.await_mean" "iostat.$dev.util_mean" "iostat.$dev.written_mb" |
					sed "1s/iostat\.$dev\.avgrq_sz_mean/avgrq-sz (sectors)/; 1s/iostat\.$dev\.avgqu_sz_mean/avgqu-sz/;
						1s/iostat\.$dev\.await_mean/await (ms)/; 1s/iostat\.$dev\.util_mean/%util/; 1s/iostat\.$dev\.written_mb/written MB/"
				echo
			done
		fi

		echo "### Counters"
		echo
		echo "Median over the ok runs of the debugfs counters after the workload, as \`grep -r . /debug/vm\` shows them; counters that are 0 in every run are left out."
		echo
		cells=()
		for f in $all_fs; do for m in $all_modes; do
			[ -z "$(ok_runs "$s" "$f" "$m")" ] || cells+=("$f/$m")
		done; done
		nonzero=$(awk -F'\t' 'NR > 1 && $5 ~ /^counter\./ && ($8 != 0 || $9 != 0) { print $5 }' "$tmp/$s.groups" | sort -u)
		if [ -z "$nonzero" ] || [ ${#cells[@]} = 0 ]; then
			echo "Every counter is 0."
		else
			printf '| counter |'
			printf ' %s |' "${cells[@]}"
			printf '\n|---|'
			printf -- '---|%.0s' "${cells[@]}"
			printf '\n'
			for c in $nonzero; do
				awk -F'\t' -v c="$c" -v cells="${cells[*]}" "$AWK_FMT"'
					$5 == c { v[$2 "/" $4] = $7 }
					END {
						name = c; sub(/^counter\./, "", name)
						printf "| /debug/vm/%s |", name
						k = split(cells, cs, " ")
						for (i = 1; i <= k; i++) printf " %s |", (cs[i] in v) ? fmt(v[cs[i]]) : "-"
						printf "\n"
					}' "$tmp/$s.groups"
			done
		fi
		echo

		echo "### Plots"
		echo
		any=0
		for m in $all_modes; do
			[ -n "$(for f in $all_fs; do ok_runs "$s" "$f" "$m"; done)" ] || continue
			links=""
			for kind in hist cdf throughput waits; do
				case $kind in
				hist) label="wait-duration histogram"; plot_hist "$s" "$m" || continue ;;
				cdf) label="wait-duration CDF"; plot_cdf "$s" "$m" || continue ;;
				throughput) label="throughput over time"; plot_throughput "$s" "$m" || continue ;;
				waits) label="waits and stalled ms per second"; plot_waits "$s" "$m" || continue ;;
				esac
				links="$links${links:+ · }[$label](plots/$s.$m.$kind.svg) ([png](plots/$s.$m.$kind.png))"
			done
			any=1
			echo "- $m: ${links:-no data to plot (no reclaim waits, no progress files)}"
		done
		[ "$any" = 1 ] || echo "No ok run: nothing to plot."
		[ "$have_gnuplot" = 1 ] || echo "(gnuplot was not installed when this report was written: no plots.)"
		echo
	done
} >"$tmp/report.md"

rm -rf "$matrix/plots"
mv "$newplots" "$matrix/plots"
mv "$tmp/report.md" "$matrix/report.md"
note "wrote $matrix/report.md ($nok of $nruns runs ok; $(find "$matrix/plots" -name '*.svg' | wc -l) plots)"
