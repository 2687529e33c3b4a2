#!/bin/bash
# Run a matrix of scenarios x filesystems x modes (x repeats), one UML
# guest per run, then write the report.  GNU parallel schedules the runs,
# on this machine (its login ':', --jobs at once, a guest a CPU) or over
# the hosts of --hosts; each is a job of scripts/host-run.sh, which runs
# it, brings its folder into the matrix and summarizes it.
#
#   scripts/compare.sh                      the default comparison
#   scripts/compare.sh --scenario all --fs xfs --repeat 3
#   scripts/compare.sh --kernel 6.12=lab --kernel 6.1=series:kernel-patches/6.1
#   scripts/compare.sh --resume results/compare-20261130-201500
#   scripts/compare.sh --hosts hosts.txt    the runs spread over machines
#   scripts/compare.sh --list
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<USAGE
usage: scripts/compare.sh [options]
  --scenario LIST   comma-separated scenarios or 'all' (default: fs-completion,memcg-dd)
  --fs LIST         filesystems (default: ${RL_FILESYSTEMS// /,})
  --modes LIST      modes (default: the modes the scenarios' checks name,
                    patched if they name none, then vanilla: for the
                    default scenarios 2012-patched,2012-vanilla,vanilla)
  --kernel NAME=SPEC  a kernel of the matrix; repeatable: every run on each
                    (run SCENARIO.FS.MODE@NAME.rN; the report's mode
                    MODE@NAME).  SPEC: lab (this series, as make kernel
                    builds it), series:DIR (a series folder such as
                    kernel-patches/6.1), git:REPO@REV (a kernel tree's
                    commit); each is built once into build/kernels/NAME;
                    native: the host's running kernel (run.sh --native;
                    root, mode vanilla only; docs/native.md).
                    Default: the lab's kernel alone
  --profile NAME    device profile for every run (default: each scenario's own)
  --mem SIZE        guest memory (default: each scenario's own)
  --set KEY=VALUE   override a scenario parameter; repeatable
  --preset NAME     every scenario's named parameter set (thread: the
                    thread's own scale; see --list), before any --set
  --repeat N        runs of each combination, seeds 1 to N (default: 5: a
                    count outcome, OOM kills or zero waits, needs 4 seeds
                    that agree to be decided; 5 decide it with a margin)
  --jobs N          guests at once on this machine, each pinned to a CPU
                    (default: number of CPUs)
  --timeout SECONDS watchdog per run (default: each scenario's own)
  --clock MODE      guest clock: $RL_CLOCKS (default: $RL_DEFAULT_CLOCK;
                    see scripts/run.sh --help, --time-travel)
  --trace-dat       each run keeps its traces also as trace.dat (run.sh)
  --blktrace        each run's disks under blktrace: D2C/Q2C rows (run.sh)
  --results DIR     matrix folder (default: results/compare-<time>)
  --resume DIR      finish an interrupted matrix without redoing finished runs
  --hosts FILE      spread the runs over the machines FILE names, a line
                    each: ':' (this one), HOST or USER@HOST, with N/ in
                    front for N runs at once (default: its CPUs); GNU
                    parallel schedules, a run a host fails goes to another
  --ssh COMMAND     how --hosts reaches a host (default: $RL_SSH)
  --job-list FILE   run nothing: write the matrix's runs to FILE, a line
                    each, for a batch system (scripts/run-listed.sh FILE N
                    runs line N; then --resume DIR writes the report)
  --check CHECK     exit by the verdict of CHECK over the matrix's runs, for
                    git bisect run: 0 reproduced, 1 not reproduced, 125
                    anything else (inconclusive, not enough runs or
                    variation, not measured, a run not ok, a kernel that
                    did not build, any error); CHECK as a scenario's
                    '# Check:' lines (docs/report.md), on a matrix of one
                    scenario, naming each fs and mode the matrix has
                    several of (refused before any kernel builds unless it
                    gives one verdict); give it first, so that a refused
                    option exits 125 too; with --resume DIR, DIR judged
                    again (docs/matrices.md#bisecting-a-verdict)
  --list            print the valid scenarios, filesystems, profiles, modes
USAGE
}

# --check CHECK: the script's exit status is the check's verdict.  From
# the option on, every exit that is not a verdict is 125, "undecided" (git
# bisect run skips that commit), but an interrupted matrix's 130, which
# stops a bisect as it stops the matrix.
check_text=""
check_verdict=""
check_exit() {
	local rc=$?
	trap - EXIT
	[ -z "$check_verdict" ] || exit "$check_verdict"
	[ "$rc" != 130 ] || exit 130
	note "verdict of '$check_text': undecided: compare.sh ended with status $rc before judging (the error above); exit 125"
	exit 125
}

# check_one FILE...: the check's verdict line (rl-aggregate check --one:
# aggregate-checks.c, the report's evaluation) over the runs FILE... (run
# folders, or - for rows on stdin); dies with its refusal: a check that
# does not parse, names a fs or mode no run has, or gives several verdicts
check_one() {
	local out err
	err=$(mktemp)
	if ! out=$("$RL_HOST_TOOLS/rl-aggregate" check --one --scenario "${scenarios// /}" \
		--check "$check_text" "$@" 2>"$err"); then
		out=$(sed 's/^rl-aggregate: //' "$err")
		rm -f "$err"
		case "$out" in
		"bad --check"*) die "$out; valid forms: METRIC [fs=X] [mode=Y] OP NUMBER, or METRIC [fs=X] [mode=Y] OP [METRIC] [fs=X] [mode=Y], OP one of < <= > >= == != between spaces (e.g. --check 'workload.oom_kills mode=2012-vanilla > 0'; docs/report.md#checks)" ;;
		*"names fs="* | *"names mode="*) die "--check: $out; or add it to the matrix (--fs, --modes)" ;;
		*) die "--check: $out${filesystems:+; or run the matrix on one of each (--fs, --modes, --kernel)}" ;;
		esac
	fi
	rm -f "$err"
	sed -n 2p <<<"$out"
}

# check_planned SCENARIO "FS ..." "MODE ..." "KERNEL ...": the rows of the
# matrix's runs before any ran (status planned, one repeat each), as the
# runs will have them, for check_one to count the verdicts they give
check_planned() {
	local name s f m k r
	while read -r name s f m k r; do
		printf '%s\t%s\t%s\t-\t%s\t%s\t%s\trun.status\tplanned\n' "$name" "$s" "$f" "$m" "$k" "$r"
	done < <(matrix_runs "$1" "$2" "$3" 1 "$4")
}

# check_verdict_of_matrix: judge the check over the finished matrix and
# exit by its verdict; runs not ok, or runs of one kernel built from two
# sources (a --resume after the tree moved), decide nothing
check_verdict_of_matrix() {
	local name st bad="" nbad=0 dirs=() sources line where verdict why rc
	for name in "${run_names[@]}"; do
		dirs+=("$matrix/runs/$name")
		st=$(run_status "$matrix/runs/$name")
		[ "$st" = ok ] || { nbad=$((nbad + 1)); bad="$bad${bad:+, }$name: ${st:-no status}"; }
	done
	rc=125
	if [ "$nbad" != 0 ]; then
		note "verdict of '$check_text' over $matrix: undecided: $nbad of $total runs not ok ($bad); exit $rc"
		check_verdict=$rc
		exit "$rc"
	fi
	# kernel name, then what it was built from, a line a run
	sources=$(for name in "${run_names[@]}"; do
		printf '%s\t%s %s\n' "$(conf_value "$matrix/runs/$name/run.conf" kernel_name)" \
			"$(conf_value "$matrix/runs/$name/run.conf" kernel_source)" \
			"$(conf_value "$matrix/runs/$name/run.conf" series)"
	done | sort -u | cut -f1 | uniq -d | sed 's/^$/(the lab'"'"'s)/' | tr '\n' ' ')
	if [ -n "$sources" ]; then
		note "verdict of '$check_text' over $matrix: undecided: the runs of kernel ${sources% } were built from different sources (run.conf's kernel_source and series differ); exit $rc"
		check_verdict=$rc
		exit "$rc"
	fi
	line=$(check_one "${dirs[@]}")
	IFS=$'\t' read -r _ _ where verdict _ _ _ _ _ _ _ why <<<"$line"
	case "$verdict" in
	reproduced) rc=0 ;;
	"not reproduced") rc=1 ;;
	esac
	note "verdict of '$check_text' over $matrix ($where): $verdict${why:+ ($why)}; exit $rc"
	check_verdict=$rc
	exit "$rc"
}

