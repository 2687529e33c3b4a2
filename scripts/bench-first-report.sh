#!/bin/bash
# How long a newcomer waits for the first report: a fresh clone of this
# checkout's HEAD, an empty ccache, then what the README's main command
# does (make compare), one phase at a time, each with its wall time.
#
#   scripts/bench-first-report.sh [--reinstall-packages] [--warm-ccache] [--keep DIR]
#
#   --reinstall-packages  empty apt's archive cache and reinstall the main
#                         job's packages (scripts/deps.sh's list), so the
#                         packages phase downloads and unpacks them as on a
#                         new machine (root; without it the phase costs what
#                         is missing here, often nothing)
#   --warm-ccache         use the user's ccache instead of an empty one
#                         (a second clone's build, CI's case)
#   --keep DIR            clone into DIR and keep it (default: a temporary
#                         folder, removed at the end)
#
# Prints a line a phase (packages, source, kernel, rootfs+images, runs,
# report) and the total, with the machine's CPU model, its CPUs and its
# load average before and after, so the figures name their conditions.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

reinstall=0
warm=0
keep=""
while [ $# -gt 0 ]; do
	case "$1" in
	--reinstall-packages) reinstall=1; shift ;;
	--warm-ccache) warm=1; shift ;;
	--keep) need_arg "$@"; keep=$2; shift 2 ;;
	-h | --help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "unknown option '$1' (valid: --reinstall-packages --warm-ccache --keep DIR)" ;;
	esac
done
[ "$reinstall" = 0 ] || [ "$(id -u)" = 0 ] || die "--reinstall-packages needs root (apt-get)"

if [ -n "$keep" ]; then
	[ ! -e "$keep" ] || die "--keep '$keep' exists; give a new folder"
	clone=$keep
else
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/rl-first-report.XXXXXX")
	trap 'rm -rf "$scratch"' EXIT
	clone=$scratch/reclaimlab
fi
git clone -q "$RL_TOP" "$clone"
if [ "$warm" = 0 ]; then
	export CCACHE_DIR=$clone.ccache
	rm -rf "$CCACHE_DIR"
fi
# the clone builds into its own build/ and writes its own results/
unset RL_BUILD RL_RESULTS

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "machine: ${cpu:-unknown CPU}, $(nproc) CPUs, $(free -g | awk '/^Mem:/ { print $2 }') GiB; $(date -u +%Y-%m-%dT%H:%MZ)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "clone: $clone (HEAD $(git -C "$clone" rev-parse --short HEAD)); ccache: ${CCACHE_DIR}$([ "$warm" = 1 ] && echo ' (warm)' || echo ' (empty)')"

start=$(date +%s.%N)
phase_start=$start
# phase NAME: print the time since the last phase ended
phase() {
	local now
	now=$(date +%s.%N)
	printf '%-14s %7.1f s\n' "$1" "$(echo "$now - $phase_start" | bc)"
	phase_start=$now
}

log=$clone.log
if [ "$reinstall" = 1 ]; then
	apt-get clean
	# shellcheck disable=SC2046 # the package list is words
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --reinstall \
		$(bash "$clone/scripts/deps.sh" --list) >"$log" 2>&1 ||
		die "apt-get failed; see $log"
fi
make -s -C "$clone" deps >>"$log" 2>&1 || die "make deps failed; see $log"
phase packages
# the kernel source unpacked into its git tree and the series applied
"$clone/scripts/build-kernel.sh" --apply-only >>"$log" 2>&1 || die "the series did not apply; see $log"
phase source
make -s -C "$clone" kernel >>"$log" 2>&1 || die "the kernel build failed; see $log"
phase kernel
make -s -C "$clone" rootfs images guest-tools host-tools >>"$log" 2>&1 ||
	die "rootfs, images or tools failed; see $log"
phase rootfs+images
# make compare: the runs, then the report (compare.sh says when it turns
# to the report)
fifo=$clone.fifo
mkfifo "$fifo"
make -s -C "$clone" compare >"$fifo" 2>&1 &
compare=$!
while IFS= read -r line; do
	echo "$line" >>"$log"
	case "$line" in
	*"runs done in"*"writing the report"*) phase runs ;;
	esac
done <"$fifo"
rm -f "$fifo"
wait "$compare" || die "make compare failed; see $log"
phase report
printf '%-14s %7.1f s\n' total "$(echo "$(date +%s.%N) - $start" | bc)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
report=$(find "$clone/results" -maxdepth 2 -name report.md | head -1)
echo "report: $report"
[ -z "$report" ] || sed -n '/^## Checks at a glance/,/^## /p' "$report" | sed '$d'
