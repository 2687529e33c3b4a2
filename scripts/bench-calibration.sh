#!/bin/bash
# The lab beside a real kernel (docs/calibration.md): the same scenarios,
# mode vanilla, on the lab's 6.12 and 6.1 kernels and natively on the
# host's own kernel, seeds 1..N each, then one table per scenario and
# filesystem of what the calibration compares.  A benchmark that prints
# figures, not a test.
#
#   scripts/bench-calibration.sh [--repeat N] [--scenario LIST] [--fs LIST]
#                                [--preset NAME] [--results DIR] [--no-native]
#   scripts/bench-calibration.sh --table DIR    (no run: DIR's table again)
#
# The lab's runs go through one compare.sh matrix (DIR/lab, two guests at
# once, cpu clock); the native runs through another (DIR/native) one at a
# time, so that no guest or other native run loads the host while a native
# run measures in real time.  Native runs need root (docs/native.md);
# without it, or with --no-native, the native column is not measured.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	sed -n '7,9s/^# \{0,1\}//p' "$0"
}
repeat=5 scenarios=memcg-dd,fs-completion,fio-write filesystems=ext4,xfs,btrfs
preset='' dir='' native=1 table_only=''
while [ $# -gt 0 ]; do
	case "$1" in
	--repeat) repeat=${2:?--repeat needs N}; shift ;;
	--scenario) scenarios=${2:?--scenario needs a list}; shift ;;
	--fs) filesystems=${2:?--fs needs a list}; shift ;;
	--preset) preset=${2:?--preset needs a name}; shift ;;
	--results) dir=${2:?--results needs a folder}; shift ;;
	--no-native) native= ;;
	--table) table_only=${2:?--table needs a calibration folder}; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown option '$1'" ;;
	esac
	shift
done
case "$repeat" in '' | *[!0-9]*) die "--repeat must be a number of seeds, 1 or more, not '$repeat'" ;; esac
build_host_tools

