#!/bin/bash
# The collect step of one run, after its guest is gone: find the kernel's
# splats in the console log and write the status file (written last; see
# run.sh for the run folder).  Reads what the guest left as data.
#   scripts/collect-run.sh RUNDIR WALL_SECONDS ended|hung
# Exits with the guest command's status (124 hung, 125 crashed).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: scripts/collect-run.sh RUNDIR WALL_SECONDS ended|hung|interactive"
out=$1 wall=$2 status=$3
[ -f "$out/run.conf" ] || die "'$out' is not a run folder (no run.conf)"
[ "$status" != ended ] || status=""
run_id=$(conf_value "$out/run.conf" run)
mkdir -p "$out/$RL_DERIVED"
[ -x "$RL_HOST_TOOLS/rl-guest-read" ] || build_host_tools

# guest_file NAME: the guest's RUN/guest/NAME, read by rl-guest-read as the
# host tools read a guest's file: a regular file of at most 64 KiB, no link
# followed, no fifo waited on.  Fails (saying why on stderr) if it is
# absent or refused.
guest_file() {
	"$RL_HOST_TOOLS/rl-guest-read" "$out/$RL_GUEST/$1"
}

# splats: "KIND: TITLE" a line; splats.txt: each whole report
"$RL_SPLATS" --excerpts "$out/$RL_DERIVED/splats.txt" "$out/console.log" >"$out/$RL_DERIVED/splats" 2>"$out/$RL_DERIVED/splats.err" ||
	note "could not scan the console log for kernel splats: $(cat "$out/$RL_DERIVED/splats.err")"
[ -s "$out/$RL_DERIVED/splats.err" ] || rm -f "$out/$RL_DERIVED/splats.err"
[ -s "$out/$RL_DERIVED/splats.txt" ] || rm -f "$out/$RL_DERIVED/splats.txt"
# one line per process the OOM killer killed, global or in a memory cgroup
oom_kills=$(grep -c 'Killed process [0-9]' "$out/console.log" 2>/dev/null || true)
rc=0
if [ "$status" = hung ]; then
	rc=124
elif [ -e "$out/$RL_GUEST/exit-status" ] || [ -L "$out/$RL_GUEST/exit-status" ]; then
	# refused (a link, a fifo, too large): no status the guest reported
	rc=$(guest_file exit-status) || rc=125
	{ [[ "$rc" =~ ^[0-9]{1,3}$ ]] && [ "$rc" -le 255 ]; } || rc=125
	if grep -q 'ubd: bad ubd.model=' "$out/console.log"; then
		# a disk without its model would run at host speed
		status=failed
		[ "$rc" != 0 ] || rc=1
	elif [ -s "$out/$RL_DERIVED/splats" ]; then
		status=splat
		[ "$rc" != 0 ] || rc=1
	elif [ "$rc" = 0 ]; then
		status=ok
	else
		status=failed
	fi
elif [ "$status" = interactive ] && [ ! -s "$out/$RL_DERIVED/splats" ]; then
	# the user ended the shell (poweroff -f leaves no exit status)
	status=ok
else
	status=crashed
	rc=125
fi
# A host disk that filled up during the run: say so, the results are cut.
disk_full=0
[ "$(avail_bytes "$out")" -ge $((1 << 20)) ] || disk_full=1
if ! {
	echo "$status"
	echo "run=$run_id"
	echo "exit_status=$rc"
	echo "wall_seconds=$wall"
	# one number: a guest's newline must not add keys to the status file
	uptime=$(guest_file guest-uptime | head -1 | tr -cd '0-9.' | cut -c1-20)
	echo "simulated_seconds=${uptime:-unknown}"
	echo "clock=$(conf_value "$out/run.conf" clock)"
	# host timer ticks that moved a stalled cpu clock (patch 0011): a run
	# with any is not a function of its inputs alone
	[ "$(conf_value "$out/run.conf" clock)" != cpu ] ||
		echo "clock_stalled_ticks=$(guest_file time-travel-cpu | sed -n 's/^stalled_ticks \([0-9]\{1,18\}\)$/\1/p' | head -1 | grep . || echo unknown)"
	echo "splats=$(wc -l <"$out/$RL_DERIVED/splats")"
	echo "splat_kinds=$(cut -d: -f1 "$out/$RL_DERIVED/splats" | sort | uniq -c | awk '{ printf "%s%s:%s", (NR > 1 ? "," : ""), $2, $1 }')"
	echo "oom_kills=${oom_kills:-0}"
	# the guest's own words, read as data: first line, printable, bounded
	reason=$(guest_file failure-reason | head -1 | tr -cd 'A-Za-z0-9 ._:=/,()+-' | cut -c1-200)
	[ -z "$reason" ] || echo "reason=$reason"
	[ "$disk_full" = 0 ] || echo "host_disk_full=1"
} >"$out/status.tmp" 2>/dev/null || ! mv "$out/status.tmp" "$out/status"; then
	rm -f "$out/status.tmp"
	[ "$disk_full" = 1 ] || die "cannot write $out/status"
	# A full disk: the short final status in place of "running", in the
	# block the old status file frees, so that the run is not taken for
	# one still running
	printf '%s\nrun=%s\nexit_status=%s\nhost_disk_full=1\n' "$status" "$run_id" "$rc" >"$out/status" 2>/dev/null ||
		die "host disk full: the filesystem of '$out' has no space left; this run ($status) is incomplete and its status file could not be written"
fi
[ "$disk_full" = 0 ] ||
	note "host disk full: the filesystem of '$out' ran out of space during the run; its results are incomplete"
# the console's text, for a terminal: no escape sequences
first_splat=$(printable "$(head -c 300 "$out/$RL_DERIVED/splats" 2>/dev/null | head -1 || true)")
case "$status" in
ok) ;;
hung) note "guest hung: killed after $(conf_value "$out/run.conf" timeout)s; console log: $out/console.log" ;;
crashed) note "guest stopped without reporting a result; console log: $out/console.log${first_splat:+; first splat: $first_splat}" ;;
splat) note "kernel reported problems (see $out/$RL_DERIVED/splats.txt): $first_splat" ;;
failed) note "guest command failed with status $rc; output: $out/$RL_GUEST/guest.log" ;;
esac
exit "$rc"
