#!/bin/bash
# Benchmark of the guest clocks: what each --time-travel mode makes of a few
# operations, beside the same operations measured natively on this host,
# and how one reclaim scenario's figures move with the host's load.
#
#   scripts/bench-clock.sh            both parts
#   scripts/bench-clock.sh ops        the operations only (about a minute)
#   scripts/bench-clock.sh scenario   memcg-dd only (a few minutes)
#
# Operations (rl-opbench): null system call, 1 KiB write into tmpfs, minor
# fault, fork + exit + wait.  Simulated ns/op is what the guest's clock
# said; wall ns/op is the host time a boot with N ops took more than a boot
# with N/10.  Scenario: memcg-dd on ext4 (hdd), patched, once per clock on
# an idle host unpinned, with every host CPU busy (CPU hogs this script
# starts and stops), and pinned to one CPU.  Benchmark on an otherwise idle
# machine.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

part=${1:-all}
case "$part" in
all | ops | scenario) ;;
*) die "unknown part '$part' (valid: all, ops, scenario)" ;;
esac
[ -x "$RL_KERNEL" ] || die "kernel $RL_KERNEL not found; build it with 'make'"
# the same benchmark built against the host's libc, for the native figures
make -s -C "$RL_TOP/rootfs/tools" NATIVE="$RL_BUILD/native" native >/dev/null ||
	die "cannot build the native rl-opbench (make -C rootfs/tools native)"
OPBENCH=$RL_BUILD/native/rl-opbench
# the figures are rl-bench's, from what the runs wrote (scripts/tools/bench/bench.c)
build_host_tools
BENCH=$RL_HOST_TOOLS/rl-bench
work=$(mktemp -d "${TMPDIR:-/tmp}/reclaimlab-bench-clock.XXXXXX")
hogs=()
stop_hogs() {
	[ "${#hogs[@]}" = 0 ] || kill "${hogs[@]}" 2>/dev/null || true
	hogs=()
}
trap 'stop_hogs; rm -rf "$work"' EXIT
N=20000
OPS="null_syscall write_1k minor_fault fork_exit_wait"

# guest_op N OP CLOCK-ARGS...: rl-opbench OP in a guest: its run folder
guest_op() {
	local n=$1 op=$2 run
	shift 2
	run=$work/ops-$op-$RANDOM$RANDOM
	"$RL_TOP/scripts/run.sh" --out "$run" "$@" -- "rl-opbench -n $n -d /tmp $op" >/dev/null ||
		die "guest benchmark failed: $(run_status "$run"); see $run/console.log"
	echo "$run"
}

ops_part() {
	local mode clock_args big small op
	echo "== operations: ns per operation (N=$N; fork_exit_wait N/10) =="
	"$OPBENCH" -n "$N" -d "${RL_TMPDIR:-/dev/shm}" >"$work/native"
	printf '%-8s %-15s %12s %13s %12s\n' "clock" "op" "native ns" "simulated ns" "wall ns"
	for mode in host basic cpu inf-cpu; do
		case "$mode" in
		host) clock_args=(--cpu none) ;;
		basic) clock_args=(--time-travel --cpu none) ;;
		*) clock_args=(--time-travel="$mode") ;;
		esac
		for op in $OPS; do
			# wall per op: a boot with N ops against one with N/10
			big=$(guest_op "$N" "$op" "${clock_args[@]}")
			small=$(guest_op $((N / 10)) "$op" "${clock_args[@]}")
			"$BENCH" ops-row "$mode" "$op" "$work/native" "$big" "$small"
		done
	done
	echo "(host: no time-travel, the guest clock is the host's; host and basic unpinned, cpu and inf-cpu pinned to one CPU)"
	echo "cpu model $(grep -ho 'prices (ns):.*' "$work"/ops-*/console.log | head -1)"
}

# scenario_run CLOCK CPU LABEL: one memcg-dd run; prints its headline
scenario_run() {
	local clock=$1 cpu=$2 label=$3 run=$work/scn-$1-$3
	"$RL_TOP/scripts/run.sh" --out "$run" --time-travel="$clock" --cpu "$cpu" --mem 1G \
		--timeout 900 --disk ext4:hdd --scenario memcg-dd >/dev/null 2>&1 || true
	"$RL_TOP/scripts/summarize-run.sh" "$run" ||
		die "could not summarize $run"
	"$BENCH" scenario-row "$clock" "$label" "$run"
}

scenario_part() {
	local clock
	echo "== memcg-dd on ext4 (hdd), patched, cgroup v1: each writer's MB/s =="
	printf '%-8s %-8s %-7s %7s %7s %7s %7s %7s\n' clock host status writer1 writer2 waits sim_s wall_s
	for clock in basic cpu; do
		scenario_run "$clock" none idle
		for _ in $(seq "$(nproc)"); do
			sh -c 'while :; do :; done' &
			hogs+=("$!")
		done
		scenario_run "$clock" none busy
		stop_hogs
		scenario_run "$clock" 0 pinned
	done
}

[ "$part" = scenario ] || ops_part
[ "$part" = ops ] || scenario_part
