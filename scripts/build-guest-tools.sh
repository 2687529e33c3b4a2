#!/bin/bash
# Make the guest's tools disk: the programs of the catalogue's tool lines
# (fio, trace-cmd, sysstat, blktrace, strace, stress-ng, attr), taken from the
# host's Debian packages with exactly the shared libraries they load (their
# ldd closure, the dynamic loader included, as initramfs-tools' copy_exec
# takes it), in a read-only ext4 image made without root (mkfs.ext4 -d).
# Every guest gets it read-only as ubdp (run.sh) and mounts it at /tools
# (rootfs/init).  A UML guest runs the host's x86_64 binaries unchanged.
#
# The image is rebuilt only when what goes into it changes: its stamp lists
# every file with its hash (and this script's and mkfs's versions).
#   scripts/build-guest-tools.sh          build if out of date
#   scripts/build-guest-tools.sh --list   print the stamp (what would go in)
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

IMG=$RL_IMAGES/guest-tools.img
STAMP=$IMG.stamp

list_only=0
case "${1:-}" in
"") ;;
--list) list_only=1 ;;
*)
	echo "usage: $0 [--list]" >&2
	exit 2
	;;
esac

# tool_files: the host files the catalogue's tool lines name, one a line
tool_files() {
	local kind name pkgs files pat f
	while IFS=$'\t' read -r kind name pkgs files; do
		[ "$kind" = tool ] || continue
		for pat in $files; do
			# a pattern expands to the host's files (pathname expansion only)
			for f in $pat; do
				[ -f "$f" ] || die "tool $name: $f not found (install: $pkgs; scripts/deps.sh)"
				echo "$f"
			done
		done
	done <"$RL_CATALOGUE"
}

# ldd_closure FILE: the shared objects FILE loads, the loader included, one
# path a line as ldd gives them; dies on a library that is not found
ldd_closure() {
	local out line
	# a file that is not dynamically linked (a static binary, a script)
	# needs nothing; the guest has no LD_PRELOAD nor LD_LIBRARY_PATH, so
	# neither may change what the host's loader finds
	out=$(env -u LD_PRELOAD -u LD_LIBRARY_PATH LC_ALL=C ldd "$1" 2>/dev/null) || return 0
	while read -r line; do
		case "$line" in
		*"not found"*) die "$1 needs ${line%% *}, which is not installed" ;;
		*" => /"*) line=${line#* => } ;;
		/*) ;;
		*) continue ;; # linux-vdso.so.1: the kernel's
		esac
		echo "${line%% (*}"
	done <<<"$out"
}

# closure: the tool files and every library they load, each once
closure() {
	local f
	tool_files | while read -r f; do
		echo "$f"
		ldd_closure "$f"
	done | sort -u
}

# stamp: one line per file, "SHA256 PATH" (PATH as the guest sees it
# under /tools), then the builder's versions
stamp() {
	local f
	while read -r f; do
		printf '%s %s\n' "$(sha256sum <"$f" | cut -d' ' -f1)" "$f"
	done
	echo "builder $(sha256sum <"$0" | cut -d' ' -f1)"
	echo "mkfs $(mkfs.ext4 -V 2>&1 | head -1)"
}

files=$(closure)
[ -n "$files" ] || die "the catalogue names no guest tools"
new_stamp=$(stamp <<<"$files")
if [ "$list_only" = 1 ]; then
	printf '%s\n' "$new_stamp"
	exit 0
fi
if [ -f "$IMG" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$new_stamp" ]; then
	note "guest tools up to date: $IMG"
	exit 0
fi

mkdir -p "$RL_IMAGES"
tree=$RL_IMAGES/guest-tools.tree.$$
tmp=$IMG.tmp.$$
trap 'rm -rf "$tree" "$tmp"' EXIT
rm -rf "$tree"
# Each file at the path ldd (or the catalogue) gives; a second path of a
# file already copied (the same library through /lib and /usr/lib) is a
# symbolic link to the first, as copy_exec makes it.
declare -A first_copy
while read -r f; do
	real=$(readlink -f "$f")
	mkdir -p "$tree$(dirname "$f")"
	if [ -n "${first_copy[$real]:-}" ]; then
		ln -s "${first_copy[$real]}" "$tree$f"
	else
		cp -L --preserve=mode,timestamps "$f" "$tree$f"
		first_copy[$real]=$f
	fi
done <<<"$files"

# Room for ext4's metadata: an eighth more than the files, and 8 MiB.
bytes=$(du -sb "$tree" | cut -f1)
size_mib=$(((bytes + bytes / 8) / 1048576 + 8))
# no journal (nothing writes it), no reserved blocks, a fixed UUID and hash
# seed: the same files give the same filesystem
mkfs.ext4 -q -F -L rl-tools -O ^has_journal -m 0 \
	-U 7e1a0c1b-7001-4c5a-9b1e-000000000001 -E hash_seed=7e1a0c1b-7001-4c5a-9b1e-000000000002 \
	-d "$tree" "$tmp" "${size_mib}M" >/dev/null ||
	die "mkfs.ext4 -d of the guest tools failed"
chmod 444 "$tmp"
mv -f "$tmp" "$IMG"
printf '%s\n' "$new_stamp" >"$STAMP"
note "guest tools ready: $IMG ($(wc -l <<<"$files") files, $((bytes / 1024)) KiB in a $size_mib MiB ext4 image)"