# The longest a stopped matrix waits for the last process of its runs
# (seconds): parallel gives each job 30 s to stop (--termseq), and a
# guest's processes, SIGKILLed by run.sh, are gone within a second or two
RL_STOP_WAIT=${RL_STOP_WAIT:-60}

scenarios="fs-completion,memcg-dd"
filesystems=${RL_FILESYSTEMS// /,}
modes="patched,vanilla"
modes_given=0
kernel_specs=""
profile=""
mem=""
sets=()
preset=""
repeat=5
jobs=$(nproc)
timeout=""
clock=$RL_DEFAULT_CLOCK
trace_dat=0
blktrace=0
matrix=""
resume=""
hosts_file=""
ssh_given=""
job_list=""
jobs_given=0

matrix_opts=""
while [ $# -gt 0 ]; do
	case "$1" in
	--scenario) need_arg "$@"; matrix_opts="$matrix_opts --scenario"; scenarios=$2; shift 2 ;;
	--fs) need_arg "$@"; matrix_opts="$matrix_opts --fs"; filesystems=$2; shift 2 ;;
	--modes) need_arg "$@"; matrix_opts="$matrix_opts --modes"; modes=$2; modes_given=1; shift 2 ;;
	--kernel) need_arg "$@"; check_kernel_word "$2"; matrix_opts="$matrix_opts --kernel"; kernel_specs="$kernel_specs $2"; shift 2 ;;
	--profile) need_arg "$@"; matrix_opts="$matrix_opts --profile"; profile=$2; shift 2 ;;
	--mem) need_arg "$@"; matrix_opts="$matrix_opts --mem"; mem=$2; shift 2 ;;
	--set) need_arg "$@"; matrix_opts="$matrix_opts --set"; sets+=("$2"); shift 2 ;;
	--preset) need_arg "$@"; matrix_opts="$matrix_opts --preset"; preset=$2; shift 2 ;;
	--repeat) need_arg "$@"; matrix_opts="$matrix_opts --repeat"; repeat=$2; shift 2 ;;
	--jobs) need_arg "$@"; jobs=$2; jobs_given=1; shift 2 ;;
	--timeout) need_arg "$@"; matrix_opts="$matrix_opts --timeout"; timeout=$2; shift 2 ;;
	--clock) need_arg "$@"; matrix_opts="$matrix_opts --clock"; clock=$2; shift 2 ;;
	--trace-dat) matrix_opts="$matrix_opts --trace-dat"; trace_dat=1; shift ;;
	--blktrace) matrix_opts="$matrix_opts --blktrace"; blktrace=1; shift ;;
	--results) need_arg "$@"; check_run_folder_path "$2"; matrix_opts="$matrix_opts --results"; matrix=$2; shift 2 ;;
	--resume) need_arg "$@"; check_run_folder_path "$2"; resume=$2; shift 2 ;;
	--hosts) need_arg "$@"; hosts_file=$2; shift 2 ;;
	--ssh) need_arg "$@"; ssh_given=$2; shift 2 ;;
	--job-list) need_arg "$@"; job_list=$2; shift 2 ;;
	--check) need_arg "$@"; check_text=$2; trap check_exit EXIT; shift 2 ;;
	--list) matrix_choices; exit 0 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown option '$1' (valid: --scenario --fs --modes --kernel --profile --mem --set --preset --repeat --jobs --timeout --clock --trace-dat --blktrace --results --resume --hosts --ssh --job-list --check --list --help)" ;;
	esac
