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
