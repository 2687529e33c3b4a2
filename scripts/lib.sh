# shellcheck shell=bash disable=SC2034 # the paths are used by the sourcing scripts
# Shared helpers and paths for reclaimlab's host-side scripts. Sourced, not run.

RL_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RL_BUILD=${RL_BUILD:-$RL_TOP/build}
RL_FLAVOR=${KERNEL_FLAVOR:-normal}
RL_KSRC=${RL_KSRC:-$RL_BUILD/src/linux}
RL_KOUT=${RL_KOUT:-$RL_BUILD/kernel/$RL_FLAVOR}
RL_KERNEL=$RL_KOUT/linux
RL_ROOTFS=$RL_BUILD/rootfs/rootfs.cpio
# host tools (scripts/tools): they read what a guest left in a run folder
RL_HOST_TOOLS=$RL_BUILD/host-tools
RL_IMAGES=$RL_BUILD/images
RL_RESULTS=${RL_RESULTS:-$RL_TOP/results}
# the subfolder of a run folder for what the host derived from the raw
# files (splats, summary rows, histograms); raw files stay as written
RL_DERIVED=derived
# the subfolder of a run folder that is the guest's hostfs root: all the
# guest can write, read by the host as untrusted input; the rest of the run
# folder (run.conf, cmdline, status, console.log, derived/) is the host's
RL_GUEST=guest
RL_FLAVORS="normal debug preempt voluntary"
# the Debian kernel source package the lab's series applies to
RL_KERNEL_SOURCE=linux-source-6.12
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/reclaimlab/ccache}

die() {
	printf 'reclaimlab: error: %s\n' "$*" >&2
	exit 1
}

# need_arg "$@": the option in $1 has a value after it
need_arg() { [ $# -ge 2 ] || die "option $1 needs a value (see --help)"; }

note() {
	printf 'reclaimlab: %s\n' "$*" >&2
}

# build_host_tools: build (or bring up to date) scripts/tools' tools.
build_host_tools() {
	make -s -C "$RL_TOP/scripts/tools" OUT="$RL_HOST_TOOLS" >/dev/null ||
		die "cannot build the host tools (make -C scripts/tools)"
}

# word_in WORD LIST: true if WORD is one of the space-separated LIST
word_in() {
	local w
	for w in $2; do
		[ "$w" = "$1" ] && return 0
	done
	return 1
}

# check_words WHAT "WORD ..." "VALID ..." [MORE]: die naming the first word
# that is not one of VALID (the message lists VALID and MORE)
check_words() {
	local w
	for w in $2; do
		word_in "$w" "$3" || die "unknown $1 '$w' (valid: $3${4:+ $4})"
	done
}

check_flavor() {
	word_in "$RL_FLAVOR" "$RL_FLAVORS" ||
		die "unknown kernel flavour '$RL_FLAVOR' (valid: $RL_FLAVORS)"
}

# check_count WHAT VALUE MIN MAX: die unless VALUE is a whole number from
# MIN to MAX, before any arithmetic on it (bash's wraps past 2^63)
check_count() {
	{ [[ "$2" =~ ^[0-9]{1,18}$ ]] && [ "$((10#$2))" -ge "$3" ] && [ "$((10#$2))" -le "$4" ]; } ||
		die "bad $1 '$(printable "$2")' (valid: a whole number from $3 to $4)"
}

# printable TEXT: TEXT for a message: control bytes (a terminal's escape
# sequences) as '?', at most 200 characters
printable() {
	local t=${1:0:200}
	printf '%s' "${t//[[:cntrl:]]/?}"
}

# conf_value FILE KEY: the value of KEY in a key=value file that a user or
# a guest may have written; read as data, never sourced.  One reader, one
# rule for every key=value file and text (run.conf, status, matrix.conf,
# rl-scenario-info's output: info_value): rl-conf, the C tools' own
# conf_value() (scripts/tools/lib/conf.h), where the last KEY= line wins.
conf_value() {
	[ -f "$1" ] || return 0
	[ -x "$RL_HOST_TOOLS/rl-conf" ] || build_host_tools
	"$RL_HOST_TOOLS/rl-conf" "$1" "$2"
}

# shellcheck source=scripts/lib/catalogue.sh
. "$RL_TOP/scripts/lib/catalogue.sh"
# shellcheck source=scripts/lib/scenario.sh
. "$RL_TOP/scripts/lib/scenario.sh"
# shellcheck source=scripts/lib/guest.sh
. "$RL_TOP/scripts/lib/guest.sh"
# shellcheck source=scripts/lib/disks.sh
. "$RL_TOP/scripts/lib/disks.sh"
# shellcheck source=scripts/lib/run-folder.sh
. "$RL_TOP/scripts/lib/run-folder.sh"
# shellcheck source=scripts/lib/matrix.sh
. "$RL_TOP/scripts/lib/matrix.sh"
# shellcheck source=scripts/lib/kernels.sh
. "$RL_TOP/scripts/lib/kernels.sh"
# shellcheck source=scripts/lib/hosts.sh
. "$RL_TOP/scripts/lib/hosts.sh"
# shellcheck source=scripts/lib/native-state.sh
. "$RL_TOP/scripts/lib/native-state.sh"
# shellcheck source=scripts/lib/native.sh
. "$RL_TOP/scripts/lib/native.sh"
# shellcheck source=scripts/lib/run-options.sh
. "$RL_TOP/scripts/lib/run-options.sh"
