# shellcheck shell=bash
# A comparison matrix (scripts/compare.sh): the choices it is made of, its
# folder and the names of its runs, runs/SCENARIO.FS.MODE.rN.  Sourced by
# lib.sh.

# matrix_choices: the valid scenarios, filesystems, profiles and modes,
# and each scenario's parameters (compare.sh --list)
matrix_choices() {
	echo "scenarios:   $(rl_scenarios)"
	echo "filesystems: $RL_FILESYSTEMS"
	echo "profiles:    $RL_PROFILES (add ,key=value for one of: $RL_PROFILE_KEYS)"
	echo "modes:"
	local k name value type about
	for k in $RL_MODES; do
		printf '  %-8s %s\n' "$k" "$(mode_knobs "$k")"
	done
	echo "parameters (--set KEY=VALUE), by scenario:"
	build_host_tools
	for k in $(rl_scenarios); do
		echo "  $k"
		while IFS=$'\t' read -r name value type about; do
			printf '    %-14s %-6s %-22s %s\n' "$name" "$value" "$type" "$about"
		done < <("$RL_HOST_TOOLS/rl-scenario-info" --params "$RL_TOP/rootfs/scenarios/$k.scn")
	done
}

# matrix_wait_free MATRIX SECONDS: wait, at most SECONDS, until no process
# holds MATRIX's lock (.lock: compare.sh holds it on fd 9, and every
# process it starts inherits it, so a run's last process lets it go) and
# a --resume would find the matrix free; else say which processes hold it
# and fail.  The caller has let go of its own hold.  parallel's end is
# not the runs' end: it waits for each job's process group, and a guest is
# in a session of its own (run.sh's setsid), whose processes die of
# run.sh's SIGKILL a moment after the kernel it waited for.
matrix_wait_free() {
	local fd
	exec {fd}>>"$1/.lock"
	if flock -w "$2" "$fd"; then
		exec {fd}>&-
		return 0
	fi
	exec {fd}>&-
	note "processes of the matrix's runs still hold $1 after ${2}s (pids:$(fuser "$1/.lock" 2>/dev/null | tr -s ' '))"
	return 1
}

# create_matrix_folder DIR [RESUME]: make DIR and DIR/runs, or die: DIR
# holds anything and RESUME is empty (results are never mixed), or cannot
# be written
create_matrix_folder() {
	if [ -z "${2:-}" ] && [ -n "$(ls -A "$1" 2>/dev/null)" ]; then
		die "results folder '$1' is not empty; results are never mixed: name a new folder, or continue a matrix with --resume $1"
	fi
	# a folder of another user's could hold links it planted where the
	# host writes (runs/NAME, status.tmp): checked before anything is
	# written into it
	[ ! -e "$1" ] || [ -O "$1" ] ||
		die "results folder '$1' is not yours (owner $(stat -c %U "$1" 2>/dev/null)); name a folder of your own"
	mkdir -p "$1/runs" 2>/dev/null || die "cannot create results folder '$1'"
	[ -w "$1" ] || die "results folder '$1' is not writable"
	[ -O "$1/runs" ] ||
		die "results folder '$1' has a runs folder that is not yours (owner $(stat -c %U "$1/runs" 2>/dev/null))"
}

# matrix_runs "SCENARIO ..." "FS ..." "MODE ..." REPEAT ["KERNEL ..."]: the
# matrix's runs, one a line in the order they run, each its folder's name
# and its identity: "NAME SCENARIO FS MODE KERNEL REPEAT" (KERNEL - on a
# matrix without kernels).  A name is made here alone, from the identity,
# and never taken apart: SCENARIO.FS.MODE.rN, or SCENARIO.FS.MODE@KERNEL.rN
# on a matrix of kernels; the run's run.conf holds the identity itself
matrix_runs() {
	local s f m k r
	for s in $1; do
		for f in $2; do
			for m in $3; do
				for k in ${5:-""}; do
					for r in $(seq 1 "$4"); do
						echo "$s.$f.$m${k:+@$k}.r$r $s $f $m ${k:--} $r"
					done
				done
			done
		done
	done
}

# A job list: one line per run, the run folder (MATRIX/runs/NAME, an
# absolute path) and then run.sh's options for it, separated by tabs.
# compare.sh --job-list writes one for a batch system, and compare.sh
# hands its own (MATRIX/jobs.tsv) to parallel.  A line is read as
# data: split at its tabs, its words given to run.sh, never to a shell.

# job_line DIR OPTION...: the job list's line of one run
job_line() {
	local IFS=$'\t'
	echo "$*"
}