done

if [ -n "$resume" ]; then
	[ -f "$resume/matrix.conf" ] || die "'$resume' is not a matrix folder (no matrix.conf)"
	[ -z "$matrix_opts" ] ||
		die "--resume continues the matrix as $resume/matrix.conf describes it; drop${matrix_opts} (only --jobs, --hosts, --ssh and --job-list may change)"
	matrix=$resume
	# Read as data and validated below like options given on the command
	# line: the file is text anyone with the folder could have edited.
	conf=$matrix/matrix.conf
	scenarios=$(conf_value "$conf" scenarios)
	filesystems=$(conf_value "$conf" filesystems)
	modes=$(conf_value "$conf" modes)
	kernel_specs=$(conf_value "$conf" kernels)
	profile=$(conf_value "$conf" profile)
	mem=$(conf_value "$conf" mem)
	# its words as written, checked below as --set words are
	read -ra sets <<<"$(conf_value "$conf" sets)"
	preset=$(conf_value "$conf" preset)
	repeat=$(conf_value "$conf" repeat)
	timeout=$(conf_value "$conf" timeout)
	# matrices from before the clock option ran on the basic clock
	clock=$(conf_value "$conf" clock)
	clock=${clock:-basic}
	[ "$(conf_value "$conf" trace_dat)" != 1 ] || trace_dat=1
	[ "$(conf_value "$conf" blktrace)" != 1 ] || blktrace=1
