# shellcheck shell=bash disable=SC2034 # used by the scripts that source lib.sh
# Scenarios as the host sees them: read through rl-scenario-info, never
# run.  Sourced by lib.sh.

# scenario_read SCENARIO PRESET [KEY=VALUE...]: the scenario file, with
# the preset PRESET (none if empty) and the --set words KEY=VALUE applied,
# as key=value data, or rl-scenario-info's message (a line) and false.
# rl-scenario-info is the one reader of scenario files (settings, use,
# params) and the one checker of --preset and --set: each KEY=VALUE is a
# parameter of the scenario with a value of its type (a size, a count, one
# of a list, within the declared range), anything else refused with a
# message naming the value and the valid form; params= and set= hold the
# values resolved.  The file is never run on the host.
scenario_read() {
	local file=$RL_TOP/rootfs/scenarios/$1.scn out kv set_args=()
	[ -z "$2" ] || set_args+=(--preset "$2")
	shift 2
	for kv in "$@"; do
		set_args+=(--set "$kv")
	done
	[ -x "$RL_HOST_TOOLS/rl-scenario-info" ] || build_host_tools
	if ! out=$("$RL_HOST_TOOLS/rl-scenario-info" "${set_args[@]}" "$file" 2>&1); then
		printf '%s\n' "${out#rl-scenario-info: }"
		return 1
	fi
	printf '%s\n' "$out"
}

# scenario_info SCENARIO PRESET [KEY=VALUE...]: scenario_read's
# data, or a die() with its message
scenario_info() {
	local out
	out=$(scenario_read "$@") || die "$out"
	printf '%s\n' "$out"
}

# scenario_check_modes SCENARIO...: the modes the scenarios' "# Check:"
# lines name (mode=M on either side), each once, in the order first named
scenario_check_modes() {
	local s m out="" checks
	[ -x "$RL_HOST_TOOLS/rl-scenario-info" ] || build_host_tools
	for s in "$@"; do
		checks=$("$RL_HOST_TOOLS/rl-scenario-info" --checks "$RL_TOP/rootfs/scenarios/$s.scn" 2>&1) ||
			die "${checks#rl-scenario-info: }"
		while IFS= read -r m; do
			[ -z "$m" ] || word_in "$m" "$out" || out="$out $m"
		done < <(grep -oE '(^| )mode=[^ ]+' <<<"$checks" | sed 's/.*mode=//')
	done
	echo "${out# }"
}

# default_modes SCENARIO...: compare.sh's modes when --modes is not given:
# every mode the scenarios' checks name (fs-completion's and memcg-dd's
# 2012-patched and 2012-vanilla, the thread's after and before), patched
# when they name none, then vanilla, 6.12 as it is: so no check of the
# matrix is "not measured" for want of its mode
default_modes() {
	local m out
	out=$(scenario_check_modes "$@")
	[ -n "$out" ] || out=patched
	word_in vanilla "$out" || out="$out vanilla"
	echo "$out"
}

# check_preset_name NAME: die unless NAME may name a preset (whether the
# scenario has it is rl-scenario-info's to say)
check_preset_name() {
	[[ "$1" =~ ^[A-Za-z][A-Za-z0-9_-]{0,62}$ ]] ||
		die "bad --preset '$1' (valid: a name of letters, digits, _ and -, such as thread)"
}

# check_scenario_run SCENARIO MODE REPEAT: die unless run.sh's --scenario,
# --mode and --repeat-number are valid (its --set values are
# rl-scenario-info's to check, the one validator of parameters)
check_scenario_run() {
	word_in "$1" "$(rl_scenarios)" || die "unknown scenario '$1' (valid: $(rl_scenarios))"
	word_in "$2" "$RL_MODES" || die "unknown mode '$2' (valid: $RL_MODES)"
	[[ "$3" =~ ^[1-9][0-9]{0,5}$ ]] || die "bad --repeat-number '$3' (valid: 1 to 999999)"
}

# info_value DATA KEY: the value of KEY in scenario_info's key=value DATA,
# by the rule of every key=value reader (rl-conf, conf.h: the last KEY=
# line wins)
info_value() {
	[ -x "$RL_HOST_TOOLS/rl-conf" ] || build_host_tools
	"$RL_HOST_TOOLS/rl-conf" - "$2" <<<"$1"
}

