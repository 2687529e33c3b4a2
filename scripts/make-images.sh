#!/bin/bash
# Make the base disk images on sparse files, without root: one per
# filesystem under study plus a swap image.  Runs never write to them: each
# run gets its own UML copy-on-write overlay.
# The mkfs command of each filesystem is the catalogue's.
#   scripts/make-images.sh [FS...]    (default: every filesystem, and swap)
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

DISK_SIZE=${RL_DISK_SIZE:-6G}
SWAP_SIZE=${RL_SWAP_SIZE:-1G}

make_image() {
	local fs=$1 img=$RL_IMAGES/$1.img tmp mkfs
	tmp=$img.tmp.$$
	rm -f "$tmp"
	if [ "$fs" = swap ]; then
		truncate -s "$SWAP_SIZE" "$tmp" && mkswap -L rl-swap "$tmp" >/dev/null 2>&1
	else
		# split into words, never evaluated: the catalogue holds a command line
		read -r -a mkfs <<<"$(catalogue_field fs "$fs" 5)"
		truncate -s "$DISK_SIZE" "$tmp" && "${mkfs[@]}" "$tmp" >/dev/null
	fi || {
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
