#!/bin/bash
# Benchmark of the emulated disks (ubd timing model): for each profile,
# configured vs achieved sequential bandwidth (1 MiB O_DIRECT writes and
# reads on the raw device), 4 KiB random write IOPS on hdd against
# 1/(seek + half a revolution + 4K/bandwidth), the same run twice and once
# with another seed of the disk's random draws (simulated duration), and
# wall vs simulated seconds of a 200 MB write to usb-stick, and for each
# flash profile (the flash translation model, patch 0032) its sequential
# write rate, the latency of a 4 KiB write that opens an allocation unit
# when all open ones are in use, and flashbench's --open-au pattern (the
# real flashbench, in the guest: rate against block size for 1 to open_au
# + 1 concurrently written units), each beside the published figure the
# profile's catalogue comment cites and flagged within 20% or not.  The
# device figures run under time-travel=inf-cpu, where guest CPU work takes
# no simulated time, so they measure the model alone; the usb-stick write
# runs in the default time-travel mode, where CPU work counts.  Prints
# Markdown tables.
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
# the figures are rl-bench's, from what the runs wrote (scripts/tools/bench/bench.c)
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
echo "200 MB write + fsync to usb-stick: $(bench value "$out/usb200/guest/write.out" seconds) s simulated, $(run_fact "$out/usb200" wall_seconds) s wall"

# The flash profiles against their published flashbench figures (the
# catalogue comment of each profile cites the device and the source).
# Lines: PROFILE ERASESIZE_KIB BLOCKSIZE_KIB NR FIGURE... with FIGURE
# BLOCK=RATE (flashbench's own units, M/s or K/s; what the source
# published, nothing else), and PROFILE seq RATE: the sequential rate the
# source published at 1 MiB blocks with no more units than open.
flash_published() {
	cat <<'FIGURES'
kingston-sa04g seq 5.19M/s
kingston-sa04g 4096 16 1 4MiB=6.45M/s 2MiB=5.19M/s 1MiB=5.19M/s 512KiB=5.1M/s 256KiB=5.15M/s 128KiB=5.14M/s 64KiB=5.1M/s 32KiB=4.94M/s 16KiB=3.71M/s
kingston-sa04g 4096 16 2 4MiB=3.88M/s 2MiB=5.19M/s 1MiB=5.12M/s 512KiB=5.06M/s 256KiB=4.99M/s 128KiB=4.77M/s 64KiB=4.64M/s 32KiB=4.53M/s 16KiB=3.38M/s
kingston-sa04g 4096 16 3 4MiB=4.47M/s 2MiB=5.19M/s 1MiB=5.17M/s 512KiB=5.12M/s 256KiB=4.96M/s 128KiB=4.77M/s 64KiB=4.65M/s 32KiB=4.49M/s 16KiB=3.36M/s
kingston-sa04g 4096 128 4 4MiB=6.06M/s 2MiB=4.49M/s 1MiB=2.82M/s 512KiB=1.25M/s 256KiB=607K/s 128KiB=302K/s
fb-readme seq 6.87M/s
fb-readme 4096 256 2 4MiB=8.79M/s 2MiB=7.41M/s 1MiB=6.87M/s 512KiB=6.39M/s 256KiB=6.27M/s
fb-readme 4096 256 3 4MiB=7.75M/s 2MiB=5.03M/s 1MiB=3.24M/s 512KiB=1.76M/s 256KiB=912K/s
FIGURES
}
FLASH_PROFILES="kingston-sa04g fb-readme"

