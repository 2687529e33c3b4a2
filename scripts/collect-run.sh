#!/bin/bash
# The collect step of one run, after its guest is gone: rl-collect
# (scripts/tools/collect/collect.c) reads the console log once and what the guest
# left as data, and writes the run's outcome, RUN/status (written last;
# through the run record; see scripts/lib/run-folder.sh for the run
# folder), and its splats.
#   scripts/collect-run.sh RUNDIR WALL_SECONDS ended|hung|interactive
# Exits with the guest command's status (124 hung, 125 crashed).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: scripts/collect-run.sh RUNDIR WALL_SECONDS ended|hung|interactive"
out=$1
[ -f "$out/run.conf" ] || die "'$out' is not a run folder (no run.conf)"
[ -x "$RL_HOST_TOOLS/rl-collect" ] || build_host_tools

# "STATUS EXIT WRITTEN DISK_FULL STEP", printed once the status file is
# written (or could not be): rl-collect says what it wrote, so the status
# is not read back
outcome=$("$RL_HOST_TOOLS/rl-collect" "$@") || true
status="" rc="" written="" disk_full="" step=""
read -r status rc written disk_full step <<<"$outcome" || true
[ -n "$status" ] || die "rl-collect could not collect $out"
# an rl-collect built before this checkout prints "STATUS EXIT" alone
[ -n "$step" ] || die "$RL_HOST_TOOLS/rl-collect is older than this checkout: run make host-tools"
# a status file that could not be written whole (a host disk that filled
# up) is short, in place of "running"; one not even so is still "running"
[ "$written" != none ] ||
	die "host disk full: the filesystem of '$out' has no space left; this run ($status) is incomplete and its status file could not be written"
[ "$disk_full" != 1 ] ||
	note "host disk full: the filesystem of '$out' ran out of space during the run; its results are incomplete"
# the console's text, for a terminal: no escape sequences
first_splat=$(printable "$(head -c 300 "$out/$RL_DERIVED/splats" 2>/dev/null | head -1 || true)")
# a step of the host's own that failed (the native backend's)
[ "$step" = - ] || status="host-step"
case "$status" in
ok) ;;
host-step) note "the run ended at its step '$step' (the error above; $out/status has the reason)" ;;
hung) note "guest hung: killed after $(conf_value "$out/run.conf" timeout)s; console log: $out/console.log" ;;
crashed) note "guest stopped without reporting a result; console log: $out/console.log${first_splat:+; first splat: $first_splat}" ;;
splat) note "kernel reported problems (see $out/$RL_DERIVED/splats.txt): $first_splat" ;;
failed) note "guest command failed with status $rc; output: $out/$RL_GUEST/guest.log" ;;
esac
exit "$rc"