# table DIR: for each scenario and filesystem, a row per kernel: ok runs,
# each writer's MB/s (fio: kB/s), OOM kills of each run, reclaim throttles
# by reason, avgrq-sz of the experiment disk, writeback completions' gap;
# a figure is the median (min-max) of the ok runs, "of N" when only N of
# them have it (an OOM-killed writer reports no MB/s)
table() {
	local runs=() d st
	# the runs that have ended (a matrix still running has folders without
	# a status yet)
	for d in "$1"/lab/runs/*/ "$1"/native/runs/*/; do
		st=$(run_status "$d")
		[ -n "$st" ] && [ "$st" != running ] && runs+=("$d")
	done
	[ ${#runs[@]} -gt 0 ] || die "no runs under $1/lab or $1/native"
	{
		"$RL_HOST_TOOLS/rl-aggregate" groups "${runs[@]}" | sed 's/^/G\t/'
		"$RL_HOST_TOOLS/rl-aggregate" rows "${runs[@]}" | sed 's/^/R\t/'
	} 2>/dev/null | awk -F'\t' '
	# median (min-max) of a group, or "-" when the cell lacks the metric
	# (of n runs, when fewer than the cell ok runs have the metric)
	function fig(k,   f) {
		if (!(k in med)) return "-"
		f = lo[k] == hi[k] ? med[k] : med[k] " (" lo[k] "-" hi[k] ")"
		return cnt[k] < nok ? f " of " cnt[k] : f
	}
	# the column of a cell: the mode on its kernel ("-": a matrix of one kernel)
	function on(mode, kernel) { return kernel == "-" ? mode : mode "@" kernel }
	# groups: scenario fs profile mode kernel metric n median min max spread
	$1 == "G" && NR > 1 && $2 != "scenario" {
		cell = $2 SUBSEP $3 SUBSEP on($5, $6)
		k = cell SUBSEP $7
		cnt[k] = $8; med[k] = $9; lo[k] = $10; hi[k] = $11
		cells[cell] = 1
		# the writers: rl-dd processes and fio write jobs
		if ($7 ~ /^tool\.[^.]*writer[0-9]*\.mbps$/ || $7 ~ /^fio\.[^.]*\.write\.kb_s$/)
			writers[cell] = writers[cell] " " $7
		# the experiment disk: ubda in a guest, a loop device natively
		if ($7 ~ /^iostat\.(ubda|loop[0-9]+)\.avgrq_sz_mean$/)
			disk[cell] = $7
	}
	# rows: run scenario fs profile mode kernel repeat metric value; every
	# cell, also one whose runs have no figures (all OOM-killed)
	$1 == "R" && $9 == "run.status" { c = $3 SUBSEP $4 SUBSEP on($6, $7); ran[c] = ran[c] " " $10; cells[c] = 1 }
	$1 == "R" && $9 == "workload.oom_kills" { c = $3 SUBSEP $4 SUBSEP on($6, $7); oom[c] = oom[c] "," $10 }
	END {
		n = 0
		for (c in cells) order[++n] = c
		# by scenario, filesystem, kernel
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && order[j - 1] > order[j]; j--) {
				t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
			}
		last = ""
		for (i = 1; i <= n; i++) {
			split(order[i], p, SUBSEP)
			if (p[1] SUBSEP p[2] != last) {
				printf "\n%s on %s\n", p[1], p[2]
				printf "| kernel | runs (status) | writers | OOM kills a run | throttles writeback / congested / noprogress / isolated / dirty | avgrq-sz | completion gap p50 ms |\n"
				printf "|---|---|---|---|---|---|---|\n"
				last = p[1] SUBSEP p[2]
			}
			c = order[i]
			nok = gsub(/ ok/, " ok", ran[c])
			w = ""
			nw = split(writers[c], ws, " ")
			for (j = 1; j <= nw; j++) w = w (w == "" ? "" : "; ") fig(c SUBSEP ws[j])
			th = fig(c SUBSEP "waits.reason.writeback.count") " / " fig(c SUBSEP "waits.reason.congested.count") " / " \
				fig(c SUBSEP "waits.reason.noprogress.count") " / " fig(c SUBSEP "waits.reason.isolated.count") " / " \
				fig(c SUBSEP "waits.reason.dirty.count")
			printf "| %s | %s | %s | %s | %s | %s | %s |\n", p[3], substr(ran[c], 2), (w == "" ? "-" : w),
				substr(oom[c], 2), th, (c in disk ? fig(c SUBSEP disk[c]) : "-"), fig(c SUBSEP "completion.gap_ms_p50")
		}
	}'
}

if [ -n "$table_only" ]; then
	table "$table_only"
	exit 0
fi

dir=${dir:-$RL_RESULTS/calibration-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$dir"
common=(--scenario "$scenarios" --fs "$filesystems" --modes vanilla --repeat "$repeat")
[ -z "$preset" ] || common+=(--preset "$preset")
start=$(date +%s)
"$RL_TOP/scripts/compare.sh" "${common[@]}" --kernel 6.12=lab \
	--kernel "6.1=series:$RL_TOP/kernel-patches/6.1" --results "$dir/lab" ||
	note "the lab's matrix failed; figures of the runs that finished"
lab_s=$(($(date +%s) - start))
native_s=-
if [ -z "$native" ]; then
	note "native runs left out (--no-native)"
elif [ "$(id -u)" != 0 ]; then
	note "native runs need root (docs/native.md): the native column is not measured"
else
	start=$(date +%s)
	"$RL_TOP/scripts/compare.sh" "${common[@]}" --kernel host=native --jobs 1 \
		--results "$dir/native" || note "the native matrix failed; figures of the runs that finished"
	native_s=$(($(date +%s) - start))
fi
echo "calibration in $dir: the lab's runs ${lab_s}s, the native runs ${native_s}s (wall)"
table "$dir"
