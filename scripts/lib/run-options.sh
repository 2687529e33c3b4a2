# shellcheck shell=bash
# The options of scripts/run.sh, one table: run.sh's parser asks it which
# options exist and which take a value, run.sh --help is printed from it,
# gdb.sh asks it which options to pass on with their value, and a matrix's
# job line (read_job_line) may carry only the options it marks for job
# lines, each value of the kind it names.  Sourced by scripts/lib.sh after
# the catalogue (the help texts name its modes, filesystems and profiles).

RUN_OPTIONS=()
declare -A RUN_OPTION_VALUE RUN_OPTION_JOB RUN_OPTION_HELP

# run_option NAME VALUE JOB HELP...: one option.  VALUE is the placeholder
# of its value as --help shows it, '-' for a flag, or '[=WORDS]' for an
# optional value joined to it by '='.  JOB is the kind of value a job line
# may give it (check_job_value), 'flag' for a flag a job line may carry,
# '-' if no job line may carry it.  HELP: the lines of its --help text.
run_option() {
	local name=$1 value=$2 job=$3
	shift 3
	RUN_OPTIONS+=("$name")
	RUN_OPTION_VALUE[$name]=$value
	RUN_OPTION_JOB[$name]=$job
	RUN_OPTION_HELP[$name]=$(printf '%s\n' "$@")
}

run_option --scenario NAME name \
	"run scenario NAME (scripts/compare.sh --list) on the" \
	"first --disk; its settings give --mem, --timeout, that" \
	"disk's profile and the swap, unless they are given"
run_option --mode NAME name \
	"the scenario's mode: $RL_MODES (default patched)"
run_option --set KEY=VALUE set \
	"a scenario parameter, type-checked; repeatable"
run_option --preset NAME name \
	"the scenario's named parameter set (thread: the" \
	"thread's own scale), applied before any --set"
run_option --repeat-number R count \
	"which repeat of a matrix this run is (run.conf; default" \
	"1); repeat R runs with seed R unless --seed is given"
run_option --disk 'FS[:PROFILE]' disk \
	"attach FS (one of: $RL_FILESYSTEMS) through a private" \
	"copy-on-write overlay, mounted at /mnt/FS; repeatable." \
	"PROFILE is the emulated device: $RL_PROFILES" \
	"(default host), optionally with ,key=value" \
	"overrides of: $RL_PROFILE_KEYS (kB/s, us)"
run_option --swap '[=PROFILE]' - \
	"attach the swap image and enable it"
run_option --trace-dat - flag \
	"keep each trace also as trace.dat (trace-cmd extract in" \
	"the guest) for trace-cmd report and KernelShark"
run_option --blktrace - flag \
	"a scenario's disks under blktrace: DEV.blktrace.bin in" \
	"the run folder (summarized as blk.DEV.* D2C/Q2C rows;" \
	"btt -i DEV.blktrace.bin for btt's own tables)"
run_option --no-tools - - \
	"no tools disk (fio, trace-cmd, iostat, ... at /tools;" \
	"scripts/build-guest-tools.sh): busybox and rl-* only"
run_option --mem SIZE mem \
	"guest memory, e.g. 512M (default: 512M)"
run_option --timeout SECONDS count \
	"kill the guest after this long (default: 300)"
run_option --out DIR - \
	"run folder (default: results/runs/<time>-<pid>)"
run_option --time-travel "[=${RL_CLOCKS// /|}]" clock \
	"boot in UML time-travel mode: idle time is skipped;" \
	"with cpu, the guest clock charges the guest's own work" \
	"from a cost model (patch 0011) and does not depend on" \
	"the host; with inf-cpu, CPU work is free"
run_option --tt-cpu PRICES - \
	"prices of the cpu model, e.g. syscall_ns=200,fork_ns=90000" \
	"(names: $RL_TT_CPU_ITEMS)"
