# shellcheck shell=bash
# A guest's disks, as run.sh's --disk options list them ("FS[:PROFILE]
# ..."): checked against the catalogue and the images, and what they give
# the kernel command line (ubdN=, ubd.model=), job.env (RL_DISKS, RL_SWAP)
# and run.conf (disks=).  Disk N is the guest's ubdN: ubda, ubdb, ...; the
# swap disk comes after the others.  Sourced by lib.sh.

# disk_fs FS[:PROFILE]: the filesystem
disk_fs() {
	echo "${1%%:*}"
}

# disk_profile FS[:PROFILE]: the device profile, host if none is given
disk_profile() {
	if [ "${1%%:*}" = "$1" ]; then
		echo host
	else
		echo "${1#*:}"
	fi
}

# first_disk "FS[:PROFILE] ...": the first disk of the list
first_disk() {
	local first _
	read -r first _ <<<"$1"
	echo "$first"
}

# with_first_profile "FS[:PROFILE] ..." PROFILE: the list with PROFILE
# (host if it is empty) on the first disk, unless that names its own
with_first_profile() {
	local first rest
	read -r first rest <<<"$1"
	[ "${first%%:*}" != "$first" ] || first=$first:${2:-host}
	echo "$first${rest:+ $rest}"
}

# ubd_name N: the guest's name of disk N (0: ubda)
ubd_name() {
	local letters=abcdefghijklmnop
	echo "ubd${letters:$1:1}"
}

# check_disks "FS[:PROFILE] ..." SWAP SWAP_PROFILE: die unless each disk
# names a filesystem of the catalogue once, with a valid profile, and its
# image (and the swap image, if SWAP is 1) exists.
check_disks() {
	local d fs seen=""
	for d in $1; do
		fs=$(disk_fs "$d")
		word_in "$fs" "$RL_FILESYSTEMS" || die "unknown filesystem '$fs' (valid: $RL_FILESYSTEMS)"
		disk_model "$(disk_profile "$d")" >/dev/null
		word_in "$fs" "$seen" && die "filesystem '$fs' given twice"
		seen="$seen $fs"
		[ -r "$RL_IMAGES/$fs.img" ] || die "image $RL_IMAGES/$fs.img not found; make it with 'make images'"
	done
	disk_model "$3" >/dev/null
	[ $(($(wc -w <<<"$1") + $2)) -le "$RL_TOOLS_UNIT" ] ||
		die "too many disks: the guest has $RL_TOOLS_UNIT for the experiment and swap (ubda to $(ubd_name $((RL_TOOLS_UNIT - 1))))"
	[ "$2" = 0 ] || [ -r "$RL_IMAGES/swap.img" ] ||
		die "image $RL_IMAGES/swap.img not found; make it with 'make images'"
}

# check_overlay_room MEM "FS[:PROFILE] ..." SWAP [DISK_USE]: die unless the
# guest's memory and its disks' copy-on-write overlays fit the free space
# of RL_TMPDIR (a tmpfs: when it fills, the guest dies of SIGBUS or its
# disks fail).  An overlay grows at most to its image's size, so that is
# the bound; a scenario declares what it writes (DISK_USE bytes, on its
# first disk), and a run that fits only that far is let through with a note.
check_overlay_room() {
	local shm=${RL_TMPDIR:-/dev/shm} free worst expected d img
	free=$(avail_bytes "$shm")
	worst=$(size_bytes "$1")
	expected=$worst
	for d in $2; do
		img=$(stat -L -c %s "$RL_IMAGES/$(disk_fs "$d").img")
		worst=$((worst + img))
	done
	if [ "$3" = 1 ]; then
		img=$(stat -L -c %s "$RL_IMAGES/swap.img")
		worst=$((worst + img))
		expected=$((expected + img))
	fi
	[ "$worst" -gt "${free:-0}" ] || return 0
	if [ -z "${4:-}" ]; then
		note "the guest's memory and disk overlays may grow to $(human_size "$worst") (the images' sizes), more than the $(human_size "${free:-0}") free in '$shm': a guest that writes that much fails"
		return 0
	fi
	expected=$((expected + ${4} + ${4} / 10))
	[ "$expected" -le "${free:-0}" ] ||
		die "the guest's memory and what the scenario writes need $(human_size "$expected") in '$shm', which has $(human_size "${free:-0}") free; use smaller sizes, a smaller --mem or another RL_TMPDIR"
}