# scenario_profile DATA FS: the device profile the scenario gives FS: its
# SCN_FS_PROFILE entry for FS (FS:PROFILE,...), else its SCN_PROFILE;
# empty when it gives none
scenario_profile() {
	local word
	for word in $(info_value "$1" fs_profile | tr ',' ' '); do
		[ "${word%%:*}" != "$2" ] || { echo "${word#*:}"; return 0; }
	done
	info_value "$1" profile
}

# check_scenario_fits SCENARIO DATA "FS ..." [MEM]: die unless what the
# scenario declares it writes (SCN_DISK_USE) fits each filesystem's image,
# with room for metadata, and what it allocates (SCN_MEM_USE) fits its
# guest's memory (MEM, else its own SCN_MEM) and swap.  DATA is its
# scenario_info.
check_scenario_fits() {
	local s=$1 data=$2 f need need_desc have runmem
	need=$(info_value "$data" disk_use) need_desc=$(info_value "$data" disk_use_desc)
	for f in $3; do
		{ [ -n "$need" ] && [ -f "$RL_IMAGES/$f.img" ]; } || continue
		have=$(stat -L -c %s "$RL_IMAGES/$f.img")
		# filesystem metadata and journal take their share of the image
		[ $((need + need / 10)) -le "$have" ] ||
			die "scenario $s writes $(human_size "$need") ($need_desc) but the $f image holds $(human_size "$have"); use smaller sizes (valid: at most ~$(human_size $((have * 10 / 11))) in all)"
	done
	runmem=${4:-$(info_value "$data" mem)}
	runmem=${runmem:-512M}
	[ -n "$4" ] || RL_MEM_SOURCE="SCN_MEM of scenario $s" check_guest_mem "$runmem"
	need=$(info_value "$data" mem_use) need_desc=$(info_value "$data" mem_use_desc)
	[ -n "$need" ] || return 0
	have=$(size_bytes "$runmem")
	[ -z "$(info_value "$data" swap)" ] ||
		have=$((have + $(stat -L -c %s "$RL_IMAGES/swap.img" 2>/dev/null || echo 0)))
	[ "$need" -lt "$have" ] ||
		die "scenario $s allocates $(human_size "$need") ($need_desc) but its guest has $(human_size "$have") of memory and swap; use a smaller size or a larger --mem"
}

# scenario_env FS MODE "KEY=VALUE ...": job.env's lines of a scenario's
# run: the filesystem under test, MODE's knobs and every parameter,
# resolved, as scenario_info's params gives them (types checked by
# rl-scenario-info; sizes, counts and words of the scenario file, so single
# quotes hold them).  The guest's rl-scenario takes them as they are.
scenario_env() {
	echo "export RL_FS=$1 RL_KNOBS='$(mode_knobs "$2")' RL_SET='$3'"
}

# scenario_conf FS:PROFILE MODE REPEAT DATA: run.conf's lines of what a
# scenario's run is: its disk, mode, repeat and, from its scenario_info
# DATA, its parameters (all, resolved) and the --set ones.  The kernel of
# a matrix of kernels is its own key (kernel_name=, write_run_conf), so
# the record, the statistics and the report tell the kernels apart.
scenario_conf() {
	echo "fs=${1%%:*}"
	echo "profile=${1#*:}"
	echo "profile_values=$(disk_model "${1#*:}")"
	echo "mode=$2"
	echo "knobs=$(mode_knobs "$2")"
	echo "repeat=$3"
	echo "preset=$(info_value "$4" preset)"
	echo "params=$(info_value "$4" params)"
	echo "sets=$(info_value "$4" set)"
}

# rl_scenarios: the names of the scenarios, space-separated
rl_scenarios() {
	local f
	for f in "$RL_TOP"/rootfs/scenarios/*.scn; do
		f=$(basename "$f" .scn)
		# a file named x.y.scn or a;b.scn is no scenario: its name could
		# not be a run name's part or a shell word
		[[ "$f" =~ ^[a-z][a-z0-9-]{0,62}$ ]] && echo "$f"
	done | tr '\n' ' ' | sed 's/ $//'
}
