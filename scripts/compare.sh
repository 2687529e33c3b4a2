#!/bin/bash
# Run a matrix of scenarios x filesystems x knob sets (x repeats), one UML
# guest per run, then summarize every run and write the report.
#
#   scripts/compare.sh                      the default comparison
#   scripts/compare.sh --scenario all --fs xfs --repeat 3
#   scripts/compare.sh --resume results/compare-20261130-201500
#   scripts/compare.sh --list
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<USAGE
usage: scripts/compare.sh [options]
  --scenario LIST   comma-separated scenarios or 'all' (default: fs-completion,memcg-dd)
  --fs LIST         filesystems (default: ext4,xfs,vfat,btrfs)
  --modes LIST      knob sets (default: patched,vanilla)
  --profile NAME    device profile for every run (default: each scenario's own)
  --mem SIZE        guest memory (default: each scenario's own)
  --set KEY=VALUE   override a scenario parameter; repeatable
  --repeat N        runs of each combination (default: 1)
  --jobs N          guests at once (default: number of CPUs)
  --timeout SECONDS watchdog per run (default: each scenario's own)
  --clock MODE      guest clock: $RL_CLOCKS (default: $RL_DEFAULT_CLOCK;
                    see scripts/run.sh --help, --time-travel)
  --results DIR     matrix folder (default: results/compare-<time>)
  --resume DIR      finish an interrupted matrix without redoing finished runs
  --list            print the valid scenarios, filesystems, profiles, knob sets
USAGE
}

list_choices() {
	echo "scenarios:   $(rl_scenarios)"
	echo "filesystems: $RL_FILESYSTEMS"
	echo "profiles:    $RL_PROFILES (add ,key=value for one of: $RL_PROFILE_KEYS)"
	echo "knob sets:"
	local k
	for k in $RL_KNOB_SETS; do
		printf '  %-8s %s\n' "$k" "$(knob_set "$k")"
	done
}

scenarios="fs-completion,memcg-dd"
filesystems="ext4,xfs,vfat,btrfs"
modes="patched,vanilla"
profile=""
mem=""
sets=""
repeat=1
jobs=$(nproc)
timeout=""
clock=$RL_DEFAULT_CLOCK
matrix=""
resume=""

matrix_opts=""
need_arg() { [ $# -ge 2 ] || die "option $1 needs a value (see --help)"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--scenario) need_arg "$@"; matrix_opts="$matrix_opts --scenario"; scenarios=$2; shift 2 ;;
	--fs) need_arg "$@"; matrix_opts="$matrix_opts --fs"; filesystems=$2; shift 2 ;;
	--modes) need_arg "$@"; matrix_opts="$matrix_opts --modes"; modes=$2; shift 2 ;;
	--profile) need_arg "$@"; matrix_opts="$matrix_opts --profile"; profile=$2; shift 2 ;;
	--mem) need_arg "$@"; matrix_opts="$matrix_opts --mem"; mem=$2; shift 2 ;;
	--set) need_arg "$@"; matrix_opts="$matrix_opts --set"; sets="$sets $2"; shift 2 ;;
	--repeat) need_arg "$@"; matrix_opts="$matrix_opts --repeat"; repeat=$2; shift 2 ;;
	--jobs) need_arg "$@"; jobs=$2; shift 2 ;;
	--timeout) need_arg "$@"; matrix_opts="$matrix_opts --timeout"; timeout=$2; shift 2 ;;
	--clock) need_arg "$@"; matrix_opts="$matrix_opts --clock"; clock=$2; shift 2 ;;
	--results) need_arg "$@"; matrix_opts="$matrix_opts --results"; matrix=$2; shift 2 ;;
	--resume) need_arg "$@"; resume=$2; shift 2 ;;
	--list) list_choices; exit 0 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown option '$1' (valid: --scenario --fs --modes --profile --mem --set --repeat --jobs --timeout --clock --results --resume --list --help)" ;;
	esac
done

