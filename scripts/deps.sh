#!/bin/bash
# Install the Debian packages reclaimlab needs, or say how to.
#   scripts/deps.sh              what the main job needs (make compare: the
#                                kernel, rootfs, images, guest tools, report)
#   scripts/deps.sh --all        that and what the tests and the other
#                                tools need (make test, make gdb, other
#                                kernels, compare.sh --hosts)
#   scripts/deps.sh --check [--all]  only report; exit 1 if something is missing
#   scripts/deps.sh --list [--all]   print the packages, a line each
# As root it installs what is missing; otherwise it prints the command for
# root and fails.
set -eu

# The main job: the lab's kernel source, the mkfs tools of the catalogue's
# filesystems, the packages of its guest tools, the build tools, gnuplot
# (the report's plots) and parallel (compare.sh's scheduler).
MAIN_PACKAGES="linux-source-6.12 busybox-static $(sed -n 's/^\(fs\|tool\)\t[^\t]*\t\([^\t]*\).*/\2/p' \
	"$(dirname "$0")/catalogue.tsv" | tr '\n' ' ')gcc libc6-dev make bc bison flex
libelf-dev cpio ccache python3 xz-utils git gnuplot-nox util-linux parallel"
# The rest: the kernel sources of the other series folders
# (kernel-patches/*/source: compare.sh --kernel), gdb (scripts/gdb.sh),
# valgrind and shellcheck (the tests), chromium (the tests render
# report.html in it), ssh (compare.sh --hosts): on a new Debian 12
# machine 284 MB to fetch and 611 MB installed (2026-12-07) that a first
# report does not need; the main job's are 252 MB and 643 MB.
ALL_PACKAGES="$MAIN_PACKAGES $(sed -n '1s/^\(linux-source-[0-9.]*\)$/\1/p' \
	"$(dirname "$0")"/../kernel-patches/*/source | tr '\n' ' ')gdb valgrind
shellcheck chromium openssh-client"

check_only=0
list_only=0
PACKAGES=$MAIN_PACKAGES
while [ $# -gt 0 ]; do
	case "$1" in
	--check) check_only=1 ;;
	--list) list_only=1 ;;
	--all) PACKAGES=$ALL_PACKAGES ;;
	*)
		echo "usage: $0 [--check | --list] [--all] (bad option '$1'; valid: --check --list --all)" >&2
		exit 2
		;;
	esac
	shift
done

if [ "$list_only" = 1 ]; then
	# shellcheck disable=SC2086 # a word a package
	printf '%s\n' $PACKAGES
	exit 0
fi
missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
missing=${missing# }

[ -z "$missing" ] && exit 0
if [ "$check_only" = 1 ]; then
	echo "reclaimlab: missing packages: $missing" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "reclaimlab: error: missing packages: $missing" >&2
	echo "reclaimlab: run this as root, then retry:" >&2
	echo "  apt-get update && apt-get install -y $missing" >&2
	exit 1
fi
echo "reclaimlab: installing: $missing" >&2
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of the package list is wanted
apt-get install -y -q $missing >/dev/null ||
	{ apt-get update -q >/dev/null && apt-get install -y -q $missing >/dev/null; } ||
	{ echo "reclaimlab: error: apt-get could not install: $missing" >&2; exit 1; }