run_option --cpu 'N|none' - \
	"host CPU the guest runs on (default: a free one)"
run_option --seed N seed \
	"seed of the guest's random numbers under the cpu clock" \
	"(default: the repeat number): the same inputs and seed" \
	"give the same run"
run_option --append ARG - \
	"extra kernel command line argument; repeatable"
run_option --job FILE - \
	"run this shell script in the guest"
run_option --interactive - - \
	"a shell in the guest on this terminal"
run_option --kernel FILE kernel \
	"UML kernel (default: build/kernel/\$KERNEL_FLAVOR/linux)"
run_option --kernel-name NAME name \
	"the kernel's name on a matrix of kernels (compare.sh" \
	"--kernel): run.conf's kernel_name, the report's" \
	"column MODE@NAME"
run_option --native - flag \
	"run on the host's own kernel, as root, instead of a" \
	"UML guest: loop devices, a scratch memory cgroup and" \
	"a mount namespace of the run's own (docs/native.md);" \
	"mode vanilla only; exit status 77: not measured"
run_option --wrap '"CMD ARGS"' - \
	"start the kernel as CMD ARGS KERNEL ARGS..., e.g." \
	"--wrap \"gdb -batch -x cmds --args\" (see scripts/gdb.sh)"
run_option --help - - \
	"this text"

# run_option_takes_value NAME: true if NAME is an option followed by its
# value as the next word
run_option_takes_value() {
	local v=${RUN_OPTION_VALUE[$1]:--}
	[ "$v" != - ] && [ "${v#\[=}" = "$v" ]
}

# run_option_joined WORD: the option of a WORD "--NAME=VALUE" whose value
# is optional and joined by '=' (--swap=hdd, --time-travel=cpu); nothing
# for any other word
run_option_joined() {
	local name=${1%%=*}
	[ "$name" != "$1" ] || return 0
	case "${RUN_OPTION_VALUE[$name]:-}" in "[="*) echo "$name" ;; esac
}

# run_option_check WORD: die unless WORD is one of run.sh's options, alone
# or (for an option with an optional value) as --NAME=VALUE
run_option_check() {
	[ -n "${RUN_OPTION_VALUE[$1]:-}" ] || [ -n "$(run_option_joined "$1")" ] ||
		die "unknown option '$(printable "$1")' (valid: ${RUN_OPTIONS[*]})"
}

# run_options_with_value: the options that take their value as the next
# word, one line (gdb.sh passes them on with it)
run_options_with_value() {
	local o names=()
	for o in "${RUN_OPTIONS[@]}"; do
		! run_option_takes_value "$o" || names+=("$o")
	done
	echo "${names[*]}"
}

# run_options_usage: the option lines of run.sh --help, from the table
run_options_usage() {
	local o head first=1 line
	for o in "${RUN_OPTIONS[@]}"; do
		head="  $o"
		case "${RUN_OPTION_VALUE[$o]}" in
		-) ;;
		"[="*) head="$head${RUN_OPTION_VALUE[$o]}" ;;
		*) head="$head ${RUN_OPTION_VALUE[$o]}" ;;
		esac
		first=1
		while IFS= read -r line; do
			if [ "$first" = 1 ] && [ ${#head} -le 22 ]; then
				printf '%-23s%s\n' "$head" "$line"
			else
				[ "$first" = 0 ] || printf '%s\n' "$head"
				printf '%23s%s\n' "" "$line"
			fi
			first=0
		done <<<"${RUN_OPTION_HELP[$o]}"
	done
}

# run_options_for_jobs: the options a job line may carry, for messages
run_options_for_jobs() {
	local o names=()
	for o in "${RUN_OPTIONS[@]}"; do
		case "${RUN_OPTION_JOB[$o]}" in
		-) ;;
		clock) names+=("$o=CLOCK") ;;
		*) names+=("$o") ;;
		esac
	done
	echo "${names[*]}"
}
