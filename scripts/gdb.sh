#!/bin/bash
# Debug a reclaimlab experiment with gdb: start one under gdb, or attach to
# a running one.  gdb gets scripts/gdb/reclaimlab.gdb: UML's signals passed
# silently, the kernel's lx- helpers, sources from the patched tree and the
# lab's commands (rl-break-reclaim-wait, rl-folio-flags, rl-bdi-works).
#
#   scripts/gdb.sh [run.sh options] [-- guest command]
#       start an experiment under gdb, gdb on this terminal; the guest's
#       console goes to RUN/console.log, gdb's transcript to RUN/gdb.log
#   scripts/gdb.sh --batch CMDFILE [run.sh options] [-- guest command]
#       the same without a terminal: gdb runs CMDFILE (which says 'run')
#       and exits; transcript in RUN/gdb.log
#   scripts/gdb.sh --attach RUN [--batch CMDFILE]
#       attach to the kernel of a running experiment (RUN: a run id under
#       results/runs or a run folder)
#
# Every run.sh option works (run.sh validates them); --wrap is gdb.sh's.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

GDB_DIR=$RL_TOP/scripts/gdb
SELF=$RL_TOP/scripts/gdb.sh
export RL_TOP RL_KSRC RL_GDB_DIR=$GDB_DIR

usage() {
	cat <<USAGE
usage: scripts/gdb.sh [--batch CMDFILE] [run.sh options] [-- guest command]
       scripts/gdb.sh --attach RUN_ID_OR_DIR [--batch CMDFILE]
  --batch CMDFILE   run gdb non-interactively on CMDFILE (gdb commands; start
                    the kernel with 'run', end with 'continue' to let the
                    guest finish); the transcript is saved as RUN/gdb.log
  --attach RUN      attach to the kernel of a running experiment: a run id
                    (a folder of $RL_RESULTS/runs) or a run folder
Other options go to scripts/run.sh (see scripts/run.sh --help), e.g.
  scripts/gdb.sh --time-travel --mem 1G --disk xfs:hdd --job job.sh
Without --batch gdb needs this terminal; the guest console is RUN/console.log.
The kernel waits in gdb until you type 'run'.  Lab commands: rl-help in gdb.
USAGE
}

# The kernel command line names the run folder: hostfs=DIR,confine.
run_dir_of_args() {
	local a d
	for a in "$@"; do
		# a link in the run's TMPDIR to the guest's folder RUN/guest
		# (scripts/run.sh); gdb's files are the host's, in RUN
		case "$a" in hostfs=*) d=${a#hostfs=}; dirname "$(readlink -f "${d%%,*}")"; return ;; esac
	done
	die "no hostfs= in the kernel arguments: gdb.sh --wrapped is run by run.sh only"
}

# --- internal: run.sh starts "gdb.sh --wrapped MODE ARG KERNEL ARGS..." ---
# (through --wrap) in place of the kernel, stdout and stderr into
# console.log, stdin /dev/null, TMPDIR the run's private folder.
wrapped() {
	local mode=$1 arg=$2 kernel=$3 run rc=0
	shift 3
	run=$(run_dir_of_args "$@")
	# gdb starts the kernel through $SHELL; a login shell of nologin would not do.
	export SHELL=/bin/sh RL_GDB_MODE=start
	case "$mode" in
	batch)
		cp "$arg" "$run/gdb.cmds"
		(
			echo "$BASHPID" >"$TMPDIR/gdb.pid"
			exec gdb -q -nx -batch \
				-iex "set logging file $run/gdb.log" -iex "set logging overwrite on" \
				-iex "set logging redirect on" -iex "set logging enabled on" \
				-x "$GDB_DIR/reclaimlab.gdb" -ex "set trace-commands on" -x "$arg" \
				--args "$kernel" "$@"
		) || rc=$?
		;;
	interactive)
		# gdb talks on the terminal; the kernel writes to console.log.
		local q
		q=$(printf '%q ' "$@")
		# shellcheck disable=SC2094 # the terminal is read and written
		(
			echo "$BASHPID" >"$TMPDIR/gdb.pid"
			exec gdb -q \
				-iex "set logging file $run/gdb.log" -iex "set logging overwrite on" \
				-iex "set logging enabled on" \
				-x "$GDB_DIR/reclaimlab.gdb" \
				-ex "set args $q</dev/null >>$run/console.log 2>&1" \
				-ex "echo \\nreclaimlab: run ${run##*/} is loaded in gdb, not started.\\n" \
				-ex "echo   guest console: $run/console.log (tail -f it elsewhere)\\n" \
				-ex "echo   set breakpoints (rl-help lists the lab commands), then: run\\n" \
				-ex "echo   Ctrl-C stops the kernel, continue resumes it; to let the guest\\n" \
				-ex "echo   finish, delete the breakpoints and continue; quit ends the run.\\n\\n" \
				"$kernel" <"$arg" >"$arg" 2>&1
		) || rc=$?
		;;
	*) die "unknown wrapped mode '$mode'" ;;
	esac
	reap_kernel "$@"
	exit "$rc"
}

