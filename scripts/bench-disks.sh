#!/bin/bash
# Benchmark of the emulated disks (ubd timing model): for each profile,
# configured vs achieved sequential bandwidth (1 MiB O_DIRECT writes and
# reads on the raw device), 4 KiB random write IOPS on hdd against
# 1/(seek + half a revolution + 4K/bandwidth), the same run twice and once
# with another seed of the disk's random draws (simulated duration), and
# wall vs simulated seconds of a 200 MB write to usb-stick.  The device
# figures run under time-travel=inf-cpu, where guest CPU work takes no
# simulated time, so they measure the model alone; the usb-stick write
# runs in the default time-travel mode, where CPU work counts.  Prints a
# Markdown table.
#   scripts/bench-disks.sh [--out DIR]
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

out=${1:-}
[ "$out" != --out ] || out=${2:?--out needs a folder}
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/reclaimlab-bench.XXXXXX")
mkdir -p "$out"

# guest job: raw-device IO on the first disk, results as key=value lines
cat >"$out/seq.sh" <<'JOB'
set -eu
umount /mnt/ext4
rl-dd write /dev/ubda --size 128M --bs 1M --direct >/results/write.out
rl-dd read /dev/ubda --size 128M --bs 1M --direct >/results/read.out
JOB
cat >"$out/rand.sh" <<'JOB'
set -eu
umount /mnt/ext4
start=$(cut -d' ' -f1 /proc/uptime)
# 200 writes of 4 KiB at scattered 4 KiB-aligned offsets of the whole disk
# (a disk with a spindle speed averages its seek over the whole disk)
blocks=$(($(cat /sys/block/ubda/size) / 8))
awk -v n="$blocks" 'BEGIN { srand(7); for (i = 0; i < 200; i++) print int(rand() * n) }' |
while read -r block; do
	dd if=/dev/zero of=/dev/ubda bs=4k count=1 seek="$block" oflag=direct conv=notrunc 2>/dev/null
done
end=$(cut -d' ' -f1 /proc/uptime)
echo "ios=200 seconds=$(echo "$start $end" | awk '{ print $2 - $1 }')" >/results/rand.out
JOB
cat >"$out/usb200.sh" <<'JOB'
set -eu
rl-dd write /mnt/ext4/f --size 200M --bs 1M --fsync >/results/write.out
JOB

boot() { # NAME PROFILE JOB [TIME-TRAVEL-OPTION [RUN.SH OPTION...]]
	local name=$1 profile=$2 job=$3 clock=${4:---time-travel=inf-cpu}
	shift $(($# < 4 ? $# : 4))
	"$RL_TOP/scripts/run.sh" --out "$out/$name" "$clock" --mem 512M --timeout 600 \
		--disk "ext4:$profile" --job "$out/$job" "$@" >/dev/null ||
		die "benchmark run $name failed: $(run_status "$out/$name")"
}
# the figures are rl-bench's, from what the runs wrote (scripts/tools/bench.c)
build_host_tools
bench() { "$RL_HOST_TOOLS/rl-bench" "$@"; }

echo "| profile | configured write / read | achieved write / read (1 MiB O_DIRECT) | error |"
echo "|---|---|---|---|"
for p in usb-stick hdd ssd; do
	boot "seq-$p" "$p" seq.sh
	bench disk-row "$(disk_model "$p")" "$out/seq-$p/guest/write.out" "$out/seq-$p/guest/read.out"
done
echo
boot rand-hdd hdd rand.sh
bench random-iops "$(disk_model hdd)" "$out/rand-hdd/guest/rand.out"
boot rand-hdd-again hdd rand.sh
echo "same random run twice: $(bench value "$out/rand-hdd/guest/rand.out" seconds) s and $(bench value "$out/rand-hdd-again/guest/rand.out" seconds) s simulated"
# the seed of the disk's draws (patch 0021) is rng-seed=, 0 without one
boot rand-hdd-seed2 hdd rand.sh --time-travel=inf-cpu --append rng-seed=2
echo "same random run with seed 2: $(bench value "$out/rand-hdd-seed2/guest/rand.out" seconds) s simulated"
boot usb200 usb-stick usb200.sh --time-travel
echo "200 MB write + fsync to usb-stick: $(bench value "$out/usb200/guest/write.out" seconds) s simulated, $(bench value "$out/usb200/status" wall_seconds) s wall"