# guest_input TMP FILE: link TMP/in/NAME to FILE (an image, the rootfs)
# and print the link.  The kernel command line names its inputs by these
# links, which have one length wherever the build is (another build folder,
# another host): the guest reads the command line, and its length moved the
# cpu clock's figures as the run folder's path did (hostfs_args).
guest_input() {
	mkdir -p "$1/in"
	ln -sfn "$2" "$1/in/${2##*/}"
	echo "$1/in/${2##*/}"
}

# disk_args TMP "FS[:PROFILE] ..." SWAP SWAP_PROFILE: the kernel arguments
# of the disks (and of the swap disk if SWAP is 1), each after a space:
# a copy-on-write overlay in TMP over its read-only image, and its device
disk_args() {
	local d fs n=0 args=""
	for d in $2; do
		fs=$(disk_fs "$d")
		args="$args ubd$n=$1/$fs.cow,$(guest_input "$1" "$RL_IMAGES/$fs.img") ubd.model=$n,$(disk_model "$(disk_profile "$d")")"
		n=$((n + 1))
	done
	[ "$3" = 0 ] || args="$args ubd$n=$1/swap.cow,$(guest_input "$1" "$RL_IMAGES/swap.img") ubd.model=$n,$(disk_model "$4")"
	echo "$args"
}

# guest_disks "FS[:PROFILE] ...": job.env's RL_DISKS, "ubda:FS:MOUNT-OPTIONS ..."
guest_disks() {
	local d fs n=0 list=""
	for d in $1; do
		fs=$(disk_fs "$d")
		list="$list $(ubd_name $n):$fs:$(catalogue_field fs "$fs" 4)"
		n=$((n + 1))
	done
	echo "${list# }"
}

# guest_swap "FS[:PROFILE] ..." SWAP: job.env's RL_SWAP, the swap disk's
# name if SWAP is 1
guest_swap() {
	local words
	read -ra words <<<"$1"
	[ "$2" = 0 ] || ubd_name "${#words[@]}"
}

# disk_models "FS[:PROFILE] ..." SWAP SWAP_PROFILE: run.conf's disks=,
# "ubda:FS:PROFILE ..." and "ubdX:swap:PROFILE" if SWAP is 1
disk_models() {
	local d n=0 list=""
	for d in $1; do
		list="$list $(ubd_name $n):$(disk_fs "$d"):$(disk_profile "$d")"
		n=$((n + 1))
	done
	[ "$2" = 0 ] || list="$list $(ubd_name $n):swap:$3"
	echo "${list# }"
}

# The tools disk (scripts/build-guest-tools.sh): fio, trace-cmd, sysstat,
# blktrace, strace and stress-ng with their libraries, on a read-only ext4
# image that every guest gets as its last ubd, ubdp (unit 15 of UML's 16:
# it never meets the experiment's disks and swap, ubda onwards), without an
# overlay; rootfs/init mounts it read-only at /tools.  Its model is the host
# profile's, which costs no time: an unmodelled ubd completes requests from
# its IO thread, whenever the host runs it, and under time-travel that made
# the guest clock depend on the host (t_cpu_clock_ignores_host_load: 1.60
# against 18.66 simulated seconds); a modelled one does the host IO at once.
RL_TOOLS_IMAGE=$RL_IMAGES/guest-tools.img
RL_TOOLS_UNIT=15

# tools_attached TOOLS: true if TOOLS is 1 and the image exists (else the
# guest boots without /tools)
tools_attached() {
	[ "$1" = 1 ] && [ -r "$RL_TOOLS_IMAGE" ]
}

# tools_args TMP TOOLS: the kernel arguments of the tools disk, after a
# space, if it is attached (the guest learns its name from job.env's
# RL_TOOLS: guest_tools)
tools_args() {
	tools_attached "$2" || return 0
	echo " ubd${RL_TOOLS_UNIT}r=$(guest_input "$1" "$RL_TOOLS_IMAGE") ubd.model=$RL_TOOLS_UNIT,$(disk_model host)"
}

# guest_tools TOOLS: job.env's RL_TOOLS, the tools disk's name (ubdp) if it
# is attached, else empty
guest_tools() {
	tools_attached "$1" || return 0
	ubd_name "$RL_TOOLS_UNIT"
}

# tools_conf TOOLS: run.conf's tools=, "ubdp:SHA256" (the hash of the
# image's stamp, the list of its files and their hashes) or empty
tools_conf() {
	tools_attached "$1" || return 0
	printf '%s:%s\n' "$(ubd_name "$RL_TOOLS_UNIT")" \
		"$(sha256sum <"$RL_TOOLS_IMAGE.stamp" 2>/dev/null | cut -d' ' -f1)"
}
