# shellcheck shell=bash disable=SC2034 # the paths are used by the sourcing scripts
# Shared helpers and paths for reclaimlab's host-side scripts. Sourced, not run.

RL_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RL_BUILD=${RL_BUILD:-$RL_TOP/build}
RL_FLAVOR=${KERNEL_FLAVOR:-normal}
RL_KSRC=${RL_KSRC:-$RL_BUILD/src/linux}
RL_KOUT=$RL_BUILD/kernel/$RL_FLAVOR
RL_KERNEL=$RL_KOUT/linux
RL_ROOTFS=$RL_BUILD/rootfs/rootfs.cpio
RL_IMAGES=$RL_BUILD/images
RL_RESULTS=${RL_RESULTS:-$RL_TOP/results}
RL_FILESYSTEMS="ext4 xfs vfat btrfs"
RL_FLAVORS="normal debug"
RL_KERNEL_TARBALL=${RL_KERNEL_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reclaimlab/ccache}

die() {
	printf 'reclaimlab: error: %s\n' "$*" >&2
	exit 1
}

note() {
	printf 'reclaimlab: %s\n' "$*" >&2
}

# word_in WORD LIST: true if WORD is one of the space-separated LIST
word_in() {
	local w
	for w in $2; do
		[ "$w" = "$1" ] && return 0
	done
	return 1
}

check_flavor() {
	word_in "$RL_FLAVOR" "$RL_FLAVORS" ||
		die "unknown kernel flavour '$RL_FLAVOR' (valid: $RL_FLAVORS)"
}

# Emulated disk profiles (ubd.model= of the ubd timing model patch):
# bandwidths in kB/s (1000 bytes), times in microseconds.
RL_PROFILES="host usb-stick hdd ssd"
RL_PROFILE_KEYS="rbw wbw seek req lat qd"

profile_params() {
	case "$1" in
	host) echo "rbw=0,wbw=0,seek=0,req=0,lat=0,qd=64" ;;
	usb-stick) echo "rbw=20000,wbw=6500,seek=0,req=1000,lat=0,qd=1" ;;
	hdd) echo "rbw=95000,wbw=95000,seek=8000,req=0,lat=0,qd=32" ;;
	ssd) echo "rbw=450000,wbw=450000,seek=0,req=0,lat=100,qd=32" ;;
	*) return 1 ;;
	esac
}

# disk_model SPEC: "hdd" or "hdd,wbw=50000,seek=4000" -> the ubd.model=
# value after the unit number, or a die() naming what is wrong.
disk_model() {
	local spec=$1 name params kv key val
	name=${spec%%,*}
	params=$(profile_params "$name") ||
		die "unknown device profile '$name' (valid: $RL_PROFILES; add ,key=value to change one of: $RL_PROFILE_KEYS)"
	if [ "$name" != "$spec" ]; then
		for kv in $(echo "${spec#*,}" | tr ',' ' '); do
			key=${kv%%=*}
			val=${kv#*=}
			if [ "$key" = "$kv" ] || ! word_in "$key" "$RL_PROFILE_KEYS"; then
				die "bad device setting '$kv' in '$spec' (valid keys: $RL_PROFILE_KEYS, as key=number)"
			fi
			[[ "$val" =~ ^[0-9]+$ ]] || die "bad value '$val' for $key in '$spec' (use a whole number)"
			params=$(echo ",$params" | sed -E "s/,$key=[0-9]+/,$key=$val/; s/^,//")
		done
		name=custom
	fi
	echo "name=$name,$params"
}

# Knob sets: which behaviour a run has.  A knob the kernel lacks is
# recorded as absent in the run's knobs file.
RL_KNOB_SETS="patched vanilla noplug"

knob_set() {
	case "$1" in
	patched) echo "vm.pageout_work=1 vm.reclaim_wait_dirty=1 vm.reclaim_plug=1" ;;
	vanilla) echo "vm.pageout_work=0 vm.reclaim_wait_dirty=0 vm.reclaim_plug=1" ;;
	noplug) echo "vm.pageout_work=0 vm.reclaim_wait_dirty=0 vm.reclaim_plug=0" ;;
	*) return 1 ;;
	esac
}

rl_scenarios() {
	local f
	for f in "$RL_TOP"/rootfs/scenarios/*.scn; do
		basename "$f" .scn
	done | tr '\n' ' ' | sed 's/ $//'
}

# scenario_setting SCENARIO KEY DEFAULT: a SCN_* line of the scenario file,
# read without running the file on the host.
scenario_setting() {
	local v
	v=$(sed -n "s/^SCN_$2=//p" "$RL_TOP/rootfs/scenarios/$1.scn" | tail -1)
	echo "${v:-$3}"
}
