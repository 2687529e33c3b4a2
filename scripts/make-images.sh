#!/bin/bash
# Make the base disk images on sparse files, without root: one per
# filesystem under study plus a swap image.  Runs never write to them: each
# run gets its own UML copy-on-write overlay.
#   scripts/make-images.sh [FS...]    (default: ext4 xfs vfat btrfs swap)
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

DISK_SIZE=${RL_DISK_SIZE:-6G}
SWAP_SIZE=${RL_SWAP_SIZE:-1G}

make_image() {
	local fs=$1 img=$RL_IMAGES/$1.img tmp
	tmp=$img.tmp.$$
	rm -f "$tmp"
	# ext4 without lazy init: a background ext4lazyinit thread would add IO
	# of its own to every experiment.
	case "$fs" in
	ext4) truncate -s "$DISK_SIZE" "$tmp" && mkfs.ext4 -q -F -L rl-ext4 -E lazy_itable_init=0,lazy_journal_init=0 "$tmp" ;;
	xfs) truncate -s "$DISK_SIZE" "$tmp" && mkfs.xfs -q -f -L rl-xfs "$tmp" ;;
	vfat) truncate -s "$DISK_SIZE" "$tmp" && mkfs.vfat -F 32 -n RL-VFAT "$tmp" >/dev/null ;;
	btrfs) truncate -s "$DISK_SIZE" "$tmp" && mkfs.btrfs -q -f -L rl-btrfs "$tmp" >/dev/null ;;
	swap) truncate -s "$SWAP_SIZE" "$tmp" && mkswap -L rl-swap "$tmp" >/dev/null 2>&1 ;;
	*) die "unknown image '$fs' (valid: $RL_FILESYSTEMS swap)" ;;
	esac || {
		rm -f "$tmp"
		die "mkfs for $fs failed"
	}
	# Base images are read-only so nothing but an overlay can change them.
	chmod 444 "$tmp"
	mv -f "$tmp" "$img"
}

mkdir -p "$RL_IMAGES"
# shellcheck disable=SC2086 # the default list is split into words
[ $# -gt 0 ] || set -- $RL_FILESYSTEMS swap
for fs in "$@"; do
	word_in "$fs" "$RL_FILESYSTEMS swap" || die "unknown image '$fs' (valid: $RL_FILESYSTEMS swap)"
done
for fs in "$@"; do
	make_image "$fs"
done
note "images ready in $RL_IMAGES: $*"
