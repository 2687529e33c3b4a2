#!/bin/bash
# Install the Debian packages reclaimlab needs, or say how to.
#   scripts/deps.sh          install what is missing (root), or print the
#                            command for root and fail (non-root)
#   scripts/deps.sh --check  only report; exit 1 if something is missing
set -eu

# the kernel sources of the lab's series folders (kernel-patches/*/source:
# the other kernels of compare.sh --kernel), the mkfs tools of the
# catalogue's filesystems, the packages of its guest tools, and the rest
# (chromium: the tests render report.html in it; parallel: compare.sh's
# scheduler; ssh: compare.sh --hosts)
PACKAGES="linux-source-6.12 $(sed -n '1s/^\(linux-source-[0-9.]*\)$/\1/p' \
	"$(dirname "$0")"/../kernel-patches/*/source | tr '\n' ' ')busybox-static $(sed -n 's/^\(fs\|tool\)\t[^\t]*\t\([^\t]*\).*/\2/p' \
	"$(dirname "$0")/catalogue.tsv" | tr '\n' ' ')gcc libc6-dev make bc bison flex
libelf-dev cpio gdb ccache python3 xz-utils git gnuplot-nox valgrind shellcheck
util-linux chromium parallel openssh-client"

check_only=0
case "${1:-}" in
"") ;;
--check) check_only=1 ;;
*)
	echo "usage: $0 [--check]" >&2
	exit 2
	;;
esac

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
