#!/bin/bash
# gdb on the kernel of a running experiment: what scripts/gdb.sh --attach
# runs (see its --help).  gdb gets scripts/gdb/reclaimlab.gdb, as a start
# under gdb does; the transcript goes to the run folder (gdb.log, or
# gdb.2.log ... when it has one already).
#   scripts/gdb-attach.sh RUN_ID_OR_DIR [CMDFILE]
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

GDB_DIR=$RL_TOP/scripts/gdb
export RL_TOP RL_KSRC RL_GDB_DIR=$GDB_DIR
{ [ $# -ge 1 ] && [ $# -le 2 ]; } || die "usage: scripts/gdb.sh --attach RUN_ID_OR_DIR [--batch CMDFILE]"
command -v gdb >/dev/null || die "gdb is not installed (scripts/deps.sh --all installs it)"

# conf RUN KEY: a value of the run's run.conf, read as data
conf() { conf_value "$1/run.conf" "$2"; }

# Runs whose status says running and whose kernel is alive.
running_runs() {
	local d pid
	for d in "$RL_RESULTS"/runs/*/; do
		d=${d%/}
		[ -f "$d/run.conf" ] || continue
		[ "$(run_status "$d")" = running ] || continue
		pid=$(cat "$(conf "$d" tmpdir)/uml/$(conf "$d" umid)/pid" 2>/dev/null) || continue
		[ -d "/proc/${pid:-none}" ] && echo "${d##*/}"
	done
}

# attach RUN CMDFILE: gdb on the kernel of a running experiment
attach() {
	local run=$1 cmdfile=$2 pid pidfile tracer kernel log n choices
	if [ -f "$run/run.conf" ]; then
		run=$(cd "$run" && pwd)
	elif [ -f "$RL_RESULTS/runs/$run/run.conf" ]; then
		run=$RL_RESULTS/runs/$run
	else
		choices=$(running_runs | paste -sd ' ')
		die "unknown run '$1': neither a run folder nor a run id in $RL_RESULTS/runs (running now: ${choices:-none})"
	fi
	pidfile=$(conf "$run" tmpdir)/uml/$(conf "$run" umid)/pid
	if [ ! -r "$pidfile" ]; then
		case "$(run_status "$run")" in
		running) die "run ${run##*/} has no kernel pid yet ($pidfile); it may still be booting: try again" ;;
		*) die "run ${run##*/} is not running (status: $(run_status "$run" | grep . || echo none))" ;;
		esac
	fi
	pid=$(cat "$pidfile")
	if ! [[ "$pid" =~ ^[0-9]+$ ]] || [ ! -d "/proc/$pid" ]; then
		die "the kernel of run ${run##*/} (pid ${pid:-?}) is gone"
	fi
	grep -qa "umid=$(conf "$run" umid)" "/proc/$pid/cmdline" 2>/dev/null ||
		die "pid $pid is not the kernel of run ${run##*/} (not yours, or it ended)"
	tracer=$(sed -n 's/^TracerPid:[[:space:]]*//p' "/proc/$pid/status")
	[ "${tracer:-0}" = 0 ] ||
		die "the kernel of run ${run##*/} is already traced by pid $tracer ($(cat "/proc/$tracer/comm" 2>/dev/null)): it was started under gdb; use that gdb"
	kernel=$(conf "$run" kernel)
	[ -r "$kernel" ] || die "kernel $kernel of run ${run##*/} not found"
	export RL_KOUT
	RL_KOUT=$(dirname "$kernel")
	# the transcript: gdb.log, or gdb.2.log ... when the run has one already
	log=""
	if [ -w "$run" ]; then
		log=$run/gdb.log
		n=2
		while [ -e "$log" ]; do
			log=$run/gdb.$n.log
			n=$((n + 1))
		done
	fi
	if [ -z "$cmdfile" ]; then
		[ -t 0 ] || die "interactive gdb needs a terminal; use --batch CMDFILE"
		note "attaching to the kernel of run ${run##*/} (pid $pid); detach or quit lets it go on"
		if [ -z "$log" ]; then
			exec gdb -q -x "$GDB_DIR/reclaimlab.gdb" -p "$pid" "$kernel"
		fi
		note "gdb transcript: $log"
		exec gdb -q -iex "set logging file $log" -iex "set logging overwrite on" \
			-iex "set logging enabled on" -x "$GDB_DIR/reclaimlab.gdb" -p "$pid" "$kernel"
	fi
	[ -n "$log" ] || die "run folder $run is not writable: no place for the transcript"
	gdb -q -nx -batch \
		-iex "set logging file $log" -iex "set logging overwrite on" \
		-iex "set logging redirect on" -iex "set logging enabled on" \
		-x "$GDB_DIR/reclaimlab.gdb" -ex "set trace-commands on" -x "$cmdfile" \
		-p "$pid" "$kernel" </dev/null || note "gdb reported an error; see $log"
	note "gdb transcript: $log"
}

attach "$1" "${2:-}"