# read_job_line LINE: set job_dir and job_opts (an array) from a job
# list's line; die unless its folder is a run folder of a matrix and its
# options are only those run.sh's table lets a job line carry
# (scripts/lib/run-options.sh: what compare.sh writes, run_options), each
# with a value of its kind.  A job list is data that anyone may have
# edited: an option such as --wrap, --job, --append or --out would run a
# program or read a file of the invoking user's, so the table keeps them
# out, and --kernel names only a kernel this lab built
# (build/kernel/FLAVOUR/linux, build/kernels/NAME/FLAVOUR/linux).  Its
# --set words and --preset go, with its --scenario, to rl-scenario-info,
# the one checker of a scenario's parameters (scenario_read), as run.sh's
# and compare.sh's do: a word it refuses is refused here with its message.
read_job_line() {
	local fields opt name kind i=1 scenario="" preset="" sets=() msg
	IFS=$'\t' read -ra fields <<<"$1"
	job_dir=${fields[0]:-}
	job_opts=("${fields[@]:1}")
	{ [[ "$job_dir" =~ ^/.+/runs/[A-Za-z0-9._+@-]+$ ]] && [ "${#job_opts[@]}" -gt 0 ]; } ||
		die "bad job line '$(printable "$1")' (valid: a matrix's run folder /.../runs/NAME, then run.sh's options, separated by tabs)"
	while [ "$i" -lt "${#fields[@]}" ]; do
		opt=${fields[$i]}
		name=$(run_option_joined "$opt")
		kind=${RUN_OPTION_JOB[${name:-$opt}]:--}
		case "$kind" in
		-) die "bad job line option '$(printable "$opt")' (valid: $(run_options_for_jobs); a job list holds only what compare.sh writes)" ;;
		clock)
			# only --time-travel=CLOCK: the bare option's clock is implied
			if [ -z "$name" ] || ! word_in "${opt#*=}" "$RL_CLOCKS"; then
				die "bad job line option '$(printable "$opt")' (valid clocks: $RL_CLOCKS)"
			fi
			i=$((i + 1)); continue ;;
		flag)
			[ -z "$name" ] || die "bad job line option '$(printable "$opt")' (valid: ${opt%%=*} alone)"
			i=$((i + 1)); continue ;;
		esac
		[ -z "$name" ] || die "bad job line option '$(printable "$opt")' (valid: ${opt%%=*} VALUE, two fields)"
		[ $((i + 1)) -lt "${#fields[@]}" ] || die "job line option $opt has no value"
		case "$opt" in
		--scenario) scenario=${fields[$((i + 1))]} ;;
		--preset) preset=${fields[$((i + 1))]} ;;
		--set) sets+=("${fields[$((i + 1))]}") ;;
		esac
		check_job_value "$opt" "$kind" "${fields[$((i + 1))]}"
		i=$((i + 2))
	done
	if [ -z "$scenario" ]; then
		[ -z "$preset" ] && [ "${#sets[@]}" = 0 ] ||
			die "bad job line: --set and --preset belong to --scenario, which it lacks (valid: a line compare.sh wrote)"
		return 0
	fi
	word_in "$scenario" "$(rl_scenarios)" ||
		die "bad job line option --scenario '$(printable "$scenario")' (valid: $(rl_scenarios))"
	msg=$(scenario_read "$scenario" "$preset" "${sets[@]}") || die "bad job line: $msg"
}

# check_job_value OPTION KIND VALUE: die unless VALUE is of the KIND that
# run.sh's table names for OPTION (run.sh checks each again, against the
# catalogue and the scenario)
check_job_value() {
	local re k b
	case "$2" in
	seed) re='^[0-9]{1,18}$' ;;
	count) re='^[1-9][0-9]{0,5}$' ;;
	name) re='^[A-Za-z0-9][A-Za-z0-9._+@-]{0,63}$' ;;
	disk) re='^[a-z0-9]+(:[a-z0-9-]+(,[a-z_]+=[0-9]{1,12})*)?$' ;;
	mem) re='^[0-9]{1,12}[KMGkmg]?$' ;;
	# a --set word: the scenario's to check (read_job_line hands it to
	# rl-scenario-info with the line's --scenario)
	set) return 0 ;;
	kernel)
		k=$(realpath -e -- "$3" 2>/dev/null) || die "job line: kernel '$(printable "$3")' not found"
		b=$(realpath -m -- "$RL_BUILD")
		{ [ "${k#"$b"/}" != "$k" ] && [[ "${k#"$b"/}" =~ ^(kernel/[a-z]+|kernels/[A-Za-z0-9._+-]+/[a-z]+)/linux$ ]]; } ||
			die "job line: kernel '$(printable "$3")' is not one this lab built (valid: $RL_BUILD/kernel/FLAVOUR/linux or $RL_BUILD/kernels/NAME/FLAVOUR/linux)"
		return 0 ;;
	*) die "run.sh's option table gives $1 the job-line kind '$2', which check_job_value does not know" ;;
	esac
	[[ "$3" =~ $re ]] || die "bad value '$(printable "$3")' of $1 in a job line (valid: $re)"
}

# summarize_run DIR: the run's summary rows, by scripts/summarize-run.sh,
# the one way a run is summarized; a run it cannot summarize is noted
summarize_run() {
	"$RL_TOP/scripts/summarize-run.sh" "$1" || note "could not summarize ${1##*/}"
}

# run_job_here DIR OPTION...: run.sh into DIR on this machine (a job of
# scripts/host-run.sh on ':', a line of scripts/run-listed.sh); true if the
# run has a final status, whatever the guest did (a hung or crashed guest
# is a result), false if it has none.  The caller summarizes it
# (summarize_run).
run_job_here() {
	local dir=$1
	shift
	set_aside_attempt "$dir"
	"$RL_TOP/scripts/run.sh" --out "$dir" "$@" </dev/null >/dev/null || true
	run_finished "$dir"
}
