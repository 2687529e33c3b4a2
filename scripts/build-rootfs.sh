#!/bin/bash
# Pack the guest root filesystem: busybox-static, the guest tools built from
# rootfs/tools, rootfs/init and the scenario files, as an initramfs cpio
# archive made by the kernel's gen_init_cpio (no root privileges needed: file
# owners and device nodes are written into the archive, not onto a disk).
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

BUSYBOX=${BUSYBOX:-/bin/busybox}
OUT=$RL_BUILD/rootfs
[ -x "$BUSYBOX" ] || die "$BUSYBOX not found (install busybox-static: scripts/deps.sh)"
file -L "$BUSYBOX" 2>/dev/null | grep -q 'dynamically linked' &&
	die "$BUSYBOX is dynamically linked; install busybox-static"
[ -f "$RL_KSRC/usr/gen_init_cpio.c" ] || die "kernel source missing; run scripts/build-kernel.sh first"

mkdir -p "$OUT/bin"
make -s -C "$RL_TOP/rootfs/tools" OUT="$OUT/bin"
gcc -O2 -o "$OUT/gen_init_cpio" "$RL_KSRC/usr/gen_init_cpio.c"

spec=$OUT/rootfs.spec
{
	for d in /bin /sbin /usr /usr/bin /usr/sbin /dev /proc /sys /tmp /mnt \
		/results /root /etc /reclaimlab /reclaimlab/bin /reclaimlab/scenarios; do
		echo "dir $d 755 0 0"
	done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "nod /dev/null 666 0 0 c 1 3"
	echo "file /bin/busybox $BUSYBOX 755 0 0"
	"$BUSYBOX" --list-full | while read -r applet; do
		[ "$applet" = bin/busybox ] && continue
		echo "slink /$applet /bin/busybox 777 0 0"
	done
	echo "file /init $RL_TOP/rootfs/init 755 0 0"
	for t in "$OUT"/bin/rl-*; do
		[ -e "$t" ] && echo "file /reclaimlab/bin/${t##*/} $t 755 0 0"
	done
	for s in "$RL_TOP"/rootfs/scenarios/* "$RL_TOP"/rootfs/lib/*; do
		[ -f "$s" ] || continue
		case "$s" in
		*/scenarios/*) echo "file /reclaimlab/scenarios/${s##*/} $s 644 0 0" ;;
		*) echo "file /reclaimlab/bin/${s##*/} $s 755 0 0" ;;
		esac
	done
	echo "file /etc/passwd /dev/stdin 644 0 0" | sed 's|/dev/stdin|'"$OUT"'/passwd|'
} >"$spec.tmp"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$OUT/passwd"
mv "$spec.tmp" "$spec"
"$OUT/gen_init_cpio" "$spec" >"$OUT/rootfs.cpio.tmp"
mv "$OUT/rootfs.cpio.tmp" "$RL_ROOTFS"
note "rootfs ready: $RL_ROOTFS ($(du -k "$RL_ROOTFS" | cut -f1) KiB)"
