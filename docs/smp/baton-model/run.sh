#!/bin/bash
# Run the baton model (docs/smp.md) in each mode three times on the host as
# it is and three times beside one CPU hog per host CPU; print every line,
# then per mode whether its hashes agree.  An experiment, not part of the
# lab.  Usage: run.sh ./baton [PAGES [SEED]]
set -eu
[ $# -ge 1 ] || { echo "usage: run.sh ./baton [PAGES [SEED]]" >&2; exit 2; }
bin=$1
pages=${2:-20000}
seed=${3:-1}
out=$(mktemp)
hogs=()
stop_hogs() {
	local p
	for p in "${hogs[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	hogs=()
}
trap 'stop_hogs; rm -f "$out"' EXIT

runs() { # LOAD
	local mode i
	for mode in baton coro free; do
		for i in 1 2 3; do
			echo "load=$1 run=$i $("$bin" "$mode" "$pages" "$seed")" | tee -a "$out"
		done
	done
}

echo "host: $(lscpu | sed -n 's/^Model name:[[:space:]]*//p'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
runs idle
for _ in $(seq "$(nproc)"); do
	sh -c 'while :; do :; done' &
	hogs+=($!)
done
runs hogs
stop_hogs
for mode in baton coro free; do
	n=$(grep " mode=$mode " "$out" | sed 's/.* hash=\([0-9a-f]*\) .*/\1/' | sort -u | wc -l)
	echo "$mode: $n distinct hash(es) in 6 runs"
done
# Per mode and load, over the three runs: CPU time outside the steps'
# work per handoff (the switch, with the bookkeeping both baton modes
# share), and wall time over CPU time.
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	k = f["mode"] " " f["load"]
	cpu[k] += f["cpu_ns"]; work[k] += f["work_ns"]; wall[k] += f["wall_ns"]
	ho[k] += f["handoffs"]; n[k]++ }
END { for (k in n) printf "%s: cpu %.0f ms, work %.0f ms, wall %.0f ms (means of %d); outside work %s; wall/cpu %.2f\n",
	k, cpu[k] / n[k] / 1e6, work[k] / n[k] / 1e6, wall[k] / n[k] / 1e6, n[k],
	ho[k] ? sprintf("%.2f us a handoff", (cpu[k] - work[k]) / ho[k] / 1e3) : sprintf("%.0f ms", (cpu[k] - work[k]) / n[k] / 1e6),
	wall[k] / cpu[k] }' "$out" | sort