fi

# --- validate everything before anything starts ---
[ "$scenarios" = all ] && scenarios=$(rl_scenarios | tr ' ' ',')
[[ ",$scenarios," != *,all,* ]] || die "'all' stands alone in --scenario (got '$(printable "$scenarios")'; valid: all, or a list of: $(rl_scenarios))"
scenarios=${scenarios//,/ }
filesystems=${filesystems//,/ }
modes=${modes//,/ }
[ -n "${scenarios// /}" ] || die "no scenario given (valid: $(rl_scenarios) all)"
[ -n "${filesystems// /}" ] || die "no filesystem given (valid: $RL_FILESYSTEMS)"
[ -n "${modes// /}" ] || die "no mode given (valid: $RL_MODES)"
check_words scenario "$scenarios" "$(rl_scenarios)" all
check_words filesystem "$filesystems" "$RL_FILESYSTEMS"
check_words mode "$modes" "$RL_MODES"
[ -z "$profile" ] || disk_model "$profile" >/dev/null
[ -z "$mem" ] || check_guest_mem "$mem"
check_count --repeat "$repeat" 1 1000
check_count --jobs "$jobs" 1 256
check_count RL_STOP_WAIT "$RL_STOP_WAIT" 0 3600
[ -z "$timeout" ] || check_count --timeout "$timeout" 1 "$RL_MAX_TIMEOUT"
word_in "$clock" "$RL_CLOCKS" || die "unknown clock '$clock' (valid: $RL_CLOCKS)"
if [ -n "$hosts_file" ]; then
	[ -z "$job_list" ] || die "give --hosts or --job-list, not both"
	[ "$jobs_given" = 0 ] || die "--jobs counts guests on this machine; with --hosts give each host's runs at once in its line (N/HOST)"
	host_entries=$(read_hosts "$hosts_file") || exit 1
	RL_SSH=${ssh_given:-$RL_SSH}
	check_ssh_command "$RL_SSH"
	export RL_SSH
else
	[ -z "$ssh_given" ] || die "--ssh is how --hosts reaches a host; give --hosts FILE too"
	# this machine, --jobs runs at once
	host_entries=": $jobs"
fi
# GNU parallel runs every matrix's runs, on this machine or on hosts
[ -n "$job_list" ] || command -v parallel >/dev/null ||
	die "GNU parallel not found; install it with scripts/deps.sh (as root) or apt-get install parallel"
[ -z "$preset" ] || check_preset_name "$preset"
# Each scenario read once, with the preset and the --set words applied:
# rl-scenario-info, the one checker of parameters, refuses a bad word
# (naming it and the valid form) before any kernel builds or guest starts,
# and resolves the values (run.sh asks it again for its run: it also runs
# alone and from job lists, data checked where it is used)
declare -A info=()
for s in $scenarios; do
	info[$s]=$(scenario_info "$s" "$preset" "${sets[@]}")
done
# --check: refused before any kernel builds unless it parses and gives one
# verdict over the matrix's runs (its modes as below, its kernels' names)
if [ -n "$check_text" ]; then
	[ -z "$job_list" ] ||
		die "--check judges the matrix's runs, which --job-list does not run; give --check to the --resume that writes the report"
	[ "$(wc -w <<<"$scenarios")" = 1 ] ||
		die "--check judges the runs of one scenario; the matrix has $(wc -w <<<"$scenarios") ($scenarios): give --scenario with one of them"
	build_host_tools
	check_modes=$modes
	# shellcheck disable=SC2086 # scenario names
	[ -n "$resume" ] || [ "$modes_given" = 1 ] || check_modes=$(default_modes $scenarios)
	check_kernels=""
	for k in $kernel_specs; do
		k=$(kernel_spec "$k")
		check_kernels="$check_kernels ${k%%=*}"
	done
	check_planned "$scenarios" "$filesystems" "$check_modes" "$check_kernels" | check_one - >/dev/null
fi
# The kernels, each checked, then built once (up to date: a make that
# finds nothing to do)
kernel_names=""
declare -A kernel_of=()
checked=""
for k in $kernel_specs; do
	k=$(kernel_spec "$k")
	! word_in "${k%%=*}" "$kernel_names" || die "kernel name '${k%%=*}' given twice (--kernel)"
	kernel_names="$kernel_names ${k%%=*}"
	checked="$checked $k"
	if [ "${k#*=}" = native ]; then
		# root and the host's means, before any kernel is built; and the
		# one mode a native kernel runs (the others set the lab's knobs)
		native_check_host
		{ { [ "$modes_given" = 1 ] || [ -n "$resume" ]; } && [ "${modes// /}" = "$RL_NATIVE_MODES" ]; } ||
			die "kernel ${k%%=*} is native: it runs mode $RL_NATIVE_MODES only (the others set the lab's knobs); give --modes $RL_NATIVE_MODES"
	fi
done
kernel_specs=${checked# }
# a host's bundle carries the lab's kernel (scripts/lib/hosts.sh)
[ -z "$hosts_file" ] || [ -z "$kernel_specs" ] ||
	die "--hosts runs the lab's kernel only; run a matrix of kernels (--kernel) on this machine or write it with --job-list for a batch system"
[ -n "$kernel_specs" ] || [ -x "$RL_KERNEL" ] || die "kernel $RL_KERNEL not found; build it with 'make'"
for k in $kernel_specs; do
	if [ "${k#*=}" = native ]; then
		# the host's kernel: nothing to build
		kernel_of[${k%%=*}]=native
	elif [ -n "$resume" ] && [[ "${k#*=}" != lab && "${k#*=}" != lab:* ]]; then
		# A matrix folder is data anyone could have handed over: building
		# its kernel would run its tree's Makefile.  --resume uses a kernel
		# that is already built and builds none.
		kernel_of[${k%%=*}]=$(kernel_places "${k%%=*}" "${k#*=}" | cut -d' ' -f3)/linux
		[ -x "${kernel_of[${k%%=*}]}" ] ||
			die "--resume builds no kernel: $conf names kernel ${k%%=*} (${k#*=}), not built here; read that spec, then build it with: scripts/build-kernel.sh --kernel '$k'"
	else
		kernel_of[${k%%=*}]=$(kernel_build "${k%%=*}" "${k#*=}")
	fi
done
build_host_tools
# Without --modes: the modes the scenarios' checks name too
if [ -z "$resume" ] && [ "$modes_given" = 0 ]; then
	# shellcheck disable=SC2086 # scenario names
	modes=$(default_modes $scenarios)
	check_words mode "$modes" "$RL_MODES"
fi
# scn SCENARIO KEY: a key of the scenario's data (mem, profile, disk_use...)
scn() { info_value "${info[$1]}" "$2"; }

# run_profile SCENARIO FS: the device profile of the scenario's runs on FS
run_profile() {
	local p=${profile:-$(scenario_profile "${info[$1]}" "$2")}
	echo "${p:-host}"
}

# Sizes that cannot fit are refused before any guest starts.
for s in $scenarios; do
	for f in $filesystems; do
		disk_model "$(run_profile "$s" "$f")" >/dev/null
	done
	[ -z "$(scn "$s" swap)" ] || disk_model "$(scn "$s" swap)" >/dev/null
	check_scenario_fits "$s" "${info[$s]}" "$filesystems" "$mem"
	# a native run's disk is a sparse file in its run folder
	for k in $kernel_names; do
		[ "${kernel_of[$k]}" != native ] || [ -z "$(scn "$s" disk_use)" ] ||
			native_check_room "${matrix:-${resume:-$RL_RESULTS}}" "$k" "$s" "$(scn "$s" disk_use)"
	done
done

[ -n "$matrix" ] || matrix=$RL_RESULTS/compare-$(date +%Y%m%d-%H%M%S)
create_matrix_folder "$matrix" "$resume"
# One compare.sh a matrix: the lock is held while this script or any run it
# started (they inherit it) lives, so a --resume cannot start a second
# attempt beside a run that is still writing into its folder.
exec 9>>"$matrix/.lock"
flock -n 9 || die "matrix '$matrix' is in use: another compare.sh, or a run one started, still runs in it; wait for it to end or stop it"
if [ -z "$resume" ]; then
	# key=value lines, read back with conf_value (never sourced)
	{
		echo "scenarios=$scenarios"
		echo "filesystems=$filesystems"
		echo "modes=$modes"
		echo "kernels=$kernel_specs"
		echo "profile=$profile"
		echo "mem=$mem"
		echo "sets=${sets[*]}"
		echo "preset=$preset"
		echo "repeat=$repeat"
		echo "timeout=$timeout"
		echo "clock=$clock"
		echo "trace_dat=$trace_dat"
		echo "blktrace=$blktrace"
	} >"$matrix/matrix.conf"
fi

# --- the runs ---
# each run's identity, by its folder's name (matrix_runs)
run_names=()
declare -A run_identity=()
while read -r id_name id_rest; do
	run_names+=("$id_name")
	run_identity[$id_name]=$id_rest
done < <(matrix_runs "$scenarios" "$filesystems" "$modes" "$repeat" "$kernel_names")
total=${#run_names[@]}

# run_options NAME: run.sh's options for the run NAME of the matrix, one a
# line (the run folder and the host CPU aside)
run_options() {
	local name=$1 s f m k r kv
	read -r s f m k r <<<"${run_identity[$name]}"
	# under the cpu clock a run repeats exactly for one seed: repeat r
	# runs with seed r (run.sh's default), so repeats sample the kernel's
	# random choices
	printf '%s\n' "--time-travel=$clock" --scenario "$s" --mode "$m" \
		--repeat-number "$r" --disk "$f${profile:+:$profile}"
	# the scenario's own settings unless the matrix gives them
	[ -z "$mem" ] || printf '%s\n' --mem "$mem"
	[ -z "$timeout" ] || printf '%s\n' --timeout "$timeout"
	[ -z "$preset" ] || printf '%s\n' --preset "$preset"
	[ "$trace_dat" = 0 ] || echo --trace-dat
	[ "$blktrace" = 0 ] || echo --blktrace
	for kv in "${sets[@]}"; do
		printf '%s\n' --set "$kv"
	done
	if [ "$k" != - ] && [ "${kernel_of[$k]}" = native ]; then
		printf '%s\n' --native --kernel-name "$k"
	elif [ "$k" != - ]; then
		printf '%s\n' --kernel "${kernel_of[$k]}" --kernel-name "$k"
	fi
}

# write_job_list FILE NAME...: the job list of the runs NAME..., a line each
write_job_list() {
	local name opts dir file=$1
	shift
	dir=$(cd "$matrix" && pwd -P)
	for name in "$@"; do
		mapfile -t opts < <(run_options "$name")
		job_line "$dir/runs/$name" "${opts[@]}"
	done >"$file"
}

# run_jobs HOST_ENTRIES SKIPPED NAME...: the runs NAME..., run by GNU
# parallel, the one scheduler of a matrix: MATRIX/jobs.tsv, a line each,
# and an --sshlogin N/HOST per host of HOST_ENTRIES ("LOGIN [SLOTS]"
# lines): ':' (this machine, --jobs runs at once) without --hosts, else
# each host of the hosts file; SKIPPED runs of the matrix are done before
# these (for "run k of N").  Each job is scripts/host-run.sh, which runs one
# run on its host, brings it to MATRIX/runs/NAME and summarizes it.  A
# remote host first gets the bundle (once: it is named by its content's
# hash); a host that cannot be reached or take it is left out.
run_jobs() {
	local login slots stage="" hash=none logins=() shown="" retried n=0 slot=() entries=$1 done_before=$2
	shift 2
	write_job_list "$matrix/jobs.tsv" "$@"
	retried=$(lines_of "$matrix/hosts.log")
	while read -r login slots; do
		if [ "$login" != : ] && [ -z "$stage" ]; then
			stage=$(mktemp -d "$matrix/.bundle.XXXXXX")
			bundle_stage "$stage" "$(bundle_images)"
			hash=$(bundle_hash "$stage")
			note "bundle $hash (kernel, rootfs, images, tools disk, host tools, run.sh)"
		fi
		if [ "$login" != : ] && ! bundle_to_host "$login" "$stage" "$hash"; then
			note "host $login: cannot reach it or copy the bundle there; its runs go to the other hosts"
			continue
		fi
		if [ -z "$slots" ] && ! slots=$(host_cpus "$login"); then
			note "host $login: cannot read its number of CPUs; its runs go to the other hosts"
			continue
		fi
		logins+=(--sshlogin "$slots/$login")
		shown="$shown $login ($slots at once)"
		n=$((n + slots))
	done <<<"$entries"
	[ -z "$stage" ] || rm -rf "$stage"
	[ -n "$shown" ] || die "no host of $hosts_file can take runs"
	note "$# runs on${shown//:/this machine}"
	# This machine alone: the guest of job slot N (parallel's {%}, 1 to
	# the runs at once) runs on CPU N-1 (modulo the CPUs), a CPU of its
	# own while the runs at once are no more than the CPUs.  Beside other
	# hosts the slots are numbered across all of them, and run.sh picks a
	# CPU no other guest of this user is on.
	[ "${logins[*]}" != "--sshlogin $n/:" ] || slot=(--slot '{%}')
	# A failed run is tried on each host once at most (--retries: on one
	# it has not failed on).  Output is not grouped: a job says "run k of
	# N" when it starts.  A stopped job gets time to stop its guest and
	# bring back what it left: its shell execs host-run.sh, so that the
	# signal reaches host-run.sh's trap (a shell waiting for it would die of
	# the signal, and parallel would take the job for ended).  parallel
	# dies with compare.sh, even of SIGKILL (its TERM stops every job).
	setpriv --pdeathsig TERM parallel --plus --ungroup --ssh "$RL_TOP/scripts/parallel-ssh.sh" "${logins[@]}" \
		--retries "$((${#logins[@]} / 2))" --termseq TERM,30000,KILL,25 --joblog "+$matrix/hosts.joblog" \
		"exec $(printf %q "$RL_TOP/scripts/host-run.sh") ${slot[*]} --progress {#},$done_before,$total,$n,$(date +%s) {sshlogin} $hash {}" \
		:::: "$matrix/jobs.tsv" &
	scheduler=$!
	# its exit status counts failed jobs; the run folders say which
	wait "$scheduler" || true
	scheduler=""
	retried=$(($(lines_of "$matrix/hosts.log") - retried))
	[ "$retried" = 0 ] || note "attempts their host failed: $retried ($matrix/hosts.log)"
}

# lines_of FILE: its number of lines, 0 if there is no FILE
lines_of() {
	if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi
}

# bundle_images: the images the matrix's runs attach, as RL_IMAGES names
# them: its filesystems, swap if a scenario uses it, the tools disk
bundle_images() {
	local f s
	for f in $filesystems; do
		echo "$f.img"
	done
	for s in $scenarios; do
		[ -z "$(scn "$s" swap)" ] || { echo swap.img; break; }
	done
	! tools_attached 1 || printf '%s\n' guest-tools.img guest-tools.img.stamp
}

# Stopped (Ctrl-C, SIGTERM, SIGHUP): parallel stops every job (--termseq);
# each host-run.sh has its run.sh mark the run interrupted and stop its
# guest, here or on its host, and brings back what it left.  The script
# ends when the last process of its runs has (bounded: RL_STOP_WAIT), so
# that a --resume right after it finds the matrix free.
scheduler=""
on_signal() {
	trap - INT TERM HUP
	note "stopping the running guests"
	[ -z "$scheduler" ] || kill -TERM "$scheduler" 2>/dev/null || true
	wait
	# this script's own hold of the lock let go: the runs' processes are
	# what holds it now
	exec 9>&-
	matrix_wait_free "$matrix" "$RL_STOP_WAIT" || true
	note "interrupted; finished runs are kept; continue with: scripts/compare.sh --resume $matrix${hosts_file:+ --hosts $hosts_file}"
	exit 130
}
trap on_signal INT TERM HUP

# finished runs are not run again (--resume), whoever ran them
pending=()
for name in "${run_names[@]}"; do
	if run_finished "$matrix/runs/$name"; then
		# finished, but its runner was killed before it summarized it
		[ -f "$matrix/runs/$name/$RL_DERIVED/summary.tsv" ] || summarize_run "$matrix/runs/$name"
	else
		pending+=("$name")
	fi
done
skipped=$((total - ${#pending[@]}))

if [ -n "$job_list" ]; then
	write_job_list "$job_list" "${pending[@]}"
	note "wrote $job_list: ${#pending[@]} runs, a line each; scripts/run-listed.sh $job_list N runs line N" \
		"(a Slurm array: sbatch --array=1-${#pending[@]}); then scripts/compare.sh --resume $matrix writes the report"
	exit 0
fi

begin=$(date +%s)
# A native run measures the host in real time: it runs alone, after the
# guests (a guest beside it takes a CPU, and native figures on one CPU
# are not the host's: docs/calibration.md), one at a time (one native run
# at a time is also the host's lock, docs/native.md), as
# bench-calibration.sh runs its native matrix
lab_runs=() native_runs=()
for name in "${pending[@]}"; do
	read -r _ _ _ k _ <<<"${run_identity[$name]}"
	if [ "$k" != - ] && [ "${kernel_of[$k]}" = native ]; then
		native_runs+=("$name")
	else
		lab_runs+=("$name")
	fi
done
[ "${#lab_runs[@]}" = 0 ] || run_jobs "$host_entries" "$skipped" "${lab_runs[@]}"
if [ "${#native_runs[@]}" != 0 ]; then
	[ "${#lab_runs[@]}" = 0 ] || note "the native runs next, alone: none beside a guest or another native run"
	run_jobs ": 1" "$((skipped + ${#lab_runs[@]}))" "${native_runs[@]}"
fi
unfinished=0
for name in "${pending[@]}"; do
	run_finished "$matrix/runs/$name" || unfinished=$((unfinished + 1))
done
finished="all $total"
[ "$unfinished" = 0 ] || finished="$((total - unfinished)) of $total"
note "$finished runs done in $(($(date +%s) - begin))s; writing the report"
"$RL_TOP/scripts/report.sh" "$matrix"
[ "$unfinished" = 0 ] ||
	die "$unfinished runs did not finish${hosts_file:+ on any host} (see $matrix/hosts.log and $matrix/NAME.err); continue with: scripts/compare.sh --resume $matrix${hosts_file:+ --hosts $hosts_file}"
# --check: the exit status is the check's verdict over the runs
[ -z "$check_text" ] || check_verdict_of_matrix