# gdb runs the kernel in a process group of its own, out of reach of
# run.sh's kill: whatever of it is left when gdb is gone goes now.
reap_kernel() {
	local a umid="" dir="" pid
	for a in "$@"; do
		case "$a" in
		umid=*) umid=${a#umid=} ;;
		uml_dir=*) dir=${a#uml_dir=} ;;
		esac
	done
	pid=$(cat "$dir/$umid/pid" 2>/dev/null) || return 0
	[[ "$pid" =~ ^[0-9]+$ ]] || return 0
	grep -qa "umid=$umid" "/proc/$pid/cmdline" 2>/dev/null || return 0
	note "the kernel (pid $pid) outlived gdb; stopping it"
	kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
}

if [ "${1:-}" = --wrapped ]; then
	[ $# -ge 4 ] || die "usage: gdb.sh --wrapped MODE ARG KERNEL ARGS... (run.sh's --wrap only)"
	shift
	wrapped "$@"
fi

command -v gdb >/dev/null || die "gdb is not installed (scripts/deps.sh --all installs it)"

# --- options: ours, then run.sh's (passed on in order) ---
# run.sh's options that take a value (its table, scripts/lib/run-options.sh)
value_opts=$(run_options_with_value)
batch=""
attach_run=""
out=""
kernel=$RL_KERNEL
timeout_given=0
opts=()
guest=()
while [ $# -gt 0 ]; do
	case "$1" in
	--batch) need_arg "$@"; batch=$2; shift 2 ;;
	--attach) need_arg "$@"; attach_run=$2; shift 2 ;;
	--wrap) die "--wrap is what gdb.sh gives run.sh; it cannot be combined with gdb.sh" ;;
	--interactive)
		die "--interactive puts a guest shell on this terminal, which gdb needs; give a --job or command, or attach from another terminal to an interactive run: scripts/gdb.sh --attach RUN"
		;;
	--out) need_arg "$@"; out=$2; shift 2 ;;
	--kernel) need_arg "$@"; kernel=$2; opts+=("$1" "$2"); shift 2 ;;
	--timeout) need_arg "$@"; timeout_given=1; opts+=("$1" "$2"); shift 2 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; guest=("$@"); break ;;
	-*)
		if word_in "$1" "$value_opts"; then
			need_arg "$@"
			opts+=("$1" "$2")
			shift 2
		else
			opts+=("$1")
			shift
		fi
		;;
	*) guest=("$@"); break ;;
	esac
done

if [ -n "$batch" ]; then
	if [ ! -f "$batch" ] || [ ! -r "$batch" ]; then
		die "gdb command file '$batch' not found or not readable"
	fi
	batch=$(cd "$(dirname "$batch")" && pwd)/$(basename "$batch")
fi

if [ -n "$attach_run" ]; then
	if [ ${#opts[@]} != 0 ] || [ ${#guest[@]} != 0 ] || [ -n "$out" ]; then
		die "--attach takes only --batch; the run's options were given when it started"
	fi
	exec "$RL_TOP/scripts/gdb-attach.sh" "$attach_run" "$batch"
fi

# --- start an experiment under gdb ---
[ -x "$kernel" ] || die "kernel $kernel not found; build it with 'make kernel'"
case "$RL_TOP$batch" in
*[[:space:]]*) die "paths with spaces cannot go through run.sh --wrap: '$RL_TOP', '$batch'" ;;
esac
export RL_KOUT
RL_KOUT=$(cd "$(dirname "$kernel")" && pwd)
[ -n "$out" ] || out=$RL_RESULTS/runs/$(date +%Y%m%d-%H%M%S)-$$

if [ -n "$batch" ]; then
	rc=0
	"$RL_TOP/scripts/run.sh" "${opts[@]}" --out "$out" \
		--wrap "$SELF --wrapped batch $batch" -- "${guest[@]}" || rc=$?
	[ ! -f "$out/gdb.log" ] || note "gdb transcript: $out/gdb.log"
	exit "$rc"
fi

if [ ! -t 0 ] || [ ! -t 1 ]; then
	die "interactive gdb needs a terminal; for scripts use --batch CMDFILE"
fi
tty=$(tty)
# Sitting at a breakpoint takes time: a day unless --timeout says otherwise.
[ "$timeout_given" = 1 ] || opts=(--timeout 86400 "${opts[@]}")
# run.sh (and so gdb and the kernel) in a session of its own: Ctrl-C on this
# terminal reaches only this script, which hands it to gdb.
setsid -w "$RL_TOP/scripts/run.sh" "${opts[@]}" --out "$out" \
	--wrap "$SELF --wrapped interactive $tty" -- "${guest[@]}" &
runsh=$!
ctrl_c() {
	local tmp pid
	tmp=$(conf_value "$out/run.conf" tmpdir)
	pid=$(cat "$tmp/gdb.pid" 2>/dev/null || true)
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -INT "$pid"
	else
		kill -INT "$runsh" 2>/dev/null || true
	fi
}
trap ctrl_c INT
trap 'kill -TERM "$runsh" 2>/dev/null || true' TERM HUP
trap '' TSTP QUIT
rc=0
while :; do
	wait "$runsh" && rc=0 || rc=$?
	# a trapped signal interrupts wait with a status above 128
	kill -0 "$runsh" 2>/dev/null || break
done
note "run folder: $out (gdb transcript: gdb.log, guest console: console.log)"
exit "$rc"