if [ -n "$resume" ]; then
	[ -f "$resume/matrix.conf" ] || die "'$resume' is not a matrix folder (no matrix.conf)"
	[ -z "$matrix_opts" ] ||
		die "--resume continues the matrix as $resume/matrix.conf describes it; drop${matrix_opts} (only --jobs may change)"
	matrix=$resume
	# Read as data and validated below like options given on the command
	# line: the file is text anyone with the folder could have edited.
	conf=$matrix/matrix.conf
	scenarios=$(conf_value "$conf" scenarios)
	filesystems=$(conf_value "$conf" filesystems)
	modes=$(conf_value "$conf" modes)
	profile=$(conf_value "$conf" profile)
	mem=$(conf_value "$conf" mem)
	sets=$(conf_value "$conf" sets)
	repeat=$(conf_value "$conf" repeat)
	timeout=$(conf_value "$conf" timeout)
	# matrices from before the clock option ran on the basic clock
	clock=$(conf_value "$conf" clock)
	clock=${clock:-basic}
fi

# --- validate everything before anything starts ---
[ "$scenarios" = all ] && scenarios=$(rl_scenarios | tr ' ' ',')
scenarios=${scenarios//,/ }
filesystems=${filesystems//,/ }
modes=${modes//,/ }
[ -n "${scenarios// /}" ] || die "no scenario given (valid: $(rl_scenarios) all)"
[ -n "${filesystems// /}" ] || die "no filesystem given (valid: $RL_FILESYSTEMS)"
[ -n "${modes// /}" ] || die "no knob set given (valid: $RL_KNOB_SETS)"
for s in $scenarios; do
	word_in "$s" "$(rl_scenarios)" || die "unknown scenario '$s' (valid: $(rl_scenarios) all)"
done
for f in $filesystems; do
	word_in "$f" "$RL_FILESYSTEMS" || die "unknown filesystem '$f' (valid: $RL_FILESYSTEMS)"
done
for m in $modes; do
	word_in "$m" "$RL_KNOB_SETS" || die "unknown knob set '$m' (valid: $RL_KNOB_SETS)"
done
[ -z "$profile" ] || disk_model "$profile" >/dev/null
[ -z "$mem" ] || check_guest_mem "$mem"
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || die "bad --repeat '$repeat' (use a positive number)"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "bad --jobs '$jobs' (use a positive number)"
[ -z "$timeout" ] || [[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "bad --timeout '$timeout' (use seconds)"
word_in "$clock" "$RL_CLOCKS" || die "unknown clock '$clock' (valid: $RL_CLOCKS)"
for kv in $sets; do
	[[ "$kv" =~ ^[A-Z_][A-Z0-9_]*= ]] || die "bad --set '$kv' (use KEY=VALUE)"
	case "${kv%%=*}" in
	SCN_*) die "bad --set '$kv': ${kv%%=*} is a scenario setting, not a parameter (use --mem, --profile or --timeout)" ;;
	esac
	[[ "${kv#*=}" =~ ^[$RL_SET_VALUE_CHARS]+$ ]] ||
		die "bad value '${kv#*=}' in --set '$kv' (valid: letters, digits and . _ : + , / -)"
	for s in $scenarios; do
		grep -q "^${kv%%=*}=" "$RL_TOP/rootfs/scenarios/$s.scn" ||
			die "scenario $s has no parameter '${kv%%=*}' (valid: $(sed -n 's/^\([A-Z][A-Z0-9_]*\)=.*/\1/p' "$RL_TOP/rootfs/scenarios/$s.scn" | tr '\n' ' '))"
	done
done
[ -x "$RL_KERNEL" ] || die "kernel $RL_KERNEL not found; build it with 'make'"

# scenario_param SCENARIO KEY: the --set value, else the scenario file's
scenario_param() {
	local kv v=""
	for kv in $sets; do
		[ "${kv%%=*}" != "$2" ] || v=${kv#*=}
	done
	[ -n "$v" ] || v=$(sed -n "s/^$2=//p" "$RL_TOP/rootfs/scenarios/$1.scn" | tail -1 | tr -d "\"'")
	echo "$v"
}

# scenario_need SCENARIO DISK_USE|MEM_USE: sets need (bytes) and need_desc
# from the scenario's SCN_* expression over its parameters; need is empty
# if the scenario declares none.
scenario_need() {
	local expr name val bytes params=""
	need="" need_desc=""
	expr=$(scenario_setting "$1" "$2" "")
	[ -n "$expr" ] || return 0
	# Only parameter names, digits and * + ( ) reach bash arithmetic,
	# which would otherwise run $(...) and a[...] found in the file.
	[[ "$expr" =~ ^[A-Z0-9_*+()\ ]+$ ]] ||
		die "scenario $1: bad SCN_$2 '$expr' (valid: parameter names, digits, * + ( ), e.g. WRITERS*WRITE_SIZE)"
	while read -r name; do
		val=$(scenario_param "$1" "$name")
		bytes=$(size_bytes "$val") ||
			die "scenario $1: $name='$val' is not a size or count (use e.g. 64M, 2G or 10)"
		expr=$(sed -E "s/\b$name\b/$bytes/g" <<<"$expr")
		params="$params${params:+, }$name=$val"
	done < <(grep -oE '[A-Z_][A-Z0-9_]*' <<<"$expr" | sort -u)
	need_desc=$params
	[[ "$expr" =~ ^[0-9*+()\ ]+$ ]] ||
		die "scenario $1: SCN_$2 '$(scenario_setting "$1" "$2" "")' names something that is not a size parameter"
	[[ "$(scenario_setting "$1" "$2" "")" =~ ^[A-Z_][A-Z0-9_]*$ ]] ||
		need_desc="$(scenario_setting "$1" "$2" "") with $params"
	need=$((expr))
}

# Sizes that cannot fit are refused before any guest starts.
for s in $scenarios; do
	scenario_need "$s" DISK_USE
	for f in $filesystems; do
		if [ -n "$need" ] && [ -f "$RL_IMAGES/$f.img" ]; then
			have=$(stat -c %s "$RL_IMAGES/$f.img")
			# filesystem metadata and journal take their share of the image
			[ $((need + need / 10)) -le "$have" ] ||
				die "scenario $s writes $(human_size "$need") ($need_desc) but the $f image holds $(human_size "$have"); use smaller sizes (valid: at most ~$(human_size $((have * 10 / 11))) in all)"
		fi
	done
	runmem=${mem:-$(scenario_setting "$s" MEM 512M)}
	[ -n "$mem" ] || RL_MEM_SOURCE="SCN_MEM of scenario $s" check_guest_mem "$runmem"
	scenario_need "$s" MEM_USE
	[ -n "$need" ] || continue
	have=$(size_bytes "$runmem")
	[ -z "$(scenario_setting "$s" SWAP "")" ] ||
		have=$((have + $(stat -c %s "$RL_IMAGES/swap.img" 2>/dev/null || echo 0)))
	[ "$need" -lt "$have" ] ||
		die "scenario $s allocates $(human_size "$need") ($need_desc) but its guest has $(human_size "$have") of memory and swap; use a smaller size or a larger --mem"
done
build_host_tools

[ -n "$matrix" ] || matrix=$RL_RESULTS/compare-$(date +%Y%m%d-%H%M%S)
if [ -z "$resume" ] && [ -n "$(ls -A "$matrix" 2>/dev/null)" ]; then
	die "results folder '$matrix' is not empty; results are never mixed: name a new folder, or continue a matrix with --resume $matrix"
fi
mkdir -p "$matrix/runs" 2>/dev/null || die "cannot create results folder '$matrix'"
[ -w "$matrix" ] || die "results folder '$matrix' is not writable"
if [ -z "$resume" ]; then
	# key=value lines, read back with conf_value (never sourced)
	{
		echo "scenarios=$scenarios"
		echo "filesystems=$filesystems"
		echo "modes=$modes"
		echo "profile=$profile"
		echo "mem=$mem"
		echo "sets=${sets# }"
		echo "repeat=$repeat"
		echo "timeout=$timeout"
		echo "clock=$clock"
	} >"$matrix/matrix.conf"
fi

# --- the runs ---
run_names=()
for s in $scenarios; do
	for f in $filesystems; do
		for m in $modes; do
			for r in $(seq 1 "$repeat"); do
				run_names+=("$s.$f.$m.r$r")
			done
		done
	done
done
total=${#run_names[@]}

# A finished run has a final status; anything else is redone.
finished() {
	[ -f "$1/status" ] && ! grep -qx 'running\|interrupted' <(head -1 "$1/status")
}

start_run() { # NAME
	local name=$1 s f m dir prof runmem runtimeout job
	IFS=. read -r s f m _ <<<"$name"
	dir=$matrix/runs/$name
	if [ -e "$dir" ]; then
		# keep what an interrupted attempt left, out of the way
		mv "$dir" "$dir.interrupted.$(date +%s)"
	fi
	prof=${profile:-$(scenario_setting "$s" PROFILE host)}
	runmem=${mem:-$(scenario_setting "$s" MEM 512M)}
	runtimeout=${timeout:-$(scenario_setting "$s" TIMEOUT 600)}
	job=$matrix/job.$name.sh
	scenario_job "$s" "$f" "$m" "${sets# }" >"$job"
	local swap_opt=()
	local swap
	swap=$(scenario_setting "$s" SWAP "")
	[ -z "$swap" ] || swap_opt=(--swap="$swap")
	# run.sh itself is the job, so a signal reaches it and it stops its guest
	# each guest on a host CPU of its own while there are enough
	local c=0
	while [ "$c" -lt "$(($(nproc) - 1))" ] && word_in "$c" "${cpu_of[*]}"; do
		c=$((c + 1))
	done
	# under the cpu clock a run repeats exactly for one seed: repeat r
	# uses seed r, so repeats sample the kernel's random choices
	"$RL_TOP/scripts/run.sh" --out "$dir" --time-travel="$clock" --seed "${name##*.r}" --cpu "$c" --mem "$runmem" \
		--timeout "$runtimeout" --disk "$f:$prof" "${swap_opt[@]}" \
		--job "$job" >/dev/null 2>"$matrix/$name.err" &
	running[$!]=$name
	cpu_of[$!]=$c
}

# summarize NAME: the run's summary rows
summarize() {
	local name=$1 s f m
	IFS=. read -r s f m _ <<<"$name"
	"$RL_TOP/scripts/summarize-run.sh" "$matrix/runs/$name" "$s" "$f" \
		"${profile:-$(scenario_setting "$s" PROFILE host)}" "$m" "${name##*.r}" ||
		note "could not summarize $name"
}

# Collect a run once its guest is gone: summary rows, progress line.
reap() { # PID
	local name=${running[$1]}
	unset "running[$1]" "cpu_of[$1]"
	rm -f "$matrix/job.$name.sh"
	done_count=$((done_count + 1))
	summarize "$name"
	note "finished $name: $(head -1 "$matrix/runs/$name/status" 2>/dev/null)"
}

reap_finished() {
	local pid
	wait -n || true
	for pid in "${!running[@]}"; do
		kill -0 "$pid" 2>/dev/null || reap "$pid"
	done
}

declare -A running=() cpu_of=()
on_signal() {
	trap - INT TERM
	note "stopping the running guests"
	# run.sh marks its run interrupted and kills its guest
	[ "${#running[@]}" = 0 ] || kill -TERM "${!running[@]}" 2>/dev/null || true
	wait
	note "interrupted; finished runs are kept; continue with: scripts/compare.sh --resume $matrix"
	exit 130
}
trap on_signal INT TERM HUP

begin=$(date +%s)
done_count=0
skipped=0
for name in "${run_names[@]}"; do
	if finished "$matrix/runs/$name"; then
		# finished, but its runner was killed before it summarized it
		[ -f "$matrix/runs/$name/summary.tsv" ] || summarize "$name"
		skipped=$((skipped + 1))
		done_count=$((done_count + 1))
		continue
	fi
	while [ "${#running[@]}" -ge "$jobs" ]; do
		reap_finished
	done
	elapsed=$(($(date +%s) - begin))
	ran=$((done_count - skipped))
	eta="?"
	[ "$ran" -gt 0 ] && eta="$(((total - done_count) * elapsed / ran))s"
	note "run $((done_count + ${#running[@]} + 1)) of $total: $name (elapsed ${elapsed}s, about $eta left)"
	start_run "$name"
done
while [ "${#running[@]}" -gt 0 ]; do
	reap_finished
done
note "all $total runs done in $(($(date +%s) - begin))s; writing the report"
"$RL_TOP/scripts/report.sh" "$matrix"