# flash_job PROFILE: the guest job of one flash profile, written to $out
flash_job() {
	local p=$1 line f
	{
		echo "AU_KB=$(profile_value "$(disk_model "$p")" au_kb)"
		echo "OPEN_AU=$(profile_value "$(disk_model "$p")" open_au)"
		cat <<'JOB'
set -eu
umount /mnt/ext4
export PATH=$PATH:/tools/bin
# 4 KiB writes, one to each of OPEN_AU + 1 units so that all open ones are
# in use, then 10 more, each to a unit not open: each closes the one least
# recently written (4 KiB of it written)
k=0
while [ $k -le "$OPEN_AU" ]; do
	dd if=/dev/zero of=/dev/ubda bs=4k count=1 seek=$(((256 + k) * AU_KB / 4)) oflag=direct 2>/dev/null
	k=$((k + 1))
done
start=$(cut -d" " -f1 /proc/uptime)
k=0
while [ $k -lt 10 ]; do
	dd if=/dev/zero of=/dev/ubda bs=4k count=1 seek=$(((512 + k) * AU_KB / 4)) oflag=direct 2>/dev/null
	k=$((k + 1))
done
end=$(cut -d" " -f1 /proc/uptime)
echo "writes=10 seconds=$(echo "$start $end" | awk '{ print $2 - $1 }')" >/results/open4k.out
rl-dd write /dev/ubda --size 128M --bs 1M --direct >/results/seq.out
JOB
		flash_published | while read -r line; do
			read -ra f <<<"$line"
			if [ "${f[0]}" != "$p" ] || [ "${f[1]}" = seq ]; then
				continue
			fi
			echo "flashbench --open-au --open-au-nr=${f[3]} --erasesize=$((f[1] * 1024)) --blocksize=$((f[2] * 1024)) /dev/ubda >/results/openau.${f[3]}.out"
		done
		echo 'cat /sys/block/ubda/model >/results/model.out'
	} >"$out/flash-$p.sh"
}

# rate_bps RATE: flashbench's "6.45M/s" or "912K/s" in bytes a second
rate_bps() {
	echo "$1" | awk '{ v = $1 + 0; if ($1 ~ /K\/s/) v *= 1e3; else if ($1 ~ /M\/s/) v *= 1e6; printf "%.0f\n", v }'
}

# within LAB PUBLISHED: "yes" if LAB is within 20% of PUBLISHED, else "no"
within() {
	awk -v l="$1" -v p="$2" 'BEGIN { d = (l - p) / p; printf "%+.0f%% %s\n", d * 100, (d <= 0.2 && d >= -0.2) ? "yes" : "no" }'
}

for p in $FLASH_PROFILES; do
	flash_job "$p"
	boot "flash-$p" "$p" "flash-$p.sh"
	dir=$out/flash-$p/guest
	echo
	echo "flash profile $p ($(disk_model "$p"))"
	echo
	echo "| figure | lab | published | lab against published | within 20% |"
	echo "|---|---|---|---|---|"
	seq_lab=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^mbps=/) print substr($i, 6) * 1e6 }' "$dir/seq.out")
	seq_pub=$(rate_bps "$(flash_published | awk -v p="$p" '$1 == p && $2 == "seq" { print $3 }')")
	echo "| sequential write, 1 MiB O_DIRECT | $(awk -v v="$seq_lab" 'BEGIN { printf "%.2f MB/s", v / 1e6 }') | $(awk -v v="$seq_pub" 'BEGIN { printf "%.2f MB/s", v / 1e6 }') (1 MiB, units <= open) | $(within "$seq_lab" "$seq_pub" | sed 's/ / | /')|"
	lat=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^seconds=/) print substr($i, 9) * 100 }' "$dir/open4k.out")
	echo "| 4 KiB write opening a unit, all open ones in use (mean of 10) | $lat ms | not published | - | - |"
	flash_published | while read -r line; do
		read -ra f <<<"$line"
		if [ "${f[0]}" != "$p" ] || [ "${f[1]}" = seq ]; then
			continue
		fi
		nr=${f[3]}
		for fig in "${f[@]:4}"; do
			blk=${fig%%=*}
			pub=$(rate_bps "${fig#*=}")
			labr=$(awk -v b="$blk" '$1 == b { print $2 }' "$dir/openau.$nr.out")
			[ -n "$labr" ] || die "flashbench printed no $blk line for $p with $nr units: $(cat "$dir/openau.$nr.out")"
			echo "| --open-au, $nr units, $blk blocks | $labr | ${fig#*=} | $(within "$(rate_bps "$labr")" "$pub" | sed 's/ / | /') |"
		done
	done
	echo
	echo "counters: $(grep -E '^(au_opens|au_closes|gc_pages|gc_us)=' "$dir/model.out" | tr '\n' ' ')"
done
